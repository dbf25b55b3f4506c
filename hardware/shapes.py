"""What the drawings of a board share: the parts' sizes and where they go, the board's outline,
and the SVG writer (drawings.py draws the template, the matrix and the LED chain with them,
underside.py the board seen from below and the Pico carrier).

- The parts: the reed switch, the LED, the hollow's depth and floor, the magnet's distance from
  the glass; the Pico's and the Pi's pin numbering (the Pico's pins as firmware/pins.py sets them).
- `STYLES`: how each shipped board is drawn (hollow and cup diameters, the outline's sides and
  rim, the magnet) and `Places`: where the die, the turn light, the buttons, the buzzer and the
  Pico carrier go on it.
- `_outline(board, positions)`: the board's edge, `_Svg`: a small SVG writer whose numbers
  always have the same format, so that the same board gives byte-identical files.
- `side_label`: the words every drawing starts with, saying which side of the board it shows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from dataclasses import replace as dataclass_replace
from pathlib import Path

from reedboard.firmware import pins as firmware_pins
from reedboard.hal.board import Board, BoardError


class DrawingError(BoardError):
    """A board that cannot be drawn (a cell without a position, for a drawing that needs one),
    or drawings that cannot be written where they were asked for."""


# ----------------------------------------------------------------------------------------------
# Parts and pins

REED_LENGTH = 14.0  # glass body of a normally-open reed switch, 2 x 14 mm
REED_DIAMETER = 2.0
REED_LEADS = 3.0  # drawn lead stubs beyond each end of the glass
REED_OFFSET = 6.0  # switch centre to the right of the hollow centre: the magnet is over one end
LED_SIZE = 5.0  # WS2812B 5050
LED_OFFSET = -8.0  # LED centre to the left of the hollow centre, beside the switch
HOLLOW_DEPTH = 6.0  # mm: a stone stands 4 mm proud, a ball sits on the floor
FLOOR = 3.0  # mm of board left under a hollow, between the piece and the switch
FELT = 1.0  # mm: the felt pad glued over the magnet under every piece
MAGNET_ABOVE_GLASS = FELT + FLOOR + REED_DIAMETER / 2  # the magnet's face above the glass's axis, in place
CLOSE_AT = MAGNET_ABOVE_GLASS + 3.0  # the switch must still close this far: the margin

# The Pico's package: GP number -> physical pin on its edge.
PICO_PACKAGE = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
                13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29,
                26: 31, 27: 32, 28: 34}


def pico_pins() -> dict[str, object]:
    """The Pico's pins as the firmware sets them: the constants of firmware/pins.py (GP numbers),
    the module main.py imports on the Pico, imported here as reedboard.firmware.pins."""
    return {name: value for name, value in vars(firmware_pins).items() if name.isupper()}


# The Raspberry Pi's 40-pin header: BCM number -> physical pin.
PI_HEADER = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32,
    13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16,
    24: 18, 25: 22, 26: 37, 27: 13,
}


@dataclass(frozen=True)
class Places:
    """Where the parts that are not under a hollow go on the board, as centres x, y in mm in the
    board file's coordinates (seen from above): the die's centre (its seven pips on a PIP_PITCH
    grid), the turn light, the buttons, the buzzer, and the Pico carrier (the stripboard of
    underside.py, CARRIER_W x CARRIER_H, under the board). None: the board has no such part."""

    die: tuple[float, float] | None
    turn: tuple[float, float] | None
    die_button: tuple[float, float] | None
    ok_button: tuple[float, float] | None
    buzzer: tuple[float, float] | None
    carrier: tuple[float, float] | None
    carrier_turned: bool = False  # the carrier's strips run along y rather than x
    carrier_note: str = ""  # how the carrier is held, where it is under the switches


@dataclass(frozen=True)
class _Style:
    title: str
    hollow: float  # hollow diameter, mm
    cup: float  # diameter of a rim sector's cup, mm
    rim: float  # wood between the outermost hollow and the board's edge, mm
    corner: float | None  # corner radius of the outline; None: as round as the corner hollows
    normals: tuple[float, ...]  # outward normals of the outline's sides, degrees, anticlockwise
    magnet: str
    magnet_diameter: float
    panel: float = 0.0  # the first side moved out this far: a strip for the die, buttons and carrier
    places: Places | None = None


PIP_PITCH = 14.0  # mm between the die's pip LEDs
BUTTON_HOLE = 13.0  # a 12 x 12 mm tactile button's round cap comes up through this hole
LED_HOLE = 5.0  # a hole through the floor over an LED (die pips, turn light)
SOUND_HOLE = 3.0  # the buzzer's sound holes
CARRIER_W, CARRIER_H = 26 * 2.54, 33 * 2.54  # the Pico carrier's stripboard: 26 holes x 33 strips

STYLES = {
    "bigballs": _Style("Big Balls", 35.0, 35.0, 12.5, None, (270.0, 30.0, 150.0),
                       "Ø8×3 mm N42 disc", 8.0, panel=80.0,
                       places=Places(die=(190.0, -40.0), turn=(135.0, -40.0), die_button=(240.0, -40.0),
                                     ok_button=(280.0, -40.0), buzzer=(135.0, -60.0), carrier=(62.0, -41.0),
                                     carrier_turned=True,
                                     carrier_note="under the panel, clear of the switches")),
    "offboard": _Style("Off Board", 26.0, 30.0, 10.0, 20.0,
                       (270.0, 330.0, 30.0, 90.0, 150.0, 210.0),
                       "Ø6×3 mm N42 disc", 6.0,
                       places=Places(die=None, turn=(5.0, 184.35), die_button=None, ok_button=(357.0, 184.35),
                                     buzzer=(181.4, 18.0), carrier=(181.4, 58.0), carrier_turned=True,
                                     carrier_note="under the switches of A2-A4, S1 and S2, on 20 mm standoffs")),
}


def _style(board: Board) -> _Style:
    """How a board is drawn; a board without its own style gets a rectangular one."""
    return STYLES.get(board.name) or _Style(board.name, 30.0, 30.0, 10.0, 10.0, (270.0, 0.0, 90.0, 180.0),
                                            "Ø6×3 mm N42 disc", 6.0)


def places(board: Board) -> Places | None:
    """Where the board's die, turn light, buttons, buzzer and Pico carrier go (None: a board
    of one's own, whose drawings leave them out). A board without a die has no die places."""
    found = _style(board).places
    if found is None:
        return None
    if not board.die_pips:
        found = dataclass_replace(found, die=None, die_button=None)
    if board.turn_led is None:
        found = dataclass_replace(found, turn=None)
    return found


def _is_cup(board: Board, cell: str) -> bool:
    """A scoring sector on Off Board's rim (S1..S12): a cup rather than a hole."""
    return board.name == "offboard" and cell.startswith("S")


def _diameter(board: Board, cell: str) -> float:
    style = _style(board)
    return style.cup if _is_cup(board, cell) else style.hollow


# ----------------------------------------------------------------------------------------------
# SVG building


def _n(value: float) -> str:
    """A number as SVG wants it, always formatted the same way: at most 2 decimals."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _attrs(attrs: dict) -> str:
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        if isinstance(value, float):
            value = _n(value)
        out.append(f' {key.rstrip("_").replace("_", "-")}="{_esc(str(value))}"')
    return "".join(out)


FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


class _Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def raw(self, text: str) -> None:
        self.parts.append(text)

    def open(self, tag: str, **attrs) -> None:
        self.parts.append(f"<{tag}{_attrs(attrs)}>")

    def close(self, tag: str) -> None:
        self.parts.append(f"</{tag}>")

    def el(self, tag: str, **attrs) -> None:
        self.parts.append(f"<{tag}{_attrs(attrs)}/>")

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#000",
             width: float = 0.3, **attrs) -> None:
        self.el("line", x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), stroke=stroke,
                stroke_width=float(width), **attrs)

    def rect(self, x: float, y: float, w: float, h: float, stroke: str = "#000", width: float = 0.3,
             fill: str = "none", **attrs) -> None:
        self.el("rect", x=float(x), y=float(y), width=float(w), height=float(h), fill=fill,
                stroke=stroke, stroke_width=float(width), **attrs)

    def circle(self, cx: float, cy: float, r: float, stroke: str = "#000", width: float = 0.3,
               fill: str = "none", **attrs) -> None:
        self.el("circle", cx=float(cx), cy=float(cy), r=float(r), fill=fill, stroke=stroke,
                stroke_width=float(width), **attrs)

    def path(self, d: str, stroke: str = "#000", width: float = 0.3, fill: str = "none", **attrs) -> None:
        self.el("path", d=d, fill=fill, stroke=stroke, stroke_width=float(width), **attrs)

    def text(self, x: float, y: float, text: str, size: float, anchor: str = "middle",
             fill: str = "#000", weight: str | None = None, **attrs) -> None:
        self.parts.append(
            f"<text{_attrs(dict(x=float(x), y=float(y), font_size=float(size), text_anchor=anchor, fill=fill, font_weight=weight, **attrs))}>"
            f"{_esc(text)}</text>")

    def document(self, x: float, y: float, w: float, h: float, title: str, mm: bool = True) -> str:
        unit = "mm" if mm else ""
        head = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(w)}{unit}" '
            f'height="{_n(h)}{unit}" viewBox="{_n(x)} {_n(y)} {_n(w)} {_n(h)}" '
            f'font-family="{FONT}">\n'
            f"<title>{_esc(title)}</title>\n"
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" fill="#fff"/>\n'
        )
        return head + "\n".join(self.parts) + "\n</svg>\n"


# ----------------------------------------------------------------------------------------------
# Geometry shared by the template and the LED drawing


def _positions(board: Board, what: str) -> dict[str, tuple[float, float]]:
    missing = [c for c in board.cells if c not in board.position]
    if missing:
        raise DrawingError(f"{Path(board.source).name}: the {what} needs every cell's x and y;"
                           f" {missing[0]}" + (f" and {len(missing) - 1} more have" if len(missing) > 1 else " has")
                           + " none (write { row = 0, column = 0, led = 0, x = 0.0, y = 0.0 })")
    return {c: board.position[c] for c in board.cells}


@dataclass(frozen=True)
class _Outline:
    path: str  # in SVG coordinates (y down)
    x0: float  # bounding box in board coordinates (y up)
    y0: float
    x1: float
    y1: float
    sides: tuple[tuple[float, float, float], ...] = ()  # each side's outward normal and its distance from 0,0

    def inside(self, x: float, y: float, margin: float = 0.0) -> bool:
        """Whether the point (board coordinates) is inside every side, `margin` mm or more."""
        return all(x * nx + y * ny <= h - margin for nx, ny, h in self.sides)


def _outline(board: Board, positions: dict[str, tuple[float, float]]) -> _Outline:
    """The board's edge: the sides (perpendicular to the style's normals) `rim` mm beyond the
    outermost hollows, corners rounded. A triangle for Big Balls, a hexagon for Off Board."""
    style = _style(board)
    normals = [(math.cos(math.radians(a)), math.sin(math.radians(a))) for a in style.normals]
    reach = {c: _diameter(board, c) / 2 + style.rim for c in board.cells}
    offsets = [max(x * nx + y * ny + reach[c] for c, (x, y) in positions.items()) for nx, ny in normals]
    offsets[0] += style.panel
    radius = style.corner if style.corner is not None else style.hollow / 2 + style.rim
    inner = [h - radius for h in offsets]
    count = len(normals)
    corners = []  # corner i joins side i and side i + 1
    for i in range(count):
        (ax, ay), (bx, by) = normals[i], normals[(i + 1) % count]
        ha, hb = inner[i], inner[(i + 1) % count]
        det = ax * by - ay * bx
        corners.append(((ha * by - hb * ay) / det, (ax * hb - bx * ha) / det))
    d = []
    for i in range(count):
        (cx, cy), (nx, ny) = corners[i], normals[i]
        prev = corners[i - 1]
        start = (prev[0] + radius * nx, prev[1] + radius * ny)
        end = (cx + radius * nx, cy + radius * ny)
        mx, my = normals[(i + 1) % count]
        after = (cx + radius * mx, cy + radius * my)
        if i == 0:
            d.append(f"M {_n(start[0])} {_n(-start[1])}")
        d.append(f"L {_n(end[0])} {_n(-end[1])}")
        d.append(f"A {_n(radius)} {_n(radius)} 0 0 0 {_n(after[0])} {_n(-after[1])}")
    d.append("Z")
    xs = [x for x, _ in corners]
    ys = [y for _, y in corners]
    return _Outline(" ".join(d), min(xs) - radius, min(ys) - radius, max(xs) + radius, max(ys) + radius,
                    tuple((nx, ny, h) for (nx, ny), h in zip(normals, offsets)))


def _cell_order(board: Board) -> list[str]:
    """Cells in LED order (the template and the LED drawing draw them in this fixed order)."""
    return sorted(board.cells, key=lambda c: (board.led[c], c))


def _row_col(board: Board, cell: str) -> tuple[int, int]:
    return divmod(board.sensor[cell], board.columns)


def _board_name(board: Board) -> str:
    return Path(board.source).name



# ----------------------------------------------------------------------------------------------
# Colours, the side a drawing shows, the die's pips

RED, BLUE, GREEN, GREY, DARK = "#d00000", "#0050d0", "#008a3e", "#888", "#222"


ABOVE = "SEEN FROM ABOVE"
BELOW = "SEEN FROM BELOW, THE BOARD TURNED OVER"
SCHEMATIC = "A CIRCUIT, NOT A VIEW"


def side_label(svg: _Svg, x: float, y: float, side: str, rest: str, size: float = 6.0) -> None:
    """Which side of the board a drawing shows, large, in its top left corner."""
    svg.open("g", id="side", data_side=side)
    svg.text(x, y, side, size, anchor="start", weight="bold", fill=RED if side == BELOW else "#000")
    svg.text(x, y + size * 0.75, rest, size * 0.55, anchor="start")
    svg.close("g")


def pip_places(centre: tuple[float, float]) -> list[tuple[float, float]]:
    """The die's seven pip LEDs around its centre, in the board file's pip order."""
    x, y = centre
    return [(x + px * PIP_PITCH, y + py * PIP_PITCH) for px, py in PIP_PLACES]


def carrier_box(where: Places) -> tuple[float, float, float, float]:
    """The Pico carrier's footprint on the board: x0, y0, x1, y1 in mm (board coordinates)."""
    w, h = (CARRIER_H, CARRIER_W) if where.carrier_turned else (CARRIER_W, CARRIER_H)
    x, y = where.carrier
    return x - w / 2, y - h / 2, x + w / 2, y + h / 2


PIP_PLACES = ((-1, 1), (1, 1), (-1, 0), (0, 0), (1, 0), (-1, -1), (1, -1))  # board file's pip order
