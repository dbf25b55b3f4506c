"""The reed-switch matrix: drive one row at a time, read the columns, debounce, look for ghosts.

Wiring (the same for every source below, and for the Pico firmware):

- **Rows are active low.** The selected row is driven low; a column is pulled up, so it reads
  low exactly when a closed switch (and, on a diode board, its diode: anode on the column,
  cathode on the row) joins it to the selected row. Sensor index = row * columns + column.
- **Idle rows** are driven high on a diode board (push-pull: the diodes block every path from
  one row to another). On a board *without* diodes they are released instead (high
  impedance, "open drain"): two magnets in one column would otherwise join an idle row driven
  high to the selected row driven low, shorting two outputs. Released rows are also what
  makes ghosting happen: current from a column's pull-up can run through a closed switch into
  an idle row and back out, backwards, through another closed switch into a second column,
  so three closed corners of a rectangle make the fourth read closed. The scanner cannot tell
  which corner is the phantom: it reports every corner of such a rectangle in `ghosts`.

Sources say how the pins are reached; the scanner does the rest:

- `GpioMatrix`: pins of the Pi through gpiozero (rows: DigitalOutputDevice; columns:
  InputDevice with the pull-up on; any pin factory, MockFactory in tests).
- `Mcp23017Matrix`: MCP23017 expanders over I2C (an smbus2 SMBus or anything with
  read_byte_data/write_byte_data): rows on port A, columns on port B, seven to a port
  (`expander_pin`): GPA7 and GPB7 are never rows or columns.
- `MatrixScanner(source, diodes=..., debounce=N)`: `scan()` reads the whole matrix once and
  returns the debounced set of closed sensor indices.

Every source counts its pin operations (GPIO reads and writes, or I2C transactions) in
`operations`, for the benchmark.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Protocol

__all__ = [
    "GpioMatrix", "MatrixScanner", "MatrixSource", "Mcp23017Matrix", "PINS_PER_PORT", "expander_pin",
    "possible_ghosts",
    "IODIRA", "IODIRB", "IPOLA", "IPOLB", "GPPUA", "GPPUB", "GPIOA", "GPIOB", "OLATA", "OLATB",
]


class MatrixSource(Protocol):
    """How the rows are driven and the columns read."""

    rows: int
    columns: int
    operations: int  # pin operations (or bus transactions) since the source was made

    def read(self) -> list[int]:
        """One full pass: for each row, the bit mask of the columns that read closed."""
        ...

    def close(self) -> None: ...


def _busy_wait(seconds: float) -> None:
    if seconds > 0:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            pass


class GpioMatrix:
    """A matrix wired straight to the Pi's pins, through gpiozero devices.

    `row_pins` and `column_pins` are pin numbers as gpiozero takes them (BCM numbers, or
    names like "GPIO5"). `open_drain` releases idle rows instead of driving them high (use it
    on boards without diodes: see the module text); gpiozero has no open-drain output
    device, so the row's DigitalOutputDevice keeps the pin reserved and its pin is switched
    between output (low) and input (no pull). `settle` is a wait in seconds between selecting
    a row and reading the columns, for long wires; gpiozero's own overhead is already
    several microseconds.

    Columns are gpiozero `InputDevice`s (the base of DigitalInputDevice, with the same
    pull_up=True): DigitalInputDevice would also arm an edge callback on every column, one
    thread wake-up per column edge, hundreds a second while scanning, which nothing uses.
    """

    def __init__(self, row_pins: Sequence, column_pins: Sequence, *, pin_factory=None,
                 open_drain: bool = False, settle: float = 0.0) -> None:
        from gpiozero import DigitalOutputDevice, InputDevice

        if not row_pins or not column_pins:
            raise ValueError("a matrix needs at least one row pin and one column pin")
        self.rows = len(row_pins)
        self.columns = len(column_pins)
        self.open_drain = open_drain
        self.settle = settle
        self.operations = 0
        self._rows: list = []
        self._columns: list = []
        try:
            for pin in row_pins:
                # active_high=False: on() drives the pin low (the selected row); off() high.
                self._rows.append(DigitalOutputDevice(pin, active_high=False, initial_value=False,
                                                      pin_factory=pin_factory))
            for pin in column_pins:
                self._columns.append(InputDevice(pin, pull_up=True, pin_factory=pin_factory))
            if open_drain:
                for row in self._rows:
                    row.pin.function = "input"
                    row.pin.pull = "floating"
        except Exception:
            self.close()
            raise

    def _select(self, row) -> None:
        if self.open_drain:
            row.pin.function = "output"
            row.pin.state = False
            self.operations += 2
        else:
            row.on()
            self.operations += 1

    def _release(self, row) -> None:
        if self.open_drain:
            row.pin.function = "input"
        else:
            row.off()
        self.operations += 1

    def read(self) -> list[int]:
        masks = []
        columns = self._columns
        for row in self._rows:
            self._select(row)
            _busy_wait(self.settle)
            mask = 0
            for bit, column in enumerate(columns):
                if column.is_active:  # pulled up: active (closed) when the pin reads low
                    mask |= 1 << bit
            self.operations += len(columns)
            self._release(row)
            masks.append(mask)
        return masks

    def close(self) -> None:
        for device in self._rows + self._columns:
            device.close()
        self._rows, self._columns = [], []


# MCP23017 registers with IOCON.BANK = 0 (the power-on default).
IODIRA, IODIRB = 0x00, 0x01  # direction: 1 = input
IPOLA, IPOLB = 0x02, 0x03  # input polarity: 1 = inverted
GPPUA, GPPUB = 0x0C, 0x0D  # 100 kOhm pull-ups: 1 = on
GPIOA, GPIOB = 0x12, 0x13  # the pins' levels
OLATA, OLATB = 0x14, 0x15  # output latches


# The lines of a port the matrix uses: GP0-GP6. The MCP23017's datasheet (DS20001952D, 2022)
# makes GPA7 and GPB7 output-only: read as an input, a level that changes during the I2C read
# can corrupt SDA. So no row or column is ever on them (a row is switched to an input when it
# is released on a board without diodes); they are set as outputs, latched low, and left
# unconnected.
PINS_PER_PORT = 7
_PORT = (1 << PINS_PER_PORT) - 1  # 0x7F: GPx0-GPx6


def expander_pin(index: int) -> tuple[int, int]:
    """Where matrix row (or column) `index` is on the expanders: (the chip's place in the
    address list, the bit of its port A (or B)). Seven lines to a port, GPx0-GPx6."""
    return divmod(index, PINS_PER_PORT)


class Mcp23017Matrix:
    """A matrix on MCP23017 expanders: rows on port A, columns on port B, chips in address order.

    With addresses [a0, a1, ...], row r is pin GPA(r % 7) of chip r // 7 and column c is
    GPB(c % 7) of chip c // 7 (`expander_pin`): two chips take up to 14 rows and 14 columns,
    and GPA7 and GPB7 (output-only, see PINS_PER_PORT) stay outputs, latched low. `bus` is an
    smbus2 SMBus (or any object with read_byte_data(address, register) and
    write_byte_data(address, register, value)), so tests pass a fake one.

    Each row costs one I2C write (select) and one read per chip with columns; consecutive
    rows on one chip need no separate release, because selecting a row writes the whole
    port (moving on to the next chip's rows costs one write that releases the last chip's).
    One transaction is about 0.1 ms at 400 kHz (0.4 ms at the Pi's default 100 kHz):
    run the bus at 400 kHz (dtparam=i2c_arm_baudrate=400000) for 200 scans a second.
    The chips are assumed at their power-on register layout (IOCON.BANK = 0).
    """

    def __init__(self, bus, addresses: Sequence[int], rows: int, columns: int, *,
                 open_drain: bool = False) -> None:
        if not addresses:
            raise ValueError("name at least one MCP23017 address")
        chips = len(addresses)
        most = PINS_PER_PORT * chips
        if not 1 <= rows <= most or not 1 <= columns <= most:
            raise ValueError(f"{len(addresses)} MCP23017 take up to {most} rows and {most} columns"
                             f" (GPA0-GPA6 and GPB0-GPB6 of each), not {rows}x{columns}")
        self.bus = bus
        self.addresses = tuple(addresses)
        self.rows = rows
        self.columns = columns
        self.open_drain = open_drain
        self.operations = 0
        self._column_chips = [self.addresses[k] for k in range(-(-columns // PINS_PER_PORT))]
        for k, address in enumerate(self.addresses):
            row_bits = self._bits(rows, k)
            column_bits = self._bits(columns, k)
            self._write(address, IPOLA, 0x00)
            self._write(address, IPOLB, 0x00)
            self._write(address, GPPUA, 0x00)
            # Push-pull: rows are outputs latched high (idle). Open drain: rows are inputs
            # (released) and their latch is low, so making one an output pulls it low.
            # GPA7 and GPB7 are outputs either way (their IODIR bit clear).
            self._write(address, OLATA, 0x00 if open_drain else _PORT)
            self._write(address, IODIRA, _PORT if open_drain else _PORT & ~row_bits)
            self._write(address, OLATB, 0x00)
            self._write(address, IODIRB, _PORT)
            self._write(address, GPPUB, column_bits)
        self.operations = 0

    @staticmethod
    def _bits(count: int, chip: int) -> int:
        """The port bits chip `chip` uses when `count` lines are spread seven to a chip."""
        n = max(0, min(PINS_PER_PORT, count - PINS_PER_PORT * chip))
        return (1 << n) - 1

    def _write(self, address: int, register: int, value: int) -> None:
        self.bus.write_byte_data(address, register, value)
        self.operations += 1

    def _port_a(self, chip: int, selected_bit: int | None) -> None:
        """Write chip's row port so that only `selected_bit` (or no row) is selected."""
        address = self.addresses[chip]
        mask = 0 if selected_bit is None else 1 << selected_bit
        if self.open_drain:
            self._write(address, IODIRA, _PORT & ~mask)
        else:
            self._write(address, OLATA, _PORT & ~mask)

    def read(self) -> list[int]:
        masks = []
        chip = None
        for r in range(self.rows):
            at, bit = expander_pin(r)
            if chip is not None and chip != at:
                self._port_a(chip, None)  # release the last row of the previous chip
            chip = at
            self._port_a(chip, bit)
            mask = 0
            for k, address in enumerate(self._column_chips):
                port = self.bus.read_byte_data(address, GPIOB)
                self.operations += 1
                mask |= ((~port) & self._bits(self.columns, k)) << (PINS_PER_PORT * k)  # low = closed
            masks.append(mask)
        if chip is not None:
            self._port_a(chip, None)
        return masks

    def close(self) -> None:
        """Leave every row released (inputs; GPA7 stays an output); the bus stays open (whoever
        made it closes it)."""
        for address in self.addresses:
            try:
                self.bus.write_byte_data(address, IODIRA, _PORT)
            except OSError:
                pass


def possible_ghosts(closed: Iterable[int], columns: int) -> frozenset[int]:
    """Sensor indices that may be phantoms on a matrix without diodes: every corner of a
    rectangle whose four corners all read closed (any three of them make the fourth read
    closed, so none of the four can be trusted). Longer chains of closed switches read as
    full rectangles too, so rectangles are enough."""
    by_row: dict[int, int] = {}
    for index in closed:
        row, column = divmod(index, columns)
        by_row[row] = by_row.get(row, 0) | (1 << column)
    rows = sorted(r for r, mask in by_row.items() if mask & (mask - 1))  # two or more closed
    suspects: set[int] = set()
    for i, r1 in enumerate(rows):
        for r2 in rows[i + 1:]:
            common = by_row[r1] & by_row[r2]
            if common & (common - 1):  # at least two shared columns
                for column in range(common.bit_length()):
                    if common >> column & 1:
                        suspects.add(r1 * columns + column)
                        suspects.add(r2 * columns + column)
    return frozenset(suspects)


class MatrixScanner:
    """Reads a source, debounces each switch and, without diodes, flags possible ghosts.

    A switch's new state is accepted when `debounce` consecutive scans agree on it (1 = no
    debouncing). `scan()` returns the debounced set of closed sensor indices; `raw` is the
    last undebounced reading and `ghosts` the indices in the debounced set that may be
    phantoms (always empty on a diode board). `scans` counts full scans and
    `last_operations` the pin operations of the last one.
    """

    def __init__(self, source: MatrixSource, *, diodes: bool = True, debounce: int = 3) -> None:
        if debounce < 1:
            raise ValueError("debounce is a number of scans, 1 or more")
        self.source = source
        self.diodes = diodes
        self.debounce = debounce
        self.rows = source.rows
        self.columns = source.columns
        self.raw: frozenset[int] = frozenset()
        self.stable: frozenset[int] = frozenset()
        self.ghosts: frozenset[int] = frozenset()
        self.scans = 0
        self.last_operations = 0
        self._pending: dict[int, int] = {}  # index -> consecutive scans differing from stable

    def read_raw(self) -> frozenset[int]:
        """One full pass over the matrix, undebounced."""
        before = self.source.operations
        masks = self.source.read()
        self.last_operations = self.source.operations - before
        self.scans += 1
        closed = []
        columns = self.columns
        for row, mask in enumerate(masks):
            base = row * columns
            while mask:
                low = mask & -mask
                closed.append(base + low.bit_length() - 1)
                mask ^= low
        self.raw = frozenset(closed)
        return self.raw

    def scan(self) -> set[int]:
        raw = self.read_raw()
        differing = raw ^ self.stable
        pending = {i: n for i, n in self._pending.items() if i in differing}
        flipped = set()
        for index in differing:
            count = pending.get(index, 0) + 1
            if count >= self.debounce:
                flipped.add(index)
                pending.pop(index, None)
            else:
                pending[index] = count
        self._pending = pending
        if flipped:
            self.stable = self.stable ^ flipped
            if not self.diodes:
                self.ghosts = possible_ghosts(self.stable, self.columns)
        return set(self.stable)

    def close(self) -> None:
        self.source.close()
