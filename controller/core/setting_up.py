"""The set-up at the referee: a guide through it (controller.games.setup), told what the
board does, answering with the steps to carry out.

"given": the lights show the start position until the board matches it (no guide). Any
other mode of the game's `setup_modes` is a guide: the referee (controller.core.referee)
owns one SetupDriver, tells it what the board did (read, reached, touched) with what it
needs to know (the phase, whether the board has settled), and carries out the steps it
answers with (expect a board, replace the game, announce, say, identify, play).
"""

from __future__ import annotations

from .view import Phase
from ..games.setup import Play, SetupGuide, Step


class SetupDriver:
    """The set-up's part of a referee: the guide (None: given) and when it is asked what."""

    def __init__(self, guide: SetupGuide | None) -> None:
        self._guide = guide

    @property
    def guide(self) -> SetupGuide | None:
        """The guide through the set-up (None: given)."""
        return self._guide

    @property
    def mode(self) -> str:
        """The set-up mode; "auto" until the board has said which it is."""
        return "given" if self._guide is None else self._guide.mode

    def begin(self) -> list[Step]:
        """The guide's first steps (none for a given set-up)."""
        return [] if self._guide is None else self._guide.begin()

    @property
    def waits_for_the_board(self) -> bool:
        """The guide must read the board before anything counts."""
        return self._guide is not None and self._guide.reading

    def reading(self, phase: Phase) -> bool:
        """Set-up: the board is still being read to choose how to set it up."""
        return self.waits_for_the_board and phase is Phase.SETUP

    def pieces_known(self, phase: Phase) -> bool:
        """Whether the identities of the pieces are known (not while stones wait to be identified)."""
        if self._guide is None or phase not in (Phase.SETUP, Phase.IDENTIFY):
            return True
        return self._guide.pieces_known

    def read(self, board: frozenset[str]) -> list[Step]:
        """The board as read, settled, while reading: the guide says what to ask for."""
        return self._guide.read(board) if self._guide is not None else []

    def reached(self, phase: Phase) -> list[Step]:
        """The board matches what was expected: the guide's next steps, or play (given)."""
        if phase is not Phase.SETUP:
            return []
        return self._guide.reached() if self._guide is not None else [Play()]

    def cleared(self, phase: Phase) -> bool:
        """The board settled empty while stones wait to be identified: whether the guide reads
        the board again (the set-up starts over from the empty board)."""
        return phase is Phase.IDENTIFY and self._guide is not None and self._guide.cleared()

    def touched(self, phase: Phase, cells: frozenset[str]) -> list[Step] | None:
        """Stones lifted and put back while they are identified: the guide's steps (None: a
        touch the set-up does not take)."""
        if phase is not Phase.IDENTIFY or self._guide is None:
            return None
        return self._guide.touched(cells)
