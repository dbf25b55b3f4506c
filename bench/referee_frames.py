"""Unchanged frames through the whole referee, per game: frames/s and us/frame.

A live board reports its switches many times a second and almost every report repeats the
last one. What such a frame costs the referee (reconciler, view, light frame) bounds how fast
a board may scan and how much of the Pi the controller takes while the players think.

    python bench/referee_frames.py [--frames N] [--repeats R]

Each game is set up from its start position ("given"), a few plies are played through the
referee, then the same board is fed N times; the best of R runs is printed.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent))  # PYTHONPATH (another checkout) wins

from reedboard.controller.games import GAMES  # noqa: E402
from reedboard.controller.core.referee import Referee  # noqa: E402

STEP = 0.005  # s between frames, as a board scanning at 200 Hz


def start_game(cls):
    """The game's default start (from_options where the game has it)."""
    from_options = getattr(cls, "from_options", None)
    return from_options() if from_options is not None else cls()


def played_referee(cls, plies: int, rng: random.Random) -> tuple[Referee, float]:
    """A referee in play, after `plies` moves made on the board frame by frame."""
    referee = Referee(start_game(cls))
    t = 0.0
    referee.start(t)
    t += STEP
    referee.frame(t, referee.game.occupied())
    for _ in range(plies):
        game = referee.game
        if game.outcome() is not None:
            break
        if getattr(cls, "uses_die", False) or hasattr(game, "movable_stones"):
            # a game with a die: a stone move needs a roll; the bench keeps to the moves that need none
            moves = [m for m in game.turn_moves(None) if game.roll_of(m) is None] if hasattr(game, "roll_of") \
                else []
        else:
            moves = game.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        after = game.copy()
        after.push(move)
        t += STEP
        referee.frame(t, after.occupied())
        t += 2.0  # past the settle time: the move is taken
        referee.advance(t)
    return referee, t


def measure(cls, frames: int, repeats: int, rng: random.Random) -> float:
    referee, t = played_referee(cls, 6, rng)
    board = referee.game.occupied()
    for _ in range(10):
        t += STEP
        referee.frame(t, board)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(frames):
            t += STEP
            referee.frame(t, board)
        best = min(best, time.perf_counter() - start)
    return frames / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    print(f"unchanged frames through the referee (best of {args.repeats} runs of {args.frames}):")
    for name, cls in GAMES.items():
        rate = measure(cls, args.frames, args.repeats, random.Random(args.seed))
        print(f"  {name:10s} {rate:>10,.0f} frames/s  {1e6 / rate:7.1f} us/frame")


if __name__ == "__main__":
    main()
