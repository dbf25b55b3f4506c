"""`reedboard bringup`: a board brought up at the bench, from a phone or in a terminal.

The bench (`Bench`) holds one board open at its address level (as the self-test and the
calibration use it: switch addresses, LEDs by index) and shares it:

- the live map: every switch (closed or open, with its closes counted by one_hollow), the LED
  chain as the board was last told to show it (hollows, die pips, turn light), the presses of
  its buttons; while no guide runs, a closed switch lights its hollow's LED (as the board file
  wires it), so a magnet tries the switch and the LED at once;
- the one-hollow test (one_hollow.py), which any page shows for the hollow it chose;
- at most one guide at a time, the self-test (selftest.SelfTest) or the calibration
  (calibrate.Calibration): the same machines as `reedboard selftest` and `reedboard calibrate`,
  driven by guide.drive on the shared board. The page's ok and die buttons are presses of the
  board's buttons. At its end (or when it is stopped) the self-test's report is written
  (--report), and at the calibration's end its board file (--out).

`Tap` is the shared board: one reading of the backend's switches and presses, fanned out to
every reader (a guide's drive among them), and what it was told to show kept for the map.

The page (web/bringup_page.py) reads `state()` and `updates()` and calls the actions; a
refused action is an ActionError with its HTTP status. `one_hollow_command` is the terminal's
one-hollow test, which prints each close and open as it happens.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reedboard.hal.addresses import DARK, LedFrame, Switches
from reedboard.hal.board import Board
from reedboard.hal.colours import RGB
from reedboard.hal.interfaces import Button, Cue, DieState, Light, Press
from reedboard.hal.leds import led_names

from ..core.referee import Outputs
from ..language.catalogue import COMMANDS, current, speaking
from ..session.actions import ActionError
from .guide import Opened, Prompt, Settings, drive, open_backend
from .one_hollow import OneHollow, guidance, switch_name
from ..words import said

_ = COMMANDS.gettext

FOLLOW_LIGHT = Light("movable")  # steady green: a closed switch's hollow, while no guide runs
FLOWS = ("selftest", "calibration")
CALIBRATION_TIMEOUT = 60.0  # s, as `reedboard calibrate` waits for each magnet
POLL = 0.1  # s: a guide's deadlines are looked at this often besides (a board clock moved on is seen)


class _Stream:
    """One reader's queue of a Tap's switches or presses."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue = asyncio.Queue()


class Tap:
    """A backend's address-level board shared at the bench: its switches and presses read once
    and given to every reader, the page's presses among the board's, and what it was told to
    show (the LED chain, the die display, the last cue) kept for the map. It is an address
    board itself (guide.drive runs a guide on it); closing it leaves the backend open."""

    def __init__(self, device, on_change: Callable[[], None] = lambda: None) -> None:
        self.device = device
        self.board: Board = device.board
        self.clock = device.clock
        self.on_change = on_change
        count = self.board.led_count
        self.closed: frozenset[int] = frozenset()
        self.colours: list[RGB] = [DARK] * count
        self.blinking: list[bool] = [False] * count
        self._shown = False  # the first frame is sent whatever it is: the board as the map shows it
        self.die = DieState()
        self.cue: Cue | None = None
        self.cues = 0
        self.presses_seen = {"ok": 0, "die": 0}
        self.link: str | None = None  # a backend that can be unplugged: its link's state
        self.ready = asyncio.Event()  # the first reading of the switches is in
        self._switch_readers: list[_Stream] = []
        self._press_readers: list[_Stream] = []
        self._listeners: list[Callable[[Switches], None]] = []

    # --- reading the backend (the bench runs these) -----------------------------------------
    async def read_switches(self) -> None:
        stream = self.device.switches()
        try:
            async for switches in stream:
                self.closed = switches.closed
                self.ready.set()
                for reader in list(self._switch_readers):
                    reader.queue.put_nowait(switches)
                for listener in list(self._listeners):
                    listener(switches)
        finally:
            await stream.aclose()

    async def read_presses(self) -> None:
        stream = self.device.presses()
        try:
            async for press in stream:
                self._pressed(press)
        finally:
            await stream.aclose()

    async def read_links(self) -> None:
        links = getattr(self.device, "links", None)
        if links is None:
            return
        stream = links()
        try:
            async for link in stream:
                self.link = link.state.value + (f" ({link.why})" if link.why else "")
                self.on_change()
        finally:
            await stream.aclose()

    def listen(self, listener: Callable[[Switches], None]) -> None:
        """`listener(switches)` for every reading, after the readers are given it."""
        self._listeners.append(listener)

    def press(self, button: str) -> None:
        """A press of the board's button from the page."""
        self._pressed(Press(self.clock(), Button(button)))

    def _pressed(self, press: Press) -> None:
        self.presses_seen[press.button.value] = self.presses_seen.get(press.button.value, 0) + 1
        for reader in list(self._press_readers):
            reader.queue.put_nowait(press)
        self.on_change()

    # --- the address board a guide runs on -------------------------------------------------------
    async def switches(self) -> AsyncIterator[Switches]:
        await self.ready.wait()
        reader = _Stream()
        self._switch_readers.append(reader)
        try:
            yield Switches(self.clock(), self.closed)
            while True:
                yield await reader.queue.get()
        finally:
            self._switch_readers.remove(reader)

    async def presses(self) -> AsyncIterator[Press]:
        reader = _Stream()
        self._press_readers.append(reader)
        try:
            while True:
                yield await reader.queue.get()
        finally:
            self._press_readers.remove(reader)

    def show_leds(self, colours: Sequence[RGB], blinking: Sequence[bool]) -> None:
        colours, blinking = list(colours), list(blinking)
        if self._shown and colours == self.colours and blinking == self.blinking:
            return
        self.colours, self.blinking, self._shown = colours, blinking, True
        self.device.show_leds(colours, blinking)
        self.on_change()

    def show_die(self, state: DieState) -> None:
        self.die = state
        self.device.show_die(state)
        self.on_change()

    def play(self, cue: Cue) -> None:
        self.cue = cue
        self.cues += 1
        self.device.play(cue)
        self.on_change()

    def close(self) -> None:
        pass  # the bench closes the backend


@dataclass
class Flow:
    """A guide at the bench: the self-test or the calibration, from its start to its end."""

    kind: str  # "selftest" or "calibration"
    lang: str  # the language of the page that started it: its prompts and findings are in it
    phase: str = "running"  # running, done, stopped, failed
    machine: object | None = None
    prompt: dict | None = None
    result: dict | None = None
    task: asyncio.Task | None = None
    started: datetime.datetime = field(default_factory=datetime.datetime.now)

    @property
    def running(self) -> bool:
        return self.phase == "running"

    def findings(self) -> list[dict]:
        machine = self.machine
        found = [{"kind": f.kind, "cells": list(f.cells), "text": f.text} for f in getattr(machine, "findings", ())]
        found += [{"kind": "note", "cells": [], "text": note} for note in getattr(machine, "notes", ())]
        return found


class Bench:
    """One board at the bench (see the module's words). `opened`: the backend, as guide.open_backend
    opens it; `selftest` and `calibration`: their guides' settings; `report_path` (None: a new
    file here at the self-test's end) and `board_out`: where their results are written."""

    def __init__(self, opened: Opened, *, selftest: Settings | None = None, calibration: Settings | None = None,
                 report_path: str | Path | None = None, board_out: str | Path | None = None) -> None:
        from reedboard.hal import registry

        self.opened = opened
        self.board: Board = opened.board
        self.tap = Tap(opened.device, self._changed)
        self.selftest_settings = selftest or Settings()
        self.calibration_settings = calibration or Settings(timeout=CALIBRATION_TIMEOUT)
        self.report_path = report_path
        self.board_out = Path(board_out) if board_out is not None else Path(f"{self.board.name}.toml")
        self.hands = registry.can(opened.backend, registry.HANDS)  # the page's clicks move magnets
        self.test = OneHollow(self.board)
        self.flow: Flow | None = None
        self.version = 0
        self._wake: list[asyncio.Event] = []
        self._tasks: list[asyncio.Task] = []
        self.tap.listen(self._switches)

    # --- life --------------------------------------------------------------------------------
    async def start(self) -> None:
        tap = self.tap
        self._tasks = [asyncio.create_task(work()) for work in (tap.read_switches, tap.read_presses, tap.read_links)]
        tap.show_leds(*LedFrame().chain(self.board.led_count))  # the board as the map shows it: dark
        tap.show_die(DieState())

    async def stop(self) -> None:
        if self.flow is not None and self.flow.task is not None and not self.flow.task.done():
            await self._end_flow("stopped")
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []

    def _changed(self) -> None:
        self.version += 1
        for wake in self._wake:
            wake.set()

    async def updates(self) -> AsyncIterator[int]:
        """The state's version now, then whenever it changed (several changes may make one)."""
        wake = asyncio.Event()
        self._wake.append(wake)
        try:
            while True:
                wake.clear()
                yield self.version
                await wake.wait()
        finally:
            self._wake.remove(wake)

    # --- the map and the one-hollow test --------------------------------------------------------
    def _switches(self, switches: Switches) -> None:
        self.test.frame(switches.t, switches.closed)
        if self.flow is None or not self.flow.running:
            self._follow()
        self._changed()

    def _follow(self) -> None:
        """While no guide runs: the hollows whose switches are closed lit steady green."""
        board = self.board
        cells = (board.cell_at(a) for a in self.tap.closed)
        leds = {board.led[c]: FOLLOW_LIGHT for c in cells if c is not None and c in board.led}
        self.tap.show_leds(*LedFrame(leds).chain(board.led_count))

    def reset_counts(self) -> None:
        self.test.counts.reset(self.tap.clock())
        self._changed()

    def magnet(self, cell: str) -> None:
        """A hand-moved board (the simulated one): a magnet put in the hollow, or taken out."""
        if not self.hands:
            raise ActionError(_("only the simulated board's magnets are moved from the page"), 409)
        if cell not in self.board.sensor:
            raise ActionError(_("no hollow {cell} on the {board} board").format(cell=repr(cell[:20]),
                                                                                 board=self.board.name), 404)
        device = self.opened.device
        address = self.board.sensor[cell]
        magnets = getattr(device, "magnets", None)
        held = magnets if magnets is not None else device.closed
        (device.open_switch if address in held else device.close_switch)(address)

    def press(self, button: str) -> None:
        if button not in ("ok", "die"):
            raise ActionError(_("the board's buttons are ok and die, not {button}").format(
                button=repr(button[:20])), 400)
        self.tap.press(button)

    # --- guides ----------------------------------------------------------------------------------
    def start_flow(self, kind: str) -> None:
        """Start the self-test or the calibration; a guide already running is an ActionError (409)."""
        if kind not in FLOWS:
            raise ActionError(_("choose selftest or calibration, not {kind}").format(kind=repr(kind[:20])), 400)
        if self.flow is not None and self.flow.running:
            if self.flow.kind == "selftest":
                raise ActionError(_("the self-test is running: stop it first, or wait for its end"), 409)
            raise ActionError(_("the calibration is running: stop it first, or wait for its end"), 409)
        flow = self.flow = Flow(kind, current())
        flow.task = asyncio.create_task(self._run(flow))
        self._changed()

    async def stop_flow(self) -> None:
        if self.flow is None or not self.flow.running:
            raise ActionError(_("no self-test or calibration is running"), 409)
        await self._end_flow("stopped")

    async def _end_flow(self, phase: str) -> None:
        flow = self.flow
        task = flow.task
        flow.phase = phase
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._follow()
        self.tap.show_die(DieState())
        self._changed()

    async def _run(self, flow: Flow) -> None:
        with speaking(flow.lang):
            try:
                if flow.kind == "selftest":
                    await self._selftest(flow)
                else:
                    await self._calibration(flow)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # a backend gone, a file that cannot be written: said on the page
                flow.phase = "failed"
                flow.result = {"ok": False, "summary": _("stopped: {problem}").format(problem=said(error)), "lines": [],
                               "path": None}
                self._follow()
                self._changed()

    def _on_prompt(self, flow: Flow) -> Callable[[Prompt], None]:
        def on_prompt(prompt: Prompt) -> None:
            flow.prompt = prompt.as_dict()
            self._changed()
        return on_prompt

    async def _selftest(self, flow: Flow) -> None:
        from .selftest import SelfTest, leds_of

        board, tap = self.board, self.tap
        await tap.ready.wait()
        count = tap.board.led_count

        def show(frame) -> None:
            tap.show_leds(*leds_of(frame, board).chain(count))

        cell_at = {address: cell for cell, address in board.sensor.items()}
        outputs = Outputs(lights=show, die=tap.show_die, buzzer=tap.play)
        machine = SelfTest(board, self.selftest_settings, outputs=outputs, on_prompt=self._on_prompt(flow),
                           **_wiring(board, self.opened.backend))
        flow.machine = machine
        self._changed()
        try:
            await drive(machine, tap, clock=tap.clock, poll=POLL,
                        translate=lambda closed: frozenset(cell_at[a] for a in closed if a in cell_at))
        except asyncio.CancelledError:  # stopped: the report of what was found so far, as on Ctrl-C
            self._write_report(flow, stopped=True)
            raise
        self._write_report(flow)
        flow.phase = "done"
        self._follow()
        self._changed()

    def _write_report(self, flow: Flow, stopped: bool = False) -> None:
        from .selftest import default_report_path

        report = _report(flow.machine, flow.started, self.opened, stopped)
        path = Path(self.report_path) if self.report_path else default_report_path(self.board.name, flow.started)
        lines = [finding.text for finding in report.findings]
        try:
            report.write(path)
            written = str(path)
            lines.append(_("report written to {path}").format(path=path))
        except OSError as error:
            written = None
            lines.append(_("the report could not be written to {path} ({problem})").format(
                path=path, problem=error.strerror or said(error)))
        summary = report.summary
        if stopped:  # the report says how a terminal stops it; the page says it in its own words
            found = _report(flow.machine, flow.started, self.opened, False).summary
            summary = _("stopped before the end: {summary} so far").format(summary=found)
        flow.result = {"ok": not report.findings and not stopped, "summary": summary, "lines": lines,
                       "path": written}

    async def _calibration(self, flow: Flow) -> None:
        from .calibrate import CalibrationRefused, Calibration

        board, tap = self.board, self.tap
        await tap.ready.wait()
        flow.phase = "running"
        count = tap.board.led_count
        machine = Calibration(board, self.calibration_settings,
                              outputs=Outputs(lights=lambda leds: tap.show_leds(*leds.chain(count)), die=tap.show_die,
                                              buzzer=tap.play),
                              on_prompt=self._on_prompt(flow))
        machine.backend = self.opened.backend  # the new board file says which backend it was learned on
        flow.machine = machine
        self._changed()
        await drive(machine, tap, clock=tap.clock, poll=POLL)
        result = machine.result()
        lines = [_("note: {note}").format(note=note) for note in result.notes]
        path = self.board_out
        try:
            result.save(path)
            written = str(path)
            lines.append(_("board file written to {path}").format(path=path))
            summary = _("calibration done: the map is complete")
        except CalibrationRefused as refused:
            written = None
            summary = _("the map is not saved:")
            lines += list(refused.problems)
        except OSError as error:
            written = None
            summary = _("the board file could not be written to {path} ({problem})").format(
                path=path, problem=error.strerror or said(error))
        flow.result = {"ok": written is not None, "summary": summary, "lines": lines, "path": written}
        flow.phase = "done"
        self._follow()
        self._changed()

    # --- what the page reads ------------------------------------------------------------------
    def describe(self) -> dict:
        """The board as the page draws it: its hollows (where, which switch and LED), the LEDs
        of the chain (what each is under) and how it is reached. It does not change."""
        board = self.board
        names = led_names(board)
        cells = []
        for cell in board.cells:
            x, y = board.position.get(cell, (None, None))
            address = board.sensor[cell]
            cells.append({"cell": cell, "x": x, "y": y, "sensor": address, "row": address // board.columns,
                          "column": address % board.columns, "led": board.led.get(cell)})
        return {"name": board.name, "source": board.source, "backend": self.opened.backend,
                "detail": self.opened.detail, "rows": board.rows, "columns": board.columns, "cells": cells,
                "leds": [{"index": i, "name": names.get(i)} for i in range(board.led_count)],
                "die_pips": list(board.die_pips), "turn": board.turn_led, "hands": self.hands,
                "flows": list(FLOWS)}

    def state(self) -> dict:
        """Everything that changes, as the page shows it (its words are the flow's language's)."""
        tap, test = self.tap, self.test
        now = tap.clock()
        flow = self.flow
        return {
            "version": self.version, "now": now, "closed": sorted(tap.closed),
            "counts": {str(a): c.as_dict() for a, c in sorted(test.counts.counts.items())},
            "last": test.counts.last,
            "leds": ["%02x%02x%02x" % c for c in tap.colours], "blinking": [i for i, b in enumerate(tap.blinking) if b],
            "die": {"face": tap.die.face.value, "value": tap.die.value},
            "cue": tap.cue.value if tap.cue is not None else None, "cues": tap.cues,
            "presses": dict(tap.presses_seen), "link": tap.link,
            "flow": None if flow is None else {
                "kind": flow.kind, "phase": flow.phase, "prompt": flow.prompt, "findings": flow.findings(),
                "result": flow.result},
        }

    def guidance(self, name: str) -> dict | None:
        """The one-hollow test's words for a hollow (or "any"), in the language in use; None for
        a hollow the board has not."""
        from .one_hollow import find_hollow

        try:
            cell = find_hollow(self.board, name)
        except ValueError:
            return None
        address = self.board.sensor[cell] if cell is not None else None
        return {"cell": cell, "sensor": address, **guidance(self.board, cell).as_dict()}


def _wiring(board: Board, backend: str) -> dict:
    """The self-test's `wiring` argument: the pins its findings name (a self-test that names
    none takes none)."""
    try:
        from .wiring import wiring_of
    except ImportError:
        return {}
    return {"wiring": wiring_of(board, backend)}


def _report(machine, when: datetime.datetime, opened: Opened, stopped: bool):
    """The self-test's report, with its head (the date, the backend, its firmware) where the
    self-test writes one."""
    try:
        from .guide import firmware_words

        return machine.report(when=when, backend=f"{opened.backend} ({opened.detail})",
                              firmware=firmware_words(opened), stopped=stopped)
    except (ImportError, TypeError):
        return machine.report()


# ------------------------------------------------------------------------------------------------
# Opening the board, the terminal's one-hollow test
# ------------------------------------------------------------------------------------------------

def open_bench(hal: str | None, board_path: str | None = None, port: str | None = None) -> Opened:
    """The backend at its address level; for a board moved by hand (registry.HANDS), the
    simulated board wired as the board file says, with its declared faults ([sim.faults]):
    the page's clicks are its hands."""
    from reedboard.hal.mock.faults import faulty_sim, parse_faults

    def by_hand(board: Board) -> Opened:
        return Opened(hal, board, faulty_sim(board, parse_faults(board)), None, _("the simulated board"))

    return open_backend(hal, board_path, port, by_hand)


async def _printing(test: OneHollow, device, out, closes: int | None) -> None:
    """Print each change of the switches as it happens, until the switch under test has closed
    and opened `closes` times (None: until cancelled)."""
    stream = device.switches()
    try:
        async for switches in stream:
            if not test.counts.seen:  # the board as it is when the test begins
                closed = sorted(switches.closed)
                if closed:
                    print(_("ready; closed now: {switches}").format(
                        switches=", ".join(switch_name(test.board, a) for a in closed)), file=out, flush=True)
                else:
                    print(_("ready: every switch is open"), file=out, flush=True)
            for change in test.frame(switches.t, switches.closed):
                print(test.line(change), file=out, flush=True)
                if (closes is not None and not change.closed and test.mine(change)
                        and test.counts.count(change.address).closes >= closes):
                    return
    finally:
        await stream.aclose()


def _stopped(signum, frame) -> None:
    """SIGTERM as Ctrl-C: what is left to say is said."""
    raise KeyboardInterrupt


def one_hollow_command(hal: str | None, port: str | None, board_path: str | None, hollow: str, *,
                       closes: int | None = None, out=None) -> int:
    """`reedboard bringup --hollow CELL`: 0 when the switch closed (`closes` times, if given), 1
    when it never did or no board answered."""
    import signal

    from reedboard.hal.backends import NoBoard

    from .one_hollow import find_hollow
    from .problems import BenchError

    out = out or sys.stdout
    try:
        opened = open_bench(hal, board_path, port)
    except NoBoard as error:
        print(_("reedboard bringup: no board could be reached. Tried:"), file=out)
        for attempt in error.tried:
            print(f"  - {attempt}", file=out)
        return 1
    board = opened.board
    previous = signal.signal(signal.SIGTERM, _stopped)
    try:
        try:
            cell = find_hollow(board, hollow)
        except ValueError as error:
            raise BenchError(f"reedboard bringup: {said(error)}") from None
        test = OneHollow(board, cell)
        what = switch_name(board, test.address) if cell is not None else _("every switch")
        print(_("one-hollow test of {switch} on the {name} board ({source}), {backend} ({detail}); Ctrl-C to stop")
              .format(switch=what, name=board.name, source=board.source, backend=opened.backend,
                      detail=opened.detail), file=out, flush=True)
        for line in guidance(board, cell).lines():
            print(line, file=out, flush=True)
        try:
            asyncio.run(_printing(test, opened.device, out, closes))
        except KeyboardInterrupt:
            pass
        print(test.summary(opened.device.clock()), file=out, flush=True)
    finally:
        signal.signal(signal.SIGTERM, previous)
        opened.close()
    if cell is None:
        return 0 if any(c.closes for c in test.counts.counts.values()) else 1
    return 0 if test.counts.count(test.address).closes >= (closes or 1) else 1


def bringup_command(hal: str | None, port: str | None, board_path: str | None, *, listen: tuple[str, int],
                    timeout: float | None = None, report_path: str | None = None, out_path: str | None = None,
                    out=None) -> int:
    """`reedboard bringup`: the page, until Ctrl-C; 1 when no board answered or the port is taken."""
    import secrets
    import signal
    import socket

    from reedboard.hal.backends import NoBoard

    out = out or sys.stdout
    try:
        from ..web.bringup_page import bringup_server
        from ..web.join import LOOPBACK, join_lines, qr_target, join_urls, terminal_qr
        from ..web.listening import tcp_listener
    except ImportError as error:
        from reedboard.hal.install import pip_extra

        print(_("reedboard: the web view needs its packages ({module} is missing): {install}").format(
            module=error.name, install=pip_extra("web")), file=out)
        return 2
    host, number = listen
    listening = tcp_listener(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        listening.bind((host, number))
    except OSError as error:
        listening.close()
        print(_("reedboard: cannot listen on {host}:{port}: {problem} (choose another with --listen)").format(
            host=host, port=number, problem=error.strerror or said(error)), file=out)
        return 1
    try:
        opened = open_bench(hal, board_path, port)
    except NoBoard as error:
        listening.close()
        print(_("reedboard bringup: no board could be reached. Tried:"), file=out)
        for attempt in error.tried:
            print(f"  - {attempt}", file=out)
        return 1
    board = opened.board
    token = None if host in LOOPBACK else secrets.token_urlsafe(16)
    settings = {} if timeout is None else {"selftest": Settings(timeout=timeout),
                                           "calibration": Settings(timeout=timeout)}
    bench = Bench(opened, report_path=report_path, board_out=out_path or board_path or f"{board.name}.toml",
                  **settings)
    print(_("bring-up of the {name} board ({source}) on {backend} ({detail})").format(
        name=board.name, source=board.source, backend=opened.backend, detail=opened.detail), file=out)
    for line in join_lines(host, number, token, qr=False):
        print(line, file=out)
    if host not in LOOPBACK:
        target = qr_target(join_urls(host, number, token))
        try:
            code = terminal_qr(target)
            print("  " + _("scan to open {address} on a phone:").format(address=target), file=out)
            for line in code:
                print(line, file=out)
        except ImportError:
            from reedboard.hal.install import pip_extra

            print("  " + _("(a QR code of the address needs segno: {install})").format(install=pip_extra("web")),
                  file=out)
    out.flush()
    server = bringup_server(bench, host, number, token)
    previous = signal.signal(signal.SIGTERM, _stopped)
    try:
        asyncio.run(server.serve(sockets=[listening]))
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        listening.close()
        opened.close()
    return 0
