"""A hint belongs to the position it was given for (pure, in virtual time, the real search at a
small level): a move made and taken back does not light it again, a board gone wrong drops it
(its lights and its words), and an answer that comes after it was dropped is not shown."""

import random

import pytest

from reedboard.controller.games import GAMES
from reedboard.controller.opponent import choose, level
from reedboard.controller.words.prompts import describe

from referee_table import set_up

pytestmark = pytest.mark.component


def best(referee):
    question = referee.question()
    assert question is not None and question.hint
    return question, choose(question.game, level(1).limits(), roll=question.roll, rng=random.Random(1)).move


def hinted(referee, hands):
    """A hint asked for and given; the move it shows."""
    assert referee.ask_hint(hands.t)
    question, move = best(referee)
    assert referee.answer(hands.t, question, move)
    view = referee.view()
    assert view.lift and "(the hint: " in describe(view.prompt, referee.game)
    return move


def a_step(referee, hint):
    """A one-ball step other than the hint: (from, to)."""
    game = referee.game
    for move in game.turn_moves():
        fp = game.footprint(move)
        if move != hint and len(fp.empties) == 1 and len(fp.fills) == 1 and not fp.passes:
            return next(iter(fp.empties)), next(iter(fp.fills))
    raise AssertionError("no one-ball step")


def shows_no_hint(referee, board):
    view = referee.view()
    assert not view.lift and not view.dest, (view.lift, view.dest)
    assert "hint" not in describe(view.prompt, referee.game), view.prompt
    assert referee.hint_shown() is None
    assert not board.lit("dest")


def test_a_move_taken_back_does_not_bring_the_old_hint_back():
    referee, hands, board = set_up(GAMES["offboard"]())
    move = hinted(referee, hands)
    a, b = a_step(referee, move)
    hands.move(a, b).settle(1.5)
    assert len(referee.game.move_stack) == 1
    shows_no_hint(referee, board)
    hands.move(b, a).settle(1.5)  # taken back: the position the hint was for, again
    assert referee.game.move_stack == []
    shows_no_hint(referee, board)
    assert referee.view().prompt.kind == "move"


def test_a_board_gone_wrong_drops_the_hint_and_its_words():
    referee, hands, board = set_up(GAMES["abalone"]())
    move = hinted(referee, hands)
    a, _ = a_step(referee, move)
    far = next(c for c in referee.game.cells if c not in referee.game.occupied() and c[0] in "EF")
    hands.move(a, far).settle(3.0)  # no move: the board is guided back
    view = referee.view()
    assert view.fill == {a} and view.empty == {far} and view.prompt.kind == "put_back"
    shows_no_hint(referee, board)
    assert board.lit("fill") == {a} and board.lit("empty") == {far}  # only the guidance is lit
    hands.move(far, a).settle(1.5)
    shows_no_hint(referee, board)  # put right: no hint until one is asked for again
    hinted(referee, hands)


def test_an_answer_that_comes_after_the_hint_was_dropped_is_not_shown():
    referee, hands, board = set_up(GAMES["offboard"]())
    assert referee.ask_hint(hands.t)
    question, move = best(referee)
    a, _ = a_step(referee, move)
    far = next(c for c in referee.game.cells if c not in referee.game.occupied() and c[0] in "EF")
    hands.move(a, far).settle(3.0)  # the board goes wrong while the search thinks
    assert referee.view().fill == {a}
    hands.move(far, a).settle(1.5)  # put right: the same position as the question's
    assert not referee.answer(hands.t, question, move)
    shows_no_hint(referee, board)
