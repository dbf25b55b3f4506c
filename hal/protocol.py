"""The host's side of the reedboard serial protocol, version 1 (firmware/PROTOCOL.md).

Written from PROTOCOL.md, independently of the firmware's code, so that the two can be
checked against each other and against firmware/protocol_vectors.json. Pure: no I/O.

A line is `TYPE SEQ[ PAYLOAD]*CRC\\n`: one upper-case letter, two lower-case hex digits, fields
of printable ASCII (no `*`) separated by single spaces, and a CRC-8 (poly 0x07, init 0, no
reflection, no final xor) of everything before the `*`, in two lower-case hex digits; at most
1024 bytes with the newline; a `\\r` before the newline is ignored. `decode` returns None for any
line that breaks a rule and never raises, whatever bytes it is given.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass

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
