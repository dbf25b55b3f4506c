"""The computer opponent's strength and speed: search nodes per second for each game, then the
strength matches of the issue, each with its score and 95 % interval and the time per move.

Usage: python bench/match_strength.py [--games N] [--jobs J] [--seed S] [--speed-only]
       [--seconds T] [--matches GAME:PLAYER:PLAYER ...]
Every node counted is a position the search played (pushed and evaluated or expanded), not a
bulk count. Targets (issue 13): top level >= 95 % against random and >= 70 % against greedy in
Big Balls over 1,000 games; >= 99 % and >= 90 % in Off Board and Abalone; every level > 50 %
against the level below, with the interval above 50 %.
"""

from __future__ import annotations

import argparse
import time

from reedboard.controller.games import GAMES
from reedboard.controller.opponent import LEVELS, Limits, choose
from reedboard.controller.opponent.match import run_match

TOP = f"computer:{max(LEVELS)}"


def strength_matches() -> list[tuple[str, str, str]]:
    matches = []
    for name in sorted(GAMES):
        matches += [(name, TOP, "random"), (name, TOP, "greedy")]
        matches += [(name, f"computer:{n}", f"computer:{n - 1}") for n in range(2, max(LEVELS) + 1)]
    return matches


def nodes_per_second(seconds: float) -> None:
    for name, cls in sorted(GAMES.items()):
        game = cls()
        started = time.perf_counter()
        result = choose(game, Limits(depth=64, seconds=seconds))
        spent = time.perf_counter() - started
        print(f"{name}: {result.nodes / spent:,.0f} nodes/s (start position, {result.nodes:,} nodes,"
              f" depth {result.depth} in {spent:.2f} s, best {result.move})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=3.0, help="the search time of the speed test")
    parser.add_argument("--speed-only", action="store_true")
    parser.add_argument("--matches", nargs="*", metavar="GAME:PLAYER:PLAYER",
                        help="only these matches, e.g. bigballs:computer:8:random")
    args = parser.parse_args()
    nodes_per_second(args.seconds)
    if args.speed_only:
        return
    matches = strength_matches()
    if args.matches:
        matches = []
        for text in args.matches:
            name, rest = text.split(":", 1)
            first, second = _split_players(rest)
            matches.append((name, first, second))
    for name, first, second in matches:
        print(f"\n{name}: {first} against {second}, {args.games} games")
        run_match(name, (first, second), args.games, args.seed, args.jobs,
                  out=lambda line: None if line.startswith("game ") else print(line))


def _split_players(text: str) -> tuple[str, str]:
    """`computer:8:random` -> ("computer:8", "random")."""
    parts = text.split(":")
    players, index = [], 0
    while index < len(parts):
        if parts[index] == "computer":
            players.append(f"computer:{parts[index + 1]}")
            index += 2
        else:
            players.append(parts[index])
            index += 1
    return players[0], players[1]


if __name__ == "__main__":
    main()
