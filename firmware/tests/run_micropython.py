# The firmware's checks under the MicroPython unix port, without pytest:
#
#   MICROPYPATH=firmware/tests/fakes:firmware micropython firmware/tests/run_micropython.py
#
# (tests/test_firmware_micropython.py runs it so.) The same checks as tests/test_firmware.py
# under CPython. Prints one line per failure and "N passed, M failed"; exits 1 on failures.

import json
import sys

import machine
import neopixel

import app
import protocol
import scanner

CHECKS = []


def check(function):
    CHECKS.append(function)
    return function


def here():
    path = globals().get("__file__", "")
    if "/" in path:
        return path.rsplit("/", 1)[0]
    return "."


def vectors():
    with open(here() + "/../protocol_vectors.json") as f:
        return json.load(f)


# -- rig ----------------------------------------------------------------------------------

PERIOD = 1 << 30  # MicroPython's ticks wrap here


class FakeClock:
    def __init__(self, ms=0):
        self.ms = ms % PERIOD

    def ticks_ms(self):
        return self.ms

    def ticks_diff(self, a, b):
        return ((a - b + PERIOD // 2) & (PERIOD - 1)) - PERIOD // 2

    def ticks_add(self, t, delta):
        return (t + delta) % PERIOD

    def advance(self, ms):
        self.ms = (self.ms + ms) % PERIOD


class Matrix:
    """Row pins driven by the scanner; each column pin reads low while a driven row has a
    magnet (closed switch, with its diode) on that column."""

    def __init__(self, rows, columns):
        self.rows = [machine.Pin(r, machine.Pin.OUT, value=1) for r in range(rows)]
        self.columns = []
        self.magnets = set()  # sensor indices
        for c in range(columns):
            pin = machine.Pin(100 + c, machine.Pin.IN, machine.Pin.PULL_UP)
            pin.source = self._column_reader(c, columns)
            self.columns.append(pin)

    def _column_reader(self, c, columns):
        def level():
            for r, row in enumerate(self.rows):
                if row.value() == 0 and r * columns + c in self.magnets:
                    return 0
            return 1
        return level


class Rig:
    def __init__(self, rows=4, columns=7, leds=36, magnets=(), debounce=3, clock_ms=0):
        self.matrix = Matrix(rows, columns)
        self.matrix.magnets.update(magnets)
        self.scanner = scanner.Scanner(self.matrix.rows, self.matrix.columns, debounce)
        self.leds = neopixel.NeoPixel(machine.Pin(22, machine.Pin.OUT), leds)
        self.pwm = machine.PWM(machine.Pin(20))
        self.die_pin = machine.Pin(18, machine.Pin.IN, machine.Pin.PULL_UP)
        self.ok_pin = machine.Pin(19, machine.Pin.IN, machine.Pin.PULL_UP)
        self.clock = FakeClock(clock_ms)
        self.out = []
        buttons = [app.Button("die", self.die_pin, debounce), app.Button("ok", self.ok_pin, debounce)]
        self.app = app.App(self.scanner, self.leds, self.out.append, self.clock, buttons, self.pwm)

    def lines(self, kinds=None):
        """The decoded lines sent since the last call (only those of `kinds`, if given)."""
        sent = [protocol.decode(line) for line in self.out]
        del self.out[:]
        for line in sent:
            assert line is not None
        if kinds is not None:
            sent = [line for line in sent if line[0] in kinds]
        return sent

    def send(self, kind, seq=0, fields=()):
        self.app.feed(protocol.encode(kind, seq, fields))

    def steps(self, n, ms=5):
        for _ in range(n):
            self.clock.advance(ms)
            self.app.step()


def started(**kw):
    rig = Rig(**kw)
    rig.app.start()
    rig.lines()
    return rig


# -- protocol -----------------------------------------------------------------------------

@check
def crc_check_values():
    for case in vectors()["crc8"]:
        assert "%02x" % protocol.crc8(case["bytes"]) == case["crc"], case


@check
def valid_vectors_decode_as_stated():
    for case in vectors()["lines"]:
        if case["valid"]:
            got = protocol.decode(case["line"])
            assert got == (case["type"], case["seq"], case["fields"]), (case, got)
            got = protocol.decode(case["line"].encode())
            assert got == (case["type"], case["seq"], case["fields"]), (case, got)


@check
def bad_vectors_are_rejected():
    for case in vectors()["lines"]:
        if not case["valid"]:
            assert protocol.decode(case["line"]) is None, case["why"]
            try:
                protocol.parse(case["line"])
            except protocol.BadLine:
                pass
            else:
                assert False, case["why"]


@check
def encode_gives_the_vectors():
    for case in vectors()["lines"]:
        if case["valid"]:
            line = protocol.encode(case["type"], case["seq"], case["fields"])
            assert line == case["line"].replace("\r\n", "\n"), (line, case["line"])


@check
def more_bad_lines():
    good = protocol.encode("S", 1, ["0000003"])
    assert protocol.decode(good) is not None
    bad = [
        "S 01  0000003*" + "%02x" % protocol.crc8("S 01  0000003") + "\n",  # two spaces
        "S 01 0000003 *" + "%02x" % protocol.crc8("S 01 0000003 ") + "\n",  # trailing space
        "S 01 *" + "%02x" % protocol.crc8("S 01 ") + "\n",  # empty payload
        "SS 01*" + "%02x" % protocol.crc8("SS 01") + "\n",  # two-letter type
        "S 01x*" + "%02x" % protocol.crc8("S 01x") + "\n",  # no space after seq
        "S 01 0000003*6\n",  # one crc digit
        "S 01 0000003*677\n",  # three crc digits
        "S 01 0000003*67\r\r\n",  # a second \r
        "S 01 caf\xe9*00\n",  # not ASCII
        "\n",
    ]
    for line in bad:
        assert protocol.decode(line) is None, line


@check
def longest_line_allowed():
    body = "E 00 " + "a" * (protocol.MAX_LINE - 9)
    line = body + "*" + "%02x" % protocol.crc8(body) + "\n"
    assert len(line) == protocol.MAX_LINE
    assert protocol.decode(line) is not None
    body = body + "a"
    line = body + "*" + "%02x" % protocol.crc8(body) + "\n"
    assert protocol.decode(line) is None


@check
def seq_counts_and_wraps():
    seq = protocol.Seq(254)
    assert [seq.next() for _ in range(4)] == [254, 255, 0, 1]


@check
def bitmaps():
    bits = bytearray(28)
    bits[0] = bits[1] = 1
    assert protocol.bitmap(bits, 28) == "0000003"
    bits = bytearray(28)
    bits[27] = 1
    assert protocol.bitmap(bits, 28) == "8000000"
    assert protocol.bitmap(bytearray(80), 80) == "0" * 20
    assert protocol.bitmap([1], 1) == "1"
    assert protocol.bitmap([0, 0, 0, 0, 1], 5) == "10"
    assert list(protocol.parse_bitmap("10", 5)) == [0, 0, 0, 0, 1]
    assert list(protocol.parse_bitmap("1", 2)) == [1, 0]
    for text, count in (("100", 5), ("1", 5), ("20", 5), ("4", 2), ("g", 2), ("", 0 + 1)):
        try:
            protocol.parse_bitmap(text, count)
        except ValueError:
            pass
        else:
            assert False, (text, count)


@check
def line_reader_cuts_lines():
    reader = protocol.LineReader()
    assert reader.feed(b"R 00*") == []
    assert reader.feed("ab\nV 01") == [b"R 00*ab\n"]
    assert reader.feed(b" 1*xx\r\nR") == [b"V 01 1*xx\r\n"]
    long = reader.feed(b"x" * 5000 + b"\nR 00*00\n")
    assert len(long) == 2 and len(long[0]) > protocol.MAX_LINE and long[1] == b"R 00*00\n"
    assert protocol.decode(long[0]) is None


# -- scanner ------------------------------------------------------------------------------

@check
def matrix_reads_the_magnets():
    matrix = Matrix(4, 7)
    matrix.magnets.update((0, 6, 7, 20, 27))
    scan = scanner.Scanner(matrix.rows, matrix.columns)
    assert [i for i, v in enumerate(scan.read()) if v] == [0, 6, 7, 20, 27]
    assert all(row.value() == 1 for row in matrix.rows)  # rows released after the scan
    scan.prime()
    assert scan.occupied() == [0, 6, 7, 20, 27]
    assert scan.scan() == []


@check
def debounce_needs_equal_scans():
    matrix = Matrix(2, 3)
    scan = scanner.Scanner(matrix.rows, matrix.columns, debounce=3)
    scan.prime()
    matrix.magnets.add(4)
    assert scan.scan() == [] and scan.scan() == []
    assert scan.scan() == [(4, True)]
    assert scan.scan() == []
    matrix.magnets.discard(4)  # a bounce: two scans open, then closed again
    assert scan.scan() == [] and scan.scan() == []
    matrix.magnets.add(4)
    assert scan.scan() == [] and scan.scan() == [] and scan.scan() == []
    assert scan.occupied() == [4]
    matrix.magnets.discard(4)
    matrix.magnets.add(1)
    assert scan.scan() == [] and scan.scan() == []
    assert scan.scan() == [(1, True), (4, False)]


@check
def debounce_of_one_scan():
    matrix = Matrix(1, 2)
    scan = scanner.Scanner(matrix.rows, matrix.columns, debounce=1)
    scan.prime()
    matrix.magnets.add(1)
    assert scan.scan() == [(1, True)]


# -- the board loop -----------------------------------------------------------------------

@check
def boot_says_hello_then_state():
    rig = Rig(magnets=(0, 1))
    rig.app.start()
    assert rig.lines() == [("H", 0, ["1", app.FIRMWARE, "4", "7", "36"]), ("S", 1, ["0000003"])]
    assert rig.leds.writes == 1 and rig.leds.pixels == [(0, 0, 0)] * 36


@check
def step_starts_the_board_if_need_be():
    rig = Rig()
    rig.app.step()
    assert [line[0] for line in rig.lines()] == ["H", "S"]


@check
def hello_and_request():
    rig = started(magnets=(3,))
    rig.send("V", 0, ["1"])
    assert rig.lines() == [("H", 2, ["1", app.FIRMWARE, "4", "7", "36"]), ("S", 3, ["0000008"])]
    rig.send("R", 1)
    assert rig.lines() == [("S", 4, ["0000008"])]
    rig.app.feed(b"R 15*f4\r\n")
    assert rig.lines() == [("S", 5, ["0000008"])]


@check
def hello_of_another_version():
    rig = started()
    rig.send("V", 0, ["2"])
    kinds = [line[0] for line in rig.lines()]
    assert kinds == ["E", "H", "S"]


@check
def changes_are_sent_debounced():
    rig = started(magnets=(0, 5))
    rig.matrix.magnets.discard(5)
    rig.matrix.magnets.add(12)
    rig.steps(2)
    assert rig.lines() == []
    rig.steps(1)
    assert rig.lines() == [("C", 2, ["5-", "12+"])]
    rig.matrix.magnets.add(27)
    rig.steps(3)
    assert rig.lines() == [("C", 3, ["27+"])]
    rig.send("R")
    assert rig.lines() == [("S", 4, ["8001001"])]


@check
def the_host_asks_for_options_in_v():
    rig = started(magnets=(3,))
    rig.send("V", 0, ["1", "age", "colour"])  # one it knows, one it does not
    assert rig.lines() == [("H", 2, ["1", app.FIRMWARE, "4", "7", "36", "age"]), ("S", 3, ["0000008"])]
    assert rig.app.ages
    rig.send("V", 1, ["1"])  # a V without options turns them off
    assert rig.lines("H") == [("H", 4, ["1", app.FIRMWARE, "4", "7", "36"])] and not rig.app.ages
    rig.send("V", 2, ["2", "age"])  # another version: nothing of it is taken
    assert [line[0] for line in rig.lines()] == ["E", "H", "S"] and not rig.app.ages


@check
def with_the_age_option_a_c_line_says_when_its_changes_most_likely_happened():
    # Between the last scan that missed a change and the first that saw it: halfway.
    rig = started(magnets=(0,))
    rig.send("V", 0, ["1", "age"])
    rig.steps(2, ms=4)
    rig.lines()
    rig.matrix.magnets.add(12)
    rig.steps(3, ms=4)  # first seen 8 ms before the third scan, missed by the scan 4 ms before
    assert rig.lines() == [("C", 4, ["12+", "@10"])]
    rig.matrix.magnets.discard(0)
    rig.matrix.magnets.add(5)
    rig.steps(1, ms=6)  # a late step: 6 ms after the scan that missed them
    rig.clock.advance(3)  # the line is composed 3 ms into a step: the age counts that too
    rig.steps(2, ms=4)
    assert rig.lines() == [("C", 5, ["0-", "5+", "@14"])]
    rig.matrix.magnets.add(6)
    rig.steps(1, ms=5)  # an odd gap: the later of the two middle milliseconds, never too old
    rig.steps(2, ms=4)
    assert rig.lines() == [("C", 6, ["6+", "@10"])]


@check
def the_age_vector():
    case = [c for c in vectors()["lines"] if "age_ms" in c][0]
    rig = started()
    rig.app.ages = True
    rig.app._seq = protocol.Seq(case["seq"])
    rig.app.send_changes([(index, occupied) for index, occupied in case["changes"]],
                         rig.clock.ticks_add(rig.clock.ticks_ms(), -case["age_ms"]))
    while rig.app.compose():
        pass
    assert rig.out == [case["line"]], rig.out


@check
def many_changes_at_once_go_out_a_piece_a_step():
    rig = started(rows=8, columns=10, leds=74)
    rig.matrix.magnets.update(range(73))
    rig.steps(3)  # the third scan sees them all: nothing else slow in its step
    assert rig.lines() == [] and rig.app.pending()
    rig.die_pin.level = 0  # a press while the line is composed follows it
    pieces = (73 + app.PIECE_CHANGES - 1) // app.PIECE_CHANGES
    rig.steps(pieces - 1)
    assert rig.lines() == [], "sent before its last piece"
    rig.steps(1)
    lines = rig.lines()
    assert [line[0] for line in lines] == ["C"] and lines[0][2] == ["%d+" % i for i in range(73)], lines
    rig.die_pin.level = 1
    rig.steps(3)
    assert [line[:2] for line in rig.lines()] == [("B", lines[0][1] + 1)]
    assert not rig.app.pending()


@check
def a_request_while_a_line_is_composed_is_answered_after_it():
    rig = started(rows=8, columns=10, leds=74)
    rig.matrix.magnets.update(range(40))
    rig.steps(4)  # the line begun
    assert rig.app.pending() and rig.lines() == []
    rig.send("R")
    rig.matrix.magnets.add(50)
    rig.steps(40)  # 200 ms: no heartbeat yet
    kinds = [(line[0], line[2][-1]) for line in rig.lines()]
    state = protocol.bitmap([1 if i < 40 else 0 for i in range(80)], 80)
    assert kinds == [("C", "39+"), ("S", state), ("C", "50+")], kinds  # in step all along


@check
def heartbeat_at_least_once_a_second():
    rig = started()
    times = []
    for _ in range(1000):  # 7 s in steps of 7 ms
        rig.clock.advance(7)
        rig.app.step()
        for line in rig.lines():
            if line[0] == "S":
                times.append(rig.clock.ms)
    gaps = [b - a for a, b in zip([0] + times, times)]
    assert len(times) >= 7 and max(gaps) <= 1000, gaps
    assert min(gaps) >= app.HEARTBEAT_MS


@check
def heartbeat_across_the_ticks_wrap():
    rig = Rig(clock_ms=PERIOD - 300)
    rig.app.start()
    count = 0
    for _ in range(300):
        rig.clock.advance(10)
        rig.app.step()
        count += len([line for line in rig.lines() if line[0] == "S"])
    assert 5 <= count <= 7, count


@check
def a_light_frame_is_shown():
    rig = started(leds=3)
    rig.send("L", 1, ["ff000000ff00000010", "0"])
    assert rig.lines() == []
    assert rig.leds.pixels == [(255, 0, 0), (0, 255, 0), (0, 0, 16)]
    rig.steps(200)
    assert rig.leds.pixels == [(255, 0, 0), (0, 255, 0), (0, 0, 16)]


@check
def blinking_leds_blink_at_2_hz():
    rig = started(leds=3)
    rig.send("L", 1, ["ff000000ff00000010", "5"])  # LEDs 0 and 2 blink
    on = [(255, 0, 0), (0, 255, 0), (0, 0, 16)]
    off = [(0, 0, 0), (0, 255, 0), (0, 0, 0)]
    seen = []
    for _ in range(200):  # 1 s in 5 ms steps
        rig.clock.advance(5)
        rig.app.step()
        seen.append(list(rig.leds.pixels))
    changes = [i for i in range(1, len(seen)) if seen[i] != seen[i - 1]]
    assert len(changes) == 4, changes  # on/off every 250 ms
    assert on in seen and off in seen
    assert [changes[i + 1] - changes[i] for i in range(3)] == [50, 50, 50]


@check
def bad_light_frames_are_answered():
    rig = started(leds=36)
    rig.send("L", 5, ["ff0000" * 3, "000000000"])
    assert rig.lines() == [("E", 2, ["bad", "L:", "3", "colours", "for", "36", "LEDs"])]
    for fields in (["ff00"], ["ff0000" * 36], ["ff0000" * 36, "00000000"], ["ff0000" * 36, "0000000000"],
                   ["xx0000" * 36, "000000000"]):
        rig.send("L", 6, fields)
        lines = rig.lines()
        assert len(lines) == 1 and lines[0][0] == "E" and lines[0][2][:2] == ["bad", "L:"], (fields, lines)
    assert rig.leds.writes == 1  # only the boot's dark frame
    rig.send("L", 7, ["0a0b0c" * 36, "000000000"])
    assert rig.lines() == [] and rig.leds.pixels == [(10, 11, 12)] * 36


@check
def lines_taken_are_handled_a_piece_at_a_time():
    rig = started(leds=36)
    colours = "".join("%02x%02x%02x" % (i, 2 * i, 255 - i) for i in range(36))
    line = protocol.encode("L", 1, [colours, "000000005"]) + protocol.encode("R", 2)
    rig.app.take(line[:100])
    rig.app.take(line[100:])
    assert rig.app.pending() and rig.leds.writes == 1  # taken, not handled yet
    steps = 0
    while rig.app.pending():
        steps += 1
        rig.clock.advance(5)
        rig.app.step()
        assert steps < 50
    assert steps > 3, steps  # the long line took several steps
    want = [(i, 2 * i, 255 - i) for i in range(36)]
    assert rig.leds.pixels == want
    assert [line[0] for line in rig.lines()] == ["S"]
    assert rig.app.colour(0) == (0, 0, 255) and list(rig.app.blinking)[:3] == [1, 0, 1]
    for _ in range(60):  # blinking LEDs 0 and 2 go dark and come back, from the chain's bytes
        rig.clock.advance(5)
        rig.app.step()
    assert rig.leds.shown[-1][0] == (0, 0, 0) or rig.leds.shown[-2][0] == (0, 0, 0)
    rig.app.take(protocol.encode("L", 3, ["zz" * 108, "000000000"]))
    while rig.app.pending():
        rig.app.step()
    lines = rig.lines()
    assert len(lines) == 1 and lines[0][0] == "E", lines


@check
def usb_input_is_read_as_far_as_it_goes_and_for_a_bounded_time():
    import io

    import main

    data = (protocol.encode("R", 1) * 40).encode()

    class Poller:  # ready while the stream has bytes left, as select.poll on USB is
        def __init__(self, stream):
            self.stream = stream

        def ipoll(self, timeout):
            return [(self.stream, 1)] if self.stream.tell() < len(data) else []

    class Clock(FakeClock):  # 10 us pass at each look at the clock
        us = 0

        def ticks_us(self):
            self.us += 10
            return self.us

    stream = io.BytesIO(data)
    host = main.Input(stream, Poller(stream), Clock())
    first = host.read(100)  # a look every 8 bytes: stops once 100 us have gone
    assert 8 <= len(first) < len(data) and len(first) % 8 == 0, len(first)
    rest = host.read(10 ** 9)
    assert first + rest == data[:len(first) + len(rest)] and len(rest) <= main.CHUNK
    while len(first) + len(rest) < len(data):
        rest += host.read(10 ** 9)
    assert first + rest == data and host.read() == b""


@check
def die_display():
    rig = started()
    for face in ("rolling", "6", "error", "blank", "1"):
        rig.send("D", 1, [face])
        assert rig.lines() == [] and rig.app.die == face
    for fields in (["7"], ["0"], [], ["1", "2"], ["Rolling"]):
        rig.send("D", 1, fields)
        lines = rig.lines()
        assert len(lines) == 1 and lines[0][0] == "E", fields
    assert rig.app.die == "1"


@check
def buzzer_cues():
    rig = started()
    rig.send("Z", 1, ["illegal"])
    assert rig.lines() == [] and rig.app.cue == "illegal"
    assert rig.pwm.sounding and rig.pwm.freq() == 220
    rig.steps(40, ms=10)
    assert not rig.pwm.sounding
    for cue in app.TUNES:
        rig.send("Z", 1, [cue])
        assert rig.lines() == [] and rig.pwm.sounding
        rig.steps(100, ms=10)
        assert not rig.pwm.sounding, cue
        rig.lines()
    rig.send("Z", 1, ["fanfare"])
    lines = rig.lines()
    assert len(lines) == 1 and lines[0][0] == "E" and "fanfare" in lines[0][2]


@check
def bad_lines_are_dropped_and_counted():
    rig = started()
    count = 0
    for case in vectors()["lines"]:
        if not case["valid"]:
            rig.app.feed(case["line"])
            if case["line"].endswith("\n"):
                count += 1
    rig.app.feed("\n")  # ends the cut line
    assert rig.lines() == []
    assert rig.app.bad_lines == count + 1, rig.app.bad_lines


@check
def unknown_and_echoed_lines():
    rig = started()
    rig.send("Q", 1, ["what"])
    lines = rig.lines()
    assert len(lines) == 1 and lines[0][0] == "E" and "Q" in lines[0][2]
    for kind in "HSCBE":
        rig.send(kind, 1, ["1"])
    assert rig.lines() == [] and rig.app.bad_lines == 5
    rig.send("R", 1, ["now"])
    assert [line[0] for line in rig.lines()] == ["E"]


@check
def lines_in_pieces_and_together():
    rig = started()
    data = protocol.encode("R", 1) + protocol.encode("D", 2, ["3"]) + protocol.encode("R", 3)
    for i in range(len(data)):
        rig.app.feed(data[i])
    assert [line[0] for line in rig.lines()] == ["S", "S"] and rig.app.die == "3"


@check
def button_short_and_long():
    rig = started()
    rig.die_pin.level = 0
    rig.steps(20, ms=10)  # 200 ms
    assert rig.lines() == []
    rig.die_pin.level = 1
    rig.steps(3, ms=10)
    assert rig.lines() == [("B", 2, ["die", "short"])]
    rig.ok_pin.level = 0
    rig.steps(95, ms=10)
    assert rig.lines("B") == []
    rig.steps(10, ms=10)  # held 1 s: long, while still held
    lines = rig.lines("B")
    assert len(lines) == 1 and lines[0][2] == ["ok", "long"], lines
    rig.steps(200, ms=10)
    rig.ok_pin.level = 1
    rig.steps(10, ms=10)
    assert rig.lines("B") == []
    rig.ok_pin.level = 0
    rig.steps(99, ms=10)
    rig.ok_pin.level = 1
    rig.steps(3, ms=10)
    assert [line[2] for line in rig.lines("B")] == [["ok", "short"]]


@check
def button_bounce_is_no_press():
    rig = started()
    for _ in range(5):
        rig.die_pin.level = 0
        rig.steps(2)
        rig.die_pin.level = 1
        rig.steps(1)
    rig.steps(10)
    assert rig.lines("B") == []


@check
def error_text_is_sendable():
    rig = started()
    rig.app.error("odd *text*  with\tcontrol")
    line = rig.out[0]
    assert protocol.decode(line) is not None, line


@check
def main_builds_on_fake_pins():
    import main
    machine.Pin.made = []
    out = []
    clock = FakeClock()
    board = main.build("offboard", out.append, clock)
    numbers = [pin.id for pin in machine.Pin.made]
    for n in main.ROW_PINS + main.COLUMN_PINS + (main.LED_PIN, main.DIE_BUTTON_PIN,
                                                   main.OK_BUTTON_PIN, main.BUZZER_PIN):
        assert n in numbers, n
    board.start()
    assert protocol.decode(out[0]) == ("H", 0, ["1", app.FIRMWARE, "8", "10", "74"])
    assert protocol.decode(out[1]) == ("S", 1, ["0" * 20])
    board = main.build(write=out.append, clock=clock)  # no board.json beside main.py
    assert (board.rows, board.columns, board.led_count) == main.BOARDS[main.GAME]
    used = main.ROW_PINS + main.COLUMN_PINS + (main.LED_PIN, main.DIE_BUTTON_PIN,
                                               main.OK_BUTTON_PIN, main.BUZZER_PIN)
    assert len(set(used)) == len(used)


def written(text):
    """A board.json with this text, in a scratch place; its path."""
    path = here() + "/board-check.json"
    with open(path, "w") as f:
        f.write(text)
    return path


def remove(path):
    import os
    os.remove(path)


@check
def main_builds_the_board_of_board_json():
    import main
    config = {"board": "mine", "rows": 2, "columns": 3, "leds": 9,
              "pins": {"rows": [4, 5], "columns": [10, 11, 12], "leds": 28,
                       "die_button": 0, "ok_button": 1, "buzzer": 2}}
    path = written(json.dumps(config))
    try:
        loaded, problem = main.load_config(path)
    finally:
        remove(path)
    assert problem is None, problem
    machine.Pin.made = []
    out = []
    board = main.build(write=out.append, clock=FakeClock(), config=loaded)
    board.start()
    assert protocol.decode(out[0]) == ("H", 0, ["1", app.FIRMWARE, "2", "3", "9"])
    numbers = [pin.id for pin in machine.Pin.made]
    for n in (4, 5, 10, 11, 12, 28, 0, 1, 2):
        assert n in numbers, n
    for n in (main.ROW_PINS[3], main.LED_PIN):  # the built-in board's, unused here
        assert n not in numbers, n


@check
def a_bad_board_json_falls_back_and_says_why():
    import main
    good = {"rows": 2, "columns": 2, "leds": 4,
            "pins": {"rows": [0, 1], "columns": [2, 3], "leds": 4, "die_button": 5, "ok_button": 6, "buzzer": 7}}
    cases = (
        ("{not json", "board.json"),
        ("[1, 2]", "object"),
        (json.dumps(dict(good, rows=0)), "rows"),
        (json.dumps(dict(good, leds=True)), "leds"),
        (json.dumps(dict(good, pins=dict(good["pins"], columns=[2]))), "columns"),
        (json.dumps(dict(good, pins=dict(good["pins"], buzzer=3))), "GP3"),
        (json.dumps(dict(good, pins=dict(good["pins"], leds=30))), "leds"),
    )
    for text, named in cases:
        path = written(text)
        try:
            config, problem = main.load_config(path)
        finally:
            remove(path)
        assert problem is not None and named in problem, (text, problem)
        assert config == main.built_in(), text
    config, problem = main.load_config(here() + "/no-such-board.json")
    assert problem is None and config == main.built_in()


def run():
    passed = failed = 0
    for function in CHECKS:
        try:
            function()
        except Exception as error:  # AssertionError and any other
            failed += 1
            print("FAIL", function.__name__, repr(error))
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return failed


if __name__ == "__main__":
    sys.exit(1 if run() else 0)
