"""The reconciler, rule by rule: frames from hands at the table in, moves and prompts out."""

import pytest

from reedboard.controller.games import BigBalls, OffBoard
from reedboard.controller.core.reconcile import (
    Ambiguous, Amended, Cleared, Committed, Illegal, Progress, Reached, Reconciler, Settings, TakenBack,
    Touched,
)

from physical import Hands

pytestmark = pytest.mark.unit

S = Settings()


def table(game, roll=None, **settings):
    reconciler = Reconciler(game, Settings(**settings) if settings else S, roll=roll, board=game.occupied())
    return reconciler, Hands(reconciler, game.occupied())


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def moves(events):
    return [str(e.move) for e in of(events, Committed)]


# --- rule 1: plain moves -----------------------------------------------------------------------
def test_a_plain_move_commits_one_debounce_after_the_piece_lands():
    game = BigBalls()
    rec, hands = table(game)
    hands.move("a5", "a4")
    landed = hands.t
    hands.wait(0.1)
    (commit,) = of(hands.events, Committed)
    assert str(commit.move) == "BB a5-a4"
    assert commit.t == pytest.approx(landed + S.debounce)
    assert game.move_stack == [commit.move] and rec.stable == game.occupied()


def test_switch_bounce_shorter_than_the_debounce_is_ignored():
    game = BigBalls()
    rec, hands = table(game)
    hands.bounce("b1").bounce("e3").wait(2)
    assert hands.events == [] and game.move_stack == []


def test_a_quick_reply_is_not_missed():
    game = BigBalls()
    rec, hands = table(game)
    hands.move("a5", "a4").move("b5", "b4", after=0.05).settle()  # White answers 50 ms later
    assert moves(hands.events) == ["BB a5-a4", "BB b5-b4"]


# --- rule 2: captures whose target stays occupied ---------------------------------------------------
@pytest.mark.parametrize("victim_first", [True, False])
def test_a_capture_in_either_lift_order(victim_first):
    game = BigBalls()  # Black: a1=1, a2=4, b1=2 ...
    rec, hands = table(game, roll=1)
    hands.capture("a1", "b1", victim_first=victim_first)
    landed = hands.t
    hands.wait(0.1)
    assert moves(hands.events) == ["1 a1xb1"]
    assert of(hands.events, Committed)[0].t == pytest.approx(landed + S.debounce)  # no other move fits


def test_a_stone_held_in_the_hand_is_no_move_however_long():
    game = BigBalls(black={"c3": 1}, white={"c4": 1, "g1": 2}, balls=[])  # c3 may only take c4
    rec, hands = table(game, roll=1)
    hands.lift("c3").wait(S.settle + S.grace + 5)  # the player thinks, stone in hand
    assert hands.events == [] and game.move_stack == [] and rec.guidance is None
    lifted, destinations = rec.in_hand
    assert rec.held and lifted == {"c3"} and destinations == {m.dst for m in game.stone_moves(1)} and "c4" in destinations
    hands.place("c3").settle()
    assert moves(hands.events) == [] and rec.roll == 1 and not rec.held  # the roll is kept


def test_a_quick_swap_is_recorded_when_the_next_player_rolls():
    game = BigBalls(black={"c3": 1}, white={"c4": 1, "g1": 2}, balls=[])
    rec, hands = table(game, roll=1)
    hands.lift("c3").wait(S.settle + 0.1)  # c4 was never seen empty: the stone knocked it out
    assert moves(hands.events) == []
    hands.events += rec.resolve_held(hands.t)  # White presses the die
    assert moves(hands.events) == ["1 c3xc4"] and game.turn == "white"


def test_a_quick_swap_is_recorded_when_the_next_players_move_begins():
    game = BigBalls(black={"b3": 1}, white={"b4": 1, "g1": 2}, balls=["a5"])  # b3 may only take b4
    rec, hands = table(game, roll=1)
    hands.lift("b3").wait(S.settle + 0.1)
    assert moves(hands.events) == []
    hands.move("a5", "a4").settle()  # White rolls the big ball: after the capture, or beside
    assert moves(hands.events) == []  # Black's stone still in the hand (rule 10): two splits fit
    hands.wait(S.settle)  # the board still: the stone was no stone in the hand, but the swap
    assert moves(hands.events) == ["1 b3xb4", "BB a5-a4"]


def test_a_quick_swap_is_recorded_on_the_ok_button():
    game = BigBalls(black={"c3": 1}, white={"c4": 1, "g1": 2}, balls=[])
    rec, hands = table(game, roll=1)
    hands.lift("c3").wait(0.1)
    hands.events += rec.confirm(hands.t)
    assert moves(hands.events) == ["1 c3xc4"]


def test_a_quick_swap_with_several_captures_asks_and_a_touch_chooses():
    game = BigBalls()  # stone 1 on a1 can take a2 or b1
    rec, hands = table(game, roll=1)
    hands.lift("a1").wait(S.settle + 0.1)
    assert hands.events == []  # a stone in the hand: nothing to ask yet
    assert rec.in_hand == (frozenset({"a1"}), frozenset({"a2", "b1"}))
    hands.events += rec.resolve_held(hands.t)  # the next player starts
    (ask,) = of(hands.events, Ambiguous)
    assert sorted(map(str, ask.moves)) == ["1 a1xa2", "1 a1xb1"]
    assert sorted(sorted(p) for p in ask.paths) == [["a2"], ["b1"]]
    assert game.move_stack == []
    hands.lift("b1").place("b1").settle()  # lift and put back the piece taken: that chooses
    assert moves(hands.events) == ["1 a1xb1"]


# --- rule 3: moves in steps, amendment ----------------------------------------------------------------
LINE = ["E1", "E2", "E3", "E4", "E5"]


def ball_by_ball(hands, pause):
    for src, dst in [("E5", "E6"), ("E4", "E5"), ("E3", "E4"), ("E2", "E3"), ("E1", "E2")]:
        hands.lift(src, after=pause).place(dst, after=0.1)


def test_a_five_ball_line_moved_ball_by_ball_is_one_move():
    game = OffBoard(red=LINE, yellow=["A1"])
    rec, hands = table(game)
    ball_by_ball(hands, pause=0.5)  # shorter than the settle time
    hands.settle()
    assert moves(hands.events) == ["E1-E2"] and of(hands.events, Amended) == []
    assert game.move_stack[0].balls == 5


def test_a_pause_longer_than_the_settle_time_commits_then_amends():
    game = OffBoard(red=LINE, yellow=["A1"])
    rec, hands = table(game)
    hands.lift("E5").place("E6").wait(S.settle + 0.2)
    assert moves(hands.events) == ["E5-E6"]
    hands.lift("E4").place("E5").wait(S.settle + 0.1)  # E3 might still follow: wait
    (amend,) = of(hands.events, Amended)
    assert (str(amend.old), str(amend.new)) == ("E5-E6", "E4-E5")
    assert [str(m) for m in game.move_stack] == ["E4-E5"] and game.turn == "yellow"


def test_the_next_players_move_ends_amending():
    game = OffBoard(red=["E4", "E5"], yellow=["A1", "A2"])
    rec, hands = table(game)
    hands.move("E5", "E6").wait(1).move("A1", "B1").settle()  # Red's single ball, then Yellow moves
    assert moves(hands.events) == ["E5-E6", "A1-B1"]
    hands.move("E4", "E5").wait(1)  # Red again: a new move, not an amendment of E5-E6
    assert of(hands.events, Amended) == []
    assert moves(hands.events)[-1] == "E4-E5"


# --- rule 4: touch and put back -----------------------------------------------------------------------
def test_a_piece_touched_and_put_back_is_no_move():
    game = OffBoard()
    rec, hands = table(game)
    hands.lift("C3").place("C3").wait(3)
    assert of(hands.events, Touched)[0].cells == {"C3"}
    assert game.move_stack == [] and of(hands.events, Illegal) == []


def test_a_bumped_neighbour_does_not_spoil_the_move():
    game = BigBalls()
    rec, hands = table(game)
    hands.lift("a5").lift("b5").place("b5").place("a4").settle()  # the hand knocks b5 out and back
    assert moves(hands.events) == ["BB a5-a4"]


# --- rule 5: illegal states -----------------------------------------------------------------------------
def test_an_illegal_move_is_signalled_after_the_grace_time_and_guided_back():
    game = OffBoard()
    rec, hands = table(game)
    hands.lift("C5")  # a yellow ball, on Red's turn: no move of Red's can grow out of this
    lifted = hands.t
    hands.place("E5").wait(S.grace - 0.4)
    assert of(hands.events, Illegal) == []
    hands.wait(0.2)
    (illegal,) = of(hands.events, Illegal)
    assert illegal.fill == {"C5"} and illegal.empty == {"E5"}
    assert illegal.t == pytest.approx(lifted + S.debounce + S.grace)
    hands.lift("E5").settle()
    assert of(hands.events, Illegal)[-1].empty == frozenset()  # the lights follow the board
    hands.place("C5").settle()
    assert of(hands.events, Cleared) and game.move_stack == [] and rec.guidance is None


def test_nothing_is_accepted_until_the_board_is_back_or_on_a_legal_result():
    game = OffBoard()
    rec, hands = table(game)
    hands.move("C5", "E5").wait(S.grace + 0.1).move("E5", "C5").move("C3", "D3").wait(1)
    assert moves(hands.events) == ["C3-D3"]


def test_a_stone_moved_before_the_roll_is_an_illegal_state():
    game = BigBalls()
    rec, hands = table(game)  # no roll yet: only big-ball moves count
    hands.move("a3", "a4").wait(S.grace + 0.1)
    (illegal,) = of(hands.events, Illegal)
    assert illegal.fill == {"a3"} and illegal.empty == {"a4"}
    hands.move("a4", "a3").settle()
    assert game.move_stack == [] and rec.at_baseline
    rec.set_roll(hands.t, 6)
    hands.move("a3", "a4").settle()
    assert moves(hands.events) == ["6 a3-a4"]


# --- rule 6: ambiguity -------------------------------------------------------------------------------------
def ambiguous_push_offs():
    # Red's tail C3 pushes A1 off (over B2) into S1, or C1 off (over C2) into S11; both full.
    return OffBoard(red=["C3", "B2", "C2"], yellow=["A1", "C1", "E5"], sectors={"S1": "red", "S11": "red"})


def test_the_stone_put_back_after_its_victim_was_lifted_is_no_swap_and_the_capture_counts_later():
    # Stone 1 on a6 may take the ball on a7 or White's stone on b6. Black lifts it (the board of
    # a capture nobody saw), lifts the ball, puts the stone back and thinks; White's ball rolling
    # from a7 into a6 after a swap onto b6 would leave that board too, but the stone's own
    # capture is under way: no swap. Then Black takes the ball.
    game = BigBalls(black={"a6": 1}, white={"b6": 1, "g1": 2}, balls=["a7", "c5"])
    rec, hands = table(game, roll=1)
    hands.lift("a6").lift("a7").place("a6").wait(3.0)
    assert of(hands.events, (Committed, Ambiguous)) == []
    hands.lift("a6").place("a7").wait(S.settle + 0.1)
    assert moves(hands.events) == ["1 a6xa7"] and of(hands.events, Ambiguous) == []


def test_two_push_offs_leaving_no_trace_are_held_then_asked_and_a_touch_chooses():
    game = ambiguous_push_offs()
    rec, hands = table(game)
    # Physically: the yellow ball goes off the board, the line slides; the sensors see only C3 empty.
    hands.lift("C3").bounce("C1").wait(S.settle + S.grace + 0.1)
    assert hands.events == [] and sorted(map(str, rec.held)) == ["C3-B2x1 S1 full", "C3-C2x1 S11 full"]
    hands.events += rec.confirm(hands.t)  # the ok button: the move is made
    (ask,) = of(hands.events, Ambiguous)
    assert sorted(map(str, ask.moves)) == ["C3-B2x1 S1 full", "C3-C2x1 S11 full"]
    assert game.move_stack == []
    hands.lift("C2").place("C2").settle()  # C2 is on one path only
    assert moves(hands.events) == ["C3-C2x1 S11 full"]
    assert game.waiting == "yellow"


def test_a_push_off_whose_pushed_ball_was_seen_leaving_needs_no_asking():
    game = ambiguous_push_offs()
    rec, hands = table(game)
    hands.lift("C3").lift("C1").place("C1", after=0.05)  # C1 seen empty: the ball went off there
    hands.wait(S.settle + 0.1)
    assert moves(hands.events) == ["C3-C2x1 S11 full"] and of(hands.events, Ambiguous) == []


def test_a_touch_on_a_cell_of_both_paths_chooses_nothing():
    game = OffBoard(red=["C3", "B2", "C2"], yellow=["A1", "C1", "E5"], sectors={"S1": "red", "S11": "red"})
    rec, hands = table(game)
    hands.lift("C3").wait(S.settle + 0.1)
    hands.events += rec.confirm(hands.t)
    assert of(hands.events, Ambiguous)
    hands.lift("E5").place("E5").wait(1)  # on no path
    assert game.move_stack == []


# --- rule 7: takeback ------------------------------------------------------------------------------------------
def test_takeback_of_one_and_two_moves():
    game = BigBalls()
    rec, hands = table(game)
    hands.move("a5", "a4").move("b5", "b4").settle()
    assert len(game.move_stack) == 2
    hands.move("b4", "b5").wait(S.settle + 0.1)
    assert [str(e.move) for e in of(hands.events, TakenBack)] == ["BB b5-b4"]
    hands.move("a4", "a5").wait(S.settle + 0.1)
    assert [str(e.move) for e in of(hands.events, TakenBack)] == ["BB b5-b4", "BB a5-a4"]
    assert game.move_stack == [] and game.turn == "black"


def test_a_takeback_keeps_the_roll_of_a_stone_move():
    game = BigBalls()
    rec, hands = table(game, roll=6)
    hands.move("a3", "a4").settle()
    assert moves(hands.events) == ["6 a3-a4"]
    hands.move("a4", "a3").wait(S.settle + 0.1)
    (back,) = of(hands.events, TakenBack)
    assert back.roll == 6 and rec.roll == 6 and game.turn == "black"
    hands.move("a3", "b3").settle()  # the same roll, another way: no new roll needed
    assert moves(hands.events) == ["6 a3-a4", "6 a3-b3"]


def test_the_next_player_lifting_the_piece_just_moved_is_no_amendment():
    # Black's stone 4 goes b2-b3; White lifts it to take it with the big ball from b4 (BB b4xb3).
    # With b3 empty the board equals Black's capture "4 b2xX" from before, but X was never touched.
    game = BigBalls(black={"b2": 4, "a1": 1}, white={"a2": 2, "g1": 1}, balls=["b4"])
    rec, hands = table(game, roll=4)
    hands.move("b2", "b3").settle()
    assert moves(hands.events) == ["4 b2-b3"]
    hands.lift("b3").wait(S.settle + S.grace + 0.5)  # White holds Black's stone
    assert of(hands.events, Amended) == [] and of(hands.events, Illegal) == []
    hands.move("b4", "b3").wait(S.settle + 0.1)  # BB b4-c3 could still follow: the settle time
    assert moves(hands.events) == ["4 b2-b3", "BB b4xb3"] and of(hands.events, Amended) == []


def test_takebacks_can_be_forbidden():
    game = BigBalls()
    rec, hands = table(game, takebacks=False)
    hands.move("a5", "a4").move("a4", "a5").wait(S.settle + S.grace + 0.1)
    assert of(hands.events, TakenBack) == [] and len(game.move_stack) == 1
    assert of(hands.events, Illegal)


def test_taking_back_a_capture_restores_the_victim():
    game = BigBalls()
    rec, hands = table(game, roll=1)
    hands.capture("a1", "b1").settle()
    hands.lift("b1").place("a1").place("b1").wait(S.settle + 0.1)
    assert of(hands.events, TakenBack) and game.piece_at("b1") == ("black", 2)


# --- rule 8: set-up ----------------------------------------------------------------------------------------------
def test_setup_guides_the_board_to_the_position():
    game = OffBoard()
    rec = Reconciler(game)
    hands = Hands(rec, [])
    rec.expect(0.0)
    hands.place(*sorted(game.occupied())[:20]).settle()
    progress = of(hands.events, Progress)[-1]
    assert len(progress.fill) == 4 and progress.empty == frozenset()
    hands.place("E5").settle()
    assert of(hands.events, Progress)[-1].empty == {"E5"}
    hands.lift("E5").place(*sorted(game.occupied())[20:]).settle()
    assert isinstance(hands.events[-1], Reached)
    hands.move("C3", "D3").wait(1)
    assert moves(hands.events) == ["C3-D3"]


def test_unknown_cells_and_time_going_backwards_are_refused():
    rec = Reconciler(BigBalls())
    with pytest.raises(ValueError, match="unknown cell 'z9'"):
        rec.feed(0.0, ["z9"])
    rec.feed(1.0, ["a1"])
    with pytest.raises(ValueError, match="time went backwards"):
        rec.feed(0.5, ["a1"])


def test_settings_must_be_seconds():
    with pytest.raises(ValueError, match="settle"):
        Settings(settle=-1)


def test_a_number_kept_for_a_later_turn_binds_no_one_to_a_stone_move():
    """R19: after a takeback of several moves the player to move sees the number they had rolled
    for a turn the takeback undid. It stands for a stone move (no new roll), but the player may
    roll a big ball instead: that move counts, and the number is dropped."""
    game = BigBalls()
    rec, hands = table(game)
    hands.move("a5", "a4").wait(S.settle + 0.1)  # Black's big ball
    hands.move("c5", "c4").wait(S.settle + 0.1)  # White's big ball
    hands.events += rec.set_roll(hands.t, 6)  # Black rolls a 6
    hands.move("a3", "b3").wait(S.settle + 0.1)
    assert moves(hands.events) == ["BB a5-a4", "BB c5-c4", "6 a3-b3"]
    for src, dst in (("b3", "a3"), ("c4", "c5"), ("a4", "a5")):  # three moves taken back
        hands.move(src, dst).wait(S.settle + 0.1)
    assert game.move_stack == [] and rec.roll == 6 and rec.roll_free  # Black's 6 shows again
    hands.move("b5", "b4").wait(S.settle + 0.1)  # Black rolls a big ball instead
    assert moves(hands.events)[-1] == "BB b5-b4" and rec.roll is None and game.turn == "white"


def test_a_number_the_player_moved_with_binds_them_after_a_takeback():
    """Rule 7: a stone move taken back is made again with the same number; no big-ball move."""
    game = BigBalls()
    rec, hands = table(game, roll=6)
    hands.move("a3", "b3").wait(S.settle + 0.1)
    hands.move("b3", "a3").wait(S.settle + 0.1)
    assert rec.roll == 6 and not rec.roll_free
    hands.move("a5", "a4").wait(S.settle + S.grace + 0.1)
    assert of(hands.events, Illegal) and len(game.move_stack) == 0
