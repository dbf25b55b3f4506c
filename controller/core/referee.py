"""The referee: runs one game on one board, and says what it decided.

It owns the game, the reconciler and the die, and does no I/O: each input returns the
decisions it made (controller.core.decisions): the journal's lines, the flight recorder's
inputs, the lights, the die display and the buzzer. Live play (controller.session.live)
carries them out as they come; replays and tests feed it a trace's events in virtual time
and keep what they need, so a replay is exact and fast. Its inputs, each with its time:
sensor frames, button presses, the passing of time (advance) and the search's answers
(controller.core.computer_turn). Randomness comes only from the die it is given.

Turn flow. A game with a die (`uses_die`): either a move that needs no roll, or the die
button, a roll, then a move for that roll. Other games: moves, one after the other. The
set-up before it is controller.core.setting_up's.

What the players see is built by controller.core.showing, only after a change; what they are
asked is a Prompt, and every note has a kind and its data (the words come from
controller.core.prompts). An optional game clock (controller.core.clock) runs from the first move.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from reedboard.hal.interfaces import Cue, DieState, LightFrame

from ..language.catalogue import N_, PLAY
from . import note_words
from .clock import ClockSettings, GameClock
from .computer import Computer
from .computer_turn import ComputerTurn
from .decisions import Decision, JournalLine, Recorded, Sound
from .reconcile import (
    Ambiguous, Amended, Claimed, Cleared, Committed, Illegal, Progress, Reached, Reconciler, Settings, TakenBack,
    Touched,
)
from .showing import RefereeState, Showing
from .view import Phase, Prompt, View
from .rolling import Die, Rolling
from .setting_up import SettingUp
from ..games import GAMES, Game

_ = PLAY.gettext

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
    """One line of what the players were shown, for replay --events and the web view:
    `kind` and `data` say it as data (ready, roll, move, amend, takeback, illegal, clear,
    choose, touch, refused, identified, low_time, over, setup, info)."""

    t: float
    text: str
    kind: str = "info"
    data: dict = field(default_factory=dict, compare=False)

    def __str__(self) -> str:
        return f"{self.t:9.3f}  {self.text}"


class Referee(SettingUp, Rolling, ComputerTurn):
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
            raise ValueError(_("set-up mode must be one of {modes}, not {setup}").format(
                modes=", ".join(SETUP_MODES), setup=repr(setup)))
        if setup == "auto" and setup not in game.setup_modes:
            setup = "given"  # nothing to tell apart: the lights guide to the start position
        if setup not in game.setup_modes and setup != "given":
            raise ValueError(_("{game} has no {setup} set-up (its modes: {modes})").format(
                game=game.title, setup=setup, modes=", ".join(dict.fromkeys([*game.setup_modes, "given"]))))
        self.game = game
        self._cells = frozenset(game.cells)  # what frame() reads of a board
        self.settings = settings or Settings()
        self.die = die or Die(rng)
        self.notes: deque[Note] = deque(maxlen=NOTES_KEPT)  # the newest; notes_total counts them all
        self._notes_total = 0
        self._outbox: list[Decision] = []  # decided, not yet taken (decided())
        self._guide = None if setup == "given" else game.setup_guide(setup, rng)
        self._roll = pending_roll
        self._rolling_until: float | None = None
        self.last_move_cells: frozenset[str] = frozenset()
        self._seen_frame = False
        self.clock = GameClock(clock, game.players, clock_remaining) if clock else None
        self._low_warned: set[str] = set()
        self.reconciler = Reconciler(game, self.settings, roll=pending_roll)
        self.phase = Phase.SETUP
        self._now = 0.0
        self._changes = 0  # the view is rebuilt only when this or the reconciler's count moved
        self._showing = Showing(self)
        self.computer = computer

    # --- what was decided ---------------------------------------------------------------------
    def decided(self) -> list[Decision]:
        """The decisions made since they were last taken, in the order they were made."""
        out, self._outbox = self._outbox, []
        return out

    def _emit(self, decision: Decision) -> None:
        self._outbox.append(decision)

    def _cue(self, cue: Cue) -> None:
        self._emit(Sound(cue))

    def _show(self, t: float) -> None:
        self._outbox += self._showing.show()

    # --- starting ---------------------------------------------------------------------------
    def start(self, t: float) -> list[Decision]:
        """Show the set-up and wait for the board to match it."""
        self._now = t
        self._changes += 1
        guide = self._guide
        if guide is not None:
            self._run(t, guide.begin())
        if guide is not None and guide.reading:
            self.reconciler.listening = False  # nothing counts until the board has been read
        else:
            self._handle(self.reconciler.expect(t))
        self._note(t, "setup", mode=self.setup_mode, prompt=self._showing.setup_prompt().as_data())
        self._show(t)
        return self.decided()

    @property
    def now(self) -> float:
        """The latest time the referee has been told of."""
        return self._now

    @property
    def roll(self) -> int | None:
        """The die's value while a move for it is due (games with a die)."""
        return self._roll

    @property
    def rolling(self) -> bool:
        """The die shows its rolling animation."""
        return self._rolling_until is not None

    @property
    def stable(self) -> frozenset[str]:
        """The board as sensed (debounced)."""
        return self.reconciler.stable

    def clock_state(self, t: float | None = None) -> dict | None:
        """The game clock for views, as of `t` (default: the latest time told), or None when off."""
        return None if self.clock is None else self.clock.as_dict(self._now if t is None else t)

    # --- inputs -------------------------------------------------------------------------------
    def frame(self, t: float, occupied: Iterable[str]) -> list[Decision]:
        """The board's occupied cells at t. Only the game's cells are read: a board may have
        more (a game played on another game's board leaves its extra cells unused)."""
        occupied = self._cells.intersection(occupied)
        self._emit(Recorded("frame", (t, occupied)))
        self._advance(t)
        self._seen_frame = True
        self._handle(self.reconciler.feed(t, occupied))
        self._read_board(t)
        self._show(t)
        return self.decided()

    def press(self, t: float, button: str, roll: int | None = None, long: bool = False) -> list[Decision]:
        """A button: "die" (roll; `roll` fixes the value in replays and tests) or "ok"; ok held
        (`long`) asks for a hint."""
        if button not in ("die", "ok"):
            raise ValueError(f"unknown button {button!r}")
        self._advance(t)
        if button == "ok" and long:
            self._ask_hint(t)
            return self.decided()
        self._changes += 1
        if button == "die" and self.computer_to_move():
            self._note(t, "refused", reason=N_("the computer rolls for itself"))
            self._cue(Cue.REFUSED)
            roll = None
        elif button == "die":
            roll = self._press_die(t, roll)
        else:
            self._handle(self.reconciler.confirm(t))
        self._emit(Recorded("press", (t, button, roll)))  # with the value drawn, so a replay can repeat it
        self._show(t)
        return self.decided()

    def advance(self, t: float) -> list[Decision]:
        """Let time run to t (timers of the reconciler, the die animation and the clock)."""
        self._advance(t)
        return self.decided()

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
            if self._rolling_until is not None and self._rolling_until <= due:
                self._rolling_until = None
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
        if self._rolling_until is not None and (due is None or self._rolling_until < due):
            due = self._rolling_until
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

    def resign(self, t: float, player: str) -> list[Decision]:
        if self.phase is not Phase.OVER:
            self.game.resign(player)
            self._note(t, "resign", player=player)
            self._finish(t)
            self._show(t)
        return self.decided()

    def agree_draw(self, t: float) -> list[Decision]:
        if self.phase is not Phase.OVER:
            self.game.agree_draw()
            self._note(t, "draw")
            self._finish(t)
            self._show(t)
        return self.decided()

    # --- what the reconciler said ----------------------------------------------------------------------
    def _handle(self, events: list) -> None:
        if not events:
            return
        self._changes += 1
        cleared = False
        for event in events:
            t = event.t
            if isinstance(event, (Committed, Amended, TakenBack, Illegal)):
                self._drop_hint()  # it was for the position before, or the board went wrong
            if isinstance(event, Committed):
                self.last_move_cells = self.game.last_move_cells()
                self._roll = None
                mover = self.game.other(self.game.turn)
                if self.clock is not None and not self.clock.flagged:
                    self.clock.moved(t, mover, self.game.turn)
                self._emit(JournalLine(t, "move", (str(event.move),), clock=self._clock_entry(t)))
                self._note(t, "move", player=mover, move=str(event.move))
                self._cue(Cue.MOVE)
                self.phase = Phase.PLAY
                self._check_over(t)
                if event.kept_roll is not None and self.phase is Phase.PLAY:
                    self._set_roll(t, event.kept_roll, kept=True)  # the next player rolled already
            elif isinstance(event, Amended):
                self.last_move_cells = self.game.last_move_cells()
                self._emit(JournalLine(t, "amend", (str(event.old), str(event.new))))
                self._note(t, "amend", old=str(event.old), new=str(event.new))
                self._cue(Cue.MOVE)
                self._check_over(t)
            elif isinstance(event, TakenBack):
                self._roll = event.roll  # the die shows it again: the player moves again with it
                self._rolling_until = None
                self.last_move_cells = self.game.last_move_cells()
                if self.clock is not None and self.clock.running is not None:
                    self.clock.switch(t, self.game.turn)
                self._emit(JournalLine(t, "takeback", (str(event.move),)))
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
                pieces = self._showing.piece_names(event.fill)
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
                self._on_setup_reached(t)
            elif isinstance(event, Claimed):
                self._set_roll(t, event.roll)  # the mover's roll after all (R20)
        self._computer_acts(events[-1].t)

    def _on_touch(self, t: float, cells: frozenset[str]) -> None:
        if self.phase is Phase.SETUP:
            return  # a hand tidying the board before the game: nothing to say
        if self.phase is Phase.IDENTIFY and self._guide is not None:
            self._run(t, self._guide.touched(cells))
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
        self._roll = None
        if self.clock is not None:
            self.clock.stop(t)
        result = outcome.result(self.game.players)
        self._emit(JournalLine(t, "result", (result, outcome.termination.value, outcome.winner)))
        self._note(t, "over", result=result, winner=outcome.winner, reason=outcome.termination.value)
        self._cue(Cue.GAME_OVER)

    def _clock_entry(self, t: float) -> dict | None:
        """Each player's time after a move, for the journal."""
        if self.clock is None:
            return None
        return {p: round(v, 3) for p, v in self.clock.remaining(t).items()}

    # --- what the players see --------------------------------------------------------------------------
    def change_key(self) -> tuple:
        """Moves whenever what the players see may have changed (the referee's or the reconciler's state)."""
        return (self._changes, self.reconciler.changes)

    def view(self) -> View:
        """What the players should see now; built again only after something changed."""
        return self._showing.view()

    def state(self) -> RefereeState:
        """What a page shows of the referee, as data (see RefereeState)."""
        return self._showing.state()

    def prompt(self) -> Prompt:
        """What is asked of the players now, its words (a move's, an ending's) in the language in use."""
        return self._showing.prompt()

    @property
    def view_builds(self) -> int:
        """How many views were built (tests count them)."""
        return self._showing.view_builds

    @property
    def notes_total(self) -> int:
        """How many notes the game has made so far (the oldest are no longer in `notes`)."""
        return self._notes_total

    def _note(self, t: float, kind: str, **data) -> None:
        """Note what happened as data; its words are made from it (note_words), here in the
        language in use and again wherever it is shown."""
        self.notes.append(Note(t, note_words.written(kind, data, self.game), kind, data))
        self._notes_total += 1

    def note(self, t: float, kind: str, **data) -> list[Decision]:
        """A note from outside the game (the board's link lost or back), shown like the others."""
        self._note(t, kind, **data)
        self._show(t)
        return self.decided()
