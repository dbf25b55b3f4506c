"""The referee: runs one game on one board.

It owns the game, the reconciler, the die, the journal and the flight recorder, and tells
the board what to show. It is driven by three kinds of input, each with its time: sensor
frames, button presses, and the passing of time (advance). Live play feeds it from the
hardware and the clock (controller.session.live); replays and tests feed it a trace's events in
virtual time, so a replay is exact and fast.

Turn flow. A game with a die (`uses_die`): either a move that needs no roll, or the die
button, a roll, then a move for that roll. Other games: moves, one after the other.
Set-up. "given": the lights show the start position until the board matches it. Any other
mode of the game's `setup_modes` is a guide (controller.games.setup) the referee drives: it
tells the guide what the board did and carries out the steps the guide answers with.

Views are built only when something changed: the referee's own state (`_changed`) or the
reconciler's (`Reconciler.changes`). An unchanged frame costs little more than the
reconciler's own look at it. `Outputs.changed` is called whenever what a page shows (the
view, the notes) changed, and `state()` is that as data.

What the players are asked is a Prompt (controller.core.view), and every note has a kind and
its data: the page and the speech read those; the English words come from
controller.core.prompts. An optional game clock (controller.core.clock) runs from the first move.
"""

from __future__ import annotations

import random
import secrets
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from reedboard.hal.interfaces import Cue, DieState, LightFrame

from reedboard.controller.core import prompts

from reedboard.controller.core import signals
from reedboard.controller.core.clock import ClockSettings, GameClock
from reedboard.controller.core.computer import HINT_LEVEL, Computer, Question
from reedboard.controller.games import GAMES, Game, Outcome
from reedboard.controller.games.setup import Announce, Expect, Identify, Play, Replace, Say, SetupGuide, Step
from reedboard.controller.core.reconcile import (
    Ambiguous, Amended, Cleared, Committed, Illegal, Progress, Reached, Reconciler, Settings, TakenBack,
    Touched,
)
from reedboard.controller.core.view import Phase, Prompt, View

ROLL_DECISION = "roll"  # the search's answer when the computer chooses to roll (opponent.ROLL)
ROLL_ANIMATION = 0.6  # s the die shows its rolling animation before the value
# every set-up mode some game offers; "given" is every game's
SETUP_MODES = tuple(dict.fromkeys([mode for cls in GAMES.values() for mode in cls.setup_modes] + ["given"]))
NOTES_KEPT = 200  # the newest notes kept in memory; a replay of the trace gives every one


class Die:
    """The electronic die: unpredictable in live play; in replays and tests, the value given."""

    def __init__(self, rng: random.Random | None = None, *, given_only: bool = False) -> None:
        self._rng = rng
        self.given_only = given_only  # a replay: every roll must come with its value

    def roll(self, given: int | None = None) -> int:
        if given is not None:
            if given not in range(1, 7):
                raise ValueError(f"a die shows 1-6, not {given!r}")
            return given
        if self.given_only:
            raise ValueError("a die press needs its value here (a replay draws no numbers)")
        return self._rng.randint(1, 6) if self._rng else secrets.randbelow(6) + 1


@dataclass(frozen=True)
class Outputs:
    """Where the referee's signals go; any of them may be left out."""

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


@dataclass(frozen=True)
class RefereeState:
    """What a page shows of the referee, as data: built with the view, only after a change.

    version:  counts the changes (a higher one is newer)
    view:     the view (phase, prompt as data and in words, what the lights stand for)
    choices:  the moves the players are asked to choose between, in notation
    stable:   the board as sensed (debounced)
    pieces:   what the referee believes stands on each cell (a piece code; "B?" for a numbered
              piece whose number is not known yet; in the set-up only what stands on the board)
    expected: set-up: the pieces still to be put on their cells
    """

    version: int
    view: View
    choices: tuple[str, ...]
    stable: frozenset[str]
    pieces: dict[str, str]
    expected: dict[str, str]

    @property
    def phase(self) -> Phase:
        return self.view.phase

    @property
    def prompt(self) -> Prompt | None:
        return self.view.prompt


class Referee:
    def __init__(
        self,
        game: Game,
        *,
        settings: Settings | None = None,
        die: Die | None = None,
        journal=None,
        open_journal: Callable[[Game], object] | None = None,
        recorder=None,
        outputs: Outputs | None = None,
        setup: str = "given",
        rng: random.Random | None = None,
        pending_roll: int | None = None,
        clock: ClockSettings | None = None,
        clock_remaining: dict[str, float] | None = None,
        computer: Computer | None = None,
    ) -> None:
        if setup not in SETUP_MODES:
            raise ValueError(f"set-up mode must be one of {', '.join(SETUP_MODES)}, not {setup!r}")
        if setup == "auto" and setup not in game.setup_modes:
            setup = "given"  # nothing to tell apart: the lights guide to the start position
        if setup not in game.setup_modes and setup != "given":
            raise ValueError(f"{game.title} has no {setup} set-up"
                             f" (its modes: {', '.join(dict.fromkeys([*game.setup_modes, 'given']))})")
        self.game = game
        self._cells = frozenset(game.cells)  # what frame() reads of a board
        self.settings = settings or Settings()
        self.die = die or Die(rng)
        self.journal = journal  # None until the game is set up, unless resuming
        self._open_journal = open_journal  # creates the journal once the set-up is known
        self.recorder = recorder
        self.outputs = outputs or Outputs()
        self.notes: deque[Note] = deque(maxlen=NOTES_KEPT)  # the newest; notes_total counts them all
        self._notes_total = 0
        self._rng = rng
        self._guide: SetupGuide | None = None if setup == "given" else game.setup_guide(setup, rng)
        self._roll = pending_roll
        self._rolling_until: float | None = None
        self._last_move_cells: frozenset[str] = frozenset()
        self._shown: tuple | None = None
        self._movable: tuple = (None, frozenset())  # (position and roll, the cells that may move)
        self._seen_frame = False
        self.clock = GameClock(clock, game.players, clock_remaining) if clock else None
        self._low_warned: set[str] = set()
        self.reconciler = Reconciler(game, self.settings, roll=pending_roll)
        self.phase = Phase.SETUP
        self._now = 0.0
        # change tracking: the view is rebuilt only when this or the reconciler's count moved
        self._changes = 0
        self._built: tuple | None = None  # (key, view)
        self._state: RefereeState | None = None
        self._told: tuple | None = None  # the change counts _show last looked at
        self._seen: tuple | None = None  # (view, board, notes) a page was last told of
        self._version = 0
        self.view_builds = 0  # how many views were built (tests count them)
        # the computer's side: its answer (key, move) for the position it was asked about, and
        # a hint asked for (key) and given (key, move); both count only while that position stands
        self.computer = computer
        self._chosen: tuple | None = None
        self._hint_asked = None
        self._hint: tuple | None = None
        self._question: Question | None = None  # the last question asked

    # --- starting ---------------------------------------------------------------------------
    def start(self, t: float) -> None:
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
        self._note(t, prompts.describe(self._setup_prompt()), "setup", mode=self.setup_mode)
        self._show(t)

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
                self._note(t, prompts.describe(self._setup_prompt()), "setup", mode=step.mode)
            elif isinstance(step, Say):
                self._note(t, step.text, step.kind, **step.data)
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

    def _begin_play(self, t: float) -> None:
        self._changes += 1
        self.phase = Phase.ROLLED if self._roll is not None else Phase.PLAY
        self.reconciler.listening = True
        if self.journal is None and self._open_journal is not None:
            self.journal = self._open_journal(self.game)
        self._cue(Cue.READY)
        self._note(t, f"ready: {prompts.player(self.game.turn)} to move", "ready", player=self.game.turn)
        if self.clock is not None and self.game.move_stack and self.clock.running is None:
            self.clock.start(t, self.game.turn)  # a game resumed: the player to move thinks on
        self._check_over(t)
        self._computer_acts(t)

    @property
    def now(self) -> float:
        """The latest time the referee has been told of."""
        return self._now

    @property
    def roll(self) -> int | None:
        """The die's value while a move for it is due (games with a die)."""
        return self._roll

    @property
    def stable(self) -> frozenset[str]:
        """The board as sensed (debounced)."""
        return self.reconciler.stable

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

    def clock_state(self, t: float | None = None) -> dict | None:
        """The game clock for views, as of `t` (default: the latest time told), or None when off."""
        return None if self.clock is None else self.clock.as_dict(self._now if t is None else t)

    # --- inputs -------------------------------------------------------------------------------
    def frame(self, t: float, occupied: Iterable[str]) -> None:
        """The board's occupied cells at t. Only the game's cells are read: a board may have
        more (a game played on another game's board leaves its extra cells unused)."""
        occupied = self._cells.intersection(occupied)
        if self.recorder is not None:
            self.recorder.frame(t, occupied)
        self.advance(t)
        self._seen_frame = True
        self._handle(self.reconciler.feed(t, occupied))
        self._read_board(t)
        self._show(t)

    def press(self, t: float, button: str, roll: int | None = None, long: bool = False) -> None:
        """A button: "die" (roll; `roll` fixes the value in replays and tests) or "ok"; ok held
        (`long`) asks for a hint."""
        if button not in ("die", "ok"):
            raise ValueError(f"unknown button {button!r}")
        if button == "ok" and long:
            self.advance(t)
            self.ask_hint(t)
            return
        self.advance(t)
        self._changes += 1
        if button == "die" and self.computer_to_move():
            refusal = "the computer rolls for itself"
            self._note(t, f"the die cannot roll now: {refusal}", "refused", reason=refusal)
            self._cue(Cue.REFUSED)
            roll = None
        elif button == "die":
            roll = self._press_die(t, roll)
        else:
            self._handle(self.reconciler.confirm(t))
        if self.recorder is not None:
            self.recorder.press(t, button, roll)  # with the value drawn, so a replay can repeat it
        self._show(t)

    def advance(self, t: float) -> None:
        """Let time run to t (timers of the reconciler, the die animation and the clock)."""
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
            self._note(t, f"{player}'s time is up", "flag", player=player)
            self._finish(t)
        elif player not in self._low_warned and (clock.low_at() is None or clock.low_at() <= t):
            # compared with the deadline itself: the time left, computed, may miss the mark by a rounding
            self._low_warned.add(player)
            left = clock.remaining(t)[player]
            words = f"{left:.0f} seconds" if left >= 1.5 else "about a second" if left >= 0.5 else "under a second"
            self._note(t, f"{player}: {words} left", "low_time", player=player, seconds=round(left))

    def resign(self, t: float, player: str) -> None:
        if self.phase is Phase.OVER:
            return
        self.game.resign(player)
        self._note(t, f"{player} resigns", "resign", player=player)
        self._finish(t)
        self._show(t)

    def agree_draw(self, t: float) -> None:
        if self.phase is Phase.OVER:
            return
        self.game.agree_draw()
        self._note(t, "draw agreed", "draw")
        self._finish(t)
        self._show(t)

    # --- the die ---------------------------------------------------------------------------------
    def _press_die(self, t: float, given: int | None) -> int | None:
        """Roll if the rules allow it now; the value rolled, or None when refused."""
        if self.reconciler.held and self.phase in (Phase.PLAY, Phase.ROLLED):
            # The next player starts while the board shows a capture nobody saw the victim
            # leave (a stone's or a big ball's): that capture is the move made (rule 2), then
            # the die is theirs.
            self._handle(self.reconciler.resolve_held(t))
        game = self.game
        refusal = None
        if not game.uses_die:
            refusal = "this game has no die"
        elif self.phase is Phase.OVER:
            refusal = "the game is over"
        elif self.phase in (Phase.SETUP, Phase.IDENTIFY):
            refusal = "the set-up is not finished"
        elif self.reconciler.choosing:
            refusal = "first show which move was made (lift and put back a piece of it)"
        elif self.phase is Phase.ROLLED:
            refusal = f"the die already shows {self._roll}: move a stone for it"
        elif not game.can_roll():
            refusal = f"{game.turn} has no stone to roll for: move a big ball"
        elif not self.reconciler.at_baseline:
            refusal = "put the pieces back first (see the lights), then roll"
        if refusal:
            self._note(t, f"the die cannot roll now: {refusal}", "refused", reason=refusal)
            self._cue(Cue.REFUSED)
            return None
        value = self.die.roll(given)
        self._set_roll(t, value)
        self._handle(self.reconciler.set_roll(t, value))
        return value

    def _set_roll(self, t: float, value: int, kept: bool = False) -> None:
        """The die shows `value` for the player to move: rolled now, or `kept` from before a
        takeback (the reconciler counts it already)."""
        game = self.game
        if self.journal is not None:
            self.journal.append_roll(t, game.turn, value)  # the roll is on disk before any move
        self._roll = value
        self._rolling_until = None if kept else t + ROLL_ANIMATION
        self.phase = Phase.ROLLED
        self._cue(Cue.ROLL)
        stones = game.die_pieces(value)
        said = f"{game.turn}'s roll of {value} stands" if kept else f"{game.turn} rolls {value}"
        self._note(t, f"{said}: stone {' or '.join(map(str, stones))}", "roll",
                   player=game.turn, value=value, stones=stones, kept=kept)

    # --- what the reconciler said ----------------------------------------------------------------------
    def _handle(self, events: list) -> None:
        if not events:
            return
        self._changes += 1
        cleared = False
        for event in events:
            t = event.t
            if isinstance(event, Committed):
                self._last_move_cells = self.game.last_move_cells()
                self._roll = None
                mover = self.game.other(self.game.turn)
                if self.clock is not None and not self.clock.flagged:
                    self.clock.moved(t, mover, self.game.turn)
                if self.journal is not None:
                    self.journal.append_move(t, str(event.move), clock=self._clock_entry(t))
                self._note(t, f"move {event.move}", "move", player=mover, move=str(event.move))
                self._cue(Cue.MOVE)
                self.phase = Phase.PLAY
                self._check_over(t)
                if event.kept_roll is not None and self.phase is Phase.PLAY:
                    self._set_roll(t, event.kept_roll, kept=True)  # the next player rolled already
            elif isinstance(event, Amended):
                self._last_move_cells = self.game.last_move_cells()
                if self.journal is not None:
                    self.journal.append_amend(t, str(event.old), str(event.new))
                self._note(t, f"amended: {event.old} -> {event.new}", "amend", old=str(event.old), new=str(event.new))
                self._cue(Cue.MOVE)
                self._check_over(t)
            elif isinstance(event, TakenBack):
                self._roll = event.roll  # the die shows it again: the player moves again with it
                self._rolling_until = None
                self._last_move_cells = self.game.last_move_cells()
                if self.clock is not None and self.clock.running is not None:
                    self.clock.switch(t, self.game.turn)
                if self.journal is not None:
                    self.journal.append_takeback(t, str(event.move))
                again = f" (the die still shows {event.roll})" if event.roll else ""
                self._note(t, f"takeback: {event.move}{again}", "takeback", move=str(event.move), roll=event.roll)
                self._cue(Cue.TAKEBACK)
                self.phase = Phase.ROLLED if event.roll is not None else Phase.PLAY
                if event.kept_roll is not None:  # rolled for a later turn that a takeback undid
                    self._set_roll(t, event.kept_roll, kept=True)
                if self.computer_to_move() and self.game.move_stack:
                    # the computer's answer taken back: the player's move goes with it, and the
                    # board is guided back to before it
                    self._handle(self.reconciler.undo(t))
            elif isinstance(event, Illegal):
                pieces = self._piece_names(event.fill)
                self._note(t, "illegal: " + prompts.put_back(event.fill, event.empty, pieces), "illegal",
                           fill=sorted(event.fill), empty=sorted(event.empty), pieces=pieces)
                self._cue(Cue.ILLEGAL)
            elif isinstance(event, Cleared):
                cleared = True
                self._note(t, "the board is right again", "clear")
            elif isinstance(event, Ambiguous):
                moves = [str(m) for m in event.moves]
                self._note(t, prompts.describe(Prompt("choose", {"moves": moves})), "choose", moves=moves)
                self._cue(Cue.CHOOSE)
            elif isinstance(event, Touched) and not cleared:  # a correction is no touch to report
                self._on_touch(t, event.cells)
            elif isinstance(event, Progress):
                pass  # the set-up lights follow the board; nothing to note
            elif isinstance(event, Reached):
                self._on_setup_reached(t)
        self._computer_acts(events[-1].t)

    def _on_setup_reached(self, t: float) -> None:
        if self.phase is not Phase.SETUP:
            return
        self._run(t, self._guide.reached() if self._guide is not None else [Play()])

    def _on_touch(self, t: float, cells: frozenset[str]) -> None:
        if self.phase is Phase.SETUP:
            return  # a hand tidying the board before the game: nothing to say
        if self.phase is Phase.IDENTIFY and self._guide is not None:
            self._run(t, self._guide.touched(cells))
            return
        self._note(t, f"{prompts.cells(cells)} put back: no move", "touch", cells=sorted(cells))

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
        if self.journal is not None:
            self.journal.append_result(t, result, outcome.termination.value, outcome.winner)
        self._note(t, f"game over: {result} {outcome.termination.value}", "over",
                   result=result, winner=outcome.winner, reason=outcome.termination.value)
        self._cue(Cue.GAME_OVER)

    def _clock_entry(self, t: float) -> dict | None:
        """Each player's time after a move, for the journal."""
        if self.clock is None:
            return None
        return {p: round(v, 3) for p, v in self.clock.remaining(t).items()}

    def _piece_names(self, cells: Iterable[str]) -> dict[str, str]:
        """What belongs on each cell in the game's position, in words ("black stone 3")."""
        known = self.stones_known
        return {c: self.game.piece_name(c) if known else "piece" for c in cells}

    # --- what the players see --------------------------------------------------------------------------
    # --- the computer ---------------------------------------------------------------------------
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

    def ask_hint(self, t: float) -> bool:
        """A player asks for the best move (the page's button): False when none can be given now."""
        if self.phase not in (Phase.PLAY, Phase.ROLLED) or self.computer_to_move() or self.game.outcome():
            return False
        self._hint_asked = self._turn_key()
        self._changes += 1
        self._note(t, f"{self.game.turn} asks for a hint", "info", player=self.game.turn)
        self._show(t)
        return True

    def answer(self, t: float, question: Question, move) -> bool:
        """The search's answer to `question`; dropped (False) when the position has moved on.
        The computer's move is shown and is then the only move accepted; a decision to roll
        rolls the die; a hint is shown and journaled."""
        self.advance(t)
        if question.key != self._turn_key() or self.phase not in (Phase.PLAY, Phase.ROLLED):
            return False
        self._changes += 1
        player = self.game.turn
        if question.hint:
            self._hint, self._hint_asked = (question.key, move), None
            text = self.game.format_move(move) if move != ROLL_DECISION else "roll"
            if self.journal is not None:
                self.journal.append_hint(t, player, text)
            self._note(t, f"hint for {player}: {text}", "hint", player=player, move=text)
        else:
            self._choose(t, question.key, move)
            if move != ROLL_DECISION and self.recorder is not None:
                self.recorder.computer(t, self.game.format_move(move))
        self._computer_acts(t)
        self._show(t)
        return True

    def _choose(self, t: float, key, move) -> None:
        player = self.game.turn
        self._chosen = (key, move)
        if move == ROLL_DECISION:
            self._note(t, f"the computer ({player}) rolls", "computer", player=player, move=None)
            return
        self._handle(self.reconciler.restrict(t, (move,)))
        text = self.game.format_move(move)
        self._note(t, f"the computer ({player}) plays {text}: carry it out", "computer", player=player, move=text)
        self._cue(Cue.READY)

    def replay_decision(self, t: float, move: str, roll: int | None = None) -> None:
        """A trace's record of the computer's decision, made again (replays): its move in
        notation, or "roll" with the value rolled. ValueError when it does not fit the game."""
        self.advance(t)
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
                if value is not None and self.recorder is not None:
                    self.recorder.computer(t, ROLL_DECISION, value)  # a replay rolls it the same
            allowed: tuple = ()
        else:
            allowed = () if chosen is None else (chosen[1],)
        if self.reconciler.only != allowed:
            self._handle(self.reconciler.restrict(t, allowed))

    def _view_key(self) -> tuple:
        return (self._changes, self.reconciler.changes)

    def view(self) -> View:
        """What the players should see now; built again only after something changed."""
        key = self._view_key()
        built = self._built
        if built is not None and built[0] == key:
            return built[1]
        view = self._build_view()
        self._built = (key, view)
        self.view_builds += 1
        return view

    def _build_view(self) -> View:
        game, rec = self.game, self.reconciler
        outcome: Outcome | None = game.outcome() if self.phase is Phase.OVER else None
        view = View(
            game=game.name, phase=self.phase, turn=game.turn, cells=game.cells, occupied=game.occupied(),
            roll=self._roll, rolling=self._rolling_until is not None, players=game.players,
            last_move=self._last_move_cells, outcome=outcome,
        )
        guide = self._guide
        if self.phase is Phase.SETUP:
            wanted = rec.expected
            if wanted is not None:
                view = replace(view, fill=wanted - rec.stable, empty=rec.stable - wanted)
            marks = guide.marks(False) if guide is not None else None
            if marks is not None and marks.place:
                # the piece's own cell shows as "place", not as a plain gap to fill
                view = replace(view, place=marks.place, identify=marks.number, fill=view.fill - marks.place)
        elif self.phase is Phase.IDENTIFY and guide is not None:
            marks = guide.marks(True)
            view = replace(view, identify=marks.number, movable=marks.lift)
        elif outcome is not None:
            view = replace(view, winner_cells=self._winner_cells(outcome))
        else:
            guidance = rec.guidance
            if guidance:
                view = replace(view, fill=guidance[0], empty=guidance[1])
            if rec.choosing:
                view = replace(view, choices=rec.choice_paths)
            in_hand = rec.in_hand
            view = replace(view, movable=self._movable_cells(), to=in_hand[1] if in_hand else frozenset())
            wanted = rec.expected  # the board guided back after a move was taken back
            if wanted is not None:
                view = replace(view, fill=view.fill | (wanted - rec.stable), empty=view.empty | (rec.stable - wanted))
            shown = self._shown_move()
            if shown is not None and not view.rolling:
                fp = game.footprint(shown)
                # a capture's target is where the piece goes: shown as the destination, not as a lift
                view = replace(view, lift=fp.empties & rec.stable, dest=(fp.fills - rec.stable) | fp.captures)
        prompt = self._prompt(view)
        return replace(view, prompt=prompt, message=prompts.describe(prompt))

    def state(self) -> RefereeState:
        """What a page shows of the referee, as data (see RefereeState); built again only after a change."""
        view = self.view()
        state = self._state
        if state is not None and state.view is view and state.version == self._version:
            return state
        pieces, expected = self._beliefs()
        self._state = RefereeState(
            version=self._version, view=view, choices=tuple(str(m) for m in self.reconciler.choosing),
            stable=self.reconciler.stable, pieces=pieces, expected=expected)
        return self._state

    def _beliefs(self) -> tuple[dict[str, str], dict[str, str]]:
        """What the referee believes stands on each cell, and (set-up) what it still expects."""
        believed = dict(self.game.pieces())
        if not self.stones_known:  # numbers not yet identified are not made up
            believed = {c: (p[0] + "?" if p[1:].isdigit() else p) for c, p in believed.items()}
        expected: dict[str, str] = {}
        if self.phase is Phase.SETUP:
            stable = self.reconciler.stable
            expected = {c: p for c, p in believed.items() if p and c not in stable}
            believed = {c: (p if c in stable else "") for c, p in believed.items()}
        elif self.phase is Phase.IDENTIFY and self._guide is not None:
            believed.update(self._guide.known_pieces())
        return believed, expected

    def _prompt(self, view: View) -> Prompt:
        """What is asked of the players now, as data."""
        prompt = self._play_prompt(view)
        if self.computer_to_move() and prompt.kind in ("move", "roll", "in_hand"):
            chosen = self._shown_move()
            move = None if chosen is None else self.game.format_move(chosen)
            words = None if chosen is None else self.game.move_words(chosen)
            return Prompt("computer", {"player": self.game.turn, "move": move, "roll": self._roll, "words": words})
        if prompt.kind in ("move", "roll", "in_hand") and self._hint is not None and self._hint[0] == self._turn_key():
            hint = self._hint[1]
            return Prompt(prompt.kind, {**prompt.data, "hint": self.game.format_move(hint),
                                        "hint_words": "roll the die" if hint == ROLL_DECISION else self.game.move_words(hint)})
        return prompt

    def _play_prompt(self, view: View) -> Prompt:
        game, rec, turn = self.game, self.reconciler, self.game.turn
        if self.phase is Phase.SETUP:
            return self._setup_prompt()
        if self.phase is Phase.IDENTIFY and self._guide is not None:
            asked = self._guide.prompt(True, rec.stable, rec.expected)
            if asked is not None:
                return Prompt(asked.kind, asked.data)
        if self.phase is Phase.OVER:
            outcome = game.outcome()
            return Prompt("over", {"result": outcome.result(game.players), "winner": outcome.winner,
                                   "reason": outcome.termination.value})
        if rec.guidance or rec.expected is not None:
            fill, empty = rec.guidance or (rec.expected - rec.stable, rec.stable - rec.expected)
            return Prompt("put_back", {"fill": sorted(fill), "empty": sorted(empty),
                                       "pieces": self._piece_names(fill)})
        if rec.choosing:
            return Prompt("choose", {"moves": [str(m) for m in rec.choosing]})
        in_hand = rec.in_hand
        if in_hand:
            return Prompt("in_hand", {"player": turn, "cells": sorted(in_hand[0]), "to": sorted(in_hand[1])})
        if self.phase is Phase.ROLLED:
            return Prompt("move", {"player": turn, "roll": self._roll,
                                   "stones": game.die_pieces(self._roll), "waiting": False})
        if game.uses_die:
            return Prompt("roll", {"player": turn})
        return Prompt("move", {"player": turn, "roll": None, "stones": None,
                               "waiting": bool(game.position_data().get("waiting"))})

    def _setup_prompt(self) -> Prompt:
        rec = self.reconciler
        wanted = rec.expected
        if self._guide is not None:
            asked = self._guide.prompt(False, rec.stable, wanted)
            if asked is not None:
                return Prompt(asked.kind, asked.data)
        if wanted is None:
            return Prompt("setup", {"fill": [], "empty": []})
        return Prompt("setup", {"fill": sorted(wanted - rec.stable), "empty": sorted(rec.stable - wanted)})

    def _movable_cells(self) -> frozenset[str]:
        """The stones the die chose (lit so the players see which); nothing before a roll or
        in a game without a die: lighting every piece of the mover tells nobody anything.
        Kept until the position or the roll changes: views are built on every frame."""
        if self._roll is None:
            return frozenset()
        stack = self.game.move_stack
        key = (len(stack), stack[-1] if stack else None, self._roll)
        if self._movable[0] != key:
            moves = self.game.turn_moves(self._roll)
            self._movable = (key, frozenset().union(*(self.game.footprint(m).empties for m in moves)))
        return self._movable[1]

    def _winner_cells(self, outcome: Outcome) -> frozenset[str]:
        if outcome.winner is None:
            return frozenset()
        return frozenset(self.game.winner_cells(outcome.winner))

    def _show(self, t: float) -> None:
        """Tell the board what to show, and a page that something changed; nothing to do, and
        nothing built, when neither the referee nor the reconciler changed since the last time."""
        key = (self._view_key(), self._notes_total)
        if key == self._told:
            return
        self._told = key
        view = self.view()
        seen = (view, self.reconciler.stable, self._notes_total)
        if seen != self._seen:
            self._seen = seen
            self._version += 1
            if self.outputs.changed:
                self.outputs.changed()
        shown = self._shown
        if shown is not None and shown[0] is view:
            return
        frame, die = signals.light_frame(view), signals.die_state(view)
        if shown is not None and (frame, die) == shown[1:]:
            self._shown = (view, frame, die)
            return
        self._shown = (view, frame, die)
        if self.outputs.lights:
            self.outputs.lights(frame)
        if self.outputs.die:
            self.outputs.die(die)

    def _cue(self, cue: Cue) -> None:
        if self.outputs.buzzer:
            self.outputs.buzzer(cue)

    @property
    def notes_total(self) -> int:
        """How many notes the game has made so far (the oldest are no longer in `notes`)."""
        return self._notes_total

    def _note(self, t: float, text: str, kind: str = "info", **data) -> None:
        self.notes.append(Note(t, text, kind, data))
        self._notes_total += 1

    def note(self, t: float, text: str, kind: str = "info", **data) -> None:
        """A note from outside the game (the board's link lost or back), shown like the others."""
        self._note(t, text, kind, **data)
        self._show(t)
