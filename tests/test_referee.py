"""The referee: turn flow, the die, set-up modes, the end, and what the board is told to show."""

import random

import pytest

from reedboard.controller.games import BigBalls, OffBoard
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.persist.export import export_lines
from reedboard.controller.session.live import live_die, new_referee
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.core.referee import Referee
from reedboard.controller.core.rolling import ROLL_ANIMATION, Die
from reedboard.controller.core.view import Phase
from reedboard.hal.interfaces import Cue, DieFace
from reedboard.controller.words.prompts import describe

from physical import Hands
from referee_table import Journal, notes, set_up, started

pytestmark = pytest.mark.component

# --- turn flow and the die ------------------------------------------------------------------
def test_a_roll_then_a_stone_move_for_it():
    journal = Journal()
    referee, hands, board = set_up(BigBalls(), journal=journal, die=Die(random.Random(1)))
    referee.press(hands.t + 0.5, "die", 6)
    hands.t += 0.5
    assert referee.phase is Phase.ROLLED and board.dice[-1].face is DieFace.ROLLING
    assert board.frames[-1].die_pips == 0  # the value shows only after the animation
    hands.wait(ROLL_ANIMATION + 0.1)
    assert board.dice[-1].face is DieFace.VALUE and board.dice[-1].value == 6
    assert board.frames[-1].die_pips == 6 and board.lit("movable") == {"a3"}
    hands.move("a3", "a4").settle()
    assert [line[0] for line in journal.lines] == ["roll", "move"]  # the roll is on record first
    assert journal.lines[1][2] == "6 a3-a4" and Cue.ROLL in board.cues and Cue.MOVE in board.cues
    assert referee.phase is Phase.PLAY and board.lit("last") >= {"a3", "a4"} - board.lit("movable")


def test_the_die_is_refused_when_it_cannot_be_obeyed():
    referee, hands, board = started(BigBalls())
    referee.press(0.1, "die", 3)
    assert "the die cannot roll now: the set-up is not finished" in notes(referee)
    hands.place(*sorted(BigBalls().occupied())).settle()
    referee.press(hands.t, "die", 3)
    referee.press(hands.t + 0.1, "die", 4)
    assert notes(referee)[-1] == "the die cannot roll now: the die already shows 3: move a stone for it"
    assert board.cues.count(Cue.REFUSED) == 2
    off, _, _ = set_up(OffBoard())
    off.press(5.0, "die", 2)
    assert notes(off)[-1] == "the die cannot roll now: this game has no die"


def test_lifting_a_piece_lights_where_it_may_go_and_putting_it_back_clears_them():
    referee, hands, board = set_up(BigBalls())
    referee.press(hands.t + 0.1, "die", 3)
    hands.wait(ROLL_ANIMATION + 0.2)
    assert board.lit("movable") == {"c1"} and board.lit("to") == set()
    hands.lift("c1").wait(2.0)  # the stone the roll chose, held while its player thinks
    assert board.lit("to") == {"c2", "d1", "b1", "b2"}  # c2, d1 free; b1, b2 the stones it may take
    view = referee.view()
    assert view.prompt.kind == "in_hand" and view.prompt.data["cells"] == ["c1"]
    message = describe(view.prompt, referee.game)
    assert "several" not in message and message.startswith("Black: put it on")
    assert Cue.CHOOSE not in board.cues and Cue.ILLEGAL not in board.cues
    hands.place("c1").wait(2.0)
    assert board.lit("to") == set() and referee.game.move_stack == [] and referee.roll == 3
    assert board.dice[-1].value == 3  # the roll stands: no move was made


def test_off_board_lights_only_what_is_useful():
    referee, hands, board = set_up(OffBoard())
    assert board.lit("movable") == set()  # not all twelve red balls
    hands.lift("C3").wait(0.1)
    lit = board.lit("to")
    assert lit and "C3" not in lit and lit <= set(OffBoard().cells) - set(OffBoard().occupied())


def test_a_takeback_shows_the_roll_again_and_keeps_the_next_players_roll():
    journal = Journal()
    referee, hands, board = set_up(BigBalls(), journal=journal)
    referee.press(hands.t + 0.1, "die", 6)
    hands.wait(ROLL_ANIMATION + 0.2)
    hands.move("a3", "a4").wait(1.0)
    referee.press(hands.t, "die", 2)  # White rolls ...
    hands.wait(ROLL_ANIMATION + 0.2)
    hands.move("a4", "a3").wait(1.0)  # ... and Black takes the move back
    assert referee.game.move_stack == [] and referee.phase is Phase.ROLLED and referee.roll == 6
    assert board.dice[-1].face is DieFace.VALUE and board.dice[-1].value == 6
    hands.move("a3", "b3").wait(1.0)  # Black moves again with the 6
    assert [str(m) for m in referee.game.move_stack] == ["6 a3-b3"]
    referee.press(hands.t, "die")  # White's die shows the 2 again: no new draw
    assert referee.roll == 2
    assert [line[0] for line in journal.lines] == ["roll", "move", "roll", "takeback", "move", "roll"]


def test_a_quick_swap_is_recorded_when_the_next_player_presses_the_die():
    game = BigBalls(black={"c3": 1}, white={"c4": 1, "g1": 2}, balls=[])
    referee, hands, board = set_up(game)
    referee.press(hands.t + 0.1, "die", 1)
    hands.wait(ROLL_ANIMATION + 0.2)
    hands.lift("c3").wait(5.0)  # the stone knocked White's out of c4 unseen: still a stone in hand
    assert referee.game.move_stack == []
    referee.press(hands.t, "die", 4)  # White starts
    assert [str(m) for m in referee.game.move_stack] == ["1 c3xc4"] and referee.roll == 4
    assert referee.game.turn == "white"


def test_the_live_die_is_unpredictable_and_fair_enough():
    die = live_die()
    rolls = [die.roll() for _ in range(600)]
    assert set(rolls) == {1, 2, 3, 4, 5, 6} and all(60 < rolls.count(n) < 140 for n in range(1, 7))
    with pytest.raises(ValueError):
        Die(given_only=True).roll()


def test_an_illegal_board_lights_cells_to_fill_and_to_empty_and_sounds_once():
    referee, hands, board = set_up(OffBoard())
    hands.move("C5", "E5").wait(2.0)
    assert board.lit("fill") == {"C5"} and board.lit("empty") == {"E5"}
    assert all(board.frames[-1].cells[c].blink for c in ("C5", "E5"))
    assert board.cues.count(Cue.ILLEGAL) == 1
    hands.move("E5", "C5").settle()
    assert board.lit("fill") == set() and board.lit("empty") == set()


def test_ambiguity_lights_the_candidates_paths():
    game = OffBoard(red=["C3", "B2", "C2"], yellow=["A1", "C1", "E5"], sectors={"S1": "red", "S11": "red"})
    referee, hands, board = set_up(game)
    hands.lift("C3").wait(1.0)
    assert {"A1", "C1", "D4"} <= board.lit("to") and board.lit("choose") == set()  # a ball in the hand
    referee.press(hands.t, "ok")  # the move is made: which of the two push-offs?
    assert board.lit("choose") == {"B2", "A1", "C2", "C1"} and Cue.CHOOSE in board.cues


# --- set-up modes --------------------------------------------------------------------------------
def test_off_board_set_up_shows_where_the_balls_go():
    referee, hands, board = started(OffBoard())
    assert board.lit("fill") == set(OffBoard().occupied())
    hands.place("E5").settle()
    assert board.lit("empty") == {"E5"}
    hands.lift("E5").place(*sorted(OffBoard().occupied())).settle()
    assert referee.phase is Phase.PLAY and Cue.READY in board.cues


def test_guided_shuffle_lights_each_stones_hollow_while_the_die_shows_its_number():
    referee, hands, board = started(BigBalls(), setup="shuffle", rng=random.Random(5))
    drawn = referee.game
    for hollow in ["a7", "a6", "b6", "a5", "b5", "c5"]:
        assert board.lit("place") == {hollow}
        hands.place(hollow).settle()
    for colour in ("black", "white"):
        for number in range(1, 7):
            (hollow,) = [h for h, n in drawn.stones(colour).items() if n == number]
            assert board.lit("place") == {hollow} and board.frames[-1].die_pips == number
            hands.place(hollow).settle()
    assert referee.phase is Phase.PLAY and referee.game.stones("black") == drawn.stones("black")


def test_guided_shuffles_differ():
    drawn = set()
    for seed in range(5):
        referee = Referee(BigBalls(), setup="shuffle", rng=random.Random(seed))
        referee.start(0.0)
        drawn.add(tuple(referee.game.setup_lines()))
    assert len(drawn) > 1


def test_identify_asks_for_each_number_and_learns_the_arrangement():
    referee, hands, board = started(BigBalls(), setup="identify")
    hands.place(*sorted(BigBalls().occupied())).settle()
    assert referee.phase is Phase.IDENTIFY
    secret = {"black": {"a1": 3, "b1": 6, "c1": 1, "a2": 5, "b2": 2, "a3": 4},
              "white": {"e1": 2, "f1": 4, "g1": 6, "e2": 1, "f2": 3, "e3": 5}}
    hands.lift("g1").place("g1").settle()  # a white stone while Black's are asked for: refused
    assert referee.notes[-1].kind == "refused" and board.frames[-1].die_pips == 1
    for colour in ("black", "white"):
        for number in range(1, 6):  # the sixth needs no asking
            assert board.frames[-1].die_pips == number
            (hollow,) = [h for h, n in secret[colour].items() if n == number]
            hands.lift(hollow).place(hollow).settle()
    assert referee.phase is Phase.PLAY
    assert referee.game.stones("black") == secret["black"] and referee.game.stones("white") == secret["white"]


# --- the end ---------------------------------------------------------------------------------------
def test_the_end_is_shown_and_recorded():
    journal = Journal()
    game = BigBalls(black={"a6": 2}, white={"g1": 1}, balls=["c5"])
    referee, hands, board = set_up(game, journal=journal)
    referee.press(hands.t + 0.3, "die", 2)
    hands.t += 0.3
    hands.move("a6", "a7").settle()
    assert referee.phase is Phase.OVER and journal.lines[-1][1:] == (journal.lines[-1][1], "1-0", "a7", "black")
    assert board.lit("winner") == {"a7"} and board.frames[-1].turn is None and Cue.GAME_OVER in board.cues
    hands.lift("c5").wait(3)  # clearing the board after the game raises no alarm
    assert Cue.ILLEGAL not in board.cues


def test_resign_and_agreed_draw_are_recorded():
    journal = Journal()
    referee, hands, board = set_up(OffBoard(), journal=journal)
    referee.resign(hands.t + 1, "red")
    assert journal.lines[-1][2:] == ("0-1", "resign", "yellow") and referee.phase is Phase.OVER
    journal = Journal()
    referee, hands, board = set_up(OffBoard(), journal=journal)
    referee.agree_draw(hands.t + 1)
    assert journal.lines[-1][2:] == ("1/2-1/2", "agreed", None) and board.lit("draw") == set(OffBoard().occupied())


# --- the journal and the flight recorder ------------------------------------------------------------
def test_a_live_game_is_journaled_and_recorded_for_replay(tmp_path):
    from reedboard.controller.session.replay import replay
    from reedboard.controller.persist.trace import read_trace

    referee = new_referee(OffBoard(), tmp_path, settings=Settings())
    referee.start(100.0)
    hands = Hands(referee, [], t=100.0)
    hands.place(*sorted(OffBoard().occupied())).settle()
    (journal_path,) = tmp_path.glob("*-offboard.jsonl")
    hands.move("C3", "D3").wait(1).move("C6", "C7").wait(1)
    hands.lift("B2").place("B1").wait(1)  # one more red move
    expected = ["game offboard", "board default", "C3-D3", "C6-C7", "B2-B1"]
    assert export_lines(journal_path) == expected
    assert read_journal(journal_path).header["settings"]["settle"] == 0.8
    trace = read_trace(referee.journal.trace_path)
    assert replay(trace).record == expected
