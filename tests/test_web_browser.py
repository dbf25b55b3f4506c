"""The web view in a real browser: games played by clicks on the simulated board.

Playwright for Python drives Debian's chromium (/usr/bin/chromium; `playwright install`
is never used) against a real uvicorn server on 127.0.0.1 and a free port. The tests check
what the page shows through its stable hooks: data-cell with data-light and data-piece,
data-action="die"/"ok", data-role="die"/"record"/"message". They print how long a click on
the simulated board takes to show on the page (not asserted).
"""

import time
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from controller.games import BigBalls, OffBoard
from controller.games.offboard_layout import parse_layout
from controller.play import PlaySession, ScriptedDie
from controller.reconcile import Settings
from controller.web.background import served

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
TIMEOUT = 8000  # ms for any one thing to show on the page

if not CHROMIUM.exists():
    pytest.skip("no chromium at /usr/bin/chromium (apt-get install chromium) for the browser tests",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
expect = sync_api.expect
FAST = Settings(settle=0.3, grace=0.5)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser):
    contexts = []

    def open_page(url):
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        contexts.append(context)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(error))
        page.errors = errors
        page.goto(url)
        return page

    yield open_page
    for context in contexts:
        context.close()


def cell(page, name):
    return page.locator(f'[data-cell="{name}"]')


def click(page, name):
    """Click a hollow and wait until the page shows the simulated board changed. Clicks are
    kept a little apart: quicker than the debounce time, a lift and a put-back would be a
    bounce to the sensors, as they would be for a hand that quick."""
    time.sleep(max(0.0, click.last + 0.05 - time.monotonic()))
    before = cell(page, name).get_attribute("data-sim")
    cell(page, name).click()
    expect(cell(page, name)).not_to_have_attribute("data-sim", before or "", timeout=TIMEOUT)
    click.last = time.monotonic()


click.last = 0.0


def timed_click(page, name, condition_js):
    """Click a hollow; ms until the page shows the click, and until `condition_js` holds."""
    time.sleep(max(0.0, click.last + 0.05 - time.monotonic()))
    shown, answered = page.evaluate(
        """([name, condition]) => new Promise((resolve) => {
            const el = document.querySelector(`[data-cell="${name}"]`);
            const before = el.dataset.sim;
            const done = new Function(`return (${condition})`);
            const t0 = performance.now();
            let shown = null;
            const check = () => {
              if (shown === null && el.dataset.sim !== before) shown = performance.now() - t0;
              if (shown !== null && done()) {
                observer.disconnect();
                resolve([shown, performance.now() - t0]);
              }
            };
            const observer = new MutationObserver(check);
            observer.observe(document.body, { attributes: true, childList: true, subtree: true });
            el.querySelector(".hit").dispatchEvent(new MouseEvent("click", { bubbles: true }));
        })""",
        [name, condition_js],
    )
    click.last = time.monotonic()
    return shown, answered


def record(page):
    return page.locator('[data-role="record"] > li').all_inner_texts()


def test_big_balls_roll_move_illegal_move_and_capture_by_clicks(open_page, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([3, 1]))
    with served(session) as url:
        page = open_page(url)
        expect(cell(page, "a5")).to_have_attribute("data-light", "movable", timeout=TIMEOUT)
        assert cell(page, "a1").get_attribute("data-piece") == "B1"
        assert cell(page, "a7").get_attribute("data-piece") == "ball"
        assert cell(page, "d1").get_attribute("data-piece") == ""
        assert cell(page, "c1").get_attribute("data-light") == ""
        expect(page.locator('[data-role="message"]')).to_contain_text("black to move")

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
        expect(page.locator('[data-role="message"]')).to_contain_text("does not match")
        assert cell(page, "e3").get_attribute("data-piece") == "W6"  # the controller's belief stands
        # ... and its correction
        click(page, "d4")
        click(page, "e3")
        expect(cell(page, "e3")).to_have_attribute("data-light", "", timeout=TIMEOUT)
        expect(die).to_have_text("1")
        expect(page.locator('[data-role="message"] [data-role="status"]')).to_have_text(
            "white rolled 1: move stone 1")

        # the capture: the captured stone lifted and put in the box, the capturer moved onto it
        click(page, "d1")
        expect(page.locator('[data-role="hand"] [data-piece="B3"]')).to_have_count(1)
        page.click('[data-action="aside"]')
        expect(page.locator('[data-role="box"] [data-piece="B3"]')).to_have_count(1, timeout=TIMEOUT)
        click(page, "e1")
        click(page, "d1")
        expect(page.locator('[data-role="record"] > li')).to_have_count(2, timeout=TIMEOUT)
        assert record(page) == ["3 c1-d1", "1 e1xd1"]
        expect(cell(page, "d1")).to_have_attribute("data-piece", "W1")
        expect(cell(page, "e1")).to_have_attribute("data-light", "last")
        assert not page.errors


def offboard_with_a_quick_push_off():
    """The default board's sectors with a start where Red pushes a yellow ball off at once."""
    text = resources.files("controller.games").joinpath("data/offboard.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    data["start"] = {"red": ["A3", "A4", "B2", "B3", "C3"], "yellow": ["A5", "B5", "B6", "C5", "C6"]}
    return OffBoard(parse_layout(data, "a quick push-off board"))


def test_off_board_push_off_scores_and_spectators_watch(open_page, tmp_path):
    session = PlaySession(offboard_with_a_quick_push_off(), games_dir=tmp_path, settings=FAST)
    with served(session, token="t0ken") as url:
        player = open_page(f"{url}/?token=t0ken")
        spectator = open_page(url)
        for page in (player, spectator):
            expect(cell(page, "A3")).to_have_attribute("data-light", "movable", timeout=TIMEOUT)
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
        player.click('[data-replay="prev"]')
        expect(replay.locator('[data-cell="S3"]')).to_have_attribute("data-piece", "")
        expect(replay.locator('[data-cell="A3"]')).to_have_attribute("data-piece", "R")
        href = player.locator('[data-role="replay-download"]').get_attribute("href")
        text = player.evaluate("(href) => fetch(href).then(r => r.text())", href)
        assert text.splitlines()[-1] == "A3-A4x1 S3+3"
