"""A game played at random: what the key, search and recogniser tests and bench/reconcile_speed.py
start from; and one journaled as it is played (the past games of the web view's tests and of
bench/web_flood.py)."""

import random
from datetime import datetime
from pathlib import Path

from reedboard.controller.games import OffBoard
from reedboard.controller.persist.journal import Journal


def played_at_random(game, rng: random.Random, plies: int):
    """`game` after up to `plies` random legal moves (fewer where it ends), each pushed onto it."""
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    return game


def journaled_at_random(games_dir: Path, rng: random.Random, plies: int, started: datetime) -> Path:
    """The journal of an Off Board game of up to `plies` random moves (fewer where it ends),
    begun at `started`: its path."""
    game = OffBoard()
    with Journal.create(games_dir, game, {}, started) as journal:
        for ply in range(plies):
            moves = game.legal_moves()
            if not moves or game.outcome() is not None:
                break
            move = rng.choice(moves)
            journal.append_move(float(ply), game.format_move(move))
            game.push(move)
    return journal.path
