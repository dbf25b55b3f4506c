"""How fast the computer opponent's engines play, per game, on one core.

Usage: python bench/search_speed.py [--positions N] [--depth D] [--nodes N] [--seed S] [--repeat R]
                                    [--games NAME ...]

For each game it prints three rates, each over the same random positions (reached by random
play from the start, as a game goes):
  (a) generate+push+pop: every move of the position generated, played and taken back, three plies
      deep with a die (each roll's moves count) and two without (every node played, nothing
      bulk-counted), in nodes per second. The target is at least twice the rates before the
      engines were made incremental (0.34 M nodes/s Big Balls, 0.22 M Off Board there);
  (b) search: `choose` at a fixed node budget, in nodes per second (every node the search counts
      is a position it played and evaluated or expanded);
  (c) perft: leaves per second of perft over the same positions, one ply deeper than (a) (the last
      ply counted, not played).
Rates are per second of this process's CPU time, the best of --repeat runs: other work on the
machine only slows a run.
"""

from __future__ import annotations

import argparse
import random
import time

from reedboard.controller.games import GAMES, perft
from reedboard.controller.opponent import Limits, choose


def random_positions(name: str, count: int, rng: random.Random) -> list:
    positions = []
    while len(positions) < count:
        game = GAMES[name].drawn_start(rng)
        for _ in range(rng.randrange(0, 40)):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
        if game.outcome() is None:
            positions.append(game)
    return positions


def walk(game, depth: int) -> int:
    """Positions played below `game`, `depth` plies deep, each generated, pushed and popped."""
    nodes = 0
    for move in game.legal_moves():
        game.push(move)
        nodes += 1
        if depth > 1:
            nodes += walk(game, depth - 1)
        game.pop()
    return nodes


def rate(work, positions, repeat: int) -> tuple[int, float]:
    """The nodes of `work` over the positions and the best rate of `repeat` runs."""
    best = 0.0
    for _ in range(repeat):
        started = time.process_time()
        total = sum(work(game) for game in positions)
        best = max(best, total / max(time.process_time() - started, 1e-9))
    return total, best


def measure(name: str, positions: int, depth: int, nodes: int, seed: int, repeat: int = 3) -> dict[str, float]:
    rng = random.Random(f"{seed}/{name}")
    games = random_positions(name, positions, rng)
    played, generated = rate(lambda g: walk(g, depth), games, repeat)
    searched, search_rate = rate(lambda g: choose(g, Limits(nodes=nodes), rng=random.Random(0)).nodes, games, repeat)
    leaves, perft_rate = rate(lambda g: perft(g, depth + 1), games, repeat)
    print(f"{name:9s} generate+push+pop {generated / 1e6:6.3f} M nodes/s ({played:,} nodes)"
          f" | search {search_rate / 1e3:6.1f} k nodes/s ({searched:,} nodes)"
          f" | perft {perft_rate / 1e6:6.3f} M leaves/s ({leaves:,} leaves, depth {depth + 1})", flush=True)
    return {"generate": generated, "search": search_rate, "perft": perft_rate}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40, help="random positions per game (default 40)")
    parser.add_argument("--depth", type=int, default=None,
                        help="plies of the generate+push+pop walk (default: 3 with a die, 2 without)")
    parser.add_argument("--nodes", type=int, default=3000, help="the search's node budget per position")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measure; the best counts (default 3)")
    parser.add_argument("--games", nargs="*", default=sorted(GAMES), choices=sorted(GAMES))
    args = parser.parse_args()
    for name in args.games:
        depth = args.depth or (3 if GAMES[name].uses_die else 2)
        measure(name, args.positions, depth, args.nodes, args.seed, args.repeat)


if __name__ == "__main__":
    main()
