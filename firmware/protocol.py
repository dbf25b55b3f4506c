# The reedboard serial protocol, version 1 (see PROTOCOL.md beside this file).
#
# Lines look like "TYPE SEQ[ PAYLOAD]*CRC\n". This module builds and checks them and knows
# nothing about hardware, so it runs the same under MicroPython and CPython.

VERSION = 1  # the protocol version spoken
MAX_LINE = 1024  # bytes, with the "\n"

HEX = "0123456789abcdef"
_HEX_ANY_CASE = "0123456789abcdefABCDEF"
_HEX_BYTES = b"0123456789abcdef"


def _crc_table():
    table = bytearray(256)
    for i in range(256):
        crc = i
        for _ in range(8):
            if crc & 0x80:
                crc = ((crc << 1) ^ 0x07) & 0xFF
            else:
                crc = (crc << 1) & 0xFF
        table[i] = crc
    return bytes(table)


_CRC = _crc_table()  # the CRC-8 of each byte value: one look-up a byte instead of eight shifts


def crc8(data, crc=0, start=0, end=None):
    """CRC-8: polynomial 0x07, initial value 0, no reflection, no final xor. Over data[start:end]
    from `crc` on, so that a long line can be taken a piece at a time."""
    if isinstance(data, str):
        data = data.encode()
    if end is None:
        end = len(data)
    table = _CRC
    for i in range(start, end):
        crc = table[crc ^ data[i]]
    return crc


def _printable_crc(line, start, end, crc):
    """crc8 over line[start:end], raising BadLine for a control or non-ASCII byte."""
    table = _CRC
    for i in range(start, end):
        byte = line[i]
        if byte < 0x20 or byte > 0x7E:
            raise BadLine("control or non-ASCII byte")
        crc = table[crc ^ byte]
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


def put_hex(buf, at, value):
    """Put `value` (0-255) into the bytearray buf at `at` as two lower-case hex digits."""
    buf[at] = _HEX_BYTES[(value >> 4) & 15]
    buf[at + 1] = _HEX_BYTES[value & 15]


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
    steps = parsing(line)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def parsing(line, piece=MAX_LINE):
    """parse() a piece at a time: a generator that yields after each `piece` bytes it has
    checked and returns (TYPE, SEQ, FIELDS), so that a long line never holds up the scan."""
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
    star = line.find(b"*", 0, end)
    crc = 0
    at = 0
    last = end if star < 0 else star
    while at < last:  # every byte printable, and the CRC of the body
        upto = min(at + piece, last)
        crc = _printable_crc(line, at, upto, crc)
        at = upto
        if at < last or last > piece:
            yield
    if star < 0:
        raise BadLine("no crc")
    _printable_crc(line, star + 1, end, 0)
    if line.find(b"*", star + 1, end) >= 0:
        raise BadLine("star in payload")
    text = line[:end].decode()
    body = text[:star]
    digits = text[star + 1:]
    if len(digits) != 2 or not is_hex(digits):
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
    if int(digits, 16) != crc:
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
    out = bytearray(digits)
    hexes = _HEX_BYTES
    full = count // 4
    for d in range(full):  # d = 0 is the least significant digit, the last one written
        i = d * 4
        out[digits - 1 - d] = hexes[(1 if bits[i] else 0) | (2 if bits[i + 1] else 0)
                                    | (4 if bits[i + 2] else 0) | (8 if bits[i + 3] else 0)]
    if full < digits:
        nibble = 0
        for b in range(count - full * 4):
            if bits[full * 4 + b]:
                nibble |= 1 << b
        out[0] = hexes[nibble]
    return out.decode()


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
