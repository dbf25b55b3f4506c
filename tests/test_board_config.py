"""Board files: the defaults load, and every wiring mistake is named."""

import tomllib
from importlib import resources

import pytest

from controller.games import BigBalls, OffBoard
from hal.board import BoardError, load_board, parse_board


def default(game):
    return tomllib.loads(resources.files("hardware").joinpath(f"boards/{game}.toml").read_text())


def test_default_boards_wire_every_cell_once():
    for game, cells in (("bigballs", BigBalls().cells), ("offboard", OffBoard().cells)):
        board = load_board(game=game)
        assert board.cells == cells
        assert sorted(board.sensor.values()) == list(range(len(cells)))
        assert len(set(board.led.values())) == len(cells)
        assert board.rows * board.columns >= len(cells)
    assert load_board(game="bigballs").die_pips and load_board(game="offboard").gpio.expander == (1, (32, 33))


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
        (lambda d: d["cells"].pop("a1"), "misses a1"),
        (lambda d: d["cells"].__setitem__("h9", [40, 40]), "h9: no such cell"),
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
        (lambda d: d["board"].__setitem__("game", "chess"), "unknown game"),
        (lambda d: d["gpio"].__setitem__("rows", [5, 6]), "2 row and 7 column pins"),
        (lambda d: d["gpio"].__setitem__("buzzer", 5), "pin 5 is used twice"),
        (lambda d: d["matrix"].__setitem__("rows", 0), "matrix rows"),
        (lambda d: d.__setitem__("extra", {}), "unknown table"),
    ],
)
def test_wiring_mistakes_are_named(change, message):
    data = default("bigballs")
    change(data)
    with pytest.raises(BoardError, match=message):
        parse_board(data, "my-board.toml")


def test_unreadable_board_files_are_named(tmp_path):
    with pytest.raises(BoardError, match="nope.toml: cannot read"):
        load_board(tmp_path / "nope.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[board\n")
    with pytest.raises(BoardError, match="bad.toml: not valid TOML"):
        load_board(bad)
    with pytest.raises(BoardError, match="not a offboard one|a bigballs board"):
        load_board(resources.files("hardware").joinpath("boards/bigballs.toml"), game="offboard")
