"""The past games as a newcomer meets them: on a phone every game's buttons are on the screen,
the statistics card holds its table, the computer is one of the players, an unfinished game is
not counted as finished, and a month names its year."""

import random

import pytest

from reedboard.controller.persist.journal import Journal
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.web.background import served

from archive_games import A7_GAME, START, bigballs, played
from in_browser import DESKTOP, FAST, PHONE, TIMEOUT, expect, shot

pytestmark = pytest.mark.system


def against_the_computer(games_dir, moves):
    """Newbie (black) against the computer at level 1 (white), the journal as a session writes it."""
    game = bigballs()
    journal = Journal.create(games_dir, game.copy(), {}, START, players={"black": "Newbie"},
                             computer={"plays": "white", "level": 1, "version": "0"})
    for t, text in enumerate(moves, 1):
        game.play(text)
        journal.append_move(float(t), text)
    outcome = game.outcome()
    if outcome is not None:
        journal.append_result(99.0, outcome.result(game.players), outcome.termination.value, outcome.winner)


@pytest.fixture
def newbie(tmp_path):
    games = tmp_path / "games"
    against_the_computer(games, A7_GAME)        # Newbie wins in 15 moves
    against_the_computer(games, A7_GAME[:3])    # unfinished
    played(games, bigballs(), A7_GAME[:5], players={"black": "A player with a long name", "white": "Newbie"},
           result="resign")
    return games


def test_past_games_and_their_statistics_fit_a_phone_and_count_what_was_played(open_page, newbie, tmp_path):
    session = PlaySession("bigballs", games_dir=tmp_path / "live", settings=FAST, rng=random.Random(7), setup="given")
    with served(session, games_dir=newbie) as url:
        for width, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
            page = open_page(url, viewport=viewport)
            page.click('[data-tab="games"]')
            rows = page.locator('[data-role="games"] tr[data-game]')
            expect(rows).to_have_count(3, timeout=TIMEOUT)
            card = page.locator('[data-role="stats"]')
            expect(card.locator("tr[data-stats-player]")).to_have_count(3, timeout=TIMEOUT)
            screen = viewport["width"]
            assert page.evaluate("document.documentElement.scrollWidth") <= screen
            for row in range(3):  # every game's actions are on the screen, none scrolled away
                for action in ("[data-open]", "a[download]"):
                    box = rows.nth(row).locator(action).bounding_box()
                    assert box["x"] >= 0 and box["x"] + box["width"] <= screen, (width, action, box)
            # the statistics' table inside its card
            table = card.locator(".stats-table").bounding_box()
            inner = card.evaluate("c => { const s = getComputedStyle(c); const r = c.getBoundingClientRect();"
                                  " return [r.left + parseFloat(s.paddingLeft), r.right - parseFloat(s.paddingRight)]; }")
            assert inner[0] - 0.5 <= table["x"] and table["x"] + table["width"] <= inner[1] + 0.5, (width, table, inner)
            # the computer is a player, in the list and the statistics
            expect(rows.first.locator(".who")).to_have_count(2)
            expect(page.locator('[data-role="games"]')).to_contain_text("computer, level 1")
            expect(card.locator('tr[data-stats-player="computer:1"]')).to_have_count(1)
            computer = card.locator('tr[data-stats-player="computer:1"] td').first
            expect(computer).to_have_text("computer, level 1")
            # each word of it on one line, and every heading whole
            assert computer.evaluate("td => { const r = document.createRange(); const t = td.firstChild;"
                                     " return [0, 10, 16].every((at) => { r.setStart(t, at); r.setEnd(t, t.data.indexOf(' ', at) < 0"
                                     " ? t.data.length : t.data.indexOf(' ', at)); return r.getClientRects().length === 1; }); }"), width
            assert card.locator(".stats-table th").evaluate_all("ths => ths.filter((th) => th.scrollWidth > th.clientWidth)"
                                                               ".map((th) => th.textContent)") == [], width
            # three games: two finished (15 moves and 5), one not
            big = card.locator('[data-stats-game="bigballs"].stats-game')
            expect(big).to_contain_text("3 games: 2 finished, 10 moves on average; 1 unfinished")
            expect(card.locator('[data-month="2026-11"] .month-name')).to_have_text("Nov 2026")
            shot(page, f"past-games-{width}")
            assert not page.errors
