"""What a new user's mistakes get from `reedboard`: one line on stderr that names the problem and
what to do, exit status 2, and never a traceback. Also the answers of `play` to the things around
a game: where others can reach it, where it was saved, and no unplayed game left to resume."""

import asyncio
import random
import re
import socket
from datetime import datetime
from importlib import resources
from pathlib import Path

import pytest

from reedboard.controller.commands.cli import main
from reedboard.controller.games import BigBalls, OffBoard, SetupError
from reedboard.controller.persist.game_files import trace_path
from reedboard.controller.persist.games_folder import unfinished_games
from reedboard.controller.persist.journal import Journal
from reedboard.controller.core.reconcile import Settings

from command_line import run_reedboard

pytestmark = pytest.mark.system

DEFINITION = resources.files("reedboard.controller.games").joinpath("data/offboard.toml")
WIRING = Path(__file__).resolve().parent.parent / "hardware" / "boards" / "offboard.toml"
FAST = Settings(settle=0.15, grace=0.3)


def run(capsys, *argv):
    status = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return status, out, err


def refused(status: int, err: str) -> str:
    """The one line of a refusal (asserting that it is one, with status 2)."""
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith("reedboard: "), err
    assert "Traceback" not in err
    return lines[0]


def refusal(capsys, *argv) -> str:
    status, _, err = run(capsys, *argv)
    return refused(status, err)


def unwritable(tmp_path) -> Path:
    """A directory that cannot be made, even by root: its parent is a regular file."""
    blocker = tmp_path / "afile"
    blocker.write_text("not a directory\n")
    return blocker


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# --- 1. files that cannot be written -------------------------------------------------------------
def test_drawings_into_a_place_that_cannot_be_written(capsys, tmp_path):
    blocker = unwritable(tmp_path)
    line = refusal(capsys, "hardware", "draw", "--out", blocker / "drawings")
    assert str(blocker) in line and "not a directory" in line


def test_drawings_into_an_existing_file(capsys, tmp_path):
    blocker = unwritable(tmp_path)
    line = refusal(capsys, "hardware", "draw", "--out", blocker)
    assert str(blocker) in line and "directory" in line
    assert blocker.read_text() == "not a directory\n"


def test_a_selftest_report_that_cannot_be_written_is_refused_before_the_test(capsys, tmp_path):
    report = unwritable(tmp_path) / "report.txt"
    status, out, err = run(capsys, "selftest", "--hal", "sim", "--report", report, "--timeout", "0.5")
    line = refused(status, err)
    assert str(report) in line and "not a directory" in line
    assert out == ""  # refused before a single magnet was asked for


def test_a_calibration_that_could_not_be_saved_is_refused_before_it_starts(capsys, tmp_path):
    board = unwritable(tmp_path) / "learned.toml"
    status, out, err = run(capsys, "calibrate", "--hal", "sim", "--out", board)
    line = refused(status, err)
    assert str(board) in line and "not a directory" in line
    assert out == ""


def test_a_report_given_as_a_directory_is_refused(capsys, tmp_path):
    line = refusal(capsys, "selftest", "--hal", "sim", "--report", tmp_path)
    assert str(tmp_path) in line and "is a directory" in line


# --- 2. resuming a finished game -----------------------------------------------------------------
def finished_journal(games_dir) -> Path:
    """Black's stone 3 climbs to a7: 1-0."""
    game = BigBalls(black={"a4": 3, "a1": 1}, white={"g1": 2})
    journal = Journal.create(games_dir, game, {}, datetime(2026, 1, 1, 12, 0, 0))
    for t, move in enumerate(["3 a4xa5", "2 g1-f2", "3 a5xa6", "2 f2-e3", "3 a6xa7"]):
        journal.append_roll(t, game.turn, int(move[0]))
        journal.append_move(t + 0.5, move)
        game.play(move)
    outcome = game.outcome()
    journal.append_result(9.0, outcome.result(game.players), outcome.termination.value, outcome.winner)
    journal.close()
    return journal.path


def test_resuming_a_finished_game_says_it_is_finished(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr("reedboard.controller.web.app.serve", serving(stop))
    path = finished_journal(tmp_path)
    status, out, err = run(capsys, "play", "bigballs", "--hal", "sim", "--resume", path,
                           "--games-dir", tmp_path, "--listen", f"127.0.0.1:{free_port()}")
    line = refused(status, err)
    assert str(path) in line and "finished" in line and "black won" in line and "1-0 a7" in line
    assert "web view" not in out  # no server was started


def test_run_as_a_module_the_errors_of_other_modules_are_one_line_too(tmp_path):
    # `python -m reedboard.controller.commands.cli` runs the module as __main__; the play command's errors must
    # still be the ones main() catches.
    result = run_reedboard("play", "bigballs", "--resume", "--games-dir", tmp_path, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip() == f"reedboard: no unfinished Big Balls game in {tmp_path} (start a new one without --resume)"


# --- 3. the wrong kind of file -------------------------------------------------------------------
def test_replaying_a_journal_points_to_export_and_to_the_trace(capsys, tmp_path):
    path = finished_journal(tmp_path)
    line = refusal(capsys, "replay", path)
    assert "journal" in line and f"reedboard export {path}" in line and "not a trace" in line
    trace_path(path).write_text('{"game": "bigballs"}\n')
    line = refusal(capsys, "replay", path)
    assert str(trace_path(path)) in line


def test_perft_with_a_wiring_file_asks_for_an_off_board_definition(capsys):
    line = refusal(capsys, "perft", "offboard", "1", "--board", WIRING)
    assert "wiring file" in line and "Off Board definition" in line and "controller/games/data/offboard.toml" in line


def test_doctor_and_play_with_an_off_board_definition_ask_for_a_wiring_file(capsys, monkeypatch, tmp_path):
    monkeypatch.setattr("reedboard.controller.web.app.serve", serving(stop))
    line = refusal(capsys, "doctor", "--hal", "sim", "--board", DEFINITION)
    assert "Off Board definition" in line and "wiring file" in line and "hardware/boards/offboard.toml" in line
    for backend in ("gpio", "sim"):
        status, out, err = run(capsys, "play", "offboard", "--hal", backend, "--board", DEFINITION,
                               "--games-dir", tmp_path, "--listen", f"127.0.0.1:{free_port()}")
        assert "Off Board definition" in refused(status, err) and "web view" not in out


# --- 4. options wherever they stand ---------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ["show", "bigballs", "--first", "white", "1 e1xf1"],
    ["show", "bigballs", "--first", "white", "1", "e1xf1"],
    ["show", "bigballs", "1 e1xf1", "--first", "white"],
])
def test_options_after_the_game_name_are_read(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert status == 0 and err == "" and "black to move" in out and "W1" in out.splitlines()[6]


def test_options_between_moves_are_read(capsys):
    status, out, _ = run(capsys, "show", "bigballs", "1 a1xb1", "--first", "black", "2", "f1xe2")
    assert status == 0 and "black to move" in out
    status, out, _ = run(capsys, "perft", "bigballs", "--divide", "1", "--first", "white")
    assert status == 0 and out.splitlines()[-1] == "24" and "1 e1xf1: 1" in out


# --- 5. an illegal move is one line --------------------------------------------------------------
def test_an_illegal_move_in_show_is_one_line_and_no_diagram(capsys):
    status, out, err = run(capsys, "show", "bigballs", "BB a5-a4", "4 b2-b3")
    line = refused(status, err)
    assert out == "" and "move 2 (4 b2-b3)" in line


# --- 6. set-ups that cannot start a game ---------------------------------------------------------
def test_a_stone_on_a7_in_the_setup_is_refused_by_name(capsys):
    line = refusal(capsys, "show", "bigballs", "--setup", "black=a7:1")
    assert "a7" in line and "big ball" in line and "given twice" not in line


def test_a_stone_on_a7_is_refused_even_where_no_big_ball_starts():
    with pytest.raises(SetupError, match="a7") as refusal:
        BigBalls(black={"a7": 1}, white={"g1": 1}, balls=["c5"])
    assert "won" in str(refusal.value)


def test_a_stone_on_another_big_balls_hollow_says_a_big_ball_starts_there():
    with pytest.raises(SetupError, match="given twice") as refusal:
        BigBalls(black={"a6": 1}, white={"g1": 1})
    assert "big ball" in str(refusal.value)


def test_an_off_board_definition_where_six_points_cannot_be_reached_is_refused(capsys, tmp_path):
    text = DEFINITION.read_text(encoding="utf-8")
    small = tmp_path / "small.toml"
    # One sector of 2 points takes every exit: no one can ever reach 6, the game is drawn at once.
    sector_start = text.index("[[sector]]")
    exits = [line.split("=", 1)[1].strip() for line in text[sector_start:].splitlines() if line.startswith("exits")]
    merged = ", ".join(e.strip("[]") for e in exits)
    small.write_text(text[:sector_start] + f'[[sector]]\nname = "S1"\nvalue = 2\nexits = [{merged}]\n')
    line = refusal(capsys, "perft", "offboard", "1", "--board", small)
    assert str(small) in line and "6 points" in line


# --- 7. where others can reach the game, and where it was saved -----------------------------------
def serving(behaviour):
    """A stand-in for the web server: starts the session, then does `behaviour` with it."""
    async def serve(session, host, port, token, *, games_dir=None):
        await session.start()
        await journal_opened(session)
        await behaviour(session)
    return serve


async def journal_opened(session) -> Path:
    for _ in range(1000):  # a bound, so that a broken session fails instead of hanging
        journal = getattr(session.referee, "journal", None)
        if journal is not None:
            return journal.path
        await asyncio.sleep(0.01)
    raise AssertionError("the set-up never completed")


async def interrupt(session):
    raise KeyboardInterrupt  # Ctrl-C


async def stop(session):
    await session.stop()


def play(capsys, monkeypatch, tmp_path, behaviour, listen="127.0.0.1"):
    monkeypatch.setattr("reedboard.controller.web.app.serve", serving(behaviour))
    status = main(["play", "offboard", "--hal", "sim", "--games-dir", str(tmp_path),
                   "--listen", f"{listen}:{free_port()}"])
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


def test_listening_on_every_address_prints_addresses_others_can_use(capsys, monkeypatch, tmp_path):
    from reedboard.controller.web import join

    monkeypatch.setattr(join, "interface_addresses", lambda: ["127.0.0.1", "192.0.2.7", "198.51.100.8"])
    monkeypatch.setattr(join.socket, "gethostname", lambda: "boardpi")
    out = play(capsys, monkeypatch, tmp_path, stop, listen="0.0.0.0")
    shown = [line for line in out.splitlines() if line.startswith("web view: ")]
    assert len(shown) == 3 and "0.0.0.0" not in out
    for line, address in zip(shown, ["boardpi.local", "192.0.2.7", "198.51.100.8"]):
        assert re.match(rf"web view: http://{re.escape(address)}:\d+/\?token=\S+", line), line


def test_ctrl_c_says_where_the_game_is_saved_and_how_to_go_on(capsys, monkeypatch, tmp_path):
    out = play(capsys, monkeypatch, tmp_path, interrupt)
    (journal,) = tmp_path.glob("*-offboard.jsonl")
    assert f"the game is saved in {journal}" in out
    assert f"reedboard play offboard --resume {journal}" in out


def test_ctrl_c_after_the_game_is_over_offers_no_resume(capsys, monkeypatch, tmp_path):
    async def resign_then_interrupt(session):
        await until(lambda: session.referee.phase.value in ("play", "rolled"))
        session.resign("yellow")
        raise KeyboardInterrupt

    out = play(capsys, monkeypatch, tmp_path, resign_then_interrupt)
    assert "--resume" not in out and "the game is saved" not in out


# --- 8. a game given up before its first move leaves nothing to resume ----------------------------
async def until(condition, what="the condition"):
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never came: {what}")


def session_for(games_dir):
    from reedboard.controller.session.play_session import PlaySession

    # A given arrangement: the set-up is done as soon as the simulated board reports it.
    return PlaySession(BigBalls(), games_dir=games_dir, settings=FAST, rng=random.Random(7))


def files(games_dir) -> list[str]:
    return sorted(p.name for p in Path(games_dir).iterdir())


def test_a_new_game_before_the_first_move_removes_the_unplayed_journal(tmp_path):
    async def scenario():
        session = session_for(tmp_path)
        await session.start()
        first = await journal_opened(session)
        assert files(tmp_path) == sorted([first.name, trace_path(first).name])
        session.press("die")  # a roll alone is no move
        await until(lambda: session.referee.roll is not None, "the roll")
        await session.new_game("offboard")
        second = await journal_opened(session)
        assert second.name.endswith("-offboard.jsonl")
        assert files(tmp_path) == sorted([second.name, trace_path(second).name])  # the first is gone
        await session.stop()

    asyncio.run(scenario())
    assert files(tmp_path) == []
    assert unfinished_games(tmp_path, include_unplayed=False) == []


def test_a_game_with_a_move_is_kept_and_offered(tmp_path):
    async def scenario():
        session = session_for(tmp_path)
        await session.start()
        path = await journal_opened(session)
        await until(lambda: session.referee.phase.value == "play", "the game to start")
        session.click("a5")  # Black rolls a big ball down: BB a5-a4
        await asyncio.sleep(0.05)  # longer than the debounce time: a hand, not a bounce
        session.click("a4")
        await until(lambda: session.referee.game.move_stack, "the move")
        await session.stop()
        return path

    path = asyncio.run(scenario())
    assert path.exists() and trace_path(path).exists()
    assert unfinished_games(tmp_path, include_unplayed=False) == [path]


def test_play_offers_no_unplayed_journal_for_resume(capsys, monkeypatch, tmp_path):
    games = tmp_path / "games"
    unplayed = Journal.create(games, OffBoard(), {}, datetime(2026, 1, 1, 9, 0, 0))
    unplayed.close()
    assert unfinished_games(games, include_unplayed=False) == []
    assert unfinished_games(games) == [unplayed.path]  # still there for whoever lists everything
    out = play(capsys, monkeypatch, games, stop)
    assert "unfinished" not in out and "--resume" not in out


# --- the edges of the command line ---------------------------------------------------------------
def test_a_file_that_is_not_there_is_no_such_file_not_no_such_game(capsys, tmp_path):
    missing = tmp_path / "nonexistent.jsonl"
    status, _, err = run(capsys, "review", missing, "--dir", tmp_path)
    assert status == 2 and err.strip() == f"reedboard review: no such file: {missing}"
    status, _, err = run(capsys, "review", "./away/game.trace.jsonl", "--dir", tmp_path)
    assert status == 2 and err.strip() == "reedboard review: no such file: ./away/game.trace.jsonl"
    status, _, err = run(capsys, "review", tmp_path, "--dir", tmp_path)
    assert status == 2 and err.strip() == f"reedboard review: {tmp_path} is a directory, not a file"
    status, _, err = run(capsys, "review", "20261101", "--dir", tmp_path)  # an ID: the archive is asked
    assert status == 2 and "no game '20261101'" in err and "no such file" not in err


@pytest.mark.parametrize(("argv", "command"), [
    (["play", "bigballs", "--bogus"], "reedboard play"),
    (["show", "offboard", "C3-D4", "--nope"], "reedboard show"),
    (["games", "list", "--bogus"], "reedboard games list"),
])
def test_an_unknown_option_is_refused_by_the_command_it_was_given_to(capsys, argv, command):
    status, _, err = run(capsys, *argv)
    unknown = next(word for word in argv if word.startswith("--"))
    assert status == 2 and err.strip() == f"{command}: unrecognized arguments: {unknown} (see {command} --help)"


def test_listen_takes_a_port_alone_on_the_host_play_listens_on(tmp_path):
    from reedboard.controller.commands.cli import build_parser
    from reedboard.controller.workshop.config import load

    parser = build_parser()
    args = parser.parse_args(["play", "bigballs", "--listen", "8101"])
    assert load(None).with_flags(args)["play.listen"] == "127.0.0.1:8101"  # play's default host
    config = tmp_path / "config.toml"
    config.write_text('[play]\nlisten = "[::]:8000"\n')
    assert load(str(config)).with_flags(args)["play.listen"] == "[::]:8101"  # the configuration's host
    args = parser.parse_args(["play", "bigballs", "--listen", "0.0.0.0:8102"])
    assert load(str(config)).with_flags(args)["play.listen"] == "0.0.0.0:8102"


@pytest.mark.parametrize("given", ["99999", "0", "host:", ":80", "eighty"])
def test_listen_refuses_what_is_no_address_in_one_line(capsys, given):
    status, _, err = run(capsys, "play", "bigballs", "--listen", given)
    assert status == 2 and err.count("\n") == 1 and err.startswith("reedboard play: argument --listen: ")
    assert "HOST:PORT or a port 1-65535" in err and repr(given) in err


def test_the_command_list_starts_with_what_a_player_needs_and_ends_with_the_maintainers(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    listed = re.findall(r"^    ([a-z-]+)(?:  |$)", out, re.M)
    assert listed[:5] == ["play", "show", "replay", "games", "review"], listed
    assert listed[-2:] == ["perft", "match"], listed
    builders = ["hardware", "firmware", "doctor", "bringup", "selftest", "calibrate", "config", "service"]
    assert [name for name in listed if name in builders] == builders  # the way from the drawings to the boot


def test_the_self_test_says_its_summary_once_after_a_report_with_date_board_backend_and_board_file(tmp_path):
    import io

    from reedboard.controller.workshop.selftest import selftest_command

    board = tmp_path / "good.toml"
    board.write_text(resources.files("reedboard.hardware").joinpath("boards/bigballs.toml").read_text(encoding="utf-8"))
    report, out = tmp_path / "report.txt", io.StringIO()
    assert selftest_command("sim", None, str(board), str(report), 0.4, watch=0.25, out=out) == 0
    printed = out.getvalue().splitlines()
    assert [line for line in printed if "no faults" in line] == ["no faults"]
    head = report.read_text().splitlines()
    assert re.fullmatch(rf"self-test of the good board \({re.escape(str(board))}\), .*\d\d:\d\d", head[0])
    assert head[1] == "backend: sim (the simulated board); firmware: none (the simulated board)"
    assert head[2:] == ["no faults"] and printed[-len(head) - 1:-1] == head
