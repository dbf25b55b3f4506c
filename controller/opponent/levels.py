"""The computer's levels 1-8: each a node budget, a depth and a temperature, game by game.

A level searches every move at the root to its exact value within its node budget (a turn with
a die: both its decisions together), then picks among them as a person would: the better a move,
the likelier, by a softmax over the values with the level's temperature (0: always the best).
A weak level searches shallow and has a high temperature, so it misses what lies deeper and now
and then plays a move a little worse than the best, rarely a much worse one; it never plays a
move the game calls absurd (Game.absurd: say, taking one's own piece for nothing) while
another is left, except level 1, which may.

The nodes decide, never the clock: the same position, seed and level give the same move on any
machine and under any load. Time is only a safety cap at the table (`limits(game, seconds=...)`,
see worker.Thinker), far above what the budgets take here. The budgets and temperatures are
calibrated by bench/ladder.py so that each level scores 60-80 % against the level below; its
measured table, with each level's rating, is ladder.toml (read by ratings.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..games import GAMES
from .search_parts import Limits

SAFETY_SECONDS = 6.0  # at the table only: a move never takes longer, whatever the budget


@dataclass(frozen=True)
class Setting:
    """What a level does in one game: its node budget per move, the plies (turns with a die) it
    deepens to at most, and its temperature at the root (in the evaluation's units)."""

    nodes: int
    depth: int = 64
    temperature: float = 0.0
    natural: float = 0.0  # a push or a capture counts this much more in the draw (people see them first)


@dataclass(frozen=True)
class Level:
    number: int
    settings: dict[str, Setting] = field(hash=False)  # game name -> its setting; "*" for the others

    @property
    def sensible(self) -> bool:
        """Whether it keeps off absurd moves (every level but the first)."""
        return self.number > 1

    def setting(self, game: str | None = None) -> Setting:
        return self.settings.get(game or "*") or self.settings["*"]

    @property
    def nodes(self) -> int:
        return self.setting().nodes

    @property
    def temperature(self) -> float:
        return self.setting().temperature

    def limits(self, game: str | None = None, seconds: float | None = None) -> Limits:
        """The search limits in `game` (a name; None: the default setting). `seconds`: a safety
        cap, for the table only; without it the node budget alone decides."""
        s = self.setting(game)
        return Limits(depth=s.depth, nodes=s.nodes, seconds=seconds, temperature=s.temperature, natural=s.natural,
                      sensible=self.sensible)


def _levels(table: dict[str, list[tuple[int, int, float]]]) -> dict[int, Level]:
    return {n: Level(n, {game: Setting(*rows[n - 1]) for game, rows in table.items()}) for n in range(1, 9)}


# (nodes, depth, temperature, natural) for levels 1..8, the games' own where a game has them
# (Game.computer_levels), these otherwise. The lower levels' temperature makes games without
# chance differ and their mistakes, their liking for pushes makes them attack (a cautious
# shallow player only shuffles); a game with a die hides small differences in strength, so its
# steps are wider. A depth-2 level has the nodes to value every move at depth 2 (cut short, it
# falls back on its depth-1 values and is no stronger than the level below); the step from
# depth 1 to depth 2 is bridged by a warmer depth-2 level: depth 2 at a temperature t plays about
# as well as depth 1 at a fraction of t. Low temperatures weigh most: halving 0.04 is a bigger
# step than halving 0.5.
DEFAULT = (
    (400, 1, 0.25, 0.25),
    (600, 1, 0.13, 0.20),
    (1_000, 1, 0.08, 0.15),
    (12_000, 2, 0.09, 0.12),
    (12_000, 2, 0.06, 0.08),
    (15_000, 2, 0.035, 0.04),
    (20_000, 2, 0.015, 0.0),
    (40_000, 64, 0.0, 0.0),
)
LEVELS = _levels({"*": DEFAULT, **{name: cls.computer_levels for name, cls in GAMES.items() if cls.computer_levels}})


def level(number: int) -> Level:
    """Level `number` (1-8); ValueError (one line) otherwise."""
    if number not in LEVELS:
        raise ValueError(f"the computer's level is 1 to 8, not {number}")
    return LEVELS[number]
