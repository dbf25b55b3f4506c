"""The pulled cable on the page, in a real browser: a banner says it while the board is away
(its lights cannot), and goes when the board is back.

The board is the fake board behind a pty, reached through a stable device name that vanishes
while the cable is out (tests/test_serial_link.py's Cable); Debian's chromium, with the
fixtures of test_web_browser.py.
"""

import pytest

from reedboard.controller.games import BigBalls
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.web.background import served
from reedboard.hal.serial_board import SerialBoard

from serial_cable import START, UNPLUGGED, Cable
from in_browser import FAST, TIMEOUT, expect, wait_for_prompt

pytestmark = pytest.mark.system


def test_a_banner_says_the_board_is_unplugged_until_it_is_back(open_page, cable, tmp_path):
    board = SerialBoard(cable.fake.board, Cable.NAME, serial_factory=cable.factory)
    session = PlaySession(BigBalls(), games_dir=tmp_path, backend=board, settings=FAST, setup="given")
    try:
        with served(session) as url:
            page = open_page(url)
            wait_for_prompt(page, "roll")
            banner = page.locator('[data-role="link"]')
            expect(banner).to_be_hidden()
            cable.pull()
            expect(banner).to_be_visible(timeout=TIMEOUT)
            expect(banner).to_have_text(UNPLUGGED)
            expect(banner).to_have_attribute("data-state", "lost")
            expect(page.locator('[data-role="notes"] li').first).to_contain_text(UNPLUGGED)
            cable.plug(START)
            expect(banner).to_be_hidden(timeout=TIMEOUT)
            expect(banner).to_have_attribute("data-state", "connected")
            expect(page.locator('[data-role="notes"] li').first).to_contain_text("the board is back")
            wait_for_prompt(page, "roll")  # the game goes on where it was
            assert not page.errors
    finally:
        board.close()
