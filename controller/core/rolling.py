"""The die at the referee: the die itself, what it shows, and when a press of it is obeyed.

The referee (controller.core.referee) owns one DiePolicy: it holds the value shown and the
rolling animation, and answers, from what it is handed (the phase, the game, what the
recogniser reads), whether a press is the next player's or is refused, and why. It calls
nothing back: the referee carries out what it answers. The die draws only from the random
source it is given: live play hands it the system's (controller.session.live); a replay's
and a test's rolls come with their values.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from ..language.phrases import N_
from .view import Phase
from ..games import Game

ROLL_ANIMATION = 0.6  # s the die shows its rolling animation before the value


class Die:
    """The electronic die: draws from the random source it is given (live play hands it the
    system's: controller.session.live); without one, every roll must come with its value."""

    def __init__(self, rng: random.Random | None = None, *, given_only: bool = False) -> None:
        self._rng = rng
        self.given_only = given_only or rng is None  # a replay: every roll must come with its value

    def roll(self, given: int | None = None) -> int:
        if given is not None:
            if given not in range(1, 7):
                raise ValueError(f"a die shows 1-6, not {given!r}")
            return given
        if self.given_only:
            raise ValueError("a die press needs its value here (a replay draws no numbers)")
        return self._rng.randint(1, 6)


class BoardReading(Protocol):
    """What the die policy reads of the recogniser (controller.core.reconcile.Reconciler)."""

    @property
    def choosing(self) -> tuple[Hashable, ...]: ...

    @property
    def at_baseline(self) -> bool: ...

    @property
    def swap_shown(self) -> bool: ...

    def mover_busy(self, t: float) -> bool: ...


@dataclass(frozen=True)
class Refusal:
    """Why a press of the die is refused: a catalogue's words (looked up when shown) and their values."""

    reason: str
    values: Mapping[str, object] = field(default_factory=dict)


class DiePolicy:
    """The die's part of a referee: the die, the value it shows while a move for it is due,
    and its rolling animation."""

    def __init__(self, die: Die, roll: int | None = None) -> None:
        self.die = die
        self._roll = roll  # the value shown while a move for it is due
        self._rolling_until: float | None = None  # the animation's end

    @property
    def roll(self) -> int | None:
        return self._roll

    @property
    def rolling_until(self) -> float | None:
        """When the rolling animation ends (None: it is not running)."""
        return self._rolling_until

    def shows(self, t: float, value: int, kept: bool = False) -> None:
        """The die shows `value`: rolled now (after its animation), or `kept` from before."""
        self._roll = value
        self._rolling_until = None if kept else t + ROLL_ANIMATION

    def shows_again(self, value: int | None) -> None:
        """A takeback: the die shows the taken-back move's value again (or nothing), at once."""
        self._roll = value
        self._rolling_until = None

    def used(self) -> None:
        """The value was moved for (or the game ended): nothing is due for it any more."""
        self._roll = None

    def animation_ends(self, t: float) -> bool:
        """Stop the animation if it ends by t; whether it did."""
        if self._rolling_until is not None and self._rolling_until <= t:
            self._rolling_until = None
            return True
        return False

    def draw(self, given: int | None) -> int:
        return self.die.roll(given)

    @staticmethod
    def beside_the_mover(t: float, phase: Phase, game: Game, board: BoardReading) -> bool:
        """Whether the mover's piece is still on its way (in the hand): the press is the next
        player's, two hands at once (rule 10). A big ball's quick swap shown is the next player
        starting instead (R2)."""
        return ((phase is Phase.ROLLED or (phase is Phase.PLAY and not board.swap_shown))
                and board.mover_busy(t) and game.uses_die)

    def refusal(self, phase: Phase, game: Game, board: BoardReading) -> Refusal | None:
        """Why a press of the die is refused now (None: it is obeyed)."""
        if not game.uses_die:
            return Refusal(N_("this game has no die"))
        if phase is Phase.OVER:
            return Refusal(N_("the game is over"))
        if phase in (Phase.SETUP, Phase.IDENTIFY):
            return Refusal(N_("the set-up is not finished"))
        if board.choosing:
            return Refusal(N_("first show which move was made (lift and put back a piece of it)"))
        if phase is Phase.ROLLED:
            return Refusal(N_("the die already shows {roll}: move a stone for it"), {"roll": self._roll})
        if not game.can_roll():
            return Refusal(N_("{player} has no stone to roll for: move a big ball"), {"player": game.turn})
        if not board.at_baseline:
            return Refusal(N_("put the pieces back first (see the lights), then roll"))
        return None
