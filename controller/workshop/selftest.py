"""`reedboard selftest`: every reed switch, every LED, the buttons and the buzzer of a board,
checked with a magnet.

The test is a pure, time-driven state machine (`SelfTest`, like the referee: its inputs are
frames, button presses and the passing of time; its outputs are light frames, die display
states, buzzer cues and prompts) and an async runner (`run_selftest`) over any backend.

1. An empty board, then hands off. With pieces on the board (a game's start position left
   on it), the builder is first asked to take every piece off ("clear"): the hollows still
   closed blink vermillion, and once nothing has changed for CLEAR_SETTLE seconds the prompt
   names them. A switch still closed `timeout` seconds after the last piece came off (or when
   the builder presses ok to go on) reads occupied in the quiet check that follows. With the
   board empty, the switches are watched for `watch` seconds, hands off: a cell that reads
   occupied all the time is stuck closed; a cell whose reading changes is chattering (but one
   that opens once, a piece taken off late, is not). Neither is asked for again, nor believed.
2. The buttons and the buzzer: "press the die button" (a board with a die), "press ok", each
   within `timeout`, else it does not answer; then the buzzer plays READY and the builder says
   whether it was heard: ok for yes, the die button (or the timeout) for no.
3. Switches: each hollow in board order blinks green ("put it here") and the prompt says
   "put a magnet on a1"; the first switch that closes answers. Its own switch: fine.
   Another cell's switch: crossed (two hollows that answer for each other are one swapped
   pair). Nothing within `timeout` seconds, or the die button (nothing happens): stuck open.
   Then the magnet is taken away (the hollow blinks vermillion until every switch is open).
4. LEDs, in the chain's order: each LED alone, steady white: the hollows', the seven die
   pips, the turn light. A magnet on the hollow that is lit confirms a hollow's LED (its
   switch is known from step 3: a swapped hollow is recognised by the switch that answered
   for it); when that switch cannot tell (stuck, chattering, crossed ambiguously, a row that
   does not answer) and for the pips and the turn light, the builder presses ok instead.
   Nothing within `timeout`, or the die button (nothing lit): a dark LED. When more LEDs
   follow a dark one on the chain, they are lit all at once and the builder says whether any
   lights (ok) or none does (the die button, or the timeout): then the chain is broken there,
   and they are not asked for one by one.

Findings name the pattern where there is one, and each says what to check: every hollow of
one matrix row (or column) stuck open is one finding, "row 0 does not answer: check row 0's
wire from GP0 (pin 1) to its switches"; a row or column whose switches all read closed with
nothing on the board is a short; LEDs dark from one place of the chain on are "the LED chain
is broken after LED 7"; two hollows that answer for each other are a swapped pair. The pins
are the backend's (wiring.py: the Pico's for serial, the board file's [gpio] for gpio).

The die display shows the step (1-4; at the end blank with no faults, error with some). The
buzzer: READY as a step begins (and for the buzzer's own test), MOVE for a good answer,
ILLEGAL for a wrong one, REFUSED for a timeout or a "no", GAME_OVER at the end. `prompt` is the
current request as data (for the terminal and the web view), `findings` what was found;
`report()` gives the Report, whose text is one line per finding and a summary line ("no
faults", "1 fault", "3 faults"), after a head naming the date, the board file, the backend
and the firmware when the command gives them.

The test runs on the backend's address level (hal.addresses), through the board file's map
applied here and nowhere else: a closed switch is the hollow the board file wires to it (a
switch under no hollow is not seen), and a hollow's LED, a die pip ("pip1".."pip7") or the
turn light is lit alone by its index on the chain. `open_selftest` opens the backend so
(and, for `--backend sim`, the simulated board with the board file's declared faults and a
simulated builder, `SimBuilder`, that answers the prompts by itself). Ctrl-C stops the
command with the report of what was found so far (exit status 130).
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
                                                 address_board, drive, firmware_words, open_backend)
from .problems import BenchError
from .wiring import Wiring, wiring_of
from ..core.referee import Outputs
from ..language import forms
from ..language.catalogue import COMMANDS, N_
from ..session.virtual_time import VirtualClock, run_virtual
from ..words import said

__all__ = [
    "Settings", "Finding", "Report", "SelfTest", "leds_of", "run_selftest", "open_selftest",
    "default_report_path", "selftest_command", "CLEAR_SETTLE", "STOPPED",
]

_ = COMMANDS.gettext
ngettext = COMMANDS.ngettext

CLEAR_SETTLE = 2.0  # s without a change before the prompt names the hollows still closed
STOPPED = 130  # the exit status of a self-test stopped with Ctrl-C (128 + SIGINT)

# the die's pips, where they sit, as a label of each says it
PIP_LABELS = (N_("the die's top-left pip"), N_("the die's top-right pip"), N_("the die's middle-left pip"),
              N_("the die's centre pip"), N_("the die's middle-right pip"), N_("the die's bottom-left pip"),
              N_("the die's bottom-right pip"))


@dataclass(frozen=True)
class Finding:
    """One fault. kind: stuck-closed, chatter, shorted-row, shorted-column, die-button, ok-button,
    buzzer, stuck-open, dead-row, dead-column, crossed, swapped, dark, chain-broken, chain-dark,
    crossed-led."""

    kind: str
    cells: tuple[str, ...]  # the cells (or "pip1".."pip7", "turn") concerned
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Report:
    """What a self-test found. With `when` (and the backend), its text starts with a head: the
    date, the board file, the backend and its firmware; `stopped`: Ctrl-C ended it early."""

    game: str
    source: str
    findings: tuple[Finding, ...]
    when: datetime.datetime | None = None
    backend: str | None = None  # "serial (Pico on /dev/ttyACM0)"
    firmware: str | None = None  # "reedboard-1.4.0 (protocol 1)", or what stands for none
    stopped: bool = False

    @property
    def summary(self) -> str:
        n = len(self.findings)
        found = _("no faults") if n == 0 else ngettext("{n} fault", "{n} faults", n).format(n=n)
        if self.stopped:
            return _("stopped before the end (Ctrl-C): {summary} so far").format(summary=found)
        return found

    def head(self) -> list[str]:
        if self.when is None:
            return []
        lines = [_("self-test of the {name} board ({source}), {date}").format(
            name=self.game, source=self.source, date=f"{forms.date(self.when)} {self.when:%H:%M}")]
        if self.backend is not None:
            lines.append(_("backend: {backend}; firmware: {firmware}").format(
                backend=self.backend, firmware=self.firmware or _("unknown")))
        return lines

    def text(self) -> str:
        lines = self.head() + [finding.text for finding in self.findings] + [self.summary]
        return "".join(f"{line}\n" for line in lines)

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
    """The self-test of `board` (see the module's words). `wiring`: the pins its findings name
    (wiring.wiring_of; None: the wires alone)."""

    def __init__(self, board: Board, settings: Settings | None = None, *, outputs: Outputs | None = None,
                 on_prompt: Callable[[Prompt], None] | None = None, wiring: Wiring | None = None) -> None:
        super().__init__(board, settings or Settings(), outputs=outputs, on_prompt=on_prompt)
        self.wiring = wiring or Wiring()
        self.findings: list[Finding] = []
        self.answers: dict[str, frozenset[str]] = {}  # step 3: hollow -> the cells whose switch closed
        self.ignored: set[str] = set()  # switches not believed (stuck closed, chattering)
        self.occupied: frozenset[str] = frozenset()
        self.has_die = bool(board.die_pips)  # a board with a die has a die button
        self._baseline: frozenset[str] | None = None
        self._changes: Counter[str] = Counter()
        self._least = 0  # step 1, clearing: the fewest switches closed so far,
        self._progress = 0.0  # since when,
        self._settle_at = 0.0  # when the prompt names what is still closed,
        self._named: frozenset[str] | None = None  # and what the last prompt named
        self._buttons: list[str] = []
        self._button: str | None = None
        self._cells: list[str] = []
        self._cell: str | None = None
        self._leds: list[_Led] = []
        self._led: _Led | None = None
        self._dark: list[_Led] = []
        self._broken: tuple[_Led, list[_Led]] | None = None  # the first dark LED and the LEDs after it
        self._tested_leds: list[_Led] = []
        self._switches_done = self._leds_done = False  # their findings are in self.findings
        self._seen = False
        self._hollow_of: dict[str, str] = {}  # step 4: a switch -> the hollow it answers for
        self._sensing: dict[str, str] = {}  # and back

    # --- inputs -----------------------------------------------------------------------------
    def start(self, t: float) -> None:
        self.now = t
        self._cue(Cue.READY)
        if self.occupied:
            self._clear(t)
        else:
            self._watch(t)

    def frame(self, t: float, occupied: Iterable[str]) -> None:
        occupied = frozenset(occupied)
        self.advance(t)
        before = self.occupied
        self.occupied = occupied
        self._seen = True
        if self.done:
            return
        phase = self._phase
        if phase == "clear":
            if not occupied:
                self._deadline = None
                self._watch(t)
            elif occupied != before:
                self._clearing(t)
        elif phase == "watch":
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
        if self.done:
            return
        phase = self._phase
        if phase == "clear" and button == "ok":  # go on: what is still closed is watched as it is
            self._deadline = None
            self._cue(Cue.MOVE)
            self._watch(t)
        elif phase == "button":
            if self._button == "hear":
                if button == "ok":
                    self._cue(Cue.MOVE)
                    self._next_button(t)
                elif button == "die":
                    self._silent(t)
            elif button == self._button:
                self._cue(Cue.MOVE)
                self._next_button(t)
        elif phase == "place" and button == "die":  # nothing happens
            self._deadline = None
            self._no_answer(t)
        elif phase == "led" and self._led is not None:
            if button == "ok":
                self._cue(Cue.MOVE)
                self._deadline = None
                self._next_led(t)
            elif button == "die":  # nothing lit
                self._deadline = None
                self._dark_led(t)
        elif phase == "chain":
            self._deadline = None
            if button == "ok":  # some of them light: each is asked for in turn
                self._cue(Cue.MOVE)
                self._next_led(t)
            elif button == "die":
                self._chain_broken(t)

    # --- the steps ----------------------------------------------------------------------------
    def _timeout(self, t: float) -> None:
        phase = self._phase
        if phase == "clear":
            if t >= self._progress + self.settings.timeout:
                self._watch(t)  # what is still closed is found stuck by the quiet check
            else:
                self._name_closed(t)
        elif phase == "watch":
            self._end_watch(t)
        elif phase == "button":
            if self._button == "hear":
                self._silent(t)
            else:
                self._dead_button(t)
        elif phase == "place":
            self._no_answer(t)
        elif phase == "remove":
            stuck = sorted(self.occupied - self.ignored, key=self._order)
            for cell in stuck:
                self._find("stuck-closed", (cell,), _("stuck closed: {cell} ({sensor}) stays closed after the magnet"
                                                    " was taken away: its blades stick (tap the glass, or put in a new"
                                                    " switch), or its wires touch").format(
                    cell=cell, sensor=self._sensor(cell)))
                self.ignored.add(cell)
            self._cue(Cue.ILLEGAL)
            then, self._then = self._then, None
            then(t)
        elif phase == "led":
            self._dark_led(t)
        elif phase == "chain":
            self._chain_broken(t)

    # step 1: an empty board, hands off
    def _clear(self, t: float) -> None:
        self._phase = "clear"
        self._least = len(self.occupied)
        self._progress = t
        self._settle_at = t + CLEAR_SETTLE
        self._named = None  # the first prompt names no hollow: they are lit
        cells = self._closed_cells()
        self._show(LightFrame({c: REMOVE_LIGHT for c in cells if c in self.board.led}), 1)
        self._deadline = self._clear_deadline()
        self._ask(Prompt(1, "clear", _("step 1 of 4: take every piece off the board (the hollows still closed blink);"
                                       " a switch still closed {seconds} s after the last piece came off is found"
                                       " stuck (ok: go on now)").format(seconds=f"{self.settings.timeout:g}"),
                         cells=cells))

    def _clearing(self, t: float) -> None:
        """A piece taken off (or put on) while the board is cleared."""
        if len(self.occupied) < self._least:
            self._least = len(self.occupied)
            self._progress = t
        self._settle_at = t + CLEAR_SETTLE
        self._show(LightFrame({c: REMOVE_LIGHT for c in self._closed_cells() if c in self.board.led}), 1)
        self._deadline = self._clear_deadline()

    def _clear_deadline(self) -> float:
        stuck = self._progress + self.settings.timeout
        return stuck if self.occupied == self._named else min(stuck, self._settle_at)

    def _name_closed(self, t: float) -> None:
        """Nothing has changed for a while, and some switches still read closed: name them."""
        self._named = self.occupied
        cells = self._closed_cells()
        left = max(0.0, self._progress + self.settings.timeout - t)
        self._deadline = self._clear_deadline()
        self._ask(Prompt(1, "clear", ngettext(
            "step 1 of 4: still closed: {cells}. Nothing on it? In {seconds} s it is found stuck (ok: go on now)",
            "step 1 of 4: still closed: {cells}. Nothing on them? In {seconds} s they are found stuck (ok: go on now)",
            len(cells)).format(cells=_and(cells), seconds=f"{left:.0f}"), cells=cells))

    def _closed_cells(self) -> tuple[str, ...]:
        return tuple(sorted(self.occupied, key=self._order))

    def _watch(self, t: float) -> None:
        self._phase = "watch"
        self._deadline = t + self.settings.watch
        self._changes.clear()
        self._baseline = None if not self._seen else self.occupied
        self._show(LightFrame(), 1)
        self._ask(Prompt(1, "hands-off", _("step 1 of 4: keep your hands off the board for {seconds} s").format(
            seconds=f"{self.settings.watch:g}")))

    def _end_watch(self, t: float) -> None:
        baseline = self._baseline if self._baseline is not None else self.occupied
        chatter = {c for c, n in self._changes.items() if not (n == 1 and c in baseline and c not in self.occupied)}
        stuck = {c for c in self.board.cells if c in baseline and c not in self._changes}
        rows, columns = self._lines(stuck)
        for row, cells in rows:
            self._find("shorted-row", cells, self._shorted_row(row, cells))
        for column, cells in columns:
            self._find("shorted-column", cells, self._shorted_column(column, cells))
        grouped = {c for __, cells in rows + columns for c in cells}
        for cell in self.board.cells:
            if cell in chatter:
                n = self._changes[cell]
                self._find("chatter", (cell,), ngettext(
                    "chattering: {cell} ({sensor}) changed {n} time in {seconds} s with no magnet on the board: check"
                    " its solder joints and its glass for a crack",
                    "chattering: {cell} ({sensor}) changed {n} times in {seconds} s with no magnet on the board: check"
                    " its solder joints and its glass for a crack",
                    n).format(cell=cell, sensor=self._sensor(cell), n=n, seconds=f"{self.settings.watch:g}"))
                self.ignored.add(cell)
            elif cell in stuck:
                if cell not in grouped:
                    self._find("stuck-closed", (cell,), _("stuck closed: {cell} ({sensor}) reads occupied with nothing"
                                                          " on the board: look for a magnet left there, then for a"
                                                          " short across its switch or its diode").format(
                        cell=cell, sensor=self._sensor(cell)))
                self.ignored.add(cell)
        self._buttons = (["die"] if self.has_die else []) + ["ok", "hear"]
        self._cue(Cue.READY)
        self._next_button(t)

    # step 2: the buttons and the buzzer
    def _next_button(self, t: float) -> None:
        if self._buttons and self._buttons[0] == "hear" and any(f.kind == "ok-button" for f in self.findings):
            self._buttons.pop(0)  # without an ok button, the builder could only say no
        if not self._buttons:
            self._button = None
            self._cells = [c for c in self.board.cells if c not in self.ignored]
            self._cue(Cue.READY)
            self._next_cell(t)
            return
        button = self._button = self._buttons.pop(0)
        self._phase = "button"
        self._deadline = t + self.settings.timeout
        self._show(LightFrame(), 2)
        wait = f"{self.settings.timeout:g}"
        if button == "hear":
            self._cue(Cue.READY)
            if self.has_die:
                text = _("step 2 of 4: did you hear the buzzer? press ok if you did, the die button if not")
            else:
                text = _("step 2 of 4: did you hear the buzzer? press ok if you did; if not, wait {seconds} s").format(
                    seconds=wait)
            self._ask(Prompt(2, "hear", text))
        elif button == "die":
            self._ask(Prompt(2, "press", _("step 2 of 4: press the die button (it does not answer? wait {seconds} s)")
                             .format(seconds=wait), button="die"))
        else:
            self._ask(Prompt(2, "press", _("step 2 of 4: press ok (it does not answer? wait {seconds} s)")
                             .format(seconds=wait), button="ok"))

    def _dead_button(self, t: float) -> None:
        wiring = self.wiring
        if self._button == "die":
            pin = wiring.die_button
            text = (_("the die button does not answer: check its wire to {pin} and its wire to GND").format(pin=pin)
                    if pin else _("the die button does not answer: check its wires to the controller and to GND"))
            self._find("die-button", (), text)
        else:
            pin = wiring.ok_button
            text = (_("the ok button does not answer: check its wire to {pin} and its wire to GND").format(pin=pin)
                    if pin else _("the ok button does not answer: check its wires to the controller and to GND"))
            self._find("ok-button", (), text)
        self._cue(Cue.REFUSED)
        self._next_button(t)

    def _silent(self, t: float) -> None:
        self._deadline = None
        pin = self.wiring.buzzer
        if pin:
            text = _("the buzzer is silent: check its wire from {pin} through the 1 kΩ resistor to the transistor,"
                     " and the buzzer's 5 V and GND").format(pin=pin)
        else:
            text = _("the buzzer is silent: check its wire from the controller through the 1 kΩ resistor to the"
                     " transistor, and the buzzer's 5 V and GND")
        self._find("buzzer", (), text)
        self._next_button(t)

    # step 3: the switches
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
        self._show(LightFrame({cell: ASK_LIGHT}), 3)
        self._ask(Prompt(3, "place", _("step 3 of 4: put a magnet on {cell}; nothing happens? {no}").format(
            cell=cell, no=self._no()), cell=cell))

    def _no(self) -> str:
        """How the builder says that nothing happens, or that nothing is lit."""
        if self.has_die:
            return _("press the die button")
        return _("wait {seconds} s").format(seconds=f"{self.settings.timeout:g}")

    def _no_answer(self, t: float) -> None:
        self.answers[self._cell] = frozenset()
        self._cue(Cue.REFUSED)
        self._next_cell(t)

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
                         cell=cells[0] if len(cells) == 1 else None, cells=tuple(cells)))

    def _removed(self, t: float) -> None:
        then, self._then = self._then, None
        self._deadline = None
        then(t)

    def _switch_findings(self) -> list[Finding]:
        """What the switches' answers so far say (step 3's findings)."""
        found: list[Finding] = []

        def find(kind: str, cells: tuple[str, ...], text: str) -> None:
            found.append(Finding(kind, cells, text))

        answers = self.answers
        silent = {c for c in self.board.cells if answers.get(c) == frozenset()}
        rows, columns = self._lines(silent)
        for row, cells in rows:
            find("dead-row", cells, self._dead_row(row, cells))
        for column, cells in columns:
            find("dead-column", cells, self._dead_column(column, cells))
        grouped = {c for __, cells in rows + columns for c in cells}
        done: set[str] = set()
        for cell in self.board.cells:
            if cell not in answers or cell in done:
                continue
            closed = answers[cell]
            if not closed:
                if cell not in grouped:
                    row, column = self._place(cell)
                    find("stuck-open", (cell,), _(
                        "stuck open: {cell} ({sensor}) did not close with a magnet on it: check its reed switch, its"
                        " diode (the band toward the row wire) and its joints to row {row} and column {column}").format(
                        cell=cell, sensor=self._sensor(cell), row=row, column=column))
            elif closed != {cell}:
                other = next(iter(closed)) if len(closed) == 1 else None
                if other is not None and answers.get(other) == {cell} and other not in done:
                    done.add(other)
                    find("swapped", (cell, other),
                         _("swapped: {cell} and {other} answer for each other (a magnet on {cell} closes"
                           " {other_sensor}, {other}'s; a magnet on {other} closes {sensor}, {cell}'s): swap"
                           " their switches' wires, or let `reedboard calibrate` learn the wiring").format(
                             cell=cell, other=other, sensor=self._sensor(cell), other_sensor=self._sensor(other)))
                else:
                    others = sorted(closed - {cell}, key=self._order)
                    names = _and([_("{cell}'s ({sensor})").format(cell=o, sensor=self._sensor(o)) for o in others])
                    if cell in closed:
                        text = _("crossed: a magnet on {cell} closes the switch of {others} as well as its own: check"
                                 " the wires under {cell} for a short")
                    else:
                        text = _("crossed: a magnet on {cell} closes the switch of {others} instead of its own"
                                 " ({sensor}): check the wires under {cell}, or let `reedboard calibrate` learn the"
                                 " wiring")
                    find("crossed", (cell, *others), text.format(cell=cell, others=names, sensor=self._sensor(cell)))
            done.add(cell)
        return found

    def _end_switches(self, t: float) -> None:
        self.findings += self._switch_findings()
        self._switches_done = True
        answers = self.answers
        leds = [_Led(c, self.board.led[c], _("{cell}'s LED").format(cell=c)) for c in self.board.cells
                if c in self.board.led]
        leds += [_Led(PIP_NAMES[k], index, _(PIP_LABELS[k])) for k, index in enumerate(self.board.die_pips)]
        if self.board.turn_led is not None:
            leds.append(_Led("turn", self.board.turn_led, _("the turn light")))
        self._leds = sorted(leds, key=lambda led: led.index)  # the chain's order: a break shows where it is
        self._tested_leds = list(self._leds)
        # Which hollow a switch answers for: only switches that answered for exactly one hollow.
        answering = Counter(next(iter(v)) for v in answers.values() if len(v) == 1)
        self._hollow_of = {next(iter(v)): h for h, v in answers.items()
                           if len(v) == 1 and answering[next(iter(v))] == 1}
        self._sensing = {h: s for s, h in self._hollow_of.items()}
        self._cue(Cue.READY)
        self._next_led(t)

    # step 4: the LEDs
    def _next_led(self, t: float) -> None:
        if not self._leds:
            self._end_leds(t)
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
        self._show(frame, 4)
        no = self._no()
        if led.name in self._sensing:
            prompt = Prompt(4, "find", _("step 4 of 4: put a magnet on the hollow that is lit (LED {index});"
                                         " nothing lit? {no}").format(index=led.index, no=no),
                            cell=led.name, led=led.index)
        elif led.name in self.board.cells:
            prompt = Prompt(4, "ok", _("step 4 of 4: press ok if the hollow {cell} is lit (LED {index}; its switch"
                                       " cannot tell); nothing lit? {no}").format(
                cell=led.name, index=led.index, no=no), cell=led.name, led=led.index)
        else:
            prompt = Prompt(4, "ok", _("step 4 of 4: press ok if {label} is lit (LED {index}); nothing lit? {no}")
                            .format(label=led.label, index=led.index, no=no), cell=led.name, led=led.index)
        self._ask(prompt)

    def _led_answered(self, t: float, closed: frozenset[str]) -> None:
        led = self._led
        hollows = {self._hollow_of.get(c) for c in closed}
        if led.name in hollows:
            self._cue(Cue.MOVE)
        else:
            known = sorted((h for h in hollows if h is not None), key=self._order)
            if known:
                text = _("crossed LED: {label} (LED {index}) lights under {cells}: the chain is in another order"
                         " than the board file says; let `reedboard calibrate` learn it").format(
                    label=led.label, index=led.index, cells=_and(known))
            else:
                text = _("crossed LED: {label} (LED {index}) lights where the magnet closes {cells}'s switch: the"
                         " chain is in another order than the board file says; let `reedboard calibrate` learn"
                         " it").format(label=led.label, index=led.index, cells=_and(sorted(closed, key=self._order)))
            self._find("crossed-led", (led.name, *known), text)
            self._cue(Cue.ILLEGAL)
        self._remove(t, [led.name] if led.name in self.board.cells else closed, self._next_led)

    def _dark_led(self, t: float) -> None:
        led = self._led
        self._dark.append(led)
        self._cue(Cue.REFUSED)
        after = list(self._leds)
        if len(after) < 2:
            self._next_led(t)
            return
        # More LEDs follow on the chain: lit all at once, a break shows at once
        self._phase = "chain"
        self._deadline = t + self.settings.timeout
        cells = {a.name: TEST_LIGHT for a in after if a.name != "turn"}
        turn = "white" if any(a.name == "turn" for a in after) else None
        self._show(LightFrame(cells, turn=turn), 4)
        hollows = tuple(a.name for a in after if a.name in self.board.cells)
        self._ask(Prompt(4, "ok", ngettext(
            "step 4 of 4: LED {index} stays dark; the {n} LED after it on the chain is lit now: press ok if it is;"
            " nothing lit? {no}",
            "step 4 of 4: LED {index} stays dark; the {n} LEDs after it on the chain are lit now: press ok if any"
            " of them is; nothing lit? {no}", len(after)).format(index=led.index, n=len(after), no=self._no()),
            cells=hollows))

    def _chain_broken(self, t: float) -> None:
        self._broken = (self._led, list(self._leds))
        self._leds = []
        self._cue(Cue.REFUSED)
        self._next_led(t)

    def _end_leds(self, t: float) -> None:
        self.findings += self._led_findings()
        self._leds_done = True
        self._finish(t)

    def _led_findings(self) -> list[Finding]:
        """What the dark LEDs so far say (step 4's findings but the crossed LEDs, found at once)."""
        found: list[Finding] = []
        broken = self._broken
        if broken is not None:
            first, after = broken
            cells = tuple(led.name for led in [first, *after])
            before = [led for led in self._tested_leds if led.index < first.index]
            if not before:
                pin = self.wiring.leds
                if pin:
                    text = _("no LED of the chain lights: check the data wire from {pin} through the 330 Ω resistor"
                             " and the level shifter to LED {index}'s DIN, and the chain's 5 V and GND").format(
                        pin=pin, index=first.index)
                else:
                    text = _("no LED of the chain lights: check the data wire from the controller through the 330 Ω"
                             " resistor and the level shifter to LED {index}'s DIN, and the chain's 5 V and GND"
                             ).format(index=first.index)
                found.append(Finding("chain-dark", cells, text))
            else:
                last = first.index - 1
                found.append(Finding("chain-broken", cells, _(
                    "the LED chain is broken after LED {index} ({what}): check the data wire from LED {index}'s DOUT"
                    " to LED {next}'s DIN, and LED {next}'s 5 V and GND").format(
                    index=last, what=self._led_what(last), next=first.index)))
        for led in self._dark:
            if broken is not None and led is broken[0]:
                continue
            found.append(Finding("dark", (led.name,), _("dark LED: {label} (LED {index}) does not light: check its"
                                                        " solder joints, its 5 V and its GND").format(
                label=led.label, index=led.index)))
        return found

    def _led_what(self, index: int) -> str:
        """What LED `index` is under, for people: "hollow a2", "the die's top-left pip", ..."""
        name = led_names(self.board).get(index)
        if name is None:
            return _("under no hollow")
        if name in self.board.cells:
            return _("hollow {cell}").format(cell=name)
        if name == "turn":
            return _("the turn light")
        return _(PIP_LABELS[PIP_NAMES.index(name)])

    def _finish(self, t: float) -> None:
        self._phase = "done"
        self._deadline = None
        self._led = self._cell = None
        self.done = True
        self._show(LightFrame(), None, DieState(DieFace.ERROR) if self.findings else DieState())
        self._cue(Cue.GAME_OVER)
        self._ask(Prompt(0, "done", _("self-test done: {summary}").format(summary=self.report().summary)))

    # --- patterns ------------------------------------------------------------------------------
    def _place(self, cell: str) -> tuple[int, int]:
        return divmod(self.board.sensor[cell], self.board.columns)

    def _lines(self, cells: set[str]) -> tuple[list[tuple[int, tuple[str, ...]]], list[tuple[int, tuple[str, ...]]]]:
        """The matrix rows, and the columns, every hollow of which (two at least) is in `cells`."""
        board = self.board
        rows: dict[int, list[str]] = {}
        columns: dict[int, list[str]] = {}
        for cell in board.cells:
            if cell in board.sensor:
                row, column = self._place(cell)
                rows.setdefault(row, []).append(cell)
                columns.setdefault(column, []).append(cell)
        whole = lambda lines: [(k, tuple(v)) for k, v in sorted(lines.items())  # noqa: E731
                               if len(v) >= 2 and all(c in cells for c in v)]
        return whole(rows), whole(columns)

    def _dead_row(self, row: int, cells: tuple[str, ...]) -> str:
        pin = self.wiring.row(row)
        if pin:
            return _("row {row} does not answer ({cells}): check row {row}'s wire from {pin} to its switches").format(
                row=row, cells=_and(cells), pin=pin)
        return _("row {row} does not answer ({cells}): check row {row}'s wire to its switches").format(
            row=row, cells=_and(cells))

    def _dead_column(self, column: int, cells: tuple[str, ...]) -> str:
        pin = self.wiring.column(column)
        if pin:
            return _("column {column} does not answer ({cells}): check column {column}'s wire from {pin} to its"
                     " switches").format(column=column, cells=_and(cells), pin=pin)
        return _("column {column} does not answer ({cells}): check column {column}'s wire to its switches").format(
            column=column, cells=_and(cells))

    def _shorted_row(self, row: int, cells: tuple[str, ...]) -> str:
        pin = self.wiring.row(row)
        if pin:
            return _("row {row} reads closed at every switch with nothing on the board ({cells}): look for a short"
                     " on row {row}'s wire ({pin}) to the column wires or to GND").format(
                row=row, cells=_and(cells), pin=pin)
        return _("row {row} reads closed at every switch with nothing on the board ({cells}): look for a short on"
                 " row {row}'s wire to the column wires or to GND").format(row=row, cells=_and(cells))

    def _shorted_column(self, column: int, cells: tuple[str, ...]) -> str:
        pin = self.wiring.column(column)
        if pin:
            return _("column {column} reads closed at every switch with nothing on the board ({cells}): look for a"
                     " short on column {column}'s wire ({pin}) to GND or to the row wires").format(
                column=column, cells=_and(cells), pin=pin)
        return _("column {column} reads closed at every switch with nothing on the board ({cells}): look for a"
                 " short on column {column}'s wire to GND or to the row wires").format(
            column=column, cells=_and(cells))

    # --- outputs ------------------------------------------------------------------------------
    def report(self, **head) -> Report:
        """The findings so far (a test stopped halfway: what the answers so far say too); `head`:
        the Report's when, backend, firmware and stopped."""
        findings = list(self.findings)
        if self.answers and not self._switches_done:
            findings += self._switch_findings()
        if (self._dark or self._broken) and not self._leds_done:
            findings += self._led_findings()
        return Report(self.board.name, self.board.source, tuple(findings), **head)

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
                       clock: Callable[[], float] | None = None, wiring: Wiring | None = None,
                       started: Callable[[SelfTest], None] | None = None) -> Report:
    """Run the self-test on a backend's address-level board and return its report. `board` is
    the board file under test; `wiring`: the pins its findings name; `started(test)` is given
    the machine before it starts (its findings so far, should the run be stopped)."""
    addresses = address_board(addresses)
    count = addresses.board.led_count

    def show(frame: LightFrame) -> None:
        addresses.show_leds(*leds_of(frame, board).chain(count))

    cell_at = {address: cell for cell, address in board.sensor.items()}
    test = SelfTest(board, settings, outputs=Outputs(lights=show, die=addresses.show_die, buzzer=addresses.play),
                    on_prompt=on_prompt, wiring=wiring)
    if started is not None:
        started(test)
    await drive(test, addresses, builder=builder, clock=clock, poll=None,  # its deadlines move only on inputs
                translate=lambda closed: frozenset(cell_at[a] for a in closed if a in cell_at))
    return test.report()


# ------------------------------------------------------------------------------------------------
# Opening a board, and the command
# ------------------------------------------------------------------------------------------------


def open_selftest(hal: str | None, board_path: str | None = None, port: str | None = None, *,
                  seed: int = 0, clock: Callable[[], float] | None = None, board_name: str | None = None) -> Opened:
    """The backend for a self-test, at its address level; for a board moved by hand
    (registry.HANDS), the simulated board with the board file's declared faults and a
    simulated builder (on `clock`, if given). `board_name`: a shipped board named instead of
    a board file."""
    from reedboard.hal.mock.faults import SimHands, faulty_sim, parse_faults

    def by_hand(board: Board) -> Opened:
        device = faulty_sim(board, parse_faults(board), seed=seed, **({"clock": clock} if clock else {}))
        return Opened(hal, board, device, SimBuilder(SimHands(device, board), decline=True),
                      _("the simulated board"))

    return open_backend(hal, board_path, port, by_hand, board_name)


def default_report_path(game: str, when: datetime.datetime | None = None) -> Path:
    when = when or datetime.datetime.now()
    return Path(f"selftest-{game}-{when:%Y%m%d-%H%M%S}.txt")


def _print_prompt(prompt: Prompt, out) -> None:
    """A prompt on the console; the last ("self-test done: no faults") is not, as the report
    printed after it ends with the same summary."""
    if prompt.action != "done":
        print(prompt.text, file=out, flush=True)


def selftest_command(hal: str | None, port: str | None, board_path: str | None, report_path: str | None,
                     timeout: float | None = None, *, watch: float | None = None, out=None,
                     board_name: str | None = None) -> int:
    """`reedboard selftest`: 0 with no faults, 1 with faults or no board (the report says which),
    130 when stopped with Ctrl-C (the report of what was found so far is written all the same).
    `board_name`: a shipped board named instead of a board file."""
    from reedboard.hal import registry
    from reedboard.hal.backends import NoBoard

    out = out or sys.stdout
    when = datetime.datetime.now()
    # A board moved by hand and its builder answer at once: they run on the loop's virtual time,
    # so a timeout (a dark LED, a switch stuck open) passes as soon as nothing is left to do.
    clock = VirtualClock() if registry.can(hal, registry.HANDS) else None
    try:
        opened = open_selftest(hal, board_path, port, clock=clock, board_name=board_name)
    except NoBoard as error:
        print(_("reedboard selftest: no board could be reached. Tried:"), file=out)
        for attempt in error.tried:
            print(f"  - {attempt}", file=out)
        return 1
    except KeyboardInterrupt:
        print(_("reedboard selftest: stopped (Ctrl-C) before a board was reached"), file=out)
        return STOPPED
    settings = Settings(**{k: v for k, v in (("timeout", timeout), ("watch", watch)) if v is not None})
    board = opened.board
    head = {"when": when, "backend": f"{opened.backend} ({opened.detail})", "firmware": firmware_words(opened)}
    print(_("self-test of the {name} board ({source}) on {backend} ({detail})").format(
        name=board.name, source=board.source, backend=opened.backend, detail=opened.detail), file=out, flush=True)
    machines: list[SelfTest] = []
    stopped = False
    try:
        running = run_selftest(opened.device, board, settings, builder=opened.builder,
                               on_prompt=lambda p: _print_prompt(p, out),
                               wiring=wiring_of(board, opened.backend), started=machines.append)
        report = run_virtual(running, clock) if clock is not None else asyncio.run(running)
    except KeyboardInterrupt:  # the report of what was found so far
        stopped = True
        print(file=out)
        report = machines[0].report() if machines else Report(board.name, board.source, ())
    finally:
        opened.close()
    report = Report(report.game, report.source, report.findings, stopped=stopped, **head)
    path = Path(report_path) if report_path else default_report_path(board.name, when)
    out.write(report.text())  # printed first: a report that cannot be written is not lost
    try:
        report.write(path)
    except OSError as error:
        raise BenchError(_("reedboard: cannot write the self-test report to {path} ({problem}); it is printed above")
                         .format(path=path, problem=error.strerror or said(error))) from None
    print(_("report written to {path}").format(path=path), file=out)
    if stopped:
        return STOPPED
    return 0 if not report.findings else 1
