"""Seven of the table's hard calls in a real browser (reconciler rules 2, 7 and 10).

- A big ball rolled onto a stone so fast that the stone's switch never opened: the page shows
  the ball in the hand with the capture it would be; when the next player presses the page's
  die button, the capture is recorded and the die rolls for them.
- A takeback after the next player had rolled: the mover moves again with the number they had,
  and the next player's number shows on the die at once, with no new press.
- Off Board: a push into a full sector slid in one motion, so that only the pusher's hole
  opens; the owner of the pushed ball puts it back on a free hole as their move (+E9). The
  push and the re-placement are recorded; the board never asks to undo the placement.
- Abalone: a push-off slid in one motion, so that only the trailing marble's hole opens; the
  next player pushes a line of the pusher's marbles back, taking it apart from the front (their
  first lift is one of the pusher's marbles). Both moves are recorded, no illegal state.
- Off Board: a push into a full sector with the pushed ball lifted off first, then its owner's
  re-placement next to the pusher's old hole; a pushing line lifted whole and put down ball by
  ball with pauses; two players' hands on the board at once. Each is recorded as the hands
  meant, with no illegal state shown.

Clicks cannot be quicker than the debounce, so what the hands do unseen (a ball knocked off a
stone, a line slid so that the pushed piece's hole never opens) is made on the simulated table
itself (the piece in the hand put where the pushed one stood, the pushed one into the box or a
player's hand, no switch opening), and everything else by clicks, as in test_web_table.py. The
Off Board and Abalone games are those of their traces in tests/traces, whose .record each page
must show.
"""

from contextlib import contextmanager
from pathlib import Path

import pytest

from reedboard.controller.core.reconcile import Settings
from reedboard.controller.games import BigBalls
from reedboard.controller.persist.notation import header_lines, record_lines
from reedboard.controller.persist.trace import read_trace
from reedboard.controller.session.hand_table import Held
from reedboard.controller.session.play_session import PlaySession, ScriptedDie
from reedboard.controller.web.background import served

from in_browser import FAST, TIMEOUT, cell, click, expect, record, shot, wait_for_prompt

pytestmark = pytest.mark.system

TRACES = Path(__file__).resolve().parent / "traces"

# Every look the board's message took (data-kind: "illegal" for a position to put right,
# "error" for a refused request), seen by the page itself however briefly it showed.
LOOKS = """document.addEventListener("DOMContentLoaded", () => {
  window.looks = [];
  const message = document.querySelector('[data-role="message"]');
  new MutationObserver(() => window.looks.push(message.dataset.kind || ""))
    .observe(message, { attributes: true, attributeFilter: ["data-kind"] });
});"""


def knock(session, dst: str) -> None:
    """The piece in the hand lands on `dst`, knocking its piece into the box unseen."""
    table = session.table
    victim = table.physical[dst]
    table.physical[dst] = table.hand.pop().piece
    table.box.append(victim)


def catch(session, dst: str) -> None:
    """The piece in the hand lands on `dst`, pushing its piece off the board into the hand
    (caught) unseen."""
    table = session.table
    pushed = table.physical[dst]
    table.physical[dst] = table.hand.pop().piece
    table.hand.append(Held(pushed, dst))


def test_a_big_balls_quick_swap_counts_when_the_next_player_presses_the_die(open_page, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([5]))
    with served(session) as url:
        page = open_page(url, session=session)
        wait_for_prompt(page, "roll")
        for src, dst in (("a5", "a4"), ("c5", "d4")):
            click(page, src)
            click(page, dst)
        expect(page.locator('[data-role="record"] > li')).to_have_count(2, timeout=TIMEOUT)
        click(page, "d4")  # Black's ball rolls onto White's 6 on e3 ...
        knock(session, "e3")  # ... and knocks it out before its switch opens
        wait_for_prompt(page, "in_hand")  # to the board, a ball in the hand that may take e3
        assert record(page) == ["BB a5-a4", "BB c5-d4"]
        page.click('[data-action="die"]')  # White starts
        expect(page.locator('[data-role="die"]')).to_have_text("5", timeout=TIMEOUT)
        expect(page.locator('[data-role="record"] > li')).to_have_count(3, timeout=TIMEOUT)
        assert record(page) == ["BB a5-a4", "BB c5-d4", "BB d4xe3"]
        wait_for_prompt(page, "move")
        expect(cell(page, "e3")).to_have_attribute("data-piece", "ball")
        expect(cell(page, "f2")).to_have_attribute("data-light", "movable")  # White's 5 may move
        assert session.referee.game.turn == "white"
        assert not page.errors


def test_the_next_players_roll_shows_again_at_once_after_a_takeback(open_page, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([6, 1]))
    with served(session) as url:
        page = open_page(url, session=session)
        die = page.locator('[data-role="die"]')
        wait_for_prompt(page, "roll")
        page.click('[data-action="die"]')
        expect(die).to_have_text("6", timeout=TIMEOUT)
        click(page, "a3")
        click(page, "b3")
        expect(page.locator('[data-role="record"] > li')).to_have_count(1, timeout=TIMEOUT)
        wait_for_prompt(page, "roll")
        page.click('[data-action="die"]')  # White rolls a 1
        expect(die).to_have_text("1", timeout=TIMEOUT)
        click(page, "b3")  # Black takes the move back
        click(page, "a3")
        expect(page.locator('[data-role="record"] > li')).to_have_count(0, timeout=TIMEOUT)
        expect(die).to_have_text("6", timeout=TIMEOUT)  # Black moves again with its 6
        click(page, "a3")
        click(page, "a4")
        expect(page.locator('[data-role="record"] > li')).to_have_count(1, timeout=TIMEOUT)
        # White's 1 stands and shows at once: White moves with it, pressing nothing
        expect(die).to_have_text("1", timeout=TIMEOUT)
        wait_for_prompt(page, "move")
        expect(page.locator('[data-action="die"]')).to_be_disabled()
        click(page, "e1")
        click(page, "d2")
        expect(page.locator('[data-role="record"] > li')).to_have_count(2, timeout=TIMEOUT)
        assert record(page) == ["6 a3-a4", "1 e1-d2"]
        assert not page.errors


@contextmanager
def trace_page(open_page, tmp_path, name, settings=FAST):
    """The page of a trace's game (its board or layout, its start), served, waiting for the first
    move: (page, session, the record's list on the page, the record the trace's hands meant)."""
    game = read_trace(TRACES / f"{name}.jsonl").game()
    expected = (TRACES / f"{name}.record").read_text().splitlines()
    session = PlaySession(game, games_dir=tmp_path, settings=settings)
    with served(session) as url:
        page = open_page(url, init_script=LOOKS, session=session)
        wait_for_prompt(page, "move")
        yield page, session, page.locator('[data-role="record"] > li'), expected


def moves_of(expected, session):
    """The moves of a record: the lines after its header."""
    return expected[len(header_lines(session.game)):]


def shows_the_record(page, session, expected):
    """The page's move list is the record's moves, the server's whole record is the record, and
    the board never showed an illegal state or refused anything."""
    moves = moves_of(expected, session)
    expect(page.locator('[data-role="record"] > li')).to_have_count(len(moves), timeout=TIMEOUT)
    assert record(page) == moves
    assert record_lines(session.referee.game) == expected
    assert not {"illegal", "error"} & set(page.evaluate("window.looks"))
    assert not {"illegal", "refused", "takeback", "amend"} & {note.kind for note in session.referee.notes}
    assert not page.errors


def test_off_board_a_slid_push_into_a_full_sector_then_the_ball_put_back(open_page, tmp_path):
    with trace_page(open_page, tmp_path, "offboard-full-sector-slid-then-replaced") as (page, session, count, expected):
        # Red's line C4-B3 slides onto A2, the yellow ball there rolls into S1
        click(page, "C4")
        catch(session, "A2")
        click(page, "S1")
        expect(count).to_have_count(1, timeout=TIMEOUT)
        click(page, "I9")  # Yellow
        click(page, "I8")
        expect(count).to_have_count(2, timeout=TIMEOUT)
        # Red's line C3-B2 slides onto A1: S1 is full, the yellow ball leaves the board (Yellow
        # catches it), and neither its hole nor B2 ever opens; to the board, a red ball is in the hand
        click(page, "C3")
        catch(session, "A1")
        wait_for_prompt(page, "in_hand")
        assert record(page) == moves_of(expected, session)[:2]
        # Yellow puts the pushed ball back on a free hole: that is their move
        click(page, "E9")
        expect(count).to_have_count(4, timeout=TIMEOUT)
        expect(cell(page, "E9")).to_have_attribute("data-piece", "Y")
        expect(cell(page, "A1")).to_have_attribute("data-piece", "R")
        expect(page.locator('[data-role="turn"]')).to_have_text("red to move")
        click(page, "H4")  # and Red moves on
        click(page, "H5")
        wait_for_prompt(page, "move")
        shows_the_record(page, session, expected)
        shot(page, "hard-call-offboard-full-sector-slid-then-replaced")


# Abalone, the trace's moves 1-7, hole by hole as its hands went (lines taken apart from the front)
ABALONE_OPENING = [
    ["C4", "D4", "C5", "D5"],  # C4C5D4, a broadside
    ["G7", "F6", "H8", "G7", "I9", "H8"],  # I9H8
    ["D5", "E6"],  # D5E6
    ["E6", "D6", "F6", "E6", "G6", "F6", "H6", "G6"],  # H6G6 pushes E6 to D6
    ["B4", "C5", "B5", "C6", "B6", "C7"],  # B4B6C5, a broadside
    ["C6", "B6", "D6", "C6", "E6", "D6", "F6", "E6", "G6", "F6"],  # G6F6 pushes D6 and C6
    ["C5", "C4", "C6", "C5", "C7", "C6"],  # C7C6
]


def test_abalone_a_slid_push_off_then_the_line_pushed_back_from_the_front(open_page, tmp_path):
    # A line pushed marble by marble passes boards that are shorter moves' results: the clicks
    # are quick hands only while no pause between two of them reaches the settle time, so on a
    # loaded machine (the page, the server and the browser on two busy cores) it is 1 s here.
    hands = Settings(settle=1.0, grace=1.5)
    with trace_page(open_page, tmp_path, "abalone-push-off-slid-then-pushed-back", hands) as (page, session, count,
                                                                                              expected):
        for moves, clicks in enumerate(ABALONE_OPENING, start=1):
            for name in clicks:
                click(page, name)
            expect(count).to_have_count(moves, timeout=TIMEOUT)
        # White's line F6-E6-D6 slides one hole on: the black marbles of C6 and B6 go with it,
        # B6's off the board; only F6 ever opens, so to the board a white marble is in the hand
        click(page, "F6")
        knock(session, "C6")
        wait_for_prompt(page, "in_hand")
        assert record(page) == moves_of(expected, session)[:7]
        # Black pushes White's line C6-D6-E6 back, from the front: White's C6 first
        for name in ["C6", "C7", "C5", "C6", "C4", "C5", "C3", "C4"]:
            click(page, name)
        expect(count).to_have_count(9, timeout=TIMEOUT)
        expect(page.locator('[data-role="score"] [data-player="white"] b')).to_have_text("1")
        expect(cell(page, "C7").locator(".pc.marble.white")).to_have_count(1)
        click(page, "C7")  # and White moves on
        click(page, "D8")
        wait_for_prompt(page, "move")
        shows_the_record(page, session, expected)
        shot(page, "hard-call-abalone-push-off-slid-then-pushed-back")


def put(page, session, name, lifted_from):
    """Put down the piece in the hand that was lifted from `lifted_from` (so that every colour
    lands where the hands put it), on the hollow `name`."""
    hand = session.table.hand
    session.table.select(next(i for i, held in enumerate(hand) if held.origin == lifted_from))
    click(page, name)


def fill_s2_and_reply(page, count):
    """The S2 traces' first two moves: Red's C3-B3x1 into the free S2, ball by ball from the front
    (it is full from then on), and Yellow's I9-I8."""
    for name in ("A3", "S2", "B3", "A3", "C3", "B3", "I9", "I8"):
        click(page, name)
    expect(count).to_have_count(2, timeout=TIMEOUT)


def red_moves_on(page, session, expected, name):
    """Red's H4-H5 ends the trace: the page and the server show its record, and the screenshot."""
    click(page, "H4")
    click(page, "H5")
    wait_for_prompt(page, "move")
    shows_the_record(page, session, expected)
    shot(page, f"hard-call-{name}")


def test_off_board_a_push_into_a_full_sector_seen_then_the_ball_put_back(open_page, tmp_path):
    """Red lifts the yellow ball off first, so its hole is seen empty, and moves the line in; the
    board stands; Yellow puts the ball back next to the pusher's old hole. The push counts with
    its evidence, and the re-placement is Yellow's, not a plain move of Red's (rule 2)."""
    with trace_page(open_page, tmp_path, "offboard-full-sector-evidenced-then-replaced") as (page, session, count, expected):
        fill_s2_and_reply(page, count)
        click(page, "A4")  # the yellow ball lifted off towards the full S2: Yellow's to put back
        click(page, "B4")
        put(page, session, "A4", "B4")
        click(page, "C4")
        put(page, session, "B4", "C4")
        expect(count).to_have_count(3, timeout=TIMEOUT)  # after the settle time, with its evidence
        put(page, session, "C5", "A4")  # Yellow re-places the ball next to C4
        expect(count).to_have_count(4, timeout=TIMEOUT)
        expect(cell(page, "C5")).to_have_attribute("data-piece", "Y")
        red_moves_on(page, session, expected, "offboard-full-sector-seen-then-replaced")


def test_off_board_a_pushing_line_put_down_ball_by_ball_with_pauses(open_page, tmp_path):
    """Red lifts the ball it pushes off and its whole line, and puts the balls down from the front
    with a pause between them: the board on the way also looks like a quick swap and a move of
    Yellow's, but the mover's own move, still in the hand, comes first (rule 2)."""
    with trace_page(open_page, tmp_path, "offboard-line-put-down-ball-by-ball") as (page, session, count, expected):
        fill_s2_and_reply(page, count)
        for name in ("A4", "B4", "C4"):
            click(page, name)
        put(page, session, "A4", "B4")
        page.wait_for_timeout(4 * FAST.settle * 1000)  # longer than the settle time, pieces in the hand
        assert record(page) == moves_of(expected, session)[:2]
        put(page, session, "B4", "C4")
        expect(count).to_have_count(3, timeout=TIMEOUT)
        put(page, session, "C5", "A4")
        red_moves_on(page, session, expected, "offboard-line-put-down-ball-by-ball")


def test_off_board_two_hands_on_the_board_at_once(open_page, tmp_path):
    """Yellow lifts its ball while Red's is still in Red's hand, and both put theirs down: the
    colours split the board into Red's move and then Yellow's (rule 10)."""
    with trace_page(open_page, tmp_path, "offboard-two-hands") as (page, session, count, expected):
        click(page, "H4")  # Red
        click(page, "I9")  # Yellow, at once
        put(page, session, "H5", "H4")
        put(page, session, "I8", "I9")
        expect(count).to_have_count(2, timeout=TIMEOUT)
        expect(cell(page, "H5")).to_have_attribute("data-piece", "R")
        expect(cell(page, "I8")).to_have_attribute("data-piece", "Y")
        click(page, "C4")
        click(page, "C5")
        wait_for_prompt(page, "move")
        shows_the_record(page, session, expected)
        shot(page, "hard-call-offboard-two-hands")
