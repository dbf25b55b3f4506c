"""The computer's choice of a move: the engine for the game (expectimax with a die, alpha-beta
without), given the turn's limits. The engines and what they share are below it
(alphabeta, expectimax, rootsearch, search_parts)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from ..games.base import Game
from .alphabeta import AlphaBeta
from .expectimax import Expectimax
from .search_parts import Limits, Result


def per_decision(limits: Limits, roll: int | None) -> Limits:
    """A turn with a die is two searches, before the roll and after it: the turn's time and
    nodes are shared, most to the first (it weighs every face; the second searches one)."""
    share = 0.6 if roll is None else 0.4
    return replace(limits, seconds=None if limits.seconds is None else limits.seconds * share,
                   nodes=None if limits.nodes is None else max(1, int(limits.nodes * share)))


def choose(game: Game, limits: Limits, *, roll: int | None = None, stop: Callable[[], bool] | None = None,
           clock: Callable[[], float] | None = None, rng: random.Random | None = None) -> Result:
    """The move to play in `game`'s position within `limits`. In a game with a die, `roll`
    None asks for the turn's first decision (a move without the die, or ROLL), a roll for the
    move it allows; `limits` are the whole turn's. Stopped early, it returns the best move
    found so far."""
    if game.uses_die:
        return Expectimax(game, per_decision(limits, roll), stop=stop, clock=clock, rng=rng).run(roll)
    return AlphaBeta(game, limits, stop=stop, clock=clock, rng=rng).run()
