"""Two of the table's hard calls in a real browser (reconciler rules 2 and 7).

- A big ball rolled onto a stone so fast that the stone's switch never opened: the page shows
  the ball in the hand with the capture it would be; when the next player presses the page's
  die button, the capture is recorded and the die rolls for them.
- A takeback after the next player had rolled: the mover moves again with the number they had,
  and the next player's number shows on the die at once, with no new press.

Clicks cannot be quicker than the debounce, so the knock of the first case is made on the
simulated table itself (the ball put where the stone stood, the stone into the box, the
switch never open), and everything else by clicks, as in test_web_table.py.
"""

from reedboard.controller.games import BigBalls
from reedboard.controller.session.play_session import PlaySession, ScriptedDie
from reedboard.controller.web.background import served

from in_browser import FAST, TIMEOUT, cell, click, expect, record, wait_for_prompt


def knock(session, dst: str) -> None:
    """The piece in the hand lands on `dst`, knocking its piece into the box unseen."""
    table = session.table
    victim = table.physical[dst]
    table.physical[dst] = table.hand.pop().piece
    table.box.append(victim)


def test_a_big_balls_quick_swap_counts_when_the_next_player_presses_the_die(open_page, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([5]))
    with served(session) as url:
        page = open_page(url, session=session)
        wait_for_prompt(page, "roll")
        for src, dst in (("a5", "a4"), ("c5", "d4")):
            click(page, src)
            click(page, dst)
        expect(page.locator('[data-role="record"] > li')).to_have_count(2, timeout=TIMEOUT)
        click(page, "d4")  # Black's ball rolls onto White's 6 on e3 ...
        knock(session, "e3")  # ... and knocks it out before its switch opens
        wait_for_prompt(page, "in_hand")  # to the board, a ball in the hand that may take e3
        assert record(page) == ["BB a5-a4", "BB c5-d4"]
        page.click('[data-action="die"]')  # White starts
        expect(page.locator('[data-role="die"]')).to_have_text("5", timeout=TIMEOUT)
        expect(page.locator('[data-role="record"] > li')).to_have_count(3, timeout=TIMEOUT)
        assert record(page) == ["BB a5-a4", "BB c5-d4", "BB d4xe3"]
        wait_for_prompt(page, "move")
        expect(cell(page, "e3")).to_have_attribute("data-piece", "ball")
        expect(cell(page, "f2")).to_have_attribute("data-light", "movable")  # White's 5 may move
        assert session.referee.game.turn == "white"
        assert not page.errors


def test_the_next_players_roll_shows_again_at_once_after_a_takeback(open_page, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([6, 1]))
    with served(session) as url:
        page = open_page(url, session=session)
        die = page.locator('[data-role="die"]')
        wait_for_prompt(page, "roll")
        page.click('[data-action="die"]')
        expect(die).to_have_text("6", timeout=TIMEOUT)
        click(page, "a3")
        click(page, "b3")
        expect(page.locator('[data-role="record"] > li')).to_have_count(1, timeout=TIMEOUT)
        wait_for_prompt(page, "roll")
        page.click('[data-action="die"]')  # White rolls a 1
        expect(die).to_have_text("1", timeout=TIMEOUT)
        click(page, "b3")  # Black takes the move back
        click(page, "a3")
        expect(page.locator('[data-role="record"] > li')).to_have_count(0, timeout=TIMEOUT)
        expect(die).to_have_text("6", timeout=TIMEOUT)  # Black moves again with its 6
        click(page, "a3")
        click(page, "a4")
        expect(page.locator('[data-role="record"] > li')).to_have_count(1, timeout=TIMEOUT)
        # White's 1 stands and shows at once: White moves with it, pressing nothing
        expect(die).to_have_text("1", timeout=TIMEOUT)
        wait_for_prompt(page, "move")
        expect(page.locator('[data-action="die"]')).to_be_disabled()
        click(page, "e1")
        click(page, "d2")
        expect(page.locator('[data-role="record"] > li')).to_have_count(2, timeout=TIMEOUT)
        assert record(page) == ["6 a3-a4", "1 e1-d2"]
        assert not page.errors
