"""The drawings of what is under the board: the Pico carrier on stripboard, and the board turned
over with its switches, diodes and the routes of the matrix's rows and columns.

- `CARRIER`: the Pico carrier as data: a piece of stripboard (COLUMNS holes along each copper
  strip, STRIPS strips, 2.54 mm apart), the parts with the hole of every pin, the wire links,
  and the holes where a strip is cut. `carrier_nets()` works out from that data alone which
  pins the copper joins (a strip conducts from cut to cut, a link joins two strips): the test
  compares it with the circuit of hardware/README.md.
- `carrier_svg(board)`: the carrier at 2:1, twice: seen from above (the parts' side, where the
  parts, the links and the wires go), and seen from below (the copper side, the carrier turned
  over: left and right swap), where the strips are cut and the pins soldered. The pads for the
  matrix wires are labelled with the board's rows and columns.
- `underside_svg(board)`: the board seen from below, turned over like a page (left and right
  swap, top stays top: a point x, y of the board file is drawn at -x, -y): every switch with its
  diode, every LED, the row and column wires from switch to switch and on to the carrier's pads,
  the die pips, the turn light, the buttons, the buzzer and the carrier where drawings.Places
  puts them.

Like drawings.py's, the output depends only on the board: the same board gives byte-identical files.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reedboard.hal.board import Board

from reedboard.hardware.shapes import (ABOVE, BELOW, BLUE, CARRIER_H, CARRIER_W, DARK, GREEN, GREY, LED_OFFSET,
                                       LED_SIZE, PICO_PACKAGE, RED, REED_DIAMETER, REED_LENGTH, REED_OFFSET,
                                       Places, _cell_order, _diameter, _n, _outline, _positions, _row_col,
                                       _style, _Svg, pico_pins, pip_places, places, side_label)

__all__ = ["CARRIER", "COLUMNS", "STRIPS", "Link", "Part", "carrier_nets", "carrier_svg", "matrix_routes",
           "pad_places", "underside_svg", "wire_lengths"]

P = 2.54  # stripboard pitch, mm
COLUMNS, STRIPS = 26, 33  # holes along a strip, strips
assert (COLUMNS * P, STRIPS * P) == (CARRIER_W, CARRIER_H)


# ----------------------------------------------------------------------------------------------
# The carrier as data

@dataclass(frozen=True)
class Part:
    ref: str
    kind: str  # pico, dip, resistor, transistor, diode, electrolytic, ceramic, terminal, pads
    value: str
    pins: tuple[tuple[str, int, int], ...]  # (pin, column, strip)
    note: str = ""


@dataclass(frozen=True)
class Link:
    a: tuple[int, int]  # (column, strip)
    b: tuple[int, int]
    net: str  # what it carries, for its colour and the legend


PICO_LEFT, PICO_RIGHT = 5, 12  # the columns of the Pico's two rows of pins (17.78 mm apart)
# The Pico's 40 pins, seen from above with the USB end up: 1-20 down the left, 21-40 up the right.
PICO_NAMES = {pin: f"GP{gp}" for gp, pin in PICO_PACKAGE.items()} | {
    3: "GND", 8: "GND", 13: "GND", 18: "GND", 23: "GND", 28: "GND", 33: "GND", 38: "GND",
    30: "RUN", 35: "ADC_VREF", 36: "3V3(OUT)", 37: "3V3_EN", 39: "VSYS", 40: "VBUS"}


def pico_hole(pin: int) -> tuple[int, int]:
    return (PICO_LEFT, pin - 1) if pin <= 20 else (PICO_RIGHT, 40 - pin)


# The pins the carrier is laid out for (firmware/pins.py as shipped)
CARRIER_PINS = {"DIE_BUTTON_PIN": 18, "OK_BUTTON_PIN": 19, "BUZZER_PIN": 20, "LED_PIN": 22,
                "ROW_PINS": (0, 1, 2, 3, 4, 5, 6, 7), "COLUMN_PINS": (8, 9, 10, 11, 12, 13, 14, 15, 16, 17)}


def _matrix_pads() -> tuple[Part, Part]:
    """J1 (left of the Pico: rows 0-7, columns 0-7) and J2 (right: columns 8 and 9): a pad on
    each matrix pin's strip, for the wire from under the board."""
    left, right = [], []
    for what, gps in (("row", CARRIER_PINS["ROW_PINS"]), ("column", CARRIER_PINS["COLUMN_PINS"])):
        for i, gp in enumerate(gps):
            column, strip = pico_hole(PICO_PACKAGE[gp])
            (left if column == PICO_LEFT else right).append((f"{what} {i}", 1 if column == PICO_LEFT else 14, strip))
    return (Part("J1", "pads", "matrix wires", tuple(left), "rows 0-7 and columns 0-7"),
            Part("J2", "pads", "matrix wires", tuple(right), "columns 8 and 9"))


_J1, _J2 = _matrix_pads()
_U2 = tuple((str(n), 6, 31 - n) for n in range(1, 8)) + tuple((str(n), 3, n + 16) for n in range(8, 15))

CARRIER_PARTS = (
    Part("U1", "pico", "Raspberry Pi Pico", tuple((str(pin), *pico_hole(pin)) for pin in range(1, 41)),
         "in two 1×20 female headers, USB end up"),
    _J1, _J2,
    Part("J3", "pads", "buttons", (("ok", 14, 15), ("die", 14, 16), ("GND", 14, 17)), "each button to GND"),
    Part("R2", "resistor", "1 kΩ", (("1", 15, 14), ("2", 19, 14))),
    Part("Q1", "transistor", "BC547 or 2N3904", (("C", 21, 13), ("B", 21, 14), ("E", 21, 15)),
         "BC547: flat face to the left; 2N3904: flat face to the right"),
    Part("R3", "resistor", "68 Ω ½ W", (("1", 20, 8), ("2", 20, 12))),
    Part("D2", "diode", "1N4148", (("K", 23, 12), ("A", 23, 13)), "stands up, band (K) on top"),
    Part("J4", "pads", "buzzer", (("+", 24, 12), ("-", 24, 13)), "+ and − of the buzzer"),
    Part("J6", "terminal", "LED chain", (("+5V", 14, 20), ("GND", 14, 22), ("DATA", 14, 24)),
         "to LED 0: 5 V, GND, DIN"),
    Part("C1", "electrolytic", "1000 µF 10 V", (("+", 18, 20), ("-", 18, 22)), "stripe (−) down"),
    Part("J5", "terminal", "5 V in", (("+5V", 22, 20), ("GND", 22, 22)), "from the LED supply"),
    Part("U2", "dip", "74AHCT125", _U2, "pin 1 bottom right: notch down"),
    Part("C2", "ceramic", "100 nF", (("1", 2, 30), ("2", 2, 32)), "U2's supply"),
    Part("R1", "resistor", "330 Ω", (("1", 11, 28), ("2", 11, 24))),
)

CARRIER_LINKS = (
    Link((13, 11), (13, 21), "GP22"), Link((8, 21), (8, 29), "GP22"),
    Link((25, 8), (25, 20), "+5V"), Link((0, 26), (0, 20), "+5V"), Link((2, 29), (2, 20), "+5V"),
    Link((1, 29), (1, 30), "+5V"), Link((9, 27), (9, 20), "+5V"),
    Link((22, 15), (22, 17), "GND"), Link((24, 17), (24, 22), "GND"), Link((25, 22), (25, 32), "GND"),
    Link((1, 25), (1, 22), "GND"), Link((0, 28), (0, 32), "GND"), Link((7, 24), (7, 22), "GND"),
    Link((10, 26), (10, 22), "GND"), Link((7, 30), (7, 32), "GND"),
)

CARRIER_CUTS = tuple(sorted(
    {(8, s) for s in range(20)}  # between the Pico's two rows of pins
    | {(15, s) for s in range(20) if s not in (14, 17)}  # right of the Pico: its pins stop here
    | {(17, 14)}  # under R2
    | {(4, s) for s in range(24, 31)}  # between U2's two rows of pins
    | {(10, 24), (14, 28)} | {(11, s) for s in (25, 26, 27, 29, 30)}))

# What each strip is for, where it is a bus, for the drawing's labels
BUSES = {20: "+5V", 21: "GP22", 22: "GND", 32: "GND"}


@dataclass(frozen=True)
class Carrier:
    parts: tuple[Part, ...]
    links: tuple[Link, ...]
    cuts: tuple[tuple[int, int], ...]


CARRIER = Carrier(CARRIER_PARTS, CARRIER_LINKS, CARRIER_CUTS)


def _segments(cuts) -> dict[tuple[int, int], tuple[int, int]]:
    """Every hole's stretch of copper: (strip, first column of its stretch); a cut hole has none."""
    cut = set(cuts)
    owner = {}
    for strip in range(STRIPS):
        start = 0
        for column in range(COLUMNS):
            if (column, strip) in cut:
                start = column + 1
                continue
            owner[(column, strip)] = (strip, start)
    return owner


def carrier_nets(carrier: Carrier = CARRIER) -> list[frozenset[str]]:
    """The pins the copper joins ("REF.pin"), worked out from the strips, the cuts and the links
    alone: each set is one net, a pin alone on its copper is a set of one. Raises ValueError for
    two pins or a link in one hole, or a pin or link on a cut or off the board."""
    owner = _segments(carrier.cuts)
    used: dict[tuple[int, int], str] = {}

    def take(hole, who):
        if hole not in owner:
            raise ValueError(f"{who} at column {hole[0]}, strip {hole[1]}: off the board or on a cut")
        if hole in used:
            raise ValueError(f"{who} and {used[hole]} in one hole (column {hole[0]}, strip {hole[1]})")
        used[hole] = who

    parent: dict = {}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for link in carrier.links:
        take(link.a, f"a link ({link.net})")
        take(link.b, f"a link ({link.net})")
        parent[find(owner[link.a])] = find(owner[link.b])
    nets: dict = {}
    for part in carrier.parts:
        for pin, column, strip in part.pins:
            take((column, strip), f"{part.ref}.{pin}")
            nets.setdefault(find(owner[(column, strip)]), set()).add(f"{part.ref}.{pin}")
    return sorted((frozenset(n) for n in nets.values()), key=lambda n: sorted(n))


# ----------------------------------------------------------------------------------------------
# The carrier drawing

COPPER, CUT, LINK, WIRE_5V = "#e9b98c", "#d00000", "#555", "#c00"
NET_COLOURS = {"+5V": "#c00", "GND": "#000", "GP22": "#e07000"}


def _pad_labels(board: Board) -> dict[str, tuple[str, bool]]:
    """Each matrix pad's label on this board and whether the board uses it."""
    labels = {}
    for part in (_J1, _J2):
        for pin, _c, _s in part.pins:
            what, i = pin.split()
            used = int(i) < (board.rows if what == "row" else board.columns)
            labels[f"{part.ref}.{pin}"] = (pin, used)
    labels["J3.die"] = ("die", bool(board.die_pips))
    return labels


def carrier_svg(board: Board) -> str:
    """The Pico carrier at 2:1, seen from above (parts) and from below (copper, cuts)."""
    k = 2.0  # scale
    w, h = COLUMNS * P * k, STRIPS * P * k
    margin_l, margin_r, gap, top = 44.0, 60.0, 96.0, 40.0
    svg = _Svg()
    style = _style(board)
    labels = _pad_labels(board)
    firmware = pico_pins()
    differ = [name for name, value in CARRIER_PINS.items()
              if (tuple(firmware.get(name, ())) if isinstance(value, tuple) else firmware.get(name)) != value]
    svg.text(8, 10, f"{style.title} · the Pico carrier on stripboard: {COLUMNS} holes × {STRIPS} strips"
             f" ({_n(COLUMNS * P)} × {_n(STRIPS * P)} mm), drawn at 2:1", 5.5, anchor="start", weight="bold")
    svg.text(8, 16.5, "Copper strips run left to right under the board. Cut them at the red crosses"
             " (a 4 mm drill turned by hand), fit the links, then the parts, then the Pico's headers.",
             3.2, anchor="start")
    svg.text(8, 21.5, "Grey pads are not used on this board. Wires: 22 AWG solid to the matrix, buttons and"
             " buzzer; 18-20 AWG from J5 to J6 and on to the LEDs.", 3.2, anchor="start")
    if differ:
        svg.text(8, 26.5, "firmware/pins.py differs from the pins this carrier is laid out for ("
                 + ", ".join(differ) + "): move the wires to match", 3.2, anchor="start", fill=RED)

    for view, x0 in (("above", margin_l), ("below", margin_l + w + gap)):
        mirror = view == "below"

        def at(column, strip, _x0=x0, _mirror=mirror):
            c = COLUMNS - 1 - column if _mirror else column
            return _x0 + (c + 0.5) * P * k, top + (strip + 0.5) * P * k

        svg.open("g", id=f"carrier-{view}", data_side=BELOW if mirror else ABOVE)
        side_label(svg, x0, top - 9, BELOW if mirror else ABOVE,
                   "the copper side, the carrier turned over: cut the strips here, solder here" if mirror
                   else "the parts' side: links, parts and wires go in from here", size=5.0)
        svg.rect(x0, top, w, h, stroke="#7a5a2a", width=0.5, fill="#f7ecd8" if not mirror else "#fbf3e6")
        for strip in range(STRIPS):
            _, y = at(0, strip)
            svg.rect(x0 + 0.6, y - 0.95 * k, w - 1.2, 1.9 * k, stroke="none", width=0.0,
                     fill=COPPER, fill_opacity="0.55" if mirror else "0.25")
            tag = BUSES.get(strip)
            if tag:
                svg.text(x0 + w + 2 if not mirror else x0 - 2, y + 1.1, tag, 2.6,
                         anchor="start" if not mirror else "end", fill=NET_COLOURS.get(tag, DARK), weight="bold")
        for column in range(COLUMNS):
            for strip in range(STRIPS):
                x, y = at(column, strip)
                svg.circle(x, y, 0.45 * k, stroke="none", fill="#fff" if mirror else "#b8a58a")
        # column numbers on top, strip numbers on the left
        for column in range(0, COLUMNS, 5):
            x, _ = at(column, 0)
            svg.text(x, top - 1.5, str(column), 2.4, fill=GREY)
        for strip in range(0, STRIPS, 5):
            _, y = at(0, strip)
            svg.text(x0 - 1.5 if not mirror else x0 + w + 1.5, y + 0.9, str(strip), 2.4,
                     anchor="end" if not mirror else "start", fill=GREY)
        svg.open("g", class_="cuts")
        arm = 1.6 if mirror else 1.1  # seen from above, the cuts are only a reminder
        for column, strip in CARRIER.cuts:
            x, y = at(column, strip)
            svg.line(x - arm, y - arm, x + arm, y + arm, stroke=CUT, width=0.7 if mirror else 0.45)
            svg.line(x - arm, y + arm, x + arm, y - arm, stroke=CUT, width=0.7 if mirror else 0.45)
        svg.close("g")
        if mirror:
            # the copper side: where each pin and link is soldered
            for part in CARRIER.parts:
                for pin, column, strip in part.pins:
                    x, y = at(column, strip)
                    svg.circle(x, y, 0.75 * k, stroke="#333", width=0.3, fill="#9aa")
            for link in CARRIER.links:
                for column, strip in (link.a, link.b):
                    x, y = at(column, strip)
                    svg.circle(x, y, 0.75 * k, stroke="#333", width=0.3, fill="#9aa")
            svg.text(x0 + w / 2, top + h + 9, "Grey dots: solder points. Check every cut with the multimeter:"
                     " no continuity across it.", 3.2)
            svg.close("g")
            continue
        _draw_links(svg, at, k)
        _draw_parts(svg, at, k, labels)
        svg.close("g")

    legend = [
        "U1 Raspberry Pi Pico in female headers (USB end up) · U2 74AHCT125 in a 14-pin socket: pin 1 (1OE) to GND,"
        " pin 2 (1A) from GP22, pin 3 (1Y) to R1,",
        "  pin 7 GND, pin 14 VCC 5 V; the unused buffers off: 2OE, 3OE, 4OE (pins 4, 10, 13) to 5 V, their inputs"
        " 2A, 3A, 4A (pins 5, 9, 12) to GND, outputs open",
        "R1 330 Ω: data to LED 0 (keep that wire under 30 cm) · C2 100 nF across U2 · C1 1000 µF across the LED"
        " supply, the stripe (−) to GND",
        "Buzzer: GP20 → R2 1 kΩ → Q1 base; emitter to GND; collector to the buzzer's −; the buzzer's + through"
        " R3 68 Ω ½ W to 5 V; D2 1N4148 across the buzzer, band to +",
        "Q1 legs, flat face toward you, legs down: BC547 C-B-E, 2N3904 E-B-C: so the BC547's flat face looks left"
        " here, the 2N3904's right",
        "J5: the 5 V LED supply (18 AWG). J6: to LED 0 (18-20 AWG for 5 V and GND). The LED current crosses only"
        " the copper between J5 and J6.",
        "The Pico takes its power from USB (the Pi); nothing here goes to its VBUS or VSYS. Its GND joins the"
        " LED supply's through strip 17.",
    ]
    ly = top + h + 16
    svg.open("g", id="legend")
    for i, line in enumerate(legend):
        svg.text(8, ly + i * 5, line, 3.1, anchor="start")
    svg.close("g")
    width = margin_l + 2 * w + gap + margin_r - 40
    height = ly + len(legend) * 5 + 4
    return svg.document(0, 0, width, height, f"{style.title} Pico carrier on stripboard")


HALO = {"stroke": "#fff", "stroke_width": 0.9, "paint_order": "stroke", "stroke_linejoin": "round"}


def _draw_links(svg: _Svg, at, k: float) -> None:
    svg.open("g", id="links")
    for link in CARRIER.links:
        (xa, ya), (xb, yb) = at(*link.a), at(*link.b)
        svg.line(xa, ya, xb, yb, stroke=NET_COLOURS.get(link.net, LINK), width=0.55 * k,
                 class_="link", data_net=link.net, stroke_linecap="round")
        for x, y in ((xa, ya), (xb, yb)):
            svg.circle(x, y, 0.7 * k, stroke="none", fill=NET_COLOURS.get(link.net, LINK))
    svg.close("g")


def _draw_parts(svg: _Svg, at, k: float, labels: dict[str, tuple[str, bool]]) -> None:
    svg.open("g", id="parts")
    for part in CARRIER.parts:
        holes = [at(c, s) for _, c, s in part.pins]
        xs, ys = [x for x, _ in holes], [y for _, y in holes]
        svg.open("g", id=f"part-{part.ref}", class_="part", data_kind=part.kind)
        if part.kind == "pico":
            x0, x1 = min(xs) - 1.6 * k, max(xs) + 1.6 * k
            y0, y1 = min(ys) - 1.9 * k, max(ys) + 1.9 * k
            svg.rect(x0, y0, x1 - x0, y1 - y0, stroke="#1a6b2a", width=0.6, fill="#dcefdc", fill_opacity="0.88",
                     rx=2.0)
            svg.rect((x0 + x1) / 2 - 4 * k, y0 - 1.2 * k, 8 * k, 5 * k, stroke="#555", width=0.4, fill="#ccc")
            svg.text((x0 + x1) / 2, y0 + 2.6 * k, "USB", 2.8, weight="bold")
            svg.text((x0 + x1) / 2, (y0 + y1) / 2 + 2, "U1", 5, weight="bold", fill="#1a6b2a")
            for pin, c, s in part.pins:
                x, y = at(c, s)
                svg.rect(x - 0.8 * k, y - 0.8 * k, 1.6 * k, 1.6 * k, stroke="#333", width=0.3, fill="#222")
                name = PICO_NAMES[int(pin)]
                left = c == PICO_LEFT
                svg.text(x + (1.4 * k if left else -1.4 * k), y + 0.9, f"{pin} {name}" if left else f"{name} {pin}",
                         2.2, anchor="start" if left else "end", fill="#0b3d15", class_="pin", **HALO)
        elif part.kind == "dip":
            x0, x1 = min(xs) + 0.7 * k, max(xs) - 0.7 * k
            y0, y1 = min(ys) - 1.4 * k, max(ys) + 1.4 * k
            svg.rect(x0, y0, x1 - x0, y1 - y0, stroke="#000", width=0.5, fill="#333", fill_opacity="0.85")
            svg.path(f"M {_n((x0 + x1) / 2 - 1.2 * k)} {_n(y1)} A {_n(1.2 * k)} {_n(1.2 * k)} 0 0 1"
                     f" {_n((x0 + x1) / 2 + 1.2 * k)} {_n(y1)}", stroke="#fff", width=0.4)
            svg.text((x0 + x1) / 2, y0 - 1.5, f"{part.ref} {part.value}", 2.8, weight="bold")
            for pin, c, s in part.pins:
                x, y = at(c, s)
                svg.circle(x, y, 0.8 * k, stroke="#000", width=0.3, fill="#ddd")
                right = c == max(cc for _, cc, _ in part.pins)
                svg.text(x + (-1.3 * k if right else 1.3 * k), y + 0.9, pin, 2.3,
                         anchor="end" if right else "start", fill="#fff", class_="pin")
            svg.circle(max(xs), max(ys), 1.2 * k, stroke="#ff0", width=0.5)  # pin 1
        elif part.kind == "resistor":
            (xa, ya), (xb, yb) = holes
            svg.line(xa, ya, xb, yb, stroke="#777", width=0.5)
            mx, my = (xa + xb) / 2, (ya + yb) / 2
            length = max(abs(xb - xa), abs(yb - ya)) - 2.2 * k
            along_x = abs(xb - xa) > abs(yb - ya)
            bw, bh = (length, 2.2 * k) if along_x else (2.2 * k, length)
            svg.rect(mx - bw / 2, my - bh / 2, bw, bh, stroke="#6b4b1a", width=0.4, fill="#e8cf9a", rx=1.5)
            for x, y in holes:
                svg.circle(x, y, 0.6 * k, stroke="none", fill="#777")
            tx, ty = (mx, my - 2.9 * k) if along_x else (mx + 1.6 * k, my)
            svg.text(tx, ty, f"{part.ref} {part.value}", 2.8, anchor="middle" if along_x else "start",
                     weight="bold", fill="#5a3a00", **HALO)
        elif part.kind == "transistor":
            x, y0 = xs[0], min(ys) - 1.0 * k
            y1 = max(ys) + 1.0 * k
            # the D-shaped body, seen from above, its flat face to the left (a BC547 as drawn)
            svg.path(f"M {_n(x - 1.2 * k)} {_n(y0)} L {_n(x - 1.2 * k)} {_n(y1)} A {_n((y1 - y0) / 2)}"
                     f" {_n((y1 - y0) / 2)} 0 0 0 {_n(x - 1.2 * k)} {_n(y0)} Z", stroke="#000", width=0.5,
                     fill="#444")
            for pin, c, s in part.pins:
                hx, hy = at(c, s)
                svg.circle(hx, hy, 0.6 * k, stroke="none", fill="#ccc")
                svg.text(hx - 1.8 * k, hy + 0.9, pin, 2.6, anchor="end", weight="bold", class_="pin", **HALO)
            svg.text(x + 4.2 * k, (y0 + y1) / 2 - 1, f"{part.ref}", 3.0, anchor="start", weight="bold", **HALO)
            svg.text(x + 4.2 * k, (y0 + y1) / 2 + 3, "BC547: flat face left", 2.4, anchor="start", **HALO)
            svg.text(x + 4.2 * k, (y0 + y1) / 2 + 6.5, "2N3904: flat face right", 2.4, anchor="start", **HALO)
        elif part.kind == "diode":
            (xk, yk), (xa, ya) = holes
            svg.line(xk, yk, xa, ya, stroke="#777", width=0.5)
            svg.rect(xk - 1.0 * k, yk - 0.3 * k, 2.0 * k, (ya - yk) + 0.6 * k, stroke="#000", width=0.3,
                     fill="#f3b8b8", rx=0.8)
            svg.rect(xk - 1.0 * k, yk - 0.3 * k, 2.0 * k, 0.7 * k, stroke="none", fill="#000")
            svg.text(xk, yk - 1.2 * k, f"{part.ref}", 2.6, weight="bold", **HALO)
        elif part.kind == "electrolytic":
            (xp, yp), (xm, ym) = holes
            cx, cy, r = (xp + xm) / 2, (yp + ym) / 2, 5.0 * k / 2 * 2
            svg.circle(cx, cy, r, stroke="#1a3b6b", width=0.5, fill="#3a6db0", fill_opacity="0.35")
            svg.path(f"M {_n(cx - r)} {_n(cy + r * 0.45)} L {_n(cx + r)} {_n(cy + r * 0.45)}", stroke="#1a3b6b",
                     width=0.4)
            svg.text(cx, cy + r * 0.8, "− stripe", 2.4, fill="#fff", weight="bold")
            svg.text(xp + 1.6 * k, yp + 0.9, "+", 3.2, anchor="start", weight="bold")
            svg.text(cx, cy + 1.0, part.ref, 2.8, weight="bold", fill="#0d2a55")
            svg.text(cx, cy + 4.4, part.value.split()[0] + " µF", 2.4, fill="#0d2a55")
            for x, y in holes:
                svg.circle(x, y, 0.6 * k, stroke="none", fill="#ccc")
        elif part.kind == "ceramic":
            (xa, ya), (xb, yb) = holes
            svg.rect(xa - 1.0 * k, ya - 0.3 * k, 2.0 * k, (yb - ya) + 0.6 * k, stroke="#7a5a00", width=0.3,
                     fill="#f0d070", rx=1.0)
            svg.text(xa - 1.5 * k, (ya + yb) / 2 + 1, f"{part.ref} {part.value}", 2.5, anchor="end", weight="bold")
        elif part.kind == "terminal":
            x0, x1 = min(xs) - 1.6 * k, max(xs) + 1.6 * k
            y0, y1 = min(ys) - 1.5 * k, max(ys) + 1.5 * k
            svg.rect(x0, y0, x1 - x0, y1 - y0, stroke="#0a5a2a", width=0.5, fill="#3fb06a", fill_opacity="0.35",
                     rx=0.6)
            right = part.ref == "J5"  # C1 stands on its left
            for pin, c, s in part.pins:
                x, y = at(c, s)
                svg.circle(x, y, 0.8 * k, stroke="#000", width=0.3, fill="#ccc")
                svg.text(x + (2.0 * k if right else -2.0 * k), y + 1.0, pin, 2.5, anchor="start" if right else "end",
                         weight="bold", fill=NET_COLOURS.get(pin, DARK), class_="pin", **HALO)
            svg.text((x0 + x1) / 2, y1 + 3.2, f"{part.ref} {part.value}", 2.8, weight="bold", fill="#0a5a2a", **HALO)
        elif part.kind == "pads":
            for i, (pin, c, s) in enumerate(part.pins):
                x, y = at(c, s)
                label, used = labels.get(f"{part.ref}.{pin}", (pin, True))
                if part.ref != "J1" and i == 0:
                    label = f"{part.ref}: {label}"
                svg.rect(x - 0.9 * k, y - 0.9 * k, 1.8 * k, 1.8 * k, stroke="#000", width=0.3,
                         fill="#d9a300" if used else "#ddd", class_="pad", data_pad=f"{part.ref}.{pin}",
                         data_used="yes" if used else "no")
                left = part.ref == "J1"
                svg.text(x - 1.5 * k if left else x + 1.5 * k, y + 0.9, label, 2.5,
                         anchor="end" if left else "start", fill=DARK if used else "#aaa",
                         weight="bold" if used else None, class_="pad-label", **HALO)
            if part.ref == "J1":
                svg.text(min(xs) - 1.5 * k, min(ys) - 1.6 * k, part.ref, 2.8, anchor="end", weight="bold", **HALO)
        svg.close("g")
    svg.close("g")


# ----------------------------------------------------------------------------------------------
# The underside: the board turned over

DIODE_LEAD = 3.0  # the switch's lead beyond its glass
ROW_DROP = 7.0  # from the switch's far lead, the diode runs this far toward -y to the row wire
COLUMN_RISE = 7.0  # from its near lead, the column tap runs this far toward +y
ROW_COLOURS = ("#b03000", "#d05a00", "#a0006a", "#c0392b", "#8e3b00", "#d4007a", "#7a1f1f", "#e0601a")
COLUMN_COLOURS = ("#0050d0", "#007a9a", "#3a3ab0", "#006040", "#2a7ad0", "#5a2ab0", "#00869a", "#1a4a8a",
                  "#3a8a2a", "#6a6ad0")


def _row_tap(x: float, y: float) -> tuple[float, float]:
    """Where a switch's row wire is soldered (board coordinates): the diode's cathode, below the
    far end of the glass."""
    return x + REED_OFFSET + REED_LENGTH / 2 + DIODE_LEAD, y - ROW_DROP


def _column_tap(x: float, y: float) -> tuple[float, float]:
    """Where a switch's column wire is soldered: above its lead at the hollow end of the glass."""
    return x + REED_OFFSET - REED_LENGTH / 2 - DIODE_LEAD, y + COLUMN_RISE


def pad_places(board: Board) -> dict[str, tuple[float, float]]:
    """Where each matrix pad of the carrier ("row 0", "column 9") lies under the board, in board
    coordinates, with the carrier where Places puts it (its parts toward the case's floor, so
    that it is seen as in carrier_svg's view from above when the board is turned over)."""
    where = places(board)
    if where is None or where.carrier is None:
        return {}
    cx, cy = where.carrier
    w, h = CARRIER_W, CARRIER_H
    found = {}
    for part in (_J1, _J2):
        for pin, column, strip in part.pins:
            lx, ly = (column + 0.5) * P, (strip + 0.5) * P  # from the carrier's top left, y down
            # in the view from below: turned a quarter clockwise (USB end right), or not
            ox, oy = (h - ly, lx) if where.carrier_turned else (lx, ly)
            bw, bh = (h, w) if where.carrier_turned else (w, h)
            view_x, view_y = -cx - bw / 2 + ox, -cy - bh / 2 + oy  # view: (-x, -y)
            found[pin] = (-view_x, -view_y)
    return found


def _mirror_path(d: str) -> str:
    """An outline path of drawings._outline (M, L, A, Z in the template's coordinates x, -y)
    seen from below: x becomes -x, and each arc turns the other way."""
    out = []
    tokens = d.split()
    i = 0
    while i < len(tokens):
        op = tokens[i]
        if op in ("M", "L"):
            out += [op, _n(-float(tokens[i + 1])), tokens[i + 2]]
            i += 3
        elif op == "A":
            rx, ry, rot, large, sweep, x, y = tokens[i + 1:i + 8]
            out += ["A", rx, ry, rot, large, "1" if sweep == "0" else "0", _n(-float(x)), y]
            i += 8
        else:
            out.append(op)
            i += 1
    return " ".join(out)


def _chain(start: tuple[float, float], taps: list[tuple[str, tuple[float, float]]]) -> list[tuple[str, tuple[float, float]]]:
    """The taps of one wire in the order it visits them: from `start`, always to the nearest
    tap not yet visited (ties by name)."""
    left = sorted(taps)
    order = []
    here = start
    while left:
        nearest = min(left, key=lambda item: (round(math.dist(here, item[1]), 6), item[0]))
        left.remove(nearest)
        order.append(nearest)
        here = nearest[1]
    return order


def matrix_routes(board: Board) -> dict[str, list[tuple[str, tuple[float, float]]]]:
    """Every row and column wire ("row 0", "column 9"): its start at the carrier's pad (or,
    without a carrier, at the outline's bottom left, named "") and the switches it visits in
    order, each as (cell, where its wire is soldered), in board coordinates."""
    positions = _positions(board, "underside drawing")
    outline = _outline(board, positions)
    pads = pad_places(board)
    taps: dict[str, list] = {}
    for cell in board.cells:
        row, column = _row_col(board, cell)
        x, y = positions[cell]
        taps.setdefault(f"row {row}", []).append((cell, _row_tap(x, y)))
        taps.setdefault(f"column {column}", []).append((cell, _column_tap(x, y)))
    fallback = (outline.x0 + 10, outline.y0 - 10)  # no carrier: the wires leave at the bottom left
    routes = {}
    for kind, count in (("row", board.rows), ("column", board.columns)):
        for i in range(count):
            name = f"{kind} {i}"
            if name in taps:
                start = pads.get(name, fallback)
                routes[name] = [("", start)] + _chain(start, taps[name])
    return routes


def wire_lengths(board: Board) -> tuple[float, float]:
    """The length of all row wires and of all column wires along matrix_routes, in metres."""
    total = {"row": 0.0, "column": 0.0}
    for name, route in matrix_routes(board).items():
        points = [p for _, p in route]
        total[name.split()[0]] += sum(math.dist(a, b) for a, b in zip(points, points[1:])) / 1000
    return total["row"], total["column"]


def underside_svg(board: Board) -> str:
    """The board seen from below, turned over: switches, diodes, LEDs, the routes of every row
    and column wire to the carrier, the parts of Places."""
    style = _style(board)
    positions = _positions(board, "underside drawing")
    outline = _outline(board, positions)
    where = places(board)
    svg = _Svg()
    pad = 12.0
    head = 20.0
    strip = 40.0
    left, right = -outline.x1 - pad, -outline.x0 + pad
    width = max(right - left, 330.0)
    left = (left + right) / 2 - width / 2
    top = -outline.y1 - pad - head
    height = outline.y1 - outline.y0 + 2 * pad + head + strip

    svg.raw("<!-- seen from below: board point (x, y) is drawn at (-x, -y). -->")
    side_label(svg, left + pad, top + 9, BELOW,
               "turned over like a page: left and right swap, the top stays the top. Seen from above:"
               f" {board.name}-template.svg", size=6.0)
    svg.open("g", id="outline")
    svg.path(_mirror_path(outline.path), stroke="#000", width=0.5)
    svg.close("g")

    def v(point):
        return -point[0], -point[1]

    svg.open("g", id="hollows")
    for cell in _cell_order(board):
        x, y = positions[cell]
        r = _diameter(board, cell) / 2
        svg.circle(-x, -y, r, stroke="#bbb", width=0.3, stroke_dasharray="1.2 1")
        svg.text(-x, -y - r + 4.6, cell, 3.6, fill="#999", weight="bold", class_="cell")
    svg.close("g")

    # the wires first, under the parts
    svg.open("g", id="wires")
    for name, route in matrix_routes(board).items():
        kind, i = name.split()
        colours = ROW_COLOURS if kind == "row" else COLUMN_COLOURS
        colour = colours[int(i) % len(colours)]
        d = "M " + " L ".join(f"{_n(px)} {_n(py)}" for px, py in (v(p) for _, p in route))
        svg.path(d, stroke=colour, width=0.7, id=f"{kind}-wire-{i}", class_=f"{kind}-wire",
                 data_cells=" ".join(c for c, _ in route[1:]), stroke_linejoin="round",
                 stroke_dasharray=None if kind == "row" else "3 0.8")
        sx, sy = v(route[0][1])
        svg.circle(sx, sy, 1.0, stroke="none", fill=colour)
        svg.text(sx, sy - 1.6, f"{kind[0]}{i}", 2.2, fill=colour, weight="bold", class_="wire-end")
    svg.close("g")

    svg.open("g", id="switches")
    for cell in _cell_order(board):
        x, y = positions[cell]
        row, column = _row_col(board, cell)
        cx = -(x + REED_OFFSET)  # the glass's centre, seen from below
        g0, g1 = cx - REED_LENGTH / 2, cx + REED_LENGTH / 2
        far = -(x + REED_OFFSET + REED_LENGTH / 2 + DIODE_LEAD)  # the far lead's end
        near = -(x + REED_OFFSET - REED_LENGTH / 2 - DIODE_LEAD)
        svg.open("g", id=f"switch-{cell}", class_="switch", data_cell=cell, data_row=str(row),
                 data_column=str(column))
        svg.line(far, -y, near, -y, stroke=BLUE, width=0.3)
        svg.rect(g0, -y - REED_DIAMETER / 2, REED_LENGTH, REED_DIAMETER, stroke=BLUE, width=0.3, fill="#dbe7ff",
                 rx=0.8)
        # the diode: from the far lead down to the row tap, band (cathode) at the row
        rx_, ry_ = v(_row_tap(x, y))
        svg.line(far, -y, rx_, ry_, stroke=DARK, width=0.3)
        mid = -y + ROW_DROP / 2
        svg.path(f"M {_n(far - 1.4)} {_n(mid - 1.2)} L {_n(far + 1.4)} {_n(mid - 1.2)} L {_n(far)} {_n(mid + 1.2)} Z",
                 stroke=DARK, width=0.25, fill=DARK, class_="diode")
        svg.line(far - 1.4, mid + 1.2, far + 1.4, mid + 1.2, stroke=DARK, width=0.5, class_="cathode")
        svg.circle(rx_, ry_, 0.9, stroke="none", fill=ROW_COLOURS[row % len(ROW_COLOURS)], class_="row-tap")
        tx, ty = v(_column_tap(x, y))
        svg.line(near, -y, tx, ty, stroke=DARK, width=0.3)
        svg.circle(tx, ty, 0.9, stroke="none", fill=COLUMN_COLOURS[column % len(COLUMN_COLOURS)],
                   class_="column-tap")
        svg.text(cx, -y + 4.6, f"r{row}c{column}", 2.5, fill=BLUE)
        lx = -(x + LED_OFFSET)
        svg.rect(lx - LED_SIZE / 2, -y - LED_SIZE / 2, LED_SIZE, LED_SIZE, stroke=GREEN, width=0.3, fill="#e3f5e9")
        svg.text(lx, -y + LED_SIZE / 2 + 3.0, f"L{board.led[cell]}", 2.5, fill=GREEN)
        svg.close("g")
    svg.close("g")

    if where is not None:
        _underside_places(svg, board, where, v)

    # notes
    base = -outline.y0 + pad
    rows_m, columns_m = wire_lengths(board)
    notes = [
        "Rows (solid) and columns (dashed) are 22 AWG solid, insulated wire: a row crossing a column must not touch it."
        f" Bare the wire only where it is soldered. As drawn: {rows_m:.1f} m of rows, {columns_m:.1f} m of columns.",
        "At each switch: the far lead (away from the hollow's centre) goes to a 1N4148's anode, the diode's band"
        " (cathode) to the row wire; the near lead to the column wire.",
        "Each wire runs from the carrier's pad (J1, J2) to the nearest switch of its row or column, then on to the"
        " next nearest: a suggestion; any path that joins them works.",
        "rNcM: the switch's row and column. Ln: the LED, 8 mm beyond the hollow's centre on the side away from the"
        " switch (seen from below: to its right). The LED chain: "
        f"{board.name}-leds.svg.",
    ]
    svg.open("g", id="notes")
    for i, line in enumerate(notes):
        svg.text(left + pad, base + 6 + i * 5, line, 3.0, anchor="start")
    svg.close("g")
    return svg.document(left, top, width, height, f"{style.title} underside: switches and matrix wires, seen from below")


def _underside_places(svg: _Svg, board: Board, where: Places, v) -> None:
    svg.open("g", id="places")
    if where.carrier:
        cx, cy = where.carrier
        bw, bh = (CARRIER_H, CARRIER_W) if where.carrier_turned else (CARRIER_W, CARRIER_H)
        x0, y0 = -cx - bw / 2, -cy - bh / 2
        svg.open("g", id="place-carrier")
        svg.rect(x0, y0, bw, bh, stroke=DARK, width=0.5, fill="#f7ecd8", fill_opacity="0.4")
        svg.text(-cx, -cy - 2, "Pico carrier", 4.2, weight="bold", fill=DARK)
        svg.text(-cx, -cy + 3, f"parts toward you: {board.name}-carrier.svg", 2.8, fill=DARK)
        svg.text(-cx, -cy + 7, where.carrier_note, 2.6, fill=GREY)
        if where.carrier_turned:
            svg.text(x0 + bw - 2, -cy + 1, "USB", 3.2, anchor="end", weight="bold", fill=DARK)
        else:
            svg.text(-cx, y0 + 5, "USB", 3.2, weight="bold", fill=DARK)
        svg.close("g")
        pads = pad_places(board)
        svg.open("g", id="pads")
        for name, point in pads.items():
            what, i = name.split()
            if int(i) >= (board.rows if what == "row" else board.columns):
                continue
            px, py = v(point)
            svg.rect(px - 1.1, py - 1.1, 2.2, 2.2, stroke="#000", width=0.25, fill="#d9a300", data_pad=name)
        svg.close("g")
    parts = []
    if where.die:
        for i, point in enumerate(pip_places(where.die)):
            parts.append((f"L{board.die_pips[i]}", point, "led"))
    if where.turn:
        parts.append((f"L{board.turn_led} turn light", where.turn, "led"))
    if where.die_button:
        parts.append(("die button", where.die_button, "button"))
    if where.ok_button:
        parts.append(("ok button", where.ok_button, "button"))
    if where.buzzer:
        parts.append(("buzzer", where.buzzer, "buzzer"))
    for label, point, kind in parts:
        px, py = v(point)
        if kind == "led":
            svg.rect(px - LED_SIZE / 2, py - LED_SIZE / 2, LED_SIZE, LED_SIZE, stroke=GREEN, width=0.35,
                     fill="#e3f5e9", class_="place-led")
            svg.text(px, py + LED_SIZE / 2 + 3.0, label, 2.5, fill=GREEN)
        elif kind == "button":
            svg.rect(px - 6, py - 6, 12, 12, stroke=DARK, width=0.4, fill="#eee", class_="place-button")
            svg.circle(px, py, 3.5, stroke=DARK, width=0.3)
            svg.text(px, py + 10, label + ": to J3 and GND", 2.8, fill=DARK)
        else:
            svg.circle(px, py, 6, stroke=DARK, width=0.4, fill="#eee", class_="place-buzzer")
            svg.text(px, py + 10, "buzzer: + and − to J4", 2.8, fill=DARK)
    svg.close("g")

