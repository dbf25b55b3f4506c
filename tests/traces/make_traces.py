"""Write the trace files of tests/traces and the records they must replay to.

Run from the project root: python tests/traces/make_traces.py
Each scenario is a TraceBuilder script: what hands at the table do, and what the game
should make of it (the shadow game gives the expected .record). The traces are committed;
this script says how they were made and remakes them after a deliberate change.
"""

from __future__ import annotations

import random
import sys
import tomllib
from importlib import resources
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from reedboard.controller.games import OffBoard  # noqa: E402
from reedboard.controller.games.offboard_layout import parse_layout  # noqa: E402
from physical import TraceBuilder  # noqa: E402

SETTLE, GRACE = 0.8, 1.5


def default_board() -> dict:
    text = resources.files("reedboard.controller.games").joinpath("data/offboard.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def board_with(red: list[str], yellow: list[str], quarters: bool = False) -> dict:
    """The default board with another start position; `quarters` merges the sectors into four
    (S1: 3 points, S2: 1, S3: 3, S4: 1), so that one sector spans a whole corner."""
    data = default_board()
    data["start"] = {"red": red, "yellow": yellow}
    if quarters:
        old = {t["name"]: t["exits"] for t in data["sector"]}
        corners = {"A1-SW", "A5-SE", "E9-E", "I9-NE", "I5-NW", "E1-W"}
        groups = [("S1", 3, [1, 2, 3]), ("S2", 1, [4, 5, 6]), ("S3", 3, [7, 8, 9]), ("S4", 1, [10, 11, 12])]
        data["sector"] = [
            {"name": name, "value": value, "exits": [e for n in members for e in old[f"S{n}"] if e not in corners]}
            for name, value, members in groups
        ]
    parse_layout(data, "check")  # fail here, not in the tests, if the board is wrong
    return data


def offboard_from(board: dict, **kwargs) -> TraceBuilder:
    game = OffBoard(parse_layout(board, "the recorded board"))
    return TraceBuilder(game, {"game": "offboard", "board": board}, **kwargs)


# --- Big Balls ----------------------------------------------------------------------------
def bb_capture(order: str) -> TraceBuilder:
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("BB b5-b4")
    return b.play("6 a3xa4", order).play("1 e1xe2", order).play("1 a1xa2", order)


def bb_quick_swap() -> TraceBuilder:
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("BB c5-d4")
    b.wait(b.think).press("die", 6)
    b.lift("a3").wait(SETTLE + 0.5)  # the ball on a4 goes and the stone lands inside one debounce
    b.game.push(b.game.parse_move("6 a3xa4"))
    return b.wait(b.think).play("BB b5-b4")


def bb_amend() -> TraceBuilder:
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4")
    b.lift("a4", after=0.4).place("b4")  # Black changes the ball's way before White starts
    b.game.pop()
    b.game.push(b.game.parse_move("BB a5-b4"))
    return b.play("BB c5-c4")


def bb_touch() -> TraceBuilder:
    b = TraceBuilder.bigballs()
    b.lift("b6", after=1.0).place("b6", after=0.6)  # a big ball picked up and put back
    b.press("die", 2).lift("b1").place("b1", after=0.5)  # stone 2 lifted and put back
    return b.play("2 b1xb2", press_die=False)


def bb_bump() -> TraceBuilder:
    b = TraceBuilder.bigballs()
    b.wait(1.0).lift("a5").lift("b5", after=0.1).place("b5", after=0.15).place("a4")  # knocks b5 on the way
    b.game.push(b.game.parse_move("BB a5-a4"))
    return b.play("BB c5-c4")


def bb_illegal() -> TraceBuilder:
    b = TraceBuilder.bigballs()
    b.wait(1.0).lift("c5").place("c4")  # a big ball rolls, but
    b.game.push(b.game.parse_move("BB c5-c4"))
    b.wait(1.0).lift("c4").place("c2", after=0.4)  # White rolls it on two rows down: no move
    b.wait(GRACE + 0.7).lift("c2").place("c4", after=0.6)  # guided back by the lights
    return b.play("BB b5-b4")


def bb_before_roll() -> TraceBuilder:
    b = TraceBuilder.bigballs()
    b.wait(1.0).lift("a3").place("b3")  # stone 6 moved, no die pressed
    b.press("die", 6, after=0.5)  # refused: the board must be put right first
    b.wait(GRACE).lift("b3").place("a3", after=0.5)
    return b.play("6 a3-b3")


def bb_ambiguous() -> TraceBuilder:
    b = TraceBuilder.bigballs()
    b.wait(1.0).press("die", 1).lift("a1").wait(SETTLE + 0.5)  # stone 1 can take a2 or b1
    b.press("ok")  # the capture was made (the victim knocked out unseen): which one is asked
    b.lift("b1").place("b1", after=0.4)  # the prompt: touching b1 says which
    b.game.push(b.game.parse_move("1 a1xb1"))
    return b.play("BB c5-c4")


def bb_takeback(count: int) -> TraceBuilder:
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("5 f2xe2")
    b.wait(1.0).lift("e2").place("f2", after=0.5).place("e2", after=0.5)  # White takes it back
    b.wait(SETTLE + 0.5)
    b.game.pop()
    if count == 2:
        b.lift("a4").place("a5", after=0.5).wait(SETTLE + 0.5)  # and Black's too
        b.game.pop()
        return b.play("BB b5-b4")
    return b.play("5 f2xe3", press_die=False)  # the die still shows 5: White moves again with it


def bb_hesitate() -> TraceBuilder:
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("BB c5-d4")
    b.wait(b.think).press("die", 6)
    b.lift("a3").wait(2.0).place("a3")  # stone 6 in the hand while Black thinks (a3xa4 is its only capture)
    return b.play("6 a3-b3", press_die=False)  # then the real move, with the same roll


def bb_capture_the_piece_just_moved() -> TraceBuilder:
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("BB c5-d4").play("6 a3-b3")
    # White lifts Black's stone from b3 and thinks: the board is what 6 a3xa4 would have left,
    # but nobody touched a4. Then the big ball from a4 takes b3.
    b.wait(b.think).lift("b3").wait(2.0)
    b.lift("a4").place("b3")
    b.game.push(b.game.parse_move("BB a4xb3"))
    return b.wait(SETTLE + 0.5)


def bb_ball_quick_swap(then: str) -> TraceBuilder:
    """Black rolls a big ball onto White's stone so fast that the stone's switch never opens
    (or only flickers, under the debounce); White then starts: presses the die, or moves a big
    ball of their own. The capture counts when White starts (rule 2)."""
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("BB c5-d4")
    b.wait(b.think).lift("d4")  # the ball leaves d4 and knocks White's 6 out of e3 unseen
    b.lift("e3", after=0.3).place("e3", after=0.004)  # a flicker of 4 ms
    b.game.push(b.game.parse_move("BB d4xe3"))
    b.wait(1.5)  # White looks at the board, then starts
    if then == "die":
        return b.play("5 f2xe3").play("BB b5-b4")
    return b.play("BB b5-b4").play("BB b4-b3")


def bb_takeback_after_the_next_roll() -> TraceBuilder:
    """Black captures, White rolls, Black takes the capture back and moves again with the 6 it
    had; White's 2 stands and shows again at once: White moves with it, pressing nothing (rule 7)."""
    b = _capture_taken_back_after_the_next_roll()
    return b.play("2 f1xf2", press_die=False).play("BB b5-b4")


def _capture_taken_back_after_the_next_roll() -> TraceBuilder:
    """Black takes stone 6's capture on a4 back after White rolled a 2, and plays the 6 to b3."""
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("BB c5-d4").play("6 a3xa4", "mover-first")
    b.press("die", 2, after=1.0)  # White rolls
    b.lift("a4", after=0.8).place("a3", after=0.4).place("a4", after=0.6)  # Black takes it back
    b.wait(SETTLE + 0.5)
    b.game.pop()
    return b.play("6 a3-b3", press_die=False)  # the die shows Black's 6 again


def bb_amend_while_the_next_roll_stands() -> TraceBuilder:
    """Black takes a capture back after White rolled a 2 and plays the 6 elsewhere; White's 2
    shows at once. Black then thinks better of it and moves the stone on, taking a4 after all:
    the amendment counts (a number shown is no start of White's), and White's 2 still stands
    (R15)."""
    b = _capture_taken_back_after_the_next_roll()  # then the die shows White's 2
    b.wait(SETTLE + 0.5).lift("b3").lift("a4").place("a4")  # on to a4, taking White's 6
    b.game.pop()
    b.game.push(b.game.parse_move("6 a3xa4"))
    return b.play("2 f1xf2", press_die=False).play("BB b5-b4")


def bb_two_quick_swaps_then_die() -> TraceBuilder:
    """Black's ball knocks White's 6 out of e3 unseen; White's ball, on its turn, knocks Black's
    stone out of a3 just as fast; Black presses the die. Each swap counts in its turn, then the
    die rolls for Black (rule 2)."""
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("BB c5-d4")
    b.wait(b.think).lift("d4")  # d4xe3, e3's switch never open
    b.game.push(b.game.parse_move("BB d4xe3"))
    b.lift("a4", after=1.0)  # a4xa3, a3's switch never open
    b.game.push(b.game.parse_move("BB a4xa3"))
    b.press("die", 4, after=1.0)  # Black starts
    return b.play("4 a2xa3", "victim-first", press_die=False)


def bb_game_to_a7(seed: int = 7) -> TraceBuilder:
    rng = random.Random(seed)
    b = TraceBuilder.bigballs(setup=shuffled(rng), step=0.25, think=0.9)
    orders = ["victim-first", "mover-first"]
    while b.game.outcome() is None:
        game = b.game
        if game.can_roll():
            roll = rng.randint(1, 6)
            moves = game.stone_moves(roll)
            best = max(GRID_ROW(m.dst) for m in moves)
            move = rng.choice([m for m in moves if GRID_ROW(m.dst) == best])
        else:
            move = rng.choice(game.big_ball_moves())
        b.play(str(move), rng.choice(orders))
    return b


def GRID_ROW(hollow: str) -> int:
    return int(hollow[1:])


def shuffled(rng: random.Random) -> dict:
    setup = {}
    for colour, hollows in (("black", ["a1", "b1", "c1", "a2", "b2", "a3"]), ("white", ["e1", "f1", "g1", "e2", "f2", "e3"])):
        numbers = list(range(1, 7))
        rng.shuffle(numbers)
        setup[colour] = dict(zip(hollows, numbers))
    return setup


# --- Off Board -----------------------------------------------------------------------------
PUSH_OFF_BOARD = board_with(red=["C3", "B2", "E5", "F5"], yellow=["A1", "D6", "G7", "H8"])


def ob_push_off(order: str) -> TraceBuilder:
    b = offboard_from(PUSH_OFF_BOARD)
    return b.play("C3-B2x1", order).play("D6-D5", order).play("E5-F6", order)


def ob_quick_swap() -> TraceBuilder:
    board = board_with(red=["E2", "E3", "E4", "A1"], yellow=["E5", "E6", "I9"])
    b = offboard_from(board)
    return b.play("E2-E3x2", "slide").play("I9-I8", "slide")


FIVE = board_with(red=["E1", "E2", "E3", "E4", "E5", "A1"], yellow=["I9", "I8"])


def ob_five_ball_line() -> TraceBuilder:
    b = offboard_from(FIVE, step=0.35)  # every pause shorter than the settle time
    return b.play("E1-E2", "front-first").play("I9-H9", "front-first")


def ob_amend() -> TraceBuilder:
    b = offboard_from(FIVE)
    b.wait(1.0).lift("E5").place("E6", after=0.3).wait(SETTLE + 0.4)  # a pause: E5-E6 counts ...
    b.lift("E4").place("E5", after=0.3).wait(SETTLE + 0.4)  # ... then E4-E5 replaces it
    b.game.push(b.game.parse_move("E4-E5"))
    return b.play("I9-H9")


def ob_touch() -> TraceBuilder:
    b = offboard_from(PUSH_OFF_BOARD)
    b.lift("E5", after=1.0).place("E5", after=0.7)
    b.lift("A1", after=0.5).place("A1", after=0.3)  # even the opponent's ball
    return b.play("C3-B2x1")


def ob_bump() -> TraceBuilder:
    b = offboard_from(PUSH_OFF_BOARD)
    b.wait(1.0).lift("E5").lift("F5", after=0.1).place("F5", after=0.1).place("E6", after=0.3)
    b.game.push(b.game.parse_move("E5-E6"))
    return b.play("D6-D5")


def ob_illegal() -> TraceBuilder:
    b = offboard_from(PUSH_OFF_BOARD)
    b.wait(1.0).lift("D6").place("D5", after=0.3)  # Red moves a yellow ball
    b.wait(GRACE + 0.6).lift("D5").place("D6", after=0.4)
    return b.play("E5-E4")


def ob_ambiguous() -> TraceBuilder:
    board = board_with(red=["C3", "B2", "C2", "D3", "D2"], yellow=["A1", "C1", "D1", "E5"], quarters=True)
    b = offboard_from(board)
    b.play("D3-D2x1").play("E5-E6")  # D1 pushed off into S4
    b.wait(1.0).lift("C3").lift("A1", after=0.2).place("A1", after=0.01)  # quick: no trace but C3
    b.lift("A1", after=0.005).place("A1", after=0.005)  # (a bounce)
    b.wait(SETTLE + 0.6).press("ok")  # Red says the move is made: which push-off is asked
    b.lift("C2", after=0.3).place("C2", after=0.4)  # the prompt: C2 says which
    b.game.push(b.game.parse_move("C3-C2x1"))
    return b


def ob_takeback(count: int) -> TraceBuilder:
    b = offboard_from(PUSH_OFF_BOARD)
    b.play("E5-E6").play("D6-D5")
    b.wait(1.0).lift("D5").place("D6", after=0.4).wait(SETTLE + 0.5)
    b.game.pop()
    if count == 2:
        b.lift("E6").place("E5", after=0.4).wait(SETTLE + 0.5)
        b.game.pop()
    return b.play("F5-G6" if count == 2 else "G7-G6")


OB_BEFORE_TAKEBACK_THROUGH_HELD = (
    "F4-E4", "G7-F7", "G4-G5x1", "D5-D6", "B2-C3", "D8-D7", "C3-C2", "C6-D6", "F3-E2", "F7-E6x2", "C2-B1",
    "D6-D5x1", "G5-G6x1", "F6-F7", "B1-C2", "D4-C4x1", "D3-E4x1", "D7-E7", "G6-H7x1 S7+1", "F7-E6x2 S1+1",
    "A2-A3", "C4-B4x1 S2+2", "F5-G6", "C5-B4x1 S1 full", "*E2-D2", "B4-B3", "G7-G6", "B2-A2", "C2-C3",
    "A2-B2", "E5-E4", "D5-D6", "E3-D2", "G8-H8x1 S7 full", "*H5-G5",
)


def ob_takeback_through_held() -> TraceBuilder:
    """Yellow's A3-B3x1 pushes Red's ball from C3 to D3. Yellow takes it back from the front:
    D3's ball lifted leaves the board of Red's D3-E4x1 into the full S7 made in one motion (a
    capture held), then the balls on C3 and B3 are lifted too, and the three put back one hollow
    further back, from the tail. That is Yellow's takeback under way, not Red starting after a
    quick swap: the board waits, and the push is undone (R13)."""
    b = TraceBuilder.offboard()
    for text in OB_BEFORE_TAKEBACK_THROUGH_HELD:
        b.play(text)
    b.play("A3-B3x1", "front-first")
    b.wait(SETTLE + 0.5)
    b.lift("D3").lift("C3").lift("B3").place("A3").place("B3").place("C3").wait(SETTLE + 0.5)
    b.game.pop()
    return b.play("A3-B3x1").play("E4-D3")


FULL_SECTOR = board_with(red=["C4", "B3", "C3", "B2", "H4"], yellow=["A2", "A1", "I9", "H9"])


def ob_full_sector_slid_then_replaced() -> TraceBuilder:
    """Red pushes a yellow ball into S1, which holds one already, sliding the line in one motion:
    the pushed ball's hole never opens, so the board looks like a ball in Red's hand. Yellow
    then puts the waiting ball back on E9 as its move: the push counts first (rule 2)."""
    b = offboard_from(FULL_SECTOR)
    b.play("C4-B3x1", "slide").play("I9-I8")  # A2 pushed into S1: it scores
    b.wait(b.think).lift("C3")  # C3-B2x1 slid: A1's ball goes to the full S1 unseen
    b.game.push(b.game.parse_move("C3-B2x1"))
    return b.play("+E9").play("H4-H5")


def ob_next_player_before_the_settle_time() -> TraceBuilder:
    """Red moves the front ball of its line, E5-E6: the board waits out the settle time, since
    E4 could follow (a longer move). Yellow moves at once, before it is up: E5-E6 counts when
    Yellow lifts its ball, then Yellow's move (rule 3)."""
    b = offboard_from(FIVE)
    b.wait(1.0).lift("E5").place("E6", after=0.3)
    b.game.push(b.game.parse_move("E5-E6"))
    b.lift("I9", after=0.3).place("H9", after=0.15)
    b.game.push(b.game.parse_move("I9-H9"))
    return b.wait(SETTLE + 0.5).play("E4-E5")


def ob_game_to_six(seed: int = 3) -> TraceBuilder:
    rng = random.Random(seed)
    b = TraceBuilder.offboard(step=0.25, think=0.9)
    while b.game.outcome() is None:
        moves = b.game.legal_moves()
        scoring = [m for m in moves if m.points]
        pushes = [m for m in moves if m.pushed or m.is_replacement]
        move = rng.choice(scoring or (pushes if pushes and rng.random() < 0.7 else moves))
        b.play(str(move), rng.choice(["front-first", "slide"]))
    return b


def bb_resume() -> TraceBuilder:
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("2 f1xf2")
    # The power goes within the settle time of the capture: it never counted, so the journal
    # has Black's big-ball move and White's roll. The referee starts again on that record; the
    # lights ask for the board before the capture (White's 1 back on f1, the 5 on f2), and
    # White captures again with the 2 the die still shows.
    b.power_cut()
    b.game.pop()
    b.lift("f2").place("f1").place("f2")
    return b.play("2 f1xf2", press_die=False).play("BB b5-b4").play("BB c5-c4")


S2_FULL = board_with(red=["C4", "B4", "C3", "B3", "H4"], yellow=["A4", "A3", "I9", "H9"])


def ob_full_sector_evidenced_then_replaced() -> TraceBuilder:
    """Red pushes a yellow ball into S2, which holds one already, lifting the pushed ball off
    first (its hole is seen empty) and moving the line in; the board stands still, then Yellow
    puts the ball back on C5, next to the pusher's old hole. The push is a candidate with its
    evidence (rules 1-3): it counts after the settle time, and the re-placement is Yellow's."""
    b = offboard_from(S2_FULL)
    b.play("C3-B3x1", "front-first").play("I9-I8")
    b.play("C4-B4x1", "front-first").wait(3.0)
    return b.play("+C5").play("H4-H5")


def ob_line_put_down_ball_by_ball() -> TraceBuilder:
    """Red lifts the ball it pushes off and its whole line, then puts the balls down one by one
    from the front, pausing 1-2 s with the rest in the hand. Half-way the board looks like a
    quick swap into the full S2 and a move of Yellow's: the mover's own move, still in the hand,
    comes first (rule 2)."""
    b = offboard_from(S2_FULL)
    b.play("C3-B3x1", "front-first").play("I9-I8")
    b.wait(b.think).lift("A4").lift("B4").lift("C4")  # the pushed ball off, the line in the hand
    b.place("A4", after=0.4).wait(1.6).place("B4")
    b.game.push(b.game.parse_move("C4-B4x1"))
    return b.wait(2.0).play("+C5").play("H4-H5")


def bb_capturer_set_down_on_the_way() -> TraceBuilder:
    """Black's 6 on a3 may take the big ball on a4 or the one on b3. Black lifts the stone and
    the ball on b3, sets the stone down for half a second on c2, just below b3, then on b3. The
    board on the way is also a quick swap onto a4 and White's ball rolled from b3 to c2: the
    mover's move, a piece set down on its way, comes first (rule 2)."""
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("BB b5-b4").play("BB c5-c4").play("BB b4-b3")
    b.wait(b.think).press("die", 6)
    b.lift("a3").lift("b3").place("c2").lift("c2", after=0.5).place("b3")
    b.game.push(b.game.parse_move("6 a3xb3"))
    return b.play("BB c4-d3")


def bb_die_within_the_settle_time(capture: bool) -> TraceBuilder:
    """White presses the die 0.4 s after Black's move lands, before its settle time is up: the
    press is White starting, so Black's move counts at once and the die rolls for White (rule 2,
    R11)."""
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("BB b5-b4")
    b.play("6 a3xa4", "victim-first") if capture else b.play("6 a3-b3")
    b.press("die", 1, after=0.4)
    return b.play("1 e1xe2", press_die=False).play("BB c5-c4")


def ob_two_hands() -> TraceBuilder:
    """Yellow lifts its ball on I9 while Red's ball from H4 is still in Red's hand; Red puts it on
    H5, Yellow on I8. The colours split the board into two moves one way only (rule 10)."""
    b = offboard_from(S2_FULL)
    b.wait(1.0).lift("H4").lift("I9", after=0.2).place("H5", after=0.3).place("I8", after=0.3)
    b.game.push(b.game.parse_move("H4-H5"))
    b.game.push(b.game.parse_move("I9-I8"))
    return b.wait(2.0).play("C4-C5")


def bb_two_hands(capture: bool) -> TraceBuilder:
    """White rolls a big ball from b5 to b4 while Black's stone 6 is still on its way (a3 to b3,
    or taking the ball on a4): a stone moves only after its player's roll, so the stone is
    Black's and the ball White's (rule 10)."""
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("BB c5-d4")
    b.wait(b.think).press("die", 6)
    if capture:
        b.lift("a4").lift("a3").lift("b5", after=0.1).place("a4", after=0.2).place("b4", after=0.3)
    else:
        b.lift("a3").lift("b5", after=0.2).place("b4", after=0.2).place("b3", after=0.2)
    b.game.push(b.game.parse_move("6 a3xa4" if capture else "6 a3-b3"))
    b.game.push(b.game.parse_move("BB b5-b4"))
    return b.wait(2.0).play("BB a6-a5")


def bb_die_while_the_stone_is_in_the_hand() -> TraceBuilder:
    """White presses the die while Black's stone is still in Black's hand: White's number waits
    for White's turn and shows when the stone is down, with no new press (rule 10)."""
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("BB c5-d4")
    b.wait(b.think).press("die", 6)
    b.lift("a3").press("die", 1, after=0.2).place("b3", after=0.3)
    b.game.push(b.game.parse_move("6 a3-b3"))
    return b.play("1 e1-d2", press_die=False)


def bb_die_while_the_capture_is_in_the_hand() -> TraceBuilder:
    """Black rolled a 6 and lifts the stone on a3 (a quick swap onto a4 would look the same),
    thinks, then lifts the ball on a4 to take it; White presses the die before the stone is down.
    The victim seen gone makes the board Black's capture under way, however long the stone was
    held before: the press is White's, kept for White's turn (rule 10, R17)."""
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("BB c5-d4")
    b.wait(b.think).press("die", 6)
    b.lift("a3").lift("a4", after=0.6).press("die", 1, after=0.4).place("a4", after=0.3)
    b.game.push(b.game.parse_move("6 a3xa4"))
    return b.play("1 e1-d2", press_die=False)


def bb_die_while_the_ball_is_in_the_hand(put_back: bool) -> TraceBuilder:
    """The die is pressed while Black's big ball is in the hand, before Black rolled: the number
    is White's when the ball goes down as Black's move (rule 10), and Black's own roll when the
    ball goes back on its hollow (R20)."""
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("BB c5-d4")
    b.wait(b.think).lift("b5").press("die", 3, after=0.2)
    if put_back:
        b.place("b5", after=0.3)
        return b.play(str(b.game.turn_moves(3)[0]), press_die=False)
    b.place("b4", after=0.3)
    b.game.push(b.game.parse_move("BB b5-b4"))
    return b.play(str(b.game.turn_moves(3)[0]), press_die=False)



def bb_die_while_the_stone_is_held_long() -> TraceBuilder:
    """Black rolled a 6 and holds the stone from a3 for two seconds, thinking; it could take
    nothing. White presses the die meanwhile: the die is Black's already and no capture is held,
    so the press can only be White's, however long the stone is held (R17)."""
    b = TraceBuilder.bigballs()
    b.wait(b.think).press("die", 6)
    b.lift("a3").press("die", 1, after=2.0).place("b3", after=0.3)
    b.game.push(b.game.parse_move("6 a3-b3"))
    return b.play("1 e1-d2", press_die=False)


def bb_capturer_put_back() -> TraceBuilder:
    """Black's 6 on a3 may take the big ball on a4 or the one on b3. Black lifts the stone, lifts
    the ball on b3, puts the stone back on a3 and thinks: the board also looks like a quick swap
    onto a4 and White's ball rolled from b3 to a3. The swapping piece back on its hollow is the
    mover's hand (R10); Black then puts the stone on b3: `6 a3xb3`."""
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("BB b5-b4").play("BB c5-c4").play("BB b4-b3")
    b.wait(b.think).press("die", 6)
    b.lift("a3").lift("b3", after=1.0).place("a3", after=0.4)
    b.lift("a3", after=1.5).place("b3", after=0.4)
    b.game.push(b.game.parse_move("6 a3xb3"))
    return b.play("BB c4-d3")


def bb_capturer_put_back_after_a_press() -> TraceBuilder:
    """Black's 6 on a3 may take the big ball on a4 or the one on b3. Black lifts the stone and
    holds it; White presses the die: that is White starting after a quick swap (R2), and as two
    captures fit, which one is asked (R5). Black puts the stone back on a3: no swap after all
    (R10), the question goes, and Black then takes the ball on b3."""
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("BB b5-b4").play("BB c5-c4").play("BB b4-b3")
    b.wait(b.think).press("die", 6)
    b.lift("a3").press("die", 2, after=1.5).place("a3", after=1.0)
    b.play("6 a3xb3", press_die=False)
    return b.play("BB c4-d3")


def bb_capture_beside_a_held_stone() -> TraceBuilder:
    """Black rolled a 6 and holds the stone from a3 (a quick swap onto a4 would look the same).
    White takes Black's stone on c1 with the ball from c2, lifting the stone first; then, within
    the settle time, Black puts the stone on b3. White's capture, its victim seen gone since the
    held board (R3), waits for the settle time as the mover may still hold the stone (R16): two
    hands at once, `6 a3-b3`, then `BB c2xc1`."""
    b = TraceBuilder.bigballs()
    b.play("BB c5-c4").play("BB c4-c3").play("BB c3-c2").play("BB a5-a4")
    b.wait(b.think).press("die", 6)
    b.lift("a3").lift("c1", after=0.6).lift("c2", after=0.3).place("c1", after=0.3).place("b3", after=0.4)
    b.game.push(b.game.parse_move("6 a3-b3"))
    b.game.push(b.game.parse_move("BB c2xc1"))
    return b.wait(1.0).play("BB a4-a3")


def bb_ball_instead_of_a_kept_number() -> TraceBuilder:
    """Black rolls the big ball a5-a4, White c5-c4, Black rolls a 6 and plays `6 a3-b3`; all three
    are taken back. The die shows Black's 6 again; Black rolls the ball b5-b4 instead, which drops
    the number with no new roll (R19)."""
    b = TraceBuilder.bigballs()
    b.play("BB a5-a4").play("BB c5-c4").play("6 a3-b3")
    b.wait(1.0).lift("b3").place("a3", after=0.5).wait(SETTLE + 0.5)
    b.lift("c4", after=0.5).place("c5", after=0.5).wait(SETTLE + 0.5)
    b.lift("a4", after=0.5).place("a5", after=0.5).wait(SETTLE + 0.5)
    for _ in range(3):
        b.game.pop()
    b.play("BB b5-b4")
    return b.play("BB c5-c4")


SCENARIOS = {
    "bigballs-capture-victim-first": lambda: bb_capture("victim-first"),
    "bigballs-capture-mover-first": lambda: bb_capture("mover-first"),
    "bigballs-quick-swap": bb_quick_swap,
    "bigballs-amend": bb_amend,
    "bigballs-touch": bb_touch,
    "bigballs-bump": bb_bump,
    "bigballs-illegal": bb_illegal,
    "bigballs-before-roll": bb_before_roll,
    "bigballs-ambiguous": bb_ambiguous,
    "bigballs-takeback-one": lambda: bb_takeback(1),
    "bigballs-takeback-two": lambda: bb_takeback(2),
    "bigballs-hesitate": bb_hesitate,
    "bigballs-capture-the-piece-just-moved": bb_capture_the_piece_just_moved,
    "bigballs-game-to-a7": bb_game_to_a7,
    "bigballs-resume": bb_resume,
    "bigballs-ball-quick-swap-then-die": lambda: bb_ball_quick_swap("die"),
    "bigballs-ball-quick-swap-then-ball": lambda: bb_ball_quick_swap("ball"),
    "bigballs-amend-while-the-next-roll-stands": bb_amend_while_the_next_roll_stands,
    "bigballs-takeback-after-the-next-roll": bb_takeback_after_the_next_roll,
    "bigballs-two-quick-swaps-then-die": bb_two_quick_swaps_then_die,
    "offboard-push-off-front-first": lambda: ob_push_off("front-first"),
    "offboard-push-off-slide": lambda: ob_push_off("slide"),
    "offboard-quick-swap": ob_quick_swap,
    "offboard-five-ball-line": ob_five_ball_line,
    "offboard-amend": ob_amend,
    "offboard-touch": ob_touch,
    "offboard-bump": ob_bump,
    "offboard-illegal": ob_illegal,
    "offboard-ambiguous": ob_ambiguous,
    "offboard-takeback-one": lambda: ob_takeback(1),
    "offboard-takeback-two": lambda: ob_takeback(2),
    "offboard-game-to-six": ob_game_to_six,
    "offboard-next-player-before-the-settle-time": ob_next_player_before_the_settle_time,
    "offboard-full-sector-slid-then-replaced": ob_full_sector_slid_then_replaced,
    "offboard-takeback-through-a-held-capture": ob_takeback_through_held,
    "offboard-full-sector-evidenced-then-replaced": ob_full_sector_evidenced_then_replaced,
    "offboard-line-put-down-ball-by-ball": ob_line_put_down_ball_by_ball,
    "bigballs-capturer-set-down-on-the-way": bb_capturer_set_down_on_the_way,
    "bigballs-die-within-the-settle-time-after-a-capture": lambda: bb_die_within_the_settle_time(True),
    "bigballs-die-within-the-settle-time-after-a-move": lambda: bb_die_within_the_settle_time(False),
    "offboard-two-hands": ob_two_hands,
    "bigballs-two-hands": lambda: bb_two_hands(False),
    "bigballs-two-hands-capture": lambda: bb_two_hands(True),
    "bigballs-die-while-the-stone-is-in-the-hand": bb_die_while_the_stone_is_in_the_hand,
    "bigballs-die-while-the-ball-is-in-the-hand": lambda: bb_die_while_the_ball_is_in_the_hand(False),
    "bigballs-die-while-the-ball-is-in-the-hand-put-back": lambda: bb_die_while_the_ball_is_in_the_hand(True),
    "bigballs-die-while-the-stone-is-held-long": bb_die_while_the_stone_is_held_long,
    "bigballs-die-while-the-capture-is-in-the-hand": bb_die_while_the_capture_is_in_the_hand,
    "bigballs-capturer-put-back": bb_capturer_put_back,
    "bigballs-capturer-put-back-after-a-press": bb_capturer_put_back_after_a_press,
    "bigballs-capture-beside-a-held-stone": bb_capture_beside_a_held_stone,
    "bigballs-ball-instead-of-a-kept-number": bb_ball_instead_of_a_kept_number,
}


# --- Abalone ------------------------------------------------------------------------------
def ab_broadside() -> TraceBuilder:
    """Broadside moves made marble by marble, as hands make them, and all lifted at once."""
    b = TraceBuilder.abalone()
    b.play("C3C5D3", "ball-by-ball").play("G5G7F5", "ball-by-ball")
    return b.play("B1B2C1", "lift-all")


def ab_push(order: str) -> TraceBuilder:
    """Three marbles push two: the black line meets White's pair head on."""
    b = TraceBuilder.abalone()
    b.play("A1B2", order).play("H8G7", order).play("B2C3", order).play("I5H5", order)
    return b.play("C3D4", order)


def ab_push_off(order: str) -> TraceBuilder:
    """Three push two at the edge: the far white marble leaves the board."""
    b = TraceBuilder.abalone()
    for text in ("A4B4", "G6G5", "B4C4", "G5G6", "C4D4", "G6G5"):
        b.play(text)
    return b.play("D4E4", order)


AB_BEFORE_PUSH_OFF = {
    # White's E6E7 pushes a black marble off; Black's D3D2 then pushes a white one off
    "push-off": ("A5B6", "I6H6", "C7D7", "I8H7", "A2B2", "F6G7E6", "A4B5", "I7H7", "C6D7", "H7I7", "C4B4",
                 "G5F5", "B1C1", "H8H7", "A3B4", "H4H6G3", "C5D5", "F5E5", "D7D6", "F7E6", "A1B2", "E5E6",
                 "C5D6", "G6F6", "E8E7", "D6D5", "B4C4", "I5H5", "C2D3", "G4H5", "D3D4", "H7I7G6", "E7D7",
                 "F6F5", "C4D4", "G6F5", "E6F6", "G5H6", "B6C6", "F5E4", "D6D7E7", "E4E5", "D5D4", "E5E6",
                 "D4D3", "E6E7"),
    # White's F6E6 pushes a black marble off; Black's C3C4 then pushes white marbles back
    "push": ("C4C5D4", "I9H8", "D5E6", "H6G6", "B4B6C5", "G6F6", "C7C6", "F6E6"),
}


def ab_push_off_then_pushed_back(reply: str, black: str) -> TraceBuilder:
    """White pushes a black marble off in one slide (only the trailing hole opens); Black then
    pushes a line of White's marbles, taking it apart from the front, so that Black's first
    lift is a white marble. The push-off counts when Black starts (rule 2), and the hole that
    lift opened counts as touched for Black's own push."""
    b = TraceBuilder.abalone()
    *before, push_off = AB_BEFORE_PUSH_OFF[reply]
    for text in before:
        b.play(text)
    move = b.game.parse_move(push_off)
    b.wait(b.think).lift(move.marbles[0])  # slid in one motion: only the trailing hole opens
    b.game.push(move)
    assert move.off and b.occupied == set(b.game.occupied())
    b.play(black, "front-first")
    return b.play(str(b.game.legal_moves()[0]))


def ab_two_push_offs_slid_then_pushed_off() -> TraceBuilder:
    """White slides E7E8 in one motion: only E7 opens, and E7D7 would leave the same board.
    Black pushes a white marble off at once, taking the line apart from the front. The board
    asks which push-off White made; a touch on a marble only E7E8 moved answers, and Black's
    push-off, made in the meantime, counts after it with the marble it lifted first as its
    evidence (rules 2 and 6)."""
    b = TraceBuilder.abalone()
    for text in ("A4B5", "G5G6F4", "C4D4", "H5H6G5", "B1B2C1", "H8H9G8", "C6C5", "G8H9", "D4E5", "G5F5",
                 "B5C5", "I6I7H5", "C5D5C6", "H5G5", "B6D6C7", "F5E5", "B3C4", "E5E6", "A1A3B1", "E6E7",
                 "C7D7", "H7G7", "C7D8", "G7F7", "A5B5"):
        b.play(text)
    made, other = b.game.parse_move("E7E8"), b.game.parse_move("E7D7")
    only_made = sorted(path(b.game.footprint(made)) - path(b.game.footprint(other)))
    b.wait(b.think).lift("E7")
    b.game.push(made)
    b.play("C7D8", "front-first")
    touch = next(c for c in only_made if c in b.occupied)
    b.lift(touch, after=1.0).place(touch, after=0.4)  # the board asked: this one
    return b.wait(SETTLE + 0.5).play(str(b.game.legal_moves()[0]))


def path(fp) -> set[str]:
    """The cells of a move that a touch may choose it by."""
    return set(fp.fills | fp.captures | fp.passes)


SCENARIOS.update({
    "abalone-broadside": ab_broadside,
    "abalone-push-front-first": lambda: ab_push("front-first"),
    "abalone-push-slide": lambda: ab_push("slide"),
    "abalone-push-off-edge-first": lambda: ab_push_off("front-first"),
    "abalone-push-off-slide": lambda: ab_push_off("slide"),
    "abalone-push-off-slid-then-pushed-off": lambda: ab_push_off_then_pushed_back("push-off", "D3D2"),
    "abalone-push-off-slid-then-pushed-back": lambda: ab_push_off_then_pushed_back("push", "C3C4"),
    "abalone-two-push-offs-slid-then-pushed-off": ab_two_push_offs_slid_then_pushed_off,
})


def main() -> None:
    for name, scenario in SCENARIOS.items():
        scenario().save(HERE / f"{name}.jsonl")
        print(name)


if __name__ == "__main__":
    main()
