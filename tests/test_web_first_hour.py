"""What a newcomer meets in the first hour on the page, in a real browser: the new-game dialog
takes the sides and start options of the game picked, the Rules tab lists every light, the board
tells in words what a move or a hint asks of the hands, and the board's rim names its rows.

Set REEDBOARD_SHOTS to a folder to keep a screenshot of each at a desktop's and a phone's width.
"""

import pytest

from reedboard.controller.core.computer import Computer
from reedboard.controller.games import BigBalls, OffBoard
from reedboard.controller.opponent.worker import Thinker
from reedboard.controller.session.play_session import PlaySession, ScriptedDie
from reedboard.controller.core.signals import PALETTE, PLAYER_COLOURS
from reedboard.controller.web.background import served

from in_browser import DESKTOP, FAST, PHONE, TIMEOUT, cell, expect, shot, wait_for_prompt, wait_until

pytestmark = pytest.mark.system


def open_dialog(page):
    page.locator(".new-game summary").click()
    return page.locator('[data-role="new-game"]')


def test_the_new_game_dialog_offers_the_sides_and_layouts_of_the_game_picked(open_page, tmp_path):
    session = PlaySession(OffBoard(), games_dir=tmp_path, settings=FAST)
    with served(session) as url:
        for width, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page = open_page(url, viewport=viewport, session=session)
            expect(page.locator('[data-role="turn"]')).to_have_text("red to move", timeout=TIMEOUT)
            form = open_dialog(page)
            # Abalone's layouts: the default is one of them, named once
            form.locator('input[name="game"][value="abalone"]').check()
            layout = form.locator('select[data-option="layout"]')
            expect(layout).to_have_value("standard")
            # each named in words, each sent as the command line writes it
            assert layout.locator("option").all_inner_texts() == ["standard", "Belgian daisy", "German daisy"]
            assert [o.get_attribute("value") for o in layout.locator("option").all()] == \
                ["standard", "belgian-daisy", "german-daisy"]
            # Big Balls against the computer: its own colours
            form.locator('input[name="game"][value="bigballs"]').check()
            form.locator('input[name="computer"]').check()
            plays = form.locator('select[name="plays"]')
            assert plays.locator("option").all_inner_texts() == ["Black", "White"]
            expect(form.locator('input[data-name="black"]')).to_have_count(1)
            form.locator("fieldset.opponent").scroll_into_view_if_needed()
            shot(page, f"new-game-dialog-{width}")
        plays.select_option("white")
        form.locator('select[name="level"]').select_option("1")
        form.locator('input[name="setup"][value="auto"]').check()
        page.click('[data-action="new"]')
        wait_until(lambda: session.referee is not None and session.referee.game.name == "bigballs"
                   and session.referee.computer is not None, "a new game of Big Balls against the computer")
        assert session.referee.computer.plays == "white"
        assert not page.errors


def test_the_rules_list_every_light_the_board_shows_in_the_game(open_page, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST)
    with served(session) as url:
        page = open_page(url, session=session)
        page.click('[data-tab="rules"]')
        for game in ("bigballs", "offboard", "abalone"):
            page.click(f'[data-rules-game="{game}"]')
            expect(page.locator('[data-role="rules"]')).to_have_attribute("data-game", game, timeout=TIMEOUT)
            listed = set(page.locator("[data-light-name]").evaluate_all("rows => rows.map((r) => r.dataset.lightName)"))
            cell_lights = set(PALETTE) - set(PLAYER_COLOURS.values())
            if game != "bigballs":  # no die to choose a piece, no numbered stones to place one by one
                cell_lights -= {"movable", "place"}
            assert cell_lights == listed, f"{game}: {sorted(cell_lights ^ listed)}"
        expect(page.locator('[data-light-name="dest"]')).to_contain_text("teal")


def lit(page, light):
    return set(page.locator(f'[data-cell][data-light="{light}"]').evaluate_all("cells => cells.map((c) => c.dataset.cell)"))


def message(page):
    return page.locator('[data-role="status"]')


def test_a_hint_that_captures_is_the_instruction_and_its_target_is_lit_as_the_target(open_page, tmp_path):
    # Black's stone 1 on a1 can only take one of its own stones (a2 or b1): the hint captures
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([1]))
    with served(session) as url:
        for width, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page = open_page(url, viewport=viewport, session=session)
            if width == "desktop":
                wait_for_prompt(page, "roll")
                page.click('[data-action="die"]')
                expect(page.locator('[data-role="die"]')).to_have_text("1", timeout=TIMEOUT)
                page.click('[data-action="hint"]')
            expect(message(page)).to_contain_text("hint", timeout=TIMEOUT)
            hinted = session.referee.shown_move()
            assert hinted.capture
            expect(message(page)).to_contain_text("take black stone ")
            expect(message(page)).to_contain_text(f"move stone 1 from a1 to {hinted.dst}")
            expect(cell(page, hinted.dst)).to_have_attribute("data-light", "dest")
            expect(cell(page, "a1")).to_have_attribute("data-light", "empty")
            shot(page, f"hint-{width}")


def test_the_computers_abalone_move_says_what_the_hands_do(open_page, tmp_path):
    session = PlaySession("abalone", games_dir=tmp_path, settings=FAST, computer=Computer("black", 1),
                          thinker=Thinker(seconds=0.2))
    with served(session) as url:
        page = open_page(url, session=session)
        wait_until(lambda: session.referee is not None and session.referee.shown_move() is not None,
                   "the computer's move")
        move = session.referee.shown_move()
        game = session.referee.game
        words = game.move_words(move)
        expect(message(page)).to_contain_text(words, timeout=TIMEOUT)
        steps = game.hand_steps(move)
        # every hollow the hands touch is named; a line is moved by lifting its back marble
        assert all(step.cell in words for step in steps if step.cell), words
        assert move.broadside or f"lift {move.marbles[0]}" in words
        # the lights show the first marble to lift, and where it goes when it goes down at once
        assert steps[0].cell in lit(page, "empty")
        if steps[1].source == steps[0].cell and steps[1].cell:
            assert steps[1].cell in lit(page, "dest")


def test_the_abalone_rim_names_its_rows_and_lines(open_page, tmp_path):
    session = PlaySession("abalone", games_dir=tmp_path, settings=FAST)
    with served(session) as url:
        for width, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page = open_page(url, viewport=viewport, session=session)
            expect(cell(page, "A1")).to_have_attribute("data-piece", "B", timeout=TIMEOUT)
            rim = page.locator("#board [data-rim]")
            labels = rim.evaluate_all("labels => labels.map((l) => l.textContent)")
            assert sorted(labels) == sorted("ABCDEFGHI123456789")
            # row A's letter beside A1, left of it; line 9's number beyond its lowest hollow, E9
            a1, a_label = cell(page, "A1").bounding_box(), page.locator('#board [data-rim="A"]').bounding_box()
            assert a_label["x"] + a_label["width"] < a1["x"] + a1["width"] / 2
            e9, nine = cell(page, "E9").bounding_box(), page.locator('#board [data-rim="9"]').bounding_box()
            assert nine["y"] > e9["y"] + e9["height"] / 2
            shot(page, f"abalone-rim-{width}")


def test_the_page_names_who_plays_and_offers_the_next_game_at_the_end(open_page, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, setup="given", players={"black": "Ann"},
                          computer=Computer("white", 2), thinker=Thinker(seconds=0.2))
    with served(session) as url:
        page = open_page(url, session=session)
        wait_for_prompt(page, "roll")
        players = page.locator('[data-role="players"]')
        expect(players).to_contain_text("Black: Ann")
        expect(players).to_contain_text("White: the computer, level 2")
        expect(page.locator('[data-action="resign"][data-player="white"]')).to_be_hidden()
        expect(page.locator('[data-role="over"]')).to_be_hidden()
        page.on("dialog", lambda dialog: dialog.accept())
        page.click('[data-action="resign"][data-player="black"]')
        over = page.locator('[data-role="over"]')
        expect(over).to_be_visible(timeout=TIMEOUT)
        expect(over.locator('[data-role="over-title"]')).to_have_text("White (the computer, level 2) wins")
        expect(over.locator('[data-role="over-words"]')).to_have_text("Black resigned · 0-1")
        first = session.referee
        for width, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            shot(open_page(url, viewport=viewport, session=session), f"game-over-{width}")
        page.click('[data-action="again"]')
        wait_until(lambda: session.referee is not first and session.referee.phase.value != "over", "the next game")
        assert session.referee.computer == Computer("white", 2) and session.players == {"black": "Ann"}
        expect(over).to_be_hidden(timeout=TIMEOUT)
        assert not page.errors


def test_a_page_without_the_token_says_how_to_get_control(open_page, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST)
    with served(session, token="owner-t0ken") as url:
        watcher = open_page(url, session=session)
        note = watcher.locator('[data-role="watch-note"]')
        expect(note).to_be_visible(timeout=TIMEOUT)
        expect(note).to_contain_text("token")
        owner = open_page(url + "/?token=owner-t0ken", session=session)
        expect(owner.locator('[data-role="turn"]')).not_to_be_empty(timeout=TIMEOUT)
        expect(owner.locator('[data-role="watch-note"]')).to_be_hidden()
        expect(owner.locator('[data-action="hint"]')).to_be_enabled(timeout=TIMEOUT)


def test_a_first_game_guide_beside_the_board_says_how_hands_move_and_what_the_lights_mean(open_page, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([3]))
    with served(session) as url:
        page = open_page(url, session=session)
        wait_for_prompt(page, "roll")
        guide = page.locator('[data-role="guide"]')
        expect(guide).to_have_attribute("open", "")
        expect(guide).to_contain_text("click a piece to lift it")
        expect(guide.locator('[data-role="guide-hands"]')).to_contain_text("Press the die", timeout=TIMEOUT)
        now = page.locator('[data-role="lights-now"]')
        expect(now).to_contain_text("No hollow is lit")
        page.click('[data-action="die"]')
        expect(now.locator('[data-light-now="movable"]')).to_contain_text("the stone the die chose", timeout=TIMEOUT)
        # a line moves as the hands move it, in Abalone
        page.locator(".new-game summary").click()
        page.locator('[data-role="new-game"] input[name="game"][value="abalone"]').check()
        page.click('[data-action="new"]')
        expect(guide.locator('[data-role="guide-hands"]')).to_contain_text(
            "I6H6 moves the line I6–G6 towards F6", timeout=TIMEOUT)
        for width, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            seen = open_page(url, viewport=viewport, session=session)
            expect(seen.locator('[data-role="guide-hands"]')).to_contain_text("I6H6", timeout=TIMEOUT)
            if width == "phone":  # one column: the card comes after what to do now, before the moves and controls
                top = {role: seen.locator(f'[data-role="{role}"]').bounding_box()["y"]
                       for role in ("message", "first-game", "controls")}
                assert top["message"] < top["first-game"] < top["controls"], top
            shot(seen, f"first-game-guide-{width}")
        assert not page.errors
