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


# [mask of the numbers present][number] -> the turns a step of that stone waits for its roll
WAIT = tuple(tuple(6 / rolls[n] if rolls[n] else 0.0 for n in range(7)) for rolls in ROLLS_PER_STONE)
STEPS = tuple(7 - row for row in ROW)  # hollow -> steps up to row 7
NONE = float("inf")


def race(board: list[int], at: list[int], base: int, present: int, threatened: bool) -> float:
    """About how many turns the player's best stone needs to reach a7: its steps, each
    waiting for a die value that moves it (one stone left moves on every roll), and two
    turns more for a stone a big ball may take first (`threatened`: the opponent moves next).
    A second stone nearly as good counts a little: it survives a capture."""
    wait = WAIT[present]
    best = second = NONE
    for number in range(1, 7):
        cell = at[base + number]
        if cell < 0:
            continue
        need = STEPS[cell] * wait[number]
        if threatened:
            for ball in ABOVE[cell]:
                if board[ball] == BALL:
                    need += 2.0
                    break
        if need < best:
            best, second = need, best
        elif need < second:
            second = need
    if best == NONE:
        return NO_RACE
    return best if second == NONE else best - 0.1 * max(0.0, 3.0 - (second - best))


def evaluate(game, player: str) -> float:
    me = game.players.index(player)
    board, at, present = game._board, game._at, game._present
    # a player's stones are the piece codes 6 * colour + number
    mine = race(board, at, 6 * me, present[me], threatened=game._turn != me)
    theirs = race(board, at, 6 * (me ^ 1), present[me ^ 1], threatened=game._turn == me)
    # the player to move is a turn ahead in the race to a7
    lead = theirs - mine + (1.0 if game._turn == me else -1.0)
    return BOUND * math.tanh(0.25 * lead)
