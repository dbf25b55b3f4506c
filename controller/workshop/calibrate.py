"""`reedboard calibrate`: learn which reed switch and which LED belong to each hollow, and
which LEDs are the die's pips and the turn light.

A builder need not solder the matrix and the LED chain in the board file's order: the
calibration asks, and writes the board file.

1. Switches: each hollow is named in turn, in board order ("put a magnet on a1", on the
   terminal and as `prompt` for the web view); the switch that closes is recorded, by its
   matrix address (row * columns + column). Then the magnet is taken away.
2. LEDs: each LED of the chain, in its order, lights alone, steady white; the builder puts a
   magnet on the hollow that is lit, which the switches of step 1 name, or presses ok for an
   LED under no hollow (a die pip, the turn light). The step ends once every hollow has its
   LED: the LEDs not lit yet are under no hollow.
3. The die's pips and the turn light (those the old board file has), one at a time, with the
   ok and die buttons only: "the die's top-left pip: press ok if it is lit; if another LED
   is lit, press the die button for the next": of the LEDs under no hollow, one is lit; the
   die button lights the next of them (round again after the last), ok says that the one lit
   is the pip asked for. With no answer within `timeout`, or once each has been lit with no
   ok, the pip keeps its place from the old board file (a note says so).

Then the new board file is built: the old one with its [cells] table rewritten (positions
kept; every other table and comment as it was), the die pips and the turn light where they
were found, and the backend it ran on as its `backend` (a board calibrated on the simulated
board says `sim`, so that `play --board` with it does not look for a Pico). A map in which
two hollows share a switch or an LED, or a hollow has none, is refused, saying which ("b1
and c1 share sensor 5").

Addresses, not cells. The calibration must work on a board whose board file is wrong, so it
never reads cells through the board file's map: it runs on the backend's address level
(hal.addresses), whose Switches name the closed switches by matrix address and whose LEDs are
lit by their index on the chain (a LedFrame). The serial backend (the Pico sends addresses),
the gpio backend (the matrix scanner's addresses) and the simulated board all have one;
`open_calibration` opens any of them so.

`Calibration` is the pure, time-driven state machine (frames of switch addresses, presses,
time in; LED frames, die display states, cues and prompts out); `run_calibration` runs it
over an open backend, with a simulated builder (guide.SimBuilder) for --backend sim and tests.
Ctrl-C stops the command without writing the board file (exit status 130).
"""

from __future__ import annotations

import asyncio
import sys
import tomllib
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path

from reedboard.hal.addresses import LedFrame
from reedboard.hal.board import Board, BoardError, backend_lines, parse_board
from reedboard.hal.interfaces import Cue, DieFace, DieState
from reedboard.hal.leds import PIP_NAMES

from .guide import (REMOVE_LIGHT, TEST_LIGHT, Opened, Prompt, Settings, SimBuilder, Steps,
                                                 address_board, drive, firmware_words, open_backend)
from .problems import BenchError
from ..core.referee import Outputs
from ..language.catalogue import COMMANDS, N_
from ..words import said

_ = COMMANDS.gettext

__all__ = [
    "Settings", "Calibration", "CalibrationResult", "CalibrationRefused", "run_calibration",
    "open_calibration", "board_text", "check_map", "calibrate_command",
]

TIMEOUT = 60.0  # s the calibration waits for each magnet unless told otherwise (Settings.timeout)
STOPPED = 130  # the exit status of a calibration stopped with Ctrl-C (128 + SIGINT)
# what step 3 asks for, as the self-test names them (selftest.PIP_LABELS)
PIP_LABELS = (N_("the die's top-left pip"), N_("the die's top-right pip"), N_("the die's middle-left pip"),
              N_("the die's centre pip"), N_("the die's middle-right pip"), N_("the die's bottom-left pip"),
              N_("the die's bottom-right pip"))


class CalibrationRefused(BoardError):
    """A learned map that cannot be saved; `problems` says why, one line each."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = tuple(problems)
        super().__init__(_("the map is not saved: {problems}").format(problems="; ".join(self.problems)))


def _and(items: list) -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else _("{names} and {last}").format(names=", ".join(items[:-1]), last=items[-1])


def check_map(cells: Iterable[str], sensors: dict[str, frozenset[int]],
              leds: dict[int, frozenset[str]]) -> list[str]:
    """What keeps a learned map from being saved. `sensors`: each hollow -> the addresses that
    closed with a magnet on it; `leds`: each LED -> the hollows it was found under."""
    cells = list(cells)
    order = {c: k for k, c in enumerate(cells)}
    problems = []
    by_sensor: dict[int, list[str]] = defaultdict(list)
    for cell in cells:
        closed = sensors.get(cell, frozenset())
        if not closed:
            problems.append(_("{cell}: no sensor closed with a magnet on it").format(cell=cell))
        elif len(closed) > 1:
            problems.append(_("{cell}: sensors {sensors} closed together with a magnet on it").format(
                cell=cell, sensors=_and(sorted(closed))))
        else:
            by_sensor[next(iter(closed))].append(cell)
    for address, hollows in sorted(by_sensor.items(), key=lambda kv: order[kv[1][0]]):
        if len(hollows) > 1:
            problems.append(_("{cells} share sensor {address}").format(cells=_and(hollows), address=address))
    by_cell: dict[str, list[int]] = defaultdict(list)
    for index in sorted(leds):
        hollows = sorted(leds[index], key=lambda c: order.get(c, len(order)))
        if len(hollows) > 1:
            problems.append(_("{cells} share LED {index}").format(cells=_and(hollows), index=index))
        for hollow in hollows:
            by_cell[hollow].append(index)
    for cell in cells:
        found = by_cell.get(cell, [])
        if not found:
            problems.append(_("{cell}: no LED was found under it").format(cell=cell))
        elif len(found) > 1:
            problems.append(_("{cell}: LEDs {leds} were both found under it").format(cell=cell, leds=_and(found)))
    return problems


def _old_text(board: Board) -> str | None:
    """The text of the board file the board was loaded from, if it can be read."""
    source = board.source
    try:
        return Path(source).read_text(encoding="utf-8")
    except OSError:
        pass
    if source.startswith("hardware/"):
        try:
            return resources.files("reedboard.hardware").joinpath(source[len("hardware/"):]).read_text(encoding="utf-8")
        except (OSError, ModuleNotFoundError):
            pass
    return None


def _number(value: float) -> str:
    return repr(float(value))


def cell_lines(board: Board, sensor: dict[str, int], led: dict[str, int]) -> list[str]:
    lines = []
    for cell in board.cells:
        row, column = divmod(sensor[cell], board.columns)
        text = f"{cell} = {{ row = {row}, column = {column}, led = {led[cell]}"
        if cell in board.position:
            x, y = board.position[cell]
            text += f", x = {_number(x)}, y = {_number(y)}"
        lines.append(text + " }")
    return lines


def _fresh_text(board: Board, cells: list[str]) -> str:
    """A whole board file, for an old board whose file cannot be read."""
    lines = ["# A board file written by `reedboard calibrate`.", "", "[board]", f'name = "{board.name}"',
             f'backend = "{board.backend}"', "", "[matrix]", f"rows = {board.rows}", f"columns = {board.columns}",
             f"diodes = {'true' if board.diodes else 'false'}", "", "[leds]", f"count = {board.led_count}",
             f"budget_ma = {board.budget_ma:g}"]
    tables = backend_lines(board)  # each backend's own lines, [leds] ones among them
    lines += tables.pop("leds", [])
    if board.die_pips:
        lines.append(f"die_pips = [{', '.join(map(str, board.die_pips))}]")
    if board.turn_led is not None:
        lines.append(f"turn = {board.turn_led}")
    lines += ["", "[cells]"] + cells
    for section, written in tables.items():
        lines += ["", f"[{section}]"] + written
    return "\n".join(lines) + "\n"


def board_text(board: Board, sensor: dict[str, int], led: dict[str, int], old_text: str | None = None, *,
               die_pips: tuple[int, ...] | None = None, turn: int | None = None, backend: str | None = None) -> str:
    """The board file with this wiring: the old file's text with its [cells] table rewritten
    (comments, positions and every other table kept), or a whole new file when there is none.
    `die_pips`, `turn` and `backend`, when given, are written over the old file's."""
    cells = cell_lines(board, sensor, led)
    if old_text is None:
        changes = {k: v for k, v in (("die_pips", die_pips), ("turn_led", turn), ("backend", backend)) if v is not None}
        return _fresh_text(replace(board, **changes), cells)
    lines = old_text.splitlines()
    header = _table_at(lines, "cells")
    if header is None:
        lines += ["", "[cells]"] + cells
    else:
        end = _table_end(lines, header)
        body = lines[header + 1:end]
        entries = [k for k, line in enumerate(body) if line.strip() and not line.lstrip().startswith("#")]
        if entries:
            body = body[:entries[0]] + cells + body[entries[-1] + 1:]
        else:
            body = cells + body
        lines = lines[:header + 1] + body + lines[end:]
    if die_pips is not None and tuple(die_pips) != tuple(board.die_pips):
        lines = _set_key(lines, "leds", "die_pips", f"[{', '.join(map(str, die_pips))}]")
    if turn is not None and turn != board.turn_led:
        lines = _set_key(lines, "leds", "turn", str(turn))
    if backend is not None and backend != board.backend:
        lines = _set_key(lines, "board", "backend", f'"{backend}"')
    return "\n".join(lines) + "\n"


def _table_at(lines: list[str], name: str) -> int | None:
    return next((k for k, line in enumerate(lines) if line.strip().split("#")[0].strip() == f"[{name}]"), None)


def _table_end(lines: list[str], header: int) -> int:
    return next((k for k in range(header + 1, len(lines)) if lines[k].lstrip().startswith("[")), len(lines))


def _set_key(lines: list[str], table: str, key: str, value: str) -> list[str]:
    """The lines with `key = value` in [table]: its line rewritten (its comment kept), or added
    after the table's last key (the table made at the end when there is none)."""
    header = _table_at(lines, table)
    if header is None:
        return lines + ["", f"[{table}]", f"{key} = {value}"]
    end = _table_end(lines, header)
    last = header
    for k in range(header + 1, end):
        code, comment = _split_comment(lines[k])
        if code.strip():
            last = k
        if code.split("=")[0].strip() == key:
            indent = code[:len(code) - len(code.lstrip())]
            lines = list(lines)
            lines[k] = f"{indent}{key} = {value}" + (f"  {comment}" if comment else "")
            return lines
    return lines[:last + 1] + [f"{key} = {value}"] + lines[last + 1:]


def _split_comment(line: str) -> tuple[str, str]:
    """(the code, the comment) of a TOML line: the first # outside a string starts the comment."""
    quote = None
    for k, char in enumerate(line):
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "#":
            return line[:k].rstrip(), line[k:]
    return line, ""


@dataclass(frozen=True)
class CalibrationResult:
    board: Board  # the old board file
    sensors: dict[str, frozenset[int]]  # hollow -> the addresses that closed
    leds: dict[int, frozenset[str]]  # LED -> the hollows it was found under
    problems: tuple[str, ...]
    notes: tuple[str, ...] = ()
    die_pips: tuple[int, ...] | None = None  # the die's pips on the chain (None: the old file's)
    turn: int | None = None  # the turn light (None: the old file's)
    backend: str | None = None  # the backend it ran on, the new file's (None: the old file's)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def sensor(self) -> dict[str, int]:
        """Each hollow with exactly one address -> that address."""
        return {c: next(iter(s)) for c, s in self.sensors.items() if len(s) == 1}

    @property
    def led(self) -> dict[str, int]:
        found: dict[str, list[int]] = defaultdict(list)
        for index, hollows in sorted(self.leds.items()):
            for hollow in hollows:
                found[hollow].append(index)
        return {c: v[0] for c, v in found.items() if len(v) == 1}

    def text(self, old_text: str | None = None) -> str:
        """The new board file; CalibrationRefused when the map cannot be saved."""
        if self.problems:
            raise CalibrationRefused(self.problems)
        board = self.board
        text = board_text(board, self.sensor, self.led, old_text if old_text is not None else _old_text(board),
                          die_pips=self.die_pips, turn=self.turn, backend=self.backend)
        try:
            check = parse_board(tomllib.loads(text), board.source)
        except (BoardError, tomllib.TOMLDecodeError) as error:
            raise CalibrationRefused([said(error)]) from None
        pips = board.die_pips if self.die_pips is None else self.die_pips
        turn = board.turn_led if self.turn is None else self.turn
        if (check.sensor, check.led, check.die_pips, check.turn_led) != (self.sensor, self.led, tuple(pips), turn):
            raise CalibrationRefused(["the written board file does not read back as the learned map"])  # a bug here
        return text

    def save(self, path: str | Path) -> Path:
        text = self.text()
        path = Path(path)
        path.write_text(text, encoding="utf-8")
        return path


# ------------------------------------------------------------------------------------------------
# The state machine
# ------------------------------------------------------------------------------------------------

class Calibration(Steps):
    """Frames carry switch addresses (ints); LEDs are lit by index (LedFrame). See the module's
    words for the steps."""

    def __init__(self, board: Board, settings: Settings | None = None, *, outputs: Outputs | None = None,
                 on_prompt: Callable[[Prompt], None] | None = None) -> None:
        super().__init__(board, settings or Settings(timeout=TIMEOUT), outputs=outputs, on_prompt=on_prompt)
        self.lights = LedFrame()
        self.sensors: dict[str, frozenset[int]] = {}
        self.leds: dict[int, frozenset[str]] = {}
        self.notes: list[str] = []
        self.ignored: set[int] = set()  # addresses closed with no magnet at the start
        self.closed: frozenset[int] = frozenset()
        self.pips: dict[str, int] = {}  # step 3: "pip1".."pip7", "turn" -> the LED found
        self.backend: str | None = None  # the backend it runs on, for the new board file (None: the old file's)
        self._cells: list[str] = []
        self._cell: str | None = None
        self._led_order = list(range(board.led_count))
        self._queue: list[int] = []
        self._led: int | None = None
        # step 3: what is asked for (name, label, the old file's place), the LEDs it may be, and where it is
        self._asks = [(PIP_NAMES[k], PIP_LABELS[k], index) for k, index in enumerate(board.die_pips)]
        if board.turn_led is not None:
            self._asks.append(("turn", N_("the turn light"), board.turn_led))
        self._ask_total = len(self._asks)
        self._asking: tuple[str, str, int] | None = None
        self._spare: list[int] = []
        self._at = 0
        self._tried = 0

    # --- inputs ------------------------------------------------------------------------------
    def start(self, t: float) -> None:
        self.now = t
        self._cells = list(self.board.cells)
        self._cue(Cue.READY)
        if self.closed:
            self._remove(t, _("take every magnet off the board"), self._begin, clearing=True)
        else:
            self._begin(t)

    def frame(self, t: float, sensors: Iterable[int]) -> None:
        sensors = frozenset(sensors)
        self.advance(t)
        self.closed = sensors
        if self.done:
            return
        closed = sensors - self.ignored
        if self._phase == "place" and closed:
            self._sensor_answered(t, closed)
        elif self._phase == "find" and closed:
            self._led_answered(t, closed)
        elif self._phase == "remove" and not closed:
            then, self._then = self._then, None
            self._deadline = None
            then(t)

    def press(self, t: float, button: str) -> None:
        self.advance(t)
        if self.done:
            return
        if self._phase == "find" and button == "ok":
            self.leds[self._led] = frozenset()
            self._cue(Cue.MOVE)
            self._deadline = None
            self._next_led(t)
        elif self._phase == "pick":
            self._deadline = None
            if button == "ok":
                self._picked(t)
            elif button == "die":
                self._next_spare(t)

    # --- the steps ---------------------------------------------------------------------------
    def _timeout(self, t: float) -> None:
        if self._phase == "place":
            self.sensors[self._cell] = frozenset()
            self._cue(Cue.REFUSED)
            self._next_cell(t)
        elif self._phase == "find":
            self.leds[self._led] = frozenset()
            self.notes.append(_("LED {index}: no magnet was put down while it was lit").format(index=self._led))
            self._cue(Cue.REFUSED)
            self._next_led(t)
        elif self._phase == "pick":  # no answer: it stays where the old board file has it
            name, label, old = self._asking
            self._keep(name, label, old)
            self._cue(Cue.REFUSED)
            self._next_pip(t)
        elif self._phase == "remove":
            stuck = sorted(self.closed - self.ignored)
            for address in stuck:
                self.notes.append(_("sensor {address} stays closed with no magnet: not used").format(address=address))
            self.ignored.update(stuck)
            self._cue(Cue.ILLEGAL)
            then, self._then = self._then, None
            then(t)

    def _begin(self, t: float) -> None:
        self._next_cell(t)

    # step 1: the switches
    def _next_cell(self, t: float) -> None:
        if not self._cells:
            self._cell = None  # step 1 is over: no prompt names its last hollow again
            self._queue = list(self._led_order)
            self._cue(Cue.READY)
            self._next_led(t)
            return
        if self.closed - self.ignored:
            self._remove(t, _("take the magnet off the board"), self._next_cell)
            return
        cell = self._cell = self._cells.pop(0)
        self._phase = "place"
        self._deadline = t + self.settings.timeout
        self._show(LedFrame(), DieState(DieFace.VALUE, 1))
        done = len(self.board.cells) - len(self._cells)
        self._ask(Prompt(1, "place", _("step 1 of 3 ({done}/{total}): put a magnet on {cell}").format(
            done=done, total=len(self.board.cells), cell=cell), cell=cell))

    def _sensor_answered(self, t: float, closed: frozenset[int]) -> None:
        cell = self._cell
        self.sensors[cell] = closed
        taken = [c for c, s in self.sensors.items() if c != cell and s & closed]
        self._cue(Cue.MOVE if len(closed) == 1 and not taken else Cue.ILLEGAL)
        self._remove(t, _("take the magnet off {cells}").format(cells=cell), self._next_cell)

    # step 2: the hollows' LEDs
    def _next_led(self, t: float) -> None:
        found = {c for hollows in self.leds.values() for c in hollows}
        if not self._queue or found >= set(self.board.cells):  # every hollow has its LED: the rest are under none
            self._begin_pips(t)
            return
        if self.closed - self.ignored:
            self._remove(t, _("take the magnet off the board"), self._next_led)
            return
        index = self._led = self._queue.pop(0)
        self._phase = "find"
        self._deadline = t + self.settings.timeout
        self._show(LedFrame({index: TEST_LIGHT}), DieState(DieFace.VALUE, 2))
        self._ask(Prompt(2, "find", _("step 2 of 3 (LED {index} of {total}): put a magnet on the hollow that is lit;"
                                      " lit, but under no hollow? press ok").format(
            index=index, total=self.board.led_count), led=index))

    def _led_answered(self, t: float, closed: frozenset[int]) -> None:
        index = self._led
        hollows = frozenset(c for c, s in self.sensors.items() if len(s) == 1 and s <= closed)
        self.leds[index] = hollows
        if not hollows:
            self.notes.append(_("LED {index}: the magnet closed sensor {sensors}, which no hollow answered with"
                                " in step 1").format(index=index, sensors=_and(sorted(closed))))
        self._cue(Cue.MOVE if len(hollows) == 1 else Cue.ILLEGAL)
        under = next(iter(hollows)) if len(hollows) == 1 else None
        self._remove(t, _("take the magnet off the lit hollow"), self._next_led, lit=index, cell=under)

    # step 3: the die's pips and the turn light
    def _begin_pips(self, t: float) -> None:
        hollow_leds = {index for index, hollows in self.leds.items() if hollows}
        self._spare = [j for j in range(self.board.led_count) if j not in hollow_leds]
        if self._asks:
            self._cue(Cue.READY)
        self._next_pip(t)

    def _next_pip(self, t: float) -> None:
        free = [j for j in self._spare if j not in self.pips.values()]
        if not self._asks or not free:
            for name, label, old in self._asks:
                self._keep(name, label, old)
            self._asks = []
            self._finish(t)
            return
        self._asking = self._asks.pop(0)
        self._at = 0
        self._tried = 0
        self._light_spare(t)

    def _free(self) -> list[int]:
        return [j for j in self._spare if j not in self.pips.values()]

    def _light_spare(self, t: float) -> None:
        name, label, __ = self._asking
        index = self._free()[self._at]
        self._led = index
        self._phase = "pick"
        self._deadline = t + self.settings.timeout
        self._show(LedFrame({index: TEST_LIGHT}), DieState(DieFace.VALUE, 3))
        done = self._ask_total - len(self._asks)
        self._ask(Prompt(3, "pick", _("step 3 of 3 ({done}/{total}): {what}: press ok if it is lit (LED {index}); if"
                                      " another LED is lit, press the die button for the next").format(
            done=done, total=self._ask_total, what=_(label), index=index), cell=name, led=index))

    def _next_spare(self, t: float) -> None:
        """The die button: the next LED under no hollow; after each has been lit, none."""
        self._tried += 1
        free = self._free()
        if self._tried >= len(free):
            name, label, old = self._asking
            self._keep(name, label, old)
            self._cue(Cue.REFUSED)
            self._next_pip(t)
            return
        self._at = (self._at + 1) % len(free)
        self._light_spare(t)

    def _picked(self, t: float) -> None:
        name = self._asking[0]
        self.pips[name] = self._led
        self._cue(Cue.MOVE)
        self._next_pip(t)

    def _keep(self, name: str, label: str, old: int) -> None:
        """Not found: it keeps its place from the old board file."""
        self.notes.append(_("{what}: not found; it stays LED {index}, as the old board file has it").format(
            what=_(label), index=old))

    def _remove(self, t: float, text: str, then: Callable[[float], None], *, clearing: bool = False,
                lit: int | None = None, cell: str | None = None) -> None:
        self._phase = "remove"
        self._then = then
        self._deadline = t + self.settings.removal
        self._show(LedFrame({lit: REMOVE_LIGHT} if lit is not None else {}), None)
        where = None if clearing else (cell if lit is not None else self._cell)
        self._ask(Prompt(self.prompt.step, "remove", text, cell=where))

    def _finish(self, t: float) -> None:
        self._phase = "done"
        self._deadline = None
        self._led = None
        self.done = True
        result = self.result()
        self._show(LedFrame(), DieState() if result.ok else DieState(DieFace.ERROR))
        self._cue(Cue.GAME_OVER if result.ok else Cue.ILLEGAL)
        if result.ok:
            text = _("calibration done: the map is complete")
        else:
            text = _("calibration done: the map cannot be saved: {problems}").format(problems="; ".join(result.problems))
        self._ask(Prompt(0, "done", text))

    def result(self) -> CalibrationResult:
        problems = check_map(self.board.cells, self.sensors, self.leds)
        board = self.board
        pips = turn = None
        if any(name.startswith("pip") for name in self.pips):
            pips = tuple(self.pips.get(PIP_NAMES[k], old) for k, old in enumerate(board.die_pips))
        if "turn" in self.pips:
            turn = self.pips["turn"]
        hollow_leds = {index: hollows for index, hollows in self.leds.items() if hollows}
        kept = [(PIP_LABELS[k], index) for k, index in enumerate(pips if pips is not None else board.die_pips)]
        if board.turn_led is not None:
            kept.append((N_("the turn light"), turn if turn is not None else board.turn_led))
        if self.leds:  # once the LEDs were asked for: a pip or the turn light where a hollow's LED is found
            for label, index in kept:
                hollows = sorted(hollow_leds.get(index, ()))
                if hollows:
                    problems.append(_("{what} is LED {index}, which is {cells}'s").format(
                        what=_(label), index=index, cells=_and(hollows)))
        seen: dict[int, str] = {}
        for label, index in kept:
            if index in seen:
                problems.append(_("{what} and {other} are both LED {index}").format(
                    what=_(seen[index]), other=_(label), index=index))
            seen.setdefault(index, label)
        return CalibrationResult(board, dict(self.sensors), dict(self.leds), tuple(problems), tuple(self.notes),
                                 die_pips=pips, turn=turn, backend=self.backend)

    # --- outputs -----------------------------------------------------------------------------
    def _show(self, lights: LedFrame, die: DieState | None) -> None:
        self._output(lights, die)


# ------------------------------------------------------------------------------------------------
# The runner, opening a board, the command
# ------------------------------------------------------------------------------------------------

async def run_calibration(addresses, board: Board, settings: Settings | None = None, *, builder=None,
                          on_prompt: Callable[[Prompt], None] | None = None,
                          clock: Callable[[], float] | None = None, backend: str | None = None,
                          started: Callable[[Calibration], None] | None = None) -> CalibrationResult:
    """Calibrate over a backend's address-level board; `board` is the old board file, `backend`
    the backend's name for the new one (None: the old file's); `started(machine)` is given the
    machine before it starts."""
    addresses = address_board(addresses)
    count = addresses.board.led_count

    def show(leds: LedFrame) -> None:
        addresses.show_leds(*leds.chain(count))

    machine = Calibration(board, settings, outputs=Outputs(lights=show, die=addresses.show_die,
                                                           buzzer=addresses.play), on_prompt=on_prompt)
    machine.backend = backend
    if started is not None:
        started(machine)
    await drive(machine, addresses, builder=builder, clock=clock)
    return machine.result()


def open_calibration(hal: str | None, board_path: str | None = None, port: str | None = None, *,
                     board_name: str | None = None) -> Opened:
    """The backend at its address level; for a board moved by hand (registry.HANDS), its
    address level really wired as the board file says, and a simulated builder. `board_name`:
    a shipped board named instead of a board file."""
    from reedboard.hal import registry
    from reedboard.hal.mock.faults import SimHands

    def by_hand(board: Board) -> Opened:
        device = registry.hand_moved(board).addresses
        return Opened(hal, board, device, SimBuilder(SimHands(device, board)), _("the simulated board"))

    return open_backend(hal, board_path, port, by_hand, board_name)


def calibrate_command(hal: str | None, port: str | None, board_path: str | None, out_path: str | None,
                      *, timeout: float | None = None, out=None, listen: tuple[str, int] | None = None,
                      board_name: str | None = None) -> int:
    """`reedboard calibrate`: 0 when the board file was written, 1 when no board answered or the
    map was refused (each problem on a line), 130 when stopped with Ctrl-C (nothing written).
    `board_name`: a shipped board named instead of a board file (the new file is then NAME.toml
    here, unless --out says where)."""
    import datetime

    from reedboard.hal.backends import NoBoard

    from ..language import forms

    out = out or sys.stdout
    when = datetime.datetime.now()
    try:
        opened = open_calibration(hal, board_path, port, board_name=board_name)
    except NoBoard as error:
        print(_("reedboard calibrate: no board could be reached. Tried:"), file=out)
        for attempt in error.tried:
            print(f"  - {attempt}", file=out)
        return 1
    except KeyboardInterrupt:
        print(_("reedboard calibrate: stopped (Ctrl-C) before a board was reached"), file=out)
        return STOPPED
    board = opened.board
    settings = Settings(timeout=timeout if timeout is not None else TIMEOUT)
    print(_("calibrating the {name} board ({source}) on {backend} ({detail})").format(
        name=board.name, source=board.source, backend=opened.backend, detail=opened.detail), file=out, flush=True)
    print(_("{date}; firmware: {firmware}").format(date=f"{forms.date(when)} {when:%H:%M}",
                                                   firmware=firmware_words(opened)), file=out, flush=True)
    shown: list[Prompt] = []

    def on_prompt(prompt: Prompt) -> None:
        shown[:] = [prompt]
        print(prompt.text, file=out, flush=True)

    async def calibrate() -> CalibrationResult:
        server = None
        if listen is not None:  # the prompts in a web page too, for the builder at the board
            from ..web.guide_page import guide_server

            server = guide_server(board, lambda: shown[0] if shown else None, "calibration", *listen)
            serving = asyncio.create_task(server.serve())
            print(_("web view: {address}").format(address=f"http://{listen[0]}:{listen[1]}/"), file=out, flush=True)
        try:
            return await run_calibration(opened.device, board, settings, builder=opened.builder,
                                         on_prompt=on_prompt, backend=opened.backend)
        finally:
            if server is not None:
                server.should_exit = True
                await serving

    try:
        result = asyncio.run(calibrate())
    except KeyboardInterrupt:
        print(file=out)
        print(_("calibration stopped (Ctrl-C): the board file is not written"), file=out)
        return STOPPED
    finally:
        opened.close()
    for note in result.notes:
        print(_("note: {note}").format(note=note), file=out)
    path = Path(out_path or board_path or f"{board.name}.toml")
    try:
        result.save(path)
    except CalibrationRefused as refused:
        print(_("reedboard calibrate: the map is not saved:"), file=out)
        for problem in refused.problems:
            print(f"  - {problem}", file=out)
        return 1
    except OSError as error:
        print(result.text(), file=out)  # the learned map is not lost
        raise BenchError(_("reedboard: cannot write the board file to {path} ({problem}); its text is printed above")
                         .format(path=path, problem=error.strerror or said(error))) from None
    print(_("board file written to {path}").format(path=path), file=out)
    return 0
