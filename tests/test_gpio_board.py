"""The gpio backend on gpiozero's mock pins: the real scanning code against a simulated matrix
(hal.mock.matrix).

The simulated matrix is a small circuit model (Circuit): rows, columns and the reed switches
that magnets have closed, with or without a diode in series with each switch. Given how each
row is driven (low, high, or released), it works out which columns are pulled low: a column
is low when a path of closed switches leads from it to a row driven low, through released
rows and other columns on the way. A diode lets current through a switch only from the
column into the row, so with diodes the path is one switch long; without them current can
run backwards through a switch (row into column), which is what makes ghosts.

Two adapters put the circuit under the real code:
- MatrixPins: MockPin subclasses. Whenever a row pin's level or direction changes (the
  scanner driving its DigitalOutputDevice), the circuit is re-evaluated and every column
  MockPin is driven low (drive_low) or left to its pull-up (drive_high), as real wires would.
- FakeMcpBus: two (or more) MCP23017s behind an smbus2-like bus: registers are kept; reading
  GPIOB evaluates the circuit from the IODIRA/OLATA settings, the pull-ups (GPPUB) and IPOLB.

Every test passes its own MockFactory (pin_factory=...): nothing relies on an environment
default. Nothing is asserted on wall-clock time: rates and blinking are counted on a loop
whose time is virtual (tests/virtual_time.py), promptness in scans, the buzzer's rhythm by
what its notes ask to wait, and threads are waited for with generous timeouts.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import sys
import threading
import time
from types import SimpleNamespace

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from hypothesis import given, settings
from hypothesis import strategies as st

from reedboard.controller.games import GAMES
from reedboard.controller.core.signals import PALETTE
import reedboard.hal.gpio_board as gpio_board_module
from reedboard.hal.backend_tables import GpioPins
from reedboard.hal.board import Board, load_board
from reedboard.hal.gpio_board import CUE_PATTERNS, GpioBoard
from reedboard.hal.interfaces import Button, Cue, DieFace, DieState, Frame, Light, LightFrame, Press
from reedboard.hal.leds import PIP_COLOUR, PIPS, current_ma
from reedboard.hal.matrix import (GPIOB, GPPUB, IODIRA, OLATA, GpioMatrix, MatrixScanner,
                        Mcp23017Matrix, possible_ghosts)
from reedboard.hal.mock.matrix import Circuit, FakeMcpBus, FakeStrip, MatrixPins
from reedboard.controller.session.virtual_time import VirtualClock, run_virtual

from conftest import seeds

pytestmark = pytest.mark.component

WAIT = 10.0  # s: the most a test waits for something that comes within milliseconds

class FakeClock:
    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


# --------------------------------------------------------------------------------------------
# Boards
# --------------------------------------------------------------------------------------------

BIGBALLS = load_board(game="bigballs")
OFFBOARD = load_board(game="offboard")
# Free BCM pins of a mock Pi 3 for an all-GPIO offboard matrix (no 2/3: fixed pull-ups;
# 12 buzzer, 18 LEDs, 24 ok button).
SPARE_PINS = [4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 19, 20, 21, 22, 23, 25, 26, 27]


def start_position(board: Board) -> frozenset[str]:
    return frozenset(GAMES[board.name]().occupied())


def on_pins(board: Board) -> Board:
    """The board with its matrix wired straight to the Pi's pins."""
    if board.settings_of("gpio").rows:
        return board
    pins = [p for p in SPARE_PINS if p not in (board.settings_of("gpio").die_button, board.settings_of("gpio").ok_button)]
    rows, columns = pins[:board.rows], pins[board.rows:board.rows + board.columns]
    return board.with_settings("gpio", dataclasses.replace(board.settings_of("gpio"), rows=tuple(rows),
                                                               columns=tuple(columns), expander=None))


def on_expander(board: Board) -> Board:
    """The board with its matrix on two MCP23017 (as the offboard default)."""
    return board.with_settings("gpio", dataclasses.replace(board.settings_of("gpio"), rows=(), columns=(),
                                                               expander=(1, (0x20, 0x21))))


def rig(board: Board, **kwargs):
    """A GpioBoard on mock pins with the simulated matrix behind it: (board, matrix)."""
    factory = MockFactory()
    circuit = Circuit(board.rows, board.columns, board.diodes)
    if board.settings_of("gpio").expander is not None:
        matrix = FakeMcpBus(board.settings_of("gpio").expander[1], circuit)
        kwargs.setdefault("bus", matrix)
    else:
        matrix = MatrixPins(factory, board.settings_of("gpio").rows, board.settings_of("gpio").columns, circuit)
    kwargs.setdefault("strip", FakeStrip(board.led_count))
    return GpioBoard(board, pin_factory=factory, **kwargs), matrix


def place(matrix, board: Board, cells) -> None:
    for cell in cells:
        matrix.circuit.place(board.sensor[cell])
    if isinstance(matrix, MatrixPins):
        matrix.settle()


def lift(matrix, board: Board, cells) -> None:
    for cell in cells:
        matrix.circuit.lift(board.sensor[cell])
    if isinstance(matrix, MatrixPins):
        matrix.settle()


def cells_of(board: Board, indices) -> frozenset[str]:
    return frozenset(board.cell_at(i) for i in indices)


async def until(condition, timeout: float = WAIT) -> None:
    """Until condition() holds (another thread makes it so); fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.002)


def first_frames(gpio: GpioBoard, count: int = 1, between=None, timeout: float = WAIT) -> list[Frame]:
    """The first `count` frames of gpio.frames(); `between(frames)` runs after each one."""

    async def main():
        frames = []
        stream = gpio.frames()
        try:
            async for frame in stream:
                frames.append(frame)
                if len(frames) == count:
                    break
                if between is not None:
                    between(frames)
        finally:
            await stream.aclose()
        return frames

    return asyncio.run(asyncio.wait_for(main(), timeout))


@pytest.fixture
def closing():
    boards = []
    yield boards.append
    for board in boards:
        board.close()


# --------------------------------------------------------------------------------------------
# The scan itself
# --------------------------------------------------------------------------------------------


def test_every_single_magnet_reads_at_its_own_sensor(closing):
    board = BIGBALLS
    gpio, matrix = rig(board)
    closing(gpio)
    scanner = gpio.scanner
    assert scanner.read_raw() == frozenset()
    for cell in board.cells:
        place(matrix, board, [cell])
        assert scanner.read_raw() == {board.sensor[cell]}, cell
        lift(matrix, board, [cell])
    assert scanner.read_raw() == frozenset()


def test_rows_are_active_low_and_columns_pulled_up():
    factory = MockFactory()
    matrix = GpioMatrix([5, 6], [17, 27], pin_factory=factory)
    try:
        rows = [factory.pin(5), factory.pin(6)]
        assert all(p.function == "output" and p.state for p in rows)  # idle rows driven high
        assert all(factory.pin(p).pull == "up" for p in (17, 27))
        rows[0].clear_states()
        matrix.read()
        rows[0].assert_states([True, False, True])  # selected (low), then idle again
    finally:
        matrix.close()


@pytest.mark.parametrize("board", [BIGBALLS, on_pins(OFFBOARD)], ids=["bigballs", "offboard"])
def test_start_position_on_pins(board, closing):
    gpio, matrix = rig(board)
    closing(gpio)
    place(matrix, board, start_position(board))
    (frame,) = first_frames(gpio)
    assert frame.occupied == start_position(board)
    assert gpio.scanner.last_operations == board.rows * (board.columns + 2)


@pytest.mark.parametrize("board", [OFFBOARD, on_expander(BIGBALLS)], ids=["offboard", "bigballs"])
def test_start_position_on_mcp23017_expanders(board, closing):
    gpio, bus = rig(board)
    closing(gpio)
    place(bus, board, start_position(board))
    (frame,) = first_frames(gpio)
    assert frame.occupied == start_position(board)
    # Rows and columns set up: row pins outputs, column pull-ups on, seven to a port: GPB7 is
    # output-only and never a column.
    assert bus.registers[0x20][GPPUB] == (1 << min(7, board.columns)) - 1
    assert bus.registers[0x21][GPPUB] == (1 << max(0, board.columns - 7)) - 1
    assert bus.drive() == ["high"] * board.rows  # after a scan every row is idle again
    assert bus.bit7_inputs == 0
    # Per row one write and one read per chip with columns, and a release of each chip's rows.
    chips = (board.columns + 6) // 7
    assert gpio.scanner.last_operations == board.rows * (1 + chips) + (board.rows + 6) // 7


def test_expander_scan_counts_bus_transactions():
    circuit = Circuit(8, 10)
    bus = FakeMcpBus([0x20, 0x21], circuit)
    source = Mcp23017Matrix(bus, [0x20, 0x21], 8, 10)
    before = bus.transactions
    source.read()
    assert bus.transactions - before == source.operations == 8 * 3 + 2  # rows 0-6 on 0x20, row 7 on 0x21


def test_expander_at_a_missing_address_is_an_error():
    bus = FakeMcpBus([0x20], Circuit(4, 7))
    with pytest.raises(OSError):
        Mcp23017Matrix(bus, [0x27], 4, 7)
    with pytest.raises(ValueError, match="take up to 7 rows"):
        Mcp23017Matrix(bus, [0x20], 8, 10)


def test_rows_spanning_two_expanders():
    circuit = Circuit(12, 3)
    bus = FakeMcpBus([0x20, 0x21], circuit)
    scanner = MatrixScanner(Mcp23017Matrix(bus, [0x20, 0x21], 12, 3), debounce=1)
    for index in (0, 7 * 3 + 2, 8 * 3 + 1, 11 * 3 + 2):
        circuit.place(index)
    assert scanner.read_raw() == {0, 23, 25, 35}
    assert bus.drive() == ["high"] * 12


@settings(max_examples=seeds(40), deadline=None)
@given(st.sets(st.sampled_from(BIGBALLS.cells)))
def test_with_diodes_the_scan_reads_exactly_the_magnets(cells):
    board = BIGBALLS
    factory = MockFactory()
    circuit = Circuit(board.rows, board.columns, diodes=True)
    pins = MatrixPins(factory, board.settings_of("gpio").rows, board.settings_of("gpio").columns, circuit)
    scanner = MatrixScanner(GpioMatrix(board.settings_of("gpio").rows, board.settings_of("gpio").columns, pin_factory=factory), debounce=1)
    try:
        pins.place(*(board.sensor[c] for c in cells))
        assert cells_of(board, scanner.read_raw()) == cells
        assert circuit.shorts == 0
    finally:
        scanner.close()


# --------------------------------------------------------------------------------------------
# Debounce
# --------------------------------------------------------------------------------------------


def test_a_switch_bouncing_for_one_scan_is_not_reported(closing):
    board = BIGBALLS
    gpio, matrix = rig(board, debounce=3)
    closing(gpio)
    scanner = gpio.scanner
    a1, b2 = board.sensor["a1"], board.sensor["b2"]
    place(matrix, board, ["a1"])
    assert [scanner.scan() for _ in range(3)] == [set(), set(), {a1}]  # three agreeing scans
    # b2 closes for one scan only (a passing magnet, a bounce): never reported.
    place(matrix, board, ["b2"])
    assert scanner.scan() == {a1}
    lift(matrix, board, ["b2"])
    assert [scanner.scan() for _ in range(5)] == [{a1}] * 5
    # a1 opens for one scan (a bounce while the piece settles): still there.
    lift(matrix, board, ["a1"])
    assert scanner.scan() == {a1}
    place(matrix, board, ["a1"])
    assert [scanner.scan() for _ in range(5)] == [{a1}] * 5
    # Chatter: closed, open, closed, closed, closed: the count starts again after each flip.
    seen = []
    for closed in (True, False, True, True, True):
        (place if closed else lift)(matrix, board, ["b2"])
        seen.append(b2 in scanner.scan())
    assert seen == [False, False, False, False, True]


def test_debounce_one_reports_at_once(closing):
    gpio, matrix = rig(BIGBALLS, debounce=1)
    closing(gpio)
    place(matrix, BIGBALLS, ["c1"])
    assert gpio.scanner.scan() == {BIGBALLS.sensor["c1"]}
    with pytest.raises(ValueError):
        MatrixScanner(gpio.scanner.source, debounce=0)


# --------------------------------------------------------------------------------------------
# Ghosts
# --------------------------------------------------------------------------------------------

NO_DIODES = dataclasses.replace(BIGBALLS, diodes=False)


def test_without_diodes_three_corners_make_a_phantom_fourth(closing):
    board = NO_DIODES
    gpio, matrix = rig(board, debounce=1)
    closing(gpio)
    # a1 (row 0, column 0), b1 (0, 1) and a2 (row 1, column 0): the fourth corner is b2 (1, 1).
    assert [divmod(board.sensor[c], board.columns) for c in ("a1", "b1", "a2", "b2")] == \
        [(0, 0), (0, 1), (1, 0), (1, 1)]
    place(matrix, board, ["a1", "b1", "a2"])
    assert cells_of(board, gpio.scanner.read_raw()) == {"a1", "b1", "a2", "b2"}
    # The physics: with row 1 selected, column 1's current goes down b1 into row 0 (released),
    # up a1 backwards (row 0 into column 0) and down a2 into row 1.
    drive = ["float", "low", "float", "float"]
    path = matrix.circuit.path(1, drive)
    assert path == [("c", 1), ("r", 0), ("c", 0), ("r", 1)]
    assert ("r", 0) in path and path.index(("c", 0)) == path.index(("r", 0)) + 1  # backwards
    assert matrix.circuit.shorts == 0  # idle rows are released, never driven high


def test_the_scanner_flags_every_corner_of_a_ghost_rectangle(closing, caplog):
    board = NO_DIODES
    gpio, matrix = rig(board)
    closing(gpio)
    place(matrix, board, ["a1", "b1", "a2", "e3"])
    with caplog.at_level(logging.WARNING, logger="reedboard.hal.gpio_board"):
        (frame,) = first_frames(gpio)
    assert frame.occupied == {"a1", "b1", "a2", "b2", "e3"}  # what the sensors read ...
    assert gpio.ghosts == {"a1", "b1", "a2", "b2"}  # ... and which of it cannot be trusted
    assert "possible ghost" in caplog.text and "b2" in caplog.text


def test_with_diodes_the_same_magnets_read_as_placed(closing):
    gpio, matrix = rig(BIGBALLS, debounce=1)
    closing(gpio)
    place(matrix, BIGBALLS, ["a1", "b1", "a2"])
    assert cells_of(BIGBALLS, gpio.scanner.scan()) == {"a1", "b1", "a2"}
    assert gpio.scanner.ghosts == frozenset()
    assert matrix.circuit.path(1, ["float", "low", "float", "float"]) is None


def test_without_diodes_rows_driven_high_would_short_two_outputs():
    factory = MockFactory()
    circuit = Circuit(4, 7, diodes=False)
    pins = MatrixPins(factory, BIGBALLS.settings_of("gpio").rows, BIGBALLS.settings_of("gpio").columns, circuit)
    pins.place(0, 7)  # a1 and a2: one column, two rows
    push_pull = GpioMatrix(BIGBALLS.settings_of("gpio").rows, BIGBALLS.settings_of("gpio").columns, pin_factory=factory, open_drain=False)
    push_pull.read()
    assert circuit.shorts > 0  # row 1 high, row 0 low, joined through a1 and a2
    push_pull.close()
    circuit.shorts = 0
    open_drain = GpioMatrix(BIGBALLS.settings_of("gpio").rows, BIGBALLS.settings_of("gpio").columns, pin_factory=factory, open_drain=True)
    assert open_drain.read() == [1, 1, 0, 0]
    assert circuit.shorts == 0
    open_drain.close()


def test_ghosts_on_expanders_without_diodes(closing):
    board = dataclasses.replace(OFFBOARD, diodes=False)
    gpio, bus = rig(board, debounce=1)
    closing(gpio)
    # A1 (row 0, column 0), A2 (0, 1), B6 (sensor 10: row 1, column 0); the phantom is C1 (1, 1).
    assert [divmod(board.sensor[c], board.columns) for c in ("A1", "A2", "B6", "C1")] == \
        [(0, 0), (0, 1), (1, 0), (1, 1)]
    place(bus, board, ["A1", "A2", "B6"])
    read = cells_of(board, gpio.scanner.scan())
    assert read == {"A1", "A2", "B6", "C1"}
    assert cells_of(board, gpio.scanner.ghosts) == read
    assert bus.circuit.shorts == 0
    # every row released (an input), GPA7 still an output: it is output-only
    assert bus.registers[0x20][OLATA] == 0x00 and bus.registers[0x20][IODIRA] == 0x7F
    assert bus.bit7_inputs == 0


def test_possible_ghosts_of_a_chain_of_switches():
    columns = 5
    # An L-shaped chain (0,0)-(0,3) , (2,3)-(2,4) , (4,4): reads as the full 3x3 block.
    assert possible_ghosts({0, 3}, columns) == frozenset()
    square = {0 * 5 + 1, 0 * 5 + 2, 3 * 5 + 1, 3 * 5 + 2}
    assert possible_ghosts(square | {4 * 5 + 4}, columns) == square


@settings(max_examples=seeds(40), deadline=None)
@given(st.sets(st.tuples(st.integers(0, 3), st.integers(0, 6)), max_size=10))
def test_without_diodes_every_phantom_is_flagged(switches):
    factory = MockFactory()
    circuit = Circuit(4, 7, diodes=False)
    pins = MatrixPins(factory, BIGBALLS.settings_of("gpio").rows, BIGBALLS.settings_of("gpio").columns, circuit)
    scanner = MatrixScanner(GpioMatrix(BIGBALLS.settings_of("gpio").rows, BIGBALLS.settings_of("gpio").columns, pin_factory=factory,
                                       open_drain=True), diodes=False, debounce=1)
    try:
        placed = {r * 7 + c for r, c in switches}
        pins.place(*placed)
        read = scanner.scan()
        assert placed <= read
        assert read - placed <= scanner.ghosts  # nothing phantom goes unflagged
        assert scanner.ghosts <= read
        assert circuit.shorts == 0
    finally:
        scanner.close()


# --------------------------------------------------------------------------------------------
# The frames() stream
# --------------------------------------------------------------------------------------------


def test_frames_follow_a_moving_magnet(closing):
    board = BIGBALLS
    gpio, matrix = rig(board)
    closing(gpio)
    start = start_position(board)
    place(matrix, board, start)
    moved_at = []

    def move(frames):
        lift(matrix, board, ["a1"])
        place(matrix, board, ["d1"])
        moved_at.append(gpio.scanner.scans)

    frames = first_frames(gpio, count=2, between=move)
    assert frames[0].occupied == start
    assert frames[1].occupied == (start - {"a1"}) | {"d1"}  # both in one debounced change
    assert frames[1].t >= frames[0].t
    # reported as soon as the debounce has seen it: `debounce` scans after the move, no later
    assert gpio.scanner.scans - moved_at[0] == gpio.scanner.debounce


def test_a_change_is_stamped_halfway_between_the_scan_that_missed_it_and_the_first_that_saw_it(closing):
    """The recogniser debounces again from a frame's time: the backend's own debounce scans
    must not be counted twice, and the switch moved somewhere between the last scan that
    missed it and the first that saw it, so a change carries the midpoint of those two."""
    clock = VirtualClock(1000.0)  # the loop's time and the board's
    gpio, matrix = rig(BIGBALLS, clock=clock)
    closing(gpio)
    scanned = []
    scan = gpio.scanner.scan

    def timed_scan():
        scanned.append(clock())
        return scan()

    gpio.scanner.scan = timed_scan

    async def main():
        stream = gpio.frames()
        await stream.__anext__()  # the empty board
        await asyncio.sleep(0.0101)  # between two scans
        placed, since = clock(), len(scanned)
        place(matrix, BIGBALLS, ["d1"])
        frame = await stream.__anext__()
        await stream.aclose()
        return placed, frame, scanned[since - 1], scanned[since:]

    placed, frame, missed, after = run_virtual(main(), clock)
    assert frame.occupied == {"d1"}
    assert missed < placed < after[0] < after[1]
    assert frame.t == pytest.approx((missed + after[0]) / 2, abs=1e-9)
    assert len(after) == gpio.scanner.debounce  # reported by the last of the debounce's scans


def test_frames_scan_250_times_a_second(closing):
    gpio, _ = rig(BIGBALLS)  # scan_interval: 4 ms by default
    closing(gpio)

    async def main():
        loop = asyncio.get_running_loop()
        stream = gpio.frames()
        await stream.__anext__()  # the first frame
        scans, started = gpio.scanner.scans, loop.time()
        with pytest.raises(TimeoutError):  # nothing changes for a second
            await asyncio.wait_for(stream.__anext__(), 1.0)
        await stream.aclose()
        return (gpio.scanner.scans - scans) / (loop.time() - started)

    assert run_virtual(main()) == pytest.approx(250, rel=0.02)


def test_a_board_without_matrix_pins_is_refused():
    board = BIGBALLS.with_settings("gpio", GpioPins())
    with pytest.raises(ValueError, match="row and column pins"):
        GpioBoard(board, pin_factory=MockFactory(), strip=FakeStrip(36))


# --------------------------------------------------------------------------------------------
# Lights and the die
# --------------------------------------------------------------------------------------------


def test_light_frame_on_the_chain(closing):
    board = BIGBALLS
    strip = FakeStrip(board.led_count)
    gpio, _ = rig(board, strip=strip, clock=FakeClock(100.0))
    closing(gpio)
    gpio.show(LightFrame(cells={"a1": Light("movable"), "c2": Light("last")}, die_pips=3, turn="red"))
    assert strip.rgb(board.led["a1"]) == PALETTE["movable"]
    assert strip.rgb(board.led["c2"]) == PALETTE["last"]
    assert strip.rgb(board.turn_led) == PALETTE["red"]
    lit_pips = {i for i, led in enumerate(board.die_pips) if strip.rgb(led) == PIP_COLOUR}
    assert lit_pips == set(PIPS[3])
    others = set(range(board.led_count)) - {board.led["a1"], board.led["c2"], board.turn_led} - set(board.die_pips)
    assert all(strip.rgb(i) == (0, 0, 0) for i in others)
    assert strip.shows == 1
    # Only what changes is written again.
    writes = strip.writes
    gpio.show(LightFrame(cells={"a1": Light("movable"), "c2": Light("last")}, die_pips=3, turn="white"))
    assert strip.writes == writes + 1 and strip.shows == 2
    gpio.show(LightFrame(cells={"a1": Light("movable"), "c2": Light("last")}, die_pips=3, turn="white"))
    assert strip.shows == 2


def test_leds_are_dimmed_to_the_budget(closing):
    board = dataclasses.replace(BIGBALLS, budget_ma=500.0)
    strip = FakeStrip(board.led_count)
    gpio, _ = rig(board, strip=strip)
    closing(gpio)
    everything = LightFrame(cells={cell: Light("winner") for cell in board.cells}, die_pips=6, turn="white")
    gpio.show(everything)
    drawn = current_ma([strip.rgb(i) for i in range(board.led_count)])
    assert 450 < drawn <= 500
    assert strip.rgb(board.led["a1"])[0] < PALETTE["winner"][0]  # dimmed, evenly
    roomy = dataclasses.replace(BIGBALLS, budget_ma=100_000.0)
    gpio2, _ = rig(roomy)
    closing(gpio2)
    gpio2.show(everything)
    assert gpio2.pixels[roomy.led["a1"]] == PALETTE["winner"]


def test_blinking_at_two_hertz_keeps_steady_leds_steady(closing):
    board = dataclasses.replace(BIGBALLS, budget_ma=300.0)  # capped: the factor must not flicker
    clock = FakeClock(100.0)
    strip = FakeStrip(board.led_count)
    gpio, _ = rig(board, strip=strip, clock=clock)
    closing(gpio)
    gpio.show(LightFrame(cells={"a1": Light("fill", blink=True), "b1": Light("movable"),
                                "c1": Light("choose", blink=True)}))
    a1, b1 = board.led["a1"], board.led["b1"]
    seen = []
    for t in (100.0, 100.1, 100.26, 100.4, 100.51, 100.74, 100.76):
        clock.t = t
        gpio.refresh()
        seen.append((strip.rgb(a1) != (0, 0, 0), strip.rgb(b1)))
    assert [on for on, _ in seen] == [True, True, False, False, True, True, False]  # 0.25 s halves
    assert len({steady for _, steady in seen}) == 1 and seen[0][1] != (0, 0, 0)
    # No blinking light: refresh changes nothing.
    gpio.show(LightFrame(cells={"b1": Light("movable")}))
    shows = strip.shows
    clock.t += 0.25
    gpio.refresh()
    assert strip.shows == shows


def test_blinking_runs_by_itself_in_a_loop(closing):
    clock = VirtualClock(1000.0)  # the loop's time and the board's
    strip = FakeStrip(BIGBALLS.led_count)
    gpio, _ = rig(BIGBALLS, strip=strip, clock=clock)
    closing(gpio)
    a1 = BIGBALLS.led["a1"]

    async def main():
        gpio.show(LightFrame(cells={"a1": Light("fill", blink=True)}))
        seen = []
        await asyncio.sleep(0.1)
        for _ in range(6):  # in the middle of each quarter second
            seen.append(strip.rgb(a1) != (0, 0, 0))
            await asyncio.sleep(0.25)
        gpio.show(LightFrame())
        await asyncio.sleep(0.3)
        return seen

    assert run_virtual(main(), clock) == [True, False, True, False, True, False]  # 2 Hz
    assert gpio._blink_task is None and strip.rgb(a1) == (0, 0, 0)


def test_the_die_shows_through_the_light_frame(closing):
    strip = FakeStrip(BIGBALLS.led_count)
    gpio, _ = rig(BIGBALLS, strip=strip)
    closing(gpio)
    gpio.show(DieState(DieFace.VALUE, 4))
    assert gpio.die == DieState(DieFace.VALUE, 4)
    gpio.show(LightFrame(die_pips=4))
    lit = [i for i, led in enumerate(BIGBALLS.die_pips) if strip.rgb(led) == PIP_COLOUR]
    assert lit == [0, 1, 5, 6]
    with pytest.raises(TypeError):
        gpio.show("four")


@pytest.mark.parametrize("driver, module", [("ws281x", "rpi_ws281x"), ("spi", "spidev")])
def test_the_led_driver_is_imported_only_when_the_chain_is_lit(closing, monkeypatch, driver, module):
    monkeypatch.setitem(sys.modules, module, None)  # as on a PC: not installed
    board = BIGBALLS.with_settings("gpio", dataclasses.replace(BIGBALLS.settings_of("gpio"), led_driver=driver))
    gpio, _ = rig(board, strip=None)
    closing(gpio)
    gpio.show(DieState(DieFace.ROLLING))  # nothing to light yet
    with pytest.raises(RuntimeError, match=f"the {driver} LED driver needs {module}"):
        gpio.show(LightFrame(cells={"a1": Light("movable")}))


# --------------------------------------------------------------------------------------------
# Buttons
# --------------------------------------------------------------------------------------------


def test_buttons_short_and_long_presses(closing):
    factory = MockFactory()
    gpio = GpioBoard(BIGBALLS, pin_factory=factory, strip=FakeStrip(36), long_press=1.0, clock=FakeClock(5.0))
    closing(gpio)
    die, ok = factory.pin(BIGBALLS.settings_of("gpio").die_button), factory.pin(BIGBALLS.settings_of("gpio").ok_button)
    assert die.pull == "up" and die.bounce == pytest.approx(0.02)
    past_bounce = 0.04  # s between two edges of one button: longer than its bounce time

    async def main():
        got = []

        async def pump():
            async for press in gpio.presses():
                got.append(press)

        task = asyncio.create_task(pump())
        ok.drive_low()  # pressed (to ground), released long before the long-press time
        await asyncio.sleep(past_bounce)
        ok.drive_high()
        await until(lambda: len(got) == 1)
        die.drive_low()
        await until(lambda: len(got) == 2)  # the long press comes while still held
        die.drive_high()  # the release after a long press gives nothing more:
        await asyncio.sleep(past_bounce)
        ok.drive_low()
        await asyncio.sleep(past_bounce)
        ok.drive_high()
        await until(lambda: len(got) == 3)  # the next press is ok's
        task.cancel()
        return got

    assert asyncio.run(main()) == [Press(5.0, Button.OK, False), Press(5.0, Button.DIE, True),
                                   Press(5.0, Button.OK, False)]


def test_long_press_is_one_second_by_default(closing):
    factory = MockFactory()
    gpio = GpioBoard(BIGBALLS, pin_factory=factory, strip=FakeStrip(36))
    closing(gpio)
    assert [b.hold_time for b in gpio._buttons.values()] == [1.0, 1.0]


def test_presses_before_anyone_listens_are_kept(closing):
    factory = MockFactory()
    gpio = GpioBoard(OFFBOARD, pin_factory=factory, bus=FakeMcpBus([0x20, 0x21], Circuit(8, 10)),
                     strip=FakeStrip(OFFBOARD.led_count), clock=FakeClock(1.0))
    closing(gpio)
    assert set(gpio._buttons) == {Button.OK}  # the offboard board has no die button
    ok = factory.pin(OFFBOARD.settings_of("gpio").ok_button)
    ok.drive_low()
    ok.drive_high()

    async def main():
        stream = gpio.presses()
        press = await asyncio.wait_for(stream.__anext__(), WAIT)
        await stream.aclose()
        return press

    assert asyncio.run(main()) == Press(1.0, Button.OK, False)


# --------------------------------------------------------------------------------------------
# The buzzer
# --------------------------------------------------------------------------------------------


class RecordingPWMPin(MockPWMPin):
    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.tones: list[float | None] = []

    def _set_frequency(self, value):
        super()._set_frequency(value)
        if not self.tones or self.tones[-1] != value:
            self.tones.append(value)


def test_tonal_buzzer_plays_each_cue_as_a_tune(closing):
    from gpiozero.tones import Tone

    factory = MockFactory(pin_class=RecordingPWMPin)  # pins that can do PWM, as lgpio's
    gpio = GpioBoard(BIGBALLS, pin_factory=factory, strip=FakeStrip(36))
    pin = factory.pin(BIGBALLS.settings_of("gpio").buzzer)
    closing(gpio)
    assert gpio.tonal
    for cue in Cue:
        pin.tones.clear()
        gpio.play(cue)
        gpio.wait_quiet()
        steps = [None if note is None else Tone(note).frequency for note, _ in CUE_PATTERNS[cue]]
        expected = [f for i, f in enumerate(steps + [None]) if i == 0 or steps[i - 1] != f]
        assert pin.tones == expected, cue  # each note (a rest: silence), and silent at the end
    assert gpio.cues == list(Cue)


def stop_events(monkeypatch, hold) -> list:
    """Each cue's stop event from now on, in order; a note's wait is `hold(event, seconds)`
    (asked how long it lasts, it decides how long it really waits)."""
    made = []

    class Stop(threading.Event):
        def __init__(self) -> None:
            super().__init__()
            self.asked: list[float] = []
            made.append(self)

        def wait(self, timeout=None):
            self.asked.append(timeout)
            return super().wait(hold(self, timeout))

    monkeypatch.setattr(gpio_board_module, "threading", SimpleNamespace(Event=Stop, Thread=threading.Thread))
    return made


def test_plain_buzzer_beeps_the_rhythm(closing, monkeypatch):
    factory = MockFactory()  # plain MockPin: no PWM, so no TonalBuzzer
    gpio = GpioBoard(BIGBALLS, pin_factory=factory, strip=FakeStrip(36))
    closing(gpio)
    stops = stop_events(monkeypatch, lambda stop, seconds: 0)  # no need to wait them out
    assert not gpio.tonal
    pin = factory.pin(BIGBALLS.settings_of("gpio").buzzer)
    pin.clear_states()
    gpio.play(Cue.ILLEGAL)  # beep, rest, beep
    gpio.wait_quiet(WAIT)
    assert [s.state for s in pin.states] == [False, True, False, True, False]
    assert stops[-1].asked == [0.15, 0.05, 0.15]  # each beep and rest as long as the pattern says


def test_a_new_cue_cuts_off_the_last(closing, monkeypatch):
    factory = MockFactory(pin_class=RecordingPWMPin)  # pins that can do PWM, as lgpio's
    gpio = GpioBoard(BIGBALLS, pin_factory=factory, strip=FakeStrip(36))
    pin = factory.pin(BIGBALLS.settings_of("gpio").buzzer)
    closing(gpio)
    # the first cue's first note lasts until it is cut off; the next cue's notes pass at once
    stops = stop_events(monkeypatch, lambda stop, seconds: WAIT if stop is stops[0] else 0)
    pin.tones.clear()
    gpio.play(Cue.GAME_OVER)  # G5, E5, C5
    gpio.play(Cue.MOVE)  # A5
    gpio.wait_quiet(WAIT)
    assert stops[0].is_set() and len(stops[0].asked) == 1  # stopped on its first note
    assert [f for f in pin.tones if f is not None] == [pytest.approx(783.99, abs=0.01), 880.0]


def test_a_board_without_buzzer_only_remembers_cues(closing):
    board = BIGBALLS.with_settings("gpio", dataclasses.replace(BIGBALLS.settings_of("gpio"), buzzer=None))
    gpio = GpioBoard(board, pin_factory=MockFactory(), strip=FakeStrip(36))
    closing(gpio)
    gpio.play(Cue.READY)
    gpio.wait_quiet()
    assert gpio.cues == [Cue.READY]


def test_close_darkens_the_chain_and_frees_the_pins():
    factory = MockFactory()
    strip = FakeStrip(BIGBALLS.led_count)
    gpio = GpioBoard(BIGBALLS, pin_factory=factory, strip=strip)
    gpio.show(LightFrame(cells={"a1": Light("movable")}))
    gpio.close()
    assert strip.pixels == [0] * BIGBALLS.led_count
    again = GpioBoard(BIGBALLS, pin_factory=factory, strip=FakeStrip(36))  # the pins are free again
    again.close()


def test_close_keeps_an_injected_bus_open():
    bus = FakeMcpBus([0x20, 0x21], Circuit(8, 10))
    gpio = GpioBoard(OFFBOARD, pin_factory=MockFactory(), bus=bus, strip=FakeStrip(74))
    gpio.close()
    assert not bus.closed
    assert bus.registers[0x20][IODIRA] == bus.registers[0x21][IODIRA] == 0x7F  # rows released, GPA7 an output


def test_a_bus_error_is_reported_and_the_scan_goes_on(closing, caplog):
    board = OFFBOARD
    gpio, bus = rig(board)
    closing(gpio)
    place(bus, board, ["A1"])
    real_read = bus.read_byte_data
    failures = iter([True, True])

    def flaky(address, register):
        if register == GPIOB and next(failures, False):
            raise OSError(121, "Remote I/O error")
        return real_read(address, register)

    bus.read_byte_data = flaky
    with caplog.at_level(logging.WARNING, logger="reedboard.hal.gpio_board"):
        (frame,) = first_frames(gpio)
    assert frame.occupied == {"A1"}
    assert "cannot be read" in caplog.text and "reads again" in caplog.text


# --------------------------------------------------------------------------------------------
# Pin factories: who chooses, and the matrix scan through each
# --------------------------------------------------------------------------------------------


class StandIn:
    """A gpiozero pin factory's entry point whose factory is a MockFactory made beforehand
    (with the simulated matrix on its pins): it records that the board asked for it."""

    def __init__(self, name: str, factory) -> None:
        self.name, self.factory, self.loads = name, factory, 0

    def load(self):
        self.loads += 1
        return lambda: self.factory


def with_factory(board: Board, name: str | None) -> Board:
    return dataclasses.replace(board.with_settings("gpio", dataclasses.replace(board.settings_of("gpio"), pin_factory=name)),
                               source="my-board.toml")


@pytest.mark.parametrize("name", ["lgpio", "rpigpio"])
def test_the_matrix_scans_through_the_pin_factory_the_board_file_names(closing, monkeypatch, name):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    board = with_factory(BIGBALLS, name)
    factory = MockFactory()
    matrix = MatrixPins(factory, board.settings_of("gpio").rows, board.settings_of("gpio").columns, Circuit(board.rows, board.columns))
    entries = {n: StandIn(n, factory) for n in ("lgpio", "rpigpio", "native")}
    monkeypatch.setattr(gpio_board_module, "_factory_classes", lambda: entries)
    start = start_position(board)
    place(matrix, board, start)
    gpio = GpioBoard(board, strip=FakeStrip(36))
    closing(gpio)
    assert [e.loads for e in entries.values()] == [n == name for n in entries]
    assert gpio.pin_factory is factory and gpio.pin_factory_name == name
    assert gpio.pin_factory_chosen_by == "my-board.toml [gpio] pin_factory"
    assert first_frames(gpio)[0].occupied == start
    lift(matrix, board, ["a1"])
    assert gpio.scanner.read_raw() == {board.sensor[c] for c in start - {"a1"}}
    gpio.close()
    assert factory.pins == {}  # the board closed the factory it started


def test_the_environment_wins_over_the_configuration_and_the_board_file(closing, monkeypatch):
    board = with_factory(BIGBALLS, "lgpio")
    choose = gpio_board_module.choose_pin_factory
    assert choose(board, None, {}) == ("lgpio", "my-board.toml [gpio] pin_factory")
    assert choose(board, "rpigpio", {}) == ("rpigpio", "the configuration")
    assert choose(board, "rpigpio", {"GPIOZERO_PIN_FACTORY": "native"}) == (
        "native", "GPIOZERO_PIN_FACTORY in the environment")
    assert choose(with_factory(BIGBALLS, None), None, {}) == (None, "gpiozero's default")
    # Through the board: the environment's factory is the one started.
    factory = MockFactory()
    entries = {n: StandIn(n, factory) for n in ("lgpio", "rpigpio")}
    monkeypatch.setattr(gpio_board_module, "_factory_classes", lambda: entries)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "rpigpio")
    gpio = GpioBoard(board, pin_factory="lgpio", strip=FakeStrip(36))
    closing(gpio)
    assert (entries["rpigpio"].loads, entries["lgpio"].loads) == (1, 0)


def test_a_factory_named_is_looked_up_in_gpiozero_itself(closing, monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    gpio = GpioBoard(with_factory(BIGBALLS, "mock"), strip=FakeStrip(36))  # gpiozero's own entry point
    closing(gpio)
    assert isinstance(gpio.pin_factory, MockFactory)
    assert gpio.scanner.read_raw() == frozenset()


def test_a_factory_that_is_unknown_or_cannot_start_is_one_line(monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "bogus")
    with pytest.raises(gpio_board_module.PinFactoryError) as raised:
        GpioBoard(BIGBALLS, strip=FakeStrip(36))
    assert str(raised.value) == ("GPIOZERO_PIN_FACTORY in the environment: no pin factory 'bogus':"
                                 " choose lgpio, mock, native, pigpio, rpigpio")
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY")
    monkeypatch.setitem(sys.modules, "lgpio", None)  # as on a PC: not installed
    with pytest.raises(gpio_board_module.PinFactoryError) as raised:
        GpioBoard(with_factory(BIGBALLS, "lgpio"), strip=FakeStrip(36))
    message = str(raised.value)
    assert message.startswith("my-board.toml [gpio] pin_factory: the lgpio pin factory cannot start (")
    assert "pip install lgpio" in message and "\n" not in message
