"""Board configuration: which cell is wired to which sensor and LED, and how the board is reached.

A board file (TOML) is validated on load; every problem is named in a BoardError with the
file. Its [cells] table names the board's hollows (in board order) and wires each to a reed
switch and an LED: the sensor address of a cell is its place in the reed-switch matrix,
row * columns + column; its LED is its index on the WS2812 chain.

The boards shipped with reedboard are hardware/boards/<name>.toml, named by their file. A
board file of one's own may say which shipped board it wires (`[board] name`; it is named
by its file otherwise). A game asks for the hollows it needs (`cells=`); a board may have
more (a game may leave some hollows unused).
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

from . import registry
from .shipped import shipped_boards
from reedboard.controller.ground.tomlfile import parse_toml, read_toml


class BoardError(ValueError):
    """A board file that cannot be used; the message names the file and the problem."""


@dataclass(frozen=True)
class Board:
    name: str  # the shipped board it wires: hardware/boards/<name>.toml
    backend: str
    cells: tuple[str, ...]  # its hollows, in board order
    sensor: dict[str, int]  # cell -> matrix address
    led: dict[str, int]  # cell -> LED index
    rows: int
    columns: int
    diodes: bool = True
    led_count: int = 0
    budget_ma: float = 2000.0  # the LED supply's current budget
    die_pips: tuple[int, ...] = ()  # LED indices of the seven die pips
    turn_led: int | None = None
    # each backend's settings, by its name, as its table in the board file says (hal.registry)
    settings: Mapping[str, object] = field(default_factory=dict)
    position: dict[str, tuple[float, float]] = field(default_factory=dict)  # cell -> (x, y) mm
    source: str = "a board file"

    def settings_of(self, backend: str):
        """The backend's settings: its table as read, or its defaults for a board made without
        a file (a board wired in order, a test's own)."""
        if backend not in self.settings:
            table = registry.BACKENDS[backend].table
            return None if table is None else table.read({}, {}, self)
        return self.settings[backend]

    def with_settings(self, backend: str, settings) -> "Board":
        return replace(self, settings={**self.settings, backend: settings})

    def cell_at(self, sensor: int) -> str | None:
        """The cell wired to a sensor address, or None for an unused one."""
        for cell, address in self.sensor.items():
            if address == sensor:
                return cell
        return None


def parse_board(data: dict, source: str, name: str | None = None,
                cells: Iterable[str] | None = None) -> Board:
    """The board of a board file's tables. `name`: the board's name when the file does not say
    it (its file's name); `cells`: the hollows a game needs, each of which the board must have
    (named as the game spells them; the board's other hollows follow in the file's order)."""
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

    tables = {b.table.section: b for b in registry.BACKENDS.values() if b.table is not None}
    unknown = set(data) - {"board", "matrix", "leds", "cells"} - set(tables)
    if "board" not in data and {"start", "sector"} & set(data):  # a game's layout, which show and perft take
        like = " or ".join(f"hardware/boards/{n}.toml" for n in shipped_boards()) or "a shipped one"
        raise BoardError(f"{at}this is a game's layout (an Off Board definition: the start position and the"
                         " sectors, for show and perft), not a board wiring file: give the wiring of the"
                         f" board, like {like}, or leave --board out for that one")
    if unknown:
        raise BoardError(f"{at}unknown table [{sorted(unknown)[0]}]")
    board = table("board")
    unknown = set(board) - {"name", "game", "backend"}
    if unknown:
        raise BoardError(f"{at}[board] {sorted(unknown)[0]}: a board says its name and its backend")
    declared = board.get("name", board.get("game"))  # "game": what older board files called it
    if declared is not None and (not isinstance(declared, str) or not declared.isidentifier()):
        raise BoardError(f"{at}[board] name must be one word of letters, digits and _, not {declared!r}")
    name = declared or name or Path(source).stem
    backend = board.get("backend", registry.DEFAULT)
    if backend not in registry.BACKENDS:
        raise BoardError(f"{at}backend {backend!r}: choose {', '.join(sorted(registry.BACKENDS))}")

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
    if not wiring:
        raise BoardError(f"{at}[cells] wires no hollow")
    wanted = tuple(cells) if cells is not None else ()
    spelled = {c.lower(): c for c in wanted}  # a game's spelling of a hollow wins over the file's
    sensor: dict[str, int] = {}
    led: dict[str, int] = {}
    position: dict[str, tuple[float, float]] = {}
    for written, entry in wiring.items():
        if not written.isalnum():
            raise BoardError(f"{at}[cells] {written!r}: a hollow's name is letters and digits")
        cell = spelled.get(written.lower(), written)
        if cell in sensor or cell.lower() in {c.lower() for c in sensor}:
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
    missing = [c for c in wanted if c not in sensor]
    if missing:
        raise BoardError(f"{at}the board has no hollow for {missing[0]}"
                         + (f" (nor for {len(missing) - 1} more)" if len(missing) > 1 else ""))
    cells = wanted + tuple(c for c in sensor if c not in spelled.values())
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

    generic = Board(name=name, backend=backend, cells=cells, sensor=sensor, led=led, rows=rows, columns=columns,
                    diodes=diodes, led_count=led_count, budget_ma=float(budget), die_pips=pips, turn_led=turn,
                    source=source, position=position)
    settings = {entry.name: entry.table.read(table(section, required=False), data, generic)
                for section, entry in tables.items()}
    return replace(generic, settings=settings)


def backend_lines(board: Board) -> dict[str, list[str]]:
    """Every backend's lines of the board file, by table (a calibrated board file is written
    with them): what each backend's table writer makes of the board's settings."""
    lines: dict[str, list[str]] = {}
    for entry in registry.BACKENDS.values():
        if entry.table is not None and entry.name in board.settings:
            for section, written in entry.table.write(board.settings[entry.name]).items():
                lines.setdefault(section, []).extend(written)
    return lines


def load_board(path: str | Path | None = None, game: str | None = None, *,
               cells: Iterable[str] | None = None) -> Board:
    """Read a board file; with no path, the shipped board named `game` (hardware/boards/<game>.toml).

    `game` names the board (a game says which it plays on); with a path, a file that says it
    wires another board is refused. `cells`: the hollows a game needs, which the board must have."""
    if path is None:
        if game is None:
            raise BoardError("name a board file or a board")
        if game not in shipped_boards():
            raise BoardError(f"no shipped board {game!r}: choose {', '.join(shipped_boards()) or 'a board file'}")
        source = f"hardware/boards/{game}.toml"
        text = resources.files("reedboard.hardware").joinpath(f"boards/{game}.toml").read_text(encoding="utf-8")
        data = parse_toml(text, source, BoardError)
    else:
        source = str(path)
        data = read_toml(path, BoardError, "the board file")
    board = parse_board(data, source, name=game, cells=cells)
    if game is not None and board.name != game:
        raise BoardError(f"{source}: wires the {board.name} board, not the {game} one")
    return board
