"""The `reedboard` command line: perft, show, and mistakes."""

import subprocess
import sys
from pathlib import Path

import pytest

from reedboard.controller.commands.cli import main
from reedboard.controller.commands.show_command import split_moves

from command_line import run_reedboard

pytestmark = pytest.mark.system


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_perft_prints_the_count_on_the_last_line(capsys):
    status, out, _ = run(capsys, "perft", "bigballs", "2")
    assert status == 0 and out.splitlines()[-1] == "580"
    status, out, _ = run(capsys, "perft", "offboard", "1")
    assert status == 0 and out.splitlines()[-1] == "60"


def test_perft_divide_prints_each_first_move(capsys):
    status, out, _ = run(capsys, "perft", "bigballs", "2", "--divide")
    lines = out.splitlines()
    assert status == 0 and len(lines) == 25 and lines[-1] == "580"
    assert "BB a5-a4: 25" in lines  # White's 18 stone moves and 7 big-ball moves
    assert sum(int(line.rsplit(": ", 1)[1]) for line in lines[:-1]) == 580
    status, out, _ = run(capsys, "perft", "offboard", "1", "--divide")
    assert len(out.splitlines()) == 61 and all(line.endswith(": 1") for line in out.splitlines()[:-1])


def test_perft_with_a_setup_and_first_player(capsys):
    setup = "black=a1:3,b1:6,c1:1,a2:5,b2:2,a3:4 white=e1:2,f1:4,g1:6,e2:1,f2:3,e3:5"
    status, out, _ = run(capsys, "perft", "bigballs", "1", "--setup", setup, "--first", "white", "--divide")
    assert status == 0 and out.splitlines()[-1] == "24"
    assert any(line.startswith("2 e1") for line in out.splitlines())  # White moves first


def test_perft_offboard_with_a_board_file(capsys, tmp_path):
    from importlib import resources

    board = tmp_path / "board.toml"
    text = resources.files("reedboard.controller.games").joinpath("data/offboard.toml").read_text()
    board.write_text(text.replace('red = ["B2", ', 'red = ['))  # one red ball fewer
    status, out, _ = run(capsys, "perft", "offboard", "1", "--board", str(board))
    assert status == 0 and int(out.splitlines()[-1]) != 60


def test_show_plays_moves_and_prints_the_position(capsys):
    status, out, _ = run(capsys, "show", "bigballs", "1", "a1xb1", "2", "f1xe2")
    assert status == 0
    assert "black to move" in out and "B1" in out.splitlines()[6]
    status, out, _ = run(capsys, "show", "offboard", "C3-D4", "C6-C5x1")
    assert status == 0 and "red to move" in out and "score: red 0, yellow 0" in out and "S12(3)" in out


def test_show_names_an_illegal_move_with_its_reason(capsys):
    status, out, err = run(capsys, "show", "bigballs", "4 b2-b3")
    assert status == 2 and "move 1 (4 b2-b3) is not played: roll 4 lets black move stone 4" in err
    status, out, err = run(capsys, "show", "offboard", "C3-D4", "E5-E6")
    assert status == 2 and "move 2 (E5-E6)" in err and "no yellow ball on E5" in err


@pytest.mark.parametrize(
    "argv, message",
    [
        ([], "choose a command"),
        (["perft"], "required"),
        (["perft", "chess", "1"], "invalid choice"),
        (["perft", "bigballs", "-1"], "depth must be a whole number"),
        (["perft", "bigballs", "two"], "depth must be a whole number"),
        (["perft", "bigballs", "1", "--board", "x.toml"], "--board is for offboard"),
        (["perft", "offboard", "1", "--first", "white"], "--first is for bigballs; offboard takes --board"),
            (["show", "offboard", "--setup", "black=a1:1", "--first", "white"], "is for bigballs"),
            (["perft", "bigballs", "1", "--first", "green"], "--first is one of black, white"),
        (["perft", "bigballs", "1", "--setup", "black=a1:9"], "not 1-6"),
        (["perft", "offboard", "1", "--board", "/nonexistent/board.toml"], "cannot read the board file"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_a_mistaken_command_line_gets_one_line_and_status_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


def test_split_moves_rejoins_what_the_shell_split():
    assert split_moves(["4", "b2-b3", "BB", "a5-a4"]) == ["4 b2-b3", "BB a5-a4"]
    assert split_moves(["C7-D8x1", "S5+2", "C3-D4", "S5", "full", "+E5"]) == ["C7-D8x1 S5+2", "C3-D4 S5 full", "+E5"]


def test_the_installed_command_lists_its_subcommands():
    result = run_reedboard("--help", installed=True)
    assert result.returncode == 0 and "perft" in result.stdout and "show" in result.stdout


def test_export_prints_a_journaled_games_record(capsys, caplog, tmp_path):
    from datetime import datetime

    from reedboard.controller.games import BigBalls
    from reedboard.controller.persist.journal import Journal

    game = BigBalls()
    journal = Journal.create(tmp_path, game, {}, datetime(2026, 11, 29, 12, 0, 0))
    journal.append_move(1.0, "BB a5-a4")
    journal.append_roll(2.0, "white", 3)
    journal.append_move(3.0, "3 g1xf1")
    journal.close()
    status, out, _ = run(capsys, "export", str(journal.path))
    assert status == 0 and out.splitlines()[-2:] == ["BB a5-a4", "3 g1xf1"]

    lines = journal.path.read_text().splitlines()
    lines[2] = '{"type": "roll", "t": 2.0, "player": "black", "value": 3}'  # not Black's turn
    journal.path.write_text("\n".join(lines) + "\n")
    status, out, err = run(capsys, "export", str(journal.path))  # the record up to the damaged line, and a warning
    assert status == 0 and out.splitlines()[-1] == "BB a5-a4"
    assert f"{journal.path}:3:" in caplog.text and len(caplog.records) == 1
    status, _, err = run(capsys, "export", str(tmp_path / "missing.jsonl"))
    assert status == 2 and "missing.jsonl" in err


def test_hardware_draw_writes_the_drawings_of_both_boards(capsys, tmp_path):
    status, out, _ = run(capsys, "hardware", "draw", "--out", str(tmp_path))
    assert status == 0 and sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [f"{game}-{kind}.svg" for game in ("bigballs", "offboard")
         for kind in ("template", "matrix", "leds", "underside", "carrier")]
        + [f"{game}-template-{paper}.pdf" for game in ("bigballs", "offboard") for paper in ("a4", "letter")])
    assert len(out.splitlines()) == 14
    status, _, err = run(capsys, "hardware", "draw", "--board", str(tmp_path / "none.toml"))
    assert status == 2 and "none.toml: cannot read" in err


@pytest.mark.parametrize("argv, game", [
    (["play", "Abalone"], "abalone"),
    (["show", "BigBalls"], "bigballs"),
    (["perft", "ABALONE", "1"], "abalone"),
    (["fake-board", "OffBoard"], "offboard"),
    (["match", "Abalone", "random", "greedy"], "abalone"),
    (["games", "list", "--game", "OffBoard"], "offboard"),
])
def test_game_names_ignore_case(argv, game):
    from reedboard.controller.commands.cli import build_parser

    args = build_parser().parse_args(argv)
    assert args.game == game


def test_a_game_named_in_capitals_is_played(capsys, tmp_path):
    status, out, _ = run(capsys, "perft", "Abalone", "1")
    assert status == 0 and out.strip() == "44"
    config = tmp_path / "config.toml"
    config.write_text('[play]\ngame = "OffBoard"\n')
    from reedboard.controller.workshop.config import load

    assert load(config)["play.game"] == "offboard"
    status, _, err = run(capsys, "show", "Chess")
    assert status == 2 and "invalid choice: 'Chess'" in err


def test_a_missing_extra_is_named_with_both_ways_to_install_it(capsys, monkeypatch, tmp_path):
    # From the package: pip install 'reedboard[club]'; from a checkout, where the README leads: '.[club]'.
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "amqtt" else found(name, *a))
    status, _, err = run(capsys, "club", "--games", str(tmp_path))
    assert status == 2
    assert err.strip() == ("reedboard club: amqtt is missing: pip install 'reedboard[club]',"
                           " or in a checkout of reedboard: pip install '.[club]'")


def test_the_backend_has_one_name(capsys, tmp_path):
    # --backend on the command line, backend in the configuration as in the board file; the
    # former --hal and [board] hal are still read.
    from reedboard.controller.workshop.config import load

    for flag in ("--backend", "--hal"):
        status, out, _ = run(capsys, "doctor", flag, "sim")
        assert status == 0 and out.startswith("backend: sim"), (flag, out)
    for key in ("backend", "hal"):
        config = tmp_path / f"{key}.toml"
        config.write_text(f'[board]\n{key} = "sim"\n')
        assert load(config)["board.backend"] == "sim"


def test_help_loads_none_of_the_modules_a_command_needs_only_when_it_runs():
    # `reedboard --help` builds every command's parser: each command imports its board, journal,
    # trace and configuration modules (and asyncio, the TOML reader, ...) when it runs, not as its
    # parser is built; the games' move tables are built when a game is made.
    heavy = ("reedboard.controller.persist.journal", "reedboard.controller.persist.trace",
             "reedboard.controller.core.reconcile", "reedboard.controller.workshop.config",
             "reedboard.controller.workshop.selftest", "reedboard.controller.workshop.calibrate",
             "reedboard.controller.workshop.guide", "reedboard.controller.web.app", "reedboard.hal.board", "secrets",
             "reedboard.controller.games.setup", "asyncio", "sqlite3", "ssl", "subprocess", "tomllib")
    code = ("import sys; from reedboard.controller.commands.cli import build_parser; build_parser();"
            " from reedboard.controller.games import abalone, bigballs;"
            f" print(' '.join(m for m in {heavy!r} if m in sys.modules),"
            " *(f'{g.__name__}.MOVE_DATA' for g in (abalone, bigballs) if g.MOVE_DATA is not None))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert result.stdout.split() == []


def test_only_the_entry_point_imports_the_command_line():
    # The commands stand below cli.py, which only assembles them: none imports it back, and the
    # error they all raise lives in a module that imports nothing of reedboard.
    import ast

    root = Path(__file__).resolve().parent.parent / "controller"
    importers = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):  # `from X import cli` and `from .cli import ...` too
                module = "." * node.level + (node.module or "")
                names = [module] + [f"{module}.{alias.name}" for alias in node.names]
            else:
                names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            if any(name.endswith((".cli", "commands.cli")) for name in names) and path.name != "cli.py":
                importers.append(str(path.relative_to(root)))
            if path.name == "usage.py" and any("reedboard" in name or name.startswith("controller") for name in names):
                importers.append(f"{path.relative_to(root)} imports {names}")
    assert importers == []
