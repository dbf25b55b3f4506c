"""A backend is one module and one registry line: the toy board (tests/toy_backend.py),
registered here and nowhere else, is read from a board file, found by find_board, passes the
backends' contract (tests/backend_contract.py, run again here on the toy) and plays a game with a capture live.

What the toy touched is listed (TOUCHED): its own module and the line that registers it."""

from pathlib import Path

import pytest

import backend_contract as contract
import toy_backend
from reedboard.hal import registry
from reedboard.hal.backends import find_board
from reedboard.hal.board import BoardError, backend_lines, load_board
from toy_backend import BACKEND, ToyRig, ToySettings

pytestmark = pytest.mark.component

# Everything the toy backend needed: its module, and the registering line in this file.
TOUCHED = ("tests/toy_backend.py", "tests/test_toy_backend.py: registered (the one registry line)")
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def registered(monkeypatch):
    monkeypatch.setitem(registry.BACKENDS, BACKEND.name, BACKEND)  # the one registry line
    return BACKEND


@pytest.fixture
def rig():
    rig = ToyRig(contract.BOARD, contract.START)
    yield rig
    rig.close()


# The contract, on the toy: every check of backend_contract that runs on a rig runs here on this one.
test_the_board_senses_its_cells = contract.test_the_board_senses_its_cells
test_frames_report_the_pieces_and_every_change = contract.test_frames_report_the_pieces_and_every_change
test_the_die_button_arrives_as_a_press = contract.test_the_die_button_arrives_as_a_press
test_a_light_frame_reaches_the_leds_within_the_current_budget = contract.test_a_light_frame_reaches_the_leds_within_the_current_budget
test_the_address_level_reports_switches_and_lights_leds_by_index = contract.test_the_address_level_reports_switches_and_lights_leds_by_index
test_the_board_is_found_back_from_its_entry = contract.test_the_board_is_found_back_from_its_entry


def test_the_contract_here_is_the_whole_contract():
    on_a_rig = {name for name, test in vars(contract).items()
                if name.startswith("test_") and "rig" in test.__code__.co_varnames[:test.__code__.co_argcount]}
    assert on_a_rig == {name for name in globals() if name.startswith("test_")} & on_a_rig
    assert on_a_rig  # the contract has tests on a rig, and each of them is run here


def test_the_toy_entry_holds_as_every_entry_does():
    contract.test_each_entry_names_what_it_opens_its_table_and_what_it_can("toy")


def test_the_toy_reads_its_own_table_of_a_board_file(tmp_path):
    shipped = (ROOT / "hardware" / "boards" / "bigballs.toml").read_text()
    path = tmp_path / "bigballs.toml"
    path.write_text(shipped + '\n[toy]\nlabel = "the toy on the desk"\n')
    board = load_board(path)
    assert board.settings["toy"] == ToySettings("the toy on the desk")
    assert backend_lines(board)["toy"] == ['label = "the toy on the desk"']
    path.write_text(shipped + "\n[toy]\nlabel = 7\n")
    with pytest.raises(BoardError, match=r"bigballs.toml: \[toy\] label is a few words, not 7"):
        load_board(path)


def test_an_unregistered_toy_table_is_unknown(tmp_path, monkeypatch):
    monkeypatch.delitem(registry.BACKENDS, BACKEND.name)
    path = tmp_path / "bigballs.toml"
    path.write_text((ROOT / "hardware" / "boards" / "bigballs.toml").read_text() + "\n[toy]\n")
    with pytest.raises(BoardError, match=r"unknown table \[toy\]"):
        load_board(path)


def test_the_toy_is_found_by_name_with_its_start_and_never_unasked():
    found = find_board("toy", game="bigballs", start=contract.START)
    assert (found.backend, found.detail, found.occupied) == ("toy", "the toy board", contract.START)
    assert registry.backend_of(found.device) is BACKEND and registry.device_can(found.device, registry.START)
    assert "toy" not in registry.unasked() and "toy" in registry.names_in_words()


def test_a_game_with_a_capture_is_played_on_the_toy_live():
    from hands_on_boards import play_on

    expected = (ROOT / "tests" / "traces" / "bigballs-capture-mover-first.record").read_text().splitlines()
    assert play_on(ToyRig, "bigballs-capture-mover-first") == expected


def test_only_the_toy_module_knows_the_toy():
    """Nothing of the shipped tree names the toy: what it touched is its module and this file."""
    named = [str(path.relative_to(ROOT)) for folder in ("hal", "controller", "hardware")
             for path in (ROOT / folder).rglob("*.py") if "toy" in path.read_text(encoding="utf-8").lower()]
    assert named == []
    assert Path(toy_backend.__file__).resolve() == ROOT / TOUCHED[0]
