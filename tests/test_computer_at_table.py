"""The computer at the table, as the referee plays it (pure, in virtual time): it is asked for
its move, the move is shown in lights and is then the only one accepted, a wrong execution is
guided back, its roll is its own, a takeback undoes its answer and the player's move, and a
hint is shown and journaled. The search is the real one, at a small level."""

import random

from reedboard.controller.core.computer import Computer, parse_opponent
from reedboard.controller.games import GAMES, BigBalls, top_level
from reedboard.controller.opponent import ROLL, choose, level
from reedboard.controller.core.rolling import ROLL_ANIMATION, Die
from reedboard.controller.core.view import Phase

from referee_table import Journal, notes, set_up

import pytest

pytestmark = pytest.mark.component


def answer(referee, hands, level_number=2):
    question = referee.question()
    assert question is not None
    move = choose(question.game, level(level_number).limits(), roll=question.roll, rng=random.Random(1)).move
    assert referee.answer(hands.t, question, move)
    return question, move


def first_lights(game, move):
    """The lights of a move shown before the hands start: the piece to lift first, and where it
    goes when it goes down at once (a push keeps the back ball in the hand: nothing teal yet)."""
    steps = game.hand_steps(move)
    first, then = steps[0], steps[1] if len(steps) > 1 else None
    goes = {then.cell} if then is not None and then.source == first.cell and then.cell else set()
    return {first.cell}, goes


def carry_out(hands, game, move):
    """The move made as its words say, step by step (the pushed balls moved too)."""
    for step in game.hand_steps(move):
        if step.action == "lift":
            hands.lift(step.cell)
        elif step.cell is not None:
            hands.place(step.cell)


def test_the_computer_move_is_shown_then_only_it_is_accepted_and_a_wrong_one_guided_back():
    game = GAMES["offboard"]()
    journal = Journal()
    referee, hands, board = set_up(game, journal=journal, computer=Computer(game.players[1], 2))
    first = next(m for m in referee.game.turn_moves() if referee.game.footprint(m).empties)
    fp = referee.game.footprint(first)
    hands.move(next(iter(fp.empties)), next(iter(fp.fills))).settle(1.0)  # the person's move
    assert referee.game.turn == game.players[1] and referee.question() is not None
    assert referee.view().prompt.kind == "computer" and referee.view().prompt.data["move"] is None
    # while it thinks, nothing of its own side counts as a move: moved by hand, it is guided back
    theirs = next(m for m in referee.game.turn_moves() if referee.game.footprint(m).empties)
    tfp = referee.game.footprint(theirs)
    hands.move(next(iter(tfp.empties)), next(iter(tfp.fills))).settle(2.0)
    assert len(referee.game.move_stack) == 1 and referee.view().fill and referee.view().empty
    hands.move(next(iter(tfp.fills)), next(iter(tfp.empties))).settle(1.0)
    assert not referee.view().fill
    question, move = answer(referee, hands)
    lift, dest = first_lights(referee.game, move)
    view = referee.view()
    assert view.prompt.kind == "computer" and view.prompt.data["move"] == referee.game.format_move(move)
    assert view.lift == lift and view.dest == dest
    assert board.lit("dest") == dest and lift <= board.lit("empty")
    # a stale answer (the position has moved on) is dropped
    assert not referee.answer(hands.t, question.__class__(("old",), question.game, None, 2), move)
    # carried out: committed and journaled as the computer's move
    carry_out(hands, referee.game, move)
    hands.settle(1.5)
    assert [str(m) for m in referee.game.move_stack][-1] == str(move)
    assert [line[0] for line in journal.lines][-2:] == ["move", "move"]
    assert any("the computer" in text and "carry it out" in text for text in notes(referee))


def test_a_takeback_of_the_computer_move_takes_back_the_players_move_too():
    game = GAMES["offboard"]()
    journal = Journal()
    referee, hands, board = set_up(game, journal=journal, computer=Computer(game.players[1], 1))
    before = referee.game.occupied()
    first = next(m for m in referee.game.turn_moves() if referee.game.footprint(m).empties)
    fp = referee.game.footprint(first)
    a, b = next(iter(fp.empties)), next(iter(fp.fills))
    hands.move(a, b).settle(1.0)
    _, move = answer(referee, hands, 1)
    shown = referee.game.footprint(move)
    c, d = next(iter(shown.empties)), next(iter(shown.fills))
    hands.move(c, d).settle(1.5)
    assert len(referee.game.move_stack) == 2
    hands.move(d, c).settle(1.5)  # the computer's move put back: both are taken back
    assert referee.game.move_stack == [] and referee.game.turn == game.players[0]
    assert [line[0] for line in journal.lines][-2:] == ["takeback", "takeback"]
    assert referee.view().fill == {a} and referee.view().empty == {b}  # guided back before the person's move
    hands.move(b, a).settle(1.5)
    assert not referee.view().fill and referee.game.occupied() == before and referee.question() is None


def test_big_balls_computer_rolls_by_itself_and_the_die_button_is_refused_meanwhile():
    journal = Journal()
    referee, hands, board = set_up(BigBalls(), journal=journal, die=Die(random.Random(3)),
                                   computer=Computer("black", 2))
    assert referee.game.turn == "black" and referee.question() is not None
    referee.press(hands.t + 0.1, "die", 4)
    hands.t += 0.1
    assert "the die cannot roll now: the computer rolls for itself" in notes(referee)
    question = referee.question()
    assert referee.answer(hands.t, question, ROLL)
    assert referee.phase is Phase.ROLLED and [line[0] for line in journal.lines] == ["roll"]
    assert referee.question() is None  # not while the die animates
    hands.wait(ROLL_ANIMATION + 0.1)
    question, move = answer(referee, hands)
    assert question.roll == referee.roll and move in referee.game.turn_moves(referee.roll)
    assert referee.view().lift


def test_a_hint_is_shown_journaled_and_leaves_every_move_open():
    game = GAMES["abalone"]()
    journal = Journal()
    referee, hands, board = set_up(game, journal=journal)
    assert referee.question() is None
    assert referee.ask_hint(hands.t)
    question, move = answer(referee, hands, 2)
    assert question.hint and journal.lines[-1][:3] == ("hint", hands.t, game.players[0])
    assert (referee.view().lift, referee.view().dest) == first_lights(referee.game, move)
    assert referee.view().prompt.data["hint"] == referee.game.format_move(move)
    other = next(m for m in referee.game.turn_moves() if m != move and not referee.game.footprint(m).passes)
    fp = referee.game.footprint(other)
    hands.move(next(iter(fp.empties)), next(iter(fp.fills))).settle(1.5)
    assert referee.game.move_stack[-1] == other and not referee.view().dest


@pytest.mark.parametrize("text, expected", [("human", None), ("computer", 5), ("computer:1", 1), ("computer:8", 8)])
def test_the_opponent_is_read_from_words(text, expected):
    assert parse_opponent(text) == expected


@pytest.mark.parametrize("text", [f"computer:{top_level() + 1}", "computer:0", "robot", "computer:x", ""])
def test_a_bad_opponent_is_one_line(text):
    with pytest.raises(ValueError, match="human, computer or computer:1") as caught:
        parse_opponent(text)
    assert "\n" not in str(caught.value)


def test_the_ok_button_held_asks_for_a_hint_and_a_short_press_does_not():
    referee, hands, board = set_up(GAMES["abalone"]())
    referee.press(hands.t, "ok")
    assert referee.question() is None
    referee.press(hands.t, "ok", long=True)
    question = referee.question()
    assert question is not None and question.hint and "asks for a hint" in notes(referee)[-1]


def test_a_trace_with_a_computer_decision_that_does_not_fit_is_one_line(tmp_path):
    import json
    from pathlib import Path

    from reedboard.controller.session.replay import replay
    from reedboard.controller.persist.trace import TraceError, read_trace

    source = sorted((Path(__file__).parent / "traces").glob("bigballs-*.jsonl"))[0]
    lines = [json.loads(line) for line in source.read_text().splitlines() if line.strip()]
    header, events = lines[0], lines[1:]
    header["computer"] = {"plays": "white", "level": 2, "version": "1"}
    events.insert(1, {"t": events[0]["t"], "computer": "1 e1-d1"})  # during the set-up: not its turn
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in [header, *events]) + "\n")
    with pytest.raises(TraceError, match="the computer's decision at t=.*not the computer's turn") as caught:
        replay(read_trace(path), source=str(path))
    assert "\n" not in str(caught.value)
