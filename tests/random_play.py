"""A game played at random: what the key, search and recogniser tests and bench/reconcile_speed.py
start from."""

import random


def played_at_random(game, rng: random.Random, plies: int):
    """`game` after up to `plies` random legal moves (fewer where it ends), each pushed onto it."""
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    return game
