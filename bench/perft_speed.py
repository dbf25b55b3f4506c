"""Perft leaves per second for each game on one core.

Usage: python bench/perft_speed.py [--bigballs-depth N] [--offboard-depth N] [--abalone-depth N]
                                   [--repeat N]
The last ply is counted, not played, as perft engines do. Targets on one core of our
machines: Big Balls at least 2,000,000 leaves/s, Off Board and Abalone (standard layout)
at least 1,000,000 leaves/s.

Each game is also walked by perft as it was before it stopped asking for the outcome itself
(then every position's outcome was found twice: by perft, and again by the engine's move
generator), to show what that saved.
"""

from __future__ import annotations

import argparse
import time

from reedboard.controller.games import BigBalls, OffBoard, perft
from reedboard.controller.games.abalone import Abalone


def perft_asking_twice(game, depth: int) -> int:
    """perft as it was: game.outcome() at every position, before the engine asks again."""
    if depth == 0:
        return 1
    if game.outcome() is not None:
        return 0
    if depth == 1:
        return game.count_legal_moves()
    total = 0
    for move in game.legal_moves():
        game.push(move)
        total += perft_asking_twice(game, depth - 1)
        game.pop()
    return total


def best_rates(game, depth: int, repeat: int) -> tuple[int, int, float, float]:
    """Leaves of both walks and the best of `repeat` rates of each, the walks taking turns.
    Rates are leaves per second of this process's own CPU time: other work on the machine
    only slows a run, it does not count in it."""
    best = {perft_asking_twice: 0.0, perft: 0.0}
    leaves = {}
    for _ in range(repeat):
        for walk in best:
            start = time.process_time()
            leaves[walk] = walk(game, depth)
            best[walk] = max(best[walk], leaves[walk] / (time.process_time() - start))
    return leaves[perft_asking_twice], leaves[perft], best[perft_asking_twice], best[perft]


def measure(name: str, game, depth: int, target: int, repeat: int) -> None:
    before_leaves, leaves, before, after = best_rates(game, depth, repeat)
    if leaves != before_leaves:
        print(f"{name}: the two walks DISAGREE ({before_leaves:,} and {leaves:,} leaves)")
    verdict = "meets" if after >= target else "MISSES"
    print(f"{name:9s} depth {depth}: {leaves:>11,} leaves; {after:>11,.0f} leaves/s"
          f" (asking the outcome twice: {before:>11,.0f}, {after / before - 1:+.0%})"
          f"  ({verdict} the target of {target:,})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bigballs-depth", type=int, default=5)
    parser.add_argument("--offboard-depth", type=int, default=4)
    parser.add_argument("--abalone-depth", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each walk; the best counts (default 3)")
    args = parser.parse_args()
    measure("Big Balls", BigBalls(), args.bigballs_depth, 2_000_000, args.repeat)
    measure("Off Board", OffBoard(), args.offboard_depth, 1_000_000, args.repeat)
    measure("Abalone", Abalone(), args.abalone_depth, 1_000_000, args.repeat)


if __name__ == "__main__":
    main()
