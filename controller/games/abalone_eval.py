"""How good an Abalone position is for one player: the evaluation the computer opponent uses.

Marbles pushed off count most; then how near the marbles stand to the centre (a marble on the
edge can be pushed off, one in the centre cannot) and their cohesion (neighbouring own marbles
along each line: a group pushes and resists pushes), and the edge marbles the opponent could
push off next turn. Counted on the bitboards with masks.
The value lies in [-0.9, 0.9] (a won game is scored by the search, at +-1).
The rules engine hands over its tables (`evaluation`), so this module reads nothing of it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

BOUND = 0.9


def evaluation(grid, bit: Sequence[int], shift: Sequence[int], axes: Sequence[int]) -> Callable[[object, str], float]:
    """evaluate(game, player) over the engine's hexagon grid, its bitboard (cell -> its bit,
    direction -> its bit step) and one direction of each of the three lines. The masks are
    closure cells: read as fast as globals in the search."""
    cells = range(len(grid))
    from_rim = tuple(min(len(grid.ray[d][cell]) for d in range(6)) for cell in cells)
    # ring[k]: the holes k steps from the rim (0 the edge .. 4 the centre)
    ring = tuple(sum(bit[c] for c in cells if from_rim[c] == k) for k in range(5))
    # edge[d]: the holes from which a marble moved in direction d leaves the board
    edge = tuple(sum(bit[c] for c in cells if grid.step[d][c] < 0) for d in range(6))
    # (edge holes of direction d, its bit step) for the directions whose step is positive, then negative
    ups = tuple((edge[d], shift[d]) for d in range(6) if shift[d] > 0)
    downs = tuple((edge[d], -shift[d]) for d in range(6) if shift[d] < 0)
    one, two, three, four = ring[1:]
    a, b, c = (shift[axis] for axis in axes)

    def exposed(own: int, opposing: int) -> int:
        """Own marbles on the edge with two opposing marbles behind them in line: pushed off next
        turn unless the opponent is kept busy."""
        found = 0
        for edge_bits, step in ups:  # behind = the holes -step away: the opposing bits shifted up
            found |= own & edge_bits & (opposing << step) & (opposing << 2 * step)
        for edge_bits, step in downs:
            found |= own & edge_bits & (opposing >> step) & (opposing >> 2 * step)
        return found.bit_count()

    def shape(bits: int) -> tuple[int, int]:
        centre = ((bits & one).bit_count() + 2 * (bits & two).bit_count() + 3 * (bits & three).bit_count()
                  + 4 * (bits & four).bit_count())
        cohesion = (bits & (bits >> a)).bit_count() + (bits & (bits >> b)).bit_count() + (bits & (bits >> c)).bit_count()
        return centre, cohesion

    def evaluate(game, player: str) -> float:
        me = game.players.index(player)
        bits, off = game._bits, game._off
        centre_me, cohesion_me = shape(bits[me])
        centre_them, cohesion_them = shape(bits[me ^ 1])
        # a marble that can be pushed off next turn: worse when the opponent moves next
        danger_me, danger_them = (0.04, 0.12) if game._turn == me else (0.12, 0.04)
        value = (0.4 * (off[me] - off[me ^ 1]) + 0.02 * (centre_me - centre_them)
                 + 0.01 * (cohesion_me - cohesion_them)
                 - danger_me * exposed(bits[me], bits[me ^ 1]) + danger_them * exposed(bits[me ^ 1], bits[me]))
        return BOUND * math.tanh(value)

    return evaluate
