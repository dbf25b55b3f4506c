"""The computer's levels, 1 to a game's strongest: each a node budget, a depth and a temperature,
game by game (a game's table in Game.computer_levels says how many levels it has).

A warm level (temperature > 0) values every move at the root exactly within its node budget (a
turn with a die: both its decisions together), then picks among them as a person would: the
better a move, the likelier, by a softmax over the values with the level's temperature. It
searches shallow and now and then plays a move a little worse than the best, rarely a much worse
one. A cold level (temperature 0) plays the best move it found, and its node budget is what holds
it back: it deepens ply by ply until the budget is spent, so a small budget sees two moves ahead
and only the likeliest replies of the third, as a hurried player does. No level plays a move the
game calls absurd (Game.absurd: say, taking one's own piece for nothing) while another is left,
not even level 1: it errs as a beginner does (it misses captures and leaves pieces hanging, by
its temperature), never absurdly.

The nodes decide, never the clock: the same position, seed and level give the same move on any
machine and under any load. Time is only a safety cap at the table (`limits(game, seconds=...)`, see
worker.Thinker), far above what the budgets take here. The top levels use the time a player waits
for a strong reply on the board's own computer: their node budgets are what a Raspberry Pi Zero 2 W
searches in a game's Game.computer_pi_seconds (about 2 s a move, and up to about 10 s at a
game's strongest), estimated from this machine's node rates and PI_SPEED_RATIO (bench/match_strength.py
--pi says how). A faster computer plays them at the same strength, sooner; their safety cap at the
table (safety_seconds, from Game.computer_safety_seconds) lets a Pi finish them.
The budgets and temperatures are calibrated by bench/ladder.py so that each level scores 60-80 %
against the level below; its measured table, with each level's rating, is ladder.toml (read by
ratings.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..games import GAMES, Game, top_level
from .search_parts import Limits

SAFETY_SECONDS = 6.0  # at the table only: a move never takes longer, whatever the budget (below the Pi's levels)


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
        """Whether it keeps off absurd moves: every level does (a beginner errs, but not absurdly)."""
        return True

    def setting(self, game: str | None = None) -> Setting:
        """Its setting in `game` (a name; None or a game without a table of its own: the
        default's); ValueError (one line) where that game's levels end below it."""
        table = _table_name(game)
        if table not in self.settings:
            raise ValueError(f"the computer's level is 1 to {top_level(game)} in {game}, not {self.number}")
        return self.settings[table]

    def safety_seconds(self, game: str | None = None) -> float:
        """The most a move may take at the table in `game`, whatever the budget."""
        return GAMES.get(game or "", Game).computer_safety_seconds.get(self.number, SAFETY_SECONDS)

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


# How many times slower the search runs on a Pi Zero 2 W (one Cortex-A53 core at 1 GHz) than on
# the machine whose node rates set the Pi's levels' budgets (bench/match_strength.py --pi).
PI_SPEED_RATIO = 15


def pi_seconds(game: str | None = None) -> dict[int, float]:
    """The levels of `game` that use the time a player waits on the Pi: level -> seconds a move there."""
    return GAMES.get(game or "", Game).computer_pi_seconds


def _levels(tables: dict[str, tuple[tuple[int, int, float, float], ...]]) -> dict[int, Level]:
    """Level n of every game whose table reaches it, for n up to the longest table."""
    longest = max(len(rows) for rows in tables.values())
    return {n: Level(n, {game: Setting(*rows[n - 1]) for game, rows in tables.items() if n <= len(rows)})
            for n in range(1, longest + 1)}


# Each game's table of (nodes, depth, temperature, natural) level by level (Game.computer_levels;
# "*": the base class's, for a game without one of its own): a game's levels are 1 to its table's
# length, so a game climbs as far as steps of 60-80 % lead it.
TABLES = {"*": Game.computer_levels, **{name: cls.computer_levels for name, cls in GAMES.items()}}
LEVELS = _levels(TABLES)  # number -> the level, up to the longest table


def _table_name(game: str | None) -> str:
    return game if game in TABLES else "*"


def level(number: int, game: str | None = None) -> Level:
    """Level `number` (1 to top_level(game)); ValueError (one line) otherwise."""
    if not isinstance(number, int) or not 1 <= number <= top_level(game):
        raise ValueError(f"the computer's level is 1 to {top_level(game)}, not {number}")
    return LEVELS[number]
