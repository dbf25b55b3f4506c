"""Iterative deepening at the root, shared by both engines: deepen one ply at a time until a
limit, keep the best move of the last finished iteration (or of the cut one, once its first,
previously best move was searched), and stop early when a won or lost end is proven."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable

from ..games.base import Game
from .search_parts import INFINITY, tactical, PLY_COST, WIN, Budget, Limits, Result, Stopped, Table


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
        player to move), searched deeper and deeper; with a temperature, one drawn by a softmax
        over the values of the deepest iteration that valued them all."""
        if self.limits.sensible:
            options = [o for o in options if not self.game.absurd(o)] or options
        best, best_value, done, completed = options[0], 0.0, 0, True
        if len(options) == 1 and not self.limits.valued:  # a forced choice: nothing to weigh
            return Result(best, best_value, 0, 0, True)
        exact = self.limits.temperature > 0  # every option valued exactly, to compare like with like
        values: dict[Hashable, float] = {}
        current: dict[Hashable, float] = {}
        by_depth: list[float] = []
        try:
            for depth in range(1, self.limits.depth + 1):
                if depth > 1:
                    self.budget.check()
                found, found_value = None, -INFINITY
                alpha, beta = -INFINITY, INFINITY
                current = {}
                for option in options:
                    value = value_of(option, depth, -INFINITY if exact else alpha, beta)
                    current[option] = value
                    if value > found_value:
                        found, found_value = option, value
                        alpha = max(alpha, value)
                    self._partial = (found, found_value)
                best, best_value, done, values = found, found_value, depth, current
                by_depth.append(found_value)
                options = [found] + [o for o in options if o != found]  # the best first next time
                self._partial = None
                # a win or loss proven within `depth` plies (a mean over the die with any face
                # not proven stays below this): deeper cannot change it
                if abs(best_value) >= WIN - PLY_COST * (depth + 1):
                    break
        except Stopped:
            completed = False
            if self._partial is not None and not exact:
                # the previous best was searched first, so this one equals or beats it
                best, best_value = self._partial
        if exact and (values or current):
            best, best_value = self.drawn(values or current)
        return Result(best, best_value, done, self.budget.nodes, completed, tuple(by_depth))

    def drawn(self, values: dict[Hashable, float]) -> tuple[Hashable, float]:
        """An option drawn with probability proportional to exp(value / temperature), a natural
        looking one (a push, a capture: what a person sees first) valued `natural` higher."""
        natural, game = self.limits.natural, self.game
        liked = {option: value + (natural if natural and tactical(option) and not game.absurd(option) else 0.0)
                 for option, value in values.items()}
        top = max(liked.values())
        weights = [(option, math.exp((value - top) / self.limits.temperature)) for option, value in liked.items()]
        pick = self.rng.random() * sum(w for _, w in weights)
        for option, weight in weights:
            pick -= weight
            if pick < 0:
                return option, values[option]
        return weights[-1][0], values[weights[-1][0]]
