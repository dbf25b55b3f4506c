"""Abalone in the page, played by clicks on the simulated Off Board board (its sectors unused).

The page draws the hexagon from the geometry the server sends and the marbles from their
codes; the game goes through a broadside move made marble by marble, two pushes of three
marbles against two, and a push-off, and a new game from the dialog takes another layout.
"""

from pathlib import Path

import pytest

from reedboard.controller.core.reconcile import Settings
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.web.background import served

from in_browser import TIMEOUT, cell, click, expect, record, wait_for_prompt

pytestmark = pytest.mark.system

SHOTS = Path("/tmp/rb/shots")

# Black: a broadside, then a line of three that pushes White's pair twice, the second time
# against the edge: the far white marble leaves the board.
GAME = [
    ("B5B6C6", ["B5", "C6", "B6", "C7"]),  # broadside, marble by marble
    ("H9G9", ["H9", "G9"]),
    ("A1B2", ["A1", "D4"]),  # a line of three slid: the tail lifted, put down in front
    ("I9H9", ["I9", "H9"]),
    ("B2C3", ["B2", "E5"]),
    ("H8G7", ["H8", "F6"]),
    ("C3D4", ["G7", "H8", "F6", "G7", "E5", "F6", "D4", "E5", "C3", "D4"]),  # 3 push 2, from the front
    ("I5H5", ["I5", "F5"]),
    ("D4E5", ["H8", "I9", "G7", "H8", "F6", "G7", "E5", "F6", "D4", "E5"]),
    ("H4G4", ["H4", "G4"]),
]
PUSH_OFF = "E5F6"
# A push begun from the front (the opponent's ball first) passes through a board that another
# move of the mover's, from before their move, leaves: still for the settle time there, it is the
# mover's amendment (rule 3), as for a player who paused with the ball in hand. The clicks come
# faster than that, but a loaded machine can hold one back for 0.3 s: the settle time here is a
# player's (0.8 s is the default) and a half.
PATIENT = Settings(settle=1.2, grace=1.5)


def test_abalone_broadside_pushes_and_a_push_off_by_clicks(open_page, tmp_path):  # noqa: F811
    session = PlaySession("abalone", games_dir=tmp_path, settings=PATIENT)
    with served(session, token="t0ken") as url:
        page = open_page(f"{url}/?token=t0ken", session=session)
        wait_for_prompt(page, "move")
        expect(page.locator('[data-role="game-name"]')).to_have_text("· Abalone")
        expect(page.locator(".die-card")).to_be_hidden()  # no die in Abalone
        board = page.locator("#board")
        expect(board.locator("[data-cell]")).to_have_count(61)  # the holes; no scoring sectors
        expect(board.locator(".sector")).to_have_count(0)
        expect(cell(page, "A1").locator(".pc.marble.black")).to_have_count(1)
        expect(cell(page, "I5").locator(".pc.marble.white")).to_have_count(1)

        for count, (move, clicks) in enumerate(GAME, start=1):
            for name in clicks:
                click(page, name)
            expect(page.locator('[data-role="record"] > li')).to_have_count(count, timeout=TIMEOUT)
        assert record(page) == [move for move, _ in GAME]

        # the push-off: the edge marble off the board into the box, then the line steps up
        click(page, "I9")
        page.click('[data-action="aside"]')
        for name in ["H8", "I9", "G7", "H8", "F6", "G7", "E5", "F6"]:
            click(page, name)
        expect(page.locator('[data-role="record"] > li')).to_have_count(len(GAME) + 1, timeout=TIMEOUT)
        assert record(page)[-1] == PUSH_OFF
        expect(page.locator('[data-role="score"] [data-player="black"] b')).to_have_text("1")
        expect(page.locator('[data-role="turn"]')).to_have_text("white to move")
        for name in ("E5", "I9"):  # the tail's hole left, the edge hole pushed through
            expect(cell(page, name)).to_have_attribute("data-light", "last")
        expect(cell(page, "I9").locator(".pc.marble.white")).to_have_count(1)
        assert session.game.position_data()["score"] == {"black": 1, "white": 0}
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "abalone-push-off.png"))

        # a new game from the dialog, from the Belgian daisy
        page.locator(".new-game summary").click()
        form = page.locator('[data-role="new-game"]')
        form.locator('input[name="game"][value="abalone"]').check()
        expect(page.locator('[data-role="setup-modes"]')).to_be_hidden()
        layout = form.locator('[data-role="game-options"] select[data-option="layout"]')
        expect(layout).to_be_visible()
        layout.select_option("belgian-daisy")
        page.once("dialog", lambda dialog: dialog.accept())  # the game in progress ends: asked first
        page.click('[data-action="new"]')
        expect(page.locator('[data-role="record"] > li')).to_have_count(0, timeout=TIMEOUT)
        expect(cell(page, "A4").locator(".pc.marble.white")).to_have_count(1, timeout=TIMEOUT)
        expect(cell(page, "A1").locator(".pc.marble.black")).to_have_count(1)
        expect(cell(page, "C4").locator(".pc")).to_have_count(0)
        assert session.game.record_header() == ["layout belgian-daisy"]
        page.screenshot(path=str(SHOTS / "abalone-belgian-daisy.png"))
        assert not page.errors


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-q", "-s"]))
