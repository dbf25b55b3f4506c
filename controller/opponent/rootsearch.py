"""Iterative deepening at the root, shared by both engines: deepen one ply at a time until a
limit, keep the best move of the last finished iteration (or of the cut one, once its first,
previously best move was searched), and stop early when a won or lost end is proven."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable

from ..games.base import Game
from .search_parts import INFINITY, PLY_COST, WIN, Budget, Limits, Result, Stopped, Table


class RootSearch:
    """The part of an engine above its first moves: the subclasses search below them."""

    def __init__(self, game: Game, limits: Limits, *, stop: Callable[[], bool] | None = None,
                 clock: Callable[[], float] | None = None, rng: random.Random | None = None) -> None:
        self.game = game.copy()  # a stop unwinds without popping: search a copy
        self.limits = limits
        self.budget = Budget(limits, stop, clock)
        self.rng = rng or random.Random(0)
        self.table = Table()
        self._partial: tuple[Hashable, float] | None = None  # the cut iteration's best so far

    def deepen(self, options: list[Hashable], value_of: Callable[[Hashable, int, float, float], float]) -> Result:
        """The best of `options` by `value_of(option, depth, alpha, beta)` (a value for the
        player to move), searched deeper and deeper."""
        best, best_value, done, completed = options[0], 0.0, 0, True
        if len(options) == 1 and self.limits.noise == 0:
            return Result(best, best_value, 0, 0, True)
        try:
            for depth in range(1, self.limits.depth + 1):
                if depth > 1:
                    self.budget.check()
                found, found_value = None, -INFINITY
                alpha, beta = -INFINITY, INFINITY
                for option in options:
                    # with noise every option gets an exact value, so the jitter compares like with like
                    low = -INFINITY if self.limits.noise else alpha
                    value = value_of(option, depth, low, beta)
                    if self.limits.noise:
                        value += self.rng.uniform(-self.limits.noise, self.limits.noise)
                    if value > found_value:
                        found, found_value = option, value
                        alpha = max(alpha, value)
                    self._partial = (found, found_value)
                best, best_value, done = found, found_value, depth
                options = [found] + [o for o in options if o != found]  # the best first next time
                self._partial = None
                # a win or loss proven within `depth` plies (a mean over the die with any face
                # not proven stays below this): deeper cannot change it
                if abs(best_value) >= WIN - PLY_COST * (depth + 1):
                    break
        except Stopped:
            completed = False
            if self._partial is not None:
                # the previous best was searched first, so this one equals or beats it
                best, best_value = self._partial
        return Result(best, best_value, done, self.budget.nodes, completed)
