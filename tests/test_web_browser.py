"""The web view in a real browser: games played by clicks on the simulated board.

Playwright for Python drives Debian's chromium (/usr/bin/chromium; `playwright install`
is never used) against a real uvicorn server on 127.0.0.1 and a free port. The tests check
what the page shows through its stable hooks: data-cell with data-light and data-piece,
data-action="die"/"ok", data-role="die"/"record"/"message". They print how long a click on
the simulated board takes to show on the page (not asserted).
"""

import random
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from babel.messages import pofile

from reedboard.controller.core.clock import ClockSettings
from reedboard.controller.games import GAMES, BigBalls, OffBoard
from reedboard.controller.games.offboard_layout import parse_layout
from reedboard.controller.language.catalogue import locale_dir
from reedboard.controller.session.play_session import PlaySession, ScriptedDie
from reedboard.controller.core.signals import PALETTE
from reedboard.controller.web.background import served
from reedboard.controller.web.rules import rules_page

from in_browser import FAST, TIMEOUT, cell, click, expect, record, timed_click, wait_for_prompt

pytestmark = pytest.mark.system

with (Path(locale_dir()) / "de" / "LC_MESSAGES" / "page.po").open("rb") as _po:
    PAGE_DE = pofile.read_po(_po, locale="de", domain="page")  # the page's words in German


def test_big_balls_roll_move_illegal_move_and_capture_by_clicks(open_page, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([3, 1]))
    with served(session) as url:
        page = open_page(url, session=session)
        wait_for_prompt(page, "roll")
        assert cell(page, "a1").get_attribute("data-piece") == "B1"
        assert cell(page, "a7").get_attribute("data-piece") == "ball"
        assert cell(page, "d1").get_attribute("data-piece") == ""
        assert cell(page, "c1").get_attribute("data-light") == ""
        expect(page.locator('[data-role="message"]')).to_contain_text("Black: roll the die")

        # the roll: the die display, the pips, and the stone it chose lit
        page.click('[data-action="die"]')
        die = page.locator('[data-role="die"]')
        expect(die).to_have_attribute("data-face", "value", timeout=TIMEOUT)
        expect(die).to_have_text("3")
        assert page.locator('[data-role="pips"]').get_attribute("data-pips") == "3"
        expect(cell(page, "c1")).to_have_attribute("data-light", "movable")

        # a stone move by clicks; the time from the frame to the page
        lift_ms, _ = timed_click(page, "c1", "true")
        place_ms, move_ms = timed_click(
            page, "d1", "document.querySelectorAll('[data-role=record] > li').length === 1")
        assert record(page) == ["3 c1-d1"]
        expect(cell(page, "c1")).to_have_attribute("data-light", "last")
        assert cell(page, "d1").get_attribute("data-piece") == "B3"
        expect(die).to_have_text("")
        print(f"\nclick -> page shows the piece lifted: {lift_ms:.1f} ms; put down: {place_ms:.1f} ms;"
              f" -> the move in the record and the lights (20 ms debounce included): {move_ms:.1f} ms")

        # White rolls 1 and moves the wrong stone: blue / vermillion lights and the die's error
        page.click('[data-action="die"]')
        expect(die).to_have_text("1", timeout=TIMEOUT)
        click(page, "e3")
        click(page, "d4")
        expect(cell(page, "e3")).to_have_attribute("data-light", "fill", timeout=TIMEOUT)
        expect(cell(page, "d4")).to_have_attribute("data-light", "empty")
        expect(die).to_have_attribute("data-face", "error")
        message = page.locator('[data-role="message"]')
        wait_for_prompt(page, "put_back")
        expect(message).to_have_attribute("data-kind", "illegal")  # the message's look, from the prompt
        expect(message).to_contain_text("e3")
        assert cell(page, "e3").get_attribute("data-piece") == "W6"  # the controller's belief stands
        # ... and its correction
        click(page, "d4")
        click(page, "e3")
        expect(cell(page, "e3")).to_have_attribute("data-light", "", timeout=TIMEOUT)
        expect(die).to_have_text("1")
        wait_for_prompt(page, "move")
        expect(message).to_have_attribute("data-kind", "")

        # the capture: the captured stone lifted and put in the box, the capturer moved onto it
        click(page, "d1")
        expect(page.locator('[data-role="hand"] [data-piece="B3"]')).to_have_count(1)
        page.click('[data-action="aside"]')
        expect(page.locator('[data-role="box"] [data-piece="B3"]')).to_have_count(1, timeout=TIMEOUT)
        click(page, "e1")
        click(page, "d1")
        expect(page.locator('[data-role="record"] > li')).to_have_count(2, timeout=TIMEOUT)
        assert record(page) == ["3 c1-d1", "1 e1xd1"]
        # the move list reads as a record: the move's number, a dot, the move
        assert page.locator('[data-role="record"] > li').all_inner_texts() == ["1. 3 c1-d1", "2. 1 e1xd1"]
        expect(cell(page, "d1")).to_have_attribute("data-piece", "W1")
        expect(cell(page, "e1")).to_have_attribute("data-light", "last")
        assert not page.errors


def offboard_with_a_quick_push_off():
    """The default board's sectors with a start where Red pushes a yellow ball off at once."""
    text = resources.files("reedboard.controller.games").joinpath("data/offboard.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    data["start"] = {"red": ["A3", "A4", "B2", "B3", "C3"], "yellow": ["A5", "B5", "B6", "C5", "C6"]}
    return OffBoard(parse_layout(data, "a quick push-off board"))


def test_off_board_push_off_scores_and_spectators_watch(open_page, tmp_path):
    session = PlaySession(offboard_with_a_quick_push_off(), games_dir=tmp_path, settings=FAST)
    with served(session, token="t0ken") as url:
        player = open_page(f"{url}/?token=t0ken", session=session)
        spectator = open_page(url)
        for page in (player, spectator):
            wait_for_prompt(page, "move")
            assert cell(page, "A5").get_attribute("data-piece") == "Y"
            assert cell(page, "S3").get_attribute("data-piece") == ""
        expect(spectator.locator('[data-role="watching"]')).to_be_visible()
        expect(player.locator('[data-role="watching"]')).to_be_hidden()
        expect(player.locator('[data-action="ok"]')).to_be_visible()
        expect(spectator.locator('[data-action="ok"]')).to_be_hidden()
        # a spectator's click changes nothing, and the server refuses its requests
        cell(spectator, "A3").click()
        status = spectator.evaluate("""() => fetch('/api/click', {method: 'POST',
            headers: {'Content-Type': 'application/json'}, body: JSON.stringify({cell: 'A3'})}).then(r => r.status)""")
        assert status == 403 and "A3" in session.sim.occupied

        # the push, ball by ball: the yellow ball over the rim into S3, then the red line on
        click(player, "A5")
        click(player, "S3")
        click(player, "A3")
        _, push_ms = timed_click(
            player, "A5", "document.querySelectorAll('[data-role=record] > li').length === 1")
        print(f"\nclick -> the push-off in the record: {push_ms:.1f} ms")
        for page in (player, spectator):
            expect(page.locator('[data-role="record"] > li')).to_have_count(1, timeout=TIMEOUT)
            assert record(page) == ["A3-A4x1 S3+3"]
            expect(page.locator('[data-role="score"] [data-player="red"] b')).to_have_text("3")
            expect(cell(page, "S3")).to_have_attribute("data-piece", "Y")
            expect(cell(page, "A3")).to_have_attribute("data-light", "last")
            expect(cell(page, "A5")).to_have_attribute("data-piece", "R")
            expect(page.locator('[data-role="turn"]')).to_have_text("yellow to move")
        assert not player.errors and not spectator.errors

        # the game in the journal: replayed move by move on the past games page
        player.click('[data-tab="games"]')
        player.click('[data-role="games"] [data-open]')
        replay = player.locator("#replay-board")
        expect(replay.locator('[data-cell="S3"]')).to_have_attribute("data-piece", "Y", timeout=TIMEOUT)
        expect(player.locator('[data-role="replay-record"] > li')).to_have_text(["1. A3-A4x1 S3+3"])
        player.click('[data-replay="prev"]')
        expect(replay.locator('[data-cell="S3"]')).to_have_attribute("data-piece", "")
        expect(replay.locator('[data-cell="A3"]')).to_have_attribute("data-piece", "R")
        href = player.locator('[data-role="replay-download"]').get_attribute("href")
        text = player.evaluate("(href) => fetch(href).then(r => r.text())", href)
        assert text.splitlines()[-1] == "A3-A4x1 S3+3"


LIGHT_NAMES = ["fill", "empty", "choose", "place", "dest", "to", "movable", "last", "winner", "draw"]


def shown_cells(figure):
    """Every cell of a drawn board: its piece and its light, as the page shows them."""
    return figure.evaluate("""f => Object.fromEntries(Array.from(f.querySelectorAll('[data-cell]'),
        c => [c.dataset.cell, [c.dataset.piece, c.dataset.light]]))""")


def test_the_rules_page_draws_each_games_examples_and_the_lights(open_page, tmp_path):
    session = PlaySession("offboard", games_dir=tmp_path, settings=FAST)
    with served(session) as url:
        page = open_page(url)
        expect(cell(page, "B2")).to_have_attribute("data-piece", "R", timeout=TIMEOUT)
        page.click('[data-tab="rules"]')
        rules = page.locator('[data-role="rules"]')
        expect(rules).to_have_attribute("data-game", "offboard", timeout=TIMEOUT)  # the game played comes first
        expect(page.locator("#live")).to_be_hidden()
        for game in ("offboard", "bigballs"):
            if game == "bigballs":
                page.click('[data-rules-game="bigballs"]')
                expect(rules).to_have_attribute("data-game", "bigballs", timeout=TIMEOUT)
            expected = rules_page(game)
            expect(page.locator('[data-role="rules-title"]')).to_contain_text(expected["title"])
            expect(page.locator('[data-role="rules-text"] li')).to_have_count(
                sum(len(section["points"]) for section in expected["sections"]))
            expect(rules.locator("figure[data-diagram]")).to_have_count(len(expected["diagrams"]))
            for diagram in expected["diagrams"]:
                figure = rules.locator(f'figure[data-diagram="{diagram["id"]}"]')
                expect(figure.locator("figcaption")).to_contain_text(diagram["title"])
                assert shown_cells(figure) == {
                    c: [diagram["pieces"][c], diagram["lights"].get(c, "")] for c in diagram["cells"]}, diagram["id"]
                arrows = figure.locator("[data-arrow]")
                expect(arrows).to_have_count(1 if diagram["arrow"] else 0)
                if diagram["arrow"]:
                    expect(arrows).to_have_attribute("data-arrow", "-".join(diagram["arrow"]))
            # the lights' meanings, each with the light's own colour
            rows = page.locator('[data-role="lights"] [data-light-name]')
            names = [light["name"] for light in expected["lights"]]
            assert names == (LIGHT_NAMES if game == "bigballs" else [n for n in LIGHT_NAMES if n not in ("place", "movable")])
            expect(rows).to_have_count(len(names))
            assert rows.evaluate_all("rows => rows.map((r) => r.dataset.lightName)") == names
            for name in ("fill", "empty", "winner") + (("movable",) if game == "bigballs" else ()):
                row = page.locator(f'[data-light-name="{name}"]')
                colour = "#%02x%02x%02x" % PALETTE[name]
                assert row.get_attribute("data-colour") == colour
                assert row.locator(".swatch .cell").evaluate(
                    "g => g.style.getPropertyValue('--light').trim()") == colour
            expect(page.locator('[data-light-name="fill"]')).to_contain_text("Put the piece back here")
            expect(page.locator('[data-light-name="fill"] .cell')).to_have_attribute("data-blink", "1")
            if game == "bigballs":
                expect(page.locator('[data-light-name="movable"] .cell')).to_have_attribute("data-blink", "")
        page.click('[data-tab="live"]')
        expect(page.locator("#rules")).to_be_hidden()
        expect(cell(page, "B2")).to_be_visible()
        assert not page.errors


def test_the_page_fits_a_phone(open_page, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([3]))
    with served(session) as url:
        page = open_page(url, viewport={"width": 390, "height": 844}, session=session)
        wait_for_prompt(page, "roll")
        page.click('[data-action="die"]')
        expect(page.locator('[data-role="die"]')).to_have_text("3", timeout=TIMEOUT)
        click(page, "c1")
        click(page, "d1")
        expect(page.locator('[data-role="record"] > li')).to_have_count(1, timeout=TIMEOUT)
        page.locator(".new-game summary").click()
        expect(page.locator('[data-role="new-game"]')).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        board = page.locator("#board").bounding_box()
        assert board["width"] >= 390 - 4  # the board as wide as the screen
        # the panel's cards below the board (on a phone they join the page's column, in their own order)
        below = page.evaluate("""() => {
          const bottom = document.querySelector("#board").getBoundingClientRect().bottom;
          const cards = [...document.querySelectorAll("#live .panel > *")].filter(e => e.getClientRects().length);
          return cards.length > 0 && cards.every(e => e.getBoundingClientRect().top >= bottom);
        }""")
        assert below
        page.click('[data-tab="rules"]')
        expect(page.locator('[data-role="rules"]')).to_have_attribute("data-game", "bigballs", timeout=TIMEOUT)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.click('[data-tab="games"]')
        expect(page.locator('[data-role="games"] tr[data-game]')).to_have_count(1, timeout=TIMEOUT)
        page.click('[data-role="games"] [data-open]')
        expect(page.locator('[data-role="replay-record"] > li')).to_have_text(["1. 3 c1-d1"], timeout=TIMEOUT)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert not page.errors


def test_a_stone_whose_number_is_not_known_yet_shows_a_question_mark(open_page, tmp_path):
    session = PlaySession("bigballs", games_dir=tmp_path, settings=FAST, setup="identify", rng=random.Random(7))
    with served(session) as url:
        page = open_page(url)
        expect(page.locator('#board [data-piece="B?"]')).to_have_count(6, timeout=TIMEOUT)
        expect(page.locator('#board [data-piece="W?"]')).to_have_count(6)
        # drawn as a stone with a "?" and nothing else: no number the simulated table made up
        expect(cell(page, "a1").locator(".pc.stone.black.unknown:not(.lifted) .num")).to_have_text("?")
        expect(cell(page, "e1").locator(".pc.stone.white.unknown:not(.lifted) .num")).to_have_text("?")
        assert not page.errors


# Replaces the browser's voice and counts the tones made, so that the test hears what the page says.
RECORDER = """
window.__spoken = [];
window.__tones = 0;
window.speechSynthesis.speak = (u) => window.__spoken.push({text: u.text, lang: u.lang, rate: u.rate});
window.speechSynthesis.cancel = () => {};
const RealAudioContext = window.AudioContext;
window.AudioContext = class extends RealAudioContext {
  createOscillator() { window.__tones += 1; return super.createOscillator(); }
};
"""


def test_sound_and_speech_are_remembered_and_speak_the_pages_language(open_page, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([3]))
    voice_on = PAGE_DE.get("Voice on.").string  # the page's own words in German
    with served(session) as url:
        page = open_page(url, init_script=RECORDER)
        wait_for_prompt(page, "roll")
        setting = lambda name: page.locator(f'[data-setting="{name}"]')  # noqa: E731
        stored = lambda: page.evaluate(  # noqa: E731
            "['sound', 'speech', 'rate'].map((k) => localStorage.getItem('reedboard-' + k))"
            ".concat([localStorage.getItem('reedboard.language')])")
        # off until the user turns them on
        expect(setting("sound")).not_to_be_checked()
        expect(setting("speech")).not_to_be_checked()
        assert stored() == [None, None, None, None]

        setting("sound").check()
        page.wait_for_function("window.__tones > 0", timeout=TIMEOUT)  # a tone says sound is on
        page.locator('[data-role="language"]').select_option("de")  # the page's language is the voice's
        page.wait_for_function("document.documentElement.lang === 'de'", timeout=TIMEOUT)
        setting("rate").evaluate("r => { r.value = '1.2'; r.dispatchEvent(new Event('change', {bubbles: true})); }")
        setting("speech").check()
        page.wait_for_function("window.__spoken.length > 0", timeout=TIMEOUT)
        assert page.evaluate("window.__spoken")[-1] == {"text": voice_on, "lang": "de-DE", "rate": pytest.approx(1.2)}
        assert stored() == ["1", "1", "1.2", "de"]

        page.reload()
        wait_for_prompt(page, "roll")
        expect(setting("sound")).to_be_checked()
        expect(setting("speech")).to_be_checked()
        expect(page.locator('[data-role="language"]')).to_have_value("de")
        expect(setting("rate")).to_have_value("1.2")
        assert stored() == ["1", "1", "1.2", "de"]
        assert page.evaluate("window.__spoken") == []  # the notes there were at loading are not said

        tones = page.evaluate("window.__tones")
        page.click('[data-action="die"]')
        expect(page.locator('[data-role="die"]')).to_have_text("3", timeout=TIMEOUT)
        page.wait_for_function("window.__spoken.length > 0", timeout=TIMEOUT)
        page.wait_for_function(f"window.__tones > {tones}", timeout=TIMEOUT)  # the roll's tone
        spoken = page.evaluate("window.__spoken")
        snap = page.evaluate("fetch('/api/state').then((r) => r.json())")
        roll = next(n for n in snap["notes"] if n["kind"] == "roll")
        assert roll["data"]["value"] == 3
        # the board's sentence for the roll, in German, as the snapshot brings it
        assert spoken[0] == {"text": snap["words"]["de"]["said"][str(roll["n"])], "lang": "de-DE",
                             "rate": pytest.approx(1.2)}
        assert "3" in spoken[0]["text"]
        assert not page.errors


def test_the_new_game_dialog_sends_the_set_up_mode_and_the_clock(open_page, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST)
    with served(session) as url:
        page = open_page(url, session=session)
        wait_for_prompt(page, "roll")
        clock = page.locator('[data-role="clock"]')
        expect(clock).to_be_hidden()  # no clock unless one is chosen
        page.locator(".new-game summary").click()
        form = page.locator('[data-role="new-game"]')
        modes = page.locator('[data-role="setup-modes"]')
        expect(modes).to_be_visible()
        assert form.locator('input[name="setup"]').evaluate_all("inputs => inputs.map((i) => i.value)") == [
            "auto", "shuffle", "identify"]
        # the games offered are the registry's, each by its title
        assert form.locator('input[name="game"]').evaluate_all("inputs => inputs.map((i) => i.value)") == list(GAMES)
        expect(form.locator("label", has=page.locator('input[name="game"][value="offboard"]'))).to_have_text(
            GAMES["offboard"].title)
        form.locator('input[name="game"][value="offboard"]').check()
        expect(modes).to_be_hidden()  # Off Board has no stone numbers to learn
        form.locator('input[name="game"][value="bigballs"]').check()
        expect(modes).to_be_visible()
        form.locator('input[name="setup"][value="shuffle"]').check()
        expect(form.locator('input[name="minutes"]')).to_be_disabled()
        form.locator('input[name="clock"]').check()
        form.locator('input[name="minutes"]').fill("2")
        form.locator('input[name="increment"]').fill("3")
        page.click('[data-action="new"]')
        expect(clock).to_be_visible(timeout=TIMEOUT)
        expect(clock.locator('[data-player="black"] .time')).to_have_text("2:00")
        expect(clock.locator('[data-player="white"] .time')).to_have_text("2:00")
        assert session.setup_mode == "shuffle" and session.game_clock == ClockSettings(2, 3)
        assert not page.errors


def test_the_clock_counts_down_warns_and_marks_the_player_out_of_time(open_page, tmp_path):
    # three seconds each: the clock starts with the first move, White's then runs out
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([3]),
                          game_clock=ClockSettings(0.05, 0))
    with served(session) as url:
        page = open_page(url, session=session)
        wait_for_prompt(page, "roll")
        white, black = (page.locator(f'[data-role="clock"] [data-player="{p}"]') for p in ("white", "black"))
        expect(white.locator(".time")).to_have_text("0:03")
        expect(white).to_have_attribute("data-running", "")
        page.click('[data-action="die"]')
        expect(page.locator('[data-role="die"]')).to_have_text("3", timeout=TIMEOUT)
        click(page, "c1")
        click(page, "d1")
        expect(white).to_have_attribute("data-running", "1", timeout=TIMEOUT)
        expect(white.locator(".time")).not_to_have_text("0:03", timeout=TIMEOUT)  # counting down here
        expect(white).to_have_attribute("data-low", "1", timeout=TIMEOUT)
        expect(white).to_have_attribute("data-flagged", "1", timeout=TIMEOUT)
        expect(white.locator(".time")).to_have_text("0:00")
        expect(black).to_have_attribute("data-flagged", "")
        wait_for_prompt(page, "over")
        expect(white).to_have_attribute("data-running", "")
        assert not page.errors


def test_a_game_added_to_the_registry_is_offered_and_drawn_from_its_geometry(open_page, tmp_path, monkeypatch):
    from toy_game import Toy

    monkeypatch.setitem(GAMES, "toy", Toy)  # the page is not changed for it
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST)
    with served(session) as url:
        page = open_page(url)
        wait_for_prompt(page, "roll")
        expect(page.locator('[data-role="game-name"]')).to_have_text("· Big Balls")
        expect(page.locator(".die-card")).to_be_visible()  # Big Balls uses a die
        page.locator(".new-game summary").click()
        form = page.locator('[data-role="new-game"]')
        form.locator('input[name="game"][value="toy"]').check()
        expect(page.locator('[data-role="setup-modes"]')).to_be_hidden()
        select = form.locator('[data-role="game-options"] select[data-option="length"]')
        expect(select).to_be_visible()
        assert select.locator("option").evaluate_all("os => os.map((o) => o.value)") == ["", "3", "4", "5"]
        page.click('[data-tab="rules"]')
        page.click('[data-rules-game="toy"]')
        rules = page.locator('[data-role="rules"]')
        expect(rules).to_have_attribute("data-game", "toy", timeout=TIMEOUT)
        expect(page.locator('[data-role="rules-title"]')).to_have_text("Toy Row: the rules")
        first = rules.locator('figure[data-diagram="first"]')
        # one capital is a marble in the colour the geometry gives it
        expect(first.locator('[data-cell="c2"] .pc.marble.black')).to_have_count(1)
        expect(first.locator(".pc")).to_have_count(1)
        assert not page.errors
