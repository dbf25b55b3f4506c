"""A board seated by the tournament's pairing says so on its page (a real browser: Debian's
chromium through Playwright), in English, German and Romanian: beside the turn, the tournament
with its round and board number and each colour's player; with the set-up prompt, who plays
which colour at that round and board. A board with no pairing says nothing of a tournament."""

import pytest

from in_browser import DESKTOP, expect, shot
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.web.background import served

pytestmark = pytest.mark.system

PAIRING = {"event": "Thursday club", "round": 3, "number": 5, "text": "Thursday club, round 3, board 5",
           "game": "bigballs", "clock": None, "players": {"black": "Ann Lee", "white": "Bo Chen"}}
WORDS = {  # the occasion beside the turn, the seating with the set-up prompt
    "en": ("Thursday club, round 3, board 5", "Round 3, board 5: Ann Lee plays black, Bo Chen plays white."),
    "de": ("Thursday club, Runde 3, Brett 5", "Runde 3, Brett 5: Ann Lee spielt Schwarz, Bo Chen spielt Weiß."),
    "ro": ("Thursday club, runda 3, tabla 5", "Runda 3, tabla 5: Ann Lee joacă cu Negru, Bo Chen joacă cu Alb."),
}


@pytest.mark.parametrize("lang", ["en", "de", "ro"])
def test_the_board_s_page_names_the_round_board_and_who_plays_which_colour(browser, tmp_path, lang):
    session = PlaySession("bigballs", games_dir=tmp_path)
    session.pairing = {"event": PAIRING["event"], "round": 3, "table": 5, "players": PAIRING["players"]}
    session.players = dict(PAIRING["players"])
    with served(session) as url:
        context = browser.new_context(viewport=DESKTOP, locale=lang, extra_http_headers={"Accept-Language": lang})
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(error))
        page.goto(url)
        occasion, seating = WORDS[lang]
        expect(page.locator("[data-role=occasion]")).to_have_text(occasion)
        expect(page.locator("[data-role=players]")).to_contain_text("Ann Lee")
        expect(page.locator("[data-role=seating]")).to_have_text(seating)
        expect(page.locator("[data-role=seating]")).to_be_visible()
        expect(page.locator("[data-role=status]")).not_to_be_empty()  # the set-up prompt itself, below
        shot(page, f"tournament-board-{lang}")
        assert not errors, errors
        context.close()


def test_a_board_without_a_pairing_says_nothing_of_a_tournament(browser, tmp_path):
    session = PlaySession("bigballs", games_dir=tmp_path)
    with served(session) as url:
        context = browser.new_context(viewport=DESKTOP, locale="en")
        page = context.new_page()
        page.goto(url)
        expect(page.locator("[data-role=status]")).not_to_be_empty()
        expect(page.locator("[data-role=occasion]")).to_have_count(0)
        expect(page.locator("[data-role=seating]")).to_be_hidden()
        context.close()
