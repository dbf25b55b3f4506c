"""How good an Off Board position is for one player: the evaluation the computer opponent uses.

The score counts most, measured against the points still to be won in free sectors (a player
who cannot reach six any more is lost however the balls stand); then the balls on the board,
a waiting ball (its owner puts it back on any hole), the balls' distance from the rim, where
they can be pushed off, and the edge balls the opponent could push off next turn. The value lies in [-0.9, 0.9] (a won game is scored by the search, at +-1).
"""

from __future__ import annotations

import math

from .offboard import EMPTY, RAYS, WIN_POINTS

BOUND = 0.9
# hole -> how many steps it lies from the rim (0 on the edge, 4 in the centre)
FROM_RIM = tuple(min(len(ray) for ray in rays) for rays in RAYS)
# edge hole -> for each way off the board there, the two holes behind it on that line
BEHIND = tuple(tuple(rays[(d + 3) % 6][:2] for d in range(6) if not rays[d] and len(rays[(d + 3) % 6]) >= 2)
               for rays in RAYS)


def exposed(board: list[int], balls, colour: int) -> int:
    """The balls of `colour` (a board code) on the edge with two opposing balls behind them in
    line: the opponent can push them off (unless more of their own stand between)."""
    count = 0
    for cell in balls:
        for first, second in BEHIND[cell]:
            if board[first] not in (EMPTY, colour) and board[second] not in (EMPTY, colour):
                count += 1
                break
    return count


def evaluate(game, player: str) -> float:
    me = game.players.index(player)
    score = game._score
    free = sum(s.value for s, code in zip(game.sectors, game._holder) if code == EMPTY)
    value = 0.0
    for side, sign in ((me, 1.0), (me ^ 1, -1.0)):
        need = WIN_POINTS - score[side]
        if need > free:  # six is out of reach for this side
            value -= sign * 0.5
        balls = game._balls[side]
        # a ball that can be pushed off next turn: worse when the opponent moves next
        danger = 0.12 if game._turn != side else 0.04
        value += sign * (0.35 * score[side] + 0.06 * len(balls) + 0.012 * sum(FROM_RIM[c] for c in balls)
                         - danger * exposed(game._board, balls, side + 1))
    if game._waiting:  # the mover's pushed-off ball comes back on a hole of its choice
        value += 0.05 if game._turn == me else -0.05
    return BOUND * math.tanh(value)


def position_key(game) -> tuple:
    return (game._turn, game._waiting, tuple(game._board), tuple(game._holder), tuple(game._dropped))
