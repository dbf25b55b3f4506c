"""How good an Off Board position is for one player: the evaluation the computer opponent uses.

The score counts most, measured against the points still to be won in free sectors (a player
who cannot reach six any more is lost however the balls stand); then the balls on the board,
a waiting ball (its owner puts it back on any hole), the balls' distance from the rim, where
they can be pushed off, and the edge balls the opponent could push off next turn. The value lies in [-0.9, 0.9] (a won game is scored by the search, at +-1).
"""

from __future__ import annotations

import math

from .offboard import RAYS, WIN_POINTS

BOUND = 0.9
# hole -> how many steps it lies from the rim (0 on the edge, 4 in the centre)
FROM_RIM = tuple(min(len(ray) for ray in rays) for rays in RAYS)
# edge hole -> for each way off the board there, the two holes behind it on that line
BEHIND = tuple(tuple(rays[(d + 3) % 6][:2] for d in range(6) if not rays[d] and len(rays[(d + 3) % 6]) >= 2)
               for rays in RAYS)
EDGE = frozenset(cell for cell, behind in enumerate(BEHIND) if behind)


def evaluate(game, player: str) -> float:
    me = game.players.index(player)
    score, board, free = game._score, game._board, game._free
    value = 0.0
    for side, sign in ((me, 1.0), (me ^ 1, -1.0)):
        if WIN_POINTS - score[side] > free:  # six is out of reach for this side
            value -= sign * 0.5
        balls, colour = game._balls[side], side + 1
        rim, exposed = sum(map(FROM_RIM.__getitem__, balls)), 0
        for cell in balls & EDGE:
            # on the edge with two opposing balls behind it in line: the opponent can push it
            # off (unless more of its own stand between)
            for first, second in BEHIND[cell]:
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
