"""The serial backend: a board whose Raspberry Pi Pico scans it and talks firmware/PROTOCOL.md.

SerialSwitches is its address-level board (hal.addresses: the Pico speaks of switch addresses
and LED indices); SerialBoard is the cell-level board over it: Sensors, Lights, DieDisplay,
Buttons, Buzzer and LinkWatch at once.

Threads and asyncio
-------------------
A reader thread owns the port: it opens it (again and again while it is missing), reads bytes,
cuts them into lines and hands each line to a HostLink, the pure protocol state machine of
hal.protocol (which keeps the closed switches, checks sequence numbers and asks for `R`). What
the link decides (switches, presses, a refusal) goes to every async iterator made by
switches() or presses() through its
event loop's call_soon_threadsafe, so the referee's loop never blocks on the port and never
sees a half-updated state. Lines to the board (V, R, L, D, Z) go through a queue to a writer
thread, so show() and play() never block the caller, even on a stalled port; the writer gives
each line its sequence number as it writes it.

Keeping in step
---------------
A frame is yielded only while the host is in step with the board: after an `S`, and after each
`C` whose sequence number follows the last accepted line. A lost line (a gap in the board's
sequence numbers, whatever the next line's type) makes the host send `R` and trust nothing
until the next `S`; a repeated sequence number is a duplicate and is dropped. Frames are
yielded when the occupancy changes (and once after the first `S`); a new iterator starts with
the current occupancy if the host is in step.

Greeting and reconnecting
-------------------------
The host sends `V 1 age` when it opens the port, whenever it has heard no valid line for 3 s,
and every 3 s until the board has answered `H`, each time after a bare newline, so that noise
left on the wire cannot spoil it; lines before the first `H` of a connection are not trusted.
`age` asks the board to say how old the changes of each C line are: they are stamped with
when they most likely happened (halfway between the board's last scan that missed them and
its first that saw them), so that the recogniser's debounce, which counts from a frame's
time, does not count the board's own debounce again. A board whose `H` names no
options (older firmware, which answered the first greeting with an E) is greeted with a bare
`V 1` from then on, until the port is opened again. An
`H` with another protocol version (or another matrix size than the board file's) refuses the
board: the port is closed, frames() and presses() raise BoardRefused with the reason. When the
port fails (a pulled cable), the reader closes it, tries to open it again every 0.5 s (with
port "auto", looking for the Pico again each time, since a re-plugged Pico may get another
device name), greets the board anew and sends it the last light frame and die display.

The link
--------
`link` says whether the board is there (hal.interfaces.Link), and links() yields it and every
change: connecting until the board first says `H`; connected from an `H`; lost when the port
fails or cannot be opened ("unplugged"), when an open port brings no valid line for 3 s, or no
`H` within 3 s of opening it ("silent"), and when the board is refused ("refused"). While it is
lost no frame is yielded: the occupancy stays as last known, and the first `S` after the next
`H` brings the board's whole state.

Sleeping while the board is idle
--------------------------------
The reader waits on the port's file descriptor and a wake-up pipe with select, with a timeout
only as long as the next greeting or silence deadline, so an idle board (a heartbeat now and
then) wakes it once a line and never in between; close() and a failed write wake it through
the pipe. A port without a file descriptor (a pyserial URL handler) is read with its short
timeout instead.
"""

from __future__ import annotations

import asyncio
import logging
import os
import queue
import select
import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

import serial

from .addresses import LinkedCellBoard, Switches
from .board import Board
from .colours import RGB
from .interfaces import Cue, DieFace, DieState, LightFrame, Link, LinkState, Press
from .leds import capped, chain
from .protocol import (  # noqa: F401 - Hello, Stats and the errors are this backend's words too
    AGE,
    MAX_LINE,
    REQUEST_EVERY,
    VERSION,
    BoardRefused,
    Hello,
    HostLink,
    LineSplitter,
    Notice,
    SeqCounter,
    SerialBoardError,
    Stats,
    encode,
    encode_bitmap,
)

log = logging.getLogger(__name__)

PICO_VID = 0x2E8A  # Raspberry Pi's USB vendor id, which a Pico running MicroPython reports
SILENCE = 3.0  # s without a valid line before the host greets the board again
RETRY = 0.5  # s between attempts to open a missing port
READ_TIMEOUT = 0.05  # s: how long one read waits where select cannot wait on the port
IDLE_WAIT = 10.0  # s: the longest the reader sleeps with nothing due (a deadline comes sooner)
GREETINGS = 3  # V lines the probe sends (spread over its timeout) before it gives up
WRITE_TIMEOUT = 1.0  # s: a write that takes longer means the port is gone or stalled



def find_port() -> str | None:
    """The device of the first Raspberry Pi Pico on USB (vendor id 0x2E8A), or None."""
    picos = [port.device for port in _comports() if getattr(port, "vid", None) == PICO_VID]
    return sorted(picos)[0] if picos else None


def _comports() -> list:
    try:
        from serial.tools import list_ports

        return list(list_ports.comports())
    except Exception:  # no /sys, no permissions...: nothing found
        return []


# --- what goes into L and D lines ---------------------------------------------------------------

def leds_payload(colours: Sequence[RGB], blinking: Sequence[bool], board: Board) -> str:
    """The payload of the L line: each LED's colour (dimmed evenly to the board's current
    budget) as rrggbb in chain order, then the blink bitmap."""
    colours = capped(list(colours), board.budget_ma)
    text = "".join(f"{r:02x}{g:02x}{b:02x}" for r, g, b in colours)
    blink = encode_bitmap((i for i, on in enumerate(blinking) if on), board.led_count)
    return f"{text} {blink}"


def light_payload(frame: LightFrame, board: Board) -> str:
    """The payload of the L line for a light frame (its cells through the board file's map)."""
    return leds_payload(*chain(frame, board), board)


def die_payload(state: DieState) -> str:
    """The payload of the D line for a die display state."""
    if state.face is DieFace.VALUE:
        if state.value not in range(1, 7):
            raise ValueError(f"a die shows 1 to 6, not {state.value!r}")
        return str(state.value)
    return {DieFace.BLANK: "blank", DieFace.ROLLING: "rolling", DieFace.ERROR: "error"}[state.face]


# --- the backend ----------------------------------------------------------------------------------

_CLOSED = object()  # tells an iterator that the board was closed


@dataclass(eq=False)
class _Subscriber:
    kind: type
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue


class SerialSwitches:
    """A board behind a Pico on a serial port, by address: switches, LEDs, die, buttons, buzzer."""

    def __init__(self, board: Board, port: str | None = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 serial_factory: Callable[..., serial.SerialBase] = serial.serial_for_url,
                 silence: float = SILENCE, retry: float = RETRY,
                 timer: Callable[[], float] = time.monotonic) -> None:
        self.board = board
        self.line = board.settings_of("serial")  # the board file's [serial] table, as read
        self.port = port or self.line.port  # a device, a pyserial URL, or "auto"
        self._timer = timer  # the link's deadlines: greetings, silences, the probe (tests move it)
        self.stats = Stats()
        self.device: str | None = None  # what was opened last
        self.connected = False
        self.refused: str | None = None
        self.clock = clock  # what Switches, Presses and Links are stamped with
        self._factory = serial_factory
        self._silence = silence
        self._retry = retry
        self._lock = threading.RLock()  # the link's state and the subscribers
        self._write_lock = threading.Lock()  # the port, between reader and writer
        self._show_lock = threading.Lock()  # last light frame / die state and their sending
        self._outbox: queue.SimpleQueue = queue.SimpleQueue()
        self._seq = SeqCounter()
        self._ser = None
        self._write_failed = False
        self._subscribers: list[_Subscriber] = []
        self._threads: list[threading.Thread] = []
        self._stop = threading.Event()
        self._last_lights: str | None = None
        self._last_die: str | None = None
        self._greeting = f"{VERSION} {AGE}"  # a bare version to a board that knows no options
        self._heard = 0.0
        self._greeted_at = 0.0
        self._opened_at = 0.0
        self._open_error: str | None = None
        self._link_state = Link(clock(), LinkState.CONNECTING)
        self._wake_r = self._wake_w = -1  # the pipe that wakes the reader from its select
        self._rounds = 0  # times the reader began its loop (see reader_went_round)
        self._round = threading.Condition()
        self._link = HostLink(board, self._send, self._dispatch, stats=self.stats,
                              on_hello=self._hello, name=self._name(self.port))
        if len(f"L 00 {'0' * 6 * board.led_count} {'0' * ((board.led_count + 3) // 4)}*00\n") > MAX_LINE:
            log.error("%d LEDs do not fit in one L line of %d bytes: the lights stay dark",
                      board.led_count, MAX_LINE)

    # --- state ------------------------------------------------------------------------------------
    @property
    def in_step(self) -> bool:
        """True while the occupancy is the board's (after an S, with no line lost since)."""
        return self._link.in_step

    @property
    def closed(self) -> frozenset[int]:
        """The closed switches as last known; the board's own only while `in_step`."""
        return self._link.sensors

    @property
    def firmware(self) -> Hello | None:
        """The board's last H line."""
        return self._link.hello

    @property
    def last_error(self) -> str | None:
        """The text of the board's last E line."""
        return self._link.last_error

    @property
    def link(self) -> Link:
        """Whether the board is there, and since when (see "The link" above)."""
        return self._link_state

    def _set_link(self, state: LinkState, why: str = "") -> None:
        with self._lock:
            if (self._link_state.state, self._link_state.why) == (state, why):
                return
            self._link_state = Link(self.clock(), state, why)
            self._dispatch(self._link_state)

    # --- life cycle ---------------------------------------------------------------------------
    def start(self) -> None:
        """Start the reader and writer threads (frames() and presses() do it themselves)."""
        with self._lock:
            if self._threads or self.refused is not None:
                return
            self._stop.clear()
            self._outbox = queue.SimpleQueue()  # nothing left over from before a close()
            self._wake_r, self._wake_w = os.pipe()
            for fd in (self._wake_r, self._wake_w):
                os.set_blocking(fd, False)
            self._threads = [threading.Thread(target=self._read_loop, name="reedboard-serial-reader", daemon=True),
                             threading.Thread(target=self._write_loop, name="reedboard-serial-writer", daemon=True)]
            for thread in self._threads:
                thread.start()

    def close(self) -> None:
        """Stop the threads, close the port and end every iterator."""
        self._stop.set()
        self._outbox.put(None)
        self._wake()
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=2.0)
        self._threads = []
        self._close_port()
        for fd in (self._wake_r, self._wake_w):
            if fd >= 0:
                os.close(fd)
        self._wake_r = self._wake_w = -1
        with self._lock:
            for sub in list(self._subscribers):
                self._deliver(sub, _CLOSED)

    def __enter__(self) -> SerialSwitches:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- Switches and Buttons -----------------------------------------------------------------
    def switches(self) -> AsyncIterator[Switches]:
        """The closed switches, whenever they change (starting with the current ones if in
        step). Raises BoardRefused if the board was refused."""
        return self._stream(Switches)

    def presses(self) -> AsyncIterator[Press]:
        """The button presses. Raises BoardRefused if the board was refused."""
        return self._stream(Press)

    def links(self) -> AsyncIterator[Link]:
        """The link's state now, then every change. A refused board is a lost link here (this
        stream does not raise)."""
        return self._stream(Link)

    async def _stream(self, kind: type) -> AsyncIterator:
        sub = self._subscribe(kind)
        try:
            while True:
                item = await sub.queue.get()
                if item is _CLOSED:
                    return
                if isinstance(item, BoardRefused):
                    raise BoardRefused(str(item))
                yield item
        finally:
            with self._lock:
                if sub in self._subscribers:
                    self._subscribers.remove(sub)

    def _subscribe(self, kind: type) -> _Subscriber:
        self.start()
        sub = _Subscriber(kind, asyncio.get_running_loop(), asyncio.Queue())
        with self._lock:
            refused = self.refused or self._link.refused
            if refused is not None and kind is not Link:
                raise BoardRefused(refused)
            if kind is Switches and self._link.in_step:
                sub.queue.put_nowait(Switches(self.clock(), self._link.sensors))
            if kind is Link:
                sub.queue.put_nowait(self._link_state)
            self._subscribers.append(sub)
        return sub

    def _dispatch(self, item: object) -> None:
        """From the link (on the reader thread, under self._lock): to the iterators."""
        if isinstance(item, Notice):
            log.log(item.level, "%s", item.text)
            return
        if isinstance(item, BoardRefused):
            log.error("%s", item)
        for sub in list(self._subscribers):
            if isinstance(item, sub.kind) or (isinstance(item, BoardRefused) and sub.kind is not Link):
                self._deliver(sub, item)

    def _deliver(self, sub: _Subscriber, item: object) -> None:
        try:
            sub.loop.call_soon_threadsafe(sub.queue.put_nowait, item)
        except RuntimeError:  # its loop is closed: nobody listens any more
            if sub in self._subscribers:
                self._subscribers.remove(sub)

    # --- LEDs, die display, buzzer --------------------------------------------------------------
    def show_leds(self, colours: Sequence[RGB], blinking: Sequence[bool]) -> None:
        self.start()  # the first thing shown opens the link too
        payload = leds_payload(colours, blinking, self.board)
        with self._show_lock:
            self._last_lights = payload
            self._send("L", payload)

    def show_die(self, state: DieState) -> None:
        self.start()
        payload = die_payload(state)
        with self._show_lock:
            self._last_die = payload
            self._send("D", payload)

    def play(self, cue: Cue) -> None:
        self.start()
        self._send("Z", Cue(cue).value)

    # --- doctor ---------------------------------------------------------------------------------
    def probe(self, timeout: float = 3.0) -> frozenset[int]:
        """Open the port, greet the board and wait for its H and S: the closed switches.
        Raises SerialBoardError (BoardRefused for a board of another version) saying what was
        tried. With the threads running, waits for them to be in step instead."""
        if self._threads:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and not self.in_step and self.refused is None:
                time.sleep(0.02)
            if self.refused is not None:
                raise BoardRefused(self.refused)
            if not self.in_step:
                raise SerialBoardError(f"{self._name(self.device or self.port)}: not in step with the board "
                                       f"after {timeout:g} s ({self._describe(self.stats, self.connected, self._link)})")
            return self.closed
        port = self._resolve(raise_if_missing=True)
        try:
            ser = self._factory(port, baudrate=self.line.baudrate, timeout=READ_TIMEOUT,
                                write_timeout=WRITE_TIMEOUT)
        except Exception as error:
            raise SerialBoardError(f"cannot open {port}: {error}") from None
        stats = Stats()
        seq = SeqCounter()

        def send(type: str, payload: str) -> None:
            ser.write(encode(type, seq.next(), payload))

        link = HostLink(self.board, send, lambda item: None, stats=stats, name=self._name(port))
        splitter = LineSplitter()
        heard = greetings = 0
        try:
            try:
                start = self._timer()
                deadline = start + timeout
                while (now := self._timer()) < deadline:
                    # noise may spoil a greeting or the hello: greet again until the board says H
                    if not link.greeted and greetings < GREETINGS and now >= start + greetings * timeout / GREETINGS:
                        ser.write(b"\n" + encode("V", seq.next(), str(VERSION)))
                        greetings += 1
                    data = ser.read(getattr(ser, "in_waiting", 0) or 1)
                    heard += len(data)
                    for raw in splitter.feed(data):
                        link.feed(raw, self.clock())
                        if link.refused is not None:
                            raise BoardRefused(link.refused)
                        if link.in_step:
                            self._link.hello = link.hello
                            return link.sensors
            except SerialBoardError:
                raise
            except Exception as error:
                raise SerialBoardError(f"{port} failed while talking to the board: {error}") from None
        finally:
            try:
                ser.close()
            except Exception:
                pass
        stats.lines_bad += splitter.overlong
        times = "once" if greetings == 1 else f"{greetings} times"
        what = (f"opened {port} at {self.line.baudrate} baud and sent V {VERSION} ({times}), but in {timeout:g} s "
                + ("heard nothing: is the Pico running the reedboard firmware?" if heard == 0 else
                   self._describe(stats, True, link)))
        raise SerialBoardError(what)

    @staticmethod
    def _describe(stats: Stats, connected: bool, link: HostLink | None = None) -> str:
        if not connected:
            return "the port is not open"
        if stats.lines_ok == 0:
            return (f"heard {stats.lines_bad} bad line(s) and no valid one: another program or firmware "
                    "on this port, or a noisy cable?")
        if link is not None and not link.greeted:
            return f"heard {stats.lines_ok} valid line(s) but no H (hello)"
        return f"heard {stats.lines_ok} valid line(s) but no S (the full state) after H"

    def _resolve(self, raise_if_missing: bool = False) -> str | None:
        if self.port != "auto":
            return self.port
        port = find_port()
        if port is None and raise_if_missing:
            seen = ", ".join(f"{p.device} ({getattr(p, 'description', '') or 'no description'}, "
                             + (f"vendor id {p.vid:04x})" if getattr(p, "vid", None) is not None else "not USB)")
                             for p in _comports())
            raise SerialBoardError("no Raspberry Pi Pico found on USB (looked for vendor id "
                                   f"{PICO_VID:04x} among serial ports: {seen or 'none'}); "
                                   "plug it in or name its port in the board file's [serial] port")
        return port

    @staticmethod
    def _name(port: str) -> str:
        return "the board on an automatically found port" if port == "auto" else f"the board on {port}"

    # --- the threads --------------------------------------------------------------------------
    def _send(self, type: str, payload: str) -> None:
        self._outbox.put((type, payload))

    def _write_loop(self) -> None:
        while not self._stop.is_set():
            item = self._outbox.get()
            if item is None:
                return
            type, payload = item
            with self._write_lock:
                ser = self._ser
                if ser is None:
                    continue  # no port: L and D are sent again after the next H
                try:
                    line = encode(type, self._seq.next(), payload)
                except ValueError as error:
                    log.error("cannot send %s: %s", type, error)
                    continue
                if type == "V":  # on a fresh line: noise left on the wire cannot spoil it
                    line = b"\n" + line
                try:
                    ser.write(line)
                except Exception as error:  # the port failed: the reader reconnects
                    log.debug("write failed: %s", error)
                    self._write_failed = True
                    self._wake()
                    continue
                self.stats.lines_sent += 1
                if type == "V":
                    self.stats.greetings += 1

    def reader_went_round(self, timeout: float = 10.0) -> bool:
        """Wake the reader and wait until it has been once round its loop since: it has read
        its timer and queued whatever that called for (a greeting). For whoever moves the timer
        (tests). False if it did not within `timeout` seconds."""
        with self._round:
            began = self._rounds
            for rounds in (began + 1, began + 2):  # the round under way may have read the timer before
                self._wake()  # ... and the next one may be asleep in its select
                if not self._round.wait_for(lambda: self._rounds >= rounds, timeout):
                    return False
        return True

    def _read_loop(self) -> None:
        splitter = LineSplitter()
        lost = False  # the port failed before: the next open is a reconnect
        while not self._stop.is_set():
            with self._round:
                self._rounds += 1
                self._round.notify_all()
            if self._ser is None:
                if not self._open(reconnect=lost):
                    self._stop.wait(self._retry)
                    continue
                splitter.clear()
            ser = self._ser
            try:
                data = ser.read(getattr(ser, "in_waiting", 0) or 1) if self._wait(ser) else b""
            except Exception as error:  # SerialException, OSError, ... : the port is gone
                data = None
                self._lose(f"read failed: {error}")
            if data is None or self._write_failed:
                if data is not None:
                    self._lose("write failed")
                lost = True
                self._stop.wait(self._retry)
                continue
            if data:
                self._take(splitter, data)
                if self._link.refused is not None:
                    self._refuse(self._link.refused)
                    return
            now = self._timer()
            if ((not self._link.greeted or now - self._heard >= self._silence)
                    and now - self._greeted_at >= self._silence):
                self._greet()
            self._watch(now)

    def _wait(self, ser) -> bool:
        """Sleep until the port has bytes, the next deadline (a greeting, a silence) or a wake-up;
        True when the port should be read now."""
        try:
            fd = ser.fileno()
        except Exception:  # a port without a descriptor: its read's short timeout paces the loop
            return True
        now = self._timer()
        due = [t + self._silence - now for t in (self._heard, self._greeted_at, self._opened_at)]
        timeout = min([d for d in due if d > 0] + [IDLE_WAIT])
        try:
            ready, _, _ = select.select([fd, self._wake_r], [], [], timeout)
        except (OSError, ValueError):  # a descriptor is gone: reading says what became of the port
            return not self._stop.is_set()
        if self._wake_r in ready:
            try:
                while os.read(self._wake_r, 64):
                    pass
            except OSError:  # emptied
                pass
        return fd in ready

    def _wake(self) -> None:
        """Wake the reader from its select (to stop, or to notice a failed write)."""
        try:
            os.write(self._wake_w, b"!")
        except OSError:  # the pipe is full (it will wake anyway) or closed
            pass

    def _watch(self, now: float) -> None:
        """The link from what was heard: an open port is connected from the board's H, and lost
        after a silence (no valid line, or no H after the port was opened)."""
        if self._link.refused is not None:
            return
        if self._link.greeted:
            if now - self._heard < self._silence:
                self._set_link(LinkState.CONNECTED)
            else:
                self._set_link(LinkState.LOST, "silent")
        elif now - self._opened_at >= self._silence:
            self._set_link(LinkState.LOST, "silent")

    def _take(self, splitter: LineSplitter, data: bytes) -> None:
        overlong = splitter.overlong
        lines = splitter.feed(data)
        read_at = self._timer()  # heard when read: a frame it gives may be seen before feed() returns
        with self._lock:
            self.stats.lines_bad += splitter.overlong - overlong
            for raw in lines:
                try:
                    heard = self._link.feed(raw, self.clock())
                except Exception:  # a bug in the link must not kill the reader
                    log.exception("dropped a line that broke the protocol handler: %r", raw[:80])
                    self.stats.lines_bad += 1
                    continue
                if heard:
                    self._heard = read_at
                if self._link.refused is not None:
                    return

    def _open(self, reconnect: bool) -> bool:
        port = self._resolve()
        if port is None:
            self._note_open_error("no Raspberry Pi Pico found on USB (vendor id 2e8a)")
            return False
        try:
            ser = self._factory(port, baudrate=self.line.baudrate, timeout=READ_TIMEOUT,
                                write_timeout=WRITE_TIMEOUT)
        except Exception as error:
            self._note_open_error(f"cannot open {port}: {error}")
            return False
        with self._write_lock:
            self._ser = ser
            self._write_failed = False
        self._open_error = None
        self._opened_at = self._timer()
        self.device = port
        self.connected = True
        self._link.name = self._name(port)
        if reconnect:
            self.stats.reconnects += 1
            log.warning("%s is back", self._link.name)
        self._greeting = f"{VERSION} {AGE}"  # another board, maybe
        with self._lock:
            self._link.reset()
        self._heard = self._timer()
        self._greet()
        return True

    def _note_open_error(self, message: str) -> None:
        self._set_link(LinkState.LOST, "unplugged")
        if message != self._open_error:  # once per outage, not every half second
            log.warning("%s; trying again every %g s", message, self._retry)
            self._open_error = message

    def _greet(self) -> None:
        self._greeted_at = self._timer()
        self._send("V", self._greeting)

    def _hello(self, hello: Hello) -> None:
        """The board said H (it may have rebooted): show it what it showed before."""
        if AGE not in hello.options:
            self._greeting = str(VERSION)
        with self._show_lock:
            if self._last_lights is not None:
                self._send("L", self._last_lights)
            if self._last_die is not None:
                self._send("D", self._last_die)

    def _lose(self, why: str) -> None:
        log.warning("%s vanished (%s); trying to open it again every %g s", self._link.name, why, self._retry)
        self._close_port()
        with self._lock:
            self._link.reset()
        self._set_link(LinkState.LOST, "unplugged")

    def _close_port(self) -> None:
        with self._write_lock:
            ser, self._ser = self._ser, None
            self._write_failed = False
        self.connected = False
        if ser is not None:
            try:
                ser.close()
            except Exception:
                pass
        while True:  # what was queued for the old port is dropped (L and D are kept to resend)
            try:
                item = self._outbox.get_nowait()
            except queue.Empty:
                break
            if item is None:
                self._outbox.put(None)
                break

    def _refuse(self, message: str) -> None:
        self.refused = message
        self._stop.set()
        self._outbox.put(None)
        self._close_port()
        self._set_link(LinkState.LOST, "refused")


class SerialBoard(LinkedCellBoard):
    """The cell-level board behind a Pico (the arguments are SerialSwitches'). What only this
    backend has (stats, in_step, firmware, probe(), start(), ...) is its SerialSwitches'."""

    def __init__(self, board: Board, port: str | None = None, **options) -> None:
        super().__init__(board, SerialSwitches(board, port, **options))

    @property
    def occupied(self) -> frozenset[str]:
        """The occupied cells as last known; the board's own only while `in_step`."""
        return self.cells_of(self.addresses.closed)

    def probe(self, timeout: float = 3.0) -> frozenset[str]:
        """SerialSwitches.probe, in cells."""
        return self.cells_of(self.addresses.probe(timeout))

    def __enter__(self) -> SerialBoard:
        self.addresses.start()
        return self

    def __getattr__(self, name: str):
        if name.startswith("__") or name == "addresses":
            raise AttributeError(name)
        return getattr(self.addresses, name)
