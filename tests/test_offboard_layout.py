"""The Off Board board definition: loaded, validated, every problem named."""

import copy

import pytest

from reedboard.controller.games import LayoutError, OffBoard, load_layout
from reedboard.controller.games.offboard_layout import parse_layout

from offboard_boards import default_data, regrouped

pytestmark = pytest.mark.unit


def sector(data, name):
    return next(t for t in data["sector"] if t["name"] == name)


def broken(change):
    data = copy.deepcopy(default_data())
    change(data)
    return data


def test_default_board_loads():
    layout = load_layout()
    assert len(layout.sectors) == 12 and sum(s.value for s in layout.sectors) == 24
    assert len(layout.exit_sector) == 54


def test_a_board_file_on_disk_is_read(tmp_path):
    lines = ["[start]", 'red = ["E5"]', 'yellow = ["E6"]']
    for t in default_data()["sector"]:
        lines += ["[[sector]]", f'name = "{t["name"]}"', f'value = {t["value"]}',
                  "exits = [" + ", ".join(f'"{e}"' for e in t["exits"]) + "]"]
    path = tmp_path / "board.toml"
    path.write_text("\n".join(lines) + "\n")
    layout = load_layout(path)
    assert layout.source == str(path)
    g = OffBoard(layout)
    assert g.balls("red") == ["E5"] and g.balls("yellow") == ["E6"]


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d["start"]["red"].append("J1"), "unknown hole 'J1'"),
        (lambda d: d["start"]["yellow"].append("B2"), "hole B2 is given twice"),
        (lambda d: d["start"]["red"].append("B3"), "hole B3 is given twice"),
        (lambda d: d["start"].pop("yellow"), "yellow = "),
        (lambda d: sector(d, "S1")["exits"].append("E5-NE"), "exit E5-NE does not exist: F6 is a hole"),
        (lambda d: sector(d, "S1")["exits"].append("A3-NE"), "exit A3-NE does not exist"),
        (lambda d: sector(d, "S1")["exits"].append("K3-NE"), "no hole K3"),
        (lambda d: sector(d, "S1")["exits"].append("A3-UP"), "no direction"),
        (lambda d: sector(d, "S1")["exits"].append("A3SE"), "write an edge hole and a direction"),
        (lambda d: sector(d, "S2")["exits"].append("A2-SE"), "exit A2-SE is given twice"),
        (lambda d: sector(d, "S1")["exits"].remove("A2-SW"), "exit A2-SW is missing"),
        (lambda d: (sector(d, "S1")["exits"].remove("A3-SW"), sector(d, "S2")["exits"].append("A3-SW")),
         "meet the rim at one point but go to S1 and S2"),
        (lambda d: sector(d, "S2")["exits"].remove("A5-SE") or sector(d, "S3").__setitem__("value", 2),
         "S2 and S3 have the same value"),
        (lambda d: (sector(d, "S2")["exits"].remove("A5-SE"), sector(d, "S3")["exits"].append("A5-SE")),
         "corner exit A5-SE goes to S3 .3., but a ball there rolls into the lower-valued S2"),
        (lambda d: sector(d, "S1").__setitem__("value", 0), "value 0"),
        (lambda d: sector(d, "S1").__setitem__("name", "X1"), "sectors are named S1"),
        (lambda d: sector(d, "S2").__setitem__("name", "S1"), "sector S1 is given twice"),
        (lambda d: sector(d, "S1").__setitem__("colour", "red"), "unknown key 'colour'"),
        (lambda d: d.__setitem__("rim", {}), "unknown table 'rim'"),
        (lambda d: d.pop("sector"), "no \\[\\[sector\\]\\]"),
    ],
)
def test_bad_definitions_are_named(change, message):
    with pytest.raises(LayoutError, match=message):
        parse_layout(broken(change), "my-board.toml")


def test_every_message_names_the_file():
    with pytest.raises(LayoutError, match="^my-board.toml: "):
        parse_layout(broken(lambda d: d["start"]["red"].append("J1")), "my-board.toml")


def test_corner_exits_may_be_derived_from_the_values():
    layout = regrouped({"S1": (3, ["S1", "S2", "S3"]), "S2": (1, ["S4", "S5", "S6"]),
                        "S3": (3, ["S7", "S8", "S9"]), "S4": (1, ["S10", "S11", "S12"])})
    assert layout.sector_of("A1-SW").name == "S4"  # between S4 (1) and S1 (3)
    assert layout.sector_of("I9-NE").name == "S2"  # between S2 (1) and S3 (3)
    assert layout.sector_of("A5-SE").name == "S1"  # inside S1


def test_equal_sectors_meeting_at_a_derived_corner_are_refused():
    with pytest.raises(LayoutError, match="same value"):
        regrouped({"S1": (2, ["S1", "S2", "S3", "S4", "S5", "S6"]), "S2": (2, ["S7", "S8", "S9", "S10", "S11", "S12"])})


def test_unreadable_files_are_named(tmp_path):
    missing = tmp_path / "nope.toml"
    with pytest.raises(LayoutError, match="nope.toml: cannot read"):
        load_layout(missing)
    bad = tmp_path / "bad.toml"
    bad.write_text("[start\nred = 1")
    with pytest.raises(LayoutError, match="bad.toml: not valid TOML"):
        load_layout(bad)
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(LayoutError, match="bin.toml: cannot read"):
        load_layout(binary)
