"""Drawings of a board, as SVG: the drilling template, the switch matrix and the LED chain (and,
through underside.py, the board seen from below and the Pico carrier).

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
- `draw_all(board, out_dir)` writes these three and underside.py's two as `<game>-template.svg`,
  `-matrix.svg`, `-leds.svg`, `-underside.svg` and `-carrier.svg`.

What they share (the parts' sizes, the places, the outline, the SVG writer) is in shapes.py.

The output depends only on the board: numbers have a fixed format, everything is drawn in a
fixed order, and the board file is named without its directory. The same board gives
byte-identical files.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from reedboard.hal.board import Board
from reedboard.hal.leds import MA_PER_CHANNEL
from reedboard.hal.matrix import expander_pin
from reedboard.hardware.underside import carrier_svg, underside_svg
from reedboard.hardware.shapes import (  # noqa: F401 - drawings.NAME is how the other modules and the tests reach them
    ABOVE, BELOW, BLUE, _board_name, BUTTON_HOLE, carrier_box, _cell_order, CLOSE_AT, DARK, _diameter,
    DrawingError, FLOOR, GREEN, GREY, HOLLOW_DEPTH, _is_cup, LED_HOLE, LED_OFFSET, LED_SIZE,
    MAGNET_ABOVE_GLASS, _n, _outline, PI_HEADER, PICO_PACKAGE, pico_pins, PIP_PITCH, pip_places, PIP_PLACES,
    Places, places, _positions, RED, REED_DIAMETER, REED_LEADS, REED_LENGTH, REED_OFFSET, _row_col,
    SCHEMATIC, side_label, SOUND_HOLE, _style, _Svg)

__all__ = ["DrawingError", "Power", "draw_all", "leds_svg", "matrix_svg", "power", "template_svg"]


# ----------------------------------------------------------------------------------------------
# Power

LED_IDLE_MA = 1.0  # a dark WS2812B still draws about 1 mA
HEADROOM = 1.2  # the supply is sized 20 % above the worst case it will be asked for


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
# The template

def _draw_places(svg: _Svg, board: Board) -> None:
    """The die pips, the turn light, the buttons, the buzzer (holes to drill, red) and the Pico
    carrier under the board (dashed), where Places puts them."""
    where = places(board)
    if where is None:
        return
    svg.open("g", id="places")
    if where.die:
        x, y = where.die
        half = PIP_PITCH + 9
        svg.open("g", id="place-die", class_="place")
        svg.rect(x - half, -y - half, 2 * half, 2 * half, stroke=GREY, width=0.3, rx=4.0,
                 stroke_dasharray="1.5 1")
        for i, (px, py) in enumerate(pip_places(where.die)):
            svg.circle(px, -py, LED_HOLE / 2, stroke=RED, width=0.35, id=f"pip-{i}", class_="hole")
            svg.line(px - 2, -py, px + 2, -py, stroke=RED, width=0.2)
            svg.line(px, -py - 2, px, -py + 2, stroke=RED, width=0.2)
            svg.text(px + 3.4, -py - 2.4, f"L{board.die_pips[i]}", 2.3, fill=GREEN, class_="place-led")
        svg.text(x, -y + half + 4, f"die: 7 pip holes Ø{_n(LED_HOLE)}, an LED under each", 3.0)
        svg.close("g")
    for key, what, hole in (("turn", "turn light", LED_HOLE), ("die_button", "die button", BUTTON_HOLE),
                            ("ok_button", "ok button", BUTTON_HOLE)):
        at = getattr(where, key)
        if at is None:
            continue
        x, y = at
        svg.open("g", id="place-" + key.replace("_", "-"), class_="place")
        svg.circle(x, -y, hole / 2, stroke=RED, width=0.35, class_="hole")
        svg.line(x - 3, -y, x + 3, -y, stroke=RED, width=0.25)
        svg.line(x, -y - 3, x, -y + 3, stroke=RED, width=0.25)
        svg.text(x, -y + max(hole / 2, 4) + 4, f"{what} Ø{_n(hole)}", 3.0)
        if key == "turn":
            svg.text(x, -y - 4.5, f"L{board.turn_led}", 2.5, fill=GREEN, class_="place-led")
        elif key == "die_button":
            svg.text(x, -y + max(hole / 2, 4) + 8, "12 mm tactile button under", 2.5, fill=GREY)
        svg.close("g")
    if where.buzzer:
        x, y = where.buzzer
        svg.open("g", id="place-buzzer", class_="place")
        svg.circle(x, -y, 6.0, stroke=GREY, width=0.3, stroke_dasharray="1 0.8")
        for k in range(7):
            hx, hy = (x, y) if k == 0 else (x + 4.5 * math.cos(math.radians(60 * k)),
                                           y + 4.5 * math.sin(math.radians(60 * k)))
            svg.circle(hx, -hy, SOUND_HOLE / 2, stroke=RED, width=0.3, class_="hole")
        svg.text(x, -y + 10.5, f"buzzer: 7 holes Ø{_n(SOUND_HOLE)}", 3.0)
        svg.text(x, -y + 14, "the buzzer under them", 2.5, fill=GREY)
        svg.close("g")
    if where.carrier:
        x0, y0, x1, y1 = carrier_box(where)
        svg.open("g", id="place-carrier", class_="place")
        svg.rect(x0, -y1, x1 - x0, y1 - y0, stroke=DARK, width=0.35, stroke_dasharray="3 1.5")
        usb_left = where.carrier_turned  # turned: the carrier's USB end is on its left, seen from above
        ux = x0 + 2 if usb_left else (x0 + x1) / 2
        svg.text((x0 + x1) / 2, -y0 - 12, "Pico carrier, under the board", 3.4, weight="bold", fill=DARK)
        svg.text((x0 + x1) / 2, -y0 - 7.5, f"stripboard {_n(x1 - x0)} × {_n(y1 - y0)} mm: {board.name}-carrier.svg",
                 2.6, fill=DARK)
        svg.text((x0 + x1) / 2, -y0 - 3.5, where.carrier_note, 2.6, fill=DARK)
        svg.text(ux, -(y0 + y1) / 2 + 1, "USB end" if usb_left else "USB end (top)", 3.0,
                 anchor="start" if usb_left else "middle", fill=DARK, weight="bold")
        svg.close("g")
    svg.close("g")


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
    head = 12.0  # the side it shows, above the board
    top = -outline.y1 - pad - head
    height = outline.y1 - outline.y0 + 2 * pad + strip + head

    svg.raw("<!-- 1 user unit = 1 mm; board point (x, y) is drawn at (x, -y). -->")
    side_label(svg, left + pad, top + 9, ABOVE, f"the playing side. Seen from below, left and right swap:"
               f" {board.name}-underside.svg")
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

    _draw_places(svg, board)

    # under the board: notes, legend, scale bar, title block
    base = -outline.y0 + pad  # top of the strip
    hollows = [c for c in board.cells if not _is_cup(board, c)]
    cups = [c for c in board.cells if _is_cup(board, c)]
    notes = [
        f"Hollows Ø{_n(style.hollow)} mm" + (f", rim cups Ø{_n(style.cup)} mm" if cups else "")
        + f" (+0.5/-0), {_n(HOLLOW_DEPTH)} mm deep (±0.5), leaving a {_n(FLOOR)} mm floor (±0.3) in a"
        f" {_n(HOLLOW_DEPTH + FLOOR)} mm board; crosses: the drill centres, x, y from the datum 0,0.",
        f"Reed switch (blue): glass NO 2×14 mm, flat under the hollow along x, its centre {_n(REED_OFFSET)} mm right of the hollow centre.",
        "ASSUMED: the piece's magnet (dashed) sits above the hollow centre, axis vertical, pole down, so it is over",
        "one end of the glass: the sweet spot of a switch under a magnet at right angles to it (over the middle it may not close).",
        f"Magnet: {style.magnet}, axial, pole toward the switch, {_n(MAGNET_ABOVE_GLASS)} mm above the glass; it must"
        f" still close the switch {_n(CLOSE_AT)} mm above. Test one hollow in scrap before drilling all.",
        f"LED (green): WS2812B 5050 beside the switch, centre {_n(-LED_OFFSET)} mm left of the hollow centre; Ln = its index on the chain.",
        f"rNcM: the switch's matrix row and column. The back, seen from below: {board.name}-underside.svg.",
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

# Pins the Pi's gpio backend takes besides the board file's own, and the pins rpi_ws281x can drive a
# chain from: PWM0 (18, 12), PWM1 (13, 19) and PCM (21).
I2C_PINS = (2, 3)  # SDA, SCL: the MCP23017 expanders
SPI0_PINS = (7, 8, 9, 10, 11)  # CE1, CE0, MISO, MOSI, SCLK: the spi LED driver
WS281X_PINS = (18, 21, 12, 13, 19)  # the first free one is the one to use


def pi_pin_uses(board: Board) -> dict[int, list[str]]:
    """Every BCM pin the board's gpio wiring takes and what takes it (a pin with two is a
    collision): the matrix rows and columns (or the expanders' I2C), the buttons, the buzzer,
    the LED chain's data pin, and the rest of SPI0 when the chain is on it."""
    gpio = board.settings_of("gpio")
    uses: dict[int, list[str]] = {}
    for i, pin in enumerate(gpio.rows):
        uses.setdefault(pin, []).append(f"row {i}")
    for i, pin in enumerate(gpio.columns):
        uses.setdefault(pin, []).append(f"column {i}")
    if gpio.expander is not None:
        for pin, what in zip(I2C_PINS, ("I2C SDA", "I2C SCL")):
            uses.setdefault(pin, []).append(what)
    for what, pin in (("die button", gpio.die_button if board.die_pips else None), ("ok button", gpio.ok_button),
                      ("buzzer", gpio.buzzer), ("LED data", gpio.leds)):
        if pin is not None:
            uses.setdefault(pin, []).append(what)
    if gpio.leds in SPI0_PINS:  # the spi driver: SPI0 is taken as a whole
        for pin in SPI0_PINS:
            if pin != gpio.leds:
                uses.setdefault(pin, []).append("SPI0")
    return uses


def ws281x_choices(board: Board) -> tuple[int, ...]:
    """The pins the LED chain's data can move to with `driver = "ws281x"`: those of WS281X_PINS
    nothing else of the board takes."""
    uses = pi_pin_uses(board)
    return tuple(p for p in WS281X_PINS if all(u in ("LED data", "SPI0") for u in uses.get(p, [])))




@dataclass(frozen=True)
class _Pins:
    name: str  # whose pins: "the Pico", "the Raspberry Pi"
    heading: str  # what these names are
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    leds: str  # the LED chain's data pin
    others: str  # buttons and buzzer
    ws281x: str = ""  # where the chain's data may go instead, with the ws281x driver


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
    ws281x = " or ".join(bcm(p) for p in ws281x_choices(board))
    if gpio.expander is not None:
        bus, addresses = gpio.expander

        def port(letter, i):
            chip, bit = expander_pin(i)
            return f"0x{addresses[chip]:02X} GP{letter}{bit}" if chip < len(addresses) else "no pin"

        chips = ", ".join(f"0x{a:02X}" for a in addresses)
        return _Pins(
            "the Raspberry Pi", f"Raspberry Pi through MCP23017 at {chips} on I2C bus {bus} (SDA pin 3, SCL pin 5):"
            " rows on GPA0-GPA6, columns on GPB0-GPB6 (GPA7 and GPB7 are output-only: left free)",
            tuple(port("A", r) for r in range(board.rows)),
            tuple(port("B", c) for c in range(board.columns)),
            bcm(gpio.leds), others, ws281x)
    if gpio.rows and gpio.columns:
        return _Pins("the Raspberry Pi", "Raspberry Pi BCM numbers (header pin), from the board file's [gpio]",
                     tuple(bcm(p) for p in gpio.rows), tuple(bcm(p) for p in gpio.columns),
                     bcm(gpio.leds), others, ws281x)
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
    left, top = 66.0, 50.0  # room for the title, the side it shows, the row and the column labels
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
    side_label(svg, 8, 29, SCHEMATIC, f"how the parts are joined, seen from no side. Where the wires run under"
               f" the board, seen from below: {board.name}-underside.svg", size=4.5)

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
        f"Other pins on {first.name}: {first.others}; LED chain data {first.leds}"
        + (f" (with the ws281x driver: {first.ws281x})." if first.ws281x else "."),
    ]
    if second:
        notes.append(f"Other pins on {second.name}: {second.others};"
                     f" LED chain data {second.leds}" + (f" (with the ws281x driver: {second.ws281x})." if second.ws281x else "."))
    svg.open("g", id="notes")
    for i, line in enumerate(notes):
        svg.text(8, bottom + 10 + i * 5, line, 3.2, anchor="start", fill=GREY if i == 4 else "#000")
    svg.close("g")
    height = bottom + 10 + len(notes) * 5 + 4
    return svg.document(0, 0, width, height, f"{style.title} reed-switch matrix")


# ----------------------------------------------------------------------------------------------
# The LED chain

CHAIN, LEDFILL, PIPFILL = "#e07000", "#fff6c8", "#ffffff"


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
    # the die, the turn light and any spare LEDs: where the template puts them, or else beside
    # the board, on the side where the chain leaves the cells
    where = places(board)
    last = max(board.led[c] for c in board.cells)
    lx_, ly_ = positions[what[last]]
    pitch = PIP_PITCH if where and where.die else 22.0
    panel = 2 * pitch if board.die_pips else 10.0
    right_side = lx_ >= (outline.x0 + outline.x1) / 2
    ex = outline.x1 + panel + 16 if right_side else outline.x0 - panel - 16
    ey = min(max(ly_, outline.y0 + panel + 40), outline.y1 - panel)
    if where and where.die:
        ex, ey = where.die
    for role, index in enumerate(board.die_pips):
        px, py = PIP_PLACES[role]
        place[index] = (ex + px * pitch, ey + py * pitch)
        what[index] = "pip"
    turn_y = ey - (panel + 14 if board.die_pips else 0)
    if board.turn_led is not None:
        place[board.turn_led] = where.turn if where and where.turn else (ex, turn_y)
        what[board.turn_led] = "turn"
    spare_x, spare_y = (ex, turn_y - 24) if not where else (outline.x1 + 16, outline.y0 + 10)
    for index in range(board.led_count):
        if index not in place:
            place[index] = (spare_x, spare_y)
            what[index] = "spare"
            spare_y += 18

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
        r = min(6.0, pitch / 2 - 1.2) if pip else 7.0
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
    svg.text(dx0 + 3, -by + 16.5, "→ 330 Ω (both on the carrier) → LED 0's DIN", 3.2, anchor="start")
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
    svg.text(px0 + 3, -by + 27.5, "1000 µF across 5 V and GND on the carrier; GND joined to the Pico's there",
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
    top = -max(outline.y1, max(ys) + panel) - 36
    svg.text(left + 4, top + 9, f"{style.title} · WS2812B LED chain: {board.led_count} LEDs in index order", 5.5,
             anchor="start", weight="bold")
    svg.text(left + 4, top + 15.5, "The chain: " + ", then ".join(parts)
             + f". Arrows: data from each LED to the next. Board file: {_board_name(board)}.", 3.2, anchor="start")
    side_label(svg, left + 4, top + 24, ABOVE, "looking down through the board. The LEDs are under it: from below,"
               f" left and right swap ({board.name}-underside.svg)", size=4.5)
    bottom = -by + box_h + 8
    return svg.document(left, top, right - left, bottom - top, f"{style.title} LED chain")


# ----------------------------------------------------------------------------------------------


def draw_all(board: Board, out_dir: str | Path) -> list[Path]:
    """Write `<game>-template.svg`, `-matrix.svg`, `-leds.svg`, `-underside.svg` and
    `-carrier.svg` into out_dir."""
    out = Path(out_dir)
    written = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        for kind, draw in (("template", template_svg), ("matrix", matrix_svg), ("leds", leds_svg),
                           ("underside", underside_svg), ("carrier", carrier_svg)):
            path = out / f"{board.name}-{kind}.svg"
            path.write_bytes(draw(board).encode("utf-8"))
            written.append(path)
    except OSError as error:  # a place that cannot be written: one line, not a traceback
        raise DrawingError(f"cannot write the drawings to {out}: {error.strerror or error}") from None
    return written
