"""Perft leaves per second for both games on one core.

Usage: python bench/perft_speed.py [--bigballs-depth N] [--offboard-depth N]
The last ply is counted, not played, as perft engines do. Targets on one core of our
machines: Big Balls at least 2,000,000 leaves/s, Off Board at least 1,000,000 leaves/s.
"""

from __future__ import annotations

import argparse
import time

from controller.games import BigBalls, OffBoard, perft


def measure(name: str, game, depth: int, target: int) -> None:
    start = time.perf_counter()
    leaves = perft(game, depth)
    seconds = time.perf_counter() - start
    rate = leaves / seconds
    verdict = "meets" if rate >= target else "MISSES"
    print(f"{name:9s} depth {depth}: {leaves:>11,} leaves in {seconds:6.2f} s = {rate:>11,.0f} leaves/s"
          f"  ({verdict} the target of {target:,})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bigballs-depth", type=int, default=5)
    parser.add_argument("--offboard-depth", type=int, default=4)
    args = parser.parse_args()
    measure("Big Balls", BigBalls(), args.bigballs_depth, 2_000_000)
    measure("Off Board", OffBoard(), args.offboard_depth, 1_000_000)


if __name__ == "__main__":
    main()
