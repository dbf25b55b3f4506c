"""A game survives a power cut: the journal cut mid-line, the board guided back, play goes on."""

import asyncio
import shutil

import pytest

from reedboard.controller.commands.cli import main
from reedboard.controller.games import BigBalls
from reedboard.controller.persist.game_files import trace_path
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.persist.games_folder import unfinished_games
from reedboard.controller.persist.export import export_lines
from reedboard.controller.session.live import new_referee, resume_referee, run
from reedboard.controller.session.replay import replay
from reedboard.controller.persist.trace import TraceResume, read_trace
from reedboard.controller.core.view import Phase
from reedboard.hal.interfaces import Button, Frame, Press

from physical import Hands

pytestmark = pytest.mark.component

START = sorted(BigBalls().occupied())


def cut(path, keep_from_last_line: int) -> None:
    """The power goes while the last line is being written: only its first bytes reach the disk."""
    data = path.read_bytes()
    last = data.rstrip(b"\n").rfind(b"\n") + 1
    path.write_bytes(data[: last + keep_from_last_line])


def test_a_game_resumed_after_a_power_cut(tmp_path):
    referee = new_referee(BigBalls(), tmp_path)
    referee.start(1000.0)
    hands = Hands(referee, [], t=1000.0)
    hands.place(*START).settle()
    hands.move("a5", "a4").wait(1)
    referee.press(hands.t, "die", 1)
    hands.capture("e1", "e2").wait(1)  # White's stone 1 takes White's own 4
    hands.move("b5", "b4").wait(1)  # Black's big ball: the line being written when the power goes
    (path,) = unfinished_games(tmp_path)
    assert [e["type"] for e in read_journal(path).entries][-1] == "move"
    cut(path, keep_from_last_line=12)
    cut(trace_path(path), keep_from_last_line=9)

    # The power comes back; the clock starts again from zero.
    assert unfinished_games(tmp_path) == [path]
    contents = read_journal(path)
    assert contents.warning and f"{path}:" in contents.warning  # the cut line is named, then left out
    referee = resume_referee(path, t=5.0)
    assert [str(m) for m in referee.game.move_stack] == ["BB a5-a4", "1 e1xe2"]  # BB b5-b4 was lost
    referee.start(5.0)
    hands.driver, hands.t = referee, 5.0
    hands.lift("a4").place("a4").settle()  # the board still shows b5-b4: the lights say so
    view = referee.view()
    assert referee.phase is Phase.SETUP and view.fill == {"b5"} and view.empty == {"b4"}
    hands.move("b4", "b5").settle()  # put back as the lights ask
    assert referee.phase is Phase.PLAY and referee.game.turn == "black"
    hands.move("b5", "b4").wait(1).move("c5", "c4").wait(1)

    expected = ["game bigballs", "black a1=1 b1=2 c1=3 a2=4 b2=5 a3=6", "white e1=1 f1=2 g1=3 e2=4 f2=5 e3=6",
                "first black", "BB a5-a4", "1 e1xe2", "BB b5-b4", "BB c5-c4"]
    assert export_lines(path) == expected
    assert replay(read_trace(trace_path(path))).record == expected  # the flight recorder kept it all


def test_a_rolled_die_survives_the_power_cut(tmp_path):
    referee = new_referee(BigBalls(), tmp_path)
    referee.start(0.0)
    hands = Hands(referee, [])
    hands.place(*START).settle()
    referee.press(hands.t + 0.5, "die", 6)
    (path,) = unfinished_games(tmp_path)
    referee = resume_referee(path, t=0.0)
    referee.start(0.0)
    hands.driver, hands.t = referee, 0.0
    hands.lift("a1").place("a1").settle()
    assert referee.phase is Phase.ROLLED and referee.roll == 6
    hands.move("a3", "a4").settle()
    assert export_lines(path)[-1] == "6 a3-a4"


class Sensors:
    """An async sensor stream fed by the test, as the hal's would be."""

    cells = tuple(BigBalls().cells)

    def __init__(self):
        self.queue = asyncio.Queue()

    async def frames(self):
        while True:
            yield await self.queue.get()


class Buttons(Sensors):
    async def presses(self):
        while True:
            yield await self.queue.get()


async def until(condition, what: str, timeout: float = 20.0) -> None:
    """Wait for the live loop to bring `condition` about (checked often; `timeout` only stops a hang)."""
    for _ in range(int(timeout / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the live loop never got to {what}")


def test_the_live_loop_referees_in_real_time(tmp_path):
    async def play():
        loop = asyncio.get_running_loop()
        sensors, buttons, stop = Sensors(), Buttons(), asyncio.Event()
        referee = new_referee(BigBalls(), tmp_path)
        task = asyncio.create_task(run(referee, sensors, buttons, clock=loop.time, stop=stop))
        board = set(START)
        await sensors.queue.put(Frame(loop.time(), frozenset(board)))
        await until(lambda: referee.phase is Phase.PLAY, "the game")
        await buttons.queue.put(Press(loop.time(), Button.DIE))
        await until(lambda: referee.roll is not None, "the roll")
        move = referee.game.stone_moves(referee.roll)[0]  # a stone moved for whatever the die showed
        steps = [("lift", move.dst), ("lift", move.src), ("place", move.dst)] if move.capture else [
            ("lift", move.src), ("place", move.dst)]
        for change, cell in steps:
            (board.discard if change == "lift" else board.add)(cell)
            await sensors.queue.put(Frame(loop.time(), frozenset(board)))
            await until(lambda: referee.stable == frozenset(board), f"{cell} {change}ed")
        # the move is taken once the board has been still for the settle time, on the loop's clock
        await until(lambda: referee.game.move_stack, "the move")
        stop.set()
        await task
        return referee, move

    referee, move = asyncio.run(play())
    assert referee.game.move_stack == [move]
    (path,) = tmp_path.glob("*-bigballs.jsonl")
    assert [e["type"] for e in read_journal(path).entries] == ["roll", "move"]


# --- a resumed game whose trace is missing: a new trace segment --------------------------------
def a_game_stopped_after(tmp_path, *moves):
    """A Big Balls game with these big-ball moves made, its controller stopped; its journal and hands."""
    referee = new_referee(BigBalls(), tmp_path)
    referee.start(0.0)
    hands = Hands(referee, [])
    hands.place(*START).settle()
    for src, dst in moves:
        hands.move(src, dst).wait(1)
    referee.journal.close()
    referee.recorder.close()
    (path,) = unfinished_games(tmp_path)
    return path, hands


def resumed(path, hands, t):
    referee = resume_referee(path, t=t)
    referee.start(t)
    hands.driver, hands.t = referee, t
    hands.lift("a1").place("a1").settle()  # the board as it stands
    assert referee.phase is Phase.PLAY
    return referee


def test_a_game_whose_trace_is_missing_goes_on_in_a_new_segment(tmp_path, capsys):
    path, hands = a_game_stopped_after(tmp_path, ("a5", "a4"))
    trace = trace_path(path)
    trace.unlink()  # lost: a card swapped, a file deleted
    referee = resumed(path, hands, 0.0)
    assert trace.exists()  # begun at once: the frames go to it as they come, none held in memory
    hands.move("b5", "b4").wait(1)
    referee.journal.close()
    referee.recorder.close()
    segment = read_trace(trace)
    assert isinstance(segment.events[0], TraceResume) and Frame in map(type, segment.events)
    referee = resumed(path, hands, 7.0)  # a segment goes on after a restart like any trace
    hands.move("c5", "c4").wait(1)
    referee.journal.close()
    referee.recorder.close()

    record = export_lines(path)
    assert record[4:] == ["BB a5-a4", "BB b5-b4", "BB c5-c4"]
    assert replay(read_trace(trace), source=str(trace)).record == record  # the journal gives the start
    assert main(["replay", str(trace)]) == 0 and capsys.readouterr().out.splitlines() == record
    alone = tmp_path / "alone" / trace.name
    alone.parent.mkdir()
    shutil.copy(trace, alone)
    assert main(["replay", str(alone)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and str(alone) in err and "journal" in err


@pytest.mark.parametrize("left", [b"", b'{"game": "bigba'], ids=["empty", "header cut"])
def test_a_trace_cut_before_its_header_was_whole_is_begun_again(tmp_path, left):
    path, hands = a_game_stopped_after(tmp_path, ("a5", "a4"))
    trace_path(path).write_bytes(left)  # the power went as the new game's trace was begun
    referee = resumed(path, hands, 0.0)
    hands.move("b5", "b4").wait(1)
    referee.journal.close()
    referee.recorder.close()
    record = export_lines(path)
    assert record[4:] == ["BB a5-a4", "BB b5-b4"]
    assert replay(read_trace(trace_path(path)), source=str(trace_path(path))).record == record
