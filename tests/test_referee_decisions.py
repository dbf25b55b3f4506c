"""The referee only decides: a game played with no journal, no recorder and no board outputs,
read from the decisions it returned."""

import pytest

from reedboard.controller.core.decisions import (
    Changed, DieShows, JournalLine, Lights, PlayBegan, Recorded, Sound,
)
from reedboard.controller.core.referee import Referee
from reedboard.controller.core.rolling import Die
from reedboard.controller.core.view import Phase
from reedboard.controller.games import BigBalls
from reedboard.hal.interfaces import Cue

from physical import Hands

pytestmark = pytest.mark.unit


def played(game):
    """A few turns of Big Balls: set up, a roll of 6, stone 1 from a3 to a4, then Black resigns."""
    referee = Referee(game, die=Die(given_only=True))
    decided = list(referee.start(0.0))
    hands = Hands(referee, [])
    hands.place(*sorted(game.occupied())).settle()
    decided += hands.events
    decided += referee.press(hands.t + 0.5, "die", 6)
    hands.t += 0.5
    hands.events = []
    hands.wait(1.0).move("a3", "a4").settle()
    decided += hands.events
    decided += referee.resign(hands.t + 1.0, "white")
    return referee, decided


def test_a_game_is_said_as_decisions_with_no_journal_or_recorder():
    referee, decided = played(BigBalls())
    assert not hasattr(referee, "journal") and not hasattr(referee, "recorder")
    began = [d for d in decided if isinstance(d, PlayBegan)]
    assert len(began) == 1 and began[0].game is referee.game
    lines = [d for d in decided if isinstance(d, JournalLine)]
    roll, move, result = lines
    assert (roll.kind, roll.player, roll.value, roll.free) == ("roll", "black", 6, False)
    assert (move.kind, move.move) == ("move", str(referee.game.move_stack[0]))
    assert (result.kind, result.result, result.reason, result.winner) == ("result", "1-0", "resign", "black")  # White resigns
    assert decided.index(began[0]) < decided.index(lines[0])  # the journal opens before its first line
    assert referee.phase is Phase.OVER


def test_a_press_is_recorded_after_what_it_decided():
    referee, decided = played(BigBalls())
    roll = next(d for d in decided if isinstance(d, JournalLine) and d.kind == "roll")
    press = next(d for d in decided if isinstance(d, Recorded) and d.kind == "press")
    assert (press.button, press.roll) == ("die", 6)  # with the value rolled, so a replay rolls it the same
    assert decided.index(roll) < decided.index(press)
    frames = [d for d in decided if isinstance(d, Recorded) and d.kind == "frame"]
    assert frames and all(isinstance(d.occupied, frozenset) for d in frames)


def test_what_the_board_is_told_is_said_too():
    referee, decided = played(BigBalls())
    cues = [d.cue for d in decided if isinstance(d, Sound)]
    assert cues[:2] == [Cue.READY, Cue.ROLL] and cues[-1] is Cue.GAME_OVER
    assert any(isinstance(d, Lights) for d in decided) and any(isinstance(d, DieShows) for d in decided)
    versions = [d.version for d in decided if isinstance(d, Changed)]
    assert versions == sorted(versions) and versions[-1] == referee.state().version


def test_the_same_inputs_give_the_same_decisions():
    first = played(BigBalls())[1]
    second = played(BigBalls())[1]
    assert first == second


def test_the_referee_draws_no_number_of_its_own():
    fresh = Referee(BigBalls())
    fresh.start(0.0)
    hands = Hands(fresh, [])
    hands.place(*sorted(fresh.game.occupied())).settle()
    with pytest.raises(ValueError, match="needs its value"):
        fresh.press(hands.t + 0.5, "die")
    assert fresh.phase is Phase.PLAY and fresh.roll is None
