"""A fake board behind a real pty: the Pico firmware's own logic (firmware/app.py,
scanner.py, protocol.py) running on the host, so the serial backend and people can talk to
"a board" without one.

The fake holds a reed-switch matrix wired as the board file says, with pieces on the cells
it is given (a game's start position, say), and an LED chain that records every frame it
was told to show. `reedboard fake-board GAME` runs main(): it prints `port: /dev/pts/N`
first, then takes `lift CELL`, `place CELL`, `press die|ok [long]` and `quit` on standard input,
answering each with one line: what it did, or why not.
"""

from __future__ import annotations

import importlib
import os
import select
import sys
import threading
import time
import tty
import types
from collections import deque
from collections.abc import Iterable
from pathlib import Path

from ..board import Board, load_board

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
_FIRMWARE_MODULES = ("protocol", "scanner", "app")
_loaded: types.SimpleNamespace | None = None
_load_lock = threading.Lock()

STEP_S = 0.004  # the fake Pico's loop: one matrix scan every 4 ms or so
PRESS_S = 0.15  # how long `press` holds a button down
LONG_PRESS_S = 1.3  # ... and `press ... long`
OUT_LIMIT = 1 << 16  # bytes waiting for a reader; past that (nobody listens) they are dropped
COMMANDS = "lift CELL, place CELL, press die|ok [long], quit"


class FakeBoardError(ValueError):
    """A command the fake board cannot carry out; the message says why."""


def firmware() -> types.SimpleNamespace:
    """The firmware's modules (protocol, scanner, app), imported from firmware/ once, without
    leaving those plain top-level names in sys.modules or firmware/ on sys.path."""
    global _loaded
    with _load_lock:
        if _loaded is None:
            if not (FIRMWARE / "app.py").is_file():
                raise FakeBoardError(f"no firmware in {FIRMWARE}: the fake board runs from a source checkout")
            saved = {name: sys.modules.pop(name) for name in _FIRMWARE_MODULES if name in sys.modules}
            sys.path.insert(0, str(FIRMWARE))
            try:
                _loaded = types.SimpleNamespace(**{name: importlib.import_module(name) for name in _FIRMWARE_MODULES})
            finally:
                sys.path.remove(str(FIRMWARE))
                for name in _FIRMWARE_MODULES:
                    sys.modules.pop(name, None)
                sys.modules.update(saved)
        return _loaded


class HostClock:
    """MicroPython's ticks on the host's monotonic clock (milliseconds, wrapping at 2**30)."""

    PERIOD = 1 << 30

    def ticks_ms(self) -> int:
        return int(time.monotonic() * 1000) & (self.PERIOD - 1)

    def ticks_diff(self, a: int, b: int) -> int:
        half = self.PERIOD // 2
        return ((a - b + half) & (self.PERIOD - 1)) - half

    def ticks_add(self, t: int, delta: int) -> int:
        return (t + delta) & (self.PERIOD - 1)


class FakeMatrix:
    """Reed switches with diodes: the column pins read low while the row the scanner drives
    has a magnet on that column."""

    def __init__(self, rows: int, columns: int, magnets=()):
        self.width = columns
        self.magnets: set[int] = set(magnets)  # sensor indices with a piece on them
        self.driven: int | None = None
        self.rows = [_RowPin(self, r) for r in range(rows)]
        self.columns = [_ColumnPin(self, c) for c in range(columns)]


class _RowPin:
    def __init__(self, matrix: FakeMatrix, row: int):
        self.matrix, self.row = matrix, row

    def value(self, level=None):
        if level is None:
            return 0 if self.matrix.driven == self.row else 1
        if not level:
            self.matrix.driven = self.row
        elif self.matrix.driven == self.row:
            self.matrix.driven = None
        return None


class _ColumnPin:
    def __init__(self, matrix: FakeMatrix, column: int):
        self.matrix, self.column = matrix, column

    def value(self, level=None):
        m = self.matrix
        return 0 if m.driven is not None and m.driven * m.width + self.column in m.magnets else 1


class _ButtonPin:
    """A button to ground with a pull-up: 1 when let go, 0 while pressed."""

    def __init__(self):
        self.level = 1

    def value(self, level=None):
        return self.level


class FakeChain:
    """A WS2812 chain as neopixel.NeoPixel shows it to the firmware; keeps every frame it
    was told to show (the latest `keep`)."""

    def __init__(self, count: int, keep: int = 1000):
        self.pixels: list[tuple[int, int, int]] = [(0, 0, 0)] * count
        self.frames: deque[tuple[tuple[int, int, int], ...]] = deque(maxlen=keep)

    def __len__(self) -> int:
        return len(self.pixels)

    def __setitem__(self, index: int, colour) -> None:
        self.pixels[index] = tuple(colour)

    def __getitem__(self, index: int):
        return self.pixels[index]

    def write(self) -> None:
        self.frames.append(tuple(self.pixels))


class FakeBoard:
    """The firmware on a fake matrix and LED chain, served on a pty.

    Use start()/stop() or `with FakeBoard(name, occupied=cells) as fake:` (the board's
    name, as load_board takes it); open `fake.port` with pyserial. lift()/place() move
    pieces (cells as the board file names them, in any letter case), press() pushes a
    button; `frames` are the LED frames shown so far, `received` the host's lines (decoded)
    and `sent` the board's.
    """

    def __init__(self, board: str | None, board_path: str | Path | None = None, *,
                 occupied: Iterable[str] = (), debounce: int = 3, step_s: float = STEP_S):
        self.board: Board = load_board(board_path, game=board)
        self.step_s = step_s
        fw = firmware()
        self.protocol = fw.protocol
        self._by_name = {cell.lower(): cell for cell in self.board.cells}
        start = {self.board.sensor[self.cell(c)] for c in occupied}
        self.matrix = FakeMatrix(self.board.rows, self.board.columns, start)
        self.chain = FakeChain(self.board.led_count)
        self._pins = {"die": _ButtonPin(), "ok": _ButtonPin()}
        buttons = [fw.app.Button(name, pin, debounce) for name, pin in self._pins.items()]
        scanner = fw.scanner.Scanner(self.matrix.rows, self.matrix.columns, debounce)
        self.app = fw.app.App(scanner, self.chain, self._queue, HostClock(), buttons, None,
                              firmware=fw.app.FIRMWARE + "-fake")
        self.received: deque = deque(maxlen=1000)  # (TYPE, SEQ, FIELDS) of the host's good lines
        self.sent: deque[str] = deque(maxlen=1000)  # the board's lines, as sent
        self._reader = fw.protocol.LineReader()
        self._out = bytearray()
        self._releases: dict[str, float] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._master = self._slave = -1
        self.port: str | None = None

    # -- running ------------------------------------------------------------------------

    def start(self) -> FakeBoard:
        if self._thread is not None:
            return self
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no newline translation: bytes as sent
        os.set_blocking(self._master, False)
        self.port = os.ttyname(self._slave)
        self._stop.clear()
        self.app.start()  # H and S, waiting in the pty for whoever opens it
        self._flush()
        self._thread = threading.Thread(target=self._run, name=f"fake-board {self.port}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join(timeout=2)
            self._thread = None
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1

    def __enter__(self) -> FakeBoard:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                ready, _, _ = select.select([self._master], [], [], self.step_s)
            except (OSError, ValueError):
                return
            if ready:
                try:
                    data = os.read(self._master, 4096)
                except BlockingIOError:
                    data = b""
                except OSError:
                    return
                for line in self._reader.feed(data):
                    decoded = self.protocol.decode(line)
                    if decoded is not None:
                        self.received.append(decoded)
                    self.app.handle(line)
            with self._lock:
                now = time.monotonic()
                for name, at in list(self._releases.items()):
                    if now >= at:
                        self._pins[name].level = 1
                        del self._releases[name]
                self.app.step()
            self._flush()

    def _queue(self, line: str) -> None:
        self.sent.append(line)
        self._out += line.encode()
        if len(self._out) > OUT_LIMIT:  # nobody reads the port: drop, as a Pico would
            self._out.clear()

    def _flush(self) -> None:
        while self._out:
            try:
                written = os.write(self._master, self._out)
            except OSError:  # the pty is full (nobody reads) or closed: try again later
                return
            del self._out[:written]

    # -- the pieces and buttons ---------------------------------------------------------------

    def cell(self, name: str) -> str:
        """The board's name for a cell (any letter case); FakeBoardError if there is none."""
        cell = self._by_name.get(name.lower())
        if cell is None:
            raise FakeBoardError(f"no cell {name!r} on the {self.board.name} board")
        return cell

    @property
    def occupied(self) -> frozenset[str]:
        by_sensor = {self.board.sensor[c]: c for c in self.board.cells}
        return frozenset(by_sensor[s] for s in set(self.matrix.magnets) if s in by_sensor)

    def lift(self, name: str) -> None:
        cell = self.cell(name)
        with self._lock:
            if self.board.sensor[cell] not in self.matrix.magnets:
                raise FakeBoardError(f"{cell} is empty: nothing to lift")
            self.matrix.magnets.discard(self.board.sensor[cell])

    def place(self, name: str) -> None:
        cell = self.cell(name)
        with self._lock:
            if self.board.sensor[cell] in self.matrix.magnets:
                raise FakeBoardError(f"{cell} is occupied already")
            self.matrix.magnets.add(self.board.sensor[cell])

    def press(self, button: str, long: bool = False) -> None:
        if button not in self._pins:
            raise FakeBoardError(f"no button {button!r}: press die or press ok")
        with self._lock:
            self._pins[button].level = 0
            self._releases[button] = time.monotonic() + (LONG_PRESS_S if long else PRESS_S)

    # -- what it shows ----------------------------------------------------------------------

    @property
    def frames(self) -> list[tuple[tuple[int, int, int], ...]]:
        """Every LED frame written to the chain (the latest 1000), oldest first."""
        return list(self.chain.frames)

    @property
    def leds(self) -> tuple[tuple[int, int, int], ...]:
        """What the chain shows now."""
        frames = self.chain.frames
        return frames[-1] if frames else tuple(self.chain.pixels)

    def wait_for(self, predicate, timeout: float = 2.0) -> bool:
        """Poll `predicate()` until it is true or `timeout` seconds have passed."""
        deadline = time.monotonic() + timeout
        while True:
            if predicate():
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.005)

    # -- commands -----------------------------------------------------------------------------

    def command(self, text: str) -> str:
        """Carry out one command line; the one-line answer: what was done, or why not.
        (`quit` is the caller's.)"""
        words = text.split()
        try:
            if len(words) == 2 and words[0] == "lift":
                cell = self.cell(words[1])
                self.lift(cell)
                return f"lifted {cell}: sensor {self.board.sensor[cell]} opens"
            if len(words) == 2 and words[0] == "place":
                cell = self.cell(words[1])
                self.place(cell)
                return f"placed {cell}: sensor {self.board.sensor[cell]} closes"
            if words[:1] == ["press"] and len(words) in (2, 3) and words[2:] in ([], ["long"]):
                long = len(words) == 3
                self.press(words[1], long=long)
                held = LONG_PRESS_S if long else PRESS_S
                return f"pressed {words[1]}: held {held:g} s ({'a long' if long else 'a short'} press)"
        except FakeBoardError as error:
            return str(error)
        return f"unknown command {text.strip()!r}: {COMMANDS}"


def main(board: str | None, board_path: str | Path | None = None, stdin=None, stdout=None, *,
         occupied: Iterable[str] = ()) -> int:
    """Serve a fake board (named as load_board takes it) with pieces on `occupied` until `quit`
    or the end of standard input. The first line printed is `port: /dev/pts/N`."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    try:
        fake = FakeBoard(board, board_path, occupied=occupied)
    except FakeBoardError as error:
        print(f"reedboard fake-board: {error}", file=stdout, flush=True)
        return 2
    with fake:
        print(f"port: {fake.port}", file=stdout, flush=True)
        while True:
            line = stdin.readline()
            if not line or line.strip() == "quit":
                break
            if not line.strip():
                continue
            print(fake.command(line), file=stdout, flush=True)
    return 0


class CountingPort:
    """A pyserial port that counts the reads made of it (how often a reader wakes, in tests and benches)."""

    def __init__(self, port) -> None:
        self._port = port
        self.reads = 0

    def read(self, size: int = 1) -> bytes:
        self.reads += 1
        return self._port.read(size)

    def __getattr__(self, name: str):
        return getattr(self._port, name)
