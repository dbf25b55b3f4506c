"""The set-up at the referee: a guide through it (controller.games.setup) driven by what
the board does, the guide's steps carried out, and play begun once the board is set up.

"given": the lights show the start position until the board matches it (no guide). Any
other mode of the game's `setup_modes` is a guide: the referee tells it what the board did
(read, reached, touched) and carries out the steps it answers with. Mixed into the referee
(controller.core.referee), whose state and steps it uses.
"""

from __future__ import annotations

from reedboard.hal.interfaces import Cue

from .decisions import PlayBegan
from .reconcile import Reconciler
from .view import Phase
from ..games import Game
from ..games.setup import Announce, Expect, Identify, Play, Replace, Say, SetupGuide, Step


class SettingUp:
    """The set-up's part of a referee."""

    _guide: SetupGuide | None = None

    @property
    def setup_mode(self) -> str:
        """The set-up mode; "auto" until the board has said which it is."""
        return "given" if self._guide is None else self._guide.mode

    @property
    def setup_guide(self) -> SetupGuide | None:
        """The guide through the set-up (None: given)."""
        return self._guide

    def _read_board(self, t: float) -> None:
        """A set-up that starts from what is on the board: once the board has been read (it
        has settled), the guide says what to ask for."""
        guide, rec = self._guide, self.reconciler
        if guide is None or not guide.reading or self.phase is not Phase.SETUP or not self._seen_frame \
                or not rec.settled:
            return
        self._run(t, guide.read(rec.stable))

    def _run(self, t: float, steps: list[Step]) -> None:
        """Carry out a guide's steps in their order."""
        for step in steps:
            self._changes += 1
            if isinstance(step, Expect):
                self._handle(self.reconciler.expect(t, step.cells))
            elif isinstance(step, Replace):
                self._replace_game(step.game)
            elif isinstance(step, Announce):
                self._note(t, "setup", mode=step.mode, prompt=self._showing.setup_prompt().as_data())
            elif isinstance(step, Say):
                self._note(t, step.kind, **step.data)
                if step.refused:
                    self._cue(Cue.REFUSED)
            elif isinstance(step, Identify):
                self.phase = Phase.IDENTIFY
                self.reconciler.listening = False
            elif isinstance(step, Play):
                self._begin_play(t)

    def _replace_game(self, game: Game) -> None:
        listening = self.reconciler.listening
        self.game = game
        self._cells = frozenset(game.cells)
        self.reconciler = Reconciler(game, self.settings, board=self.reconciler.stable)
        self.reconciler.listening = listening
        self._changes += 1

    @property
    def stones_known(self) -> bool:
        """Whether the identities of the pieces are known (not while stones wait to be identified)."""
        if self._guide is None or self.phase not in (Phase.SETUP, Phase.IDENTIFY):
            return True
        return self._guide.pieces_known

    @property
    def reading(self) -> bool:
        """Set-up: the board is still being read to choose how to set it up."""
        return self._guide is not None and self._guide.reading and self.phase is Phase.SETUP

    def _on_setup_reached(self, t: float) -> None:
        if self.phase is not Phase.SETUP:
            return
        self._run(t, self._guide.reached() if self._guide is not None else [Play()])

    def _begin_play(self, t: float) -> None:
        self._changes += 1
        self.phase = Phase.ROLLED if self._roll is not None else Phase.PLAY
        self.reconciler.listening = True
        self._emit(PlayBegan(t, self._now, self.game))  # the journal's times count from the clock now
        self._cue(Cue.READY)
        self._note(t, "ready", player=self.game.turn)
        if self.clock is not None and self.game.move_stack and self.clock.running is None:
            self.clock.start(t, self.game.turn)  # a game resumed: the player to move thinks on
        self._check_over(t)
        self._computer_acts(t)
