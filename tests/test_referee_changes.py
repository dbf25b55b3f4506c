"""The referee builds its view only after a change, says when a page must redraw, and the live
loop sleeps until the next input or deadline (counts, never times) and takes a frame at its
stamp, never before what the referee has decided."""

import asyncio

import pytest

from reedboard.controller.session import live
from reedboard.hal.interfaces import Frame
from reedboard.controller.games import GAMES, BigBalls, OffBoard
from reedboard.controller.games.bigballs_setup import START_CELLS, BigBallsSetup
from reedboard.controller.games.setup import Expect, Identify, Replace, Say
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.core.referee import Outputs, Referee
from reedboard.controller.core.view import Phase

pytestmark = pytest.mark.component


def playing(game, **outputs):
    referee = live.LiveReferee(game, outputs=Outputs(**outputs))
    referee.start(0.0)
    referee.frame(0.01, game.occupied())
    referee.advance(2.0)
    assert referee.phase is Phase.PLAY
    return referee


def test_unchanged_frames_build_no_view_and_tell_nobody():
    lights, changed = [], []
    for game in (BigBalls(), OffBoard()):
        referee = playing(game, lights=lights.append, changed=lambda: changed.append(1))
        builds, shown, told = referee.view_builds, len(lights), len(changed)
        board, t = game.occupied(), 2.0
        for _ in range(500):
            t += 0.005
            referee.frame(t, board)
        assert referee.view_builds == builds and len(lights) == shown and len(changed) == told


def test_a_lifted_piece_is_one_change():
    changed = []
    referee = playing(OffBoard(), changed=lambda: changed.append(1))
    told = len(changed)
    board = set(referee.game.occupied())
    board.discard(sorted(referee.game.balls(referee.game.turn))[0])
    t = 2.0
    for _ in range(50):  # the same lifted board, reported again and again
        t += 0.005
        referee.frame(t, board)
    assert referee.view().prompt.kind == "in_hand"
    assert len(changed) == told + 1
    assert referee.state().stable == frozenset(board) and referee.state().choices == ()


def test_a_board_with_more_cells_than_the_game_is_read_for_the_games_cells():
    referee = playing(BigBalls())
    referee.frame(3.0, referee.game.occupied() | {"S1"})  # a cell this game does not have
    referee.advance(5.0)
    assert referee.stable == referee.game.occupied() and referee.view().prompt.kind == "roll"


def test_the_big_balls_guide_identifies_a_full_board_as_data():
    guide = BigBalls().setup_guide("auto")
    assert isinstance(guide, BigBallsSetup) and guide.reading and not guide.pieces_known
    steps = guide.read(START_CELLS)
    assert [type(s) for s in steps] == [Say, Identify, Say]
    assert steps[2].kind == "identify" and steps[2].data == {"player": "black", "number": 1}
    assert guide.mode == "identify" and not guide.reading
    assert guide.prompt(True, START_CELLS, None).data == {"player": "black", "number": 1}
    assert guide.marks(True).lift == frozenset({"a1", "b1", "c1", "a2", "b2", "a3"})


def test_the_big_balls_guide_asks_for_the_nearer_board_first():
    guide = BigBalls().setup_guide("auto")
    steps = guide.read(frozenset({"a1", "b1"}))
    assert steps[0] == Expect(frozenset())  # two pieces on eighteen start hollows: clear them
    assert guide.read(frozenset({"a1", "b1"})) == []  # asked already
    steps = guide.read(frozenset())
    assert isinstance(steps[0], Replace) and steps[1] == Expect(frozenset({"a7"}))
    assert guide.mode == "shuffle" and guide.marks(False).place == frozenset({"a7"})


def test_the_given_mode_has_no_guide_and_a_game_without_modes_refuses_one():
    assert BigBalls().setup_guide("given") is None
    for cls in GAMES.values():
        game = cls.from_options()
        referee = Referee(game, setup="auto")
        assert referee.setup_mode == (game.setup_modes[0] if "auto" in game.setup_modes else "given")


def test_the_live_loop_sleeps_until_the_next_deadline_or_input(monkeypatch):
    """With nothing pending it waits for the next input only; with a deadline, exactly until it."""
    waits = []
    real_wait_for = asyncio.wait_for

    async def counting_wait_for(awaitable, timeout):
        waits.append(timeout)
        return await real_wait_for(awaitable, timeout)

    monkeypatch.setattr(live.asyncio, "wait_for", counting_wait_for)

    class Machine:
        now = 0.0
        deadline = None
        advanced = 0

        def next_deadline(self):
            return self.deadline

        def advance(self, t):
            self.advanced += 1
            self.deadline = None

    async def main():
        queue, machine = asyncio.Queue(), Machine()
        getting = asyncio.create_task(live.next_input(queue, machine, lambda: 10.0))
        for _ in range(20):
            await asyncio.sleep(0)
        assert not getting.done() and waits == [None] and machine.advanced == 0
        await queue.put(None)  # the stop signal: an input with nothing in it
        assert await getting is None
        machine.deadline = 10.0  # due now: the wait is 0 and the timers run
        assert await live.next_input(queue, machine, lambda: 10.0) is None
        assert waits[-1] == 0.0 and machine.advanced == 1

    asyncio.run(main())


# A backend that debounces a switch itself stamps a change with when it happened (hal: halfway
# between the scan that missed it and the first that saw it, on the gpio scan and in the age of a
# serial C line), earlier than the frame comes, so that the recogniser's debounce does not count
# the backend's again.

def taken(referee, frame, now: float):
    queue: asyncio.Queue = asyncio.Queue()
    queue.put_nowait(frame)
    return asyncio.run(live.next_input(queue, referee, lambda: now))


def test_the_live_loop_takes_a_frame_at_its_stamp():
    referee = playing(BigBalls())
    referee.advance(10.0)
    frame = taken(referee, Frame(10.05, BigBalls().occupied() - {"a5"}), now=10.06)  # seen 10 ms before it came
    assert frame.t == 10.05
    referee.frame(frame.t, frame.occupied)
    assert referee.next_deadline() == 10.05 + Settings().debounce


def test_a_frame_stamped_before_the_referees_last_decision_is_taken_at_that_decision():
    referee = playing(BigBalls())
    referee.advance(10.0)
    frame = taken(referee, Frame(9.99, BigBalls().occupied() - {"a5"}), now=10.01)
    assert frame.t == 10.0
    referee.frame(frame.t, frame.occupied)  # time never runs backwards for the referee
    assert referee.next_deadline() == 10.0 + Settings().debounce
