"""`reedboard calibrate`: learn which reed switch and which LED belong to each hollow.

A builder need not solder the matrix and the LED chain in the board file's order: the
calibration asks, and writes the board file.

1. Switches: each hollow is named in turn, in board order ("put a magnet on a1", on the
   terminal and as `prompt` for the web view); the switch that closes is recorded, by its
   matrix address (row * columns + column). Then the magnet is taken away.
2. LEDs: each LED of the chain (but the die pips and the turn light, which keep their
   places from the old board file) lights alone, steady white; the builder puts a magnet
   on the hollow that is lit, which the switches of step 1 name. An LED under no hollow:
   the builder presses ok.

Then the new board file is built: the old one with its [cells] table rewritten (positions
kept; every other table and comment as it was). A map in which two hollows share a switch
or an LED, or a hollow has none, is refused, saying which ("b1 and c1 share sensor 5").

Addresses, not cells. The calibration must work on a board whose board file is wrong, so it
never reads cells through the board file's map: it runs on the backend's address level
(hal.addresses), whose Switches name the closed switches by matrix address and whose LEDs are
lit by their index on the chain (a LedFrame). The serial backend (the Pico sends addresses),
the gpio backend (the matrix scanner's addresses) and the simulated board all have one;
`open_calibration` opens any of them so.

`Calibration` is the pure, time-driven state machine (frames of switch addresses, presses,
time in; LED frames, die display states, cues and prompts out); `run_calibration` runs it
over an open backend, with a simulated builder (guide.SimBuilder) for --backend sim and tests.
"""

from __future__ import annotations

import asyncio
import sys
import tomllib
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from reedboard.hal.addresses import LedFrame
from reedboard.hal.board import Board, BoardError, backend_lines, parse_board
from reedboard.hal.interfaces import Cue, DieFace, DieState

from .guide import (REMOVE_LIGHT, TEST_LIGHT, Opened, Prompt, Settings, SimBuilder, Steps,
                                                 address_board, drive, open_backend)
from .usage import UsageError
from ..core.referee import Outputs
from ..language.catalogue import COMMANDS

_ = COMMANDS.gettext

__all__ = [
    "Settings", "Calibration", "CalibrationResult", "CalibrationRefused", "run_calibration",
    "open_calibration", "board_text", "check_map", "calibrate_command",
]

TIMEOUT = 60.0  # s the calibration waits for each magnet unless told otherwise (Settings.timeout)


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


def board_text(board: Board, sensor: dict[str, int], led: dict[str, int], old_text: str | None = None) -> str:
    """The board file with this wiring: the old file's text with its [cells] table rewritten
    (comments, positions and every other table kept), or a whole new file when there is none."""
    cells = cell_lines(board, sensor, led)
    if old_text is None:
        return _fresh_text(board, cells)
    lines = old_text.splitlines()
    header = next((k for k, line in enumerate(lines) if line.strip().split("#")[0].strip() == "[cells]"), None)
    if header is None:
        return old_text.rstrip("\n") + "\n\n[cells]\n" + "\n".join(cells) + "\n"
    end = next((k for k in range(header + 1, len(lines)) if lines[k].lstrip().startswith("[")), len(lines))
    body = lines[header + 1:end]
    entries = [k for k, line in enumerate(body) if line.strip() and not line.lstrip().startswith("#")]
    if entries:
        body = body[:entries[0]] + cells + body[entries[-1] + 1:]
    else:
        body = cells + body
    return "\n".join(lines[:header + 1] + body + lines[end:]) + "\n"


@dataclass(frozen=True)
class CalibrationResult:
    board: Board  # the old board file
    sensors: dict[str, frozenset[int]]  # hollow -> the addresses that closed
    leds: dict[int, frozenset[str]]  # LED -> the hollows it was found under
    problems: tuple[str, ...]
    notes: tuple[str, ...] = ()

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
        text = board_text(board, self.sensor, self.led, old_text if old_text is not None else _old_text(board))
        try:
            check = parse_board(tomllib.loads(text), board.source)
        except (BoardError, tomllib.TOMLDecodeError) as error:
            raise CalibrationRefused([str(error)]) from None
        if check.sensor != self.sensor or check.led != self.led:  # pragma: no cover - a bug here
            raise CalibrationRefused(["the written board file does not read back as the learned map"])
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
    """Frames carry switch addresses (ints); LEDs are lit by index (LedFrame)."""

    def __init__(self, board: Board, settings: Settings | None = None, *, outputs: Outputs | None = None,
                 on_prompt: Callable[[Prompt], None] | None = None) -> None:
        super().__init__(board, settings or Settings(timeout=TIMEOUT), outputs=outputs, on_prompt=on_prompt)
        self.lights = LedFrame()
        self.sensors: dict[str, frozenset[int]] = {}
        self.leds: dict[int, frozenset[str]] = {}
        self.notes: list[str] = []
        self.ignored: set[int] = set()  # addresses closed with no magnet at the start
        self.closed: frozenset[int] = frozenset()
        self._cells: list[str] = []
        self._cell: str | None = None
        skip = set(board.die_pips) | ({board.turn_led} if board.turn_led is not None else set())
        self._led_order = [j for j in range(board.led_count) if j not in skip]
        self._queue: list[int] = []
        self._led: int | None = None

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
        if self.done or button != "ok":
            return
        if self._phase == "find":
            self.leds[self._led] = frozenset()
            self.notes.append(_("LED {index}: under no hollow (ok pressed)").format(index=self._led))
            self._cue(Cue.MOVE)
            self._next_led(t)

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

    def _next_cell(self, t: float) -> None:
        if not self._cells:
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
        self._ask(Prompt(1, "place", _("step 1 of 2 ({done}/{total}): put a magnet on {cell}").format(
            done=done, total=len(self.board.cells), cell=cell), cell=cell))

    def _sensor_answered(self, t: float, closed: frozenset[int]) -> None:
        cell = self._cell
        self.sensors[cell] = closed
        taken = [c for c, s in self.sensors.items() if c != cell and s & closed]
        self._cue(Cue.MOVE if len(closed) == 1 and not taken else Cue.ILLEGAL)
        self._remove(t, _("take the magnet off {cells}").format(cells=cell), self._next_cell)

    def _next_led(self, t: float) -> None:
        if not self._queue:
            self._finish(t)
            return
        if self.closed - self.ignored:
            self._remove(t, _("take the magnet off the board"), self._next_led)
            return
        index = self._led = self._queue.pop(0)
        self._phase = "find"
        self._deadline = t + self.settings.timeout
        self._show(LedFrame({index: TEST_LIGHT}), DieState(DieFace.VALUE, 2))
        done = len(self._led_order) - len(self._queue)
        self._ask(Prompt(2, "find", _("step 2 of 2 ({done}/{total}): put a magnet on the hollow that is lit"
                                      " (LED {index}); lit, but under no hollow? press ok").format(
            done=done, total=len(self._led_order), index=index), led=index))

    def _led_answered(self, t: float, closed: frozenset[int]) -> None:
        index = self._led
        hollows = frozenset(c for c, s in self.sensors.items() if len(s) == 1 and s <= closed)
        self.leds[index] = hollows
        if not hollows:
            self.notes.append(_("LED {index}: the magnet closed sensor {sensors}, which no hollow answered with"
                                " in step 1").format(index=index, sensors=_and(sorted(closed))))
        self._cue(Cue.MOVE if len(hollows) == 1 else Cue.ILLEGAL)
        self._remove(t, _("take the magnet off the lit hollow"), self._next_led, lit=index)

    def _remove(self, t: float, text: str, then: Callable[[float], None], *, clearing: bool = False,
                lit: int | None = None) -> None:
        self._phase = "remove"
        self._then = then
        self._deadline = t + self.settings.removal
        self._show(LedFrame({lit: REMOVE_LIGHT} if lit is not None else {}), None)
        self._ask(Prompt(self.prompt.step, "remove", text, cell=None if clearing else self._cell))

    def _finish(self, t: float) -> None:
        self._phase = "done"
        self._deadline = None
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
        return CalibrationResult(self.board, dict(self.sensors), dict(self.leds), tuple(problems), tuple(self.notes))

    # --- outputs -----------------------------------------------------------------------------
    def _show(self, lights: LedFrame, die: DieState | None) -> None:
        self._output(lights, die)


# ------------------------------------------------------------------------------------------------
# The runner, opening a board, the command
# ------------------------------------------------------------------------------------------------

async def run_calibration(addresses, board: Board, settings: Settings | None = None, *, builder=None,
                          on_prompt: Callable[[Prompt], None] | None = None,
                          clock: Callable[[], float] | None = None) -> CalibrationResult:
    """Calibrate over a backend's address-level board; `board` is the old board file."""
    addresses = address_board(addresses)
    count = addresses.board.led_count

    def show(leds: LedFrame) -> None:
        addresses.show_leds(*leds.chain(count))

    machine = Calibration(board, settings, outputs=Outputs(lights=show, die=addresses.show_die,
                                                           buzzer=addresses.play), on_prompt=on_prompt)
    await drive(machine, addresses, builder=builder, clock=clock)
    return machine.result()


def open_calibration(hal: str | None, board_path: str | None = None, port: str | None = None) -> Opened:
    """The backend at its address level; for a board moved by hand (registry.HANDS), its
    address level really wired as the board file says, and a simulated builder."""
    from reedboard.hal import registry
    from reedboard.hal.mock.faults import SimHands

    def by_hand(board: Board) -> Opened:
        device = registry.hand_moved(board).addresses
        return Opened(hal, board, device, SimBuilder(SimHands(device, board)), _("the simulated board"))

    return open_backend(hal, board_path, port, by_hand)


def calibrate_command(hal: str | None, port: str | None, board_path: str | None, out_path: str | None,
                      *, timeout: float | None = None, out=None, listen: tuple[str, int] | None = None) -> int:
    """`reedboard calibrate`: 0 when the board file was written, 1 when no board answered or the
    map was refused (each problem on a line)."""
    from reedboard.hal.backends import NoBoard

    out = out or sys.stdout
    try:
        opened = open_calibration(hal, board_path, port)
    except NoBoard as error:
        print(_("reedboard calibrate: no board could be reached. Tried:"), file=out)
        for attempt in error.tried:
            print(f"  - {attempt}", file=out)
        return 1
    board = opened.board
    settings = Settings(timeout=timeout if timeout is not None else TIMEOUT)
    print(_("calibrating the {name} board ({source}) on {backend} ({detail})").format(
        name=board.name, source=board.source, backend=opened.backend, detail=opened.detail), file=out, flush=True)
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
                                         on_prompt=on_prompt)
        finally:
            if server is not None:
                server.should_exit = True
                await serving

    try:
        result = asyncio.run(calibrate())
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
        raise UsageError(_("reedboard: cannot write the board file to {path} ({problem}); its text is printed above")
                         .format(path=path, problem=error.strerror or error)) from None
    print(_("board file written to {path}").format(path=path), file=out)
    return 0
