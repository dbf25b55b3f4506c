"""What every search is built from: its limits, the node counter that stops it, the scores of
ended games, the transposition table, the order moves are tried in. The engines build on
it; `search.choose`, which picks the engine for a game, stands above them.

Values are for the player to move: an evaluation lies in [-0.9, 0.9] (Game.evaluate), a won
game scores WIN less a little per ply (a nearer win is better), a draw 0; so every value lies
in [-WIN, WIN], the bounds the chance nodes of expectimax prune with.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from ..games.base import Game

WIN = 1.0
PLY_COST = 0.001  # a win found deeper scores a little less
INFINITY = float("inf")
ROLL = "roll"  # a game with a die: the decision to roll rather than make a move without it
EXACT, LOWER, UPPER = 0, 1, 2  # what a stored value is: the value, or a bound below or above it


@dataclass(frozen=True)
class Limits:
    """How far a search may go: plies (turns in a game with a die), nodes, seconds. With a
    temperature > 0 every root option gets its exact value and the choice among them is drawn
    by a softmax over the values (a person's way to err: seldom far from the best); `sensible`
    keeps off the options the game calls absurd (Game.absurd) while another is left; `natural`
    is what a push or a capture is worth more than its value in that draw. `repetition`: a
    position met again (in the game so far or on the line searched) scores as a draw, the way
    the levels look for progress; the review and the hint judge by the rules, which have no
    repetition draw, and search without it. `valued`: the position's value is wanted as well as
    the move (the review), so a position with a single option is searched too (a level just
    plays it)."""

    depth: int = 64
    nodes: int | None = None
    seconds: float | None = None
    temperature: float = 0.0
    sensible: bool = False
    natural: float = 0.0
    repetition: bool = True
    valued: bool = False


@dataclass
class Result:
    move: Hashable | None  # ROLL, a move, or None when there is no move
    value: float  # for the player to move
    depth: int  # the deepest iteration completed
    nodes: int
    completed: bool  # False when a limit or the stop cut the last iteration short
    by_depth: tuple[float, ...] = ()  # the best value of each iteration completed, depth 1 first


class Stopped(Exception):
    """A limit was reached or the caller asked to stop: unwind to the root."""


class Budget:
    """Counts every node played and says when to stop: the caller's `stop` callable and the
    clock are asked every `check_every` nodes, the node limit at every node."""

    def __init__(self, limits: Limits, stop: Callable[[], bool] | None = None,
                 clock: Callable[[], float] | None = None, check_every: int = 256) -> None:
        self.limits = limits
        self.stop = stop
        self.clock = clock or time.monotonic
        self.check_every = check_every
        self.nodes = 0
        self.started = self.clock()
        self.max_nodes = limits.nodes if limits.nodes is not None else 1 << 62

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self.max_nodes:
            raise Stopped
        if self.nodes % self.check_every == 0:
            self.check()

    def check(self) -> None:
        if self.stop is not None and self.stop():
            raise Stopped
        if self.limits.seconds is not None and self.clock() - self.started >= self.limits.seconds:
            raise Stopped


def end_value(game: Game, ply: int) -> float | None:
    """The value of an ended game for the player to move, or None while it goes on."""
    outcome = game.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return 0.0
    won = WIN - ply * PLY_COST
    return won if outcome.winner == game.turn else -won


BOUND = 0.9  # an evaluation's bounds


def static_value(game: Game) -> float:
    value = game.evaluate(game.turn)
    return max(-BOUND, min(BOUND, value))


class Table:
    """The transposition table: position key -> (depth, value, kind, best move). Bounded: when
    full it is cleared (a search of a few seconds fits; simpler than replacement schemes)."""

    def __init__(self, size: int = 200_000) -> None:
        self.size = size
        self.entries: dict[Hashable, tuple[int, float, int, Hashable | None]] = {}

    def get(self, key: Hashable | None):
        return None if key is None else self.entries.get(key)

    def put(self, key: Hashable | None, depth: int, value: float, kind: int, move: Hashable | None) -> None:
        if key is None:
            return
        if len(self.entries) >= self.size:
            self.entries.clear()
        self.entries[key] = (depth, value, kind, move)


def enter(search, depth: int, alpha: float, beta: float, ply: int):
    """What every node of a search does first: count itself, then settle at once an ended game,
    a leaf (its evaluation) or a position the table already knows well enough. Returns
    (value, None, None) when settled, else (None, the table's key, its entry or None)."""
    search.budget.tick()
    game = search.game
    ended = end_value(game, ply)
    if ended is not None:
        return ended, None, None
    if depth <= 0:
        return static_value(game), None, None
    key = game.position_key()
    entry = search.table.get(key)
    known = cutoff(entry, depth, alpha, beta)
    if known is not None:
        return known, None, None
    return None, key, entry


def cutoff(entry, depth: int, alpha: float, beta: float) -> float | None:
    """A stored value that settles this node at `depth` within (alpha, beta), or None."""
    if entry is None or entry[0] < depth:
        return None
    _, value, kind, _ = entry
    if kind == EXACT or (kind == LOWER and value >= beta) or (kind == UPPER and value <= alpha):
        return value
    return None


def kind_of(value: float, alpha: float, beta: float) -> int:
    return UPPER if value <= alpha else LOWER if value >= beta else EXACT


_TACTICAL: dict[Hashable, int] = {}  # move -> tactical(move): moves recur in every search


def tactical(move: Hashable) -> int:
    """How forcing a move looks without playing it: push-offs and scoring first, then pushes
    and captures (read from the moves' own fields; 0 for a quiet move)."""
    score = _TACTICAL.get(move)
    if score is None:
        if len(_TACTICAL) >= 100_000:
            _TACTICAL.clear()
        score = _TACTICAL[move] = _tactical(move)
    return score


def _tactical(move: Hashable) -> int:
    score = 0
    if getattr(move, "off", False) or getattr(move, "sector", None) is not None:
        score += 1000 + 100 * getattr(move, "points", 0)
    score += 10 * getattr(move, "pushed", 0)
    if getattr(move, "capture", False):
        score += 50
    return score
