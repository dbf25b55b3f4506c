"""The one-hollow test's logic (controller/workshop/one_hollow.py): which switch it watches, each
close and open with its count and length, what a builder reads of them, and the guidance, whose
numbers are the ones hardware/README.md builds a board to."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reedboard.controller.workshop.one_hollow import (
    ANY, Change, OneHollow, SwitchCounts, find_hollow, guidance, switch_name,
)
from reedboard.controller.language.catalogue import speaking
from reedboard.hal.board import load_board

pytestmark = pytest.mark.unit

README = Path(__file__).resolve().parent.parent / "hardware" / "README.md"


@pytest.fixture(scope="module")
def bigballs():
    return load_board(game="bigballs")


@pytest.fixture(scope="module")
def offboard():
    return load_board(game="offboard")


def test_a_switch_closed_in_the_first_frame_is_closed_not_a_close():
    counts = SwitchCounts()
    assert counts.frame(10.0, {3}) == []
    assert counts.count(3).closed and counts.count(3).closes == 0
    assert counts.count(3).closed_for(12.5) == 2.5  # the piece was there all along
    assert counts.frame(13.0, set()) == [Change(13.0, 3, False, 0, 3.0)]


def test_each_close_and_open_is_counted_with_how_long_it_lasted():
    counts = SwitchCounts()
    counts.frame(0.0, set())
    assert counts.frame(1.0, {5}) == [Change(1.0, 5, True, 1)]
    assert counts.frame(1.4, set()) == [Change(1.4, 5, False, 1, pytest.approx(0.4))]
    assert counts.frame(2.0, {5, 6}) == [Change(2.0, 5, True, 2), Change(2.0, 6, True, 1)]
    assert counts.frame(2.5, {6}) == [Change(2.5, 5, False, 2, pytest.approx(0.5))]
    five = counts.count(5)
    assert (five.closes, five.held, five.last_held) == (2, pytest.approx(0.9), pytest.approx(0.5))
    assert counts.count(6).closed_for(3.0) == pytest.approx(1.0)
    assert counts.last == 5
    assert counts.frame(2.6, {6}) == []  # the same board again: nothing changed


def test_counting_from_zero_keeps_what_is_closed_now():
    counts = SwitchCounts()
    counts.frame(0.0, set())
    counts.frame(1.0, {1, 2})
    counts.frame(2.0, {2})
    counts.reset(5.0)
    assert counts.count(1).closes == 0 and not counts.count(1).closed
    assert counts.count(2).closed and counts.count(2).closes == 0 and counts.count(2).closed_for(6.0) == 1.0
    assert counts.last is None


def test_the_hollow_chosen_is_the_switch_shown_and_any_follows_the_last_change(bigballs):
    one = OneHollow(bigballs, "b1")
    anyone = OneHollow(bigballs)
    for test in (one, anyone):
        test.frame(0.0, set())
    assert one.shown == bigballs.sensor["b1"] and anyone.shown is None
    for test in (one, anyone):
        changes = test.frame(1.0, {bigballs.sensor["c1"]})
    assert one.shown == bigballs.sensor["b1"] and anyone.shown == bigballs.sensor["c1"]
    assert not one.mine(changes[0]) and anyone.mine(changes[0])
    with pytest.raises(ValueError):
        OneHollow(bigballs, "z9")


def test_what_the_terminal_prints_of_each_change(bigballs):
    test = OneHollow(bigballs, "a1")
    test.frame(0.0, set())
    [closed] = test.frame(1.0, {0})
    assert test.line(closed) == "a1 (sensor 0) closed (1 time so far)"
    [opened] = test.frame(1.25, set())
    assert test.line(opened) == "a1 (sensor 0) opened after 0.25 s"
    [again] = test.frame(2.0, {0})
    assert test.line(again) == "a1 (sensor 0) closed (2 times so far)"
    [other] = test.frame(2.5, {0, 1})
    assert test.line(other) == "b1 (sensor 1) closed, not a1: is the magnet in a1?"
    assert test.summary(3.0) == "a1 closed 2 times, 1.25 s in all"
    never = OneHollow(bigballs, "g1")
    never.frame(0.0, {0})
    assert never.summary(9.0) == "g1 never closed"


def test_any_switch_sums_up_every_switch_that_closed(bigballs):
    test = OneHollow(bigballs, None)
    test.frame(0.0, set())
    assert test.summary(1.0) == "no switch closed"
    test.frame(1.0, {2})
    test.frame(2.0, {2, 9})
    assert test.summary(3.0) == "2 switches closed: c1 (sensor 2), c2 (sensor 9)"


def test_a_hollow_is_named_in_any_case_or_as_any(bigballs, offboard):
    assert find_hollow(bigballs, "A1") == "a1"
    assert find_hollow(offboard, "e5") == "E5"
    assert find_hollow(bigballs, " Any ") is None and ANY == "any"
    with pytest.raises(ValueError, match=re.escape("no hollow 'h9' on the bigballs board (its hollows: a1, b1, c1, d1,"
                                                   " ...; or any)")):
        find_hollow(bigballs, "h9")


def test_a_switch_under_no_hollow_is_named_by_its_place_in_the_matrix(offboard):
    unused = next(a for a in range(offboard.rows * offboard.columns) if offboard.cell_at(a) is None)
    row, column = divmod(unused, offboard.columns)
    assert switch_name(offboard, unused) == f"sensor {unused} (row {row}, column {column}; under no hollow)"
    a = offboard.sensor["A1"]
    assert switch_name(offboard, a) == f"A1 (sensor {a})"


def test_the_guidance_says_the_distances_the_hardware_guide_builds_to(bigballs, offboard):
    readme = " ".join(README.read_text(encoding="utf-8").split())
    for said in ("the magnet's lower face sits **5 mm** above the middle of the glass: the felt (1 mm), the floor (3 mm)"
                 " and half the glass (1 mm). The switch must still close at **8 mm**",
                 "make the floor thinner (2.5 mm, not under 2 mm), or cut a 1 mm groove for the switch in the underside",
                 "take a more sensitive switch (10-15 AT rather than 15-20 AT)", "**6 mm** beside the hollow centre",
                 "a less sensitive switch (20-30 AT)", "40 mm away on Big Balls or 32 mm on Off Board"):
        assert said in readme, said
    words = guidance(bigballs, "c2")
    row, column = divmod(bigballs.sensor["c2"], bigballs.columns)
    assert words.expect == (f"Put a piece in c2: its switch, sensor {bigballs.sensor['c2']} (row {row}, column {column}),"
                            " must close with the magnet's lower face 5 mm above the middle of the glass (the felt, 1 mm,"
                            " the floor, 3 mm, and half the glass, 1 mm), and still close at 8 mm: stand the piece on"
                            " 3 mm of card in the hollow.")
    assert [text.split(":")[0].split(" (")[0].split(",")[0] for text in words.if_open] == [
        "A thinner floor", "A stronger magnet", "The switch along the board", "Hold the magnet right on the glass"]
    assert "2.5 mm (not under 2 mm), or a 1 mm groove" in words.if_open[0]
    assert "(10-15 AT rather than 15-20 AT)" in words.if_open[1] and "6 mm beside the hollow's" in words.if_open[2]
    assert f"the wire of row {row} and of column {column}" in words.if_open[3]
    assert words.if_neighbour.startswith("It closes with a piece in the next hollow, 40 mm away, too")
    assert "(20-30 AT)" in words.if_neighbour
    assert "the next hollow, 32 mm away" in guidance(offboard, "E5").if_neighbour
    lines = words.lines()
    assert lines[0] == words.expect and lines[1] == "It does not close:" and lines[2] == "  - " + words.if_open[0]
    assert guidance(bigballs).expect.startswith("Put a piece in any hollow: its switch must close")


@pytest.mark.parametrize("lang", ["de", "ro"])
def test_the_guidance_and_the_changes_are_in_the_language_in_use(bigballs, lang):
    english = guidance(bigballs, "a1").as_dict()
    with speaking(lang):
        words = guidance(bigballs, "a1").as_dict()
        test = OneHollow(bigballs, "a1")
        test.frame(0.0, set())
        line = test.line(test.frame(1.0, {0})[0])
    for key in ("expect", "if_neighbour"):
        assert words[key] != english[key] and "5 mm" in words["expect"] and "8 mm" in words["expect"]
    assert all(mine != theirs for mine, theirs in zip(words["if_open"], english["if_open"]))
    assert line != "a1 (sensor 0) closed (1 time so far)" and "a1" in line
