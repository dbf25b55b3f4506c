# The reedboard serial protocol, version 1 (see PROTOCOL.md beside this file).
#
# Lines look like "TYPE SEQ[ PAYLOAD]*CRC\n". This module builds and checks them and knows
# nothing about hardware, so it runs the same under MicroPython and CPython.

VERSION = 1  # the protocol version spoken
MAX_LINE = 1024  # bytes, with the "\n"

HEX = "0123456789abcdef"
_HEX_ANY_CASE = "0123456789abcdefABCDEF"


def crc8(data):
    """CRC-8: polynomial 0x07, initial value 0, no reflection, no final xor."""
    if isinstance(data, str):
        data = data.encode()
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            if crc & 0x80:
                crc = ((crc << 1) ^ 0x07) & 0xFF
            else:
                crc = (crc << 1) & 0xFF
    return crc


def is_hex(text, lower_only=True):
    """True for one or more hex digits (lower case only, unless told otherwise)."""
    if not text:
        return False
    digits = HEX if lower_only else _HEX_ANY_CASE
    for c in text:
        if c not in digits:
            return False
    return True


def encode(kind, seq, fields=()):
    """The whole line, "\\n" included, for a type letter, a sequence number (0-255) and
    a list of payload fields (strings without spaces, or one free-text field for E)."""
    body = kind + " " + HEX[(seq >> 4) & 15] + HEX[seq & 15]
    if fields:
        body = body + " " + " ".join(fields)
    return body + "*" + ("%02x" % crc8(body)) + "\n"


class BadLine(ValueError):
    """A line that breaks the framing rules: dropped and counted, never answered."""


def parse(line):
    """(TYPE, SEQ, FIELDS) of a whole received line ("\\n" included, a "\\r" before it
    allowed); raises BadLine naming the broken rule."""
    if isinstance(line, str):
        line = line.encode()
    if len(line) == 0:
        raise BadLine("empty")
    if len(line) > MAX_LINE:
        raise BadLine("too long")
    if line[-1] != 10:
        raise BadLine("no newline")
    end = len(line) - 1
    if end > 0 and line[end - 1] == 13:
        end -= 1
    stars = 0
    star = -1
    for i in range(end):
        byte = line[i]
        if byte < 0x20 or byte > 0x7E:
            raise BadLine("control or non-ASCII byte")
        if byte == 42:  # "*"
            stars += 1
            star = i
    if stars == 0:
        raise BadLine("no crc")
    if stars > 1:
        raise BadLine("star in payload")
    text = line[:end].decode()
    body = text[:star]
    crc = text[star + 1:]
    if len(crc) != 2 or not is_hex(crc):
        raise BadLine("crc not two lower-case hex digits")
    if len(body) < 4:
        raise BadLine("too short")
    kind = body[0]
    if not ("A" <= kind <= "Z"):
        raise BadLine("type not an upper-case letter")
    if body[1] != " ":
        raise BadLine("no space after type")
    seq = body[2:4]
    if not is_hex(seq):
        raise BadLine("seq not two lower-case hex digits")
    fields = []
    if len(body) > 4:
        if body[4] != " ":
            raise BadLine("seq not two lower-case hex digits")
        fields = body[5:].split(" ")
        for field in fields:
            if not field:
                raise BadLine("fields not separated by one space")
    if int(crc, 16) != crc8(body):
        raise BadLine("bad crc")
    return kind, int(seq, 16), fields


def decode(line):
    """(TYPE, SEQ, FIELDS) of a good line, None for a bad one."""
    try:
        return parse(line)
    except BadLine:
        return None


class Seq:
    """The numbers of the lines one side sends: 0, 1, ... 255, 0, ..."""

    def __init__(self, start=0):
        self.value = start & 0xFF

    def next(self):
        value = self.value
        self.value = (value + 1) & 0xFF
        return value


def bitmap(bits, count):
    """Hex, most significant digit first, exactly ceil(count/4) digits: bit i is bits[i]
    (anything true = 1)."""
    digits = (count + 3) // 4
    out = []
    for d in range(digits - 1, -1, -1):  # the most significant digit first
        nibble = 0
        for b in range(3, -1, -1):
            i = d * 4 + b
            nibble <<= 1
            if i < count and bits[i]:
                nibble |= 1
        out.append(HEX[nibble])
    return "".join(out)


def parse_bitmap(text, count):
    """The bits (a bytearray of 0/1) of a hex bitmap of `count` bits; raises ValueError
    when it has not exactly ceil(count/4) hex digits or sets a bit beyond `count`."""
    digits = (count + 3) // 4
    if len(text) != digits or not is_hex(text, lower_only=False):
        raise ValueError("%d hex digits expected" % digits)
    bits = bytearray(count)
    for k in range(digits):
        nibble = int(text[digits - 1 - k], 16)
        for b in range(4):
            if nibble & (1 << b):
                i = k * 4 + b
                if i >= count:
                    raise ValueError("bit %d set beyond %d" % (i, count))
                bits[i] = 1
    return bits


class LineReader:
    """Cuts a byte stream into whole lines ("\\n" included). A line longer than MAX_LINE is
    not kept in memory: it comes out as its first MAX_LINE + 1 bytes (so that parse calls it
    too long)."""

    def __init__(self):
        self._buf = bytearray()
        self._overflow = False

    def feed(self, data):
        """The complete lines in `data` (bytes or str) after what came before."""
        if isinstance(data, str):
            data = data.encode()
        lines = []
        start = 0
        while True:
            nl = data.find(b"\n", start)
            if nl < 0:
                self._add(data[start:])
                return lines
            self._add(data[start:nl + 1])
            lines.append(bytes(self._buf))
            self._buf = bytearray()
            self._overflow = False
            start = nl + 1

    def _add(self, chunk):
        if self._overflow:
            return
        room = MAX_LINE + 1 - len(self._buf)
        if len(chunk) > room:
            chunk = chunk[:room]
            self._overflow = True
        self._buf.extend(chunk)
