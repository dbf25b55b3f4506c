"""The referee: runs one game on one board.

It owns the game, the reconciler, the die, the journal and the flight recorder, and tells
the board what to show. It is driven by three kinds of input, each with its time: sensor
frames, button presses, and the passing of time (advance). Live play feeds it from the
hardware and the clock (controller.live); replays and tests feed it a trace's events in
virtual time, so a replay is exact and fast.

Turn flow. Big Balls: either a big-ball move, or the die button, a roll, then a stone move
for that roll. Off Board: line moves, and the re-placement of a waiting ball.
Set-up. Off Board: the lights show where the balls go until the board matches. Big Balls:
a given arrangement (replays, tests), a guided shuffle (the controller draws the numbers
and lights each stone's hollow in turn while the die shows its number), or identify (the
players place their shuffled stones, then lift and put back each number the die asks for).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from hal.interfaces import Cue, DieState, LightFrame

from . import signals
from .games import BigBalls, Game, Outcome
from .games.bigballs import DEFAULT_BALLS, START_HOLLOWS
from .reconcile import (
    Ambiguous, Amended, Cleared, Committed, Illegal, Progress, Reached, Reconciler, Settings, TakenBack,
    Touched,
)
from .view import Phase, View

ROLL_ANIMATION = 0.6  # s the die shows its rolling animation before the value
SETUP_MODES = ("given", "shuffle", "identify")


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


@dataclass(frozen=True)
class Note:
    """One line of what the players were shown, for replay --events and the web view."""

    t: float
    text: str

    def __str__(self) -> str:
        return f"{self.t:9.3f}  {self.text}"


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
    ) -> None:
        if setup not in SETUP_MODES:
            raise ValueError(f"set-up mode must be one of {', '.join(SETUP_MODES)}, not {setup!r}")
        if setup != "given" and not isinstance(game, BigBalls):
            raise ValueError("only Big Balls has shuffled stones to set up")
        self.game = game
        self.settings = settings or Settings()
        self.die = die or Die(rng)
        self.journal = journal  # None until the game is set up, unless resuming
        self._open_journal = open_journal  # creates the journal once the set-up is known
        self.recorder = recorder
        self.outputs = outputs or Outputs()
        self.notes: list[Note] = []
        self._rng = rng
        self._setup_mode = setup
        self._roll = pending_roll
        self._rolling_until: float | None = None
        self._last_move_cells: frozenset[str] = frozenset()
        self._shown: tuple | None = None
        self._steps: list[tuple[str, int | None, str]] = []  # guided shuffle: (colour, number, hollow)
        self._identified: dict[str, dict[str, int]] = {}
        self._asking: tuple[str, int] | None = None  # identify: (colour, number) asked for
        self._step_index = 0  # guided shuffle: the step being placed
        self._movable: tuple = (None, frozenset())  # (position and roll, the cells that may move)
        self.reconciler = Reconciler(game, self.settings, roll=pending_roll)
        self.phase = Phase.SETUP
        self._now = 0.0

    # --- starting ---------------------------------------------------------------------------
    def start(self, t: float) -> None:
        """Show the set-up and wait for the board to match it."""
        self._now = t
        if self._setup_mode == "shuffle":
            self._draw_arrangement()
            self._steps = self._shuffle_steps()
            self._next_setup_step(t)
        else:
            self._handle(self.reconciler.expect(t))
        self._note(t, self._setup_message())
        self._show(t)

    def _draw_arrangement(self) -> None:
        rng = self._rng or random.SystemRandom()
        setup = {}
        for colour, hollows in START_HOLLOWS.items():
            numbers = list(range(1, 7))
            rng.shuffle(numbers)
            setup[colour] = dict(zip(hollows, numbers))
        self._replace_game(BigBalls(**setup, first=self.game.first))

    def _shuffle_steps(self) -> list[tuple[str, int | None, str]]:
        steps = [("ball", None, hollow) for hollow in DEFAULT_BALLS]
        for colour in self.game.players:
            by_number = {n: h for h, n in self.game.stones(colour).items()}
            steps += [(colour, n, by_number[n]) for n in sorted(by_number)]
        return steps

    def _next_setup_step(self, t: float) -> None:
        target = {hollow for _, _, hollow in self._steps[: self._step_index + 1]}
        self._handle(self.reconciler.expect(t, target))

    def _replace_game(self, game: Game) -> None:
        self.game = game
        self.reconciler = Reconciler(game, self.settings, board=self.reconciler.stable)

    def _begin_play(self, t: float) -> None:
        self.phase = Phase.ROLLED if self._roll is not None else Phase.PLAY
        self.reconciler.listening = True
        if self.journal is None and self._open_journal is not None:
            self.journal = self._open_journal(self.game)
        self._cue(Cue.READY)
        self._note(t, f"ready: {self.game.turn} to move")
        self._check_over(t)

    @property
    def now(self) -> float:
        """The latest time the referee has been told of."""
        return self._now

    @property
    def identified(self) -> dict[str, dict[str, int]]:
        """Identify set-up: the stones known so far, {colour: {hollow: number}}."""
        return {colour: dict(known) for colour, known in self._identified.items()}

    @property
    def roll(self) -> int | None:
        """The die's value while a stone move for it is due (Big Balls)."""
        return self._roll

    # --- inputs -------------------------------------------------------------------------------
    def frame(self, t: float, occupied: Iterable[str]) -> None:
        occupied = frozenset(occupied)
        if self.recorder is not None:
            self.recorder.frame(t, occupied)
        self.advance(t)
        self._handle(self.reconciler.feed(t, occupied))
        self._show(t)

    def press(self, t: float, button: str, roll: int | None = None) -> None:
        """A button: "die" (roll; `roll` fixes the value in replays and tests) or "ok"."""
        if button not in ("die", "ok"):
            raise ValueError(f"unknown button {button!r}")
        self.advance(t)
        if button == "die":
            roll = self._press_die(t, roll)
        else:
            self._handle(self.reconciler.confirm(t))
        if self.recorder is not None:
            self.recorder.press(t, button, roll)  # with the value drawn, so a replay can repeat it
        self._show(t)

    def advance(self, t: float) -> None:
        """Let time run to t (timers of the reconciler and the die animation)."""
        while True:
            due = self.next_deadline()
            if due is None or due > t:
                break
            if self._rolling_until is not None and self._rolling_until <= due:
                self._rolling_until = None
            self._handle(self.reconciler.advance(due))
            self._now = due
            self._show(due)
        events = self.reconciler.advance(t)
        self._handle(events)
        self._now = max(self._now, t)
        if events:
            self._show(t)

    def next_deadline(self) -> float | None:
        times = [x for x in (self.reconciler.next_deadline(), self._rolling_until) if x is not None]
        return min(times) if times else None

    def resign(self, t: float, player: str) -> None:
        if self.phase is Phase.OVER:
            return
        self.game.resign(player)
        self._note(t, f"{player} resigns")
        self._finish(t)
        self._show(t)

    def agree_draw(self, t: float) -> None:
        if self.phase is Phase.OVER:
            return
        self.game.agree_draw()
        self._note(t, "draw agreed")
        self._finish(t)
        self._show(t)

    # --- the die ---------------------------------------------------------------------------------
    def _press_die(self, t: float, given: int | None) -> int | None:
        """Roll if the rules allow it now; the value rolled, or None when refused."""
        game = self.game
        refusal = None
        if not isinstance(game, BigBalls):
            refusal = "this game has no die"
        elif self.phase is Phase.OVER:
            refusal = "the game is over"
        elif self.phase in (Phase.SETUP, Phase.IDENTIFY):
            refusal = "the set-up is not finished"
        elif self.phase is Phase.ROLLED:
            refusal = f"the die already shows {self._roll}: move a stone for it"
        elif not game.can_roll():
            refusal = f"{game.turn} has no stone to roll for: move a big ball"
        elif not self.reconciler.at_baseline:
            refusal = "put the pieces back first (see the lights), then roll"
        if refusal:
            self._note(t, f"die refused: {refusal}")
            self._cue(Cue.REFUSED)
            return None
        value = self.die.roll(given)
        if self.journal is not None:
            self.journal.append_roll(t, game.turn, value)  # the roll is on disk before any move
        self._roll = value
        self._rolling_until = t + ROLL_ANIMATION
        self.phase = Phase.ROLLED
        self._cue(Cue.ROLL)
        self._note(t, f"{game.turn} rolls {value}: stone {' or '.join(map(str, game.movable_stones(value)))}")
        self._handle(self.reconciler.set_roll(t, value))
        return value

    # --- what the reconciler said ----------------------------------------------------------------------
    def _handle(self, events: list) -> None:
        for event in events:
            t = event.t
            if isinstance(event, Committed):
                self._last_move_cells = self._last_move()
                self._roll = None
                if self.journal is not None:
                    self.journal.append_move(t, str(event.move))
                self._note(t, f"move {event.move}")
                self._cue(Cue.MOVE)
                self.phase = Phase.PLAY
                self._check_over(t)
            elif isinstance(event, Amended):
                self._last_move_cells = self._last_move()
                if self.journal is not None:
                    self.journal.append_amend(t, str(event.old), str(event.new))
                self._note(t, f"amended: {event.old} -> {event.new}")
                self._cue(Cue.MOVE)
                self._check_over(t)
            elif isinstance(event, TakenBack):
                self._roll = None
                self._rolling_until = None
                self._last_move_cells = self._last_move()
                if self.journal is not None:
                    self.journal.append_takeback(t, str(event.move))
                self._note(t, f"takeback: {event.move}")
                self._cue(Cue.TAKEBACK)
                self.phase = Phase.PLAY
            elif isinstance(event, Illegal):
                self._note(t, "illegal: " + _guidance_text(event.fill, event.empty))
                self._cue(Cue.ILLEGAL)
            elif isinstance(event, Cleared):
                self._note(t, "board agrees again")
            elif isinstance(event, Ambiguous):
                self._note(t, "choose by touch: " + " | ".join(map(str, event.moves)))
                self._cue(Cue.CHOOSE)
            elif isinstance(event, Touched):
                self._on_touch(t, event.cells)
            elif isinstance(event, Progress):
                pass  # the set-up lights follow the board; nothing to note
            elif isinstance(event, Reached):
                self._on_setup_reached(t)

    def _on_setup_reached(self, t: float) -> None:
        if self._setup_mode == "shuffle" and self.phase is Phase.SETUP:
            self._step_index += 1
            if self._step_index < len(self._steps):
                self._next_setup_step(t)
                return
        if self._setup_mode == "identify" and self.phase is Phase.SETUP:
            self.phase = Phase.IDENTIFY
            self.reconciler.listening = False
            self._ask_next_number(t)
            return
        if self.phase is Phase.SETUP:
            self._begin_play(t)

    def _on_touch(self, t: float, cells: frozenset[str]) -> None:
        if self.phase is not Phase.IDENTIFY or self._asking is None:
            self._note(t, f"touched {' '.join(sorted(cells))}: no move")
            return
        colour, number = self._asking
        hollows = [c for c in cells if c in START_HOLLOWS[colour] and c not in self._identified[colour]]
        if len(cells) != 1 or len(hollows) != 1:
            self._note(t, f"touch {' '.join(sorted(cells))} refused: lift only {colour}'s stone {number}")
            self._cue(Cue.REFUSED)
            return
        self._identified[colour][hollows[0]] = number
        self._note(t, f"{colour} stone {number} is on {hollows[0]}")
        self._ask_next_number(t)

    def _ask_next_number(self, t: float) -> None:
        for colour in self.game.players:
            known = self._identified.setdefault(colour, {})
            missing = [n for n in range(1, 7) if n not in known.values()]
            if len(missing) == 1:  # the last stone needs no asking
                last = next(h for h in START_HOLLOWS[colour] if h not in known)
                known[last] = missing[0]
                missing = []
            if missing:
                self._asking = (colour, missing[0])
                self._note(t, f"identify: {colour}, lift stone {missing[0]} and put it back")
                return
        self._asking = None
        self._replace_game(BigBalls(**self._identified, first=self.game.first))
        self._begin_play(t)

    def _check_over(self, t: float) -> None:
        if self.game.outcome() is not None:
            self._finish(t)

    def _finish(self, t: float) -> None:
        outcome = self.game.outcome()
        self.phase = Phase.OVER
        self.reconciler.listening = False
        self._roll = None
        if self.journal is not None:
            self.journal.append_result(t, outcome.result(self.game.players), outcome.termination.value, outcome.winner)
        self._note(t, f"game over: {outcome.result(self.game.players)} {outcome.termination.value}")
        self._cue(Cue.GAME_OVER)

    # --- what the players see --------------------------------------------------------------------------
    def view(self) -> View:
        game, rec = self.game, self.reconciler
        outcome: Outcome | None = game.outcome() if self.phase is Phase.OVER else None
        view = View(
            game=game.name, phase=self.phase, turn=game.turn, cells=game.cells, occupied=game.occupied(),
            roll=self._roll, rolling=self._rolling_until is not None, players=game.players,
            last_move=self._last_move_cells, outcome=outcome, message=self._message(),
        )
        if self.phase is Phase.SETUP:
            wanted = rec.expected
            if wanted is not None:
                view = replace(view, fill=wanted - rec.stable, empty=rec.stable - wanted)
            if self._setup_mode == "shuffle" and self._step_index < len(self._steps):
                colour, number, hollow = self._steps[self._step_index]
                # the stone's own hollow shows as "place", not as a plain gap to fill
                view = replace(view, place=frozenset({hollow}), identify=number, fill=view.fill - {hollow})
            return view
        if self.phase is Phase.IDENTIFY and self._asking:
            colour, number = self._asking
            open_hollows = frozenset(h for h in START_HOLLOWS[colour] if h not in self._identified.get(colour, {}))
            return replace(view, identify=number, movable=open_hollows)
        if outcome is not None:
            return replace(view, winner_cells=self._winner_cells(outcome))
        guidance = rec.guidance
        if guidance:
            view = replace(view, fill=guidance[0], empty=guidance[1])
        if rec.choosing:
            view = replace(view, choices=rec.choice_paths)
        return replace(view, movable=self._movable_cells())

    def _movable_cells(self) -> frozenset[str]:
        """Cells of the pieces that may move now (Big Balls before a roll: the big balls).
        Kept until the position or the roll changes: views are built on every frame."""
        stack = self.game.move_stack
        key = (len(stack), stack[-1] if stack else None, self._roll)
        if self._movable[0] != key:
            moves = self.game.turn_moves(self._roll)
            self._movable = (key, frozenset().union(*(self.game.footprint(m).empties for m in moves)))
        return self._movable[1]

    def _winner_cells(self, outcome: Outcome) -> frozenset[str]:
        if outcome.winner is None:
            return frozenset()
        game = self.game
        if isinstance(game, BigBalls):
            return frozenset(game.stones(outcome.winner))
        return frozenset(game.balls(outcome.winner))

    def _last_move(self) -> frozenset[str]:
        """The cells the last move on the stack touched, for the last-move lights."""
        game = self.game
        if not game.move_stack:
            return frozenset()
        move = game.pop()
        fp = game.footprint(move)
        game.push(move)
        return fp.empties | fp.fills | fp.captures

    def _message(self) -> str:
        if self.phase is Phase.SETUP:
            return self._setup_message()
        if self.phase is Phase.IDENTIFY and self._asking:
            return f"{self._asking[0]}: lift stone {self._asking[1]} and put it back"
        if self.phase is Phase.OVER:
            outcome = self.game.outcome()
            return f"game over: {outcome.result(self.game.players)} ({outcome.termination.value})"
        if self.reconciler.guidance:
            return "the board does not match: " + _guidance_text(*self.reconciler.guidance)
        if self.reconciler.choosing:
            return "several moves fit: lift and put back a piece of the one you made"
        if self.phase is Phase.ROLLED:
            return f"{self.game.turn} rolled {self._roll}: move stone {' or '.join(map(str, self.game.movable_stones(self._roll)))}"
        if isinstance(self.game, BigBalls):
            return f"{self.game.turn} to move: roll the die or move a big ball"
        waiting = getattr(self.game, "waiting", None)
        extra = ": put your waiting ball back, or move and drop it" if waiting else ""
        return f"{self.game.turn} to move{extra}"

    def _setup_message(self) -> str:
        if self._setup_mode == "shuffle" and self._step_index < len(self._steps):
            colour, number, hollow = self._steps[self._step_index]
            what = "a big ball" if number is None else f"{colour} stone {number}"
            return f"set-up: put {what} on {hollow}"
        return "set-up: put the pieces where the lights show"

    def _show(self, t: float) -> None:
        view = self.view()
        frame, die = signals.light_frame(view), signals.die_state(view)
        if (frame, die) == self._shown:
            return
        self._shown = (frame, die)
        if self.outputs.lights:
            self.outputs.lights(frame)
        if self.outputs.die:
            self.outputs.die(die)

    def _cue(self, cue: Cue) -> None:
        if self.outputs.buzzer:
            self.outputs.buzzer(cue)

    def _note(self, t: float, text: str) -> None:
        self.notes.append(Note(t, text))


def _guidance_text(fill: frozenset[str], empty: frozenset[str]) -> str:
    parts = []
    if fill:
        parts.append("put a piece on " + " ".join(sorted(fill)))
    if empty:
        parts.append("take the piece from " + " ".join(sorted(empty)))
    return "; ".join(parts) or "nothing"
