"""The host's side of the reedboard serial protocol, version 1 (firmware/PROTOCOL.md).

Written from PROTOCOL.md, independently of the firmware's code, so that the two can be
checked against each other and against firmware/protocol_vectors.json. Pure: no I/O.

HostLink, at the end, is the host's side of a conversation: the protocol's state machine
(greeting, keeping in step with the board's sequence numbers, asking for the whole state).
The serial backend (hal.serial_board) does the I/O around it.

A line is `TYPE SEQ[ PAYLOAD]*CRC\\n`: one upper-case letter, two lower-case hex digits, fields
of printable ASCII (no `*`) separated by single spaces, and a CRC-8 (poly 0x07, init 0, no
reflection, no final xor) of everything before the `*`, in two lower-case hex digits; at most
1024 bytes with the newline; a `\\r` before the newline is ignored. `decode` returns None for any
line that breaks a rule and never raises, whatever bytes it is given.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .addresses import Switches
from .interfaces import Button, Press

VERSION = 1
MAX_LINE = 1024  # bytes, with the newline
BOARD_TYPES = frozenset("HSCBE")  # lines the board sends
HOST_TYPES = frozenset("VLDZR")  # lines the host sends

_HEX = frozenset(b"0123456789abcdef")
_UPPER = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _crc_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        table.append(crc)
    return tuple(table)


_TABLE = _crc_table()


def crc8(data: bytes | str) -> int:
    """CRC-8: polynomial 0x07, initial value 0x00, no reflection, no final xor."""
    if isinstance(data, str):
        data = data.encode("ascii")
    crc = 0
    for byte in data:
        crc = _TABLE[crc ^ byte]
    return crc


@dataclass(frozen=True)
class Line:
    """One well-formed line: its type letter, its sequence number and its payload's fields."""

    type: str
    seq: int
    fields: tuple[str, ...] = ()

    @property
    def payload(self) -> str:
        return " ".join(self.fields)


def encode(type: str, seq: int, payload: str | Iterable[str] = "") -> bytes:
    """The line for a message, with its CRC and newline. `payload` is the text after the
    sequence number (fields separated by single spaces) or the fields themselves.
    Raises ValueError for a message that would make a bad line (a programming error)."""
    if isinstance(payload, str):
        text = payload
        fields = payload.split(" ") if payload else []
    else:
        fields = list(payload)
        text = " ".join(fields)
    if len(type) != 1 or not ("A" <= type <= "Z"):
        raise ValueError(f"a line's type is one upper-case letter, not {type!r}")
    if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= 0xFF:
        raise ValueError(f"a line's sequence number is 0..255, not {seq!r}")
    if any(not field for field in fields):
        raise ValueError(f"empty field in payload {text!r} (fields are separated by one space)")
    if any(not (0x20 <= ord(ch) <= 0x7E) or ch == "*" for ch in text):
        raise ValueError(f"payload {text!r} is not printable ASCII without '*'")
    body = f"{type} {seq:02x}" + (f" {text}" if text else "")
    line = f"{body}*{crc8(body):02x}\n".encode("ascii")
    if len(line) > MAX_LINE:
        raise ValueError(f"a line is at most {MAX_LINE} bytes with its newline, not {len(line)}")
    return line


def decode(line: bytes | bytearray | str) -> Line | None:
    """The line's message, or None if the line breaks any rule of the protocol (never raises).
    `line` is one whole line with its newline, as read from the port."""
    try:
        return _decode(line)
    except Exception:  # belt and braces: a codec on a noisy cable must never raise
        return None


def _decode(line: bytes | bytearray | str) -> Line | None:
    if isinstance(line, str):
        try:
            line = line.encode("ascii")
        except UnicodeEncodeError:
            return None
    if not isinstance(line, (bytes, bytearray)):
        return None
    raw = bytes(line)
    if len(raw) > MAX_LINE or not raw.endswith(b"\n"):
        return None
    raw = raw[:-1]
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    # TYPE SP SEQ SEQ ... '*' CRC CRC: at least 7 bytes ("R 14*f3")
    if len(raw) < 7 or raw[-3] != 0x2A:  # '*'
        return None
    body, crc_text = raw[:-3], raw[-2:]
    if any(b < 0x20 or b > 0x7E for b in body):
        return None
    if body[0] not in _UPPER or body[1] != 0x20:
        return None
    if body[2] not in _HEX or body[3] not in _HEX:
        return None
    if crc_text[0] not in _HEX or crc_text[1] not in _HEX:
        return None
    if 0x2A in body:  # a star in the payload
        return None
    if len(body) > 4:
        if body[4] != 0x20 or len(body) == 5:
            return None
        fields = body[5:].split(b" ")
        if any(not field for field in fields):  # two spaces in a row, or a trailing space
            return None
    else:
        fields = []
    if crc8(body) != int(crc_text, 16):
        return None
    return Line(chr(body[0]), int(body[2:4], 16), tuple(f.decode("ascii") for f in fields))


class SeqCounter:
    """The sequence numbers of the lines one side sends: 0, 1, ... 255, 0, ... (thread-safe)."""

    def __init__(self, start: int = 0) -> None:
        self._next = start & 0xFF
        self._lock = threading.Lock()

    def next(self) -> int:
        with self._lock:
            seq = self._next
            self._next = (seq + 1) & 0xFF
            return seq

    def peek(self) -> int:
        return self._next


def after(seq: int) -> int:
    """The sequence number that follows `seq`."""
    return (seq + 1) & 0xFF


# --- bitmaps (S's sensors, L's blinking LEDs) -------------------------------------------------

def bitmap_digits(bits: int) -> int:
    """How many hex digits a bitmap of `bits` bits has: ceil(bits / 4)."""
    return (bits + 3) // 4


def encode_bitmap(indices: Iterable[int], bits: int) -> str:
    """Bit i set for each index i, in hex, most significant digit first, ceil(bits/4) digits."""
    value = 0
    for index in indices:
        if not 0 <= index < bits:
            raise ValueError(f"bit {index} is outside a bitmap of {bits} bits")
        value |= 1 << index
    digits = bitmap_digits(bits)
    return f"{value:0{digits}x}" if digits else ""


def decode_bitmap(text: str, bits: int) -> frozenset[int] | None:
    """The set bits of a bitmap of `bits` bits, or None if it has the wrong number of digits or
    a character that is not a hex digit. Bits beyond `bits` (padding in the top digit) are
    ignored. Upper-case digits are accepted here (PROTOCOL.md forbids them only in SEQ and CRC)."""
    if len(text) != bitmap_digits(bits) or any(ch not in "0123456789abcdefABCDEF" for ch in text):
        return None
    value = int(text, 16) if text else 0
    return frozenset(i for i in range(bits) if value >> i & 1)


def split_lines(buffer: bytes) -> tuple[list[bytes], bytes]:
    """Whole lines (each with its newline) at the front of `buffer`, and the rest."""
    *lines, rest = buffer.split(b"\n")
    return [line + b"\n" for line in lines], rest


class LineSplitter:
    """Bytes from the port in, whole lines out. A run of more than MAX_LINE bytes without a
    newline is thrown away up to the next newline and reported once as an overlong line, so a
    cable spewing garbage cannot grow the buffer without bound."""

    def __init__(self) -> None:
        self._buffer = b""
        self._skipping = False
        self.overlong = 0  # lines thrown away for being too long

    def feed(self, data: bytes) -> list[bytes]:
        out: list[bytes] = []
        buffer = self._buffer + data
        while True:
            end = buffer.find(b"\n")
            if end < 0:
                break
            line, buffer = buffer[: end + 1], buffer[end + 1 :]
            if self._skipping:
                self._skipping = False
                continue
            out.append(line)
        if len(buffer) >= MAX_LINE:  # no room left for a newline within the limit
            if not self._skipping:
                self.overlong += 1
            self._skipping = True
            buffer = b""
        self._buffer = buffer
        return out

    def clear(self) -> None:
        self._buffer = b""
        self._skipping = False


# --- the host's state machine -----------------------------------------------------------------------

REQUEST_EVERY = 1.0  # s: while out of step, R at most this often
AGE = "age"  # the option that makes C lines say how old their changes are (PROTOCOL.md, Options)

_INDEX = re.compile(r"([0-9]{1,5})([+-])")
_AGE = re.compile(r"@([0-9]{1,5})")
_NUMBER = re.compile(r"[0-9]{1,5}")
_BUTTONS = {"die": Button.DIE, "ok": Button.OK}
_KINDS = {"short": False, "long": True}


@dataclass(frozen=True)
class Notice:
    """Something for the log, at `level`: the I/O side writes it."""

    level: int
    text: str


class SerialBoardError(RuntimeError):
    """The board on the serial port cannot be used; the message says what was tried."""


class BoardRefused(SerialBoardError):
    """The board answered, but speaks another protocol version or describes another board."""


@dataclass
class Stats:
    lines_ok: int = 0  # well-formed lines from the board
    lines_bad: int = 0  # lines dropped for breaking a rule (format, CRC, payload, length)
    gaps: int = 0  # times a sequence number was skipped (lines lost)
    duplicates: int = 0  # lines dropped for repeating the last accepted sequence number
    reconnects: int = 0  # times the port was opened again after it failed
    requests: int = 0  # R lines sent
    greetings: int = 0  # V lines sent
    lines_sent: int = 0  # lines written to the port
    board_errors: int = 0  # E lines: the board could not obey a line


@dataclass(frozen=True)
class Hello:
    """What the board said in its H line."""

    version: str
    firmware: str
    rows: int
    columns: int
    leds: int
    options: tuple[str, ...] = ()  # what the V it answers turned on




class HostLink:
    """The host's side of the protocol, pure (no I/O, no clock: each line comes with its
    time): lines from the board in (feed), lines to the board out (`send(type, payload)`),
    and Switches, Presses, Notices and a BoardRefused out (`emit`).

    `board` is what the board file says of the board: anything with rows, columns, led_count
    and source. The link keeps the board's closed switches from S and C lines, and is
    `in_step` only while they are the board's: Switches are emitted only then, and only
    when they changed. A C line that says how old its changes are (the age option) stamps
    them with when they most likely happened, never earlier than the Switches before."""

    def __init__(self, board, send: Callable[[str, str], object],
                 emit: Callable[[object], object], *, stats: Stats | None = None,
                 on_hello: Callable[[Hello], object] | None = None, name: str = "the board",
                 request_every: float = REQUEST_EVERY) -> None:
        self.board = board
        self.sensor_count = board.rows * board.columns
        self._send = send
        self._emit = emit
        self._on_hello = on_hello
        self.stats = stats if stats is not None else Stats()
        self.name = name
        self._request_every = request_every
        self.sensors: frozenset[int] = frozenset()  # the board's occupied sensors, as last known
        self.emitted: frozenset[int] | None = None  # the closed switches last emitted
        self.stamped = float("-inf")  # the time of the Switches last emitted
        self.hello: Hello | None = None
        self.refused: str | None = None
        self.last_error: str | None = None  # the text of the last E line
        self.reset()

    def reset(self) -> None:
        """A new connection: nothing is trusted until the board has said H and then S."""
        self.greeted = False
        self.in_step = False
        self.last_seq: int | None = None
        self._last_request: float | None = None

    def feed(self, raw: bytes, t: float) -> bool:
        """One line from the board (with its newline), received at `t`. True if it was a valid
        line (the board was heard), False if it was dropped as bad. Never raises."""
        if self.refused is not None:
            return False
        line = decode(raw)
        content = None if line is None else self._check(line)
        if content is None:
            self.stats.lines_bad += 1
            return False
        self.stats.lines_ok += 1
        if line.type == "H":
            self._hello(line, content)
            return True
        if not self.greeted:  # heard, but not trusted before this connection's H
            return True
        gap = False
        if self.last_seq is not None:
            if line.seq == self.last_seq:
                self.stats.duplicates += 1
                return True
            gap = line.seq != after(self.last_seq)
        self.last_seq = line.seq
        if gap:
            self.stats.gaps += 1
        if line.type == "S":  # the whole state: in step again, whatever came before
            self.sensors = content
            self.in_step = True
            self._last_request = None
            self._emit_if_changed(t)
            return True
        if gap:  # a line was lost: it may have been a C
            self.in_step = False
        if line.type == "C":
            if self.in_step:
                changes, age = content
                sensors = set(self.sensors)
                for index, occupied in changes:
                    if occupied:
                        sensors.add(index)
                    else:
                        sensors.discard(index)
                self.sensors = frozenset(sensors)
                self._emit_if_changed(t - age)
        elif line.type == "B":
            button, long = content
            self._emit(Press(t, button, long))
        elif line.type == "E":
            self.stats.board_errors += 1
            level = logging.DEBUG if line.payload == self.last_error else logging.WARNING  # no floods
            self.last_error = line.payload
            self._emit(Notice(level, f"{self.name} could not obey a line: {line.payload}"))
        if not self.in_step:
            self._request(t)
        return True

    def _check(self, line: Line):
        """The line's content if its payload is right for its type, else None (a bad line)."""
        fields = line.fields
        if line.type == "S":
            return decode_bitmap(fields[0], self.sensor_count) if len(fields) == 1 else None
        if line.type == "C":  # (changes, age in seconds)
            age = _AGE.fullmatch(fields[-1]) if fields else None
            if age is not None:
                fields = fields[:-1]
            changes = []
            for field in fields:
                match = _INDEX.fullmatch(field)
                if match is None or int(match[1]) >= self.sensor_count:
                    return None
                changes.append((int(match[1]), match[2] == "+"))
            return (changes, int(age[1]) / 1000 if age else 0.0) if changes else None
        if line.type == "B":
            if len(fields) != 2 or fields[0] not in _BUTTONS or fields[1] not in _KINDS:
                return None
            return _BUTTONS[fields[0]], _KINDS[fields[1]]
        if line.type == "E":
            return fields
        if line.type == "H":
            if not fields:
                return None
            if fields[0] != str(VERSION):  # another version: its other fields are its own business
                return Hello(fields[0], fields[1] if len(fields) > 1 else "?", 0, 0, 0)
            if len(fields) < 5 or not all(_NUMBER.fullmatch(f) for f in fields[2:5]):
                return None
            return Hello(fields[0], fields[1], int(fields[2]), int(fields[3]), int(fields[4]), fields[5:])
        return None  # the host's own types (an echo?) or unknown ones

    def _hello(self, line: Line, hello: Hello) -> None:
        board = self.board
        if hello.version != str(VERSION):
            self._refuse(f"{self.name}: the board speaks protocol version {hello.version} (firmware "
                         f"{hello.firmware}) and this controller speaks version {VERSION}: "
                         "flash the firmware that matches this controller, or update the controller")
            return
        if (hello.rows, hello.columns) != (board.rows, board.columns):
            self._refuse(f"{self.name}: the board's firmware ({hello.firmware}) scans a "
                         f"{hello.rows}x{hello.columns} matrix but {board.source} says "
                         f"{board.rows}x{board.columns}: configure the firmware or the board file so they agree")
            return
        if hello.leds != board.led_count and (self.hello is None or self.hello.leds != hello.leds):
            self._emit(Notice(logging.WARNING, f"{self.name}: the firmware drives {hello.leds} LEDs"
                                               f" but {board.source} says {board.led_count}"))
        self.hello = hello
        self.greeted = True
        self.in_step = False  # until the S that follows H
        self.last_seq = line.seq
        if self._on_hello is not None:
            self._on_hello(hello)

    def _refuse(self, message: str) -> None:
        self.refused = message
        self.in_step = False
        self._emit(BoardRefused(message))

    def _emit_if_changed(self, t: float) -> None:
        if self.emitted is None or self.sensors != self.emitted:
            self.emitted = self.sensors
            self.stamped = max(t, self.stamped)  # an age never takes a change back past the one before
            self._emit(Switches(self.stamped, self.sensors))

    def _request(self, now: float) -> None:
        if self._last_request is None or now - self._last_request >= self._request_every:
            self._last_request = now
            self.stats.requests += 1
            self._send("R", "")
