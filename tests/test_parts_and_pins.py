"""What a maker builds from: hardware/README.md's parts and pins agree with the board files, the
firmware's pins, the drawings and the games, and the electronics they describe cannot break.

- No MCP23017 line that is read (a column, or a row released on a board without diodes) is on
  GPA7 or GPB7, which the datasheet (DS20001952D, 2022) makes output-only: for every shipped
  board on expanders, and the largest matrix two chips take.
- The pins the README, the board files and firmware/pins.py give are the same, and no pin is
  given two jobs: the ws281x data pins the board files and the README suggest are free.
- One figure for each board's LED supply wherever a supply is named (power() is the source).
- Every game's pieces are in the bill of materials: Abalone, on the Off Board board, needs
  14 + 14 balls.
- The buzzer's series resistor keeps the transistor in its rating; the 74AHCT125's table is the
  carrier's wiring.
"""

from __future__ import annotations

import dataclasses
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from reedboard.controller.games import GAMES
from reedboard.hal.board import load_board, shipped_boards
from reedboard.hal.matrix import GPPUB, MatrixScanner, Mcp23017Matrix, PINS_PER_PORT, expander_pin
from reedboard.hal.mock.matrix import Circuit, FakeMcpBus
from reedboard.hardware import drawings
from reedboard.hardware.shapes import STYLES
from reedboard.hardware.underside import CARRIER, carrier_nets, wire_lengths

pytestmark = pytest.mark.component

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "hardware" / "README.md").read_text(encoding="utf-8")
FIRMWARE_README = (ROOT / "firmware" / "README.md").read_text(encoding="utf-8")
BOARDS = {name: load_board(game=name) for name in shipped_boards()}
NAMES = {"bigballs": "Big Balls", "offboard": "Off Board"}


def section(text: str, heading: str) -> str:
    """A heading's text, up to the next heading of its level or above."""
    level = heading.split()[0]
    start = text.index(heading + "\n")
    rest = text[start + len(heading):]
    ends = [m.start() for m in re.finditer(r"^#{1,%d} " % len(level), rest, re.M)]
    return rest[:ends[0]] if ends else rest


def table(text: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip().strip("|").split("|")] for line in text.splitlines()
            if line.startswith("|") and not line.startswith("|---")]


def on_expanders(board):
    gpio = board.settings_of("gpio")
    return board.with_settings("gpio", dataclasses.replace(gpio, rows=(), columns=(), expander=(1, (0x20, 0x21))))


# --- GPA7 and GPB7 -------------------------------------------------------------------------------

MATRICES = [(name, b.rows, b.columns, b.diodes) for name, b in BOARDS.items()] + [
    ("two chips full, diodes", 14, 14, True), ("two chips full, no diodes", 14, 14, False),
    ("offboard without diodes", 8, 10, False)]


@pytest.mark.parametrize("name, rows, columns, diodes", MATRICES, ids=[m[0] for m in MATRICES])
def test_no_line_that_is_read_is_on_gpa7_or_gpb7(name, rows, columns, diodes):
    """Scanning with a magnet on every switch: every read line (the columns, and the rows that a
    board without diodes releases to inputs) is on GPx0-GPx6; GPA7 and GPB7 are never made
    inputs, nor pulled up, and every switch still reads."""
    circuit = Circuit(rows, columns, diodes)
    bus = FakeMcpBus([0x20, 0x21], circuit)
    scanner = MatrixScanner(Mcp23017Matrix(bus, [0x20, 0x21], rows, columns, open_drain=not diodes), debounce=1)
    for index in range(0, rows * columns, 5 if diodes else rows * columns):  # (no ghosts without diodes)
        circuit.place(index)
    closed = set(scanner.read_raw())
    assert closed == set(range(0, rows * columns, 5 if diodes else rows * columns))
    scanner.close()
    assert bus.bit7_inputs == 0
    for address in (0x20, 0x21):
        assert bus.registers[address][GPPUB] & 0x80 == 0
    assert all(expander_pin(i)[1] < 7 for i in range(max(rows, columns)))


def test_two_expanders_take_fourteen_rows_and_columns():
    assert PINS_PER_PORT == 7
    with pytest.raises(ValueError, match="up to 14 rows and 14 columns"):
        Mcp23017Matrix(FakeMcpBus([0x20, 0x21], Circuit(15, 3)), [0x20, 0x21], 15, 3)


def test_no_document_or_drawing_puts_a_row_or_column_on_gpa7_or_gpb7():
    wiring = section(README, "### 1. The switch matrix")
    mcp = [row[3] for row in table(wiring) if row[0].startswith(("row", "column"))]
    assert mcp and not any("GPA7" in cell or "GPB7" in cell for cell in mcp)
    assert "0x21 GPA0" in " ".join(mcp) and "0x21 GPB0-GPB2" in " ".join(mcp)
    for name, board in BOARDS.items():
        root = ET.fromstring(drawings.matrix_svg(on_expanders(board)))
        labels = [e.text for e in root.iter("{http://www.w3.org/2000/svg}text")]
        assert not [t for t in labels if re.fullmatch(r"0x2\d GP[AB]7", t or "")], name


# --- pins ----------------------------------------------------------------------------------------

def bcm(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text.split("(")[0])]


def test_the_pins_of_the_readme_are_the_board_files_and_the_firmwares():
    firmware = drawings.pico_pins()
    gpio = BOARDS["bigballs"].settings_of("gpio")
    rows = {row[0]: row for row in table(section(README, "### 1. The switch matrix")) if row[0] != "matrix wire"}
    assert bcm(rows["row 0-3"][2]) == list(gpio.rows)
    assert bcm(rows["column 0-6"][2]) == list(gpio.columns)
    for key in ("row 0-3", "column 0-6"):
        physical = [int(n) for n in re.findall(r"\d+", rows[key][2].split("(pins")[1])]
        assert physical == [drawings.PI_HEADER[p] for p in bcm(rows[key][2])]
    pico = " ".join(rows[k][1] for k in rows)
    for gp in firmware["ROW_PINS"] + firmware["COLUMN_PINS"]:
        assert str(drawings.PICO_PACKAGE[gp]) in pico
    buttons = {row[0].split()[0]: row for row in table(section(README, "### 3. The buttons"))}
    assert buttons["die"][1] == f"GP{firmware['DIE_BUTTON_PIN']} (pin {drawings.PICO_PACKAGE[firmware['DIE_BUTTON_PIN']]})"
    assert buttons["die"][2] == f"BCM {gpio.die_button} (pin {drawings.PI_HEADER[gpio.die_button]})"
    assert buttons["ok"][2] == f"BCM {gpio.ok_button} (pin {drawings.PI_HEADER[gpio.ok_button]})"
    buzzer = section(README, "### 4. The buzzer")
    assert f"GP{firmware['BUZZER_PIN']} (pin {drawings.PICO_PACKAGE[firmware['BUZZER_PIN']]})" in buzzer
    assert f"BCM {gpio.buzzer} (pin {drawings.PI_HEADER[gpio.buzzer]})" in buzzer


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_no_documented_pin_has_two_jobs(name):
    board = BOARDS[name]
    uses = drawings.pi_pin_uses(board)
    assert {pin: what for pin, what in uses.items() if len(what) > 1} == {}
    firmware = drawings.pico_pins()
    pico = list(firmware["ROW_PINS"]) + list(firmware["COLUMN_PINS"]) + [
        firmware[k] for k in ("DIE_BUTTON_PIN", "OK_BUTTON_PIN", "BUZZER_PIN", "LED_PIN")]
    assert len(pico) == len(set(pico))
    # the ws281x data pins the board file suggests are the free ones, and free
    text = (ROOT / "hardware" / "boards" / f"{name}.toml").read_text(encoding="utf-8")
    comment = re.search(r"^leds = \d+ *#(.*)$", text, re.M).group(1)
    suggested = [int(n) for n in re.findall(r"\d+", comment.split(";")[1].split("with ws281x")[0])]
    assert suggested and set(suggested) == set(drawings.ws281x_choices(board))
    assert not set(suggested) & {p for p, what in uses.items() if what != ["LED data"] and what != ["SPI0"]}


def test_the_readmes_ws281x_pins_are_free_on_every_board():
    chain = section(README, "### 2. The LED chain")
    named = [int(n) for n in re.findall(r"BCM (\d+), pin \d+", chain.split("ws281x")[0].split("SPI0 MOSI;")[1])]
    assert named == [18, 21]
    for board in BOARDS.values():
        assert set(named) <= set(drawings.ws281x_choices(board))
        assert f"BCM {board.settings_of('gpio').leds} (pin {drawings.PI_HEADER[board.settings_of('gpio').leds]}" in chain


# --- the LED supply ------------------------------------------------------------------------------

def supply_statements(text: str) -> list[tuple[str, float]]:
    """Every LED supply a document names in bold (**3 A**, **5 V, 3.5 A**), with the board it is
    for: said after it ("for Off Board"), the column of its table, or the heading it is under."""
    found = []
    heading = ""
    lines = []
    for paragraph in re.split(r"\n\s*\n", text):  # a paragraph's wrapped lines joined; table rows and headings kept
        rows = paragraph.splitlines()
        if rows and rows[0].startswith(("|", "#")):
            lines += rows
        else:
            lines.append(" ".join(r.strip() for r in rows))
    for line in lines:
        if line.startswith("#"):
            heading = line
        amps = [float(a) for a in re.findall(r"\*\*(?:5 V, )?(\d+(?:\.\d+)?) A\*\*", line)]
        if not amps:
            continue
        if line.startswith("|") and len(amps) == 2:
            found += list(zip(("Big Balls", "Off Board"), amps))
            continue
        for match in re.finditer(r"\*\*(?:5 V, )?(\d+(?:\.\d+)?) A\*\*( for (Big Balls|Off Board))?", line):
            board = match.group(3) or next((n for n in NAMES.values() if n in heading), None)
            assert board, f"a supply of {match.group(1)} A for no board: {line[:80]}"
            found.append((board, float(match.group(1))))
    return found


def test_each_board_has_one_led_supply_figure_everywhere():
    supply = {NAMES[name]: drawings.power(board).supply_a for name, board in BOARDS.items()}
    assert supply == {"Big Balls": 3.0, "Off Board": 3.5}
    for text in (README, FIRMWARE_README):
        said = supply_statements(text)
        assert {board for board, _ in said} == set(supply)
        assert [(b, a) for b, a in said if a != supply[b]] == []
    for name, board in BOARDS.items():
        assert f"5 V SUPPLY: {drawings._n(supply[NAMES[name]])} A or more" in drawings.leds_svg(board)


# --- the pieces ----------------------------------------------------------------------------------

def per_side(game: str) -> int:
    pieces = GAMES[game]().pieces()
    return sum(1 for p in pieces.values() if p[:1] in ("B", "W", "R", "Y"))  # both sides' own pieces


def test_the_bill_of_materials_has_every_games_pieces():
    big = {row[0]: row for row in table(section(README, "### Big Balls (28 hollows, 36 LEDs)"))}
    stones = sum(1 for p in GAMES["bigballs"]().pieces().values() if p[:1] in ("B", "W"))
    balls = sum(1 for p in GAMES["bigballs"]().pieces().values() if p[:1] == "b")
    assert (stones, balls) == (12, 6)
    assert int(big["neodymium magnet, Ø8 × 3 mm disc, N42, axially magnetised"][1]) == stones + balls
    assert int(big["wooden discs Ø30 mm, 10-12 mm thick"][1]) == stones
    assert int(big["wooden balls Ø30 mm, undrilled (beech)"][1]) == balls
    off = section(README, "### Off Board and Abalone (61 holes + 12 rim cups, 74 LEDs)")
    rows = {row[0]: row for row in table(off)}
    most = max(per_side("offboard"), per_side("abalone"))
    assert (per_side("offboard"), per_side("abalone")) == (24, 28)
    assert int(rows["neodymium magnet, Ø6 × 3 mm disc, N42, axially magnetised"][1]) == most
    assert rows["wooden balls Ø25 mm, undrilled, in two colours"][1] == f"{most // 2} + {most // 2}"
    assert "Off Board 12 + 12, Abalone 14 + 14" in " ".join(off.split())
    for name, board in BOARDS.items():  # a switch and a diode for every hollow, an LED for every index
        block = section(README, [h for h in re.findall(r"^### .*$", README, re.M) if NAMES[name] in h][0])
        parts = {row[0].split(",")[0]: row[1] for row in table(block)}
        assert int(parts["reed switch"].split()[0]) == len(board.cells)
        assert int(parts["WS2812B LED (5050)"]) == board.led_count


def test_the_readme_gives_the_drawings_sizes_and_lengths():
    for name, board in BOARDS.items():
        root = ET.fromstring(drawings.template_svg(board))
        w, h = round(float(root.get("width")[:-2])), round(float(root.get("height")[:-2]))
        assert f"{w} × {h} mm ({NAMES[name]})" in README
    (big_rows, big_columns), (off_rows, off_columns) = wire_lengths(BOARDS["bigballs"]), wire_lengths(BOARDS["offboard"])
    assert f"take {big_rows + big_columns:.1f} m and {off_rows + off_columns:.1f} m" in README
    style = STYLES["bigballs"]
    assert f"Ø{drawings._n(style.hollow)} mm (+0.5/-0), {drawings._n(drawings.HOLLOW_DEPTH)} mm deep" in README
    assert f"**{drawings._n(drawings.FLOOR)} mm floor**" in README
    assert f"**{drawings._n(drawings.MAGNET_ABOVE_GLASS)} mm**" in README
    assert f"must still close at **{drawings._n(drawings.CLOSE_AT)} mm**" in README
    # the Forstner bit the template draws leaves wood between neighbours
    pitch = min(math.dist(board_a, board_b) for board_a, board_b in [
        (BOARDS["bigballs"].position["a1"], BOARDS["bigballs"].position["b1"]),
        (BOARDS["bigballs"].position["a1"], BOARDS["bigballs"].position["a2"])])
    assert round(pitch) == 40 and pitch - style.hollow >= 4.9


# --- the buzzer, the level shifter -----------------------------------------------------------------

def test_the_buzzers_resistor_keeps_the_transistor_in_its_rating():
    buzzer = " ".join(section(README, "### 4. The buzzer").split())
    ohms = int(re.search(r"through \*\*(\d+) Ω, ½ W\*\*", buzzer).group(1))
    worst = 5.0 / (8 + ohms)  # an 8 ohm speaker, the pin stuck high
    assert worst < 0.070 and worst * worst * ohms < 0.5
    assert f"5 V / (8 + {ohms}) Ω = {worst * 1000:.0f} mA" in buzzer
    assert "BC547: C, B, E" in buzzer and "2N3904: E, B, C" in buzzer
    values = {part.ref: part.value for part in CARRIER.parts}
    assert values["R3"] == f"{ohms} Ω ½ W" and values["R2"] == "1 kΩ" and values["R1"] == "330 Ω"


def test_the_74ahct125_table_is_the_carriers_wiring():
    rows = table(section(README, "#### The 74AHCT125"))[1:]
    assert [int(r[0]) for r in rows] == list(range(1, 15))
    net_of = {pin: net for net in carrier_nets() for pin in net}
    gnd, vcc = net_of["J5.GND"], net_of["J5.+5V"]
    for pin, name, goes in rows:
        net = net_of[f"U2.{pin}"]
        if goes.startswith("GND"):
            assert net == gnd, (pin, name)
        elif goes.startswith("5 V"):
            assert net == vcc, (pin, name)
        elif goes == "nothing":
            assert net == {f"U2.{pin}"}, (pin, name)
        elif "GP22" in goes:
            assert net == {f"U2.{pin}", f"U1.{drawings.PICO_PACKAGE[22]}"}
        else:
            assert "330 Ω" in goes and net == {f"U2.{pin}", "R1.1"}
    assert [r[1] for r in rows if r[2].startswith("5 V (")] == ["2OE", "3OE", "4OE"]  # the unused buffers off
