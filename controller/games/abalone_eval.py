"""How good an Abalone position is for one player: the evaluation the computer opponent uses.

Marbles pushed off count most; then how near the marbles stand to the centre (a marble on the
edge can be pushed off, one in the centre cannot) and their cohesion (neighbouring own marbles
along each line: a group pushes and resists pushes), and the edge marbles the opponent could
push off next turn. Counted on the bitboards with masks.
The value lies in [-0.9, 0.9] (a won game is scored by the search, at +-1).
"""

from __future__ import annotations

import math

from .abalone import AXES, BIT, SHIFT
from .offboard_layout import GRID

BOUND = 0.9
# RING[k]: the holes k steps from the rim (0 the edge .. 4 the centre)
_FROM_RIM = tuple(min(len(GRID.ray[d][cell]) for d in range(6)) for cell in range(len(GRID)))
RING = tuple(sum(BIT[c] for c in range(len(GRID)) if _FROM_RIM[c] == k) for k in range(5))
# EDGE[d]: the holes from which a marble moved in direction d leaves the board
EDGE = tuple(sum(BIT[c] for c in range(len(GRID)) if GRID.step[d][c] < 0) for d in range(6))


# (edge holes of direction d, its bit step) for the directions whose step is positive, then negative
_UP = tuple((EDGE[d], SHIFT[d]) for d in range(6) if SHIFT[d] > 0)
_DOWN = tuple((EDGE[d], -SHIFT[d]) for d in range(6) if SHIFT[d] < 0)
_RINGS = RING[1:]
_AXIS_SHIFTS = tuple(SHIFT[a] for a in AXES)


def exposed(own: int, opposing: int) -> int:
    """Own marbles on the edge with two opposing marbles behind them in line: pushed off next
    turn unless the opponent is kept busy."""
    found = 0
    for edge, shift in _UP:  # behind = the holes -shift away: the opposing bits shifted up
        found |= own & edge & (opposing << shift) & (opposing << 2 * shift)
    for edge, shift in _DOWN:
        found |= own & edge & (opposing >> shift) & (opposing >> 2 * shift)
    return found.bit_count()


def _shape(bits: int) -> tuple[int, int]:
    one, two, three, four = _RINGS
    centre = ((bits & one).bit_count() + 2 * (bits & two).bit_count() + 3 * (bits & three).bit_count()
              + 4 * (bits & four).bit_count())
    a, b, c = _AXIS_SHIFTS
    cohesion = (bits & (bits >> a)).bit_count() + (bits & (bits >> b)).bit_count() + (bits & (bits >> c)).bit_count()
    return centre, cohesion


def evaluate(game, player: str) -> float:
    me = game.players.index(player)
    bits, off = game._bits, game._off
    centre_me, cohesion_me = _shape(bits[me])
    centre_them, cohesion_them = _shape(bits[me ^ 1])
    # a marble that can be pushed off next turn: worse when the opponent moves next
    danger_me, danger_them = (0.04, 0.12) if game._turn == me else (0.12, 0.04)
    value = (0.4 * (off[me] - off[me ^ 1]) + 0.02 * (centre_me - centre_them)
             + 0.01 * (cohesion_me - cohesion_them)
             - danger_me * exposed(bits[me], bits[me ^ 1]) + danger_them * exposed(bits[me ^ 1], bits[me]))
    return BOUND * math.tanh(value)
