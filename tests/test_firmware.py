"""The Pico firmware (firmware/*.py) under CPython, on the fakes of `machine` and `neopixel`
in firmware/tests/fakes.

The firmware's own checks live in firmware/tests/run_micropython.py, so that the very same
checks run here under CPython (test_firmware_check) and under the MicroPython unix port
(tests/test_firmware_micropython.py). This file adds what only CPython can do: property
tests, more cases, and the shipped board files."""

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

pytestmark = pytest.mark.component

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
FAKES = FIRMWARE / "tests" / "fakes"
VECTORS = json.loads((FIRMWARE / "protocol_vectors.json").read_text(encoding="utf-8"))
NAMES = ("machine", "neopixel", "protocol", "scanner", "app", "pins", "main", "run_micropython")


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
    with _isolated_imports(FAKES, FIRMWARE, FIRMWARE / "tests"):
        return types.SimpleNamespace(**{name: importlib.import_module(name) for name in NAMES})


fw = _load()
protocol, scanner, app, machine, neopixel = fw.protocol, fw.scanner, fw.app, fw.machine, fw.neopixel


@contextlib.contextmanager
def _firmware_in_place():
    """The firmware's modules as loaded above back in sys.modules while a check runs (a check
    may import one itself, as on the Pico), and nothing of them left afterwards."""
    saved = {name: sys.modules.get(name) for name in NAMES}
    sys.modules.update({name: getattr(fw, name) for name in NAMES})
    sys.path[:0] = [str(FAKES), str(FIRMWARE)]
    try:
        yield
    finally:
        del sys.path[:2]
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


@pytest.mark.parametrize("check", fw.run_micropython.CHECKS, ids=lambda check: check.__name__)
def test_firmware_check(check):
    with _firmware_in_place():
        check()

# The rig the firmware's own checks use: pins, a matrix with magnets, a clock that wraps.
runner = fw.run_micropython
FakeClock, Matrix, Rig, started = runner.FakeClock, runner.Matrix, runner.Rig, runner.started


def with_crc(body: str) -> str:
    return f"{body}*{protocol.crc8(body):02x}\n"


# -- protocol -----------------------------------------------------------------------------



GOOD = [c for c in VECTORS["lines"] if c["valid"]]
BAD = [c for c in VECTORS["lines"] if not c["valid"]]










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




# -- scanner ------------------------------------------------------------------------------





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











@pytest.mark.parametrize("ages", [False, True])
def test_many_changes_fit_in_lines(ages):
    rig = started(rows=16, columns=16, leds=74)
    rig.app.ages = ages
    rig.matrix.magnets.update(range(256))
    steps = 0
    rig.steps(3)
    while rig.app.pending():
        rig.steps(1)
        steps += 1
    assert steps >= 256 // app.PIECE_CHANGES  # a piece a step
    out = list(rig.out)
    lines = rig.lines("C")
    assert [f for line in lines for f in line[2] if f[0] != "@"] == [f"{i}+" for i in range(256)]
    assert all(len(line) <= protocol.MAX_LINE for line in out) and len(lines) == 2
    assert all((line[2][-1][0] == "@") == ages for line in lines)




def test_request_restarts_the_heartbeat():
    rig = started()
    rig.steps(80)  # 400 ms
    rig.send("R")
    assert len(rig.lines("S")) == 1
    rig.steps(80)  # 400 ms after R: no heartbeat yet
    assert rig.lines("S") == []
    rig.steps(30)
    assert len(rig.lines("S")) == 1






def test_the_light_vector():
    rig = started(leds=2)
    rig.app.feed("L 10 ff0000000000 1*c3\n")
    assert rig.lines() == [] and list(rig.app.blinking) == [1, 0]
    assert rig.leds.pixels == [(255, 0, 0), (0, 0, 0)]






def test_wrong_colour_count_is_named():
    rig = started(leds=36)
    rig.send("L", 5, ["ff0000" * 3, "000000000"])
    assert rig.lines() == [("E", 2, ["bad", "L:", "3", "colours", "for", "36", "LEDs"])]
    rig.send("L", 7, ["0A0b0c" * 36, "000000000"])
    assert rig.lines() == [] and rig.leds.pixels == [(10, 11, 12)] * 36




















def test_main_knows_the_shipped_boards():
    from reedboard.hal.board import load_board

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
