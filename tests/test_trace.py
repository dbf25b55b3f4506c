"""Trace files: reading, every validation error named with its line, the flight recorder,
and what a long game keeps in memory (the trace has the rest)."""

import asyncio
import json
import os
import random
import tempfile
import threading
import time
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reedboard.controller.commands.cli import main
from reedboard.controller.games import BigBalls, OffBoard, load_layout
from reedboard.controller.games.bigballs import NAMES as HOLLOWS
from reedboard.controller.games.offboard_layout import layout_to_data
from reedboard.controller.persist.journal_format import game_header
from reedboard.controller.session.live import new_referee, run
from reedboard.controller.session.snapshot import NOTES_SHOWN
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.core.referee import NOTES_KEPT, Referee
from reedboard.controller.persist.trace import (
    Trace, TraceError, TracePress, TraceWriter, game_from_header, read_trace,
)
from reedboard.hal.board import load_board
from reedboard.hal.interfaces import Button, Frame
from reedboard.hal.sim import SimBoard
from reedboard.controller.words.notes import written

from conftest import seeds
from offboard_boards import regrouped
from physical import Hands, TraceBuilder

pytestmark = pytest.mark.component

HEADER = {"game": "bigballs", "first": "white",
          "setup": {"black": {"a1": 3, "b1": 6, "c1": 1, "a2": 5, "b2": 2, "a3": 4},
                    "white": {"e1": 2, "f1": 4, "g1": 6, "e2": 1, "f2": 3, "e3": 5}},
          "settings": {"debounce": 0.02, "settle": 0.8, "grace": 1.5}}
START = sorted(BigBalls().occupied())


def write_lines(tmp_path, *lines, name="trace.jsonl"):
    path = tmp_path / name
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines),
                    encoding="utf-8")
    return path


def test_a_trace_reads_into_frames_and_presses(tmp_path):
    path = write_lines(
        tmp_path, HEADER,
        {"t": 0, "occupied": START},
        {"t": 2.1, "press": "die", "roll": 4},
        {"t": 2.5, "press": "die"},
        {"t": 2.5, "occupied": ["a1"]},  # equal times are fine
        {"t": 9.0, "press": "ok"},
    )
    trace = read_trace(path)
    assert trace.header == HEADER
    assert trace.events == [
        Frame(0.0, frozenset(START)), TracePress(2.1, "die", 4), TracePress(2.5, "die", None),
        Frame(2.5, frozenset({"a1"})), TracePress(9.0, "ok"),
    ]
    assert isinstance(trace.events[0].t, float)


def test_the_header_builds_the_game():
    game = game_from_header(HEADER)
    assert isinstance(game, BigBalls) and game.turn == "white"
    assert game.stones("black") == HEADER["setup"]["black"] and game.stones("white") == HEADER["setup"]["white"]
    assert game_from_header({"game": "bigballs", "balls": ["a7"], "setup": {"black": {"a1": 1}}}).balls() == ["a7"]
    default = game_from_header({"game": "bigballs"})
    assert default.diagram() == BigBalls().diagram()


def test_an_off_board_header_may_name_a_board_file_or_carry_the_board(tmp_path):
    layout = regrouped({"S1": (3, ["S1", "S2", "S3"]), "S2": (1, ["S4", "S5", "S6"]),
                        "S3": (3, ["S7", "S8", "S9"]), "S4": (1, ["S10", "S11", "S12"])})
    game = game_from_header({"game": "offboard", "board": {"source": "test board", **layout_to_data(layout)}})
    assert game.layout == layout
    assert game_from_header({"game": "offboard"}).layout == load_layout()
    board = tmp_path / "board.toml"
    board.write_bytes(resources.files("reedboard.controller.games").joinpath("data/offboard.toml").read_bytes())
    from_file = game_from_header({"game": "offboard", "board": str(board)})
    assert from_file.layout.source == str(board) and from_file.layout.sectors == load_layout().sectors


def test_off_board_cells_are_the_holes_and_the_board_s_sectors(tmp_path):
    layout = regrouped({"S1": (3, ["S1", "S2", "S3"]), "S2": (1, ["S4", "S5", "S6"]),
                        "S3": (3, ["S7", "S8", "S9"]), "S4": (1, ["S10", "S11", "S12"])})
    header = {"game": "offboard", "board": layout_to_data(layout)}
    ok = write_lines(tmp_path, header, {"t": 0, "occupied": ["E5", "S4", "i9"]})
    assert read_trace(ok).events == [Frame(0.0, frozenset({"E5", "S4", "I9"}))]  # names are case-blind
    bad = write_lines(tmp_path, header, {"t": 0, "occupied": ["E5", "S5"]}, name="bad.jsonl")
    with pytest.raises(TraceError, match=r":2: unknown cell 'S5'"):
        read_trace(bad)
    default = write_lines(tmp_path, {"game": "offboard"}, {"t": 0, "occupied": ["S12", "S13"]}, name="d.jsonl")
    with pytest.raises(TraceError, match=r":2: unknown cell 'S13'"):
        read_trace(default)


GOOD_FRAME = {"t": 1.0, "occupied": ["a1"]}


@pytest.mark.parametrize(
    "lines, line, message",
    [
        ([HEADER, GOOD_FRAME, '{"t": 2.0, "occupied": [}'], 3, "not JSON"),
        ([HEADER, "[1, 2]"], 2, "expected a JSON object"),
        (['"bigballs"'], 1, "expected a JSON object"),
        ([{"game": "chess"}], 1, "unknown game 'chess'"),
        ([{**HEADER, "colour": "red"}], 1, "unknown header key 'colour'"),
        ([GOOD_FRAME], 1, "missing header"),
        ([HEADER, {"t": 1.0, "occupied": [], "speed": 2}], 2, "unknown key 'speed'"),
        ([HEADER, {"t": 1.0, "press": "ok", "long": True}], 2, "unknown key 'long'"),
        ([HEADER, {"occupied": ["a1"]}], 2, 'missing "t"'),
        ([HEADER, {"t": "1.0", "occupied": []}], 2, '"t" must be a finite number'),
        ([HEADER, {"t": True, "occupied": []}], 2, '"t" must be a finite number'),
        ([HEADER, '{"t": NaN, "occupied": []}'], 2, '"t" must be a finite number'),
        ([HEADER, '{"t": Infinity, "occupied": []}'], 2, '"t" must be a finite number'),
        ([HEADER, '{"t": 1' + "0" * 400 + ', "occupied": []}'], 2, '"t" must be a finite number'),
        ([HEADER, {"t": 2.0, "occupied": []}, {"t": 1.5, "occupied": []}], 3, "time goes backwards"),
        ([HEADER, GOOD_FRAME, {"t": 2.0, "occupied": ["a1", "h9"]}], 3, "unknown cell 'h9'"),
        ([HEADER, {"t": 1.0, "occupied": "a1"}], 2, '"occupied" must be a list of cell names'),
        ([HEADER, {"t": 1.0, "occupied": [1]}], 2, '"occupied" must be a list of cell names'),
        ([HEADER, {"t": 1.0, "occupied": ["a1", "A1"]}], 2, "cell a1 is listed twice"),
        ([HEADER, {"t": 1.0}], 2, 'needs "occupied"'),
        ([HEADER, {"t": 1.0, "occupied": [], "press": "ok"}], 2, "not both"),
        ([HEADER, {"t": 1.0, "press": "reset"}], 2, "unknown button 'reset'"),
        ([HEADER, {"t": 1.0, "press": "die", "roll": 7}], 2, '"roll" must be a whole number 1-6'),
        ([HEADER, {"t": 1.0, "press": "die", "roll": 0}], 2, '"roll" must be a whole number 1-6'),
        ([HEADER, {"t": 1.0, "press": "die", "roll": 2.5}], 2, '"roll" must be a whole number 1-6'),
        ([HEADER, {"t": 1.0, "press": "die", "roll": True}], 2, '"roll" must be a whole number 1-6'),
        ([HEADER, {"t": 1.0, "press": "ok", "roll": 3}], 2, 'only the die press takes a "roll"'),
        ([HEADER, {"t": 1.0, "computer": 4}], 2, '"computer" is the move it showed or "roll"'),
        ([HEADER, {"t": 1.0, "computer": "roll"}], 2, 'the computer\'s "roll" goes with'),
        ([HEADER, {"t": 1.0, "computer": "4 b2-b3", "roll": 2}], 2, 'the computer\'s "roll" goes with'),
        ([HEADER, {"t": 1.0, "computer": "roll", "roll": 7}], 2, 'the computer\'s "roll" goes with'),
        ([HEADER, {"t": 1.0, "computer": "roll", "roll": 2, "x": 1}], 2, "unknown key"),
        ([{**HEADER, "computer": {"plays": "green", "level": 2, "version": "1"}}], 1, '"computer" must be'),
        ([{**HEADER, "computer": {"plays": "black", "level": 0, "version": "1"}}], 1, '"computer" must be'),
        ([{**HEADER, "settings": {"settle": -1}}], 1, "setting settle must be a number of seconds from 0.05 to 10"),
        ([{**HEADER, "settings": {"grace": 0}}], 1, "setting grace must be a number of seconds from 0.1 to 60"),
        ([{**HEADER, "settings": {"debounce": "20ms"}}], 1, "setting debounce must be a number of seconds"),
        ([{**HEADER, "settings": {"debounce": float("inf")}}], 1, "setting debounce must be a number of seconds"),
        ([{**HEADER, "settings": {"settel": 0.8}}], 1, "unknown setting 'settel'"),
        ([{**HEADER, "settings": [0.8]}], 1, '"settings" must be an object'),
        ([{**HEADER, "setup": {"black": {"a1": 7}}}], 1, "number 7 is not 1-6"),
        ([{**HEADER, "setup": {"black": {"z9": 1}}}], 1, "no hollow 'z9'"),
        ([{**HEADER, "setup": {"black": {"a1": "3"}}}], 1, '"setup" black'),
        ([{**HEADER, "setup": {"red": {}}}], 1, '"setup" must be'),
        ([{**HEADER, "first": "green"}], 1, "first player must be black or white"),
        ([{"game": "offboard", "setup": {}}], 1, '"setup" does not belong'),
        ([{"game": "offboard", "first": "yellow"}], 1, "red always moves first"),
        ([{"game": "offboard", "board": "/no/such/board.toml"}], 1, "cannot read the board file"),
        ([{"game": "offboard", "board": {"start": {}}}], 1, "red = "),
        ([{"game": "offboard", "board": 7}], 1, '"board" must be'),
        ([{"game": "bigballs", "board": "x.toml"}], 1, '"board" does not belong'),
    ],
)
def test_every_problem_is_named_with_its_file_and_line(tmp_path, lines, line, message):
    path = write_lines(tmp_path, *lines)
    with pytest.raises(TraceError) as caught:
        read_trace(path)
    assert str(caught.value).startswith(f"{path}:{line}: ")
    assert message in str(caught.value)
    assert caught.value.line == line


def test_blank_lines_are_skipped_but_still_counted(tmp_path):
    path = write_lines(tmp_path, HEADER, "", GOOD_FRAME, "   ", {"t": 0.5, "occupied": []})
    with pytest.raises(TraceError, match=r":5: time goes backwards"):
        read_trace(path)


@pytest.mark.parametrize("content", ["", "\n", "  \n\n"])
def test_an_empty_trace_is_an_error(tmp_path, content):
    path = tmp_path / "empty.jsonl"
    path.write_text(content)
    with pytest.raises(TraceError, match=rf"^{path}: empty"):
        read_trace(path)


def test_a_missing_file_is_named(tmp_path):
    with pytest.raises(TraceError, match="cannot read the trace"):
        read_trace(tmp_path / "nowhere.jsonl")


# --- the flight recorder --------------------------------------------------------------------
def test_what_the_recorder_writes_reads_back_identically(tmp_path):
    path = tmp_path / "t.trace.jsonl"
    with TraceWriter(path, HEADER) as writer:
        writer.frame(0, START)
        writer.press(1.25, "die", 3)
        writer.press(1.5, Button.DIE)
        writer.frame(2.0, {"b3", "a1"})
        writer.press(3.0, "ok")
    assert read_trace(path) == Trace(HEADER, [
        Frame(0.0, frozenset(START)), TracePress(1.25, "die", 3), TracePress(1.5, "die"),
        Frame(2.0, frozenset({"a1", "b3"})), TracePress(3.0, "ok"),
    ])


def test_an_off_board_recorder_header_carries_the_board(tmp_path):
    header = {**game_header(OffBoard()), "settings": {"settle": 0.5}}
    path = tmp_path / "o.trace.jsonl"
    with TraceWriter(path, header) as writer:
        writer.frame(0.0, OffBoard().occupied() | {"S3"})
    trace = read_trace(path)
    assert trace.header == header and trace.game().layout == load_layout()
    assert trace.events == [Frame(0.0, OffBoard().occupied() | {"S3"})]


def test_each_line_is_on_disk_before_the_next_event(tmp_path, mocker):
    fsync = mocker.spy(os, "fsync")
    path = tmp_path / "t.trace.jsonl"
    writer = TraceWriter(path, HEADER)
    assert fsync.call_count == 1 and len(path.read_text().splitlines()) == 1
    writer.frame(0.0, START)
    assert fsync.call_count == 2 and len(read_trace(path).events) == 1  # readable before close
    writer.press(0.5, "die", 6)
    assert fsync.call_count == 3 and read_trace(path).events[-1] == TracePress(0.5, "die", 6)
    writer.close()


def test_the_recorder_never_overwrites_a_trace(tmp_path):
    path = write_lines(tmp_path, HEADER, GOOD_FRAME)
    before = path.read_bytes()
    with pytest.raises(FileExistsError):
        TraceWriter(path, HEADER)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "act, message",
    [
        (lambda w: w.frame(0.5, ["a1"]), "t must be"),  # before the 1.0 already written
        (lambda w: w.frame(2.0, ["h9"]), "unknown cell"),
        (lambda w: w.frame(float("nan"), []), "t must be"),
        (lambda w: w.press(2.0, "reset"), "unknown button"),
        (lambda w: w.press(2.0, "die", 7), "a roll is 1-6"),
        (lambda w: w.press(2.0, "ok", 3), "a roll is 1-6"),
    ],
)
def test_the_recorder_refuses_what_could_not_be_read_back(tmp_path, act, message):
    path = tmp_path / "t.trace.jsonl"
    with TraceWriter(path, HEADER) as writer:
        writer.frame(1.0, ["a1"])
        with pytest.raises(ValueError, match=message):
            act(writer)
    assert len(read_trace(path).events) == 1


def test_the_recorder_refuses_a_bad_header(tmp_path):
    with pytest.raises(TraceError, match="unknown game"):
        TraceWriter(tmp_path / "t.jsonl", {"game": "chess"})


events = st.lists(
    st.one_of(
        st.tuples(st.just("frame"), st.frozensets(st.sampled_from(HOLLOWS))),
        st.tuples(st.just("press"), st.one_of(st.tuples(st.just("die"), st.none() | st.integers(1, 6)),
                                              st.tuples(st.just("ok"), st.none()))),
    ),
    max_size=30,
)


@settings(max_examples=seeds(50), deadline=None)
@given(events, st.lists(st.floats(0, 1e6, allow_nan=False), min_size=30, max_size=30))
def test_any_recording_reads_back_identically(items, times):
    times = sorted(times)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.trace.jsonl"
        expected = []
        with TraceWriter(path, HEADER) as writer:
            for (kind, body), t in zip(items, times):
                if kind == "frame":
                    writer.frame(t, body)
                    expected.append(Frame(t, body))
                else:
                    writer.press(t, *body)
                    expected.append(TracePress(t, *body))
        assert read_trace(path) == Trace(HEADER, expected)


# --- the flight recorder in a game: the disk never holds up a frame, the journal waits for the trace
QUICK = Settings(debounce=0.005, settle=0.05, grace=1.0)


@pytest.fixture
def synced(monkeypatch):
    """Every fsync as it happens: the thread that asked, the file, and what the file holds then."""
    seen = []
    real_fsync = os.fsync

    def fsync(fd):
        real_fsync(fd)
        path = os.readlink(f"/proc/self/fd/{fd}")
        with open(path, "rb") as file:
            seen.append((threading.current_thread(), path, file.read()))

    monkeypatch.setattr(os, "fsync", fsync)
    return seen


def test_a_frame_never_waits_for_the_disk(tmp_path, synced):
    referee = new_referee(BigBalls(), tmp_path, settings=QUICK)
    referee.start(0.0)
    hands = Hands(referee, [])
    hands.place(*START).settle()
    for _ in range(20):
        hands.lift("a1").place("a1")
    trace = referee.recorder.path
    referee.journal.close()
    referee.recorder.close()
    assert not [path for thread, path, _ in synced if thread is threading.main_thread() and path == str(trace)]
    assert [e.occupied for e in read_trace(trace).events] == [frame for _, frame in hands.frames]  # all of them


async def until(condition, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.005)


async def a_live_game(game, folder, moves: list[str]) -> None:
    """The moves made by hands on a simulated board, refereed by live.run in real time
    (Big Balls stone moves after a press of the die; the die shows their number)."""
    loop = asyncio.get_running_loop()
    board = SimBoard(load_board(game=game.board, cells=game.cells), game.occupied(), clock=loop.time)
    rolls = [int(text.split()[0]) for text in moves if text[0].isdigit()]
    die = random.Random()
    die.randint = lambda low, high: rolls.pop(0)  # the die shows what the script needs
    referee = new_referee(game, folder, settings=QUICK, rng=die)
    stop = asyncio.Event()
    task = asyncio.create_task(run(referee, board, board, clock=loop.time, stop=stop, poll=0.01))
    await until(lambda: referee.journal is not None)
    for number, text in enumerate(moves, 1):
        move = referee.game.parse_move(text)
        if getattr(move, "roll", None):
            board.press(Button.DIE)
            await until(lambda: referee.roll is not None)
        fp = referee.game.footprint(move)
        for change, cell in [("lift", c) for c in sorted(fp.captures | fp.empties)] + [
                ("place", c) for c in sorted(fp.fills | fp.captures)]:
            getattr(board, change)(cell)
            await asyncio.sleep(0.01)
        await until(lambda: len(referee.game.move_stack) == number)
    stop.set()
    await task
    referee.journal.close()
    referee.recorder.close()
    return referee.journal.origin


@pytest.mark.parametrize("game, moves", [
    (BigBalls(), ["BB a5-a4", "2 f1xf2", "BB b5-b4"]),  # a roll journaled at a press of the die
    (OffBoard(), ["B2-A1", "H8-I9"]),  # moves that count once the board has been still: time decides
])
def test_a_journal_line_waits_until_the_trace_holds_what_led_to_it(tmp_path, synced, game, moves):
    origin = asyncio.run(a_live_game(game, tmp_path, moves))  # the journal's times count from the game's start
    trace_on_disk = ""
    checked = 0
    for _, path, data in synced:
        if path.endswith(".trace.jsonl"):
            trace_on_disk = data.decode()
            continue
        last = json.loads(data.decode().splitlines()[-1])
        events = [json.loads(line) for line in trace_on_disk.splitlines()[1:]]
        if last["type"] == "roll":  # the press that rolled it is on disk first
            assert any(e.get("press") == "die" and e.get("roll") == last["value"]
                       and abs(e["t"] - origin - last["t"]) < 0.001 for e in events)
            checked += 1
        elif last["type"] == "move":  # so is the frame that made it, or one marking when time did
            assert events and events[-1]["t"] - origin >= last["t"] - 0.001
            checked += 1
    assert checked == len(moves) + sum(1 for text in moves if text[0].isdigit())


# --- what a long game keeps in memory ------------------------------------------------------------
def touched(times: int) -> Referee:
    """A referee that saw a piece lifted and put back `times` times (a note each)."""
    referee = Referee(BigBalls(), settings=Settings())
    referee.start(0.0)
    hands = Hands(referee, [])
    hands.place(*START).settle()
    for _ in range(times):
        hands.lift("a1").place("a1").wait(1.0)
    return referee


def test_a_long_game_keeps_only_the_newest_notes_and_counts_them_all():
    referee = touched(NOTES_KEPT + 30)
    assert len(referee.notes) == NOTES_KEPT
    assert referee.notes_total == NOTES_KEPT + 30 + 2  # the set-up and "ready" came first
    assert referee.notes[-1].kind == "touch" and referee.notes[0].kind == "touch"


def test_the_page_numbers_the_notes_on_past_those_kept(tmp_path):
    referee = touched(NOTES_KEPT + 30)
    session = PlaySession("bigballs", games_dir=tmp_path)
    session._t0 = 0.0
    shown = session._notes(referee)
    total = referee.notes_total
    assert [note["n"] for note in shown] == list(range(total, total - NOTES_SHOWN, -1))
    newest = referee.notes[-1]
    assert shown[0]["text"] == written(newest.kind, newest.data, referee.game) and shown[0]["kind"] == "touch"


def test_the_replay_prints_every_note_of_a_long_game(tmp_path, capsys):
    builder = TraceBuilder.bigballs()
    for _ in range(NOTES_KEPT + 30):
        builder.lift("a1").place("a1").wait(1.0)
    path = tmp_path / "long.jsonl"
    builder.save(path)
    assert main(["replay", str(path), "--events"]) == 0
    assert capsys.readouterr().out.count("a1 put back: no move") == NOTES_KEPT + 30


# --- files that are not traces, too big, or nested too deep -----------------------------------
def test_going_on_with_a_trace_too_big_is_refused_before_reading_it(tmp_path):
    from reedboard.controller.ground.readfile import TRACE_LIMIT

    path = tmp_path / "t.trace.jsonl"
    path.write_text(json.dumps(HEADER) + "\n")
    os.truncate(path, TRACE_LIMIT + 1)  # sparse: no disk used
    with pytest.raises(TraceError, match=rf"^{path}: cannot read the trace to go on with it \(it is .* MiB"):
        TraceWriter.resume(path, 0.0)
    with pytest.raises(TraceError, match=rf"^{path}: cannot read the trace \(it is .* MiB"):
        read_trace(path)


def test_a_line_nested_too_deeply_before_a_resume_marker_is_a_cut_line(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    path = write_lines(tmp_path, HEADER, GOOD_FRAME, '{"t": 2.0, "occupied": ' + deep, {"t": 3.0, "resume": True})
    assert [type(e).__name__ for e in read_trace(path).events] == ["Frame", "TraceResume"]
    with TraceWriter.resume(path, 0.0) as writer:  # the times go on after the deep line too
        writer.frame(0.5, ["a1"])
    assert read_trace(path).events[-1] == Frame(4.5, frozenset({"a1"}))
