"""The game clock: Fischer time per player, started by the first move, switched by each move,
a warning when time runs low, a flag fall that ends the game on time; kept in the journal."""

import pytest

from reedboard.controller.core.clock import ClockSettings, GameClock
from reedboard.controller.games import BigBalls, OffBoard
from reedboard.controller.persist.journal_replay import rebuild
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.session.live import new_referee, resume_referee
from reedboard.controller.core.referee import Referee
from reedboard.controller.core.view import Phase

from physical import Hands

pytestmark = pytest.mark.component


def test_settings_read_minutes_and_increment():
    assert ClockSettings.parse("10") == ClockSettings(10, 0)
    assert ClockSettings.parse(" 5+3 ") == ClockSettings(5, 3)
    assert ClockSettings.parse("0.5+1.5").initial == 30
    assert str(ClockSettings(5, 3)) == "5+3"


@pytest.mark.parametrize("text", ["", "ten", "5+", "-1", "0", "5+-2", "601", "1e9"])
def test_a_bad_clock_is_refused(text):
    with pytest.raises(ValueError):
        ClockSettings.parse(text)


def test_fischer_time_runs_for_the_player_to_move_and_adds_the_increment():
    clock = GameClock(ClockSettings(1, 2), ("red", "yellow"))
    assert clock.running is None and clock.flag_at() is None
    clock.moved(10.0, "red", "yellow")  # the first move starts the clock
    assert clock.remaining(25.0) == {"red": 62.0, "yellow": 45.0}
    clock.moved(25.0, "yellow", "red")
    assert clock.remaining(25.0) == {"red": 62.0, "yellow": 47.0}
    assert clock.flag_at() == 25.0 + 62.0
    assert clock.low_at() == 25.0 + 62.0 - 6.0  # a tenth of one minute


def test_a_takeback_switches_without_an_increment():
    clock = GameClock(ClockSettings(1, 5), ("red", "yellow"))
    clock.moved(0.0, "red", "yellow")
    clock.switch(4.0, "red")
    assert clock.remaining(4.0) == {"red": 65.0, "yellow": 56.0} and clock.running == "red"


def set_up(game, clock, t=0.0):
    referee = Referee(game, clock=clock)
    referee.start(t)
    hands = Hands(referee, [], t=t)
    hands.place(*sorted(game.occupied())).settle()
    return referee, hands


def test_the_flag_falls_and_the_game_is_lost_on_time():
    referee, hands = set_up(OffBoard(), ClockSettings(0.5, 0))  # 30 s each
    assert referee.clock_state()["running"] is None  # nothing runs before the first move
    hands.wait(100)  # no move yet: no time used
    hands.move("C3", "D3").wait(1)  # committed after the settle time (a longer line could follow)
    state = referee.clock_state()
    assert state["running"] == "yellow" and state["remaining"]["red"] == 30.0
    hands.wait(27.5)  # under the low-time mark (3 s): one warning
    assert [n.data for n in referee.notes if n.kind == "low_time"] == [{"player": "yellow", "seconds": 3}]
    hands.wait(3)
    outcome = referee.game.outcome()
    assert referee.phase is Phase.OVER and outcome.termination.value == "time" and outcome.winner == "red"
    assert referee.notes[-1].kind == "over" and referee.notes[-1].data["reason"] == "time"
    assert referee.clock_state()["flagged"] == "yellow" and referee.clock_state()["remaining"]["yellow"] == 0


def test_the_clock_is_journaled_and_resumed(tmp_path):
    game = BigBalls()
    referee = new_referee(game, tmp_path, clock=ClockSettings(2, 1))
    referee.start(0.0)
    hands = Hands(referee, [])
    hands.place(*sorted(game.occupied())).settle()
    hands.move("a5", "a4").settle()
    hands.wait(10).move("b5", "b4").settle()
    referee.journal.close()
    contents = read_journal(referee.journal.path)
    assert contents.header["clock"] == {"minutes": 2, "increment": 1}
    moves = [e for e in contents.entries if e["type"] == "move"]
    assert moves[0]["clock"] == {"black": 121.0, "white": 120.0}
    assert moves[1]["clock"]["white"] == pytest.approx(120 - 10.55 + 1, abs=0.1)
    resumed = resume_referee(referee.journal.path, 500.0)
    assert resumed.clock.settings == ClockSettings(2, 1) and resumed.clock.running is None
    assert resumed.clock.remaining(500.0) == moves[1]["clock"]
    resumed.journal.close()


def test_a_loss_on_time_replays_from_the_journal(tmp_path):
    referee = new_referee(OffBoard(), tmp_path, clock=ClockSettings(0.1, 0))
    referee.start(0.0)
    hands = Hands(referee, [])
    hands.place(*sorted(OffBoard().occupied())).settle()
    hands.move("C3", "D3").settle().wait(10)
    path = referee.journal.path
    referee.journal.close()
    state = rebuild(read_journal(path))
    assert state.finished and state.game.outcome().termination.value == "time"


@pytest.mark.parametrize("minutes, increment", [(0.05, 0), (0.1, 0.3), (7 / 60, 1.1), (0.5, 0)])
def test_every_clock_deadline_is_used_up_when_it_falls_due(minutes, increment):
    # A deadline that stays due after it fired would spin the live loop for ever.
    referee, hands = set_up(OffBoard(), ClockSettings(minutes, increment), t=1234.567)
    hands.move("C3", "D3").wait(1)
    for _ in range(50):
        due = referee.next_deadline()
        if due is None:
            break
        referee.advance(due)
        assert referee.next_deadline() is None or referee.next_deadline() > due
    assert referee.phase is Phase.OVER and referee.game.outcome().termination.value == "time"
