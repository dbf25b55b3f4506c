"""A simulated reed-switch matrix behind gpiozero's MockFactory pins, and MCP23017s on a fake bus.

Part of the library, as gpiozero's own mock pins are: tests, the simulator and a self-test
on a mock board run the real scanning code against it. The Circuit is a small model of
the matrix: rows, columns and the reed switches that magnets have closed, with or without
a diode in series with each switch. Given how each row is driven (low, high, or released),
it works out which columns are pulled low: a column is low when a path of closed switches
leads from it to a row driven low, through released rows and other columns on the way. A
diode lets current through a switch only from the column into the row, so with diodes the
path is one switch long; without them current can run backwards through a switch, which is
what makes ghosts.
"""

from __future__ import annotations

from collections import deque

from gpiozero.pins.mock import MockFactory, MockPin

from ..matrix import GPIOB, GPPUB, IODIRA, IODIRB, IPOLB, OLATA, OLATB, PINS_PER_PORT, expander_pin


class Circuit:
    """Reed switches in a matrix; rows driven "low", "high" or "float" (released)."""

    def __init__(self, rows: int, columns: int, diodes: bool = True) -> None:
        self.rows, self.columns, self.diodes = rows, columns, diodes
        self.closed: set[tuple[int, int]] = set()
        self.shorts = 0  # evaluations in which a row driven high met a row driven low

    def _neighbours(self, node):
        kind, i = node
        if kind == "c":  # column -> row: the way current flows (through the diode)
            return [("r", r) for r in range(self.rows) if (r, i) in self.closed]
        if self.diodes:  # row -> column would be backwards through a diode: blocked
            return []
        return [("c", c) for c in range(self.columns) if (i, c) in self.closed]

    def path(self, column: int, drive) -> list | None:
        """The path of current from `column` (its pull-up) to a row driven low, or None."""
        start = ("c", column)
        came = {start: None}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            for nxt in self._neighbours(node):
                if nxt in came:
                    continue
                came[nxt] = node
                if nxt[0] == "r" and drive[nxt[1]] == "high":
                    continue  # a strongly driven high row: no path through it
                if nxt[0] == "r" and drive[nxt[1]] == "low":
                    path = [nxt]
                    while came[path[-1]] is not None:
                        path.append(came[path[-1]])
                    return path[::-1]
                queue.append(nxt)
        return None

    def levels(self, drive) -> list[bool]:
        """Each column's level: False (low) when a path leads to a row driven low."""
        for r, state in enumerate(drive):
            if state == "high" and not self.diodes:
                # A high row joined to a low row through closed switches: two outputs shorted.
                seen, queue = {("r", r)}, deque([("r", r)])
                while queue:
                    node = queue.popleft()
                    for nxt in self._neighbours(node):
                        if nxt not in seen:
                            seen.add(nxt)
                            queue.append(nxt)
                if any(drive[i] == "low" for kind, i in seen if kind == "r"):
                    self.shorts += 1
                    break
        return [self.path(c, drive) is None for c in range(self.columns)]

    def place(self, index: int) -> None:
        self.closed.add(divmod(index, self.columns))

    def lift(self, index: int) -> None:
        self.closed.discard(divmod(index, self.columns))


class RowPin(MockPin):
    """A row's pin: every change of level or direction re-settles the matrix."""

    def __init__(self, factory, info, matrix=None):
        self.matrix = None
        super().__init__(factory, info)
        self.matrix = matrix

    def _set_function(self, value):
        super()._set_function(value)
        if self.matrix is not None:
            self.matrix.settle()

    def _change_state(self, value):
        changed = super()._change_state(value)
        if changed and self.matrix is not None:
            self.matrix.settle()
        return changed


class ColumnPin(MockPin):
    """A column's pin: setting its pull re-settles the matrix (the pull-up drives it high)."""

    def __init__(self, factory, info, matrix=None):
        self.matrix = None
        super().__init__(factory, info)
        self.matrix = matrix

    def _set_pull(self, value):
        super()._set_pull(value)
        if self.matrix is not None:
            self.matrix.settle()


class MatrixPins:
    """A Circuit wired to mock pins: column pins follow the driven row and the magnets."""

    def __init__(self, factory: MockFactory, row_pins, column_pins, circuit: Circuit) -> None:
        self.circuit = circuit
        self.rows = [factory.pin(p, pin_class=RowPin, matrix=self) for p in row_pins]
        self.columns = [factory.pin(p, pin_class=ColumnPin, matrix=self) for p in column_pins]
        self.settles = 0

    def drive(self) -> list[str]:
        return ["float" if pin.function == "input" else "high" if pin.state else "low" for pin in self.rows]

    def settle(self) -> None:
        self.settles += 1
        for pin, high in zip(self.columns, self.circuit.levels(self.drive())):
            if pin.function != "input":
                continue
            if not high or pin.pull != "up":  # pulled low, or floating: reads low (a fault)
                pin.drive_low()
            else:
                pin.drive_high()

    def place(self, *indices: int) -> None:
        for index in indices:
            self.circuit.place(index)
        self.settle()

    def lift(self, *indices: int) -> None:
        for index in indices:
            self.circuit.lift(index)
        self.settle()


class FakeMcpBus:
    """MCP23017s on an I2C bus (smbus2's read_byte_data/write_byte_data), wired to a Circuit:
    rows on the GPA pins, columns on the GPB pins, seven to a port (hal.matrix.expander_pin),
    chips in address order. `bit7_inputs` counts the register writes that made GPA7 or GPB7
    an input after power-on (the datasheet makes them output-only)."""

    def __init__(self, addresses, circuit: Circuit) -> None:
        self.addresses = list(addresses)
        self.circuit = circuit
        self.registers = {}
        for address in self.addresses:
            regs = bytearray(0x16)
            regs[0x00] = regs[0x01] = 0xFF  # IODIRA/B: inputs at power-on
            self.registers[address] = regs
        self.transactions = 0
        self.bit7_inputs = 0
        self.closed = False

    def _chip(self, address):
        if address not in self.registers:
            raise OSError(121, "Remote I/O error")  # nobody answers at this address
        return self.registers[address]

    def write_byte_data(self, address, register, value):
        self.transactions += 1
        regs = self._chip(address)
        if register in (0x12, 0x13):  # writing GPIO writes the output latch
            register += 2
        if register in (IODIRA, IODIRB) and value & 0x80:
            self.bit7_inputs += 1
        regs[register] = value & 0xFF

    def drive(self) -> list[str]:
        drive = []
        for r in range(self.circuit.rows):
            chip, at = expander_pin(r)
            regs = self.registers[self.addresses[chip]]
            bit = 1 << at
            if regs[IODIRA] & bit:
                drive.append("float")
            else:
                drive.append("high" if regs[OLATA] & bit else "low")
        return drive

    def read_byte_data(self, address, register):
        self.transactions += 1
        regs = self._chip(address)
        if register != GPIOB:
            return regs[register]
        chip = self.addresses.index(address)
        levels = self.circuit.levels(self.drive())
        value = 0
        for bit in range(PINS_PER_PORT):
            column = PINS_PER_PORT * chip + bit
            pulled_up = regs[GPPUB] >> bit & 1
            high = pulled_up and (column >= self.circuit.columns or levels[column])
            value |= int(bool(high)) << bit
        if not regs[IODIRB] & 0x80:  # GPB7, an output: reads its latch
            value |= regs[OLATB] & 0x80
        return value ^ regs[IPOLB]

    def close(self):
        self.closed = True


class FakeStrip:
    """rpi_ws281x's PixelStrip, as far as the board uses it."""

    def __init__(self, count: int) -> None:
        self.pixels = [0] * count
        self.shows = 0
        self.writes = 0

    def setPixelColor(self, index, colour):  # noqa: N802 - rpi_ws281x's name
        self.pixels[index] = colour
        self.writes += 1

    def show(self):
        self.shows += 1

    def rgb(self, index):
        colour = self.pixels[index]
        return (colour >> 16 & 255, colour >> 8 & 255, colour & 255)
