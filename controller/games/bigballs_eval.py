"""How good a Big Balls position is for one player: the evaluation the computer opponent uses.

A race: how many turns each player's best stone needs to reach a7, counting its steps and how
many die values move it (fewer stones left move more often), with a penalty for a stone a big
ball can take before its owner moves again.
The value lies in [-0.9, 0.9] (a won game is scored by the search, at +-1).
"""

from __future__ import annotations

import math

from .bigballs import BALL, BALL_TARGETS, GRID, ROLLS_PER_STONE

BOUND = 0.9
ROW = tuple(r for _, r in GRID.coords)  # hollow -> its row 1..7
# The big balls that can roll onto a hollow next turn: the hollows above it.
ABOVE = tuple(tuple(b for b in range(len(GRID)) if cell in BALL_TARGETS[b]) for cell in range(len(GRID)))
NO_RACE = 40.0  # the turns counted for a player without stones


def race(board: list[int], where: list[int], present: int, threatened: bool) -> float:
    """About how many turns the player's best stone needs to reach a7: its steps, each
    waiting for a die value that moves it (one stone left moves on every roll), and two
    turns more for a stone a big ball may take first (`threatened`: the opponent moves next).
    A second stone nearly as good counts a little: it survives a capture."""
    rolls = ROLLS_PER_STONE[present]
    turns = []
    for number in range(1, 7):
        cell = where[number]
        if cell < 0:
            continue
        need = (7 - ROW[cell]) * 6 / rolls[number]
        if threatened and any(board[b] == BALL for b in ABOVE[cell]):
            need += 2.0
        turns.append(need)
    if not turns:
        return NO_RACE
    turns.sort()
    return turns[0] if len(turns) == 1 else turns[0] - 0.1 * max(0.0, 3.0 - (turns[1] - turns[0]))


def evaluate(game, player: str) -> float:
    me = game.players.index(player)
    board, where, present = game._board, game._where, game._present
    mine = race(board, where[me], present[me], threatened=game._turn != me)
    theirs = race(board, where[me ^ 1], present[me ^ 1], threatened=game._turn == me)
    # the player to move is a turn ahead in the race to a7
    lead = theirs - mine + (1.0 if game._turn == me else -1.0)
    return BOUND * math.tanh(0.25 * lead)


def position_key(game) -> tuple:
    return (game._turn, tuple(game._board))

