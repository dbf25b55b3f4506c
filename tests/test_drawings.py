"""The drawings of a board (hardware/drawings.py): well-formed SVG, at scale, complete, reproducible."""

import re
import tomllib
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

import pytest

from reedboard.hardware import drawings
from reedboard.hal.board import load_board, parse_board
from reedboard.hardware.drawings import DrawingError, draw_all, leds_svg, matrix_svg, power, template_svg

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
    hollow = {"bigballs": 34.0, "offboard": 26.0}[board.name]
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


def test_pico_pins_are_the_firmwares(tmp_path):
    """The drawings read the pins from the file the firmware imports them from."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("pins", ROOT / "firmware" / "pins.py")
    pins = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pins)
    read = drawings.pico_pins()
    for name in ("ROW_PINS", "COLUMN_PINS", "LED_PIN", "BUZZER_PIN", "DIE_BUTTON_PIN", "OK_BUTTON_PIN"):
        assert read[name] == getattr(pins, name)
    assert "from pins import" in (ROOT / "firmware" / "main.py").read_text(encoding="utf-8")
    readme = (ROOT / "firmware" / "README.md").read_text(encoding="utf-8")
    physical = ", ".join(str(drawings.PICO_PACKAGE[gp]) for gp in pins.ROW_PINS)
    assert f"GP0-GP7 ({physical})" in readme
    moved = tmp_path / "pins.py"  # another wiring: the drawing follows
    moved.write_text((ROOT / "firmware" / "pins.py").read_text().replace("LED_PIN = 22", "LED_PIN = 21"))
    assert drawings.pico_pins(moved)["LED_PIN"] == 21
    moved.write_text("ROW_PINS = (0,")
    with pytest.raises(DrawingError, match="cannot read the Pico's pins"):
        drawings.pico_pins(moved)


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
        assert [p.name for p in written] == [f"{game}-template.svg", f"{game}-matrix.svg", f"{game}-leds.svg"]
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
