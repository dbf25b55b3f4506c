"""Pages in three languages watching one game in a real browser (Debian's chromium, on the real
server on 127.0.0.1): each page's WebSocket brings the board once and then only what changes,
with the board's words in that page's language; a page that changes language gets the words in
the new one at once, without reconnecting; a new game of another kind is drawn from the board it
brings. With REEDBOARD_SHOTS naming a folder, the pages are written there as pictures, on a
desktop and on a phone."""

import json
from pathlib import Path

import pytest
from babel.messages import pofile

from reedboard.controller.games import BigBalls, OffBoard
from reedboard.controller.language.catalogue import locale_dir
from reedboard.controller.session.play_session import PlaySession, ScriptedDie
from reedboard.controller.web.background import served
from reedboard.controller.web.page_messages import FIXED

from in_browser import DESKTOP, FAST, PHONE, TIMEOUT, cell, click, expect, shot, wait_for_prompt

pytestmark = pytest.mark.system

LOCALES = {"en": "en-GB", "de": "de-DE", "ro": "ro-RO"}


def play_words(lang):
    """The board's "play" catalogue in `lang`: English is the words as written."""
    if lang == "en":
        return lambda text: text
    with (Path(locale_dir()) / lang / "LC_MESSAGES" / "play.po").open("rb") as f:
        catalogue = pofile.read_po(f, locale=lang, domain="play")
    return lambda text: catalogue[text].string or text


def roll_line(lang, player):
    play = play_words(lang)
    return play("{player}: roll the die, or move a big ball").format(player=play(player))


def open_watching(browser, url, session, lang, viewport=DESKTOP):
    """A page in a browser speaking `lang`; its WebSockets and the messages each received."""
    context = browser.new_context(locale=LOCALES[lang], viewport=viewport)
    page = context.new_page()
    page.errors, page.sockets = [], []
    page.on("pageerror", lambda error: page.errors.append(error))

    def opened(ws):
        frames = []
        page.sockets.append(frames)
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", opened)
    page.session = session
    page.goto(url)
    return context, page


def status(page):
    return page.locator('[data-role="status"]')


def test_pages_in_three_languages_each_get_the_board_once_and_their_own_words(browser, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([3, 1]))
    with served(session) as url:
        opened = [open_watching(browser, url, session, lang) for lang in ("en", "de", "ro")]
        pages = dict(zip(("en", "de", "ro"), (page for _, page in opened)))
        try:
            for lang, page in pages.items():
                wait_for_prompt(page, "roll")
                expect(status(page)).to_have_text(roll_line(lang, "Black"), timeout=TIMEOUT)

            # black rolls and moves on the first page; every page shows it in its own words
            owner = pages["en"]
            owner.click('[data-action="die"]')
            expect(owner.locator('[data-role="die"]')).to_have_text("3", timeout=TIMEOUT)
            click(owner, "c1")
            click(owner, "d1")
            for lang, page in pages.items():
                expect(page.locator('[data-role="record"] > li')).to_have_count(1, timeout=TIMEOUT)
                expect(status(page)).to_have_text(roll_line(lang, "White"), timeout=TIMEOUT)
                expect(cell(page, "d1")).to_have_attribute("data-piece", "B3")
                [frames] = page.sockets
                assert set(FIXED) <= set(frames[0]) and len(frames) > 3
                assert not any(set(FIXED) & set(frame) for frame in frames[1:])  # the board once
                assert all(set(frame["words"]) == {lang} for frame in frames)  # its own words only
                shot(page, f"watchers-{lang}-desktop")

            # the German page changes to Romanian: the words come again, on the same connection
            german = pages["de"]
            [frames] = german.sockets
            before = len(frames)
            german.locator('[data-role="language"]').select_option("ro")
            expect(status(german)).to_have_text(roll_line("ro", "White"), timeout=TIMEOUT)
            assert len(german.sockets) == 1
            switched = frames[before:]
            assert switched and all(set(frame["words"]) == {"ro"} for frame in switched)
            assert set(switched[0]) & set(FIXED) == {"games"}  # the catalogue in Romanian, not the board

            # white's move on the owner's page: the switched page follows it in Romanian
            owner.click('[data-action="die"]')
            expect(owner.locator('[data-role="die"]')).to_have_text("1", timeout=TIMEOUT)
            expect(german.locator('[data-role="die"]')).to_have_text("1", timeout=TIMEOUT)
            play = play_words("ro")
            expect(status(german)).to_contain_text(play("White"), timeout=TIMEOUT)
            assert all(set(frame["words"]) == {"ro"} for frame in frames[before:])
            for page in pages.values():
                assert not page.errors
        finally:
            for context, _ in opened:
                context.close()


def test_a_new_game_of_another_kind_is_drawn_from_the_board_it_brings(browser, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([3]))
    with served(session) as url:
        opened = [open_watching(browser, url, session, "de"),
                  open_watching(browser, url, session, "ro", viewport=PHONE)]
        try:
            for _, page in opened:
                wait_for_prompt(page, "roll")
                expect(page.locator("[data-cell]")).to_have_count(28, timeout=TIMEOUT)
            owner = opened[0][1]
            answer = owner.evaluate("""() => fetch('api/new', {method: 'POST',
                headers: {'Content-Type': 'application/json', 'Accept-Language': 'de'},
                body: JSON.stringify({game: 'offboard'})}).then((r) => r.status)""")
            assert answer == 200
            for lang, (_, page) in zip(("de", "ro"), opened):
                wait_for_prompt(page, "move")
                expect(page.locator("[data-cell]")).to_have_count(len(OffBoard().cells), timeout=TIMEOUT)
                expect(cell(page, "S3")).to_have_count(1)
                expect(page.locator("body")).to_have_attribute("data-game", "offboard")
                frames = page.sockets[-1]
                with_board = [frame for frame in frames if "geometry" in frame]
                assert len(with_board) == 2 and with_board[-1]["game"] == "offboard"
                assert all(set(frame["words"]) == {lang} for frame in frames if "words" in frame)
                assert not page.errors
            phone = opened[1][1]
            assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            shot(opened[0][1], "watchers-offboard-de-desktop")
            shot(phone, "watchers-offboard-ro-phone")
        finally:
            for context, _ in opened:
                context.close()
