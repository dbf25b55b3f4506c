"""What a click costs the referee's loop with the flight recorder on, on disk and on tmpfs.

Usage: python bench/trace_write.py [--clicks N] [--dir DIR]

A Big Balls game is set up by `live.new_referee` (its journal and trace in a fresh folder),
then N clicks: a piece lifted, then put back, one sensor frame each (a touch, no move). The
time of each `referee.frame` call is what the board's loop is held for that click. Then a
few moves, whose journal lines wait until the trace holds the frames that made them.

Places: DIR (default: a folder next to this script, on the disk the games usually go to)
and /dev/shm (tmpfs, where fsync is nearly free) when there is one. For comparison, the
same frames written by a bare TraceWriter, which syncs every line before the next.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from reedboard.controller.games import BigBalls
from reedboard.controller.session.live import new_referee
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.persist.trace import TraceWriter

START = sorted(BigBalls().occupied())
SETTINGS = Settings(debounce=0.02, settle=0.8, grace=1.5)


def clicks(folder: Path, count: int) -> tuple[list[float], float, float]:
    """Seconds each frame call took, the seconds to close, and ms per move."""
    referee = new_referee(BigBalls(), folder, settings=SETTINGS)
    t = 0.0
    referee.start(t)
    board = set(START)
    referee.frame(t, board)
    t += 0.1
    referee.advance(t)  # set up: the journal and the trace are open now
    took = []
    for n in range(count):
        if n % 2 == 0:
            board.discard("a1")
        else:
            board.add("a1")
        t += 0.25
        began = time.perf_counter()
        referee.frame(t, board)
        took.append(time.perf_counter() - began)
    began = time.perf_counter()
    done = 0
    for src, dst in (("a5", "a4"), ("b5", "b4")):  # big-ball moves nothing else can grow out of
        t += 1.0
        board.discard(src)
        referee.frame(t, board)
        t += 0.3
        board.add(dst)
        referee.frame(t, board)
        t += 1.0
        referee.advance(t)
        done += 1
    per_move = (time.perf_counter() - began) / done * 1000
    began = time.perf_counter()
    referee.journal.close()
    referee.recorder.close()
    return took, time.perf_counter() - began, per_move


def bare_writer(folder: Path, count: int) -> list[float]:
    header = {"game": "bigballs", "settings": {"debounce": 0.02}}
    took = []
    with TraceWriter(folder / "bare.trace.jsonl", header) as writer:
        board = set(START)
        for n in range(count):
            if n % 2 == 0:
                board.discard("a1")
            else:
                board.add("a1")
            began = time.perf_counter()
            writer.frame(n * 0.25, board)
            took.append(time.perf_counter() - began)
    return took


def ms(values: list[float]) -> str:
    values = [v * 1000 for v in values]
    return (f"median {statistics.median(values):7.3f} ms  mean {statistics.fmean(values):7.3f} ms"
            f"  max {max(values):7.3f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=400)
    parser.add_argument("--dir", type=Path, default=Path(__file__).resolve().parent)
    args = parser.parse_args()
    places = [("disk", args.dir)] + ([("tmpfs", Path("/dev/shm"))] if Path("/dev/shm").is_dir() else [])
    for name, base in places:
        folder = Path(tempfile.mkdtemp(prefix="reedboard-trace-bench-", dir=base))
        try:
            took, closing, per_move = clicks(folder, args.clicks)
            print(f"{name:5} ({base}): {args.clicks} clicks, referee.frame per click: {ms(took)}")
            print(f"{'':5}   per move (its journal line included): {per_move:7.3f} ms;"
                  f" closing the game: {closing * 1000:7.3f} ms")
            bare = bare_writer(folder, args.clicks)
            print(f"{'':5}   a bare TraceWriter (every line synced before the next): {ms(bare)}")
        finally:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
