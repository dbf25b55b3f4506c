"""A board under test hands, on each backend: sim, gpio (gpiozero's mock pins) and serial (the
firmware's fake behind a pty). Hands place and lift pieces, press the die button and read the LEDs
as shown, whichever backend it is; the `rig` fixture (conftest.py) runs a test on each."""

import time

from gpiozero.pins.mock import MockFactory

from reedboard.controller.games import BigBalls
from reedboard.hal.board import load_board
from reedboard.hal.gpio_board import GpioBoard
from reedboard.hal.interfaces import Button
from reedboard.hal.mock.fakeboard import FakeBoard
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
        if board.settings_of("gpio").expander is not None:
            options["bus"] = FakeMcpBus(board.settings_of("gpio").expander[1], circuit)
            self.matrix = circuit  # the expanders read the circuit as it stands
        else:
            self.matrix = MatrixPins(self.factory, board.settings_of("gpio").rows, board.settings_of("gpio").columns, circuit)
        for cell in start:
            self.matrix.place(board.sensor[cell])
        self.strip = FakeStrip(board.led_count)
        self.device = GpioBoard(board, pin_factory=self.factory, strip=self.strip, **options)

    def place(self, cell):
        self.matrix.place(self.board.sensor[cell])

    def lift(self, cell):
        self.matrix.lift(self.board.sensor[cell])

    def press_die(self):
        pin = self.factory.pin(self.board.settings_of("gpio").die_button)
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


RIGS = {"sim": SimRig, "gpio": GpioRig, "serial": SerialRig}  # by backend name, as the tests are named
