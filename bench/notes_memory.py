"""Memory of one long game: does it grow with every touch?

Usage: python bench/notes_memory.py [--events N] [--dir DIR]

A Big Balls game set up by `live.new_referee` (journal and trace in a fresh folder; tmpfs
/dev/shm when there is one, so the disk does not set the pace), then N sensor frames: a
piece lifted and put back again and again, each touch a note for the players. Prints the
process's resident memory (VmRSS) before and after, the Python heap the referee holds
(tracemalloc), and how many notes the referee keeps and has made.
"""

from __future__ import annotations

import argparse
import gc
import shutil
import tempfile
import tracemalloc
from pathlib import Path

from reedboard.controller.games import BigBalls
from reedboard.controller.session.live import new_referee
from reedboard.controller.core.reconcile import Settings

START = sorted(BigBalls().occupied())
SETTINGS = Settings(debounce=0.02, settle=0.8, grace=1.5)


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def play(folder: Path, events: int, heap: bool) -> tuple[float, float, object]:
    """Resident MiB (or traced heap MiB) before and after the frames, and the referee."""
    referee = new_referee(BigBalls(), folder, settings=SETTINGS)
    t = 0.0
    referee.start(t)
    board = set(START)
    referee.frame(t, board)
    referee.advance(t + 0.1)
    gc.collect()
    if heap:
        tracemalloc.start()
    measure = (lambda: tracemalloc.get_traced_memory()[0] / 2**20) if heap else rss_mib
    before = measure()
    for n in range(events):
        t += 0.5
        if n % 2 == 0:
            board.discard("a1")
        else:
            board.add("a1")
        referee.frame(t, board)
    referee.advance(t + 5)
    gc.collect()
    after = measure()
    if heap:
        tracemalloc.stop()
    referee.journal.close()
    referee.recorder.close()
    return before, after, referee


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20_000)
    shm = Path("/dev/shm")
    parser.add_argument("--dir", type=Path, default=shm if shm.is_dir() else Path(tempfile.gettempdir()))
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="reedboard-notes-bench-", dir=args.dir))
    try:
        before, after, referee = play(folder / "rss", args.events, heap=False)
        made = getattr(referee, "notes_total", len(referee.notes))
        print(f"{args.events} frames: {made} notes made, {len(referee.notes)} kept by the referee")
        print(f"resident memory: {before:6.1f} MiB before, {after:6.1f} MiB after (+{after - before:.1f} MiB)")
        before, after, _ = play(folder / "heap", args.events, heap=True)
        print(f"Python heap allocated during the game and still held: {after - before:6.2f} MiB")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
