"""The computer's review of a past game in the page, in a real browser against the real server.

A short Big Balls game is journaled in the games folder: Ann (black) against Bob (white), 15
moves; at move 15 Black has rolled 4 with stone 4 on a6 and could take the top hollow a7 and
win, but plays 4 c1-d1 (a blunder), and White resigns. The server (GET api/games/NAME/review) says how the computer sees every move; the page
opened on Past games replays the game and draws under the board a graph of Black's chance after
every move: one point a move and one for the start, the ½ line, the move shown now, the
blunders and mistakes as markers of their own shape and colour that are buttons (a title and an
aria-label say the move, the mark and the loss). A marker chosen by the keyboard or the mouse
shows the position before that move with the better move lit in the board's lights: where to
lift vermillion and blinking, where to put teal, and a line of words says it. The review waits
with "the computer is reviewing…", a failed one says so with a button to ask again, the graph is
drawn again in another language, and it fits a phone.

With REEDBOARD_SCREENSHOTS naming a folder, the review on a desktop and on a phone is written
there (review-desktop.png, review-phone.png).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from babel.messages import pofile

from archive_games import A7_GAME, bigballs, played
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.language.catalogue import locale_dir
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.session.snapshot import PALETTE_HEX

pytestmark = pytest.mark.system

GAME = A7_GAME[:14] + ["4 c1-d1"]  # ... 15. 4 c1-d1 where 4 a6xa7 wins (the blunder), and White resigns
PLIES = len(GAME)
TIMEOUT = 8000          # ms for anything on the page
REVIEW_TIMEOUT = 90000  # ms for the computer's review (worked out in a worker process)
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def pieces_after(plies):
    game = bigballs()
    for move in GAME[:plies]:
        game.play(move)
    return {cell: game.pieces().get(cell) or "" for cell in game.cells}


def percent(share):
    """A share as the page's English writes it (Intl's percent, rounded half up): "38%"."""
    return f"{math.floor(share * 100 + 0.5)}%"


@pytest.fixture
def served_archive(tmp_path):
    """The real server on a free port over a games folder holding the game: (url, journal name,
    the review as the server answers it)."""
    from reedboard.controller.web.background import served

    games = tmp_path / "games"
    path = played(games, bigballs(), GAME, players={"black": "Ann", "white": "Bob"}, result="resign")
    session = PlaySession("bigballs", games_dir=tmp_path / "live", settings=Settings(settle=0.15, grace=0.3),
                          rng=random.Random(7), setup="given")
    with served(session, games_dir=games) as url:
        try:
            with urllib.request.urlopen(f"{url}/api/games/{path.name}/review", timeout=REVIEW_TIMEOUT / 1000) as answer:
                review = json.load(answer)
        except urllib.error.HTTPError as problem:
            if problem.code == 404 and "json" not in (problem.headers.get("Content-Type") or ""):
                pytest.skip("the server has no review yet: GET api/games/NAME/review is no route of it (404 Not Found)")
            raise
        yield url, path.name, review


@contextlib.contextmanager
def page_on(browser, url, viewport, locale="en-GB"):
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(error))
    try:
        page.goto(url)
        yield page
    finally:
        context.close()


def open_replay(page):
    from in_browser import expect

    page.click('[data-tab="games"]')
    game = page.locator('[data-role="games"] tr[data-game]')
    expect(game).to_have_count(1, timeout=TIMEOUT)
    game.locator("[data-open]").click()
    expect(page.locator('[data-role="replay-record"] > li')).to_have_count(PLIES, timeout=TIMEOUT)


def review_shown(page):
    from in_browser import expect

    expect(page.locator('[data-role="review"]')).to_have_attribute("data-state", "done", timeout=REVIEW_TIMEOUT)


def shown_pieces(page):
    return page.locator("#replay-board [data-cell]").evaluate_all(
        "cells => Object.fromEntries(cells.map((c) => [c.dataset.cell, c.dataset.piece]))")


def lights(page):
    """Every lit hollow of the replayed board: its light, whether it blinks, its colour."""
    return page.locator("#replay-board [data-cell]").evaluate_all("""cells => Object.fromEntries(cells
        .filter((c) => c.dataset.light)
        .map((c) => [c.dataset.cell, [c.dataset.light, c.dataset.blink, c.style.getPropertyValue('--light')]]))""")


def graph_ply(page):
    return page.locator('[data-role="review-graph"]').get_attribute("data-ply")


def the_blunder(review):
    """The move the review marks as the worst blunder (the one the test clicks)."""
    blunders = [p for p in review["points"] if p.get("mark") == "blunder"]
    assert blunders, f"the review marks no blunder in a game with a clear one: {review['points']}"
    return max(blunders, key=lambda p: p["loss"])


def better_lights(point):
    """The lights the board shows for a marked move's better move: lift here, put there."""
    lift = set(point["cells"]["from"])
    shown = {cell: ["empty", "1", PALETTE_HEX["empty"]] for cell in lift}
    shown.update({cell: ["dest", "", PALETTE_HEX["dest"]] for cell in point["cells"]["to"] if cell not in lift})
    return shown


def page_words(lang):
    with (Path(locale_dir()) / lang / "LC_MESSAGES" / "page.po").open("rb") as f:
        po = pofile.read_po(f, locale=lang, domain="page")
    return lambda msgid: po.get(msgid).string or msgid


def test_the_review_is_drawn_under_the_replay_and_a_blunder_shows_the_better_move(browser, served_archive):
    from in_browser import expect

    url, name, review = served_archive
    points = review["points"]
    assert [p["ply"] for p in points] == list(range(PLIES + 1))
    assert [p.get("move") for p in points[1:]] == GAME
    assert review["first"] == "black"
    blunder = the_blunder(review)
    marked = {mark: [p["ply"] for p in points if p.get("mark") == mark] for mark in ("blunder", "mistake")}
    folder = os.environ.get("REEDBOARD_SCREENSHOTS")

    with page_on(browser, url, DESKTOP) as page:
        # the review is asked for as the game opens: "reviewing" until the computer answers
        held = []
        page.route("**/api/games/*/review", lambda route: held.append(route))
        open_replay(page)
        card = page.locator('[data-role="review"]')
        expect(card).to_have_attribute("data-state", "waiting", timeout=TIMEOUT)
        expect(page.locator('[data-role="review-status"]')).to_have_text("the computer is reviewing…")
        expect(page.locator('[data-role="review-body"]')).to_be_hidden()
        for _ in range(200):  # the request held on its way to the server
            if held:
                break
            page.wait_for_timeout(10)
        assert len(held) == 1
        held[0].continue_()
        page.unroute("**/api/games/*/review")
        review_shown(page)

        # the graph: a point for the start and one a move, the markers as the review marks them
        graph = page.locator('[data-role="review-graph"]')
        expect(graph.locator(".review-point")).to_have_count(PLIES + 1)
        assert graph.locator(".review-point").evaluate_all("ps => ps.map((p) => Number(p.dataset.ply))") == list(
            range(PLIES + 1))
        expect(graph.locator(".review-half")).to_have_count(1)
        for mark, plies in marked.items():
            markers = graph.locator(f'.review-marker[data-mark="{mark}"]')
            expect(markers).to_have_count(len(plies))
            assert markers.evaluate_all("ms => ms.map((m) => Number(m.dataset.ply))") == plies
        # a blunder's marker is no mistake's: another shape (and colour)
        shapes = {mark: graph.locator(f'.review-marker[data-mark="{mark}"] .shape').first.get_attribute("d")
                  for mark, plies in marked.items() if plies}
        assert len(set(shapes.values())) == len(shapes)
        marker = graph.locator(f'.review-marker[data-ply="{blunder["ply"]}"]')
        said = (f"Blunder at move {blunder['ply']}, {blunder['move']}: it lost {percent(blunder['loss'])} of "
                f"{blunder['mover'].capitalize()}'s chance; better: {blunder['better']}")
        expect(marker).to_have_attribute("aria-label", said)
        expect(marker.locator("title")).to_have_text(said)
        assert marker.get_attribute("role") == "button" and marker.get_attribute("tabindex") == "0"
        legend = page.locator('[data-role="review-legend"]')
        expect(legend).to_contain_text("Black's chance to win")
        expect(legend.locator('[data-legend="blunder"]')).to_have_text(
            f"{len(marked['blunder'])} blunder" + ("s" if len(marked["blunder"]) != 1 else ""))

        # the move shown now follows the buttons, the arrow keys and the slider
        assert graph_ply(page) == str(PLIES)
        page.click('[data-replay="prev"]')
        assert graph_ply(page) == str(PLIES - 1)
        page.keyboard.press("ArrowLeft")
        assert graph_ply(page) == str(PLIES - 2)
        page.locator('[data-role="replay-slider"]').fill("3")
        assert graph_ply(page) == "3"
        # a point clicked: that move
        graph.locator('.review-point[data-ply="5"]').click()
        expect(page.locator('[data-role="replay-ply"]')).to_have_text(f"move 5 of {PLIES}")
        assert graph_ply(page) == "5" and shown_pieces(page) == pieces_after(5)

        # the blunder chosen by the keyboard: the position before it, the better move lit
        marker.focus()
        page.keyboard.press("Enter")
        before = blunder["ply"] - 1
        expect(page.locator('[data-role="replay-ply"]')).to_have_text(f"move {before} of {PLIES}")
        assert shown_pieces(page) == pieces_after(before)
        assert lights(page) == better_lights(blunder)
        expect(marker).to_have_attribute("aria-pressed", "true")
        assert graph_ply(page) == str(before)
        words = page.locator('[data-role="review-better"]')
        expect(words).to_be_visible()
        expect(words.locator(".review-words")).to_have_text(
            f"Better: {blunder['better']} — the move played, {blunder['move']}, lost {percent(blunder['loss'])} of "
            f"{blunder['mover'].capitalize()}'s chance")
        assert words.locator(".move-name").all_inner_texts() == [blunder["better"], blunder["move"]]
        expect(words).to_contain_text("lift here")
        expect(words).to_contain_text("put here")

        # stepping on: the move as played, the better move's lights gone
        page.click('[data-replay="next"]')
        expect(words).to_be_hidden()
        assert all(light[0] == "last" for light in lights(page).values())
        expect(marker).to_have_attribute("aria-pressed", "false")
        # and the mouse chooses it again
        marker.click()
        expect(page.locator('[data-role="replay-ply"]')).to_have_text(f"move {before} of {PLIES}")
        assert lights(page) == better_lights(blunder)
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.wait_for_timeout(200)  # the blinking lights at their brightest
            page.locator('[data-role="replay"]').screenshot(path=str(Path(folder) / "review-desktop.png"))

        # in German: the graph drawn again in its words, the move chosen kept
        de = page_words("de")
        page.locator('[data-role="language"]').select_option("de")
        expect(page.locator("html")).to_have_attribute("lang", "de", timeout=TIMEOUT)
        expect(legend).to_contain_text(de("{colour}'s chance to win").format(colour="Schwarz"))
        expect(graph.locator(".review-point")).to_have_count(PLIES + 1)
        expect(graph.locator(f'.review-marker[data-ply="{blunder["ply"]}"]')).to_have_attribute(
            "aria-label", re.compile("^" + re.escape(de("Blunder at move {ply}, {move}: it lost {loss} of {player}'s chance")
                                                     .split("{")[0])))
        assert graph.locator(".review-axis").first.text_content() == "0\u00a0%"  # German writes 0 %
        assert lights(page) == better_lights(blunder)
        assert not page.errors

    with page_on(browser, url, PHONE) as page:
        open_replay(page)
        review_shown(page)
        graph = page.locator('[data-role="review-graph"]')
        expect(graph.locator(".review-point")).to_have_count(PLIES + 1)
        box = graph.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        graph.locator(f'.review-marker[data-ply="{blunder["ply"]}"]').click()
        expect(page.locator('[data-role="replay-ply"]')).to_have_text(f"move {blunder['ply'] - 1} of {PLIES}")
        assert lights(page) == better_lights(blunder)
        if folder:
            page.wait_for_timeout(200)
            page.locator('[data-role="replay"]').screenshot(path=str(Path(folder) / "review-phone.png"))
        assert not page.errors


def test_a_review_that_fails_says_so_and_is_asked_for_again(browser, served_archive):
    from in_browser import expect

    url, name, review = served_archive
    with page_on(browser, url, DESKTOP) as page:
        page.route("**/api/games/*/review", lambda route: route.abort())  # the server out of reach
        open_replay(page)
        card = page.locator('[data-role="review"]')
        expect(card).to_have_attribute("data-state", "failed", timeout=TIMEOUT)
        expect(page.locator('[data-role="review-status"]')).to_have_text("the computer could not review this game")
        expect(page.locator('[data-role="review-body"]')).to_be_hidden()
        again = page.locator('[data-action="review"]')
        expect(again).to_be_visible()
        page.unroute("**/api/games/*/review")
        again.click()
        review_shown(page)
        expect(again).to_be_hidden()
        expect(page.locator(".review-point")).to_have_count(PLIES + 1)
        assert not page.errors
