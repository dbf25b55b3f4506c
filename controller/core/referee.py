"""The referee: runs one game on one board, and says what it decided.

It owns the game, the recogniser (controller.core.reconcile) and three parts: the set-up
driver (controller.core.setting_up), the die policy (controller.core.rolling) and the
computer's seat (controller.core.computer_turn). Each part keeps its own state and answers
with values from what it is handed; none holds the referee or calls it back. What the
players see is built by controller.core.showing from a read-only Standing.

It does no I/O: each input returns the decisions it made (controller.core.decisions): the
journal's lines, the flight recorder's inputs, the lights, the die display and the buzzer.
Live play (controller.session.live) carries them out as they come; replays and tests feed
it a trace's events in virtual time and keep what they need, so a replay is exact and fast.
Its inputs, each with its time: sensor frames, button presses, the passing of time
(advance), a hint asked for and the search's answers. Randomness comes only from the die it
is given.

Turn flow. A game with a die (`uses_die`): either a move that needs no roll, or the die
button, a roll, then a move for that roll. Other games: moves, one after the other. The
set-up comes before it.

What the players are asked is a Prompt, and every note has a kind (a NoteKind) and its data (the
words are the words room's: controller/words/prompts.py and notes.py). An optional game clock
(controller.core.clock) runs from the first move.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field

from reedboard.hal.interfaces import Cue, DieState, LightFrame

from ..language.phrases import N_, Phrasebook
from .clock import ClockSettings, GameClock
from .computer import ROLL_DECISION, Computer, Question
from .computer_turn import ComputerSeat, turn_key
from .decisions import (
    AmendLine, ComputerRecord, Decision, FrameRecord, HintLine, MoveLine, PlayBegan, PressRecord, ResultLine, RollLine,
    Sound, TakebackLine,
)
from .reconcile import (
    Ambiguous, Amended, Claimed, Cleared, Committed, Illegal, Progress, Reached, Reconciler, Settings, TakenBack,
    Touched,
)
from .rolling import Die, DiePolicy
from .setting_up import SetupDriver
from .showing import RefereeState, Showing, Standing, piece_names, prompt_of, setup_prompt
from .view import NoteKind, Phase, Prompt, View
from ..games import GAMES, Game
from ..games.setup import Announce, Expect, Identify, Play, Replace, Say, SetupGuide, Step

phrase = Phrasebook("play")

# every set-up mode some game offers; "given" is every game's
SETUP_MODES = tuple(dict.fromkeys([mode for cls in GAMES.values() for mode in cls.setup_modes] + ["given"]))
NOTES_KEPT = 200  # the newest notes kept in memory; a replay of the trace gives every one


@dataclass(frozen=True)
class Outputs:
    """Where the board's signals go (the lights, the die display, the buzzer, a page told of
    a change); any of them may be left out. The edge of the program sends them there."""

    lights: Callable[[LightFrame], None] | None = None
    die: Callable[[DieState], None] | None = None
    buzzer: Callable[[Cue], None] | None = None
    changed: Callable[[], None] | None = None  # what a page shows changed (the view, the notes)


@dataclass(frozen=True)
class Note:
    """One thing the players were told, for replay --events and the web view, as data: its
    `kind` (a NoteKind, whose members list every kind and its data) and `data`. Its words are
    the words room's (controller/words/notes.py), in the language of whoever reads it."""

    t: float
    kind: NoteKind
    data: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        NoteKind(self.kind)  # ValueError for a kind not listed


class Referee:
    def __init__(
        self,
        game: Game,
        *,
        settings: Settings | None = None,
        die: Die | None = None,
        setup: str = "given",
        rng: random.Random | None = None,
        pending_roll: int | None = None,
        clock: ClockSettings | None = None,
        clock_remaining: dict[str, float] | None = None,
        computer: Computer | None = None,
    ) -> None:
        if setup not in SETUP_MODES:
            raise ValueError(phrase("set-up mode must be one of {modes}, not {setup}", modes=", ".join(SETUP_MODES),
                                    setup=repr(setup)))
        if setup == "auto" and setup not in game.setup_modes:
            setup = "given"  # nothing to tell apart: the lights guide to the start position
        if setup not in game.setup_modes and setup != "given":
            raise ValueError(phrase("{game} has no {setup} set-up (its modes: {modes})", game=game.title,
                                    setup=setup, modes=", ".join(dict.fromkeys([*game.setup_modes, "given"]))))
        self.game = game
        self.settings = settings or Settings()
        self.reconciler = Reconciler(game, self.settings, roll=pending_roll)
        self.phase = Phase.SETUP
        self.clock = GameClock(clock, game.players, clock_remaining) if clock else None
        self.notes: deque[Note] = deque(maxlen=NOTES_KEPT)  # the newest; notes_total counts them all
        self.last_move_cells: frozenset[str] = frozenset()
        # the parts: each keeps its own state
        self._setup = SetupDriver(None if setup == "given" else game.setup_guide(setup, rng))
        self._die = DiePolicy(die or Die(rng), roll=pending_roll)
        self._seat = ComputerSeat(computer)
        self._showing = Showing()
        # the referee's own
        self._cells = frozenset(game.cells)  # what frame() reads of a board
        self._notes_total = 0
        self._decided: list[Decision] = []  # what the input being handled decided so far
        self._seen_frame = False
        self._low_warned: set[str] = set()
        self._now = 0.0
        self._changes = 0  # the view is rebuilt only when this or the reconciler's count moved

    # --- what was decided ---------------------------------------------------------------------
    def _taken(self) -> list[Decision]:
        """The decisions the input made, in the order they were made, handed to its caller."""
        out, self._decided = self._decided, []
        return out

    def _emit(self, decision: Decision) -> None:
        self._decided.append(decision)

    def _cue(self, cue: Cue) -> None:
        self._emit(Sound(cue))

    def _show(self, t: float) -> None:
        changes = self.change_key()
        if not self._showing.told(changes, self._notes_total):
            self._decided += self._showing.show(self._standing(changes), self._notes_total)

    # --- starting ---------------------------------------------------------------------------
    def start(self, t: float) -> list[Decision]:
        """Show the set-up and wait for the board to match it."""
        self._now = t
        self._changes += 1
        self._run(t, self._setup.begin())
        if self._setup.waits_for_the_board:
            self.reconciler.listening = False  # nothing counts until the board has been read
        else:
            self._handle(self.reconciler.expect(t))
        self._note(t, "setup", mode=self.setup_mode, prompt=self._setup_prompt())
        self._show(t)
        return self._taken()

    # --- what it reads as (read-only) --------------------------------------------------------
    @property
    def now(self) -> float:
        """The latest time the referee has been told of."""
        return self._now

    @property
    def roll(self) -> int | None:
        """The die's value while a move for it is due (games with a die)."""
        return self._die.roll

    @property
    def rolling(self) -> bool:
        """The die shows its rolling animation."""
        return self._die.rolling_until is not None

    @property
    def stable(self) -> frozenset[str]:
        """The board as sensed (debounced)."""
        return self.reconciler.stable

    @property
    def computer(self) -> Computer | None:
        """The side the computer plays and its level (None: people only)."""
        return self._seat.computer

    @property
    def setup_mode(self) -> str:
        """The set-up mode; "auto" until the board has said which it is."""
        return self._setup.mode

    @property
    def setup_guide(self) -> SetupGuide | None:
        """The guide through the set-up (None: given)."""
        return self._setup.guide

    @property
    def stones_known(self) -> bool:
        """Whether the identities of the pieces are known (not while stones wait to be identified)."""
        return self._setup.pieces_known(self.phase)

    @property
    def reading(self) -> bool:
        """Set-up: the board is still being read to choose how to set it up."""
        return self._setup.reading(self.phase)

    @property
    def question_pending(self) -> bool:
        """A hint was asked for (a game with no computer needs the search only then)."""
        return self._seat.question_pending

    def computer_to_move(self) -> bool:
        """It is the computer's turn in play."""
        return self._seat.to_move(self.game, self.phase)

    def shown_move(self) -> Hashable | None:
        """The move the lights show: the computer's, to be carried out, or a hint."""
        return self._seat.shown_move(self._turn_key())

    def hint_shown(self) -> Hashable | None:
        """The hint given for the position standing (a move, or ROLL_DECISION), or None."""
        return self._seat.hint_shown(self._turn_key())

    def can_hint(self) -> bool:
        """Whether a player may ask for the best move now (in play, on their own turn)."""
        return self._seat.can_hint(self.game, self.phase)

    def question(self) -> Question | None:
        """What the search should decide now (None: nothing): the computer's move when it is
        its turn and it has not chosen for this position, or a hint asked for."""
        return self._seat.question(self.game, self.phase, self.roll, self.rolling)

    def clock_state(self, t: float | None = None) -> dict | None:
        """The game clock for views, as of `t` (default: the latest time told), or None when off."""
        return None if self.clock is None else self.clock.as_dict(self._now if t is None else t)

    def _turn_key(self) -> tuple:
        return turn_key(self.game, self.roll)

    # --- inputs -------------------------------------------------------------------------------
    def frame(self, t: float, occupied: Iterable[str]) -> list[Decision]:
        """The board's occupied cells at t. Only the game's cells are read: a board may have
        more (a game played on another game's board leaves its extra cells unused)."""
        occupied = self._cells.intersection(occupied)
        self._emit(FrameRecord(t, occupied))
        self._advance(t)
        self._seen_frame = True
        self._handle(self.reconciler.feed(t, occupied))
        self._read_board(t)
        self._show(t)
        return self._taken()

    def press(self, t: float, button: str, roll: int | None = None, long: bool = False) -> list[Decision]:
        """A button: "die" (roll; `roll` fixes the value in replays and tests) or "ok"; ok held
        (`long`) asks for a hint."""
        if button not in ("die", "ok"):
            raise ValueError(f"unknown button {button!r}")
        self._advance(t)
        if button == "ok" and long:
            self._ask_hint(t)
            return self._taken()
        self._changes += 1
        if button == "die" and self.computer_to_move():
            self._note(t, "refused", reason=N_("the computer rolls for itself"))
            self._cue(Cue.REFUSED)
            roll = None
        elif button == "die":
            roll = self._press_die(t, roll)
        else:
            self._handle(self.reconciler.confirm(t))
        self._emit(PressRecord(t, button, roll))  # with the value drawn, so a replay can repeat it
        self._show(t)
        return self._taken()

    def advance(self, t: float) -> list[Decision]:
        """Let time run to t (timers of the reconciler, the die animation and the clock)."""
        self._advance(t)
        return self._taken()

    def ask_hint(self, t: float) -> list[Decision]:
        """A player asks for the best move (the page's button); nothing is decided when none
        can be given now (can_hint)."""
        self._ask_hint(t)
        return self._taken()

    def answer(self, t: float, question: Question, move) -> list[Decision]:
        """The search's answer to `question`; dropped when the position has moved on (or a
        hint asked for was dropped meanwhile). The computer's move is shown and is then the
        only move accepted; a decision to roll rolls the die; a hint is shown and journaled."""
        self._advance(t)
        if not self._seat.takes(question, self._turn_key(), self.phase):
            return self._taken()
        self._changes += 1
        player = self.game.turn
        if question.hint:
            self._seat.hint_given(question.key, move)
            text = self.game.format_move(move) if move != ROLL_DECISION else "roll"
            self._emit(HintLine(t, player, text))
            self._note(t, "hint", player=player, move=text)
        else:
            self._choose(t, question.key, move)
            if move != ROLL_DECISION:
                self._emit(ComputerRecord(t, self.game.format_move(move), None))
        self._computer_moves(t)
        self._show(t)
        return self._taken()

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
        self._computer_moves(t)
        self._show(t)
        return self._taken()

    def resign(self, t: float, player: str) -> list[Decision]:
        if self.phase is not Phase.OVER:
            self.game.resign(player)
            self._note(t, "resign", player=player)
            self._finish(t)
            self._show(t)
        return self._taken()

    def agree_draw(self, t: float) -> list[Decision]:
        if self.phase is not Phase.OVER:
            self.game.agree_draw()
            self._note(t, "draw")
            self._finish(t)
            self._show(t)
        return self._taken()

    def note(self, t: float, kind: str, **data) -> list[Decision]:
        """A note from outside the game (the board's link lost or back), shown like the others."""
        self._note(t, kind, **data)
        self._show(t)
        return self._taken()

    # --- time ---------------------------------------------------------------------------------
    def _advance(self, t: float) -> None:
        last_due, repeats = None, 0
        while True:
            due = self.next_deadline()
            if due is None or due > t:
                break
            repeats = repeats + 1 if due == last_due else 0
            if repeats > 3:  # a timer that stays due would hold the board's loop for ever
                raise RuntimeError(f"a deadline at {due} stays due after it fired")
            last_due = due
            self._changes += 1
            self._die.animation_ends(due)
            self._handle(self.reconciler.advance(due))
            self._now = due
            self._tick_clock(due)
            self._read_board(due)
            self._show(due)
        # every deadline up to t has fired above: the reconciler has nothing more due by t
        self._now = max(self._now, t)
        self._read_board(t)

    def next_deadline(self) -> float | None:
        due = self.reconciler.next_deadline()
        rolling_until = self._die.rolling_until
        if rolling_until is not None and (due is None or rolling_until < due):
            due = rolling_until
        clock = self.clock
        if clock is not None and self.phase in (Phase.PLAY, Phase.ROLLED):
            times = [clock.flag_at()]
            if clock.running not in self._low_warned:
                times.append(clock.low_at())
            for x in times:
                if x is not None and (due is None or x < due):
                    due = x
        return due

    def _tick_clock(self, t: float) -> None:
        """The clock's deadlines: a low-time warning once per player, and the flag."""
        clock = self.clock
        if clock is None or self.phase not in (Phase.PLAY, Phase.ROLLED) or clock.running is None:
            return
        player = clock.running
        flag_at = clock.flag_at()
        if flag_at is not None and flag_at <= t:
            clock.flag(t)
            self.game.lose_on_time(player)
            self._note(t, "flag", player=player)
            self._finish(t)
        elif player not in self._low_warned and (clock.low_at() is None or clock.low_at() <= t):
            # compared with the deadline itself: the time left, computed, may miss the mark by a rounding
            self._low_warned.add(player)
            left = clock.remaining(t)[player]
            self._note(t, "low_time", player=player, seconds=round(left))

    # --- what the reconciler said ----------------------------------------------------------------------
    def _handle(self, events: list) -> None:
        if not events:
            return
        self._changes += 1
        cleared = False
        for event in events:
            t = event.t
            if isinstance(event, (Committed, Amended, TakenBack, Illegal)) and self._seat.drop_hint():
                self._changes += 1  # it was for the position before, or the board went wrong
            if isinstance(event, Committed):
                self.last_move_cells = self.game.last_move_cells()
                self._die.used()
                mover = self.game.other(self.game.turn)
                if self.clock is not None and not self.clock.flagged:
                    self.clock.moved(t, mover, self.game.turn)
                self._emit(MoveLine(t, str(event.move), clock=self._clock_entry(t)))
                self._note(t, "move", player=mover, move=str(event.move))
                self._cue(Cue.MOVE)
                self.phase = Phase.PLAY
                self._check_over(t)
                if event.kept_roll is not None and self.phase is Phase.PLAY:
                    self._set_roll(t, event.kept_roll, kept=True)  # the next player rolled already
            elif isinstance(event, Amended):
                self.last_move_cells = self.game.last_move_cells()
                self._emit(AmendLine(t, str(event.old), str(event.new)))
                self._note(t, "amend", old=str(event.old), new=str(event.new))
                self._cue(Cue.MOVE)
                self._check_over(t)
            elif isinstance(event, TakenBack):
                self._die.shows_again(event.roll)  # the player moves again with it
                self.last_move_cells = self.game.last_move_cells()
                if self.clock is not None and self.clock.running is not None:
                    self.clock.switch(t, self.game.turn)
                self._emit(TakebackLine(t, str(event.move)))
                self._note(t, "takeback", move=str(event.move), roll=event.roll)
                self._cue(Cue.TAKEBACK)
                self.phase = Phase.ROLLED if event.roll is not None else Phase.PLAY
                if event.kept_roll is not None:  # rolled for a later turn that a takeback undid
                    self._set_roll(t, event.kept_roll, kept=True)
                if self.computer_to_move() and self.game.move_stack:
                    # the computer's answer taken back: the player's move goes with it, and the
                    # board is guided back to before it
                    self._handle(self.reconciler.undo(t))
            elif isinstance(event, Illegal):
                pieces = piece_names(self.game, self.stones_known, event.fill)
                self._note(t, "illegal", fill=sorted(event.fill), empty=sorted(event.empty), pieces=pieces)
                self._cue(Cue.ILLEGAL)
            elif isinstance(event, Cleared):
                cleared = True
                self._note(t, "clear")
            elif isinstance(event, Ambiguous):
                moves = [str(m) for m in event.moves]
                self._note(t, "choose", moves=moves)
                self._cue(Cue.CHOOSE)
            elif isinstance(event, Touched) and not cleared:  # a correction is no touch to report
                self._on_touch(t, event.cells)
            elif isinstance(event, Progress):
                pass  # the set-up lights follow the board; nothing to note
            elif isinstance(event, Reached):
                self._run(t, self._setup.reached(self.phase))
            elif isinstance(event, Claimed):
                self._set_roll(t, event.roll)  # the mover's roll after all (R20)
        self._computer_moves(events[-1].t)

    def _on_touch(self, t: float, cells: frozenset[str]) -> None:
        if self.phase is Phase.SETUP:
            return  # a hand tidying the board before the game: nothing to say
        steps = self._setup.touched(self.phase, cells)
        if steps is not None:
            self._run(t, steps)
            return
        self._note(t, "touch", cells=sorted(cells))

    def _check_over(self, t: float) -> None:
        if self.game.outcome() is not None:
            self._finish(t)

    def _finish(self, t: float) -> None:
        outcome = self.game.outcome()
        self._changes += 1
        self.phase = Phase.OVER
        self.reconciler.listening = False
        self._die.used()
        if self.clock is not None:
            self.clock.stop(t)
        result = outcome.result(self.game.players)
        self._emit(ResultLine(t, result, outcome.termination.value, outcome.winner))
        self._note(t, "over", result=result, winner=outcome.winner, reason=outcome.termination.value)
        self._cue(Cue.GAME_OVER)

    def _clock_entry(self, t: float) -> dict | None:
        """Each player's time after a move, for the journal."""
        if self.clock is None:
            return None
        return {p: round(v, 3) for p, v in self.clock.remaining(t).items()}

    # --- the set-up: the driver's steps carried out -------------------------------------------------
    def _read_board(self, t: float) -> None:
        """A set-up that starts from what is on the board: read once it has settled."""
        rec = self.reconciler
        if self._seen_frame and rec.settled and not rec.stable and self._setup.cleared(self.phase):
            self._changes += 1
            self.phase = Phase.SETUP  # read again below: an empty board is guided from the start
        if self._seen_frame and self._setup.reading(self.phase) and rec.settled:
            self._run(t, self._setup.read(rec.stable))

    def _run(self, t: float, steps: list[Step]) -> None:
        """Carry out a guide's steps in their order."""
        for step in steps:
            self._changes += 1
            if isinstance(step, Expect):
                self._handle(self.reconciler.expect(t, step.cells))
            elif isinstance(step, Replace):
                self._replace_game(step.game)
            elif isinstance(step, Announce):
                self._note(t, "setup", mode=step.mode, prompt=self._setup_prompt())
            elif isinstance(step, Say):
                self._note(t, step.kind, **step.data)
                if step.refused:
                    self._cue(Cue.REFUSED)
            elif isinstance(step, Identify):
                self.phase = Phase.IDENTIFY
                self.reconciler.listening = False
            elif isinstance(step, Play):
                self._begin_play(t)

    def _setup_prompt(self) -> list:
        return setup_prompt(self.reconciler, self._setup.guide).as_data()

    def _replace_game(self, game: Game) -> None:
        listening = self.reconciler.listening
        self.game = game
        self._cells = frozenset(game.cells)
        self.reconciler = Reconciler(game, self.settings, board=self.reconciler.stable)
        self.reconciler.listening = listening
        self._changes += 1

    def _begin_play(self, t: float) -> None:
        self._changes += 1
        self.phase = Phase.ROLLED if self.roll is not None else Phase.PLAY
        self.reconciler.listening = True
        self._emit(PlayBegan(t, self._now, self.game))  # the journal's times count from the clock now
        self._cue(Cue.READY)
        self._note(t, "ready", player=self.game.turn)
        if self.clock is not None and self.game.move_stack and self.clock.running is None:
            self.clock.start(t, self.game.turn)  # a game resumed: the player to move thinks on
        self._check_over(t)
        self._computer_moves(t)

    # --- the die: the policy's answers carried out ----------------------------------------------------
    def _press_die(self, t: float, given: int | None) -> int | None:
        """Roll if the rules allow it now; the value rolled, or None when refused."""
        die, rec = self._die, self.reconciler
        if die.beside_the_mover(t, self.phase, self.game, rec):
            return self._keep_for_the_next_player(given)
        if self.phase in (Phase.PLAY, Phase.ROLLED):
            # The next player starts: a move waiting out the settle time counts at once, and so
            # does a capture nobody saw the victim leave (a stone's or a big ball's), then the
            # die is theirs (rule 2, R2, R11).
            self._handle(rec.next_player_starts(t))
            if die.beside_the_mover(t, self.phase, self.game, self.reconciler):
                # what counted leaves a mover whose piece is in the hand already (their move
                # read on): the press is the player's after them, as above (rule 10)
                return self._keep_for_the_next_player(given)
        refusal = die.refusal(self.phase, self.game, self.reconciler)
        if refusal is not None:
            self._note(t, "refused", reason=refusal.reason, values=dict(refusal.values))
            self._cue(Cue.REFUSED)
            return None
        value = die.draw(given)
        self._set_roll(t, value)
        self._handle(self.reconciler.set_roll(t, value))
        return value

    def _keep_for_the_next_player(self, given: int | None) -> int:
        """The next player's number waits for their turn and shows as soon as the mover's move
        is down, with no new press. Where the mover had not rolled (a big ball in the hand), the
        press may have been theirs: the ball put back on its hollow makes the number theirs (R20)."""
        value = self._die.draw(given)
        self.reconciler.keep_roll(self.game.other(self.game.turn), value, claimable=self.phase is Phase.PLAY)
        return value

    def _set_roll(self, t: float, value: int, kept: bool = False) -> None:
        """The die shows `value` for the player to move: rolled now, or `kept` from before a
        takeback (the reconciler counts it already)."""
        game = self.game
        # the roll is on disk before any move; a number kept over a takeback may be dropped for a
        # big-ball move (R19), and the journal says so, for a resumed game's replay
        free = kept and self.reconciler.roll_free
        self._emit(RollLine(t, game.turn, value, free))
        self._die.shows(t, value, kept)
        self.phase = Phase.ROLLED
        self._cue(Cue.ROLL)
        stones = game.die_pieces(value)
        self._note(t, "roll", player=game.turn, value=value, stones=stones, kept=kept)

    # --- the computer's seat: its answers carried out -------------------------------------------------
    def _ask_hint(self, t: float) -> None:
        if not self.can_hint():
            return
        self._seat.ask_hint(self._turn_key())
        self._changes += 1
        self._note(t, "asked", player=self.game.turn)
        self._show(t)

    def _choose(self, t: float, key: tuple, move) -> None:
        player = self.game.turn
        self._seat.choose(key, move)
        if move == ROLL_DECISION:
            self._note(t, "computer", player=player, move=None)
            return
        self._handle(self.reconciler.restrict(t, (move,)))
        text = self.game.format_move(move)
        self._note(t, "computer", player=player, move=text)
        self._cue(Cue.READY)

    def _computer_moves(self, t: float) -> None:
        """Keep the computer's turn in order: nothing but its chosen move counts (none while it
        thinks), and a decision to roll rolls the die once the board is still."""
        if not self.computer_to_move():
            return
        still = self.reconciler.at_baseline and self._die.rolling_until is None
        moves = self._seat.moves(self.game, self.phase, self._turn_key(), still=still)
        if moves.roll:
            value = self._press_die(t, None)
            if value is not None:
                self._emit(ComputerRecord(t, ROLL_DECISION, value))  # a replay rolls it the same
        if self.reconciler.only != moves.allowed:
            self._handle(self.reconciler.restrict(t, moves.allowed))

    # --- what the players see --------------------------------------------------------------------------
    def change_key(self) -> tuple:
        """Moves whenever what the players see may have changed (the referee's or the reconciler's state)."""
        return (self._changes, self.reconciler.changes)

    def _standing(self, changes: tuple | None = None) -> Standing:
        """The referee's state as the view reads it (read-only)."""
        key = self._turn_key()
        return Standing(
            changes=self.change_key() if changes is None else changes, game=self.game,
            reconciler=self.reconciler, phase=self.phase, roll=self.roll, rolling=self.rolling,
            last_move=self.last_move_cells, guide=self._setup.guide, stones_known=self.stones_known,
            computer_to_move=self.computer_to_move(), shown_move=self._seat.shown_move(key),
            hint=self._seat.hint_shown(key))

    def view(self) -> View:
        """What the players should see now; built again only after something changed."""
        changes = self.change_key()
        return self._showing.built(changes) or self._showing.view(self._standing(changes))

    def state(self) -> RefereeState:
        """What a page shows of the referee, as data (see RefereeState)."""
        return self._showing.state(self._standing())

    def prompt(self) -> Prompt:
        """What is asked of the players now, its words (a move's, an ending's) in the language in use."""
        return prompt_of(self._standing())

    @property
    def view_builds(self) -> int:
        """How many views were built (tests count them)."""
        return self._showing.view_builds

    @property
    def notes_total(self) -> int:
        """How many notes the game has made so far (the oldest are no longer in `notes`)."""
        return self._notes_total

    def _note(self, t: float, kind: NoteKind | str, **data) -> None:
        """Note what happened as data; its words are made from it wherever it is shown."""
        self.notes.append(Note(t, NoteKind(kind), data))
        self._notes_total += 1
