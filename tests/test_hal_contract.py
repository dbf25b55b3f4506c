"""One contract for every board backend: sim, gpio (on mock pins) and serial (the firmware
behind a pty). The referee never asks which one it has, so each must behave the same."""

import asyncio
import time

import pytest
from gpiozero.pins.mock import MockFactory

from reedboard.controller.games import BigBalls
from reedboard.hal.board import load_board
from reedboard.hal.mock.fakeboard import FakeBoard
from reedboard.hal.gpio_board import GpioBoard
from reedboard.hal.interfaces import Button, Cue, DieFace, DieState, Light, LightFrame
from reedboard.hal.leds import capped, chain
from reedboard.hal.mock.matrix import Circuit, FakeMcpBus, FakeStrip, MatrixPins
from reedboard.hal.serial_board import SerialBoard
from reedboard.hal.sim import SimBoard

BOARD = load_board(game="bigballs")
START = frozenset(BigBalls().occupied())


class SimRig:
    def __init__(self, board=BOARD, start=START):
        self.board = board
        self.device = SimBoard(board, start)

    def place(self, cell):
        self.device.place(cell)

    def lift(self, cell):
        self.device.lift(cell)

    def press_die(self):
        self.device.press(Button.DIE)

    def leds(self):
        return list(self.device.addresses.colours)  # the chain as shown, dimmed to the budget

    def close(self):
        pass


class GpioRig:
    """The board on gpiozero's mock pins: its matrix on the Pi's pins, or on MCP23017 expanders
    when the board file says so."""

    def __init__(self, board=BOARD, start=START):
        self.board = board
        self.factory = MockFactory()
        circuit = Circuit(board.rows, board.columns, board.diodes)
        options = {}
        if board.gpio.expander is not None:
            options["bus"] = FakeMcpBus(board.gpio.expander[1], circuit)
            self.matrix = circuit  # the expanders read the circuit as it stands
        else:
            self.matrix = MatrixPins(self.factory, board.gpio.rows, board.gpio.columns, circuit)
        for cell in start:
            self.matrix.place(board.sensor[cell])
        self.strip = FakeStrip(board.led_count)
        self.device = GpioBoard(board, pin_factory=self.factory, strip=self.strip, **options)

    def place(self, cell):
        self.matrix.place(self.board.sensor[cell])

    def lift(self, cell):
        self.matrix.lift(self.board.sensor[cell])

    def press_die(self):
        pin = self.factory.pin(self.board.gpio.die_button)
        pin.drive_low()
        time.sleep(0.05)
        pin.drive_high()

    def leds(self):
        return [self.strip.rgb(i) for i in range(self.board.led_count)]

    def close(self):
        self.device.close()


class SerialRig:
    def __init__(self, board=BOARD, start=START):
        self.fake = FakeBoard(board.name, occupied=start).start()
        self.device = SerialBoard(board, self.fake.port)

    def place(self, cell):
        self.fake.place(cell)

    def lift(self, cell):
        self.fake.lift(cell)

    def press_die(self):
        self.fake.press("die")

    def leds(self):
        return list(self.fake.leds)

    def close(self):
        self.device.close()
        self.fake.stop()


@pytest.fixture(params=["sim", "gpio", "serial"])
def rig(request):
    rig = {"sim": SimRig, "gpio": GpioRig, "serial": SerialRig}[request.param]()
    yield rig
    rig.close()


async def next_frame(stream, timeout=3.0):
    return await asyncio.wait_for(stream.__anext__(), timeout)


def test_the_board_senses_its_cells(rig):
    assert tuple(rig.device.cells) == BOARD.cells


def test_frames_report_the_pieces_and_every_change(rig):
    async def run():
        stream = rig.device.frames()
        try:
            first = await next_frame(stream)
            rig.lift("a5")
            lifted = await next_frame(stream)
            rig.place("a4")
            placed = await next_frame(stream)
        finally:
            await stream.aclose()
        return first, lifted, placed

    first, lifted, placed = asyncio.run(run())
    assert first.occupied == START
    assert lifted.occupied == START - {"a5"}
    assert placed.occupied == (START - {"a5"}) | {"a4"}
    assert first.t <= lifted.t <= placed.t


def test_the_die_button_arrives_as_a_press(rig):
    async def run():
        stream = rig.device.presses()
        try:
            waiting = asyncio.ensure_future(stream.__anext__())
            await asyncio.sleep(0.2)  # the stream is listening
            await asyncio.get_running_loop().run_in_executor(None, rig.press_die)
            return await asyncio.wait_for(waiting, 3.0)
        finally:
            await stream.aclose()

    press = asyncio.run(run())
    assert press.button is Button.DIE and not press.long


def test_a_light_frame_reaches_the_leds_within_the_current_budget(rig):
    frame = LightFrame({"a1": Light("movable"), "b2": Light("last"), "a7": Light("winner")}, die_pips=5, turn="white")
    expected = capped(chain(frame, BOARD)[0], BOARD.budget_ma)
    rig.device.show(frame)
    rig.device.show(DieState(DieFace.VALUE, 5))
    rig.device.play(Cue.MOVE)
    deadline = time.monotonic() + 3
    while rig.leds() != expected and time.monotonic() < deadline:
        time.sleep(0.02)
    assert rig.leds() == expected
    assert expected[BOARD.led["a1"]] != (0, 0, 0) and expected[BOARD.led["c1"]] == (0, 0, 0)


def test_the_address_level_reports_switches_and_lights_leds_by_index(rig):
    from reedboard.hal.addresses import LedFrame
    from reedboard.hal.colours import PALETTE

    addresses = rig.device.addresses  # what the self-test and the calibration run on
    at = {cell: BOARD.sensor[cell] for cell in BOARD.cells}

    async def run():
        stream = addresses.switches()
        try:
            first = await next_frame(stream)
            rig.lift("a5")
            lifted = await next_frame(stream)
        finally:
            await stream.aclose()
        return first, lifted

    first, lifted = asyncio.run(run())
    assert first.closed == {at[c] for c in START}
    assert lifted.closed == {at[c] for c in START - {"a5"}}
    pip = BOARD.die_pips[3]  # an LED under no hollow: only the address level can light it alone
    addresses.show_leds(*LedFrame({pip: Light("place")}).chain(BOARD.led_count))
    expected = [PALETTE["place"] if i == pip else (0, 0, 0) for i in range(BOARD.led_count)]
    deadline = time.monotonic() + 10
    while rig.leds() != expected and time.monotonic() < deadline:
        time.sleep(0.02)
    assert rig.leds() == expected
