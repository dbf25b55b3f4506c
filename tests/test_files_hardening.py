"""Settings and files that must not break the referee: one set of rules for the timing settings,
journals and traces that are damaged, files that are not files (a FIFO, a device), files too big
to read, and nesting too deep to parse. Each gets one line naming the file and the place, never
a traceback or a hang; a damaged journal gives back every move before the damage."""

import json
import os
import queue
import resource
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from datetime import datetime
from pathlib import Path

import pytest

from reedboard.controller.workshop.config import ConfigError, load_play
from reedboard.controller.games import OffBoard
from reedboard.controller.persist.journal_format import JournalError, game_header
from reedboard.controller.persist.journal_replay import rebuild
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.persist.games_folder import unfinished_games
from reedboard.controller.persist.journal import Journal
from reedboard.controller.persist.export import export_lines
from reedboard.controller.ground.readfile import JOURNAL_LIMIT, TOML_LIMIT, TRACE_LIMIT
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.persist.trace import TraceError, read_trace

from command_line import run_reedboard, start_reedboard
from polling import end

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parent.parent
MOVES = ["B2-B3x1", "D6-D5x1", "B3-B4x1 S3+3"]  # Off Board, from the default start
LIMIT_SLACK = 1  # a byte over the limit is refused


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def reedboard(*argv, timeout=60, memory=None):
    """Run the command line in a subprocess; memory (bytes) caps its address space."""
    def cap():
        if memory:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    return run_reedboard(*argv, timeout=timeout, cwd=ROOT, preexec_fn=cap)


class Server:
    """`reedboard play` on the simulated board, in a subprocess, read line by line."""

    def __init__(self, games, game="offboard", *args):
        self.port = free_port()
        self.process = start_reedboard("play", game, "--hal", "sim", "--listen", f"127.0.0.1:{self.port}",
                                       "--games-dir", games, *args, stderr=subprocess.STDOUT, cwd=ROOT)
        self.lines: list[str] = []
        self._queue: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self._queue.put(line.rstrip("\n"))
        self._queue.put(None)

    def until(self, prefix, timeout=60.0):
        """The output up to the line starting with prefix (AssertionError if it ends first)."""
        deadline = time.monotonic() + timeout
        while True:
            line = self._queue.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None, "\n".join(self.lines)
            self.lines.append(line)
            if line.startswith(prefix):
                return self.lines

    def get(self, path):
        for _ in range(200):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=5) as answer:
                    return json.load(answer)
            except urllib.error.HTTPError:
                raise
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"the server never answered {path}")

    def post(self, path, body):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=5) as answer:
                return answer.status, json.load(answer)
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def wait_for(self, condition, what, timeout=30.0):
        deadline = time.monotonic() + timeout
        while True:
            state = self.get("/api/state")
            if condition(state):
                return state
            assert time.monotonic() < deadline, f"timed out waiting for {what}: {state.get('error')}"
            time.sleep(0.05)

    def stop(self):
        end(self.process, timeout=20)


def header(settings=None, game=None):
    return {"type": "header", "version": 1, **game_header(game or OffBoard()),
            "settings": {} if settings is None else settings, "started": "2024-05-01T12:30:00"}


def write_journal(folder, name, *lines):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return path


def move(t, text):
    return {"type": "move", "t": t, "move": text}


def one_line(text):
    lines = text.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in text, text
    return lines[0]


# --- 1. the timing settings: one set of rules ----------------------------------------------------
@pytest.mark.parametrize("changes, words", [
    ({"settle": 0}, ["settle", "0.05", "10"]),
    ({"settle": 1e-9}, ["settle", "0.05"]),
    ({"debounce": 0}, ["debounce", "0.001", "1"]),
    ({"debounce": 5}, ["debounce", "0.001", "1"]),
    ({"grace": 0}, ["grace", "0.1", "60"]),
    ({"grace": 3600}, ["grace", "60"]),
    ({"settle": float("nan")}, ["settle"]),
    ({"settle": float("inf")}, ["settle"]),
    ({"settle": True}, ["settle"]),
    ({"settle": "0.8"}, ["settle"]),
    ({"settle": 10 ** 400}, ["settle", "too big"]),
    ({"grace": -10 ** 400}, ["grace"]),
    ({"takebacks": "no"}, ["takebacks", "true or false"]),
    ({"takebacks": 0}, ["takebacks", "true or false"]),
])
def test_settings_refuse_what_would_break_the_referee(changes, words):
    with pytest.raises(ValueError) as caught:  # never OverflowError or TypeError
        Settings(**changes)
    assert type(caught.value) is ValueError and all(word in str(caught.value) for word in words), caught.value
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 200


def test_settings_at_their_bounds_are_kept_as_seconds():
    settings = Settings(debounce=0.001, settle=10, grace=60, takebacks=False)
    assert (settings.debounce, settings.settle, settings.grace) == (0.001, 10.0, 60.0)
    assert isinstance(settings.settle, float) and not settings.takebacks
    assert Settings.from_mapping({"settle": 0.5}) == Settings(settle=0.5)
    with pytest.raises(ValueError, match="unknown setting 'colour'"):
        Settings.from_mapping({"colour": 1})
    with pytest.raises(ValueError, match="an object"):
        Settings.from_mapping([0.8])


def test_a_new_game_with_bad_settings_is_refused_and_the_referee_goes_on(tmp_path):
    server = Server(tmp_path / "games")
    try:
        server.until("journal: ")
        server.wait_for(lambda s: s["phase"] == "play", "the game to start")
        for changes in ({"settle": 0}, {"debounce": 0}, {"grace": 0}, {"settle": 10 ** 400}, {"settle": 1e-9}):
            status, answer = server.post("/api/new", {"settings": changes})
            assert status == 400 and next(iter(changes)) in answer["error"], (changes, status, answer)
        status, answer = server.post("/api/new", {"settings": {"settle": 0.3}})
        assert status == 200 and answer["settings"]["settle"] == 0.3
        # the referee of the new game records its trace: it did not stop on its settings
        state = server.wait_for(lambda s: s["phase"] == "play", "the new game")
        assert state["error"] is None
        trace = next((tmp_path / "games").glob("*.trace.jsonl"))
        assert json.loads(trace.read_text().splitlines()[0])["settings"]["settle"] == 0.3
    finally:
        server.stop()


@pytest.mark.parametrize("settings, words", [
    ({"settle": 0}, ["settle", "0.05"]),
    ({"takebacks": "no"}, ["takebacks", "true or false"]),
    ({"grace": 10 ** 400}, ["grace", "too big"]),
    ({"colour": 1}, ["unknown setting 'colour'"]),
])
def test_a_journal_header_with_bad_settings_names_line_one(tmp_path, settings, words):
    path = write_journal(tmp_path, "20240501-123000-offboard.jsonl", header(settings), move(1.0, MOVES[0]))
    with pytest.raises(JournalError) as caught:
        read_journal(path)
    assert caught.value.line == 1 and all(word in str(caught.value) for word in words)


def test_the_configuration_names_the_setting_that_is_wrong(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[play]\nsettle = 0.5\ngrace = 0\n")
    with pytest.raises(ConfigError, match=r"play\.grace: .*0\.1"):
        load_play(path)
    path.write_text("[play]\ndebounce = 1" + "0" * 30 + "\n")
    with pytest.raises(ConfigError, match=r"play\.debounce: "):
        load_play(path)
    path.write_text("[play]\nsettle = nan\n")
    with pytest.raises(ConfigError, match=r"play\.settle: "):
        load_play(path)


@pytest.mark.parametrize("settings", [{"settle": 1e-9}, {"debounce": 2}, {"grace": 1e300}, {"settle": 10 ** 400}])
def test_a_trace_header_with_bad_settings_names_line_one(tmp_path, settings):
    path = tmp_path / "t.trace.jsonl"
    path.write_text(json.dumps({"game": "offboard", "settings": settings}) + "\n")
    with pytest.raises(TraceError, match=r":1: .*from .* to "):
        read_trace(path)


# --- 2. resuming: bad settings, and damaged journals among the unfinished ones ------------------
@pytest.mark.parametrize("settings", [{"settle": 0}, {"colour": 1}, {"takebacks": "no"}])
def test_resume_of_a_journal_with_bad_settings_is_one_line_before_the_server_starts(tmp_path, settings):
    games = tmp_path / "games"
    path = write_journal(games, "20240501-123000-offboard.jsonl", header(settings), move(1.0, MOVES[0]))
    try:
        result = reedboard("play", "offboard", "--hal", "sim", "--listen", f"127.0.0.1:{free_port()}",
                           "--games-dir", games, "--resume", path, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("the server started on a journal with bad settings")
    assert result.returncode == 2 and "web view" not in result.stdout
    assert one_line(result.stderr).startswith(f"reedboard: {path}:1: ")


def test_a_damaged_newest_journal_does_not_hide_the_older_unfinished_game(tmp_path):
    games = tmp_path / "games"
    older = write_journal(games, "20240501-120000-offboard.jsonl", header(), move(1.0, MOVES[0]))
    broken = write_journal(games, "20240502-120000-offboard.jsonl", '{"type": "header", "versi')
    unreadable = games / "20240503-120000-offboard.jsonl"
    os.mkfifo(unreadable)  # not even a file: must not hang the listing

    server = Server(games, "offboard")  # offered, not resumed
    try:
        lines = server.until("web view: ")
    finally:
        server.stop()
    skipped = [line for line in lines if "skipped" in line]
    assert len(skipped) == 1 and broken.name in skipped[0] and unreadable.name in skipped[0]
    assert any(str(older) in line and "--resume" in line for line in lines), lines

    server = Server(games, "offboard", "--resume")  # the newest usable one is resumed
    try:
        lines = server.until("web view: ")
        state = server.wait_for(lambda s: s["record"] == MOVES[:1], "the older game's move")
        assert state["journal"] == older.name
    finally:
        server.stop()
    assert sum("skipped" in line for line in lines) == 1
    assert broken.read_text() == '{"type": "header", "versi\n'
    # listed still (resuming says why), the FIFO without a read that would wait for a writer
    assert unfinished_games(games, include_unplayed=False) == [unreadable, broken, older]


# --- 3. files that are not files, too big, or nested too deep --------------------------------------
def deep_json(depth=100_000):
    return "[" * depth + "]" * depth


def deep_toml(depth=100_000):
    return "a = " + "[" * depth + "]" * depth + "\n"


@pytest.fixture
def troubles(tmp_path):
    """Files of each trouble, by (trouble, content kind)."""
    made = {}
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    made["fifo"] = {"json": fifo, "toml": fifo}
    made["device"] = {"json": Path("/dev/zero"), "toml": Path("/dev/zero")}
    big = {}
    for kind, limit in (("json", max(JOURNAL_LIMIT, TRACE_LIMIT)), ("toml", TOML_LIMIT)):
        path = tmp_path / f"big.{kind}"
        path.touch()
        os.truncate(path, limit + LIMIT_SLACK)  # sparse: no disk used
        big[kind] = path
    made["too big"] = big
    deep = {"json": tmp_path / "deep.jsonl", "toml": tmp_path / "deep.toml"}
    deep["json"].write_text(deep_json() + "\n")
    deep["toml"].write_text(deep_toml())
    made["deep"] = deep
    return made


COMMANDS = {  # the command line, with FILE for the file given, and the kind of file it reads
    "replay": (["replay", "FILE"], "json"),
    "export": (["export", "FILE"], "json"),
    "perft --board": (["perft", "offboard", "1", "--board", "FILE"], "toml"),
    "play --config": (["play", "bigballs", "--hal", "sim", "--listen", "127.0.0.1:PORT", "--config", "FILE"], "toml"),
    "doctor --board": (["doctor", "--hal", "sim", "--board", "FILE"], "toml"),
}
EXPECTED = {"fifo": "not a regular file", "device": "not a regular file", "too big": "MiB",
            "deep": "nested too deeply"}


@pytest.mark.parametrize("trouble", sorted(EXPECTED))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_file_that_cannot_be_read_is_one_line_never_a_hang(tmp_path, troubles, command, trouble):
    argv, kind = COMMANDS[command]
    path = troubles[trouble][kind]
    argv = [str(path) if a == "FILE" else a.replace("PORT", str(free_port())) for a in argv]
    if command == "play --config":
        argv += ["--games-dir", str(tmp_path / "games")]
    try:  # a cap on memory: reading /dev/zero must stop long before it
        result = reedboard(*argv, timeout=60, memory=1 << 30)
    except subprocess.TimeoutExpired:
        pytest.fail(f"reedboard {command} hangs on {trouble}")
    line = one_line(result.stderr)
    assert result.returncode == 2 and str(path) in line and EXPECTED[trouble] in line, line


def test_deep_nesting_in_a_journal_line_names_the_line(tmp_path):
    path = write_journal(tmp_path, "20240501-123000-offboard.jsonl", header(), move(1.0, MOVES[0]),
                         '{"type": "move", "t": 2.0, "move": ' + deep_json() + "}", move(3.0, MOVES[1]))
    contents = read_journal(path)
    assert contents.damage.line == 3 and "nested too deeply" in contents.damage.problem
    path.write_text(deep_json(2000) + "\n")  # the header
    with pytest.raises(JournalError, match=":1: "):
        read_journal(path)
    trace = tmp_path / "t.trace.jsonl"
    trace.write_text(json.dumps({"game": "offboard"}) + "\n" + '{"t": 1.0, "occupied": ' + deep_json() + "}\n")
    with pytest.raises(TraceError, match=r":2: .*nested too deeply"):
        read_trace(trace)


def test_nesting_just_under_the_parser_s_limit_is_still_one_line(tmp_path):
    """Nesting the parser accepts must not break what later shows the value in a message."""
    for depth in (200, 400, 800, 950):
        path = write_journal(tmp_path, "20240501-123000-offboard.jsonl", header(),
                             '{"type": "move", "t": 1.0, "move": ' + deep_json(depth) + "}")
        contents = read_journal(path)
        assert contents.damage.line == 2 and len(str(contents.damage)) < 300
        path.write_text(json.dumps(header())[:-1] + ', "setup": ' + deep_json(depth) + "}\n")
        with pytest.raises(JournalError, match=":1: ") as caught:
            read_journal(path)
        assert len(str(caught.value)) < 300
        trace = tmp_path / "t.trace.jsonl"
        trace.write_text(json.dumps({"game": "offboard"}) + "\n" + '{"t": 1.0, "press": ' + deep_json(depth) + "}\n")
        with pytest.raises(TraceError, match=":2: ") as caught:
            read_trace(trace)
        assert len(str(caught.value)) < 300


# --- 4. a journal damaged in the middle --------------------------------------------------------------
def damaged_journal(games, damage):
    """Two moves, a damaged line 4, then a third move: the record up to the damage is MOVES[:2]."""
    return write_journal(games, "20240501-123000-offboard.jsonl", header(), move(1.0, MOVES[0]),
                         move(2.0, MOVES[1]), damage, move(3.0, MOVES[2]))


@pytest.mark.parametrize("damage, problem", [
    ("this line is no JSON", "damaged line"),
    (move(2.5, "Z9-Z8"), "Z9"),
    ({"type": "castle", "t": 2.5}, "unknown entry type"),
])
def test_export_of_a_journal_damaged_in_the_middle_prints_the_moves_before_it(tmp_path, damage, problem):
    path = damaged_journal(tmp_path, damage)
    result = reedboard("export", path)
    assert result.returncode == 0
    assert result.stdout.splitlines() == ["game offboard", "board default", *MOVES[:2]]
    warning = one_line(result.stderr)
    assert f"{path}:4: " in warning and problem in warning
    assert export_lines(path) == ["game offboard", "board default", *MOVES[:2]]


def test_a_journal_damaged_in_the_middle_goes_on_in_a_new_journal(tmp_path):
    games = tmp_path / "games"
    path = damaged_journal(games, "this line is no JSON")
    original = path.read_bytes()
    server = Server(games, "offboard", "--resume", path)
    try:
        lines = server.until("web view: ")
        state = server.wait_for(lambda s: s["record"] == MOVES[:2], "the recovered position")
        assert state["journal"] != path.name and state["error"] is None
        said = [line for line in lines if f"{path}:4" in line]
        assert len(said) == 1 and state["journal"] in said[0]
        # the past games: the damaged game with its moves up to the damage, and the new one
        listed = {game["name"]: game for game in server.get("/api/games")}
        assert listed[path.name].get("moves") == 2, listed[path.name]
        assert ":4" in listed[path.name]["note"]  # and where reading stopped
        assert listed[state["journal"]]["moves"] == 2 and "note" not in listed[state["journal"]]
    finally:
        server.stop()
    assert path.read_bytes() == original  # never written to
    new = games / state["journal"]
    contents = read_journal(new)
    assert contents.damage is None and [str(m) for m in rebuild(contents).game.move_stack] == MOVES[:2]
    assert contents.header["recovered_from"] == {"journal": path.name, "line": 4}
    # the damaged original is no longer offered: its game goes on in the new journal
    assert path not in unfinished_games(games)
    with pytest.raises(JournalError, match=f"{new.name}"):
        Journal.resume(path)


def test_a_torn_last_line_still_resumes_in_the_same_journal(tmp_path):
    games = tmp_path / "games"
    path = write_journal(games, "20240501-123000-offboard.jsonl", header(), move(1.0, MOVES[0]))
    with open(path, "ab") as file:
        file.write(b'{"type": "move", "t": 2.0, "mo')
    contents = read_journal(path)
    assert contents.damage is None and "cut off" in contents.warning
    with Journal.resume(path, now=datetime(2024, 5, 1, 13, 0, 0)) as journal:
        assert journal.path == path
