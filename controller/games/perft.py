"""perft: the number of leaves of the move tree, the standard check of a move generator.

The last ply is counted, not played (count_legal_moves), as perft engines do; a finished
game has no children, and perft(game, 0) is 1.
"""

from __future__ import annotations

from collections.abc import Hashable

from .base import Game


def perft(game: Game, depth: int) -> int:
    if depth < 0:
        raise ValueError("perft depth must be 0 or more")
    if depth == 0:
        return 1
    # legal_moves and count_legal_moves are empty once the game is over: each engine asks
    # for the outcome itself, once per position, so perft does not ask again.
    if depth == 1:
        return game.count_legal_moves()
    total = 0
    for move in game.legal_moves():
        game.push(move)
        total += perft(game, depth - 1)
        game.pop()
    return total


def divide(game: Game, depth: int) -> list[tuple[Hashable, int]]:
    """Each legal first move with the perft count below it (depth >= 1)."""
    if depth < 1:
        raise ValueError("divide needs depth 1 or more")
    counts = []
    for move in game.legal_moves():
        game.push(move)
        counts.append((move, perft(game, depth - 1)))
        game.pop()
    return counts
