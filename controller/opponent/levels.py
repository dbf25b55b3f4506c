"""The computer's levels 1-10: each a node budget, a depth and a temperature, game by game.

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
machine and under any load. Time is only a safety cap at the table (`limits(game, seconds=...)`,
see worker.Thinker), far above what the budgets take here. Levels 9 and 10 use the time a player
waits for a strong reply on the board's own computer: their node budgets are what a Raspberry Pi
Zero 2 W searches in PI_SECONDS (about 2 s and 10 s a move; in the game with a die, whose level 8
already thinks about 5 s there, about 10 s and 20 s), estimated from this machine's node rates
and PI_SPEED_RATIO (bench/match_strength.py --pi says how). A faster computer plays them at the same strength, sooner; their safety cap at the table
(safety_seconds) lets a Pi finish them. The budgets and temperatures are
calibrated by bench/ladder.py so that each level scores 60-80 % against the level below; its
measured table, with each level's rating, is ladder.toml (read by ratings.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..games import GAMES
from .search_parts import Limits

SAFETY_SECONDS = 6.0  # at the table only: a move never takes longer, whatever the budget (levels 1-8)


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
        return self.settings.get(game or "*") or self.settings["*"]

    @property
    def safety_seconds(self) -> float:
        """The most a move may take at the table, whatever the budget."""
        return TOP_SAFETY_SECONDS.get(self.number, SAFETY_SECONDS)

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


TOP = 10  # the strongest level
# The levels that use the time a player waits on a Raspberry Pi Zero 2 W: seconds a move there
# (in the games without a die), and the most a move may take at the table, on a loaded Pi too.
PI_SECONDS = {9: 2.0, 10: 10.0}
TOP_SAFETY_SECONDS = {9: 15.0, 10: 40.0}
# How many times slower the search runs on a Pi Zero 2 W (one Cortex-A53 core at 1 GHz) than on
# the machine whose node rates set levels 9 and 10's budgets (bench/match_strength.py --pi).
PI_SPEED_RATIO = 15


def _levels(table: dict[str, list[tuple[int, int, float]]]) -> dict[int, Level]:
    return {n: Level(n, {game: Setting(*rows[n - 1]) for game, rows in table.items()}) for n in range(1, TOP + 1)}


# (nodes, depth, temperature, natural) for levels 1..10, the games' own where a game has them
# (Game.computer_levels), these otherwise. A warm depth-2 level has the nodes to value every move
# at depth 2 (cut short, it falls back on its depth-1 values and is no stronger than the level
# below); its liking for pushes makes it attack (a cautious shallow player only shuffles). Low
# temperatures weigh most: at depth 2, 0.05 to 0.025 can be a step of 90 %. A cold level plays
# its best move and is cut by its node budget; one that reaches depth 3 can beat every warm
# depth-2 level 20-0. Seven steps of about 70 % span only about 1,000 Elo, so these levels run
# from warm depth 2 to cold depth 2; a game's own may run from depth 1 to a start on depth 3. A
# game with a die hides small differences in strength, so its steps are wider.
DEFAULT = (
    (12_000, 2, 0.09, 0.12),
    (12_000, 2, 0.06, 0.08),
    (12_000, 2, 0.04, 0.04),
    (15_000, 2, 0.027, 0.02),
    (15_000, 2, 0.018, 0.0),
    (20_000, 2, 0.012, 0.0),
    (20_000, 2, 0.008, 0.0),
    (350, 64, 0.0, 0.0),
    (9_000, 64, 0.0, 0.0),  # 2 s on a Pi Zero 2 W
    (45_000, 64, 0.0, 0.0),  # 10 s on a Pi Zero 2 W
)
LEVELS = _levels({"*": DEFAULT, **{name: cls.computer_levels for name, cls in GAMES.items() if cls.computer_levels}})


def level(number: int) -> Level:
    """Level `number` (1-10); ValueError (one line) otherwise."""
    if number not in LEVELS:
        raise ValueError(f"the computer's level is 1 to {TOP}, not {number}")
    return LEVELS[number]
