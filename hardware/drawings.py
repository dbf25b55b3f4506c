"""Drawings of a board, as SVG: the drilling template, the switch matrix and the LED chain.

Plain string building from a Board (hal/board.py), no dependencies:

- `template_svg(board)`: the drilling / laser-cutting template at 1:1 scale. One user unit is
  one millimetre, the sheet's width and height are given in mm, and the board's own
  coordinates are kept: a point (x, y) of the board file is drawn at (x, -y) (SVG's y runs
  down, the board's up), so every hollow's circle has cx = x and cy = -y.
- `matrix_svg(board)`: the reed-switch matrix: row and column lines, each switch in series
  with its diode (anode on the column, cathode on the row: rows are driven low one at a time
  and columns are pulled up, see hal/matrix.py), the pins the rows and columns go to.
- `leds_svg(board)`: the WS2812 chain in LED index order over the board, then the die pips
  and the turn light; the data-in pin and the 5 V supply with the current budget.
- `draw_all(board, out_dir)` writes the three as `<game>-template.svg`, `-matrix.svg`,
  `-leds.svg`.

The output depends only on the board: numbers have a fixed format, everything is drawn in a
fixed order, and the board file is named without its directory. The same board gives
byte-identical files.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import ast

from reedboard.hal.board import Board, BoardError
from reedboard.hal.leds import MA_PER_CHANNEL

__all__ = ["DrawingError", "Power", "draw_all", "leds_svg", "matrix_svg", "power", "template_svg"]


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
LED_IDLE_MA = 1.0  # a dark WS2812B still draws about 1 mA
HEADROOM = 1.2  # the supply is sized 20 % above the worst case it will be asked for

# The Pico's package: GP number -> physical pin on its edge.
PICO_PACKAGE = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16,
                13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29,
                26: 31, 27: 32, 28: 34}
PICO_PINS_FILE = Path(__file__).resolve().parent.parent / "firmware" / "pins.py"


def pico_pins(path: Path = PICO_PINS_FILE) -> dict[str, object]:
    """The Pico's pins as the firmware sets them (firmware/pins.py: GP numbers), read as data."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        return {target.id: ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                for target in node.targets if isinstance(target, ast.Name)}
    except (OSError, SyntaxError, ValueError) as error:
        raise DrawingError(f"cannot read the Pico's pins from {path} ({error})") from None


# The Raspberry Pi's 40-pin header: BCM number -> physical pin.
PI_HEADER = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21, 10: 19, 11: 23, 12: 32,
    13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35, 20: 38, 21: 40, 22: 15, 23: 16,
    24: 18, 25: 22, 26: 37, 27: 13,
}


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


STYLES = {
    "bigballs": _Style("Big Balls", 34.0, 34.0, 13.0, None, (270.0, 30.0, 150.0),
                       "Ø8×3 mm N42 disc", 8.0),
    "offboard": _Style("Off Board", 26.0, 30.0, 10.0, 20.0,
                       (270.0, 330.0, 30.0, 90.0, 150.0, 210.0),
                       "Ø6×3 mm N42 disc", 6.0),
}


def _style(board: Board) -> _Style:
    """How a board is drawn; a board without its own style gets a rectangular one."""
    return STYLES.get(board.name) or _Style(board.name, 30.0, 30.0, 10.0, 10.0, (270.0, 0.0, 90.0, 180.0),
                                            "Ø6×3 mm N42 disc", 6.0)


def _is_cup(board: Board, cell: str) -> bool:
    """A scoring sector on Off Board's rim (S1..S12): a cup rather than a hole."""
    return board.name == "offboard" and cell.startswith("S")


def _diameter(board: Board, cell: str) -> float:
    style = _style(board)
    return style.cup if _is_cup(board, cell) else style.hollow


# ----------------------------------------------------------------------------------------------
# Power


@dataclass(frozen=True)
class Power:
    leds: int
    full_white_ma: float  # every LED full white, if nothing capped it
    budget_ma: float  # the controller dims every frame to fit this (board file, leds budget_ma)
    idle_ma: float  # the chain's own draw, lit or not
    worst_ma: float  # the most the chain can draw with the cap: min(full white, budget) + idle
    supply_a: float  # a 5 V supply with headroom, rounded up to half an amp


def power(board: Board) -> Power:
    full = board.led_count * 3 * MA_PER_CHANNEL
    idle = board.led_count * LED_IDLE_MA
    worst = min(full, board.budget_ma) + idle
    supply = math.ceil(worst * HEADROOM / 500 - 1e-9) * 0.5
    return Power(board.led_count, full, board.budget_ma, idle, worst, supply)


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


def _outline(board: Board, positions: dict[str, tuple[float, float]]) -> _Outline:
    """The board's edge: the sides (perpendicular to the style's normals) `rim` mm beyond the
    outermost hollows, corners rounded. A triangle for Big Balls, a hexagon for Off Board."""
    style = _style(board)
    normals = [(math.cos(math.radians(a)), math.sin(math.radians(a))) for a in style.normals]
    reach = {c: _diameter(board, c) / 2 + style.rim for c in board.cells}
    offsets = [max(x * nx + y * ny + reach[c] for c, (x, y) in positions.items()) for nx, ny in normals]
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
    return _Outline(" ".join(d), min(xs) - radius, min(ys) - radius, max(xs) + radius, max(ys) + radius)


def _cell_order(board: Board) -> list[str]:
    """Cells in LED order (the template and the LED drawing draw them in this fixed order)."""
    return sorted(board.cells, key=lambda c: (board.led[c], c))


def _row_col(board: Board, cell: str) -> tuple[int, int]:
    return divmod(board.sensor[cell], board.columns)


def _board_name(board: Board) -> str:
    return Path(board.source).name


# ----------------------------------------------------------------------------------------------
# The template

RED, BLUE, GREEN, GREY, DARK = "#d00000", "#0050d0", "#008a3e", "#888", "#222"


def template_svg(board: Board) -> str:
    """The drilling / laser-cutting template at 1:1 (mm), seen from the playing side."""
    style = _style(board)
    positions = _positions(board, "template")
    outline = _outline(board, positions)
    svg = _Svg()
    pad = 12.0
    strip = 96.0  # notes, legend, scale bar and title block under the board
    width = max(outline.x1 - outline.x0 + 2 * pad, 330.0)
    left = (outline.x0 + outline.x1) / 2 - width / 2
    top = -outline.y1 - pad
    height = outline.y1 - outline.y0 + 2 * pad + strip

    svg.raw("<!-- 1 user unit = 1 mm; board point (x, y) is drawn at (x, -y). -->")
    svg.open("g", id="outline")
    svg.path(outline.path, stroke="#000", width=0.5)
    svg.close("g")

    # the datum: the board file's origin, which every x and y is measured from
    svg.open("g", id="datum")
    svg.line(-6, 0, 14, 0, stroke=DARK, width=0.25)
    svg.line(0, 6, 0, -14, stroke=DARK, width=0.25)
    svg.path("M 14 0 L 11 -1 L 11 1 Z", stroke="none", fill=DARK)
    svg.path("M 0 -14 L -1 -11 L 1 -11 Z", stroke="none", fill=DARK)
    svg.text(15, 1.2, "x", 3.5, anchor="start", fill=DARK)
    svg.text(1.5, -14.5, "y", 3.5, anchor="start", fill=DARK)
    svg.text(2, 4.5, "datum 0,0", 3, anchor="start", fill=DARK)
    svg.close("g")

    for cell in _cell_order(board):
        x, y = positions[cell]
        r = _diameter(board, cell) / 2
        row, column = _row_col(board, cell)
        cup = _is_cup(board, cell)
        svg.open("g", id=f"cell-{cell}")
        svg.circle(x, -y, r, stroke=RED, width=0.35, id=f"hollow-{cell}", class_="cup" if cup else "hollow")
        sx = x + REED_OFFSET
        svg.line(sx - REED_LENGTH / 2 - REED_LEADS, -y, sx + REED_LENGTH / 2 + REED_LEADS, -y,
                 stroke=BLUE, width=0.3)
        svg.rect(sx - REED_LENGTH / 2, -y - REED_DIAMETER / 2, REED_LENGTH, REED_DIAMETER,
                 stroke=BLUE, width=0.3, fill="#dbe7ff", rx=0.8, id=f"switch-{cell}")
        lx = x + LED_OFFSET
        svg.rect(lx - LED_SIZE / 2, -y - LED_SIZE / 2, LED_SIZE, LED_SIZE, stroke=GREEN, width=0.3,
                 fill="#e3f5e9", id=f"led-{cell}")
        svg.circle(lx, -y, 1.4, stroke=GREEN, width=0.2)
        svg.circle(x, -y, style.magnet_diameter / 2, stroke=GREY, width=0.25,
                   stroke_dasharray="0.8 0.6", class_="magnet")
        svg.line(x - 3, -y, x + 3, -y, stroke=RED, width=0.25)  # drill centre
        svg.line(x, -y - 3, x, -y + 3, stroke=RED, width=0.25)
        size = 4.2 if r >= 15 else 3.8
        svg.text(x, -y - r + size + 1.6, cell, size, weight="bold", class_="cell")
        svg.text(lx, -y + LED_SIZE / 2 + 3.0, f"L{board.led[cell]}", 2.5, fill=GREEN, class_="led")
        svg.text(sx + 1, -y + REED_DIAMETER / 2 + 3.0, f"r{row}c{column}", 2.5, fill=BLUE)
        if cup:
            svg.text(x, -y + r - 2.2, "cup", 2.5, fill=RED)
        svg.close("g")

    # under the board: notes, legend, scale bar, title block
    base = -outline.y0 + pad  # top of the strip
    hollows = [c for c in board.cells if not _is_cup(board, c)]
    cups = [c for c in board.cells if _is_cup(board, c)]
    notes = [
        f"Hollows Ø{_n(style.hollow)} mm" + (f", rim cups Ø{_n(style.cup)} mm" if cups else "")
        + "; crosses mark the drill centres. x, y are measured from the datum 0,0 (the board file's origin).",
        f"Reed switch (blue): glass NO 2×14 mm, flat under the hollow along x, its centre {_n(REED_OFFSET)} mm right of the hollow centre.",
        "ASSUMED: the piece's magnet (dashed) sits above the hollow centre, axis vertical, pole down, so it is over",
        "one end of the glass: the sweet spot of a switch under a magnet at right angles to it (over the middle it may not close).",
        f"Magnet: {style.magnet}, axial, pole toward the switch, 5-8 mm above the glass. Try one hollow before drilling all.",
        f"LED (green): WS2812B 5050 beside the switch, centre {_n(-LED_OFFSET)} mm left of the hollow centre; Ln = its index on the chain.",
        "rNcM: the switch's matrix row and column. Seen from the playing side: flip the sheet for the back.",
    ]
    svg.open("g", id="notes")
    for i, line in enumerate(notes):
        svg.text(left + pad, base + 6 + i * 5.2, line, 3.2, anchor="start")
    svg.close("g")

    # legend
    lx0, ly0 = left + pad, base + 6 + len(notes) * 5.2 + 6
    svg.open("g", id="legend")
    items = [("outline: cut", "#000"), ("hollow: drill / cut", RED), ("reed switch", BLUE), ("LED", GREEN),
             ("magnet in the piece", GREY)]
    x, y = lx0, ly0
    room = left + width - pad - 118.0 - 6  # up to the title block
    for label, colour in items:
        step = 14 + len(label) * 1.8
        if x + step > room:
            x, y = lx0, y + 5.5
        svg.line(x, y, x + 8, y, stroke=colour, width=0.6,
                 stroke_dasharray="0.8 0.6" if colour == GREY else None)
        svg.text(x + 10, y + 1.2, label, 3.2, anchor="start")
        x += step
    svg.close("g")

    # scale bar: print at 100 %, then this bar must measure 100 mm
    sx0, sy0 = left + pad, y + 9
    svg.open("g", id="scale")
    for k in range(10):
        svg.rect(sx0 + 10 * k, sy0, 10, 2.5, stroke="#000", width=0.2, fill="#000" if k % 2 == 0 else "#fff")
    for k in (0, 50, 100):
        svg.text(sx0 + k, sy0 + 6.5, f"{k}", 3, anchor="middle")
    svg.text(sx0 + 104, sy0 + 2.4, "mm: 100 mm when printed at 100 %", 3, anchor="start")
    svg.close("g")

    # title block
    tw, th = 118.0, 40.0
    tx, ty = left + width - pad - tw, base + 6 + len(notes) * 5.2
    svg.open("g", id="title-block")
    svg.rect(tx, ty, tw, th, stroke="#000", width=0.4)
    svg.line(tx, ty + 11, tx + tw, ty + 11, stroke="#000", width=0.25)
    svg.text(tx + 3, ty + 8, f"reedboard · {style.title}", 6, anchor="start", weight="bold")
    lines = [
        "drilling / laser-cutting template, playing side up",
        f"scale 1:1 · mm · sheet {_n(width)} × {_n(height)}",
        f"board {_n(outline.x1 - outline.x0)} × {_n(outline.y1 - outline.y0)} mm · {len(hollows)} hollows"
        + (f" + {len(cups)} cups" if cups else ""),
        f"board file: {_board_name(board)} · {board.led_count} LEDs",
        "print at 100 % (no fit to page)",
    ]
    for i, line in enumerate(lines):
        svg.text(tx + 3, ty + 16.5 + i * 5, line, 3.4, anchor="start")
    svg.close("g")
    return svg.document(left, top, width, height, f"{style.title} drilling template (1:1, mm)")


# ----------------------------------------------------------------------------------------------
# Pins


@dataclass(frozen=True)
class _Pins:
    name: str  # whose pins: "the Pico", "the Raspberry Pi"
    heading: str  # what these names are
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    leds: str  # the LED chain's data pin
    others: str  # buttons and buzzer


def _pico_pins(board: Board) -> _Pins:
    firmware = pico_pins()

    def pin(gp):
        return f"GP{gp} (pin {PICO_PACKAGE[gp]})"

    def name(pins, i):
        return pin(pins[i]) if i < len(pins) else "no pin"

    return _Pins(
        "the Pico", "Pico GP numbers (physical pin), as in firmware/pins.py and firmware/README.md",
        tuple(name(firmware["ROW_PINS"], r) for r in range(board.rows)),
        tuple(name(firmware["COLUMN_PINS"], c) for c in range(board.columns)),
        pin(firmware["LED_PIN"]),
        (f"die button {pin(firmware['DIE_BUTTON_PIN'])}, " if board.die_pips else "")
        + f"ok button {pin(firmware['OK_BUTTON_PIN'])}, buzzer {pin(firmware['BUZZER_PIN'])}",
    )


def _pi_pins(board: Board) -> _Pins | None:
    gpio = board.settings_of("gpio")

    def bcm(p):
        return f"BCM {p} (pin {PI_HEADER[p]})" if p in PI_HEADER else f"BCM {p}"

    others = ", ".join(f"{what} {bcm(p)}" for what, p in (
        ("die button", gpio.die_button), ("ok button", gpio.ok_button), ("buzzer", gpio.buzzer)) if p is not None)
    if gpio.expander is not None:
        bus, addresses = gpio.expander

        def port(letter, i):
            chip = i // 8
            return f"0x{addresses[chip]:02X} GP{letter}{i % 8}" if chip < len(addresses) else "no pin"

        chips = ", ".join(f"0x{a:02X}" for a in addresses)
        return _Pins(
            "the Raspberry Pi", f"Raspberry Pi through MCP23017 at {chips} on I2C bus {bus} (SDA pin 3, SCL pin 5):"
            " rows on port A, columns on port B",
            tuple(port("A", r) for r in range(board.rows)),
            tuple(port("B", c) for c in range(board.columns)),
            bcm(gpio.leds), others)
    if gpio.rows and gpio.columns:
        return _Pins("the Raspberry Pi", "Raspberry Pi BCM numbers (header pin), from the board file's [gpio]",
                     tuple(bcm(p) for p in gpio.rows), tuple(bcm(p) for p in gpio.columns),
                     bcm(gpio.leds), others)
    return None


def _pin_sets(board: Board) -> list[_Pins]:
    """The pins of the board's backend first (a Pico for serial and sim), then the other."""
    pico, pi = _pico_pins(board), _pi_pins(board)
    if board.backend == "gpio":
        return [pi, pico] if pi is not None else [pico]
    return [pico, pi] if pi is not None else [pico]


def _backend_says(board: Board, first: _Pins) -> str:
    return f"the board file's backend is {board.backend}: {first.name}"


# ----------------------------------------------------------------------------------------------
# The matrix

WIRE, ROWC, COLC = "#222", "#b03000", "#0050d0"


def _switch_and_diode(svg: _Svg, x: float, top: float, row_y: float, diodes: bool, scale: float = 1.0) -> None:
    """From the column tap at (x, top) down to the row line at row_y: a reed switch in its
    glass, then (with diodes) a diode whose band (cathode) is toward the row."""
    s = scale
    w = 0.3 * s
    svg.line(x, top, x, top + 2.5 * s, stroke=WIRE, width=w)
    svg.line(x, top + 2.5 * s, x + 2.6 * s, top + 7.5 * s, stroke=WIRE, width=w)  # the open blade
    svg.line(x, top + 7 * s, x, top + 10 * s, stroke=WIRE, width=w)
    svg.el("ellipse", cx=x + 0.6 * s, cy=top + 5 * s, rx=3.2 * s, ry=4.3 * s, fill="none", stroke=BLUE,
           stroke_width=0.25 * s, class_="reed")
    if diodes:
        a, k = top + 11 * s, top + 15.5 * s  # anode (base of the triangle), cathode (its tip, the band)
        svg.line(x, top + 10 * s, x, a, stroke=WIRE, width=w)
        svg.path(f"M {_n(x - 2.4 * s)} {_n(a)} L {_n(x + 2.4 * s)} {_n(a)} L {_n(x)} {_n(k)} Z",
                 stroke=WIRE, width=w, fill=WIRE, class_="diode")
        svg.line(x - 2.4 * s, k, x + 2.4 * s, k, stroke=WIRE, width=0.6 * s, class_="cathode")
        svg.line(x, k, x, row_y, stroke=WIRE, width=w)
    else:
        svg.line(x, top + 10 * s, x, row_y, stroke=WIRE, width=w)


def matrix_svg(board: Board) -> str:
    """The reed-switch matrix: rows, columns, a switch and its diode at every used crossing."""
    style = _style(board)
    pins = _pin_sets(board)
    first, second = pins[0], (pins[1] if len(pins) > 1 else None)
    dx, dy = 34.0, 30.0
    left, top = 66.0, 40.0  # room for the title, the row and the column labels
    col_x = [left + dx * c + 10 for c in range(board.columns)]
    row_y = [top + dy * (r + 1) for r in range(board.rows)]
    right = col_x[-1] + dx - 6
    bottom = row_y[-1] + 8
    svg = _Svg()
    title = (f"{style.title} · reed-switch matrix: {board.rows} rows × {board.columns} columns, "
             f"{len(board.cells)} switches" + (", one 1N4148 diode each" if board.diodes else ", no diodes"))
    svg.text(8, 10, title, 5.5, anchor="start", weight="bold")
    svg.text(8, 16.5, f"Pins: {first.heading} ({_backend_says(board, first)}).", 3.2, anchor="start")
    if second:
        svg.text(8, 21, f"Grey: {second.heading}.", 3.2, anchor="start", fill=GREY)

    svg.open("g", id="columns")
    for c, x in enumerate(col_x):
        svg.line(x, top, x, bottom, stroke=COLC, width=0.45, id=f"column-{c}")
        svg.text(x, top - 13, f"column {c}", 3.4, weight="bold", fill=COLC)
        svg.text(x, top - 8.5, first.columns[c], 2.9)
        if second:
            svg.text(x, top - 4.5, second.columns[c], 2.9, fill=GREY)
        svg.circle(x, top, 0.9, stroke="none", fill=COLC)
    svg.close("g")
    svg.open("g", id="rows")
    for r, y in enumerate(row_y):
        svg.line(left, y, right, y, stroke=ROWC, width=0.45, id=f"row-{r}")
        svg.text(left - 3, y - 1.5, f"row {r}", 3.4, anchor="end", weight="bold", fill=ROWC)
        svg.text(left - 3, y + 3, first.rows[r], 2.9, anchor="end")
        if second:
            svg.text(left - 3, y + 7, second.rows[r], 2.9, anchor="end", fill=GREY)
        svg.circle(left, y, 0.9, stroke="none", fill=ROWC)
    svg.close("g")

    by_sensor = {board.sensor[c]: c for c in board.cells}
    svg.open("g", id="switches")
    for r in range(board.rows):
        for c in range(board.columns):
            cell = by_sensor.get(r * board.columns + c)
            x, y = col_x[c], row_y[r]
            if cell is None:
                svg.text(x + 9, y - 10, "unused", 2.6, fill="#aaa")
                continue
            tap = y - 24
            bx = x + 8
            svg.open("g", id=f"switch-{cell}", class_="switch", data_cell=cell, data_row=str(r), data_column=str(c))
            svg.line(x, tap, bx, tap, stroke=WIRE, width=0.3)
            svg.circle(x, tap, 0.8, stroke="none", fill=WIRE)
            _switch_and_diode(svg, bx, tap, y, board.diodes)
            svg.circle(bx, y, 0.8, stroke="none", fill=WIRE)
            svg.text(bx + 4.2, tap + 6.5, cell, 4, anchor="start", weight="bold", class_="cell")
            svg.text(bx + 4.2, tap + 10.5, f"#{r * board.columns + c}", 2.6, anchor="start", fill=GREY)
            svg.close("g")
    svg.close("g")

    # how one switch is wired, larger
    kx, ky = right + 16, top + 4
    svg.open("g", id="key")
    svg.text(kx - 4, ky - 4, "one switch, 2:1", 3.4, anchor="start", weight="bold")
    svg.line(kx, ky, kx, ky + 44, stroke=COLC, width=0.6)
    svg.line(kx + 4, ky + 52, kx + 30, ky + 52, stroke=ROWC, width=0.6)
    svg.line(kx, ky + 4, kx + 12, ky + 4, stroke=WIRE, width=0.6)
    svg.circle(kx, ky + 4, 1.2, stroke="none", fill=WIRE)
    _switch_and_diode(svg, kx + 12, ky + 4, ky + 52, board.diodes, scale=2.0)
    svg.circle(kx + 12, ky + 52, 1.2, stroke="none", fill=WIRE)
    svg.text(kx + 1.5, ky + 1.5, "column (pulled up)", 3, anchor="start", fill=COLC)
    svg.text(kx + 20, ky + 14, "reed switch (NO)", 3, anchor="start")
    if board.diodes:
        svg.text(kx + 20, ky + 30, "1N4148: anode", 3, anchor="start")
        svg.text(kx + 20, ky + 34, "on the switch,", 3, anchor="start")
        svg.text(kx + 20, ky + 38.5, "band (cathode)", 3, anchor="start", weight="bold")
        svg.text(kx + 20, ky + 42.5, "toward the row", 3, anchor="start", weight="bold")
    svg.text(kx + 14, ky + 57, "row (driven low)", 3, anchor="start", fill=ROWC)
    svg.close("g")

    width = kx + 58
    notes = [
        "Rows are driven low one at a time; columns are inputs with pull-ups (the chips' own are weak, 50-100 kΩ: add 10 kΩ to 3.3 V on long wires).",
        "A closed switch joins its column to its row" + (" through its diode, so only the driven row pulls a column low: no ghosting, no shorts."
                                                          if board.diodes else ": without diodes three closed corners of a rectangle make the fourth read closed."),
        f"#n is the sensor number in the board file: row × {board.columns} + column. Cell names as on the board (see the template).",
        f"Other pins on {first.name}: {first.others}; LED chain data {first.leds}.",
    ]
    if second:
        notes.append(f"Other pins on {second.name}: {second.others};"
                     f" LED chain data {second.leds}.")
    svg.open("g", id="notes")
    for i, line in enumerate(notes):
        svg.text(8, bottom + 10 + i * 5, line, 3.2, anchor="start", fill=GREY if i == 4 else "#000")
    svg.close("g")
    height = bottom + 10 + len(notes) * 5 + 4
    return svg.document(0, 0, width, height, f"{style.title} reed-switch matrix")


# ----------------------------------------------------------------------------------------------
# The LED chain

CHAIN, LEDFILL, PIPFILL = "#e07000", "#fff6c8", "#ffffff"
PIP_PLACES = ((-1, 1), (1, 1), (-1, 0), (0, 0), (1, 0), (-1, -1), (1, -1))  # board file's pip order


def _route(a: tuple[float, float], b: tuple[float, float]) -> list[tuple[float, float]]:
    """The wire from one LED to the next, in board coordinates: straight, except from the end
    of a row back to the start of the next, which runs between the two rows."""
    (x1, y1), (x2, y2) = a, b
    if abs(y2 - y1) > 3 and abs(x2 - x1) > 2.5 * abs(y2 - y1):
        middle = (y1 + y2) / 2
        return [a, (x1, middle), (x2, middle), b]
    return [a, b]


def leds_svg(board: Board) -> str:
    """The LED chain in index order over the board, then the die pips and the turn light."""
    style = _style(board)
    positions = _positions(board, "LED drawing")
    outline = _outline(board, positions)
    pins = _pin_sets(board)
    first = pins[0]
    load = power(board)

    # where every LED on the chain is drawn (board coordinates, y up) and what it is
    place: dict[int, tuple[float, float]] = {}
    what: dict[int, str] = {}
    for cell in board.cells:
        place[board.led[cell]] = positions[cell]
        what[board.led[cell]] = cell
    # the die, the turn light and any spare LEDs: beside the board, on the side where the
    # chain leaves the cells
    last = max(board.led[c] for c in board.cells)
    lx_, ly_ = positions[what[last]]
    pitch = 22.0
    panel = 2 * pitch if board.die_pips else 10.0
    right_side = lx_ >= (outline.x0 + outline.x1) / 2
    ex = outline.x1 + panel + 16 if right_side else outline.x0 - panel - 16
    ey = min(max(ly_, outline.y0 + panel + 40), outline.y1 - panel)
    for role, index in enumerate(board.die_pips):
        px, py = PIP_PLACES[role]
        place[index] = (ex + px * pitch, ey + py * pitch)
        what[index] = "pip"
    turn_y = ey - (panel + 14 if board.die_pips else 0)
    if board.turn_led is not None:
        place[board.turn_led] = (ex, turn_y)
        what[board.turn_led] = "turn"
    spare_y = turn_y - 24
    for index in range(board.led_count):
        if index not in place:
            place[index] = (ex, spare_y)
            what[index] = "spare"
            spare_y -= 18

    svg = _Svg()
    svg.path(outline.path, stroke="#bbb", width=0.5)
    if board.die_pips:
        svg.rect(ex - panel, -(ey + panel), 2 * panel, 2 * panel, stroke=GREY, width=0.4, rx=5.0)
        svg.text(ex, -(ey + panel) - 2.5, "die pips", 4, weight="bold")

    order = list(range(board.led_count))
    svg.open("g", id="chain")
    for i in order[:-1]:
        route = _route(place[i], place[i + 1])
        d = "M " + " L ".join(f"{_n(x)} {_n(-y)}" for x, y in route)
        svg.path(d, stroke=CHAIN, width=0.8, class_="link", data_from=str(i), data_to=str(i + 1),
                 stroke_linejoin="round")
        # an arrow halfway along the longest leg
        legs = list(zip(route, route[1:]))
        (x1, y1), (x2, y2) = max(legs, key=lambda leg: math.hypot(leg[1][0] - leg[0][0], leg[1][1] - leg[0][1]))
        length = math.hypot(x2 - x1, y2 - y1)
        if length < 1e-6:
            continue
        ux, uy = (x2 - x1) / length, -(y2 - y1) / length  # in SVG's directions
        mx, my = (x1 + x2) / 2, -(y1 + y2) / 2
        tip = (mx + 2.2 * ux, my + 2.2 * uy)
        back = (mx - 2.2 * ux, my - 2.2 * uy)
        left_ = (back[0] - 1.8 * uy, back[1] + 1.8 * ux)
        right_ = (back[0] + 1.8 * uy, back[1] - 1.8 * ux)
        svg.path(f"M {_n(tip[0])} {_n(tip[1])} L {_n(left_[0])} {_n(left_[1])} L {_n(right_[0])} {_n(right_[1])} Z",
                 stroke="none", fill=CHAIN, class_="arrow")
    svg.close("g")

    svg.open("g", id="leds")
    for i in order:
        x, y = place[i]
        kind = what[i]
        pip = kind == "pip"
        r = 6.0 if pip else 7.0
        svg.open("g", id=f"led-{i}", data_led=str(i), data_is=kind)
        svg.circle(x, -y, r, stroke="#000", width=0.35, fill=PIPFILL if pip else LEDFILL)
        svg.text(x, -y + (1.4 if pip else 1.8), str(i), 4.0 if pip else 5.0, weight="bold", class_="index")
        if kind == "turn":
            svg.text(x, -y + r + 4.5, "turn light", 3.4)
        elif kind == "spare":
            svg.text(x + r + 2, -y + 1.2, "spare", 3.2, anchor="start", fill=GREY)
        elif not pip:
            svg.text(x - r * 0.6, -y - r * 0.75 - 1, kind, 3.4, anchor="end", fill="#555", class_="cell")
        svg.close("g")
    svg.close("g")

    # data in and power, under the board
    lx, ly = place[0]
    by = outline.y0 - 18  # top of the boxes (board coordinates)
    box_h = 31.0
    data_w, power_w = 112.0, 168.0
    dx0 = lx - 24
    svg.open("g", id="data-in")
    svg.rect(dx0, -by, data_w, box_h, stroke=CHAIN, width=0.5)
    svg.text(dx0 + 3, -by + 6, "DATA IN to LED 0's DIN", 3.8, anchor="start", weight="bold")
    svg.text(dx0 + 3, -by + 11.5, f"{first.name[4:].capitalize()} {first.leds} → 74AHCT125 (on 5 V)", 3.2,
             anchor="start")
    svg.text(dx0 + 3, -by + 16.5, "→ 330 Ω close to LED 0 → DIN", 3.2, anchor="start")
    if len(pins) > 1:
        svg.text(dx0 + 3, -by + 22, f"or from {pins[1].name}: {pins[1].leds}, the same way", 3.0,
                 anchor="start", fill=GREY)
    svg.text(dx0 + 3, -by + 27.5, "each LED's DOUT feeds the next one's DIN", 3.0, anchor="start", fill=GREY)
    svg.close("g")
    svg.path(f"M {_n(lx - 2.5)} {_n(-by)} L {_n(lx - 2.5)} {_n(-ly + 6.5)}", stroke=CHAIN, width=0.8,
             id="data-wire")

    px0 = dx0 + data_w + 8
    svg.open("g", id="power")
    svg.rect(px0, -by, power_w, box_h, stroke="#c00", width=0.5)
    svg.text(px0 + 3, -by + 6, f"5 V SUPPLY: {_n(load.supply_a)} A or more, for the LEDs", 3.8,
             anchor="start", weight="bold")
    svg.text(px0 + 3, -by + 11.5, f"budget {_n(load.budget_ma)} mA: the controller dims every frame to fit",
             3.2, anchor="start")
    svg.text(px0 + 3, -by + 16.5, f"full white without the cap: {load.leds} × {_n(3 * MA_PER_CHANNEL)} mA"
             f" = {_n(load.full_white_ma)} mA", 3.2, anchor="start")
    svg.text(px0 + 3, -by + 21.5, f"worst case {_n(load.worst_ma)} mA (with {_n(load.idle_ma)} mA idle),"
             " + 20 % headroom", 3.2, anchor="start")
    svg.text(px0 + 3, -by + 27.5, "1000 µF across 5 V and GND at LED 0; join GND to the controller's",
             3.0, anchor="start", fill=GREY)
    svg.close("g")
    for name, colour, offset, level in (("5 V", "#c00", 1.5, 4.0), ("GND", "#000", 4.5, 9.0)):
        svg.path(f"M {_n(px0 + 6 + offset * 4)} {_n(-by)} L {_n(px0 + 6 + offset * 4)} {_n(-by - level)}"
                 f" L {_n(lx + offset)} {_n(-by - level)} L {_n(lx + offset)} {_n(-ly + 5.5)}",
                 stroke=colour, width=0.6, id="supply-" + name.replace(" ", "").lower())
        svg.text(px0 + 8 + offset * 4, -by - level - 1, name, 3.0, anchor="start", fill=colour)

    pips = len(board.die_pips)
    parts = [f"{len(board.cells)} cells"] + ([f"{pips} die pips"] if pips else []) + (
        ["the turn light"] if board.turn_led is not None else [])
    spares = sum(1 for k in what.values() if k == "spare")
    if spares:
        parts.append(f"{spares} spare")
    xs = [x for x, _ in place.values()]
    ys = [y for _, y in place.values()]
    left = min(outline.x0, dx0, min(xs) - panel) - 12
    right = max(outline.x1, px0 + power_w, max(xs) + panel) + 12
    top = -max(outline.y1, max(ys) + panel) - 26
    svg.text(left + 4, top + 9, f"{style.title} · WS2812B LED chain: {board.led_count} LEDs in index order", 5.5,
             anchor="start", weight="bold")
    svg.text(left + 4, top + 15.5, "The chain: " + ", then ".join(parts)
             + f". Arrows: data from each LED to the next. Board file: {_board_name(board)}.", 3.2, anchor="start")
    bottom = -by + box_h + 8
    return svg.document(left, top, right - left, bottom - top, f"{style.title} LED chain")


# ----------------------------------------------------------------------------------------------


def draw_all(board: Board, out_dir: str | Path) -> list[Path]:
    """Write `<game>-template.svg`, `<game>-matrix.svg` and `<game>-leds.svg` into out_dir."""
    out = Path(out_dir)
    written = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        for kind, draw in (("template", template_svg), ("matrix", matrix_svg), ("leds", leds_svg)):
            path = out / f"{board.name}-{kind}.svg"
            path.write_bytes(draw(board).encode("utf-8"))
            written.append(path)
    except OSError as error:  # a place that cannot be written: one line, not a traceback
        raise DrawingError(f"cannot write the drawings to {out}: {error.strerror or error}") from None
    return written
