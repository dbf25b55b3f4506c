"""The die at the referee: the die itself, when a roll is refused, and what a roll shows.

Mixed into the referee (controller.core.referee), whose state and steps it uses. The die
draws only from the random source it is given: live play hands it the system's
(controller.session.live); a replay's and a test's rolls come with their values.
"""

from __future__ import annotations

import random

from reedboard.hal.interfaces import Cue

from ..language.catalogue import N_
from .decisions import JournalLine
from .view import Phase

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


class Rolling:
    """The die's part of a referee: a press of the die button obeyed or refused."""

    def _press_die(self, t: float, given: int | None) -> int | None:
        """Roll if the rules allow it now; the value rolled, or None when refused."""
        if self._pressed_beside_the_mover(t):
            return self._keep_for_the_next_player(given)
        if self.phase in (Phase.PLAY, Phase.ROLLED):
            # The next player starts: a move waiting out the settle time counts at once, and so
            # does a capture nobody saw the victim leave (a stone's or a big ball's), then the
            # die is theirs (rule 2, R2, R11).
            self._handle(self.reconciler.next_player_starts(t))
            if self._pressed_beside_the_mover(t):
                # what counted leaves a mover whose piece is in the hand already (their move
                # read on): the press is the player's after them, as above (rule 10)
                return self._keep_for_the_next_player(given)
        game = self.game
        refusal, values = None, {}  # the reason (a catalogue's words, looked up when shown) and its values
        if not game.uses_die:
            refusal = N_("this game has no die")
        elif self.phase is Phase.OVER:
            refusal = N_("the game is over")
        elif self.phase in (Phase.SETUP, Phase.IDENTIFY):
            refusal = N_("the set-up is not finished")
        elif self.reconciler.choosing:
            refusal = N_("first show which move was made (lift and put back a piece of it)")
        elif self.phase is Phase.ROLLED:
            refusal, values = N_("the die already shows {roll}: move a stone for it"), {"roll": self._roll}
        elif not game.can_roll():
            refusal, values = N_("{player} has no stone to roll for: move a big ball"), {"player": game.turn}
        elif not self.reconciler.at_baseline:
            refusal = N_("put the pieces back first (see the lights), then roll")
        if refusal:
            self._note(t, "refused", reason=refusal, values=values)
            self._cue(Cue.REFUSED)
            return None
        value = self.die.roll(given)
        self._set_roll(t, value)
        self._handle(self.reconciler.set_roll(t, value))
        return value

    def _pressed_beside_the_mover(self, t: float) -> bool:
        """Whether the mover's piece is still on its way (in the hand): the press is the next
        player's, two hands at once (rule 10). A big ball's quick swap shown is the next player
        starting instead (R2)."""
        return ((self.phase is Phase.ROLLED or (self.phase is Phase.PLAY and not self.reconciler.swap_shown))
                and self.reconciler.mover_busy(t) and self.game.uses_die)

    def _keep_for_the_next_player(self, given: int | None) -> int:
        """The next player's number waits for their turn and shows as soon as the mover's move
        is down, with no new press. Where the mover had not rolled (a big ball in the hand), the
        press may have been theirs: the ball put back on its hollow makes the number theirs (R20)."""
        value = self.die.roll(given)
        self.reconciler.keep_roll(self.game.other(self.game.turn), value, claimable=self.phase is Phase.PLAY)
        return value

    def _set_roll(self, t: float, value: int, kept: bool = False) -> None:
        """The die shows `value` for the player to move: rolled now, or `kept` from before a
        takeback (the reconciler counts it already)."""
        game = self.game
        # the roll is on disk before any move; a number kept over a takeback may be dropped for a
        # big-ball move (R19), and the journal says so, for a resumed game's replay
        free = kept and self.reconciler.roll_free
        self._emit(JournalLine(t, "roll", (game.turn, value) + ((True,) if free else ())))
        self._roll = value
        self._rolling_until = None if kept else t + ROLL_ANIMATION
        self.phase = Phase.ROLLED
        self._cue(Cue.ROLL)
        stones = game.die_pieces(value)
        self._note(t, "roll", player=game.turn, value=value, stones=stones, kept=kept)
