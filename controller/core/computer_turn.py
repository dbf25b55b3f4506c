"""The computer's seat at the referee: the questions asked of the search and what is kept
of its answers (the computer's own move, a decision to roll, a hint for a player).

The referee (controller.core.referee) owns one ComputerSeat and hands it what it reads (the
game, the phase, the die); the seat answers with values (a Question, what the computer does
now) and calls nothing back. An answer counts only while the position it was asked about
stands (its key); the computer's chosen move is then the only move the recogniser accepts,
and none is while it thinks.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from .computer import HINT_LEVEL, ROLL_DECISION, Computer, Question
from .view import Phase
from ..games import Game


def turn_key(game: Game, roll: int | None) -> tuple:
    """The position a question is about: an answer counts only while it stands."""
    key = game.position_key()
    return len(game.move_stack), tuple(map(str, game.move_stack)) if key is None else key, roll


@dataclass(frozen=True)
class SeatMoves:
    """What the computer does on its turn now: roll the die (its decision to roll, the board
    still), and the only moves the recogniser may accept (none while it thinks)."""

    roll: bool
    allowed: tuple[Hashable, ...]


class ComputerSeat:
    """The computer's side of a referee: its answer (key, move) for the position it was asked
    about, and a hint asked for (key) and given (key, move)."""

    def __init__(self, computer: Computer | None) -> None:
        self._computer = computer
        self._chosen: tuple | None = None  # (key, move) the computer chose
        self._hint_asked: tuple | None = None  # the key a hint was asked for
        self._hint: tuple | None = None  # (key, move) the hint given
        self._question: Question | None = None  # the last question asked

    @property
    def computer(self) -> Computer | None:
        """The side the computer plays and its level (None: people only)."""
        return self._computer

    @property
    def question_pending(self) -> bool:
        """A hint was asked for (a game with no computer needs the search only then)."""
        return self._hint_asked is not None

    def to_move(self, game: Game, phase: Phase) -> bool:
        """It is the computer's turn in play."""
        return (self._computer is not None and game.turn == self._computer.plays
                and phase in (Phase.PLAY, Phase.ROLLED) and game.outcome() is None)

    def shown_move(self, key: tuple) -> Hashable | None:
        """The move the lights show at `key`: the computer's, to be carried out, or a hint."""
        for answer in (self._chosen, self._hint):
            if answer is not None and answer[0] == key and answer[1] != ROLL_DECISION:
                return answer[1]
        return None

    def hint_shown(self, key: tuple) -> Hashable | None:
        """The hint given for the position `key` (a move, or ROLL_DECISION), or None."""
        hint = self._hint
        return hint[1] if hint is not None and hint[0] == key else None

    def question(self, game: Game, phase: Phase, roll: int | None, rolling: bool) -> Question | None:
        """What the search should decide now (None: nothing): the computer's move when it is
        its turn and it has not chosen for this position, or a hint asked for."""
        if phase not in (Phase.PLAY, Phase.ROLLED) or rolling:
            return None
        key = turn_key(game, roll)
        if self.to_move(game, phase):
            if self._chosen is None or self._chosen[0] != key:
                return self._asking(game, key, roll, self._computer.level, hint=False)
            return None
        if self._hint_asked == key and (self._hint is None or self._hint[0] != key):
            level = self._computer.level if self._computer is not None else HINT_LEVEL
            return self._asking(game, key, roll, level, hint=True)
        return None

    def _asking(self, game: Game, key: tuple, roll: int | None, level: int, hint: bool) -> Question:
        """The question about this position (the same one while it stands: the game is copied once)."""
        asked = self._question
        if asked is None or (asked.key, asked.hint) != (key, hint):
            asked = self._question = Question(key, game.copy(), roll, level, hint=hint)
        return asked

    def drop_hint(self) -> bool:
        """A hint belongs to the position it was given for: a move, an amendment or a takeback
        drops it (a takeback back to that position does not light it again), and so does a board
        gone wrong (the lights then guide it back). Whether there was one to drop."""
        if self._hint is None and self._hint_asked is None:
            return False
        self._hint = self._hint_asked = None
        return True

    def can_hint(self, game: Game, phase: Phase) -> bool:
        """Whether a player may ask for a hint now: in play, on their own turn."""
        return phase in (Phase.PLAY, Phase.ROLLED) and not self.to_move(game, phase) and not game.outcome()

    def ask_hint(self, key: tuple) -> None:
        self._hint_asked = key

    def takes(self, question: Question, key: tuple, phase: Phase) -> bool:
        """Whether the search's answer to `question` counts: its position stands (`key`), and a
        hint is still asked for (a board gone wrong dropped it meanwhile)."""
        if question.key != key or phase not in (Phase.PLAY, Phase.ROLLED):
            return False
        return not question.hint or self._hint_asked == question.key

    def hint_given(self, key: tuple, move: Hashable) -> None:
        self._hint, self._hint_asked = (key, move), None

    def choose(self, key: tuple, move: Hashable) -> None:
        """The computer's decision for the position `key`: a move, or ROLL_DECISION."""
        self._chosen = (key, move)

    def moves(self, game: Game, phase: Phase, key: tuple, *, still: bool) -> SeatMoves | None:
        """What the computer does now on its turn (None: it is not its turn). A decision to
        roll rolls the die once the board is `still` (at rest, no animation), in play."""
        if not self.to_move(game, phase):
            return None
        chosen = self._chosen if self._chosen is not None and self._chosen[0] == key else None
        if chosen is not None and chosen[1] == ROLL_DECISION:
            return SeatMoves(roll=phase is Phase.PLAY and still, allowed=())
        return SeatMoves(roll=False, allowed=() if chosen is None else (chosen[1],))
