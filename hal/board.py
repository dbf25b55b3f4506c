"""Board configuration: which cell is wired to which sensor and LED, and how the board is reached.

A board file (TOML, kept in hardware/) is validated on load; every problem is named in a
BoardError with the file. The sensor address of a cell is its place in the reed-switch
matrix, row * columns + column; its LED is its index on the WS2812 chain.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from controller.tomlfile import parse_toml, read_toml

BACKENDS = ("gpio", "serial", "sim")


class BoardError(ValueError):
    """A board file that cannot be used; the message names the file and the problem."""


@dataclass(frozen=True)
class GpioPins:
    rows: tuple[int, ...] = ()  # BCM pins driving the matrix rows
    columns: tuple[int, ...] = ()  # BCM pins reading the columns (pulled up)
    expander: tuple[int, tuple[int, ...]] | None = None  # MCP23017 instead: (I2C bus, addresses)
    leds: int = 18  # the WS2812 data pin
    die_button: int | None = None
    ok_button: int | None = None
    buzzer: int | None = None


@dataclass(frozen=True)
class Board:
    game: str
    backend: str
    cells: tuple[str, ...]  # in the game's board order
    sensor: dict[str, int]  # cell -> matrix address
    led: dict[str, int]  # cell -> LED index
    rows: int
    columns: int
    diodes: bool = True
    led_count: int = 0
    budget_ma: float = 2000.0  # the LED supply's current budget
    die_pips: tuple[int, ...] = ()  # LED indices of the seven die pips
    turn_led: int | None = None
    gpio: GpioPins = field(default_factory=GpioPins)
    port: str = "auto"
    baudrate: int = 115200
    faults: dict = field(default_factory=dict)  # simulated board: declared faults
    position: dict[str, tuple[float, float]] = field(default_factory=dict)  # cell -> (x, y) mm
    source: str = "a board file"

    def cell_at(self, sensor: int) -> str | None:
        """The cell wired to a sensor address, or None for an unused one."""
        for cell, address in self.sensor.items():
            if address == sensor:
                return cell
        return None


def _cells_of(game: str) -> tuple[str, ...]:
    from controller.games import GAMES  # the games say which cells a board must sense

    if game not in GAMES:
        raise BoardError(f"unknown game {game!r}")
    return GAMES[game]().cells


def parse_board(data: dict, source: str) -> Board:
    at = f"{source}: "

    def table(name: str, required: bool = True) -> dict:
        value = data.get(name)
        if value is None and not required:
            return {}
        if not isinstance(value, dict):
            raise BoardError(f"{at}missing [{name}] table")
        return value

    def integer(value, what: str, low: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise BoardError(f"{at}{what} must be a whole number {low} or more, not {value!r}")
        return value

    unknown = set(data) - {"board", "matrix", "leds", "cells", "gpio", "serial", "sim"}
    if "board" not in data and {"start", "sector"} & set(data):  # the file show and perft take
        raise BoardError(f"{at}this is an Off Board definition (the start position and the sectors,"
                         " for show and perft), not a board wiring file: give the wiring of the board,"
                         " like hardware/boards/offboard.toml, or leave --board out for that one")
    if unknown:
        raise BoardError(f"{at}unknown table [{sorted(unknown)[0]}]")
    board = table("board")
    game, backend = board.get("game"), board.get("backend", "sim")
    if backend not in BACKENDS:
        raise BoardError(f"{at}backend {backend!r}: choose {', '.join(BACKENDS)}")
    try:
        cells = _cells_of(game)
    except BoardError as error:
        raise BoardError(f"{at}{error}") from None

    matrix = table("matrix")
    rows = integer(matrix.get("rows"), "matrix rows", 1)
    columns = integer(matrix.get("columns"), "matrix columns", 1)
    diodes = matrix.get("diodes", True)
    if not isinstance(diodes, bool):
        raise BoardError(f"{at}matrix diodes must be true or false")

    leds = table("leds")
    led_count = integer(leds.get("count"), "leds count", 1)
    budget = leds.get("budget_ma", 2000)
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or budget <= 0:
        raise BoardError(f"{at}leds budget_ma must be a positive number of milliamps")
    pips = tuple(integer(p, "a die pip LED") for p in leds.get("die_pips", []))
    if pips and len(pips) != 7:
        raise BoardError(f"{at}die_pips lists 7 LEDs (or none), not {len(pips)}")
    turn = leds.get("turn")
    turn = None if turn is None else integer(turn, "the turn LED")

    wiring = table("cells")
    sensor: dict[str, int] = {}
    led: dict[str, int] = {}
    by_lower = {c.lower(): c for c in cells}
    position: dict[str, tuple[float, float]] = {}
    for name, entry in wiring.items():
        cell = by_lower.get(name.lower())
        if cell is None:
            raise BoardError(f"{at}[cells] {name}: no such cell on the {game} board")
        if cell in sensor:
            raise BoardError(f"{at}[cells] {cell} is given twice")
        if isinstance(entry, list) and len(entry) == 2:  # the short form: [sensor, led]
            sensor[cell] = integer(entry[0], f"{cell}'s sensor")
            led[cell] = integer(entry[1], f"{cell}'s LED")
        elif isinstance(entry, dict):
            extra = set(entry) - {"row", "column", "led", "x", "y"}
            if extra or not {"row", "column", "led"} <= set(entry):
                raise BoardError(f"{at}[cells] {cell}: write {{ row = 0, column = 0, led = 0, x = 0.0, y = 0.0 }}")
            row = integer(entry["row"], f"{cell}'s matrix row")
            column = integer(entry["column"], f"{cell}'s matrix column")
            if row >= rows or column >= columns:
                raise BoardError(f"{at}{cell} at row {row}, column {column} is outside the {rows}x{columns} matrix")
            sensor[cell] = row * columns + column
            led[cell] = integer(entry["led"], f"{cell}'s LED")
            if "x" in entry or "y" in entry:
                x, y = entry.get("x"), entry.get("y")
                if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (x, y)):
                    raise BoardError(f"{at}{cell}: x and y are millimetres on the board, both numbers")
                position[cell] = (float(x), float(y))
        else:
            raise BoardError(f"{at}[cells] {cell}: write {{ row = 0, column = 0, led = 0 }} or [sensor, led]")
        if sensor[cell] >= rows * columns:
            raise BoardError(f"{at}{cell}'s sensor {sensor[cell]} is outside the {rows}x{columns} matrix")
    missing = [c for c in cells if c not in sensor]
    if missing:
        raise BoardError(f"{at}[cells] misses {missing[0]}" + (f" and {len(missing) - 1} more" if len(missing) > 1 else ""))
    for what, mapping in (("sensor", sensor), ("LED", led)):
        seen: dict[int, str] = {}
        for cell in cells:
            other = seen.setdefault(mapping[cell], cell)
            if other != cell:
                raise BoardError(f"{at}{other} and {cell} share {what} {mapping[cell]}")
    used = {led[c]: c for c in cells}
    for index in pips + ((turn,) if turn is not None else ()):
        if index in used:
            raise BoardError(f"{at}LED {index} is {used[index]}'s and a die pip or the turn light too")
    if max(list(led.values()) + list(pips) + ([turn] if turn is not None else [])) >= led_count:
        raise BoardError(f"{at}an LED index is beyond the chain of {led_count} LEDs")

    gpio_table = table("gpio", required=False)
    expander = gpio_table.get("expander")
    if expander is not None:
        if not isinstance(expander, dict) or "addresses" not in expander:
            raise BoardError(f"{at}gpio expander: write {{ bus = 1, addresses = [32, 33] }}")
        expander = (integer(expander.get("bus", 1), "the I2C bus"),
                    tuple(integer(a, "an MCP23017 address", 0x20) for a in expander["addresses"]))
    pins = GpioPins(
        rows=tuple(integer(p, "a row pin") for p in gpio_table.get("rows", [])),
        columns=tuple(integer(p, "a column pin") for p in gpio_table.get("columns", [])),
        expander=expander,
        leds=integer(gpio_table.get("leds", 18), "the LED pin"),
        die_button=gpio_table.get("die_button"),
        ok_button=gpio_table.get("ok_button"),
        buzzer=gpio_table.get("buzzer"),
    )
    if gpio_table and expander is None and (len(pins.rows), len(pins.columns)) != (rows, columns):
        raise BoardError(f"{at}gpio lists {len(pins.rows)} row and {len(pins.columns)} column pins"
                         f" for a {rows}x{columns} matrix")
    all_pins = list(pins.rows) + list(pins.columns) + [p for p in (pins.leds, pins.die_button, pins.ok_button, pins.buzzer) if p is not None]
    if gpio_table and len(set(all_pins)) != len(all_pins):
        twice = next(p for p in all_pins if all_pins.count(p) > 1)
        raise BoardError(f"{at}gpio pin {twice} is used twice")

    serial = table("serial", required=False)
    sim = table("sim", required=False)
    return Board(
        game=game, backend=backend, cells=cells, sensor=sensor, led=led, rows=rows, columns=columns,
        diodes=diodes, led_count=led_count, budget_ma=float(budget), die_pips=pips, turn_led=turn,
        gpio=pins, port=str(serial.get("port", "auto")), baudrate=integer(serial.get("baudrate", 115200), "baudrate", 1),
        faults=dict(sim.get("faults", {})), source=source, position=position,
    )


def load_board(path: str | Path | None = None, game: str | None = None) -> Board:
    """Read a board file; None reads the default board of `game` from hardware/."""
    if path is None:
        if game is None:
            raise BoardError("name a board file or a game")
        name = f"boards/{game}.toml"
        try:
            text = resources.files("hardware").joinpath(name).read_text(encoding="utf-8")
        except (FileNotFoundError, ModuleNotFoundError):
            raise BoardError(f"no default board for {game!r}") from None
        source = f"hardware/{name}"
        data = parse_toml(text, source, BoardError)
    else:
        source = str(path)
        data = read_toml(path, BoardError, "the board file")
    board = parse_board(data, source)
    if game is not None and board.game != game:
        raise BoardError(f"{source}: a {board.game} board, not a {game} one")
    return board
