"""At a real table, in a real browser: the first game on a full board, a hand that hesitates,
a takeback that keeps the roll, and the lights of a lifted piece.

The page is driven by clicks on the simulated board (a click lifts or places a piece, as a
hand would) and read through its hooks: data-cell with data-light, data-piece and data-sim,
the die display and the prompt's kind (data-prompt). Debian's chromium, as in
test_web_browser.py, whose fixtures and helpers these tests use.
"""

import random
import time

import pytest

from reedboard.controller.games import BigBalls
from reedboard.controller.session.play_session import PlaySession, ScriptedDie
from reedboard.controller.web.background import served

from in_browser import FAST, TIMEOUT, cell, click, expect, record, wait_for_prompt

pytestmark = pytest.mark.system


def prompt(page):
    return page.evaluate("fetch('/api/state').then((r) => r.json()).then((s) => s.prompt)")


def lit(page, colour):
    return set(page.locator(f'#board [data-cell][data-light="{colour}"]').evaluate_all(
        "cells => cells.map((c) => c.dataset.cell)"))


def test_the_first_game_on_a_full_board_identifies_the_stones(open_page, tmp_path):
    # A board out of the box holds every piece; their numbers are what the hands find there.
    session = PlaySession("bigballs", games_dir=tmp_path, settings=FAST, rng=random.Random(11))
    with served(session) as url:
        page = open_page(url, session=session)
        wait_for_prompt(page, "identify")
        expect(page.locator('#board [data-piece="B?"]')).to_have_count(6)  # no made-up numbers
        asked = 0
        while prompt(page)["kind"] == "identify":
            wanted = prompt(page)
            number, colour = wanted["number"], wanted["player"]
            expect(page.locator('[data-role="die"]')).to_have_text(str(number))  # the die asks
            hollow = page.locator(f'#board [data-sim="{colour[0].upper()}{number}"]').get_attribute("data-cell")
            click(page, hollow)  # lift that stone ...
            click(page, hollow)  # ... and put it back
            expect(cell(page, hollow)).to_have_attribute("data-piece", f"{colour[0].upper()}{number}", timeout=TIMEOUT)
            asked += 1
        assert asked == 10  # the sixth stone of each colour needs no asking
        wait_for_prompt(page, "roll")
        for name in session.referee.game.cells:  # now the page shows what stands on the board
            expect(cell(page, name)).to_have_attribute("data-piece", cell(page, name).get_attribute("data-sim") or "")
        assert not page.errors


def test_a_stone_held_while_its_player_thinks_is_no_move_and_the_roll_stays(open_page, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([3]))
    with served(session) as url:
        page = open_page(url, session=session)
        wait_for_prompt(page, "roll")
        page.click('[data-action="die"]')
        expect(page.locator('[data-role="die"]')).to_have_text("3", timeout=TIMEOUT)
        expect(cell(page, "c1")).to_have_attribute("data-light", "movable", timeout=TIMEOUT)
        click(page, "c1")  # stone 3 in the hand: it may take b1 or b2, or step to c2 or d1
        wait_for_prompt(page, "in_hand")
        expect(cell(page, "c2")).to_have_attribute("data-light", "to", timeout=TIMEOUT)
        assert lit(page, "to") == {"b1", "b2", "c2", "d1"}
        time.sleep(2.0)  # the player thinks, well past the settle and grace times
        assert record(page) == [] and lit(page, "empty") == lit(page, "fill") == set()
        click(page, "c1")  # put back
        wait_for_prompt(page, "move")
        assert lit(page, "to") == set() and record(page) == []
        expect(page.locator('[data-role="die"]')).to_have_text("3")  # the same roll
        click(page, "c1")
        click(page, "d1")  # now the real move
        expect(page.locator('[data-role="record"] > li')).to_have_count(1, timeout=TIMEOUT)
        assert record(page) == ["3 c1-d1"]
        assert not page.errors


def test_a_takeback_keeps_the_roll(open_page, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([6]))
    with served(session) as url:
        page = open_page(url, session=session)
        wait_for_prompt(page, "roll")
        page.click('[data-action="die"]')
        expect(page.locator('[data-role="die"]')).to_have_text("6", timeout=TIMEOUT)
        click(page, "a3")
        click(page, "a4")
        expect(page.locator('[data-role="record"] > li')).to_have_count(1, timeout=TIMEOUT)
        click(page, "a4")  # back where it came from: a takeback
        click(page, "a3")
        expect(page.locator('[data-role="record"] > li')).to_have_count(0, timeout=TIMEOUT)
        wait_for_prompt(page, "move")
        expect(page.locator('[data-role="die"]')).to_have_text("6")  # the roll stays: no free re-roll
        expect(page.locator('[data-action="die"]')).to_be_disabled()
        click(page, "a3")
        click(page, "b3")
        expect(page.locator('[data-role="record"] > li')).to_have_count(1, timeout=TIMEOUT)
        assert record(page) == ["6 a3-b3"] and session.referee.game.turn == "white"
        assert not page.errors


def test_lifting_a_ball_lights_its_destinations(open_page, tmp_path):
    session = PlaySession("offboard", games_dir=tmp_path, settings=FAST)
    with served(session) as url:
        page = open_page(url, session=session)
        wait_for_prompt(page, "move")
        assert lit(page, "movable") == set()  # not every red ball
        click(page, "C3")
        wait_for_prompt(page, "in_hand")
        destinations = lit(page, "to")
        assert destinations and "C3" not in destinations
        assert all(not cell(page, c).get_attribute("data-piece") for c in destinations)  # free holes
        click(page, "C3")
        wait_for_prompt(page, "move")
        assert lit(page, "to") == set()
        assert not page.errors
