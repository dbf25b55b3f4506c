"""Screenshots of the web view for the documentation: docs/bigballs.png, docs/offboard.png and
docs/abalone.png.

    .venv-test/bin/python docs/make_screenshots.py [--out DIR] [--more]

Plays a few moves of each game by clicks on the simulated board in a real browser
(Playwright driving Debian's chromium at /usr/bin/chromium) and saves the page. `--more`
also saves the live game on a phone's screen (bigballs-phone.png, 390 x 844) and the rules
pages (rules-GAME.png for every game, whole pages).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from reedboard.controller.games import GAMES, BigBalls  # noqa: E402
from reedboard.controller.games.bigballs import parse_setup  # noqa: E402
from reedboard.controller.session.play_session import PlaySession, ScriptedDie  # noqa: E402
from reedboard.controller.core.reconcile import Settings  # noqa: E402
from reedboard.controller.web.background import served  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
SETTINGS = Settings(settle=0.3, grace=0.5)
SETUP = "black=a1:3,b1:6,c1:1,a2:5,b2:2,a3:4 white=e1:2,f1:4,g1:6,e2:1,f2:3,e3:5"


class Player:
    """Plays moves in notation by clicking on the page what a hand would do on the board."""

    def __init__(self, page, session: PlaySession) -> None:
        self.page, self.session, self.last = page, session, 0.0

    def click(self, cell: str) -> None:
        time.sleep(max(0.0, self.last + 0.06 - time.monotonic()))
        target = self.page.locator(f'[data-cell="{cell}"]')
        before = target.get_attribute("data-sim") or ""
        target.click()
        expect(target).not_to_have_attribute("data-sim", before)
        self.last = time.monotonic()

    def roll(self, value: int) -> None:
        self.page.click('[data-action="die"]')
        expect(self.page.locator('[data-role="die"]')).to_have_text(str(value), timeout=5000)

    def move(self, text: str) -> None:
        game = self.session.game
        move = game.parse_move(text)
        footprint = game.footprint(move)
        played = len(game.move_stack)
        if getattr(move, "pushed", 0):
            # Off Board push: the front opponent ball goes on (or over the rim), then the tail
            # ball of the line takes its place: the same board as sliding the whole line
            line = self.line(game, move)
            front, target = line[-1], next(iter(footprint.fills))
            clicks = [front, target, move.tail, front]
        else:
            clicks = []
            for cell in sorted(footprint.captures):  # the captured piece goes into the box
                self.click(cell)
                self.page.click('[data-action="aside"]')
            clicks = sorted(footprint.empties) + sorted(footprint.fills | footprint.captures)
        for cell in clicks:
            self.click(cell)
        expect(self.page.locator('[data-role="record"] > li')).to_have_count(played + 1, timeout=5000)

    @staticmethod
    def line(game, move) -> list[str]:
        """The holes of an Off Board line move from its tail through the last ball pushed."""
        from reedboard.controller.games.offboard_layout import GRID

        cell, direction = GRID.index(move.tail), GRID.direction(move.direction)
        ray = [GRID.names[c] for c in GRID.ray[direction][cell]]
        return ray[: move.balls - 1 + move.pushed]


def rules_shots(page, out: Path) -> list[Path]:
    """The rules page of each game, the whole page."""
    written = []
    page.click('[data-tab="rules"]')
    for game in GAMES:
        page.click(f'[data-rules-game="{game}"]')
        expect(page.locator('[data-role="rules"]')).to_have_attribute("data-game", game, timeout=8000)
        written.append(out / f"rules-{game}.png")
        page.screenshot(path=str(written[-1]), full_page=True)
    page.click('[data-tab="live"]')
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description="remake the web view's screenshots")
    parser.add_argument("--out", type=Path, default=HERE, help="the folder to write to (default: docs/)")
    parser.add_argument("--more", action="store_true", help="also the phone's screen and the rules pages")
    args = parser.parse_args()
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    written = []
    games_dir = Path(tempfile.mkdtemp(prefix="reedboard-screens-"))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)

        session = PlaySession(BigBalls(**parse_setup(SETUP)), games_dir=games_dir, settings=SETTINGS,
                              die=ScriptedDie([1, 2, 1, 4, 5]))
        with served(session) as url:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(url)
            expect(page.locator('[data-role="message"]')).to_have_attribute("data-prompt", "roll", timeout=8000)
            player = Player(page, session)
            player.roll(1)
            player.move("1 c1-c2")
            player.move("BB c5-c4")
            player.roll(2)
            player.move("2 b2-b3")
            player.roll(1)
            player.move("1 e2-d3")
            player.roll(4)
            player.move("4 a3-a4")
            player.roll(5)
            page.mouse.move(0, 0)
            time.sleep(0.3)
            written.append(out / "bigballs.png")
            page.screenshot(path=str(written[-1]))
            if args.more:
                written += rules_shots(page, out)
                phone = browser.new_page(viewport={"width": 390, "height": 844})
                phone.goto(url)
                expect(phone.locator('[data-role="record"] > li')).to_have_count(5, timeout=8000)
                time.sleep(0.3)
                written.append(out / "bigballs-phone.png")
                phone.screenshot(path=str(written[-1]))
                phone.close()
            page.close()

        session = PlaySession("offboard", games_dir=games_dir, settings=SETTINGS)
        with served(session) as url:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(url)
            expect(page.locator('[data-cell="B2"]')).to_have_attribute("data-piece", "R", timeout=8000)
            expect(page.locator('[data-role="turn"]')).to_have_text("red to move", timeout=8000)
            player = Player(page, session)
            for move in ("B4-A4", "C6-B5x1 S2+2", "D4-E5", "D7-E8"):
                player.move(move)
            page.mouse.move(0, 0)
            time.sleep(0.3)
            written.append(out / "offboard.png")
            page.screenshot(path=str(written[-1]))
            page.close()

        session = PlaySession("abalone", games_dir=games_dir, settings=SETTINGS)
        with served(session) as url:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(url)
            expect(page.locator('[data-role="turn"]')).to_have_text("black to move", timeout=8000)
            player = Player(page, session)
            # a broadside marble by marble, then lines slid: the tail lifted, put down in front
            for count, clicks in enumerate([["B5", "C6", "B6", "C7"], ["H9", "G9"], ["A1", "D4"], ["I9", "H9"],
                                            ["B2", "E5"], ["H8", "F6"]], start=1):
                for cell in clicks:
                    player.click(cell)
                expect(page.locator('[data-role="record"] > li')).to_have_count(count, timeout=5000)
            page.mouse.move(0, 0)
            time.sleep(0.3)
            written.append(out / "abalone.png")
            page.screenshot(path=str(written[-1]))
            page.close()
        browser.close()
    print("wrote " + ", ".join(str(path) for path in written))


if __name__ == "__main__":
    main()
