"""The drawings of a board (hardware/drawings.py): well-formed SVG, at scale, complete, reproducible."""

import ast
import math
import re
import tomllib
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

import pytest

from reedboard.hardware import drawings
from reedboard.hal.board import load_board, parse_board
from reedboard.hardware.drawings import DrawingError, draw_all, leds_svg, matrix_svg, power, template_svg

pytestmark = pytest.mark.unit

ROOT = Path(__file__).parent.parent
COMMITTED = ROOT / "hardware" / "drawings"
GAMES = ("bigballs", "offboard")
NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module", params=GAMES)
def drawn(request):
    board = load_board(game=request.param)
    return board, {kind: ET.fromstring(draw(board)) for kind, draw in
                   (("template", template_svg), ("matrix", matrix_svg), ("leds", leds_svg))}


def by_id(root, ident):
    found = [e for e in root.iter() if e.get("id") == ident]
    assert len(found) == 1, ident
    return found[0]


def texts(root, cls=None):
    return [e.text for e in root.iter(NS + "text") if cls is None or e.get("class") == cls]


def mm(value: str) -> float:
    assert value.endswith("mm"), value
    return float(value[:-2])


def test_every_drawing_is_an_svg_document(drawn):
    board, svgs = drawn
    for kind, root in svgs.items():
        assert root.tag == NS + "svg", kind
        ids = [e.get("id") for e in root.iter() if e.get("id")]
        assert len(ids) == len(set(ids)), kind  # ids are unique


def test_template_is_at_one_to_one_in_millimetres(drawn):
    board, svgs = drawn
    root = svgs["template"]
    x0, y0, w, h = map(float, root.get("viewBox").split())
    assert (mm(root.get("width")), mm(root.get("height"))) == (w, h)  # 1 user unit = 1 mm
    hollow = {"bigballs": 35.0, "offboard": 26.0}[board.name]
    for cell in board.cells:
        x, y = board.position[cell]
        circle = by_id(root, f"hollow-{cell}")
        assert (float(circle.get("cx")), float(circle.get("cy"))) == pytest.approx((x, -y), abs=0.006)
        expected = 30.0 if circle.get("class") == "cup" else hollow
        assert 2 * float(circle.get("r")) == pytest.approx(expected)
        assert x0 < x - expected / 2 and x + expected / 2 < x0 + w and y0 < -y - expected / 2 < -y + expected / 2 < y0 + h
        # the switch lies along x, offset so that the hollow centre is over one end of its glass
        switch = by_id(root, f"switch-{cell}")
        sx = float(switch.get("x"))
        sw = float(switch.get("width"))
        assert sw == drawings.REED_LENGTH and float(switch.get("height")) == drawings.REED_DIAMETER
        assert sx < x < sx + 2 and sx + sw / 2 == pytest.approx(x + drawings.REED_OFFSET, abs=0.01)
        led = by_id(root, f"led-{cell}")
        assert float(led.get("x")) + float(led.get("width")) < sx  # the LED beside the switch
    assert sum(e.get("class") == "cup" for e in root.iter(NS + "circle")) == (12 if board.name == "offboard" else 0)
    notes = " ".join(texts(root))
    assert "ASSUMED" in notes and "scale 1:1" in notes and "pole" in notes


def test_template_labels_every_cell_and_its_led(drawn):
    board, svgs = drawn
    root = svgs["template"]
    assert sorted(texts(root, "cell")) == sorted(board.cells)
    assert sorted(texts(root, "led")) == sorted(f"L{board.led[c]}" for c in board.cells)


def test_matrix_has_one_diode_per_switch_cathode_toward_the_row(drawn):
    board, svgs = drawn
    root = svgs["matrix"]
    rows = {r: float(by_id(root, f"row-{r}").get("y1")) for r in range(board.rows)}
    columns = {c: float(by_id(root, f"column-{c}").get("x1")) for c in range(board.columns)}
    switches = by_id(root, "switches")  # (the key beside the matrix draws one more, larger)
    assert len(switches.findall(f".//{NS}path[@class='diode']")) == len(board.cells)
    for cell in board.cells:
        group = by_id(root, f"switch-{cell}")
        row, column = divmod(board.sensor[cell], board.columns)
        assert (int(group.get("data-row")), int(group.get("data-column"))) == (row, column)
        diodes = group.findall(f"{NS}path[@class='diode']")
        bars = group.findall(f"{NS}line[@class='cathode']")
        assert len(diodes) == len(bars) == 1 and len(group.findall(f"{NS}ellipse[@class='reed']")) == 1
        triangle = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", diodes[0].get("d"))]
        base_y, tip_y = triangle[1], triangle[5]
        bar_y = float(bars[0].get("y1"))
        assert base_y < tip_y == bar_y < rows[row]  # the band (cathode) is the end toward the row
        wires = group.findall(f"{NS}line")
        assert any(float(w.get("x1")) == columns[column] for w in wires)  # tapped off its column
        assert any(float(w.get("y2")) == rows[row] for w in wires)  # and down to its row
        assert cell in texts(group, "cell")
    assert sorted(texts(root, "cell")) == sorted(board.cells)


def test_matrix_names_the_pins(drawn):
    board, svgs = drawn
    words = " ".join(texts(svgs["matrix"]))
    assert "Pico GP numbers" in words and "GP0 (pin 1)" in words and "GP8 (pin 11)" in words
    if board.name == "bigballs":
        assert "BCM 5 (pin 29)" in words and "BCM 17 (pin 11)" in words
    else:
        assert "0x20 GPA0" in words and "0x21 GPB1" in words and "GP17 (pin 22)" in words


def test_pico_pins_are_the_firmwares(monkeypatch):
    """The drawings read the pins from the module the firmware imports them from."""
    import importlib.util

    from reedboard.firmware import pins as imported

    spec = importlib.util.spec_from_file_location("pins", ROOT / "firmware" / "pins.py")
    pins = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pins)
    read = drawings.pico_pins()
    for name in ("ROW_PINS", "COLUMN_PINS", "LED_PIN", "BUZZER_PIN", "DIE_BUTTON_PIN", "OK_BUTTON_PIN"):
        assert read[name] == getattr(pins, name)
    assert "from pins import" in (ROOT / "firmware" / "main.py").read_text(encoding="utf-8")
    assert Path(imported.__file__).resolve() == (ROOT / "firmware" / "pins.py").resolve()
    readme = (ROOT / "firmware" / "README.md").read_text(encoding="utf-8")
    physical = ", ".join(str(drawings.PICO_PACKAGE[gp]) for gp in pins.ROW_PINS)
    assert f"GP0-GP7 ({physical})" in readme
    monkeypatch.setattr(imported, "LED_PIN", 21)  # another wiring: the drawing follows
    assert drawings.pico_pins()["LED_PIN"] == 21


def test_the_pins_import_nothing():
    """firmware/pins.py runs on the Pico and on the host alike: data, no import, no side effect."""
    tree = ast.parse((ROOT / "firmware" / "pins.py").read_text(encoding="utf-8"))
    assert all(isinstance(node, ast.Assign) for node in tree.body)


def test_the_chain_visits_the_leds_in_order(drawn):
    board, svgs = drawn
    root = svgs["leds"]
    centre = {}
    for i in range(board.led_count):
        group = by_id(root, f"led-{i}")
        circle = group.find(f"{NS}circle")
        centre[i] = (float(circle.get("cx")), float(circle.get("cy")))
        assert texts(group, "index") == [str(i)]
    for cell in board.cells:
        x, y = board.position[cell]
        assert centre[board.led[cell]] == pytest.approx((x, -y), abs=0.006)
        assert by_id(root, f"led-{board.led[cell]}").get("data-is") == cell
    kinds = [by_id(root, f"led-{i}").get("data-is") for i in board.die_pips] + (
        [by_id(root, f"led-{board.turn_led}").get("data-is")] if board.turn_led is not None else [])
    assert kinds == ["pip"] * len(board.die_pips) + ["turn"] * (board.turn_led is not None)
    links = root.findall(f".//{NS}path[@class='link']")
    assert [(int(p.get("data-from")), int(p.get("data-to"))) for p in links] == [
        (i, i + 1) for i in range(board.led_count - 1)]
    for link in links:
        numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", link.get("d"))]
        start, end = tuple(numbers[:2]), tuple(numbers[-2:])
        assert start == pytest.approx(centre[int(link.get("data-from"))], abs=0.006)
        assert end == pytest.approx(centre[int(link.get("data-to"))], abs=0.006)
    words = " ".join(texts(root))
    load = power(board)
    assert f"budget {load.budget_ma:.0f} mA" in words and "GP22 (pin 29)" in words and "330 Ω" in words
    assert f"{board.led_count} × 60 mA = {load.full_white_ma:.0f} mA" in words


def test_power_is_sized_from_the_budget():
    big, off = power(load_board(game="bigballs")), power(load_board(game="offboard"))
    assert (big.full_white_ma, big.worst_ma, big.supply_a) == (2160, 2196, 3.0)  # the cap never bites
    assert (off.full_white_ma, off.worst_ma, off.supply_a) == (4440, 2574, 3.5)


def test_the_committed_drawings_are_the_default_boards_own(tmp_path):
    for game in GAMES:
        written = draw_all(load_board(game=game), tmp_path)
        assert [p.name for p in written] == [f"{game}-{kind}.svg" for kind in
                                             ("template", "matrix", "leds", "underside", "carrier")]
        for path in written:
            committed = COMMITTED / path.name
            assert committed.exists(), f"run draw_all to create {committed}"
            assert path.read_bytes() == committed.read_bytes(), f"{committed} is stale: regenerate the drawings"
    assert sorted(p.name for p in COMMITTED.glob("*.svg")) == sorted(p.name for p in tmp_path.glob("*.svg"))
    # beside them, the template tiled for a home printer (tests/test_template_tiles.py reads them)
    assert sorted(p.name for p in COMMITTED.glob("*.pdf")) == sorted(
        f"{game}-template-{paper}.pdf" for game in GAMES for paper in ("a4", "letter"))


def test_a_board_without_positions_still_has_a_matrix():
    data = tomllib.loads(resources.files("reedboard.hardware").joinpath("boards/bigballs.toml").read_text())
    columns = data["matrix"]["columns"]
    data["cells"] = {c: [v["row"] * columns + v["column"], v["led"]] for c, v in data["cells"].items()}
    board = parse_board(data, "nowhere/short.toml")
    assert "a1" in texts(ET.fromstring(matrix_svg(board)), "cell")
    for draw in (template_svg, leds_svg):
        with pytest.raises(DrawingError, match=r"short\.toml: .* needs every cell's x and y"):
            draw(board)


def test_a_gpio_board_shows_the_pi_pins_first():
    data = tomllib.loads(resources.files("reedboard.hardware").joinpath("boards/bigballs.toml").read_text())
    data["board"]["backend"] = "gpio"
    data["matrix"]["diodes"] = False
    root = ET.fromstring(matrix_svg(parse_board(data, "pi.toml")))
    row_label = [e for e in root.iter(NS + "text") if e.text == "row 0"][0]
    labels = texts(root)
    assert labels[labels.index("row 0") + 1] == "BCM 5 (pin 29)" and row_label.get("fill") != "#888"
    assert not root.findall(f".//{NS}path[@class='diode']") and "without diodes" in " ".join(labels)


# --- under the board: the underside seen from below, the Pico carrier on stripboard ---------------

def test_every_drawing_says_which_side_it_shows(drawn):
    from reedboard.hardware.underside import carrier_svg, underside_svg

    board, svgs = drawn
    svgs = {**svgs, "underside": ET.fromstring(underside_svg(board)), "carrier": ET.fromstring(carrier_svg(board))}
    sides = {kind: sorted(e.get("data-side") for e in root.iter() if e.get("id") == "side")
             for kind, root in svgs.items()}
    assert sides == {"template": [drawings.ABOVE], "matrix": [drawings.SCHEMATIC], "leds": [drawings.ABOVE],
                     "underside": [drawings.BELOW], "carrier": sorted([drawings.ABOVE, drawings.BELOW])}


def test_the_underside_routes_every_row_and_column_mirrored(drawn):
    """Seen from below, a point x, y of the board is at -x, -y: each wire starts at its pad on the
    carrier and visits exactly the switches of its row (or column), at their mirrored places."""
    from reedboard.hardware.underside import _column_tap, _row_tap, pad_places, underside_svg

    board, _ = drawn
    root = ET.fromstring(underside_svg(board))
    pads = pad_places(board)
    for kind, count, tap in (("row", board.rows, _row_tap), ("column", board.columns, _column_tap)):
        for i in range(count):
            cells = {c for c in board.cells if divmod(board.sensor[c], board.columns)[kind == "column"] == i}
            wire = by_id(root, f"{kind}-wire-{i}")
            assert set(wire.get("data-cells").split()) == cells, (kind, i)
            points = [tuple(map(float, p.split())) for p in wire.get("d")[2:].split(" L ")]
            px, py = pads[f"{kind} {i}"]
            assert points[0] == pytest.approx((-px, -py), abs=0.006)  # from the carrier's pad
            for cell in cells:
                x, y = tap(*board.position[cell])
                assert any(p == pytest.approx((-x, -y), abs=0.006) for p in points), (kind, i, cell)
    for cell in board.cells:  # every switch mirrored: its glass left of the hollow's mirrored centre
        x, y = board.position[cell]
        glass = by_id(root, f"switch-{cell}").find(f"{NS}rect")
        assert float(glass.get("x")) + float(glass.get("width")) / 2 == pytest.approx(-(x + drawings.REED_OFFSET), abs=0.01)
    assert by_id(root, "place-carrier") is not None


def test_the_carrier_joins_what_the_circuit_says():
    """The stripboard's strips, cuts and links make exactly the circuit of hardware/README.md: the
    Pico's matrix pins to the pads, GP22 through the 74AHCT125 and 330 Ω to the LED chain's DATA,
    the unused buffers off, GP20 through 1 kΩ to the transistor, the buzzer through 68 Ω from 5 V
    with its diode, one 5 V and one ground joined to the Pico's."""
    from reedboard.hardware.underside import carrier_nets

    pins = drawings.pico_pins()
    pin = {gp: f"U1.{drawings.PICO_PACKAGE[gp]}" for gp in drawings.PICO_PACKAGE}
    expected = [{pin[gp], f"{'J1' if gp < 16 else 'J2'}.row {r}"} for r, gp in enumerate(pins["ROW_PINS"])] + [
        {pin[gp], f"{'J1' if gp < 16 else 'J2'}.column {c}"} for c, gp in enumerate(pins["COLUMN_PINS"])] + [
        {pin[pins["DIE_BUTTON_PIN"]], "J3.die"}, {pin[pins["OK_BUTTON_PIN"]], "J3.ok"},
        {pin[pins["LED_PIN"]], "U2.2"}, {"U2.3", "R1.1"}, {"R1.2", "J6.DATA"},
        {pin[pins["BUZZER_PIN"]], "R2.1"}, {"R2.2", "Q1.B"}, {"Q1.C", "D2.A", "J4.-"}, {"D2.K", "J4.+", "R3.2"},
        {"J5.+5V", "J6.+5V", "C1.+", "R3.1", "C2.1", "U2.14", "U2.4", "U2.10", "U2.13"},  # VCC, 2OE, 3OE, 4OE
        {"J5.GND", "J6.GND", "C1.-", "C2.2", "J3.GND", "Q1.E", "U1.23",
         "U2.7", "U2.1", "U2.5", "U2.9", "U2.12"},  # GND, 1OE, 2A, 3A, 4A
    ]
    joined = [n for n in carrier_nets() if len(n) > 1]
    assert sorted(map(sorted, joined)) == sorted(map(sorted, expected))


def test_the_carrier_labels_the_boards_pads():
    from reedboard.hardware.underside import carrier_svg

    for game in GAMES:
        board = load_board(game=game)
        root = ET.fromstring(carrier_svg(board))
        used = {e.get("data-pad") for e in root.iter() if e.get("data-used") == "yes"}
        assert used == {f"J1.row {r}" for r in range(board.rows)} | {
            f"{'J1' if c < 8 else 'J2'}.column {c}" for c in range(board.columns)} | {
            "J3.ok", "J3.GND", "J4.+", "J4.-"} | ({"J3.die"} if board.die_pips else set())
        assert len(root.findall(f".//{NS}line[@class='link']")) == 15


def test_the_template_has_a_place_for_every_part_off_the_hollows(drawn):
    board, svgs = drawn
    root = svgs["template"]
    where = drawings.places(board)
    outline = drawings._outline(board, board.position)
    wanted = ["turn", "ok-button", "buzzer", "carrier"] + (["die", "die-button"] if board.die_pips else [])
    found = sorted(e.get("id")[6:] for e in root.iter() if (e.get("id") or "").startswith("place-"))
    assert found == sorted(wanted)
    if board.die_pips:
        assert len(by_id(root, "place-die").findall(f"{NS}circle[@class='hole']")) == 7
    for key in ("die", "turn", "die_button", "ok_button", "buzzer"):
        at = getattr(where, key)
        if at is None:
            continue
        assert outline.inside(*at, margin=10), key  # on the board, clear of its edge
        for cell in board.cells:  # and clear of every hollow
            reach = drawings._diameter(board, cell) / 2 + (drawings.PIP_PITCH + 9 if key == "die" else 7)
            assert math.dist(at, board.position[cell]) > reach, (key, cell)
    x0, y0, x1, y1 = drawings.carrier_box(where)
    assert all(outline.inside(x, y, margin=3) for x in (x0, x1) for y in (y0, y1))


def test_a_board_of_ones_own_still_gets_its_underside():
    from reedboard.hardware.underside import carrier_svg, underside_svg

    data = tomllib.loads(resources.files("reedboard.hardware").joinpath("boards/bigballs.toml").read_text())
    root = ET.fromstring(underside_svg(parse_board(data, "nowhere/mine.toml", name="mine")))
    assert [e.get("data-side") for e in root.iter() if e.get("id") == "side"] == [drawings.BELOW]
    assert len(root.findall(f".//{NS}path[@class='row-wire']")) == 4
    ET.fromstring(carrier_svg(parse_board(data, "nowhere/mine.toml", name="mine")))
