"""The game journal: written line by line, read back after a power cut, resumed, exported."""

import json
import os
import re
from datetime import datetime
from importlib import resources
from pathlib import Path

import pytest

from reedboard.controller.games import BigBalls, OffBoard, load_layout, top_level
from reedboard.controller.games.offboard_layout import layout_to_data, parse_layout
from reedboard.controller.persist.game_files import default_games_dir
from reedboard.controller.persist.journal_format import JournalContents, JournalError, game_header
from reedboard.controller.persist.journal_replay import rebuild
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.persist.games_folder import unfinished_games
from reedboard.controller.persist.journal_recovery import go_on_in_new_journal
from reedboard.controller.persist.journal import Journal
from reedboard.controller.persist.export import export_lines

from offboard_boards import regrouped

pytestmark = pytest.mark.unit

NOW = datetime(2024, 5, 1, 12, 30, 0)
SETTINGS = {"settle": 0.8, "takebacks": True}
SHUFFLED = {"black": {"a1": 3, "b1": 6, "c1": 1, "a2": 5, "b2": 2, "a3": 4},
            "white": {"e1": 2, "f1": 4, "g1": 6, "e2": 1, "f2": 3, "e3": 5}}
CLIMBER = {"black": {"a4": 3, "a1": 1}, "white": {"g1": 2}}  # Black's stone 3 is three steps from a7
TO_A7 = ["3 a4xa5", "2 g1-f2", "3 a5xa6", "2 f2-e3", "3 a6xa7"]
SCORING = ["B2-B3x1", "D6-D5x1", "B3-B4x1 S3+3"]


def club_board(tmp_path, red, yellow):
    """A board file like the default one with another start position."""
    text = resources.files("reedboard.controller.games").joinpath("data/offboard.toml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^red = .*$", "red = " + json.dumps(red), text)
    text = re.sub(r"(?m)^yellow = .*$", "yellow = " + json.dumps(yellow), text)
    path = tmp_path / "club.toml"
    path.write_text(text, encoding="utf-8")
    return path


def lines_of(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


class Play:
    """Plays moves on a live game and journals them, as the controller would."""

    def __init__(self, journal, game):
        self.journal, self.game, self.t = journal, game, 0.0

    def tick(self):
        self.t += 1.0
        return self.t

    def move(self, text):
        head = text.split()[0]
        if isinstance(self.game, BigBalls) and head != "BB":
            self.journal.append_roll(self.tick(), self.game.turn, int(head))
        self.game.play(text)
        self.journal.append_move(self.tick(), text)

    def moves(self, texts):
        for text in texts:
            self.move(text)

    def takeback(self):
        self.journal.append_takeback(self.tick(), str(self.game.pop()))

    def amend(self, new):
        old = str(self.game.pop())
        self.game.play(new)
        self.journal.append_amend(self.tick(), old, new)

    def result(self):
        outcome = self.game.outcome()
        self.journal.append_result(self.tick(), self.game.result(), outcome.termination.value, outcome.winner)


def new_journal(tmp_path, game, now=NOW):
    journal = Journal.create(tmp_path / "games", game.copy(), SETTINGS, now)
    return journal, Play(journal, game)


# --- the header and the file ------------------------------------------------------------------
def test_a_big_balls_journal_starts_with_its_header(tmp_path):
    journal = Journal.create(tmp_path / "games", BigBalls(**SHUFFLED, first="white"), SETTINGS, NOW)
    journal.close()
    assert journal.path == tmp_path / "games" / "20240501-123000-bigballs.jsonl"
    assert journal.trace_path == tmp_path / "games" / "20240501-123000-bigballs.trace.jsonl"
    assert lines_of(journal.path) == [{
        "type": "header", "version": 1, "game": "bigballs", "first": "white", "setup": SHUFFLED,
        "settings": SETTINGS, "started": "2024-05-01T12:30:00",
    }]


def test_an_off_board_journal_carries_its_board_as_data(tmp_path):
    layout = load_layout(club_board(tmp_path, ["B3", "B2", "A3", "A4"], ["B1", "A5", "I9"]))
    journal = Journal.create(tmp_path / "games", OffBoard(layout), {}, NOW)
    journal.close()
    (header,) = lines_of(journal.path)
    assert journal.path.name == "20240501-123000-offboard.jsonl"
    assert set(header) == {"type", "version", "game", "board", "settings", "started"}
    board = dict(header["board"])
    assert board.pop("source") == layout.source
    assert parse_layout(board, layout.source) == layout


@pytest.mark.parametrize("layout", [
    load_layout(),
    regrouped({"S1": (3, ["S1", "S2", "S3"]), "S2": (1, ["S4", "S5", "S6"]),
               "S3": (3, ["S7", "S8", "S9"]), "S4": (1, ["S10", "S11", "S12"])}),
])
def test_a_layout_turns_back_into_board_data(layout):
    data = layout_to_data(layout)
    assert set(data) == {"start", "sector"}
    assert parse_layout(json.loads(json.dumps(data)), layout.source) == layout


def test_the_header_keeps_big_balls_that_are_not_where_they_start():
    header = game_header(BigBalls(black={"a1": 1}, white={"g1": 1}, balls=["a7", "c5"]))
    assert header["balls"] == ["c5", "a7"] and "balls" not in game_header(BigBalls())


def test_an_off_board_game_must_start_from_its_board_s_start(tmp_path):
    with pytest.raises(ValueError, match="start position"):
        game_header(OffBoard(red=["C3"], yellow=["E5"]))


def test_the_journal_starts_before_the_first_move(tmp_path):
    game = BigBalls()
    game.play("BB a5-a4")
    with pytest.raises(ValueError, match="before the first move"):
        Journal.create(tmp_path, game, {}, NOW)


def test_two_games_started_in_one_second_get_two_files(tmp_path):
    first = Journal.create(tmp_path, BigBalls(), {}, NOW)
    second = Journal.create(tmp_path, BigBalls(), {}, NOW)
    first.close()
    second.close()
    assert first.path.name == "20240501-123000-bigballs.jsonl"
    assert second.path.name == "20240501-123000-bigballs-2.jsonl"
    assert second.trace_path.name == "20240501-123000-bigballs-2.trace.jsonl"


def test_the_default_games_folder_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_games_dir() == tmp_path / "data" / "reedboard" / "games"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")  # the XDG spec ignores relative paths
    assert default_games_dir() == tmp_path / "home" / ".local" / "share" / "reedboard" / "games"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_games_dir() == tmp_path / "home" / ".local" / "share" / "reedboard" / "games"


def test_every_line_is_flushed_and_synced_as_it_is_written(tmp_path, mocker):
    fsync = mocker.spy(os, "fsync")
    journal, _ = new_journal(tmp_path, BigBalls())
    header_syncs = fsync.call_count
    assert header_syncs >= 1 and len(journal.path.read_text().splitlines()) == 1
    writes = [
        lambda: journal.append_roll(1.0, "black", 4),
        lambda: journal.append_move(2.0, "4 a2-a3"),
        lambda: journal.append_takeback(3.0, "4 a2-a3"),
        lambda: journal.append_amend(4.0, "BB a5-a4", "BB b5-b4"),
        lambda: journal.append_result(5.0, "1/2-1/2", "agreed", None),
    ]
    for n, write in enumerate(writes, 1):
        write()
        assert fsync.call_count == header_syncs + n  # one sync per line
        assert len(journal.path.read_text().splitlines()) == n + 1  # on disk before close
        assert fsync.call_args.args[0] == journal._file.fileno()
    journal.close()


# --- reading and rebuilding ---------------------------------------------------------------------
def test_resume_rebuilds_the_same_big_balls_position(tmp_path):
    journal, play = new_journal(tmp_path, BigBalls(**SHUFFLED))
    play.moves(["4 a3-b3", "BB a5-a4", "BB b5-b4", "2 e1-d1"])
    journal.append_roll(play.tick(), "black", 2)  # Black rolled 2, then the power went
    journal.close()
    state = rebuild(read_journal(journal.path))
    assert state.game.diagram() == play.game.diagram()
    assert [str(m) for m in state.game.move_stack] == [str(m) for m in play.game.move_stack]
    assert state.pending_roll == 2 and not state.finished


def test_resume_rebuilds_the_same_off_board_position(tmp_path):
    journal, play = new_journal(tmp_path, OffBoard())
    play.moves(SCORING)
    journal.close()
    state = rebuild(read_journal(journal.path))
    assert state.game.diagram() == play.game.diagram() and state.game.score("red") == 3
    assert state.pending_roll is None and not state.finished


def test_takebacks_and_amends_replay(tmp_path):
    journal, play = new_journal(tmp_path, OffBoard())
    play.moves(["B2-B3x1", "D6-D5x1"])
    play.takeback()  # Yellow's push
    play.takeback()  # and Red's
    play.move("D4-E5")
    play.amend("C3-D4")  # the mover went on: another move from the same position
    play.move("D7-D8")
    journal.close()
    state = rebuild(read_journal(journal.path))
    assert [str(m) for m in state.game.move_stack] == ["C3-D4", "D7-D8"]
    assert state.game.diagram() == play.game.diagram()


def test_a_takeback_keeps_the_roll_of_the_move(tmp_path):
    journal, play = new_journal(tmp_path, BigBalls(**SHUFFLED))
    play.move("4 a3-b3")
    journal.append_roll(play.tick(), "white", 5)
    play.takeback()
    journal.close()
    state = rebuild(read_journal(journal.path))
    # Black moves again with the 4 (no free re-roll); White's 5 is the referee's to show again.
    assert state.pending_roll == 4 and state.game.move_stack == [] and state.game.turn == "black"


def test_a_number_kept_over_a_takeback_may_be_dropped_for_a_big_ball_move(tmp_path):
    """R19: a number shown again for a turn a takeback undid is written as free; the big-ball move
    made instead of a stone move replays, while a bound number still refuses one."""
    journal, play = new_journal(tmp_path, BigBalls(**SHUFFLED))
    journal.append_roll(play.tick(), "black", 4, free=True)
    play.move("BB a5-a4")
    journal.close()
    assert [str(m) for m in rebuild(read_journal(journal.path)).game.move_stack] == ["BB a5-a4"]
    journal, play = new_journal(tmp_path / "bound", BigBalls(**SHUFFLED))
    journal.append_roll(play.tick(), "black", 4)
    play.move("BB a5-a4")
    journal.close()
    contents = read_journal(journal.path)  # the reading ends at the move that does not replay
    assert "a stone move for 4 is due" in str(contents.damage)
    assert rebuild(contents).game.move_stack == []


def test_an_amend_of_a_stone_move_replays(tmp_path):
    journal, play = new_journal(tmp_path, BigBalls(**SHUFFLED))
    play.move("4 a3-b3")
    play.amend("4 a3-a4")
    journal.close()
    assert [str(m) for m in rebuild(read_journal(journal.path)).game.move_stack] == ["4 a3-a4"]


@pytest.mark.parametrize("cut", [2, 5, 12])
def test_a_power_cut_mid_line_keeps_everything_before_it(tmp_path, cut):
    journal, play = new_journal(tmp_path, BigBalls(**CLIMBER))
    play.moves(TO_A7[:3])
    journal.close()
    data = journal.path.read_bytes()
    last = data.rstrip(b"\n").rsplit(b"\n", 1)[1]
    assert cut < len(last)
    with open(journal.path, "r+b") as file:  # the power went while the last line was being written
        file.truncate(len(data) - cut)
    contents = read_journal(journal.path)
    line = len(data.splitlines())
    assert contents.warning is not None and f"line {line} was cut off" in contents.warning
    assert len(contents.entries) == line - 2  # the header and the torn move are not entries
    state = rebuild(contents)
    assert [str(m) for m in state.game.move_stack] == TO_A7[:2]
    assert state.pending_roll == 3  # the roll before the torn move still stands


def test_a_lost_newline_alone_loses_nothing(tmp_path):
    journal, play = new_journal(tmp_path, BigBalls(**CLIMBER))
    play.moves(TO_A7[:3])
    journal.close()
    with open(journal.path, "r+b") as file:
        file.truncate(journal.path.stat().st_size - 1)
    contents = read_journal(journal.path)
    assert contents.warning is None
    assert [str(m) for m in rebuild(contents).game.move_stack] == TO_A7[:3]


def test_resume_after_a_power_cut_appends_and_rewrites_nothing(tmp_path):
    journal, play = new_journal(tmp_path, BigBalls(**CLIMBER))
    play.moves(TO_A7[:3])
    journal.close()
    with open(journal.path, "r+b") as file:
        file.truncate(journal.path.stat().st_size - 7)
    before = journal.path.read_bytes()
    play.game.pop()  # the torn move never reached the journal

    resumed = Journal.resume(journal.path, now=datetime(2024, 5, 1, 13, 0, 0))
    state = rebuild(read_journal(resumed.path))
    assert state.game.diagram() == play.game.diagram() and state.pending_roll == 3
    play.journal = resumed
    resumed.append_move(0.5, "3 a5xa6")  # the clock starts again after a resume
    play.game.play("3 a5xa6")
    play.moves(TO_A7[3:])
    play.result()
    resumed.close()

    after = journal.path.read_bytes()
    assert after.startswith(before)  # append-only
    contents = read_journal(journal.path)
    assert "cut off" in contents.warning
    assert {"type": "resume", "resumed": "2024-05-01T13:00:00"} in contents.entries
    state = rebuild(contents)
    assert state.finished and [str(m) for m in state.game.move_stack] == TO_A7
    assert unfinished_games(journal.path.parent) == []


def test_resume_without_a_power_cut_just_goes_on(tmp_path):
    journal, play = new_journal(tmp_path, OffBoard())
    play.moves(SCORING[:1])
    journal.close()
    before = journal.path.read_bytes()
    with Journal.resume(journal.path) as resumed:
        resumed.append_move(0.5, "D6-D5x1")
    assert journal.path.read_bytes().startswith(before)
    contents = read_journal(journal.path)
    assert contents.warning is None and [e["type"] for e in contents.entries] == ["move", "resume", "move"]
    assert len(rebuild(contents).game.move_stack) == 2


def test_a_finished_game_cannot_be_resumed(tmp_path):
    journal, play = new_journal(tmp_path, BigBalls(**CLIMBER))
    play.moves(TO_A7)
    play.result()
    journal.close()
    with pytest.raises(JournalError, match="the game is over"):
        Journal.resume(journal.path)


def header_line(game=None):
    return json.dumps({"type": "header", "version": 1, **game_header(game or BigBalls(**SHUFFLED)),
                       "settings": {}, "started": "2024-05-01T12:30:00"})


def journal_file(tmp_path, *lines, end="\n"):
    path = tmp_path / "20240501-123000-bigballs.jsonl"
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + end)
    return path


ROLL = {"type": "roll", "t": 1.0, "player": "black", "value": 4}
MOVE = {"type": "move", "t": 2.0, "move": "4 a3-b3"}


@pytest.mark.parametrize(
    "entries, line, message",
    [
        (['{"type": "move", "t": 2.0, "mo', MOVE], 2, "damaged line"),  # a torn line not at the end
        ([ROLL, "not json at all", MOVE], 3, "damaged line"),
        ([ROLL, "[1, 2]", MOVE], 3, "damaged line"),
        ([ROLL, "", MOVE], 3, "damaged line"),
        ([{"type": "castle", "t": 1.0}], 2, "unknown entry type 'castle'"),
        ([{"t": 1.0, "move": "4 a3-b3"}], 2, "unknown entry type None"),
        ([{"type": "header", "version": 1, "game": "bigballs"}], 2, "unknown entry type 'header'"),
        ([{"type": "move", "t": 2.0}], 2, "missing 'move'"),
        ([{**MOVE, "by": "black"}], 2, "unknown key 'by'"),
        ([{**MOVE, "t": "2.0"}], 2, "t '2.0' has the wrong type"),
        ([{**MOVE, "t": True}], 2, "has the wrong type"),
        (['{"type": "move", "t": NaN, "move": "4 a3-b3"}'], 2, "finite number"),
        ([{**ROLL, "value": "4"}], 2, "value '4' has the wrong type"),
        ([ROLL, {**MOVE, "move": "4 a3-a4"}, {**MOVE, "move": "BB b5-b4"}, {**MOVE, "move": "9 a1-b1"}],
         5, "a die shows 1-6"),
        ([ROLL, {**MOVE, "move": "4 a3-c3"}], 3, "is not such a step"),
        ([ROLL, {**MOVE, "move": "4 a3xb3"}], 3, "b3 is empty"),
        ([{**ROLL, "player": "white"}], 2, "it is black's turn"),
        ([{**ROLL, "value": 7}], 2, "a die shows 1-6"),
        ([ROLL, {**MOVE, "move": "BB a5-a4"}], 3, "the die showed 4"),
        ([ROLL, {**MOVE, "move": "1 c1-d1"}], 3, "the die showed 4"),
        ([{"type": "takeback", "t": 1.0, "move": "4 a3-b3"}], 2, "no move was made"),
        ([ROLL, MOVE, {"type": "takeback", "t": 3.0, "move": "BB a5-a4"}], 4, "the last move was 4 a3-b3"),
        ([ROLL, MOVE, {"type": "amend", "t": 3.0, "old": "4 a3-a4", "new": "4 a3-b3"}], 4, "the last move was"),
        ([ROLL, MOVE, {"type": "amend", "t": 3.0, "old": "4 a3-b3", "new": "4 a3-d3"}], 4, "not such a step"),
        ([{"type": "result", "t": 1.0, "result": "1-0", "reason": "a7", "winner": "black"}], 2, "not over"),
        ([{"type": "result", "t": 1.0, "result": "1-0", "reason": "resign", "winner": "white"}], 2,
         "the position gives 0-1 resign"),
        ([{"type": "result", "t": 1.0, "result": "1-0", "reason": "resign", "winner": None}], 2, "needs the winner"),
        ([{"type": "result", "t": 1.0, "result": "1/2-1/2", "reason": "agreed", "winner": None}, ROLL], 3,
         "a roll entry after the result"),
    ],
)
def test_a_bad_entry_is_named_with_its_line(tmp_path, entries, line, message):
    """The damage ends the reading: named with its line, every entry before it kept."""
    path = journal_file(tmp_path, header_line(), *entries)
    contents = read_journal(path)
    damage = contents.damage
    assert str(damage).startswith(f"{path}:{line}: ") and message in str(damage)
    assert damage.line == line and contents.warning.startswith(f"{path}:{line}: ")
    assert contents.line_numbers == list(range(2, line))
    rebuild(contents)  # what was kept replays


@pytest.mark.parametrize(
    "header, message",
    [
        ('{"type": "header", "version": 1, "game": "bigb', "header line is damaged"),
        (json.dumps({"type": "move", "t": 1.0, "move": "BB a5-a4"}), "the first line must be the header"),
        (json.dumps({"type": "header", "version": 2, "game": "bigballs"}), "journal version 2"),
        (json.dumps({"type": "header", "version": 1, "game": "chess"}), "unknown game 'chess'"),
        (json.dumps({"type": "header", "version": 1, "game": "bigballs", "colour": 1}), "unknown header key"),
        (json.dumps({"type": "header", "version": 1, "game": "bigballs", "settings": 3}), '"settings" must be'),
        (json.dumps({"type": "header", "version": 1, "game": "bigballs", "setup": {"black": {"a1": 9}}}),
         "number 9 is not 1-6"),
    ],
)
def test_a_bad_header_is_named(tmp_path, header, message):
    path = journal_file(tmp_path, header, json.dumps(MOVE))
    with pytest.raises(JournalError, match=re.escape(f"{path}:1: ") + ".*" + re.escape(message)):
        read_journal(path)


def test_an_empty_or_missing_journal_is_an_error(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    with pytest.raises(JournalError, match="empty"):
        read_journal(empty)
    with pytest.raises(JournalError, match="cannot read"):
        read_journal(tmp_path / "missing.jsonl")


def test_only_a_resume_line_vouches_for_a_torn_line_in_the_middle(tmp_path):
    torn = '{"type": "move", "t": 2.0, "mo'
    resume = {"type": "resume", "resumed": "2024-05-01T13:00:00"}
    ok = journal_file(tmp_path, header_line(), ROLL, torn, resume, MOVE)
    contents = read_journal(ok)
    assert "line 3 was cut off" in contents.warning and contents.line_numbers == [2, 4, 5]
    assert [str(m) for m in rebuild(contents).game.move_stack] == ["4 a3-b3"]


def test_rebuild_names_lines_past_a_torn_one(tmp_path):
    contents = JournalContents(json.loads(header_line()), [ROLL, {**MOVE, "move": "4 a3-c3"}],
                               path=Path("game.jsonl"), line_numbers=[2, 4])
    with pytest.raises(JournalError, match=r"^game.jsonl:4: "):
        rebuild(contents)


def test_results_by_resignation_and_agreement_replay(tmp_path):
    for reason, winner, result in [("resign", "white", "0-1"), ("agreed", None, "1/2-1/2")]:
        entry = {"type": "result", "t": 3.0, "result": result, "reason": reason, "winner": winner}
        state = rebuild(read_journal(journal_file(tmp_path, header_line(), ROLL, MOVE, entry)))
        assert state.finished and state.game.result() == result
        assert state.game.outcome().termination.value == reason


def test_off_board_has_no_die(tmp_path):
    path = journal_file(tmp_path, header_line(OffBoard()), {**ROLL, "player": "red"})
    contents = read_journal(path)
    assert contents.entries == [] and str(contents.damage).endswith(":2: offboard has no die roll")


# --- listing and exporting ----------------------------------------------------------------------
def test_unfinished_games_are_listed_newest_first(tmp_path):
    games = tmp_path / "games"
    old, _ = new_journal(tmp_path, BigBalls(), now=datetime(2024, 1, 1, 9, 0, 0))
    done, play = new_journal(tmp_path, BigBalls(**CLIMBER), now=datetime(2024, 2, 1, 9, 0, 0))
    play.moves(TO_A7)
    play.result()
    new, _ = new_journal(tmp_path, OffBoard(), now=datetime(2024, 3, 1, 9, 0, 0))
    for journal in (old, done, new):
        journal.close()
    new.trace_path.write_text('{"game": "offboard"}\n')  # traces are not journals
    assert unfinished_games(games) == [new.path, old.path]
    assert unfinished_games(tmp_path / "nowhere") == []


def test_export_of_a_big_balls_game_played_to_a7(tmp_path):
    journal, play = new_journal(tmp_path, BigBalls(**CLIMBER))
    play.moves(TO_A7)
    play.result()
    journal.close()
    assert export_lines(journal.path) == [
        "game bigballs", "black a1=1 a4=3", "white g1=2", "first black", *TO_A7, "1-0 a7",
    ]


def test_export_of_an_off_board_game_won_on_points_needs_no_board_file(tmp_path):
    board = club_board(tmp_path, ["B3", "B2", "A3", "A4"], ["B1", "A5", "I9"])
    journal, play = new_journal(tmp_path, OffBoard(load_layout(board)))
    play.moves(["B3-B2x1", "I9-I8", "A3-A4x1"])
    play.result()
    journal.close()
    board.unlink()  # the journal carries the board
    assert export_lines(journal.path) == [
        "game offboard", f"board {board}", "B3-B2x1 S12+3", "I9-I8", "A3-A4x1 S3+3", "1-0 points 6-0",
    ]


def test_export_of_an_off_board_resignation_keeps_the_score(tmp_path):
    journal, play = new_journal(tmp_path, OffBoard())
    play.moves(SCORING)
    play.game.resign("yellow")
    play.result()
    journal.close()
    assert export_lines(journal.path) == ["game offboard", "board default", *SCORING, "1-0 resign 3-0"]


def test_export_of_a_game_in_progress_has_no_result(tmp_path):
    journal, play = new_journal(tmp_path, BigBalls(**SHUFFLED))
    play.moves(["4 a3-b3"])
    journal.close()
    assert export_lines(journal.path)[-1] == "4 a3-b3"


# --- damage in the middle: the game up to it goes on in a new journal -------------------------
def damaged_in_the_middle(tmp_path):
    """An Off Board journal of two moves, a line that is no JSON, then a third move."""
    journal, play = new_journal(tmp_path, OffBoard())
    play.moves(SCORING[:2])
    journal.close()
    with open(journal.path, "ab") as file:
        file.write(b"no JSON here\n" + json.dumps({"type": "move", "t": 9.0, "move": SCORING[2]}).encode() + b"\n")
    return journal.path


def test_a_damaged_journal_goes_on_in_a_new_one_and_is_never_written_to(tmp_path):
    path = damaged_in_the_middle(tmp_path)
    before = path.read_bytes()
    contents = read_journal(path)
    assert contents.damage.line == 4 and contents.line_numbers == [2, 3]
    assert contents.warning.startswith(f"{path}:4: damaged line")

    new = go_on_in_new_journal(path, now=datetime(2024, 5, 2, 9, 0, 0))
    assert new.parent == path.parent and new.name == "20240502-090000-offboard.jsonl"
    old_lines, new_lines = before.split(b"\n"), new.read_bytes().split(b"\n")
    assert new_lines[1:3] == old_lines[1:3] and new_lines[3:] == [b""]  # the entries, byte for byte
    assert json.loads(new_lines[0]) == {**json.loads(old_lines[0]),
                                        "recovered_from": {"journal": path.name, "line": 4}}
    state = rebuild(read_journal(new))
    assert [str(m) for m in state.game.move_stack] == SCORING[:2] and not state.finished
    assert path.read_bytes() == before

    assert unfinished_games(path.parent) == [new]  # the damaged one's game is the new one's now
    with pytest.raises(JournalError, match=f"already goes on in {re.escape(str(new))}"):
        go_on_in_new_journal(path)
    with pytest.raises(JournalError, match=f":4: .*goes on in {re.escape(str(new))}"):
        Journal.resume(path)
    with pytest.raises(JournalError, match="not damaged"):
        go_on_in_new_journal(new)
    assert path.read_bytes() == before


def test_a_damaged_journal_says_how_to_go_on_when_resumed_as_it_is(tmp_path):
    path = damaged_in_the_middle(tmp_path)
    with pytest.raises(JournalError, match=rf":4: .*reedboard play offboard --resume {re.escape(str(path))}"):
        Journal.resume(path)


def test_a_torn_line_a_resume_vouches_for_is_still_named_before_a_damage(tmp_path):
    torn = '{"type": "move", "t": 2.0, "mo'
    resume = {"type": "resume", "resumed": "2024-05-01T13:00:00"}
    path = journal_file(tmp_path, header_line(), ROLL, torn, resume, MOVE, "garbage", ROLL)
    contents = read_journal(path)
    assert contents.damage.line == 6 and contents.line_numbers == [2, 4, 5]
    assert f"{path}:6: " in contents.warning and "line 3 was cut off" in contents.warning
    assert "\n" not in contents.warning


def test_a_header_names_the_players_and_the_computer_and_a_hint_is_kept(tmp_path):
    from reedboard.controller.persist.journal_replay import rebuild
    from reedboard.controller.persist.journal_reader import read_journal
    from reedboard.controller.persist.journal import Journal
    heard = []
    game = BigBalls()
    journal = Journal.create(tmp_path, game, {}, datetime(2026, 11, 30, 18, 0).astimezone(),
                             players={"black": "Ann"}, computer={"plays": "white", "level": 3, "version": "1"},
                             written=lambda path, number, entry: heard.append((number, entry["type"])))
    journal.append_hint(1.0, "black", "ROLL")
    journal.close()
    contents = read_journal(journal.path)
    assert contents.header["players"] == {"black": "Ann"}
    assert contents.header["computer"]["level"] == 3
    assert [e["type"] for e in contents.entries] == ["hint"]
    assert not rebuild(contents).game.move_stack
    assert heard == [(1, "header"), (2, "hint")]
    resumed = Journal.resume(journal.path, written=lambda path, number, entry: heard.append((number, entry["type"])))
    resumed.close()
    assert heard[-1] == (3, "resume")


@pytest.mark.parametrize("extras, words", [
    ({"players": {"green": "Ann"}}, "no colour"),
    ({"players": {"black": ""}}, "printable"),
    ({"players": {"black": "x" * 41}}, "printable"),
    ({"computer": {"plays": "white", "level": top_level() + 1, "version": "1"}}, f"level is 1 to {top_level()}"),
    ({"computer": {"plays": "blue", "level": 2, "version": "1"}}, "it plays"),
    ({"computer": {"plays": "white"}}, '"computer" must be'),
])
def test_bad_names_or_computer_in_a_header_are_one_line(tmp_path, extras, words):
    from reedboard.controller.persist.journal_format import JournalError
    from reedboard.controller.persist.journal_reader import read_journal
    from reedboard.controller.persist.journal_format import game_header
    header = {"type": "header", "version": 1, **game_header(BigBalls()), "settings": {}, "started": "x", **extras}
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(header) + "\n")
    with pytest.raises(JournalError, match=words) as caught:
        read_journal(path)
    assert "\n" not in str(caught.value)


def test_an_entry_copied_from_another_journal_is_checked_before_it_is_written(tmp_path):
    journal = Journal.create(tmp_path, BigBalls(), {}, datetime(2026, 11, 30, 18, 0).astimezone())
    journal.append_entry({"type": "roll", "t": 1.0, "player": "black", "value": 4})
    with pytest.raises(JournalError, match="unknown entry type"):
        journal.append_entry({"type": "teleport", "t": 2.0})
    with pytest.raises(JournalError, match="missing"):
        journal.append_entry({"type": "move", "t": 2.0})
    journal.close()
    assert [e["type"] for e in read_journal(journal.path).entries] == ["roll"]
