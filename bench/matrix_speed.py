"""How long one full scan of the reed-switch matrix takes, on gpiozero's mock pins.

Usage: python bench/matrix_speed.py [--scans N]

For each game's default board: the matrix wired to the Pi's pins (GpioMatrix on a
MockFactory) and on two MCP23017 expanders (Mcp23017Matrix on an instant fake bus). Prints the
time of one full scan, the pin operations (or I2C transactions) per scan and full scans per
second. Mock pins measure gpiozero's own Python cost; a real pin adds its driver's cost to
each operation, and a real I2C bus adds the wire time, estimated here at 100 and 400 kHz.
The gpio backend scans every 4 ms: at least 200 full scans a second are needed.
"""

from __future__ import annotations

import argparse
import time

from gpiozero.pins.mock import MockFactory

from reedboard.hal.board import Board, load_board
from reedboard.hal.matrix import GPIOB, GpioMatrix, MatrixScanner, Mcp23017Matrix

TARGET = 200  # full scans a second
SPARE_PINS = [4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 19, 20, 21, 22, 23, 25, 26, 27]
# Bit times of one smbus byte transaction: write = S, address, register, data, P;
# read = S, address, register, Sr, address, data, P (9 bits a byte with its ACK).
WRITE_BITS, READ_BITS = 2 + 3 * 9, 3 + 4 * 9


class InstantBus:
    """MCP23017s that answer at once, every switch open: the Python cost alone."""

    def __init__(self) -> None:
        self.reads = self.writes = 0

    def write_byte_data(self, address: int, register: int, value: int) -> None:
        self.writes += 1

    def read_byte_data(self, address: int, register: int) -> int:
        self.reads += 1
        return 0xFF if register == GPIOB else 0


def time_scans(scanner: MatrixScanner, scans: int) -> tuple[float, int]:
    scanner.scan()  # warm up
    start = time.perf_counter()
    for _ in range(scans):
        scanner.scan()
    return (time.perf_counter() - start) / scans, scanner.last_operations


def report(name: str, seconds: float, operations: int, unit: str, extra: str = "") -> None:
    rate = 1 / seconds
    verdict = "meets" if rate >= TARGET else "MISSES"
    print(f"  {name:30s} {seconds * 1e6:8.1f} us/scan  {operations:4d} {unit}/scan"
          f"  {rate:>9,.0f} scans/s ({verdict} {TARGET}){extra}")


def pins_of(board: Board) -> tuple[tuple[int, ...], tuple[int, ...]]:
    pins = board.settings_of("gpio")
    if pins.rows:
        return pins.rows, pins.columns
    free = [p for p in SPARE_PINS if p not in (pins.die_button, pins.ok_button)]
    return tuple(free[:board.rows]), tuple(free[board.rows:board.rows + board.columns])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scans", type=int, default=2000)
    args = parser.parse_args()
    for game in ("bigballs", "offboard"):
        board = load_board(game=game)
        print(f"{game}: {board.rows} rows x {board.columns} columns, diodes={board.diodes}")
        rows, columns = pins_of(board)
        for open_drain in (False, True):
            source = GpioMatrix(rows, columns, pin_factory=MockFactory(), open_drain=open_drain)
            scanner = MatrixScanner(source, diodes=not open_drain)
            seconds, operations = time_scans(scanner, args.scans)
            scanner.close()
            label = "Pi pins" + (", open drain (no diodes)" if open_drain else "")
            report(label, seconds, operations, "pin ops")
        bus = InstantBus()
        source = Mcp23017Matrix(bus, [0x20, 0x21], board.rows, board.columns)
        scanner = MatrixScanner(source, diodes=board.diodes)
        bus.reads = bus.writes = 0
        seconds, operations = time_scans(scanner, args.scans)
        reads, writes = bus.reads / (args.scans + 1), bus.writes / (args.scans + 1)
        wire = {khz: (reads * READ_BITS + writes * WRITE_BITS) / (khz * 1000) for khz in (100, 400)}
        extra = "".join(f"\n  {'':30s} + I2C wire at {khz} kHz: {s * 1e3:.2f} ms/scan"
                        f" -> {1 / (seconds + s):,.0f} scans/s" for khz, s in wire.items())
        report("2 x MCP23017 (Python only)", seconds, operations, "I2C ops", extra)


if __name__ == "__main__":
    main()
