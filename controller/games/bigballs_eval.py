"""How good a Big Balls position is for one player: the evaluation the computer opponent uses.

A race: how many turns each player's best stone needs to reach a7, counting its steps and how
many die values move it (fewer stones left move more often), with a penalty for a stone a big
ball can take before its owner moves again.
The value lies in [-0.9, 0.9] (a won game is scored by the search, at +-1).
The rules engine hands over its tables (`evaluation`), so this module reads nothing of it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

BOUND = 0.9
NO_RACE = 40.0  # the turns counted for a player without stones
NONE = float("inf")


def evaluation(grid, big_ball: int, ball_targets: Sequence[Sequence[int]],
               rolls_per_stone: Sequence[Sequence[int]]) -> Callable[[object, str], float]:
    """evaluate(game, player) over the engine's grid, the big ball's piece code, the hollows a
    ball rolls to from each hollow, and [mask of numbers present][number] -> for how many rolls
    that stone moves. The tables are closure cells: read as fast as globals in the search."""
    rows = tuple(r for _, r in grid.coords)  # hollow -> its row 1..7
    # The big balls that can roll onto a hollow next turn: the hollows above it.
    above = tuple(tuple(b for b in range(len(grid)) if cell in ball_targets[b]) for cell in range(len(grid)))
    # [mask of the numbers present][number] -> the turns a step of that stone waits for its roll
    waits = tuple(tuple(6 / rolls[n] if rolls[n] else 0.0 for n in range(7)) for rolls in rolls_per_stone)
    steps = tuple(7 - row for row in rows)  # hollow -> steps up to row 7

    def race(board: list[int], at: list[int], base: int, present: int, threatened: bool) -> float:
        """About how many turns the player's best stone needs to reach a7: its steps, each
        waiting for a die value that moves it (one stone left moves on every roll), and two
        turns more for a stone a big ball may take first (`threatened`: the opponent moves next).
        A second stone nearly as good counts a little: it survives a capture."""
        wait = waits[present]
        best = second = NONE
        for number in range(1, 7):
            cell = at[base + number]
            if cell < 0:
                continue
            need = steps[cell] * wait[number]
            if threatened:
                for ball in above[cell]:
                    if board[ball] == big_ball:
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

    return evaluate
