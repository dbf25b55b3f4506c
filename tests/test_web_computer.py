"""Playing the computer in a real browser: Big Balls on the simulated board, the computer's
search in its worker process. The new-game dialog sets it up; a hint lights a move; the
computer's move shows in lights and is carried out by clicks; a wrong execution is guided back."""

import pytest

from reedboard.controller.games import BigBalls
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.opponent.worker import Thinker
from reedboard.controller.session.play_session import PlaySession, ScriptedDie
from reedboard.controller.web.background import served

from in_browser import FAST, TIMEOUT, cell, click, counted, expect, wait_for_prompt, wait_until

pytestmark = pytest.mark.system


def carry_out(page, session, move):
    """A move by clicks as a hand makes it: what it captures into the box, then the piece moved."""
    footprint = session.referee.game.footprint(move)
    for victim in sorted(footprint.captures):
        click(page, victim)
        page.click('[data-action="aside"]')
        wait_until(lambda: not session.table.hand, "the captured piece in the box")
    for cell_name in sorted(footprint.empties):
        click(page, cell_name)
    for cell_name in sorted(footprint.fills | footprint.captures):
        click(page, cell_name)
    counted(page)


def lit(page, light):
    return set(page.locator(f'[data-cell][data-light="{light}"]').evaluate_all(
        "cells => cells.map((c) => c.dataset.cell)"))


def test_big_balls_against_the_computer_by_clicks_with_a_hint_and_a_wrong_execution(open_page, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, setup="given", die=ScriptedDie([4, 2, 5, 3]),
                          thinker=Thinker(seconds=0.3))
    with served(session) as url:
        page = open_page(url, session=session)
        wait_for_prompt(page, "roll")
        # the new-game dialog: the computer plays white at level 2; black is named
        page.locator(".new-game summary").click()
        form = page.locator('[data-role="new-game"]')
        form.locator('input[name="computer"]').check()
        form.locator('select[name="level"]').select_option("2")
        form.locator('select[name="plays"]').select_option("white")
        form.locator('input[data-name="black"]').fill("Ann")
        # the stones stay where the session put them (its "given" set-up): no set-up mode sent,
        # so the test needs no round of identifying them
        form.locator('input[name="setup"]').evaluate_all("inputs => inputs.forEach((i) => { i.checked = false; })")
        page.click('[data-action="new"]')
        wait_until(lambda: session.referee.computer is not None and session.referee.phase.value == "play",
                   "a new game against the computer")
        assert (session.referee.computer.plays, session.referee.computer.level) == ("white", 2)
        wait_for_prompt(page, "roll")

        # the player rolls, asks for a hint (the best move lit, not played), and plays it
        page.click('[data-action="die"]')
        referee = session.referee
        wait_until(lambda: referee.roll is not None and not referee.view().rolling, "the roll")
        page.click('[data-action="hint"]')
        wait_until(lambda: referee.shown_move() is not None, "the hint")
        hinted = referee.shown_move()
        expect(page.locator('[data-role="message"]')).to_contain_text("hint", timeout=TIMEOUT)
        wait_until(lambda: lit(page, "empty") >= set(referee.game.footprint(hinted).empties), "the hint lit")
        carry_out(page, session, hinted)
        wait_until(lambda: len(referee.game.move_stack) == 1, "the player's move")

        # the computer: thinks (rolling by itself if it chooses to), then shows its move
        wait_for_prompt(page, "computer")
        wait_until(lambda: referee.shown_move() is not None, "the computer's move", timeout=20)
        move = referee.shown_move()
        footprint = referee.game.footprint(move)
        expect(page.locator('[data-role="message"]')).to_contain_text(referee.game.format_move(move), timeout=TIMEOUT)
        wait_until(lambda: lit(page, "empty") >= set(footprint.empties), "the piece to lift lit")
        if footprint.fills:
            wait_until(lambda: lit(page, "dest") == set(footprint.fills), "where it goes lit")
        page.screenshot(path=str(tmp_path / "computer-move.png"))

        # carried out wrongly: the lifted piece put on another hollow is guided back
        source = sorted(footprint.empties)[0]
        wrong = next(c for c in referee.game.cells if c not in referee.game.occupied() and c not in footprint.fills)
        click(page, source)
        click(page, wrong)
        expect(cell(page, wrong)).to_have_attribute("data-light", "empty", timeout=TIMEOUT)
        expect(cell(page, source)).to_have_attribute("data-light", "fill", timeout=TIMEOUT)
        wait_for_prompt(page, "put_back")
        assert len(referee.game.move_stack) == 1
        click(page, wrong)
        click(page, source)
        wait_for_prompt(page, "computer")

        # ... and then as shown: it is the computer's move in the record
        carry_out(page, session, move)
        wait_until(lambda: len(referee.game.move_stack) == 2, "the computer's move carried out")
        assert referee.game.move_stack[-1] == move
        expect(page.locator('[data-role="record"] > li')).to_have_count(2, timeout=TIMEOUT)
        wait_for_prompt(page, "roll")
        assert not page.errors
        path = referee.journal.path
    contents = read_journal(path)
    assert contents.header["computer"] == {"plays": "white", "level": 2, "version": contents.header["computer"]["version"]}
    assert contents.header["players"] == {"black": "Ann"}
    assert [e["type"] for e in contents.entries if e["type"] != "roll"] == ["hint", "move", "move"]
