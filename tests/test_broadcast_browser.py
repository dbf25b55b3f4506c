"""The club's page in a real browser (Debian's chromium through Playwright), three boards live
through the club's own broker: each board's card, its drawing, its players and last move, the
standings, and a click into one board's own page, watching only."""

import asyncio
import contextlib
import os
import threading
from pathlib import Path

import pytest

from reedboard.controller.broadcast.club import mosquitto
from reedboard.controller.broadcast.address import BrokerAddress
from reedboard.controller.broadcast.club.broker import EmbeddedBroker
from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.broadcast.club.follow import follow
from reedboard.controller.broadcast.club.app import create_club_app
from reedboard.controller.broadcast.publisher.replay import publish_trace

from club_lines import fed_club

from in_browser import expect

pytestmark = pytest.mark.system

TIMEOUT = 10000  # ms for any one thing to show on the page
TRACES = Path(__file__).parent / "traces"
BOARDS = {  # board: (its game, the entries it plays before it waits: mid-game; None: to the end)
    "table1": ("bigballs-game-to-a7", None),
    "table2": ("offboard-game-to-six", 9),
    "table3": ("abalone-push-off-edge-first", None),
}
PLAYERS = {"table1": {"white": "Ann", "black": "Bo"}}



@contextlib.contextmanager
def club_with_boards(folder: Path):
    """The club (its own broker, its page) and three boards publishing, in a thread's loop."""
    import uvicorn

    port, web_port = mosquitto.free_port(), mosquitto.free_port()
    ready, failed = threading.Event(), []
    hold = asyncio.Event()
    server = None

    async def main():
        nonlocal server
        broker = EmbeddedBroker("127.0.0.1", port)
        await broker.start()
        club = Club(folder)
        followed = asyncio.Event()
        following = asyncio.create_task(follow(club, BrokerAddress("127.0.0.1", port), ready=followed))
        await followed.wait()
        server = uvicorn.Server(uvicorn.Config(create_club_app(club), host="127.0.0.1", port=web_port,
                                               log_level="warning", lifespan="off"))
        serving = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.02)

        def stepper(until):
            async def step(index, entry):
                if until is not None and index >= until:
                    await hold.wait()  # the game goes on at the table: this board stays mid-game
            return step
        publishing = [asyncio.create_task(publish_trace(TRACES / f"{game}.jsonl", f"mqtt://127.0.0.1:{port}", name,
                                                        step=stepper(until), players=PLAYERS.get(name)))
                      for name, (game, until) in BOARDS.items()]
        while len([n for n in BOARDS if n in club.boards and club.summary(club.boards[n])["moves"]]) < len(BOARDS):
            await asyncio.sleep(0.05)
        ready.set()
        await serving
        hold.set()
        for task in publishing + [following]:
            task.cancel()
        await asyncio.gather(*publishing, following, return_exceptions=True)
        club.close()
        await broker.stop()

    def run():
        try:
            asyncio.run(main())  # whatever main() leaves running is cancelled and ended
        except BaseException as error:  # shown by the test
            failed.append(error)
            ready.set()

    thread = threading.Thread(target=run, daemon=True)
    folder.mkdir(parents=True, exist_ok=True)
    thread.start()
    assert ready.wait(30), "the club did not start"
    if failed:
        raise failed[0]
    try:
        yield f"http://127.0.0.1:{web_port}"
    finally:
        if server is not None:
            server.should_exit = True
        thread.join(15)


def shots(tmp_path: Path) -> Path:
    """Where screenshots go: $REEDBOARD_SCREENSHOTS when set (to look at them), else the test's folder."""
    folder = Path(os.environ.get("REEDBOARD_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_the_club_page_with_three_boards(browser, tmp_path):
    with club_with_boards(tmp_path / "club") as url:
        context = browser.new_context(viewport={"width": 1300, "height": 900})
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(error))
        page.goto(url)
        cards = page.locator("[data-board]")
        expect(cards).to_have_count(3, timeout=TIMEOUT)
        for name in BOARDS:
            card = page.locator(f'[data-board="{name}"]')
            expect(card.locator(".last")).not_to_be_empty(timeout=TIMEOUT)
            expect(card.locator("svg .pc").first).to_be_visible(timeout=TIMEOUT)
        expect(page.locator('[data-board="table1"] .players')).to_contain_text("Ann")
        expect(page.locator('[data-board="table1"] .result')).to_contain_text("1-0")
        expect(page.locator('[data-board="table2"] .dot')).to_have_text("live")
        expect(page.locator('[data-board="table2"] .to-move')).to_contain_text("to move")
        expect(page.locator("[data-role=standings] tbody tr").first).to_contain_text("Bo", timeout=TIMEOUT)
        expect(page.locator("[data-role=link]")).to_have_attribute("data-state", "live")
        page.screenshot(path=str(shots(tmp_path) / "club.png"))

        page.locator('[data-board="table2"]').click()
        page.wait_for_url("**/board/table2/")
        expect(page.locator("[data-cell]").first).to_be_attached(timeout=TIMEOUT)
        expect(page.locator("[data-role=record]")).not_to_be_empty(timeout=TIMEOUT)
        pieces = page.locator('[data-cell][data-piece]:not([data-piece=""])')
        expect(pieces.first).to_be_attached(timeout=TIMEOUT)
        assert page.locator("[data-action=resign]").first.is_disabled()  # watching only
        page.screenshot(path=str(shots(tmp_path) / "club-board.png"))
        assert not errors, errors
        context.close()


def test_hostile_snapshots_run_nothing_in_a_browser(browser, tmp_path):
    import uvicorn

    club = fed_club(tmp_path / "club")
    port = mosquitto.free_port()
    server = uvicorn.Server(uvicorn.Config(create_club_app(club), host="127.0.0.1", port=port, log_level="warning",
                                           lifespan="off"))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    try:
        while not server.started:
            thread.join(0.02)
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"http://127.0.0.1:{port}/board/t1")
        expect(page.locator("[data-role=record] li").first).to_be_attached(timeout=10000)
        expect(page.locator("[data-role=header]")).not_to_be_empty(timeout=10000)
        assert page.locator("[onerror]").count() == 0
        assert page.evaluate("window.__pwned") is None
        page.goto(f"http://127.0.0.1:{port}/")
        expect(page.locator('[data-board="t1"] .players')).to_contain_text("onerror", timeout=10000)  # as text
        assert page.locator("[onerror]").count() == 0
        assert page.evaluate("window.__pwned") is None
        context.close()
    finally:
        server.should_exit = True
        thread.join(10)
        club.close()
