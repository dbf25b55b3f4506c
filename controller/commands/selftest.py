"""`reedboard selftest`: every reed switch and every LED of a board, checked with a magnet.

The test is a pure, time-driven state machine (`SelfTest`, like the referee: its inputs are
frames, button presses and the passing of time; its outputs are light frames, die display
states, buzzer cues and prompts) and an async runner (`run_selftest`) over any backend.

1. Hands off: with no magnet on the board, the switches are watched for `watch` seconds.
   A cell that reads occupied all the time is stuck closed (or a magnet was left there); a
   cell whose reading changes is chattering. Neither is asked for again, nor believed.
2. Switches: each hollow in board order blinks green ("put it here") and the prompt says
   "put a magnet on a1"; the first switch that closes answers. Its own switch: fine.
   Another cell's switch: crossed (two hollows that answer for each other are one swapped
   pair). Nothing within `timeout` seconds: stuck open. Then the magnet is taken away
   (the hollow blinks vermillion until every switch is open again).
3. LEDs: each LED alone, steady white: every hollow's, the seven die pips, the turn light.
   A magnet on the hollow that is lit confirms a hollow's LED (its switch is known from
   step 2: a swapped hollow is recognised by the switch that answered for it); when that
   switch cannot tell (stuck, chattering, crossed ambiguously) and for the pips and the
   turn light, the builder presses ok instead. Nothing within `timeout`: a dark LED.

The die display shows the step (1-3; at the end blank with no faults, error with some). The
buzzer: READY as a step begins, MOVE for a good answer, ILLEGAL for a wrong one, REFUSED for
a timeout, GAME_OVER at the end. `prompt` is the current request as data (for the terminal
and the web view), `findings` what was found; `report()` gives the Report, whose text is one
line per finding and a summary line ("no faults", "1 fault", "3 faults").

The test runs on the backend's address level (hal.addresses), through the board file's map
applied here and nowhere else: a closed switch is the hollow the board file wires to it (a
switch under no hollow is not seen), and a hollow's LED, a die pip ("pip1".."pip7") or the
turn light is lit alone by its index on the chain. `open_selftest` opens the backend so
(and, for `--backend sim`, the simulated board with the board file's declared faults and a
simulated builder, `SimBuilder`, that answers the prompts by itself).
"""

from __future__ import annotations

import asyncio
import datetime
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from reedboard.hal.addresses import LedFrame
from reedboard.hal.board import Board
from reedboard.hal.interfaces import Cue, DieFace, DieState, Light, LightFrame
from reedboard.hal.leds import PIP_NAMES, led_names

from .guide import (ASK_LIGHT, REMOVE_LIGHT, TEST_LIGHT, Opened, Prompt, Settings, SimBuilder, Steps,
                                                 address_board, drive, open_backend)
from .usage import UsageError
from ..core.referee import Outputs
from ..language.catalogue import COMMANDS, N_
from ..session.virtual_time import VirtualClock, run_virtual

__all__ = [
    "Settings", "Finding", "Report", "SelfTest", "leds_of", "run_selftest", "open_selftest",
    "default_report_path", "selftest_command",
]

_ = COMMANDS.gettext
ngettext = COMMANDS.ngettext

# the die's pips, where they sit, as a label of each says it
PIP_LABELS = (N_("the die's top-left pip"), N_("the die's top-right pip"), N_("the die's middle-left pip"),
              N_("the die's centre pip"), N_("the die's middle-right pip"), N_("the die's bottom-left pip"),
              N_("the die's bottom-right pip"))


@dataclass(frozen=True)
class Finding:
    """One fault. kind: stuck-closed, chatter, stuck-open, crossed, swapped, dark, crossed-led."""

    kind: str
    cells: tuple[str, ...]  # the cells (or "pip1".."pip7", "turn") concerned
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Report:
    game: str
    source: str
    findings: tuple[Finding, ...]

    @property
    def summary(self) -> str:
        n = len(self.findings)
        return _("no faults") if n == 0 else ngettext("{n} fault", "{n} faults", n).format(n=n)

    def text(self) -> str:
        return "".join(f"{finding.text}\n" for finding in self.findings) + self.summary + "\n"

    def write(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(self.text(), encoding="utf-8")
        return path

    def kinds(self) -> set[tuple[str, tuple[str, ...]]]:
        return {(f.kind, f.cells) for f in self.findings}


def leds_of(frame: LightFrame, board: Board) -> LedFrame:
    """The LEDs a self-test's light frame lights, by index: its cells, die pips ("pip1".."pip7")
    and turn light, where the board file places them."""
    index = {name: i for i, name in led_names(board).items()}
    leds = {index[name]: light for name, light in frame.cells.items() if name in index}
    if frame.turn is not None and board.turn_led is not None:
        leds[board.turn_led] = Light(frame.turn)
    return LedFrame(leds)


# ------------------------------------------------------------------------------------------------
# The state machine
# ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Led:
    name: str  # a cell, "pip1".."pip7" or "turn"
    index: int
    label: str  # for people: "a1's LED", "the die's top-left pip", "the turn light"


class SelfTest(Steps):
    def __init__(self, board: Board, settings: Settings | None = None, *, outputs: Outputs | None = None,
                 on_prompt: Callable[[Prompt], None] | None = None) -> None:
        super().__init__(board, settings or Settings(), outputs=outputs, on_prompt=on_prompt)
        self.findings: list[Finding] = []
        self.answers: dict[str, frozenset[str]] = {}  # step 2: hollow -> the cells whose switch closed
        self.ignored: set[str] = set()  # switches not believed (stuck closed, chattering)
        self.occupied: frozenset[str] = frozenset()
        self._baseline: frozenset[str] | None = None
        self._changes: Counter[str] = Counter()
        self._cells: list[str] = []
        self._cell: str | None = None
        self._leds: list[_Led] = []
        self._led: _Led | None = None
        self._seen = False
        self._hollow_of: dict[str, str] = {}  # step 3: a switch -> the hollow it answers for
        self._sensing: dict[str, str] = {}  # and back

    # --- inputs -----------------------------------------------------------------------------
    def start(self, t: float) -> None:
        self.now = t
        self._phase = "watch"
        self._deadline = t + self.settings.watch
        self._changes.clear()
        self._baseline = None if not self._seen else self.occupied
        self._show(LightFrame(), 1)
        self._cue(Cue.READY)
        self._ask(Prompt(1, "hands-off", _("step 1 of 3: take every magnet off the board and keep your hands"
                                           " off it for {seconds} s").format(seconds=f"{self.settings.watch:g}")))

    def frame(self, t: float, occupied: Iterable[str]) -> None:
        occupied = frozenset(occupied)
        self.advance(t)
        before = self.occupied
        self.occupied = occupied
        self._seen = True
        if self.done:
            return
        phase = self._phase
        if phase == "watch":
            if self._baseline is None:
                self._baseline = occupied
            else:
                self._changes.update(before ^ occupied)
        elif phase == "place":
            closed = occupied - self.ignored
            if closed:
                self._answered(t, closed)
        elif phase == "remove":
            if not occupied - self.ignored:
                self._removed(t)
        elif phase == "led" and self.prompt.action == "find":
            closed = occupied - self.ignored
            if closed:
                self._led_answered(t, closed)

    def press(self, t: float, button: str) -> None:
        self.advance(t)
        if self.done or button != "ok":
            return
        if self._phase == "led" and self._led is not None:
            self._cue(Cue.MOVE)
            self._next_led(t)

    # --- the steps ----------------------------------------------------------------------------
    def _timeout(self, t: float) -> None:
        phase = self._phase
        if phase == "watch":
            self._end_watch(t)
        elif phase == "place":
            self.answers[self._cell] = frozenset()
            self._cue(Cue.REFUSED)
            self._next_cell(t)
        elif phase == "remove":
            stuck = sorted(self.occupied - self.ignored, key=self._order)
            for cell in stuck:
                self._find("stuck-closed", (cell,), _("stuck closed: {cell} ({sensor}) stays closed"
                                                    " after the magnet was taken away").format(
                    cell=cell, sensor=self._sensor(cell)))
                self.ignored.add(cell)
            self._cue(Cue.ILLEGAL)
            then, self._then = self._then, None
            then(t)
        elif phase == "led":
            led = self._led
            self._find("dark", (led.name,), _("dark LED: {label} (LED {index}) does not light").format(
                label=led.label, index=led.index))
            self._cue(Cue.REFUSED)
            self._next_led(t)

    def _end_watch(self, t: float) -> None:
        baseline = self._baseline if self._baseline is not None else self.occupied
        changed = set(self._changes)
        for cell in self.board.cells:
            if cell in changed:
                n = self._changes[cell]
                self._find("chatter", (cell,), ngettext(
                    "chattering: {cell} ({sensor}) changed {n} time in {seconds} s with no magnet on the board",
                    "chattering: {cell} ({sensor}) changed {n} times in {seconds} s with no magnet on the board",
                    n).format(cell=cell, sensor=self._sensor(cell), n=n, seconds=f"{self.settings.watch:g}"))
                self.ignored.add(cell)
            elif cell in baseline:
                self._find("stuck-closed", (cell,), _("stuck closed: {cell} ({sensor}) reads occupied with no magnet"
                                                      " on the board (or a magnet was left there)").format(
                    cell=cell, sensor=self._sensor(cell)))
                self.ignored.add(cell)
        self._cells = [c for c in self.board.cells if c not in self.ignored]
        self._cue(Cue.READY)
        self._next_cell(t)

    def _next_cell(self, t: float) -> None:
        if not self._cells:
            self._end_switches(t)
            return
        if self.occupied - self.ignored:
            self._remove(t, self.occupied - self.ignored, self._next_cell)
            return
        cell = self._cell = self._cells.pop(0)
        self._phase = "place"
        self._deadline = t + self.settings.timeout
        self._show(LightFrame({cell: ASK_LIGHT}), 2)
        self._ask(Prompt(2, "place", _("step 2 of 3: put a magnet on {cell}").format(cell=cell), cell=cell))

    def _answered(self, t: float, closed: frozenset[str]) -> None:
        cell = self._cell
        self.answers[cell] = closed
        self._cue(Cue.MOVE if closed == {cell} else Cue.ILLEGAL)
        self._remove(t, {cell}, self._next_cell)

    def _remove(self, t: float, cells: Iterable[str], then: Callable[[float], None]) -> None:
        cells = sorted(set(cells), key=self._order)
        self._phase = "remove"
        self._then = then
        self._deadline = t + self.settings.removal
        self._show(LightFrame({c: REMOVE_LIGHT for c in cells if c in self.board.led}), None)
        self._ask(Prompt(self.prompt.step, "remove", _("take the magnet off {cells}").format(cells=_and(cells)),
                         cell=cells[0] if len(cells) == 1 else None))

    def _removed(self, t: float) -> None:
        then, self._then = self._then, None
        self._deadline = None
        then(t)

    def _end_switches(self, t: float) -> None:
        answers = self.answers
        done: set[str] = set()
        for cell in self.board.cells:
            if cell not in answers or cell in done:
                continue
            closed = answers[cell]
            if not closed:
                self._find("stuck-open", (cell,), _("stuck open: {cell} ({sensor}) did not close with a magnet on it")
                           .format(cell=cell, sensor=self._sensor(cell)))
            elif closed != {cell}:
                other = next(iter(closed)) if len(closed) == 1 else None
                if other is not None and answers.get(other) == {cell} and other not in done:
                    done.add(other)
                    self._find("swapped", (cell, other),
                               _("swapped: {cell} and {other} answer for each other (a magnet on {cell} closes"
                                 " {other_sensor}, {other}'s; a magnet on {other} closes {sensor}, {cell}'s)").format(
                                   cell=cell, other=other, sensor=self._sensor(cell),
                                   other_sensor=self._sensor(other)))
                else:
                    others = sorted(closed - {cell}, key=self._order)
                    names = _and([_("{cell}'s ({sensor})").format(cell=o, sensor=self._sensor(o)) for o in others])
                    if cell in closed:
                        text = _("crossed: a magnet on {cell} closes the switch of {others} as well as its own")
                    else:
                        text = _("crossed: a magnet on {cell} closes the switch of {others} instead of its own"
                                 " ({sensor})")
                    self._find("crossed", (cell, *others),
                               text.format(cell=cell, others=names, sensor=self._sensor(cell)))
            done.add(cell)
        leds = [_Led(c, self.board.led[c], _("{cell}'s LED").format(cell=c)) for c in self.board.cells]
        leds += [_Led(PIP_NAMES[k], index, _(PIP_LABELS[k])) for k, index in enumerate(self.board.die_pips)]
        if self.board.turn_led is not None:
            leds.append(_Led("turn", self.board.turn_led, _("the turn light")))
        self._leds = leds
        # Which hollow a switch answers for: only switches that answered for exactly one hollow.
        answering = Counter(next(iter(v)) for v in answers.values() if len(v) == 1)
        self._hollow_of = {next(iter(v)): h for h, v in answers.items()
                           if len(v) == 1 and answering[next(iter(v))] == 1}
        self._sensing = {h: s for s, h in self._hollow_of.items()}
        self._cue(Cue.READY)
        self._next_led(t)

    def _next_led(self, t: float) -> None:
        if not self._leds:
            self._finish(t)
            return
        if self.occupied - self.ignored:
            self._remove(t, self.occupied - self.ignored, self._next_led)
            return
        led = self._led = self._leds.pop(0)
        self._phase = "led"
        self._deadline = t + self.settings.timeout
        if led.name == "turn":
            frame = LightFrame(turn="white")
        else:
            frame = LightFrame({led.name: TEST_LIGHT})
        self._show(frame, 3)
        wait = f"{self.settings.timeout:g}"
        if led.name in self._sensing:
            prompt = Prompt(3, "find", _("step 3 of 3: put a magnet on the hollow that is lit (LED {index});"
                                         " nothing lit? wait ({seconds} s)").format(index=led.index, seconds=wait),
                            cell=led.name, led=led.index)
        elif led.name in self.board.cells:
            prompt = Prompt(3, "ok", _("step 3 of 3: press ok if the hollow {cell} is lit (LED {index}; its switch"
                                       " cannot tell); nothing lit? wait ({seconds} s)").format(
                cell=led.name, index=led.index, seconds=wait), cell=led.name, led=led.index)
        else:
            prompt = Prompt(3, "ok", _("step 3 of 3: press ok if {label} is lit (LED {index}); nothing lit?"
                                       " wait ({seconds} s)").format(label=led.label, index=led.index, seconds=wait),
                            cell=led.name, led=led.index)
        self._ask(prompt)

    def _led_answered(self, t: float, closed: frozenset[str]) -> None:
        led = self._led
        hollows = {self._hollow_of.get(c) for c in closed}
        if led.name in hollows:
            self._cue(Cue.MOVE)
        else:
            known = sorted((h for h in hollows if h is not None), key=self._order)
            if known:
                text = _("crossed LED: {label} (LED {index}) lights under {cells}").format(
                    label=led.label, index=led.index, cells=_and(known))
            else:
                text = _("crossed LED: {label} (LED {index}) lights where the magnet closes {cells}'s switch").format(
                    label=led.label, index=led.index, cells=_and(sorted(closed, key=self._order)))
            self._find("crossed-led", (led.name, *known), text)
            self._cue(Cue.ILLEGAL)
        self._remove(t, [led.name] if led.name in self.board.cells else closed, self._next_led)

    def _finish(self, t: float) -> None:
        self._phase = "done"
        self._deadline = None
        self._led = self._cell = None
        self.done = True
        self._show(LightFrame(), None, DieState(DieFace.ERROR) if self.findings else DieState())
        self._cue(Cue.GAME_OVER)
        self._ask(Prompt(0, "done", _("self-test done: {summary}").format(summary=self.report().summary)))

    # --- outputs ------------------------------------------------------------------------------
    def report(self) -> Report:
        return Report(self.board.name, self.board.source, tuple(self.findings))

    def _find(self, kind: str, cells: tuple[str, ...], text: str) -> None:
        self.findings.append(Finding(kind, cells, text))

    def _order(self, cell: str) -> tuple[int, str]:
        cells = self.board.cells
        return (cells.index(cell), cell) if cell in cells else (len(cells), cell)

    def _sensor(self, cell: str) -> str:
        return _("sensor {address}").format(address=self.board.sensor[cell]) if cell in self.board.sensor \
            else _("an unknown sensor")

    def _show(self, lights: LightFrame, step: int | None, die: DieState | None = None) -> None:
        if die is None and step is not None:  # the die display tells the step
            die = DieState(DieFace.VALUE, step)
        self._output(lights, die)


def _and(names) -> str:
    """"a1", "a1 and b2", "a1, b2 and c3", in the language in use."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


# ------------------------------------------------------------------------------------------------
# The runner
# ------------------------------------------------------------------------------------------------


async def run_selftest(addresses, board: Board, settings: Settings | None = None, *, builder=None,
                       on_prompt: Callable[[Prompt], None] | None = None,
                       clock: Callable[[], float] | None = None) -> Report:
    """Run the self-test on a backend's address-level board and return its report. `board` is
    the board file under test."""
    addresses = address_board(addresses)
    count = addresses.board.led_count

    def show(frame: LightFrame) -> None:
        addresses.show_leds(*leds_of(frame, board).chain(count))

    cell_at = {address: cell for cell, address in board.sensor.items()}
    test = SelfTest(board, settings, outputs=Outputs(lights=show, die=addresses.show_die, buzzer=addresses.play),
                    on_prompt=on_prompt)
    await drive(test, addresses, builder=builder, clock=clock, poll=None,  # its deadlines move only on inputs
                translate=lambda closed: frozenset(cell_at[a] for a in closed if a in cell_at))
    return test.report()


# ------------------------------------------------------------------------------------------------
# Opening a board, and the command
# ------------------------------------------------------------------------------------------------


def open_selftest(hal: str | None, board_path: str | None = None, port: str | None = None, *,
                  seed: int = 0, clock: Callable[[], float] | None = None) -> Opened:
    """The backend for a self-test, at its address level; for a board moved by hand
    (registry.HANDS), the simulated board with the board file's declared faults and a
    simulated builder (on `clock`, if given)."""
    from reedboard.hal.mock.faults import SimHands, faulty_sim, parse_faults

    def by_hand(board: Board) -> Opened:
        device = faulty_sim(board, parse_faults(board), seed=seed, **({"clock": clock} if clock else {}))
        return Opened(hal, board, device, SimBuilder(SimHands(device, board)), _("the simulated board"))

    return open_backend(hal, board_path, port, by_hand)


def default_report_path(game: str, when: datetime.datetime | None = None) -> Path:
    when = when or datetime.datetime.now()
    return Path(f"selftest-{game}-{when:%Y%m%d-%H%M%S}.txt")


def selftest_command(hal: str | None, port: str | None, board_path: str | None, report_path: str | None,
                     timeout: float | None = None, *, watch: float | None = None, out=None) -> int:
    """`reedboard selftest`: 0 with no faults, 1 with faults or no board (the report says which)."""
    from reedboard.hal import registry
    from reedboard.hal.backends import NoBoard

    out = out or sys.stdout
    # A board moved by hand and its builder answer at once: they run on the loop's virtual time,
    # so a timeout (a dark LED, a switch stuck open) passes as soon as nothing is left to do.
    clock = VirtualClock() if registry.can(hal, registry.HANDS) else None
    try:
        opened = open_selftest(hal, board_path, port, clock=clock)
    except NoBoard as error:
        print(_("reedboard selftest: no board could be reached. Tried:"), file=out)
        for attempt in error.tried:
            print(f"  - {attempt}", file=out)
        return 1
    settings = Settings(**{k: v for k, v in (("timeout", timeout), ("watch", watch)) if v is not None})
    board = opened.board
    print(_("self-test of the {name} board ({source}) on {backend} ({detail})").format(
        name=board.name, source=board.source, backend=opened.backend, detail=opened.detail), file=out, flush=True)
    try:
        running = run_selftest(opened.device, board, settings, builder=opened.builder,
                               on_prompt=lambda p: print(p.text, file=out, flush=True))
        report = run_virtual(running, clock) if clock is not None else asyncio.run(running)
    finally:
        opened.close()
    path = Path(report_path) if report_path else default_report_path(board.name)
    out.write(report.text())  # printed first: a report that cannot be written is not lost
    try:
        report.write(path)
    except OSError as error:
        raise UsageError(_("reedboard: cannot write the self-test report to {path} ({problem}); it is printed above")
                         .format(path=path, problem=error.strerror or error)) from None
    print(_("report written to {path}").format(path=path), file=out)
    return 0 if not report.findings else 1
