"""Crash fuzz, full size: how often does the replay of a crashed game's trace equal its journal?

Usage: python bench/crash_fuzz.py [--games N] [--kills K] [--seed S] [--parallel P] [--keep DIR]

Runs N games of each kind (Big Balls, Off Board) live in subprocesses, each killed (SIGKILL)
K times at random moments and resumed (see tests/test_crash.py, which runs a small version
of the same), and compares `replay` of the trace with `export` of the journal after every
kill, once the controller is back, and at the end of each game. Prints how many comparisons
and how many games agreed, and how many agreed right after the kill already (the trace may
be one input ahead until the controller comes back). The games' folders are removed unless
--keep names where to put them.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_crash import crash_fuzz  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=25, help="games of each kind")
    parser.add_argument("--kills", type=int, default=6, help="kills per game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--parallel", type=int, default=4, help="games played at once")
    parser.add_argument("--keep", type=Path, help="keep the games' folders here")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="reedboard-crash-fuzz-"))
    began = time.monotonic()
    try:
        points = asyncio.run(crash_fuzz(folder, args.games, args.kills, seed=args.seed, parallel=args.parallel))
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    took = time.monotonic() - began
    for game in ("bigballs", "offboard"):
        kills = [p for p in points if p.game == game and p.kill]
        ends = [p for p in points if p.game == game and not p.kill]
        crashed = [p for p in ends if any(k.folder == p.folder for k in kills)]
        print(f"{game:9}: after {len(kills)} kills, {sum(p.equal for p in kills)} replays equalled the export;"
              f" at the end, {sum(p.equal for p in crashed)} of {len(crashed)} crashed-and-resumed games")
    kills = [p for p in points if p.kill]
    print(f"all      : {sum(p.equal for p in kills)} of {len(kills)} kill points, in {took:.0f} s")
    print(f"           (right after the kill, before the controller came back and caught its journal up:"
          f" {sum(bool(p.at_once) for p in kills)} of {len(kills)})")
    back = [p for p in kills if p.coming_back]
    print(f"           (killed again while coming back: {sum(p.equal for p in back)} of {len(back)} equal)")
    wrong = [p for p in points if not p.equal]
    if wrong:
        first = wrong[0]
        print(f"first difference: {first.folder.name} after kill {first.kill}:"
              f"\n  replay {first.replayed[4:]}\n  export {first.exported[4:]}")


if __name__ == "__main__":
    main()
