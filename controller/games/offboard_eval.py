"""How good an Off Board position is for one player: the evaluation the computer opponent uses.

The score counts most, measured against the points still to be won in free sectors (a player
who cannot reach six any more is lost however the balls stand); then the balls on the board,
a waiting ball (its owner puts it back on any hole), the balls' distance from the rim, where
they can be pushed off, and the edge balls the opponent could push off next turn. The value lies in [-0.9, 0.9] (a won game is scored by the search, at +-1).
The rules engine hands over its tables (`evaluation`), so this module reads nothing of it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

BOUND = 0.9


def evaluation(rays: Sequence[Sequence[Sequence[int]]], win_points: int) -> Callable[[object, str], float]:
    """evaluate(game, player) over the engine's rays ([hole][direction] -> the holes beyond it,
    nearest first) and the points that win. The tables are closure cells: read as fast as globals."""
    # hole -> how many steps it lies from the rim (0 on the edge, 4 in the centre)
    from_rim = tuple(min(len(ray) for ray in hole_rays) for hole_rays in rays)
    # edge hole -> for each way off the board there, the two holes behind it on that line
    behind = tuple(tuple(hole_rays[(d + 3) % 6][:2] for d in range(6)
                         if not hole_rays[d] and len(hole_rays[(d + 3) % 6]) >= 2) for hole_rays in rays)
    edge = frozenset(cell for cell, lines in enumerate(behind) if lines)

    def evaluate(game, player: str) -> float:
        me = game.players.index(player)
        score, board, free = game._score, game._board, game._free
        value = 0.0
        for side, sign in ((me, 1.0), (me ^ 1, -1.0)):
            if win_points - score[side] > free:  # six is out of reach for this side
                value -= sign * 0.5
            balls, colour = game._balls[side], side + 1
            rim, exposed = sum(map(from_rim.__getitem__, balls)), 0
            for cell in balls & edge:
                # on the edge with two opposing balls behind it in line: the opponent can push it
                # off (unless more of its own stand between)
                for first, second in behind[cell]:
                    code = board[first]
                    if code and code != colour:
                        code = board[second]
                        if code and code != colour:
                            exposed += 1
                            break
            # a ball that can be pushed off next turn: worse when the opponent moves next
            danger = 0.12 if game._turn != side else 0.04
            value += sign * (0.35 * score[side] + 0.06 * len(balls) + 0.012 * rim - danger * exposed)
        if game._waiting:  # the mover's pushed-off ball comes back on a hole of its choice
            value += 0.05 if game._turn == me else -0.05
        return BOUND * math.tanh(value)

    return evaluate
