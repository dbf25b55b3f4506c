"""The Pico firmware (firmware/*.py) under CPython, on the fakes of `machine` and `neopixel`
in firmware/tests/fakes. tests/test_firmware_micropython.py runs the same checks under the
MicroPython unix port (firmware/tests/run_micropython.py)."""

from __future__ import annotations

import contextlib
import importlib
import json
import sys
import types
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
FAKES = FIRMWARE / "tests" / "fakes"
VECTORS = json.loads((FIRMWARE / "protocol_vectors.json").read_text(encoding="utf-8"))
NAMES = ("machine", "neopixel", "protocol", "scanner", "app", "main")


@contextlib.contextmanager
def _isolated_imports(*folders: Path):
    """Import the firmware's top-level modules without leaving them (or the fakes) in
    sys.modules or sys.path for other tests."""
    saved = {name: sys.modules.pop(name) for name in NAMES if name in sys.modules}
    sys.path[:0] = [str(f) for f in folders]
    try:
        yield
    finally:
        del sys.path[:len(folders)]
        for name in NAMES:
            sys.modules.pop(name, None)
        sys.modules.update(saved)


def _load() -> types.SimpleNamespace:
    with _isolated_imports(FAKES, FIRMWARE):
        return types.SimpleNamespace(**{name: importlib.import_module(name) for name in NAMES})


fw = _load()
protocol, scanner, app, machine, neopixel = fw.protocol, fw.scanner, fw.app, fw.machine, fw.neopixel

PERIOD = 1 << 30  # MicroPython's ticks wrap here


class FakeClock:
    def __init__(self, ms: int = 0):
        self.ms = ms % PERIOD

    def ticks_ms(self) -> int:
        return self.ms

    def ticks_diff(self, a: int, b: int) -> int:
        return ((a - b + PERIOD // 2) & (PERIOD - 1)) - PERIOD // 2

    def ticks_add(self, t: int, delta: int) -> int:
        return (t + delta) % PERIOD

    def advance(self, ms: int) -> None:
        self.ms = (self.ms + ms) % PERIOD


class Matrix:
    """Row pins driven by the scanner; a column pin reads low while a driven row has a
    magnet (closed switch and its diode) on that column."""

    def __init__(self, rows: int, columns: int):
        self.rows = [machine.Pin(r, machine.Pin.OUT, value=1) for r in range(rows)]
        self.magnets: set[int] = set()
        self.columns = []
        for c in range(columns):
            pin = machine.Pin(100 + c, machine.Pin.IN, machine.Pin.PULL_UP)
            pin.source = lambda c=c: 0 if any(
                row.value() == 0 and r * columns + c in self.magnets for r, row in enumerate(self.rows)) else 1
            self.columns.append(pin)


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
        self.out: list[str] = []
        buttons = [app.Button("die", self.die_pin, debounce), app.Button("ok", self.ok_pin, debounce)]
        self.app = app.App(self.scanner, self.leds, self.out.append, self.clock, buttons, self.pwm)

    def lines(self, kinds: str | None = None) -> list[tuple]:
        sent = [protocol.decode(line) for line in self.out]
        self.out.clear()
        assert None not in sent
        return [line for line in sent if kinds is None or line[0] in kinds]

    def send(self, kind: str, seq: int = 0, fields=()) -> None:
        self.app.feed(protocol.encode(kind, seq, list(fields)))

    def steps(self, n: int, ms: int = 5) -> None:
        for _ in range(n):
            self.clock.advance(ms)
            self.app.step()


def started(**kw) -> Rig:
    rig = Rig(**kw)
    rig.app.start()
    rig.lines()
    return rig


def with_crc(body: str) -> str:
    return f"{body}*{protocol.crc8(body):02x}\n"


# -- protocol -----------------------------------------------------------------------------

@pytest.mark.parametrize("case", VECTORS["crc8"], ids=lambda c: repr(c["bytes"]))
def test_crc8_check_values(case):
    assert f"{protocol.crc8(case['bytes']):02x}" == case["crc"]
    assert protocol.crc8(case["bytes"].encode()) == int(case["crc"], 16)


GOOD = [c for c in VECTORS["lines"] if c["valid"]]
BAD = [c for c in VECTORS["lines"] if not c["valid"]]


@pytest.mark.parametrize("case", GOOD, ids=lambda c: c["line"].strip())
def test_good_vectors_decode_as_stated(case):
    expected = (case["type"], case["seq"], case["fields"])
    assert protocol.decode(case["line"]) == expected
    assert protocol.decode(case["line"].encode()) == expected
    assert protocol.encode(case["type"], case["seq"], case["fields"]) == case["line"].replace("\r\n", "\n")


@pytest.mark.parametrize("case", BAD, ids=lambda c: c["why"])
def test_bad_vectors_are_rejected(case):
    assert protocol.decode(case["line"]) is None
    with pytest.raises(protocol.BadLine):
        protocol.parse(case["line"])


@pytest.mark.parametrize("line", [
    with_crc("S 01  0000003"),  # two spaces
    with_crc("S 01 0000003 "),  # a trailing space
    with_crc("S 01 "),  # an empty payload
    with_crc("SS 01"),  # a two-letter type
    with_crc("S 01x"),  # no space after the seq
    "S 01 0000003*6\n",
    "S 01 0000003*677\n",
    "S 01 0000003*67\r\r\n",
    "S 01 caf\xe9*00\n",
    "\n",
    b"S 01 \xff*00\n",
])
def test_more_bad_lines(line):
    assert protocol.decode(line) is None


def test_the_longest_line():
    body = "E 00 " + "a" * (protocol.MAX_LINE - 9)
    assert len(with_crc(body)) == protocol.MAX_LINE and protocol.decode(with_crc(body)) is not None
    assert protocol.decode(with_crc(body + "a")) is None


FIELD = st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E, exclude_characters="*"),
                min_size=1, max_size=12)


@given(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), st.integers(0, 255), st.lists(FIELD, max_size=6))
def test_encode_then_decode(kind, seq, fields):
    line = protocol.encode(kind, seq, fields)
    assert protocol.decode(line) == (kind, seq, fields)
    assert protocol.decode(line.replace("\n", "\r\n")) == (kind, seq, fields)


@given(st.integers(0, 14), st.integers(1, 255))
def test_a_changed_byte_is_caught(position, flip):
    line = bytearray(protocol.encode("C", 7, ["5+", "12-"]).encode())  # 15 bytes, "\n" last
    line[position] ^= flip
    assert protocol.decode(bytes(line)) is None  # CRC-8 catches every burst of 8 bits or less


def test_seq_counts_and_wraps():
    seq = protocol.Seq(254)
    assert [seq.next() for _ in range(4)] == [254, 255, 0, 1]


@pytest.mark.parametrize("bits, count, text", [
    ({0, 1}, 28, "0000003"), ({27}, 28, "8000000"), (set(), 80, "0" * 20), ({0}, 1, "1"),
    ({4}, 5, "10"), ({0, 35}, 36, "800000001"), (set(range(74)), 74, "3" + "f" * 18),
])
def test_bitmaps(bits, count, text):
    assert protocol.bitmap([1 if i in bits else 0 for i in range(count)], count) == text
    assert {i for i, b in enumerate(protocol.parse_bitmap(text, count)) if b} == bits


@given(st.integers(1, 100).flatmap(lambda n: st.tuples(st.just(n), st.lists(st.booleans(), min_size=n, max_size=n))))
def test_bitmap_round_trip(case):
    count, bits = case
    text = protocol.bitmap(bits, count)
    assert len(text) == (count + 3) // 4
    assert list(protocol.parse_bitmap(text, count)) == [int(b) for b in bits]


@pytest.mark.parametrize("text, count", [("100", 5), ("1", 5), ("20", 5), ("4", 2), ("g", 2), ("", 1), (" 1", 5)])
def test_bad_bitmaps(text, count):
    with pytest.raises(ValueError):
        protocol.parse_bitmap(text, count)


def test_line_reader_cuts_lines():
    reader = protocol.LineReader()
    assert reader.feed(b"R 00*") == []
    assert reader.feed("ab\nV 01") == [b"R 00*ab\n"]
    assert reader.feed(b" 1*xx\r\nR") == [b"V 01 1*xx\r\n"]
    long = reader.feed(b"x" * 5000 + b"\nR 00*00\n")
    assert len(long) == 2 and len(long[0]) > protocol.MAX_LINE and long[1] == b"R 00*00\n"
    assert protocol.decode(long[0]) is None


# -- scanner ------------------------------------------------------------------------------

def test_the_matrix_reads_the_magnets():
    matrix = Matrix(4, 7)
    matrix.magnets.update({0, 6, 7, 20, 27})
    scan = scanner.Scanner(matrix.rows, matrix.columns)
    assert [i for i, v in enumerate(scan.read()) if v] == [0, 6, 7, 20, 27]
    assert all(row.value() == 1 for row in matrix.rows)
    scan.prime()
    assert scan.occupied() == [0, 6, 7, 20, 27] and scan.scan() == []


def test_debounce_needs_equal_scans():
    matrix = Matrix(2, 3)
    scan = scanner.Scanner(matrix.rows, matrix.columns, debounce=3)
    scan.prime()
    matrix.magnets.add(4)
    assert [scan.scan() for _ in range(4)] == [[], [], [(4, True)], []]
    matrix.magnets.discard(4)  # a bounce: open for two scans, then closed again
    assert [scan.scan() for _ in range(2)] == [[], []]
    matrix.magnets.add(4)
    assert [scan.scan() for _ in range(3)] == [[], [], []] and scan.occupied() == [4]
    matrix.magnets.discard(4)
    matrix.magnets.add(1)
    assert [scan.scan() for _ in range(3)] == [[], [], [(1, True), (4, False)]]


@pytest.mark.parametrize("debounce", [1, 2, 5])
def test_debounce_is_a_setting(debounce):
    matrix = Matrix(3, 3)
    scan = scanner.Scanner(matrix.rows, matrix.columns, debounce=debounce)
    scan.prime()
    matrix.magnets.add(8)
    results = [scan.scan() for _ in range(debounce)]
    assert results[-1] == [(8, True)] and all(r == [] for r in results[:-1])


def test_settle_is_called_for_every_row():
    matrix = Matrix(4, 2)
    calls = []
    scanner.Scanner(matrix.rows, matrix.columns, settle=lambda: calls.append(1)).read()
    assert len(calls) == 4


def test_bad_debounce():
    with pytest.raises(ValueError):
        scanner.Scanner([], [], debounce=0)


# -- the board loop -----------------------------------------------------------------------

def test_boot_says_hello_then_state():
    rig = Rig(magnets=(0, 1))
    rig.app.start()
    assert rig.lines() == [("H", 0, ["1", app.FIRMWARE, "4", "7", "36"]), ("S", 1, ["0000003"])]
    assert rig.leds.writes == 1 and rig.leds.pixels == [(0, 0, 0)] * 36


def test_step_starts_the_board_if_need_be():
    rig = Rig()
    rig.app.step()
    assert [line[0] for line in rig.lines()] == ["H", "S"]


def test_hello_and_request():
    rig = started(magnets=(3,))
    rig.send("V", 0, ["1"])
    assert rig.lines() == [("H", 2, ["1", app.FIRMWARE, "4", "7", "36"]), ("S", 3, ["0000008"])]
    rig.send("R", 1)
    assert rig.lines() == [("S", 4, ["0000008"])]
    rig.app.feed(b"R 15*f4\r\n")
    assert rig.lines() == [("S", 5, ["0000008"])]


def test_hello_of_another_version():
    rig = started()
    rig.send("V", 0, ["2"])
    lines = rig.lines()
    assert [line[0] for line in lines] == ["E", "H", "S"] and "2" in lines[0][2]


def test_changes_are_sent_debounced_in_order():
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


def test_many_changes_fit_in_lines():
    rig = started(rows=8, columns=10, leds=74)
    rig.matrix.magnets.update(range(80))
    rig.steps(3)
    lines = rig.lines("C")
    assert [f for line in lines for f in line[2]] == [f"{i}+" for i in range(80)]


def test_heartbeat_at_least_once_a_second():
    rig = started()
    times = []
    for _ in range(1000):  # 7 s in steps of 7 ms
        rig.clock.advance(7)
        rig.app.step()
        times += [rig.clock.ms for line in rig.lines() if line[0] == "S"]
    gaps = [b - a for a, b in zip([0] + times, times)]
    assert len(times) >= 7 and max(gaps) <= 1000 and min(gaps) >= app.HEARTBEAT_MS


def test_request_restarts_the_heartbeat():
    rig = started()
    rig.steps(80)  # 400 ms
    rig.send("R")
    assert len(rig.lines("S")) == 1
    rig.steps(80)  # 400 ms after R: no heartbeat yet
    assert rig.lines("S") == []
    rig.steps(30)
    assert len(rig.lines("S")) == 1


def test_heartbeat_across_the_ticks_wrap():
    rig = started(clock_ms=PERIOD - 300)
    count = 0
    for _ in range(300):
        rig.clock.advance(10)
        rig.app.step()
        count += len(rig.lines("S"))
    assert 5 <= count <= 7


def test_a_light_frame_is_shown():
    rig = started(leds=3)
    rig.send("L", 1, ["ff000000ff00000010", "0"])
    assert rig.lines() == []
    assert rig.leds.pixels == [(255, 0, 0), (0, 255, 0), (0, 0, 16)]
    rig.steps(200)
    assert rig.leds.pixels == [(255, 0, 0), (0, 255, 0), (0, 0, 16)]
    assert rig.leds.writes == 2  # nothing blinks: no rewrites


def test_the_light_vector():
    rig = started(leds=2)
    rig.app.feed("L 10 ff0000000000 1*c3\n")
    assert rig.lines() == [] and list(rig.app.blinking) == [1, 0]
    assert rig.leds.pixels == [(255, 0, 0), (0, 0, 0)]


def test_blinking_leds_blink_at_2_hz():
    rig = started(leds=3)
    rig.send("L", 1, ["ff000000ff00000010", "5"])  # LEDs 0 and 2 blink
    seen = []
    for _ in range(200):  # 1 s in 5 ms steps
        rig.clock.advance(5)
        rig.app.step()
        seen.append(list(rig.leds.pixels))
    changes = [i for i in range(1, len(seen)) if seen[i] != seen[i - 1]]
    assert [b - a for a, b in zip(changes, changes[1:])] == [50, 50, 50]  # every 250 ms
    assert [(255, 0, 0), (0, 255, 0), (0, 0, 16)] in seen
    assert [(0, 0, 0), (0, 255, 0), (0, 0, 0)] in seen


@pytest.mark.parametrize("fields", [
    ["ff00"], ["ff0000" * 36], ["ff0000" * 36, "00000000"], ["ff0000" * 36, "0000000000"],
    ["xx0000" * 36, "000000000"], ["ff0000" * 35 + "ff00", "000000000"], ["ff0000" * 36, "00000000g"],
])
def test_bad_light_frames_are_answered(fields):
    rig = started(leds=36)
    rig.send("L", 6, fields)
    lines = rig.lines()
    assert len(lines) == 1 and lines[0][0] == "E" and lines[0][2][:2] == ["bad", "L:"]
    assert rig.leds.writes == 1  # only the boot's dark frame


def test_wrong_colour_count_is_named():
    rig = started(leds=36)
    rig.send("L", 5, ["ff0000" * 3, "000000000"])
    assert rig.lines() == [("E", 2, ["bad", "L:", "3", "colours", "for", "36", "LEDs"])]
    rig.send("L", 7, ["0A0b0c" * 36, "000000000"])
    assert rig.lines() == [] and rig.leds.pixels == [(10, 11, 12)] * 36


def test_die_display():
    shown = []
    rig = Rig()
    rig.app.die_display = types.SimpleNamespace(show=shown.append)
    rig.app.start()
    rig.lines()
    for face in ("rolling", "6", "error", "blank", "1"):
        rig.send("D", 1, [face])
        assert rig.lines() == [] and rig.app.die == face
    assert shown == ["rolling", "6", "error", "blank", "1"]
    for fields in (["7"], ["0"], [], ["1", "2"], ["Rolling"]):
        rig.send("D", 1, fields)
        assert [line[0] for line in rig.lines()] == ["E"]
    assert rig.app.die == "1"


def test_buzzer_cues():
    rig = started()
    rig.send("Z", 1, ["illegal"])
    assert rig.lines() == [] and rig.app.cue == "illegal"
    assert rig.pwm.sounding and rig.pwm.freq() == 220
    rig.steps(40, ms=10)
    assert not rig.pwm.sounding
    for cue in ("move", "illegal", "choose", "takeback", "roll", "refused", "ready", "game-over"):
        rig.send("Z", 1, [cue])
        assert rig.lines() == [] and rig.pwm.sounding
        rig.steps(100, ms=10)
        assert not rig.pwm.sounding
        rig.lines()
    rig.send("Z", 1, ["fanfare"])
    lines = rig.lines()
    assert len(lines) == 1 and lines[0][0] == "E" and "fanfare" in lines[0][2]


def test_bad_lines_are_dropped_and_counted():
    rig = started()
    for case in BAD:
        rig.app.feed(case["line"])
    rig.app.feed("\n")  # ends the cut line (which then is bad too)
    assert rig.lines() == []
    assert rig.app.bad_lines == sum(1 for c in BAD if c["line"].endswith("\n")) + 1


def test_unknown_and_echoed_lines():
    rig = started()
    rig.send("Q", 1, ["what"])
    lines = rig.lines()
    assert len(lines) == 1 and lines[0][0] == "E" and "Q" in lines[0][2]
    for kind in "HSCBE":
        rig.send(kind, 1, ["1"])
    assert rig.lines() == [] and rig.app.bad_lines == 5
    rig.send("R", 1, ["now"])
    assert [line[0] for line in rig.lines()] == ["E"]


def test_lines_in_pieces_and_together():
    rig = started()
    data = protocol.encode("R", 1) + protocol.encode("D", 2, ["3"]) + protocol.encode("R", 3)
    for char in data:
        rig.app.feed(char)
    assert [line[0] for line in rig.lines()] == ["S", "S"] and rig.app.die == "3"
    rig.app.feed(data.encode())
    assert [line[0] for line in rig.lines()] == ["S", "S"]


def test_button_short_and_long():
    rig = started()
    rig.die_pin.level = 0
    rig.steps(20, ms=10)
    assert rig.lines("B") == []
    rig.die_pin.level = 1
    rig.steps(3, ms=10)
    assert rig.lines("B") == [("B", 2, ["die", "short"])]
    rig.ok_pin.level = 0
    rig.steps(95, ms=10)
    assert rig.lines("B") == []
    rig.steps(10, ms=10)  # held 1 s: long, while still held
    assert [line[2] for line in rig.lines("B")] == [["ok", "long"]]
    rig.steps(200, ms=10)
    rig.ok_pin.level = 1
    rig.steps(10, ms=10)
    assert rig.lines("B") == []
    rig.ok_pin.level = 0
    rig.steps(99, ms=10)
    rig.ok_pin.level = 1
    rig.steps(3, ms=10)
    assert [line[2] for line in rig.lines("B")] == [["ok", "short"]]


def test_button_bounce_is_no_press():
    rig = started()
    for _ in range(5):
        rig.die_pin.level = 0
        rig.steps(2)
        rig.die_pin.level = 1
        rig.steps(1)
    rig.steps(10)
    assert rig.lines("B") == []


def test_error_text_is_always_sendable():
    rig = started()
    rig.app.error("odd *text*  with\tcontrol")
    rig.app.error("")
    rig.app.error("x" * 5000)
    assert all(protocol.decode(line) is not None for line in rig.out)


def test_main_builds_on_fake_pins():
    with _isolated_imports(FAKES, FIRMWARE):
        main = importlib.import_module("main")
        machine = importlib.import_module("machine")
        machine.Pin.made = []
        out: list[str] = []
        board = main.build("offboard", out.append, FakeClock())
        numbers = [pin.id for pin in machine.Pin.made]
        used = main.ROW_PINS + main.COLUMN_PINS + (main.LED_PIN, main.DIE_BUTTON_PIN, main.OK_BUTTON_PIN, main.BUZZER_PIN)
        assert set(used) <= set(numbers) and len(set(used)) == len(used)
        board.start()
        board.step()
        assert protocol.decode(out[0]) == ("H", 0, ["1", app.FIRMWARE, "8", "10", "74"])
        assert protocol.decode(out[1]) == ("S", 1, ["0" * 20])
        board = main.build(write=out.append, clock=FakeClock())
        assert (board.rows, board.columns, board.led_count) == main.BOARDS[main.GAME]


def test_main_knows_the_shipped_boards():
    from hal.board import load_board

    with _isolated_imports(FAKES, FIRMWARE):
        main = importlib.import_module("main")
    for game, (rows, columns, leds) in main.BOARDS.items():
        board = load_board(game=game)
        assert (board.rows, board.columns, board.led_count) == (rows, columns, leds)
        assert rows <= len(main.ROW_PINS) and columns <= len(main.COLUMN_PINS)


def test_nothing_is_left_behind():
    for name in NAMES:
        module = sys.modules.get(name)
        assert module is None or not str(getattr(module, "__file__", "")).startswith(str(FIRMWARE))
    assert str(FIRMWARE) not in sys.path and str(FAKES) not in sys.path
