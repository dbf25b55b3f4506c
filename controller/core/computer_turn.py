"""The computer's turn at the referee: the questions it asks of the search and what it does
with the answers (the computer's own move, a decision to roll, a hint for a player).

Mixed into the referee (controller.core.referee), whose state and steps it uses. An answer
counts only while the position it was asked about stands (its key); the computer's chosen
move is then the only move the reconciler accepts, and none is while it thinks.
"""

from __future__ import annotations

from reedboard.hal.interfaces import Cue

from .computer import HINT_LEVEL, Question
from .decisions import Decision, JournalLine, Recorded
from .showing import ROLL_DECISION
from .view import Phase


class ComputerTurn:
    """The computer's side of a referee: its answer (key, move) for the position it was asked
    about, and a hint asked for (key) and given (key, move)."""

    computer = None
    _chosen: tuple | None = None
    _hint_asked = None
    _hint: tuple | None = None
    _question: Question | None = None  # the last question asked

    def _turn_key(self) -> tuple:
        """The position a question is about: an answer counts only while it stands."""
        game = self.game
        key = game.position_key()
        return len(game.move_stack), tuple(map(str, game.move_stack)) if key is None else key, self._roll

    def computer_to_move(self) -> bool:
        """It is the computer's turn in play."""
        return (self.computer is not None and self.game.turn == self.computer.plays
                and self.phase in (Phase.PLAY, Phase.ROLLED) and self.game.outcome() is None)

    def _shown_move(self):
        """The move the lights show: the computer's, to be carried out, or a hint."""
        key = self._turn_key()
        for answer in (self._chosen, self._hint):
            if answer is not None and answer[0] == key and answer[1] != ROLL_DECISION:
                return answer[1]
        return None

    def hint_shown(self):
        """The hint given for the position standing (a move, or ROLL_DECISION), or None."""
        hint = self._hint
        return hint[1] if hint is not None and hint[0] == self._turn_key() else None

    @property
    def question_pending(self) -> bool:
        """A hint was asked for (a game with no computer needs the search only then)."""
        return self._hint_asked is not None

    def question(self) -> Question | None:
        """What the search should decide now (None: nothing): the computer's move when it is
        its turn and it has not chosen for this position, or a hint asked for."""
        if self.phase not in (Phase.PLAY, Phase.ROLLED) or self._rolling_until is not None:
            return None
        key = self._turn_key()
        if self.computer_to_move():
            if self._chosen is None or self._chosen[0] != key:
                return self._asking(key, self.computer.level, hint=False)
            return None
        if self._hint_asked == key and (self._hint is None or self._hint[0] != key):
            return self._asking(key, self.computer.level if self.computer is not None else HINT_LEVEL, hint=True)
        return None

    def _asking(self, key, level: int, hint: bool) -> Question:
        """The question about this position (the same one while it stands: the game is copied once)."""
        asked = self._question
        if asked is None or (asked.key, asked.hint) != (key, hint):
            asked = self._question = Question(key, self.game.copy(), self._roll, level, hint=hint)
        return asked

    def _drop_hint(self) -> None:
        """A hint belongs to the position it was given for: a move, an amendment or a takeback
        drops it (a takeback back to that position does not light it again), and so does a board
        gone wrong (the lights then guide it back, and nothing else is asked of the hands)."""
        if self._hint is not None or self._hint_asked is not None:
            self._hint = self._hint_asked = None
            self._changes += 1

    def ask_hint(self, t: float) -> bool:
        """A player asks for the best move (the page's button): False when none can be given
        now. What it decided waits in `decided()`."""
        return self._ask_hint(t)

    def _ask_hint(self, t: float) -> bool:
        if self.phase not in (Phase.PLAY, Phase.ROLLED) or self.computer_to_move() or self.game.outcome():
            return False
        self._hint_asked = self._turn_key()
        self._changes += 1
        self._note(t, "asked", player=self.game.turn)
        self._show(t)
        return True

    def answer(self, t: float, question: Question, move) -> bool:
        """The search's answer to `question`; dropped (False) when the position has moved on.
        The computer's move is shown and is then the only move accepted; a decision to roll
        rolls the die; a hint is shown and journaled. What it decided waits in `decided()`."""
        self._advance(t)
        if question.key != self._turn_key() or self.phase not in (Phase.PLAY, Phase.ROLLED):
            return False
        if question.hint and self._hint_asked != question.key:
            return False  # dropped meanwhile (the board went wrong): asked again if wanted
        self._changes += 1
        player = self.game.turn
        if question.hint:
            self._hint, self._hint_asked = (question.key, move), None
            text = self.game.format_move(move) if move != ROLL_DECISION else "roll"
            self._emit(JournalLine(t, "hint", (player, text)))
            self._note(t, "hint", player=player, move=text)
        else:
            self._choose(t, question.key, move)
            if move != ROLL_DECISION:
                self._emit(Recorded("computer", (t, self.game.format_move(move), None)))
        self._computer_acts(t)
        self._show(t)
        return True

    def _choose(self, t: float, key, move) -> None:
        player = self.game.turn
        self._chosen = (key, move)
        if move == ROLL_DECISION:
            self._note(t, "computer", player=player, move=None)
            return
        self._handle(self.reconciler.restrict(t, (move,)))
        text = self.game.format_move(move)
        self._note(t, "computer", player=player, move=text)
        self._cue(Cue.READY)

    def replay_decision(self, t: float, move: str, roll: int | None = None) -> list[Decision]:
        """A trace's record of the computer's decision, made again (replays): its move in
        notation, or "roll" with the value rolled. ValueError when it does not fit the game."""
        self._advance(t)
        if not self.computer_to_move():
            raise ValueError("it is not the computer's turn")
        if move == ROLL_DECISION:
            self._choose(t, self._turn_key(), ROLL_DECISION)
            if self._press_die(t, roll) is None:
                raise ValueError("the computer's roll was refused")
        else:
            self._choose(t, self._turn_key(), self.game.parse_move(move))
        self._computer_acts(t)
        self._show(t)
        return self.decided()

    def _computer_acts(self, t: float) -> None:
        """Keep the computer's turn in order: nothing but its chosen move counts (none while it
        thinks), and a decision to roll rolls the die once the board is still."""
        if not self.computer_to_move():
            return
        key = self._turn_key()
        chosen = self._chosen if self._chosen is not None and self._chosen[0] == key else None
        if chosen is not None and chosen[1] == ROLL_DECISION:
            if self.phase is Phase.PLAY and self.reconciler.at_baseline and self._rolling_until is None:
                value = self._press_die(t, None)
                if value is not None:
                    self._emit(Recorded("computer", (t, ROLL_DECISION, value)))  # a replay rolls it the same
            allowed: tuple = ()
        else:
            allowed = () if chosen is None else (chosen[1],)
        if self.reconciler.only != allowed:
            self._handle(self.reconciler.restrict(t, allowed))
