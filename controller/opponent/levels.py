"""The computer's levels 1-8: each a time budget and search limits.

Level 1 looks one turn ahead and errs at random (a child can beat it); level 8 searches as
deep as about two seconds allow here. Depth counts plies (with a die: turns, each a decision,
the die and the move it allows). `scale` stretches the time budgets (a slower Pi).
"""

from __future__ import annotations

from dataclasses import dataclass

from .search_parts import Limits


@dataclass(frozen=True)
class Level:
    number: int
    depth: int
    seconds: float | None
    nodes: int | None = None
    noise: float = 0.0

    def limits(self, scale: float = 1.0) -> Limits:
        seconds = None if self.seconds is None else self.seconds * scale
        return Limits(depth=self.depth, nodes=self.nodes, seconds=seconds, noise=self.noise)


LEVELS = {
    1: Level(1, depth=1, seconds=0.05, nodes=2_000, noise=0.5),
    2: Level(2, depth=1, seconds=0.05, nodes=2_000, noise=0.1),
    3: Level(3, depth=2, seconds=0.1, nodes=4_000),
    4: Level(4, depth=3, seconds=0.3, nodes=12_000),
    5: Level(5, depth=4, seconds=0.6, nodes=25_000),
    6: Level(6, depth=5, seconds=1.0, nodes=45_000),
    7: Level(7, depth=6, seconds=1.4, nodes=65_000),
    8: Level(8, depth=64, seconds=1.8),
}


def level(number: int) -> Level:
    """Level `number` (1-8); ValueError (one line) otherwise."""
    if number not in LEVELS:
        raise ValueError(f"the computer's level is 1 to 8, not {number}")
    return LEVELS[number]
