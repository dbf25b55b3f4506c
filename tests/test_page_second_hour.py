"""What a new player meets in the second hour on the page, in a real browser, in the three games
and the three languages, at a desktop's and a phone's width: the first-game guide rolls a big ball
as the rules do, the board's rim names sit clear of its hollows and troughs (the files of Big
Balls under their hollows, its top hollow named the goal), stones being identified show no
number and their light says what it means then, the rules list each game's own lights by their
looks, a hint goes with its position, the statistics say wins, draws and losses, the replay opens
in view, a phone's hollows can be made big enough for a finger, and a new game asks before it
ends the one being played and starts with two players at the board.

Set REEDBOARD_SHOTS to a folder to keep a screenshot of each.
"""

import random
import re

import pytest

from reedboard.controller.core.computer import Computer
from reedboard.controller.language.catalogue import translations
from reedboard.controller.opponent.worker import Thinker
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.web.background import served

from archive_games import A7_GAME, bigballs, played
from in_browser import DESKTOP, FAST, PHONE, TIMEOUT, cell, click, expect, shot, wait_for_prompt, wait_until

pytestmark = pytest.mark.system

WIDTHS = (("desktop", DESKTOP), ("phone", PHONE))


def in_language(lang):
    """A page that starts in `lang` (as if the player had chosen it before)."""
    return f"localStorage.setItem('reedboard.language', '{lang}');"


def choose_language(page, lang):
    page.locator('[data-role="language"]').select_option(lang)
    page.wait_for_function(f"document.documentElement.lang === '{lang}'", timeout=TIMEOUT)


# --- the first-game guide: a big ball rolls down, never sideways -------------------------------------
# the guide's line about the big balls in each language: what it says (down to the left or to the
# right, as the rules do), and what it must not (sideways)
BIG_BALL_LINE = {
    "en": (("A big ball rolls one hollow down, to the left or to the right",), "sideways"),
    "de": (("links unten", "große Kugel", "rechts unten"), "seitwärts"),
    "ro": (("în jos spre stânga", "bilă mare", "spre dreapta"), "lateral"),
}


def test_the_guide_rolls_a_big_ball_down_to_the_left_or_right_in_every_language(open_page, tmp_path):
    session = PlaySession("bigballs", games_dir=tmp_path, settings=FAST, setup="given")
    with served(session) as url:
        page = open_page(url, session=session)
        hands = page.locator('[data-role="guide-hands"]')
        for lang, (said, wrong) in BIG_BALL_LINE.items():
            if lang != "en":
                choose_language(page, lang)
            expect(hands).to_contain_text(said[0], timeout=TIMEOUT)
            line = next(point for point in hands.locator("li").all_inner_texts() if said[0] in point)
            assert all(words in line for words in said) and wrong not in line, (lang, line)
        assert not page.errors


# --- the rim: names clear of the hollows and troughs --------------------------------------------------
# Every rim name's box (and the goal's), in the board's own units, against each hollow's ring (its
# radius and half its stroke), each trough (half its stroke around its line) and each trough's
# value badge; and where a name overlaps, which.
CLASHES = """svg => {
  const boxes = [...svg.querySelectorAll('.rim-label, .goal-label')].map((t) => {
    const b = t.getBBox(); return { name: t.textContent, x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height };
  });
  const gap = (box, x, y) => Math.hypot(Math.max(box.x0 - x, 0, x - box.x1), Math.max(box.y0 - y, 0, y - box.y1));
  const found = [];
  for (const g of svg.querySelectorAll('[data-cell]')) {
    const m = g.transform.baseVal.consolidate().matrix, ring = g.querySelector('.ring');
    const r = ring.r.baseVal.value + parseFloat(getComputedStyle(ring).strokeWidth) / 2;
    for (const box of boxes) if (gap(box, m.e, m.f) < r) found.push(`${box.name} on hollow ${g.dataset.cell}`);
  }
  for (const badge of svg.querySelectorAll('.value-badge')) {
    const r = badge.r.baseVal.value, x = badge.cx.baseVal.value, y = badge.cy.baseVal.value;
    for (const box of boxes) if (gap(box, x, y) < r) found.push(`${box.name} on a value`);
  }
  for (const trough of svg.querySelectorAll('.trough')) {
    const half = parseFloat(getComputedStyle(trough).strokeWidth) / 2;
    const points = [...trough.points].map((p) => [p.x, p.y]);
    for (let i = 0; i + 1 < points.length; i++) {
      const [[ax, ay], [bx, by]] = [points[i], points[i + 1]];
      for (let s = 0; s <= 1; s += 1 / 64) {
        for (const box of boxes) {
          if (gap(box, ax + (bx - ax) * s, ay + (by - ay) * s) < half) found.push(`${box.name} on a trough`);
        }
      }
    }
  }
  return [...new Set(found)];
}"""


def rim(page):
    return page.locator("#board [data-rim]").evaluate_all("ls => ls.map((l) => l.textContent)")


def centre_x(locator):
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2


def test_the_rim_names_stand_clear_of_hollows_and_troughs_and_big_balls_files_under_their_hollows(open_page, tmp_path):
    for game in ("bigballs", "offboard", "abalone"):
        session = PlaySession(game, games_dir=tmp_path / game, settings=FAST, setup="given")
        with served(session) as url:
            for width, viewport in WIDTHS:
                page = open_page(url, viewport=viewport, session=session)
                expect(page.locator("#board [data-rim]").first).to_be_attached(timeout=TIMEOUT)
                assert page.locator("#board").evaluate(CLASHES) == [], (game, width)
                if game == "bigballs":
                    # a letter for every file, g too, each under the hollow of its first row
                    assert sorted(n for n in rim(page) if n.isalpha()) == list("abcdefg")
                    assert sorted(n for n in rim(page) if n.isdigit()) == list("1234567")
                    for file in "abcdefg":
                        letter, hollow = page.locator(f'#board [data-rim="{file}"]'), cell(page, f"{file}1")
                        assert abs(centre_x(letter) - centre_x(hollow)) <= 3, (width, file)
                        assert letter.bounding_box()["y"] > hollow.bounding_box()["y"]
                    # the top hollow is named for what it is, over it
                    goal = page.locator("#board .goal-label")
                    expect(goal).to_have_text("goal")
                    assert abs(centre_x(goal) - centre_x(cell(page, "a7"))) <= 3
                    choose_language(page, "de")
                    expect(goal).to_have_text("Ziel")
                shot(page, f"rim-{game}-{width}")
                assert not page.errors


# --- identifying the stones: a "?" and a light that says so ---------------------------------------------
START = {"black": ("a1", "b1", "c1", "a2", "b2", "a3"), "white": ("e1", "f1", "g1", "e2", "f2", "e3")}


def test_stones_being_identified_show_no_number_and_their_light_says_what_it_asks(open_page, tmp_path):
    session = PlaySession("bigballs", games_dir=tmp_path, settings=FAST, setup="identify", rng=random.Random(7))
    with served(session) as url:
        for width, viewport in WIDTHS:
            page = open_page(url, viewport=viewport, session=session)
            wait_for_prompt(page, "identify")
            expect(page.locator('#board [data-piece="B?"]')).to_have_count(6, timeout=TIMEOUT)
            # every stone drawn shows "?" only: no number the simulated table made up
            assert set(page.locator("#board .pc .num").evaluate_all("ns => ns.map((n) => n.textContent)")) == {"?"}, width
            expect(page.locator("#board .pc.pending")).to_have_count(0)
            now = page.locator('[data-light-now="movable"]')
            expect(now).to_contain_text("number the board does not know yet", timeout=TIMEOUT)
            expect(now).not_to_contain_text("the die chose")
            shot(page, f"identify-{width}")
        # a stone lifted is a "?" in the hand too; put back, it is the stone asked for, whichever
        # the simulated table had called it
        asked = session.referee.prompt().data
        letter = asked["player"][0].upper()
        code = f"{letter}{asked['number']}"
        hollow = next(c for c in START[asked["player"]] if session.table.physical.get(c) != code)
        click(page, hollow)
        expect(page.locator('[data-role="hand"] [data-piece]')).to_have_attribute("data-piece", f"{letter}?",
                                                                                  timeout=TIMEOUT)
        assert page.locator('[data-role="hand"] .num').evaluate_all("ns => ns.map((n) => n.textContent)") == ["?"]
        click(page, hollow)
        expect(cell(page, hollow)).to_have_attribute("data-piece", code, timeout=TIMEOUT)
        expect(cell(page, hollow)).to_have_attribute("data-sim", code)  # the stone lifted is that stone
        expect(page.locator("#board .pc.pending, #board .pc.lifted")).to_have_count(0)
        choose_language(page, "de")
        expect(page.locator('[data-light-now="movable"]')).not_to_contain_text("does not know", timeout=TIMEOUT)
        assert not page.errors


# --- the rules' lights: each game's own, named in words ---------------------------------------------------
CODES = {"fill", "empty", "choose", "place", "dest", "to", "movable", "last", "winner", "draw"}


def test_the_rules_list_each_games_own_lights_by_their_looks_in_every_language(open_page, tmp_path):
    session = PlaySession("abalone", games_dir=tmp_path, settings=FAST)
    with served(session) as url:
        for width, viewport in WIDTHS:
            page = open_page(url, viewport=viewport, init_script=in_language("en" if width == "desktop" else "ro"))
            page.click('[data-tab="rules"]')
            for lang in (("en", "de") if width == "desktop" else ("ro",)):
                if lang == "de":
                    choose_language(page, "de")
                for game in ("abalone", "offboard", "bigballs"):
                    page.click(f'[data-rules-game="{game}"]')
                    expect(page.locator('[data-role="rules"]')).to_have_attribute("data-game", game, timeout=TIMEOUT)
                    rows = page.locator("[data-light-name]")
                    names = rows.evaluate_all("rows => rows.map((r) => r.dataset.lightName)")
                    own = {"place", "movable"} <= set(names)
                    assert own == (game == "bigballs"), (game, names)
                    # each named by its look, in words: never the board's own name for it
                    heads = page.locator(".light-row .light-name").all_inner_texts()
                    assert len(heads) == len(names) and not CODES & {h.strip() for h in heads}, (lang, game, heads)
                    assert not any(re.search(r"\b(fill|empty|choose|dest|movable)\b", h) for h in heads), heads
                    if game == "abalone" and lang == "en":  # nothing of Big Balls': no die, no box, no capture
                        legend = page.locator('[data-role="lights"]').inner_text()
                        for word in ("box", "die", "capture", "stone"):
                            assert not re.search(rf"\b{word}", legend), word
                    if game == "abalone":
                        shot(page, f"rules-lights-abalone-{lang}-{width}")
            assert not page.errors


# --- a hint goes with its position ------------------------------------------------------------------
def lit(page, light):
    return set(page.locator(f'#board [data-cell][data-light="{light}"]').evaluate_all("cs => cs.map((c) => c.dataset.cell)"))


def ask_hint(page):
    page.click('[data-action="hint"]')
    expect(page.locator('[data-role="status"]')).to_contain_text("(the hint: ", timeout=TIMEOUT)


def test_a_hint_is_gone_after_a_takeback_and_while_the_board_is_wrong(open_page, tmp_path):
    session = PlaySession("offboard", games_dir=tmp_path, settings=FAST)
    with served(session) as url:
        page = open_page(url, viewport=PHONE, session=session)
        wait_for_prompt(page, "move")
        status, record = page.locator('[data-role="status"]'), page.locator('[data-role="record"] > li')
        ask_hint(page)
        game = session.referee.game
        hint = session.referee.hint_shown()
        step = next(m for m in game.turn_moves() if m != hint and len(game.footprint(m).empties) == 1
                    and len(game.footprint(m).fills) == 1 and not game.footprint(m).passes)
        a, b = next(iter(game.footprint(step).empties)), next(iter(game.footprint(step).fills))
        click(page, a)
        click(page, b)
        expect(record).to_have_count(1, timeout=TIMEOUT)
        click(page, b)
        click(page, a)  # taken back: the position the hint was for
        expect(record).to_have_count(0, timeout=TIMEOUT)
        wait_for_prompt(page, "move")
        expect(status).not_to_contain_text("hint")
        assert lit(page, "dest") == lit(page, "empty") == set()
        shot(page, "hint-after-takeback-phone")
        ask_hint(page)
        far = next(c for c in game.cells if c not in game.occupied() and c[0] in "EF")
        click(page, a)
        click(page, far)  # no move: the board goes wrong
        wait_for_prompt(page, "put_back")
        expect(status).not_to_contain_text("hint")
        assert lit(page, "fill") == {a} and lit(page, "empty") == {far} and lit(page, "dest") == set()
        shot(page, "hint-board-wrong-phone")
        assert not page.errors


# --- the statistics say wins, draws and losses -----------------------------------------------------------
def test_the_first_players_results_are_said_in_words_with_a_legend(open_page, tmp_path):
    games = tmp_path / "games"
    played(games, bigballs(), A7_GAME, players={"black": "Ann", "white": "Bob"})   # black, first, wins
    played(games, bigballs(), A7_GAME[:4], players={"black": "Ann", "white": "Bob"}, result="resign", day=1)  # black resigns
    session = PlaySession("bigballs", games_dir=tmp_path / "live", settings=FAST, setup="given")
    # "1 won · 0 drawn · 1 lost", in each language's words
    words = {lang: " · ".join(translations("page", lang).ngettext(f"{{n}} {part}", f"{{n}} {part}", n).format(n=n)
                              for part, n in (("won", 1), ("drawn", 0), ("lost", 1)))
             for lang in ("en", "de", "ro")}
    with served(session, games_dir=games) as url:
        for width, viewport in WIDTHS:
            page = open_page(url, viewport=viewport)
            page.click('[data-tab="games"]')
            line = page.locator('[data-stats-game="bigballs"] [data-stats="first"]')
            for lang, said in words.items():
                if lang != "en":
                    choose_language(page, lang)
                expect(line).to_contain_text(said, timeout=TIMEOUT)
                # the words under the bar are its legend: each part's colour before its count
                keys = line.locator(".legend .key")
                assert keys.evaluate_all("ks => ks.map((k) => k.dataset.part)") == ["wins", "draws", "losses"]
                colours = keys.evaluate_all("ks => ks.map((k) => getComputedStyle(k).backgroundColor)")
                bar = line.locator(".bar rect[data-part]").evaluate_all(
                    "rs => Object.fromEntries(rs.map((r) => [r.dataset.part, getComputedStyle(r).fill]))")
                assert bar and all(dict(zip(["wins", "draws", "losses"], colours))[part] == fill
                                   for part, fill in bar.items()), (colours, bar)
            shot(page, f"statistics-{width}")
            assert not page.errors


# --- a phone: the replay in view, hollows big enough for a finger ----------------------------------------
def test_on_a_phone_the_replay_opens_in_view_and_the_board_zooms_to_finger_sized_hollows(open_page, tmp_path):
    games = tmp_path / "games"
    for day in range(8):  # a list long enough to push the replay far below its buttons
        played(games, bigballs(), A7_GAME[:3 + day], players={"black": "Ann", "white": "Bob"}, day=day)
    session = PlaySession("offboard", games_dir=tmp_path / "live", settings=FAST, setup="given")
    with served(session, games_dir=games) as url:
        for width, viewport in WIDTHS:
            page = open_page(url, viewport=viewport, session=session)
            expect(cell(page, "B2")).to_have_attribute("data-piece", "R", timeout=TIMEOUT)
            hits = lambda: page.locator("#board .hit").evaluate_all(  # noqa: E731
                "hs => hs.map((h) => { const r = h.getBoundingClientRect(); return Math.min(r.width, r.height); })")
            zoom = page.locator('[data-action="zoom"]')
            if width == "desktop":
                expect(zoom).to_be_hidden()  # big enough as they are
                assert min(hits()) >= 44
            else:
                assert min(hits()) < 44
                zoom.click()
                expect(zoom).to_have_attribute("aria-pressed", "true")
                assert min(hits()) >= 44, min(hits())
                assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
                click(page, "B2")  # the zoomed board is played as before
                expect(page.locator('[data-role="hand"] [data-piece="R"]')).to_have_count(1, timeout=TIMEOUT)
                click(page, "B2")
                shot(page, "zoomed-phone")
                zoom.click()
                expect(zoom).to_have_attribute("aria-pressed", "false")
                assert min(hits()) < 44
            page.click('[data-tab="games"]')
            rows = page.locator('[data-role="games"] tr[data-game]')
            expect(rows).to_have_count(8, timeout=TIMEOUT)
            expect(page.locator('[data-role="stats-games"] .stats-game')).to_have_count(1, timeout=TIMEOUT)
            rows.last.locator("[data-open]").click()
            # the moment the replay shows, its top is on the screen (no smooth scroll to wait for)
            top = page.evaluate("""() => new Promise((resolve) => {
                const replay = document.querySelector('[data-role=replay]');
                const title = document.querySelector('[data-role=replay-title]');
                const look = () => (!replay.hidden && title.textContent
                  ? resolve(replay.getBoundingClientRect().top) : requestAnimationFrame(look));
                look();
            })""")
            assert -1 <= top < viewport["height"] / 2, (width, top)
            shot(page, f"replay-opened-{width}")
            page.click('[data-action="replay-close"]')
            expect(page.locator('[data-role="replay"]')).to_be_hidden()
            assert rows.last.locator("[data-open]").evaluate("b => b === document.activeElement")
            assert not page.errors


# --- a new game: asked before the game being played ends, two players at the board -------------------
def test_a_new_game_asks_before_ending_the_game_in_progress_and_starts_with_two_players(open_page, tmp_path):
    session = PlaySession("offboard", games_dir=tmp_path, settings=FAST, players={"red": "Ann"},
                          computer=Computer("yellow", 8), thinker=Thinker(seconds=0.2))
    with served(session) as url:
        for width, viewport in WIDTHS:
            page = open_page(url, viewport=viewport, session=session)
            expect(page.locator('[data-role="players"]')).to_contain_text("the computer, level 8", timeout=TIMEOUT)
            page.locator(".new-game summary").click()
            form = page.locator('[data-role="new-game"]')
            # the last game's computer is not carried over unseen: two players at the board
            expect(form.locator('input[name="computer"]')).not_to_be_checked()
            expect(form.locator('select[name="level"]')).to_have_value("5")
            expect(form.locator('input[data-name="red"]')).to_have_value("Ann")  # the names, in sight
            shot(page, f"new-game-form-{width}")
        first = session.referee
        game = first.game
        step = next(m for m in game.turn_moves() if len(game.footprint(m).empties) == 1 and not game.footprint(m).passes)
        click(page, next(iter(game.footprint(step).empties)))  # a move: the game is in progress
        click(page, next(iter(game.footprint(step).fills)))
        expect(page.locator('[data-role="record"] > li')).to_have_count(1, timeout=TIMEOUT)
        asked, sent = [], []
        page.on("request", lambda request: sent.append(request.url) if request.url.endswith("/api/new") else None)
        page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
        page.click('[data-action="new"]')
        wait_until(lambda: asked, "the question before the game in progress ends")
        assert "game in progress" in asked[0]
        page.evaluate("0")  # the click's handler has run to its end: a new game would have been asked for
        assert sent == [] and session.referee is first  # not ended
        page.once("dialog", lambda dialog: dialog.accept())
        page.click('[data-action="new"]')
        wait_until(lambda: session.referee is not first, "the new game")
        assert session.referee.computer is None
        assert not page.errors


# --- the levels: a game's own, 1 to its strongest --------------------------------------------------
def test_the_level_list_is_the_chosen_games_own(open_page, tmp_path):
    """Each game offers its own levels (Big Balls' ladder ends at 8, Off Board's at 12, Abalone's
    at 13): the list follows the game chosen, each level with its rating, and a level chosen above
    that game's strongest becomes it."""
    from reedboard.controller.games import top_level

    session = PlaySession("offboard", games_dir=tmp_path, settings=FAST)
    with served(session) as url:
        page = open_page(url, session=session)
        page.locator(".new-game summary").click()
        form = page.locator('[data-role="new-game"]')
        levels = form.locator('select[name="level"] option')
        expect(levels).to_have_count(top_level("offboard"), timeout=TIMEOUT)
        form.locator('input[name="computer"]').check()
        form.locator('select[name="level"]').select_option(str(top_level("offboard")))
        form.locator('input[name="game"][value="bigballs"]').check()
        expect(levels).to_have_count(top_level("bigballs"), timeout=TIMEOUT)
        expect(form.locator('select[name="level"]')).to_have_value(str(top_level("bigballs")))
        assert levels.last.inner_text().startswith(str(top_level("bigballs")))
        form.locator('input[name="game"][value="abalone"]').check()
        expect(levels).to_have_count(top_level("abalone"), timeout=TIMEOUT)
        assert levels.last.inner_text().startswith(f"{top_level('abalone')} — about")  # its rating too
        form.locator('select[name="level"]').select_option(str(top_level("abalone")))
        shot(page, "new-game-abalone-levels")
        assert not page.errors
