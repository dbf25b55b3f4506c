"""The Off Board board: the 61-hole hexagon, its rim, and the board definition file.

The start position and the sectors (target spaces on the rim, with their values and the
exits that feed them) are data, because a physical board may differ from the default.
A definition is validated on load; every problem is named in a LayoutError.

The rim: a ball leaves the board when pushed from an edge hole in a direction with no hole.
Such an exit ends at an off-board point next to the hexagon. There are 30 such rim points:
24 are reached from two edge holes (gap points), 6 from one corner hole (corner points).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from .geometry import Grid

ROWS = "ABCDEFGHI"
DIRECTIONS = [("NE", (1, 1)), ("E", (0, 1)), ("SE", (-1, 0)), ("SW", (-1, -1)), ("W", (0, -1)), ("NW", (1, 0))]

GRID = Grid(
    coords=[(r, d) for r in range(9) for d in range(1, 10) if r - 3 <= d <= r + 5],
    name_of=lambda c: f"{ROWS[c[0]]}{c[1]}",
    directions=DIRECTIONS,
)
PLAYERS = ("red", "yellow")
DEFAULT_SOURCE = "the default board"  # the source of the layout shipped in data/offboard.toml


def _rim_points() -> dict[tuple[int, int], list[tuple[int, int]]]:
    """Each off-board point next to the hexagon -> the exits (hole, direction) reaching it."""
    points: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for cell, (r, d) in enumerate(GRID.coords):
        for direction, (dr, dd) in enumerate(vector for _, vector in DIRECTIONS):
            if GRID.step[direction][cell] < 0:
                points.setdefault((r + dr, d + dd), []).append((cell, direction))
    return points


RIM_POINTS = _rim_points()
EXITS = tuple(sorted(e for exits in RIM_POINTS.values() for e in exits))


def exit_name(exit_: tuple[int, int]) -> str:
    cell, direction = exit_
    return f"{GRID.names[cell]}-{GRID.directions[direction]}"


def _touching_points(point: tuple[int, int]) -> list[tuple[int, int]]:
    """The rim points next to `point` along the rim."""
    r, d = point
    return [(r + dr, d + dd) for _, (dr, dd) in DIRECTIONS if (r + dr, d + dd) in RIM_POINTS]


class LayoutError(ValueError):
    """A board definition that cannot be used; the message names the file and the problem."""


@dataclass(frozen=True)
class Sector:
    name: str
    value: int


@dataclass(frozen=True)
class Layout:
    """A validated board definition."""

    red: tuple[str, ...]
    yellow: tuple[str, ...]
    sectors: tuple[Sector, ...]
    exit_sector: dict[tuple[int, int], int]  # (edge hole, direction) -> index into sectors
    source: str = "the default board"

    def start(self, player: str) -> tuple[str, ...]:
        return self.red if player == "red" else self.yellow

    def sector_of(self, exit_text: str) -> Sector:
        """The sector an exit such as `A5-SE` feeds."""
        return self.sectors[self.exit_sector[_parse_exit(exit_text, "")]]


_EXIT_TEXT = re.compile(r"\s*([A-Za-z]\d+)\s*-\s*([A-Za-z]+)\s*")
_SECTOR_NAME = re.compile(r"S[1-9]\d*")


def _parse_exit(text: object, where: str) -> tuple[int, int]:
    match = _EXIT_TEXT.fullmatch(text) if isinstance(text, str) else None
    if not match:
        raise LayoutError(f"{where}exit {text!r}: write an edge hole and a direction, e.g. A1-SE")
    hole, direction = match.groups()
    if hole not in GRID:
        raise LayoutError(f"{where}exit {text}: no hole {hole.upper()} on the board")
    try:
        d = GRID.direction(direction)
    except ValueError as error:
        raise LayoutError(f"{where}exit {text}: {error}") from None
    cell = GRID.index(hole)
    neighbour = GRID.step[d][cell]
    if neighbour >= 0:
        raise LayoutError(
            f"{where}exit {text} does not exist: {GRID.names[neighbour]} is a hole there, not the rim"
        )
    return cell, d


def parse_layout(data: dict, source: str) -> Layout:
    """Validate a parsed definition (the TOML's tables) into a Layout."""
    at = f"{source}: "
    if {"board", "matrix", "cells"} & set(data):  # the file play and doctor take
        raise LayoutError(f"{at}this is a board wiring file (which switch and LED belong to each hole,"
                          " for play and doctor), not an Off Board definition: give an Off Board"
                          " definition of the start position and the sectors, like"
                          " controller/games/data/offboard.toml, or leave --board out for that one")
    unknown = set(data) - {"start", "sector"}
    if unknown:
        raise LayoutError(f"{at}unknown table {sorted(unknown)[0]!r} (expected [start] and [[sector]])")

    start = data.get("start")
    if not isinstance(start, dict):
        raise LayoutError(f"{at}missing [start] with red = [...] and yellow = [...]")
    placed: dict[str, str] = {}
    position = {}
    for player in PLAYERS:
        holes = start.get(player)
        if not isinstance(holes, list) or not holes:
            raise LayoutError(f"{at}[start] needs {player} = [holes ...], at least one ball")
        for hole in holes:
            if not isinstance(hole, str) or hole not in GRID:
                raise LayoutError(f"{at}[start] {player}: unknown hole {hole!r}")
            name = GRID.names[GRID.index(hole)]
            if name in placed:
                raise LayoutError(f"{at}[start]: hole {name} is given twice ({placed[name]} and {player})")
            placed[name] = player
        position[player] = tuple(GRID.names[GRID.index(h)] for h in holes)
    extra = set(start) - set(PLAYERS)
    if extra:
        raise LayoutError(f"{at}[start]: unknown key {sorted(extra)[0]!r} (expected red and yellow)")

    tables = data.get("sector")
    if not isinstance(tables, list) or not tables:
        raise LayoutError(f"{at}no [[sector]] tables")
    sectors: list[Sector] = []
    exit_sector: dict[tuple[int, int], int] = {}
    for number, table in enumerate(tables, 1):
        where = f"{at}sector #{number}: "
        if not isinstance(table, dict):
            raise LayoutError(f"{where}not a table")
        extra = set(table) - {"name", "value", "exits"}
        if extra:
            raise LayoutError(f"{where}unknown key {sorted(extra)[0]!r} (expected name, value, exits)")
        name, value, exits = table.get("name"), table.get("value"), table.get("exits")
        if not isinstance(name, str) or not _SECTOR_NAME.fullmatch(name):
            raise LayoutError(f"{where}name {name!r}: sectors are named S1, S2, ...")
        if any(s.name == name for s in sectors):
            raise LayoutError(f"{where}sector {name} is given twice")
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise LayoutError(f"{where}{name}: value {value!r} must be a whole number of points, 1 or more")
        if not isinstance(exits, list) or not exits:
            raise LayoutError(f"{where}{name}: exits must list at least one exit")
        index = len(sectors)
        sectors.append(Sector(name, value))
        for text in exits:
            exit_ = _parse_exit(text, f"{at}{name}: ")
            if exit_ in exit_sector:
                other = sectors[exit_sector[exit_]].name
                raise LayoutError(f"{at}exit {exit_name(exit_)} is given twice ({other} and {name})")
            exit_sector[exit_] = index

    # A gap point is one place on the rim: both exits reaching it feed one sector.
    for point, exits in RIM_POINTS.items():
        if len(exits) != 2:
            continue
        missing = [e for e in exits if e not in exit_sector]
        if missing:
            raise LayoutError(f"{at}exit {exit_name(missing[0])} is missing: no sector takes it")
        first, second = (exit_sector[e] for e in exits)
        if first != second:
            raise LayoutError(
                f"{at}exits {exit_name(exits[0])} and {exit_name(exits[1])} meet the rim at one point"
                f" but go to {sectors[first].name} and {sectors[second].name}"
            )
    # A corner point touches two gap points; a ball there rolls to the lower-valued sector.
    for point, exits in RIM_POINTS.items():
        if len(exits) != 1:
            continue
        (corner,) = exits
        touching = sorted({exit_sector[RIM_POINTS[p][0]] for p in _touching_points(point)})
        values = [sectors[s].value for s in touching]
        if len(touching) == 2 and values[0] == values[1]:
            raise LayoutError(
                f"{at}sectors {sectors[touching[0]].name} and {sectors[touching[1]].name} have the same"
                f" value ({values[0]}) and meet at the corner exit {exit_name(corner)}:"
                " a ball there could roll into either"
            )
        lower = min(touching, key=lambda s: sectors[s].value)
        given = exit_sector.get(corner)
        if given is None:
            exit_sector[corner] = lower
        elif given != lower:
            raise LayoutError(
                f"{at}corner exit {exit_name(corner)} goes to {sectors[given].name} ({sectors[given].value}),"
                f" but a ball there rolls into the lower-valued {sectors[lower].name} ({sectors[lower].value})"
            )
    unused = [s.name for i, s in enumerate(sectors) if i not in exit_sector.values()]
    if unused:
        raise LayoutError(f"{at}sector {unused[0]} takes no exit")
    # a definition whose game would be over before its first move is refused by the game (OffBoard)
    return Layout(position["red"], position["yellow"], tuple(sectors), exit_sector, source)


def layout_to_data(layout: Layout) -> dict:
    """The board definition as the dict `parse_layout(data, source)` accepts (the TOML's tables).

    Every exit is listed, corner exits included, so the data does not lean on the loader's rule."""
    exits: list[list[str]] = [[] for _ in layout.sectors]
    for exit_, sector in sorted(layout.exit_sector.items()):
        exits[sector].append(exit_name(exit_))
    return {
        "start": {"red": list(layout.red), "yellow": list(layout.yellow)},
        "sector": [{"name": s.name, "value": s.value, "exits": e} for s, e in zip(layout.sectors, exits)],
    }


def sector_points(layout: Layout) -> list[tuple[str, int, list[tuple[int, int]]]]:
    """Each sector's name, value and the rim points (row, diagonal) it takes, for drawing.

    A rim point is the off-board spot next to the hexagon that a ball pushed over the edge
    reaches; rows and diagonals continue the holes' numbering (row -1 is below row A)."""
    shapes = []
    for index, sector in enumerate(layout.sectors):
        points = sorted(point for point, exits in RIM_POINTS.items()
                        if any(layout.exit_sector.get(e) == index for e in exits))
        shapes.append((sector.name, sector.value, points))
    return shapes


def load_layout(path: str | Path | None = None) -> Layout:
    """Read and validate a board definition file; None reads the default board."""
    from ..ground.tomlfile import parse_toml, read_toml  # here: importing the games reads no file

    if path is None:
        text = resources.files(__package__).joinpath("data/offboard.toml").read_text(encoding="utf-8")
        source = DEFAULT_SOURCE
        data = parse_toml(text, source, LayoutError)
    else:
        source = str(path)
        data = read_toml(path, LayoutError, "the board file")
    return parse_layout(data, source)
