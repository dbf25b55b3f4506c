"""Board files: the defaults load, and every wiring mistake is named."""

import tomllib
from importlib import resources

import pytest

from reedboard.controller.games import BigBalls, OffBoard
from reedboard.hal.board import BoardError, load_board, parse_board

pytestmark = pytest.mark.unit


def default(game):
    return tomllib.loads(resources.files("reedboard.hardware").joinpath(f"boards/{game}.toml").read_text())


def test_default_boards_wire_every_cell_once():
    for game, cells in (("bigballs", BigBalls().cells), ("offboard", OffBoard().cells)):
        board = load_board(game=game, cells=cells)
        assert board.cells == cells
        assert sorted(board.sensor.values()) == list(range(len(cells)))
        assert len(set(board.led.values())) == len(cells)
        assert board.rows * board.columns >= len(cells)
    assert load_board(game="bigballs").die_pips and load_board(game="offboard").settings_of("gpio").expander == (1, (32, 33))


def test_default_boards_place_every_cell_apart():
    for game in ("bigballs", "offboard"):
        board = load_board(game=game)
        assert set(board.position) == set(board.cells)
        points = list(board.position.values())
        nearest = min(((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 for i, (ax, ay) in enumerate(points)
                      for bx, by in points[i + 1:])
        assert nearest >= 30  # mm: room for a hollow and its reed switch


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["cells"].pop("a1"), "the board has no hollow for a1"),
        (lambda d: d["cells"].__setitem__("h9", [40, 40]), "h9's sensor 40 is outside"),
        (lambda d: d["cells"].__setitem__("A1", [40, 40]), "a1 is given twice"),
        (lambda d: d["cells"].__setitem__("h-9", [20, 40]), "'h-9': a hollow's name is letters and digits"),
        (lambda d: d["cells"].__setitem__("b1", [0, 1]), "a1 and b1 share sensor 0"),
        (lambda d: d["cells"]["b1"].__setitem__("led", 0), "a1 and b1 share LED 0"),
        (lambda d: d["cells"].__setitem__("b1", [99, 1]), "outside the 4x7 matrix"),
        (lambda d: d["cells"].__setitem__("b1", "one"), "b1: write .* or \\[sensor, led\\]"),
        (lambda d: d["cells"]["b1"].__setitem__("row", 4), "b1 at row 4, column 1 is outside the 4x7 matrix"),
        (lambda d: d["cells"]["b1"].pop("led"), "b1: write"),
        (lambda d: d["cells"]["b1"].__setitem__("x", "left"), "x and y are millimetres"),
        (lambda d: d["leds"].__setitem__("count", 20), "beyond the chain"),
        (lambda d: d["leds"].__setitem__("turn", 3), "LED 3 is d1's"),
        (lambda d: d["leds"].__setitem__("die_pips", [28, 29]), "7 LEDs"),
        (lambda d: d["board"].__setitem__("backend", "usb"), "choose gpio, serial, sim"),
        (lambda d: d["board"].__setitem__("name", "my board"), "name must be one word of letters, digits and _"),
        (lambda d: d["board"].__setitem__("colour", "red"), "\\[board\\] colour"),
        (lambda d: d["gpio"].__setitem__("rows", [5, 6]), "2 row and 7 column pins"),
        (lambda d: d["gpio"].__setitem__("buzzer", 5), "pin 5 is used twice"),
        (lambda d: d["matrix"].__setitem__("rows", 0), "matrix rows"),
        (lambda d: d.__setitem__("extra", {}), "unknown table"),
        (lambda d: d["leds"].__setitem__("driver", "pwm"), "^my-board.toml: \\[leds\\] driver 'pwm': choose 'ws281x' or 'spi'$"),
        (lambda d: d["leds"].__setitem__("spi", {"bus": 3}), "^my-board.toml: \\[leds\\] spi bus 3: choose 0 or 1$"),
        (lambda d: d["leds"].__setitem__("spi", "0.0"), "\\[leds\\] spi: write \\{ bus = 0, device = 0 \\}"),
        (lambda d: d["gpio"].__setitem__("leds", 18), "leds = 18, but the spi driver on bus 0 sends on GPIO10"),
        (lambda d: d["gpio"].__setitem__("columns", [17, 27, 22, 9, 25, 16, 26]), "gpio pin 9 belongs to SPI0"),
        (lambda d: d["gpio"].__setitem__("pin_factory", "gpiod"),
         "^my-board.toml: \\[gpio\\] pin_factory 'gpiod': choose lgpio, rpigpio, pigpio, native, mock$"),
    ],
)
def test_wiring_mistakes_are_named(change, message):
    data = default("bigballs")
    change(data)
    with pytest.raises(BoardError, match=message):
        parse_board(data, "my-board.toml", cells=BigBalls().cells)


def test_the_led_driver_and_pin_factory_of_a_board_file():
    shipped = load_board(game="bigballs").settings_of("gpio")
    assert (shipped.led_driver, shipped.spi, shipped.leds, shipped.pin_factory) == ("spi", (0, 0), 10, None)
    data = default("bigballs")
    del data["leds"]["driver"], data["leds"]["spi"], data["gpio"]["leds"]
    data["gpio"]["pin_factory"] = "rpigpio"
    older = parse_board(data, "my-board.toml").settings_of("gpio")  # a file from before drivers: rpi_ws281x on GPIO 18
    assert (older.led_driver, older.leds, older.pin_factory) == ("ws281x", 18, "rpigpio")
    data = default("offboard")
    data["leds"]["spi"] = {"bus": 1, "device": 0}
    del data["gpio"]["leds"]
    assert parse_board(data, "my-board.toml").settings_of("gpio").leds == 20  # SPI1's MOSI


def test_unreadable_board_files_are_named(tmp_path):
    with pytest.raises(BoardError, match="nope.toml: cannot read"):
        load_board(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[board\n")
    with pytest.raises(BoardError, match="bad.toml: not valid TOML"):
        load_board(bad)
    bigballs = resources.files("reedboard.hardware").joinpath("boards/bigballs.toml")
    with pytest.raises(BoardError, match="bigballs.toml: the board has no hollow for C6 \\(nor for 48 more\\)"):
        load_board(bigballs, cells=OffBoard().cells)
    mine = tmp_path / "mine.toml"
    mine.write_text(bigballs.read_text().replace("[board]\n", '[board]\nname = "bigballs"\n'))
    with pytest.raises(BoardError, match="mine.toml: wires the bigballs board, not the offboard one"):
        load_board(mine, game="offboard")
    with pytest.raises(BoardError, match="no shipped board 'chess': choose bigballs, offboard"):
        load_board(game="chess")


def test_a_board_is_named_by_its_file_and_says_its_hollows(tmp_path):
    assert load_board(game="offboard").name == "offboard"
    text = resources.files("reedboard.hardware").joinpath("boards/bigballs.toml").read_text()
    (tmp_path / "mine.toml").write_text(text.replace("a1 = ", "A1 = "))
    mine = load_board(tmp_path / "mine.toml")
    assert mine.name == "mine" and mine.cells[0] == "A1"  # the file's own spelling and order
    assert load_board(tmp_path / "mine.toml", game="bigballs").name == "bigballs"
    asked = load_board(tmp_path / "mine.toml", cells=BigBalls().cells)
    assert asked.cells == BigBalls().cells and asked.sensor["a1"] == 0  # the game's spelling wins


def test_a_game_may_leave_hollows_of_a_board_unused():
    inner = tuple(c for c in OffBoard().cells if not c.startswith("S"))[::-1]
    board = load_board(game="offboard", cells=inner)
    assert board.cells[:len(inner)] == inner and set(board.cells) == set(OffBoard().cells)


def test_candidate_boards_are_the_shipped_boards_with_the_hollows_asked_for():
    from reedboard.hal.backends import NoBoard, candidate_boards, find_board

    assert [b.name for b in candidate_boards(None)] == ["bigballs", "offboard"]
    assert [b.name for b in candidate_boards(None, cells=["A1", "S12"])] == ["offboard"]
    assert [b.name for b in candidate_boards(None, cells=["a7"])] == ["bigballs"]
    with pytest.raises(BoardError, match="no hollow for Z9"):
        candidate_boards(None, cells=["Z9"])
    found = find_board("sim", cells=["E5"], start=["E5"])
    assert found.board.name == "offboard" and found.device.occupied == {"E5"}
    with pytest.raises(NoBoard, match="usb: no such backend \\(gpio, serial or sim\\)"):
        find_board("usb", game="bigballs")


def test_the_backend_registry_names_each_backend_once():
    from reedboard.hal.registry import BACKENDS, unasked

    assert set(BACKENDS) == {"gpio", "serial", "sim"} and unasked() == ("serial", "gpio")
    assert all(callable(getattr(__import__(b.opener.split(":")[0], fromlist=["x"]), b.opener.split(":")[1]))
               for b in BACKENDS.values())
