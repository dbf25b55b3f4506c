"""`reedboard games ...`: what each action prints, and one line (status 2) for every mistake."""

import json
import sys
from pathlib import Path

import pytest

from reedboard.controller.commands import games_command
from reedboard.controller.archive.index import INDEX_NAME
from reedboard.controller.persist.game_files import trace_path

from command_line import run_command
from archive_games import A7_GAME, HAND, bigballs, played

pytestmark = pytest.mark.component


def games_main(argv, capsys):
    """`reedboard games ...` on a parser of its own, as cli.main runs it: (status, out, err)."""
    return run_command(games_command, ["games", *argv], capsys)


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # no configuration file
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    games = tmp_path / "data" / "reedboard" / "games"
    played(games, bigballs(), A7_GAME, players={"black": "Ann", "white": "Bob"}, day=0)
    played(games, bigballs(), A7_GAME[:4], players={"black": "Bob", "white": "Ann"}, day=1)
    return games


def test_list_shows_the_games_of_the_default_folder(folder, capsys):
    status, out, err = games_main(["list"], capsys)
    lines = out.splitlines()
    assert status == 0 and err == "" and lines[0].split() == ["ID", "game", "started", "players", "moves", "result"]
    assert "Bob (black) - Ann (white)" in lines[1] and lines[1].endswith("4      *")
    assert "Ann (black) - Bob (white)" in lines[2] and lines[2].endswith("15     1-0 a7")
    status, out, _ = games_main(["list", "--result", "draw"], capsys)
    assert status == 0 and out.startswith("no games in ") and "that match" in out


def test_show_prints_the_record_and_the_final_position(folder, capsys):
    game_id = sorted(folder.glob("*.jsonl"))[0].stem
    status, out, _ = games_main(["show", game_id[:15]], capsys)
    assert status == 0 and '[Black "Ann"]' in out and "15. 4 a6xa7 {[%t 15]}" in out
    assert out.rstrip().endswith("game over: 1-0 (a7)")


def test_export_and_import_go_round(folder, tmp_path, capsys):
    out_file = tmp_path / "all.txt"
    status, out, _ = games_main(["export", "--all", "--out", str(out_file)], capsys)
    assert status == 0 and out == f"2 games written to {out_file}\n"
    status, out, _ = games_main(["import", str(out_file), "--dir", str(tmp_path / "other")], capsys)
    assert status == 0 and out.startswith(f"imported 2 games into {tmp_path / 'other'}:")
    status, again, _ = games_main(["export", "--all", "--dir", str(tmp_path / "other")], capsys)
    assert again == out_file.read_text()
    status, out, _ = games_main(["export", sorted(folder.glob("*.jsonl"))[0].stem, "--format", "json"], capsys)
    data = json.loads(out)
    assert data["tags"]["Black"] == "Ann" and data["moves"][0] == {"move": "5 a1xa2", "t": 1.0}


def test_import_of_typed_records_lands_in_the_archive(folder, tmp_path, capsys):
    (tmp_path / "hand.txt").write_text(HAND)
    status, out, _ = games_main(["import", str(tmp_path / "hand.txt")], capsys)
    assert status == 0 and "20261129-000000-abalone" in out
    status, out, _ = games_main(["list", "--player", "ann", "--game", "abalone"], capsys)
    assert "20261129-000000-abalone" in out and "0-1 resign" in out


def test_rename_player_survives_a_reindex(folder, capsys):
    status, out, _ = games_main(["rename-player", "ann", "Ann Smith"], capsys)
    assert status == 0 and out == "renamed ann to Ann Smith in 2 games\n"
    (folder / INDEX_NAME).unlink()
    status, out, _ = games_main(["reindex"], capsys)
    assert status == 0 and out.startswith(f"indexed 2 games in {folder} (0 damaged journals skipped)")
    status, out, _ = games_main(["list", "--player", "Ann Smith"], capsys)
    assert out.count("Ann Smith (") == 2
    status, out, _ = games_main(["stats"], capsys)
    rows = [line.split() for line in out.splitlines()]
    assert ["Ann", "Smith", "bigballs", "2", "1", "0", "0", "1"] in rows


def test_delete_asks_unless_told_yes(folder, capsys, monkeypatch):
    path = sorted(folder.glob("*.jsonl"))[0]
    trace_path(path).write_text("{}\n")
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr("builtins.input", lambda prompt: "n")
    status, out, _ = games_main(["delete", path.stem], capsys)
    assert status == 1 and out == "nothing deleted\n" and path.exists()
    status, out, _ = games_main(["delete", path.stem, "--yes"], capsys)
    assert status == 0 and out.startswith(f"deleted {path.stem}: Big Balls, Ann (black) - Bob (white), 15 moves")
    assert not path.exists() and not trace_path(path).exists()
    status, out, _ = games_main(["list"], capsys)
    assert path.stem not in out


def test_a_damaged_journal_is_named_on_stderr_and_the_rest_listed(folder, capsys):
    bad = folder / "20261203-000000-abalone.jsonl"
    bad.write_text('{"type": "header", "version": 1, "game": "abalone"}\n{"type": "move", "t": 1, "move": "A1A1"}\n')
    status, out, err = games_main(["list"], capsys)
    assert status == 0 and err.startswith(f"reedboard: skipped {bad}:2: ") and len(out.splitlines()) == 3


@pytest.mark.parametrize("argv, message", [
    (["list", "--since", "yesterday"], "reedboard games list: argument --since: a day is YYYY-MM-DD, not 'yesterday'"),
    (["list", "--limit", "0"], "a number of games is 1 or more, not '0'"),
    (["list", "--result", "lost"], "argument --result: invalid choice: 'lost'"),
    (["list", "--game", "chess"], "argument --game: invalid choice: 'chess'"),
    (["list", "--since", "2026-12-01", "--until", "2026-11-01"], "--since 2026-12-01 is after --until 2026-11-01"),
    (["show", "1999"], "reedboard: no game '1999' in "),
    (["show", "2026"], "is the start of several games' IDs"),
    (["show", "../etc/passwd"], "reedboard: no game '../etc/passwd'"),
    (["export"], "give a game's ID or --all, one of them"),
    (["export", "2026", "--all"], "give a game's ID or --all, one of them"),
    (["export", "--all", "--format", "pgn"], "argument --format: invalid choice: 'pgn'"),
    (["import", "/nonexistent/records.txt"], "cannot read the records"),
    (["rename-player", "Zed", "Z"], "no game has a player called 'Zed'"),
    (["rename-player", "Ann", "x" * 41], "a name is 1 to 40 printable characters"),
    (["delete", "2026"], "is the start of several games' IDs"),
    ([], "reedboard games: choose list, show, export"),
    (["list", "--dir", "/dev/null"], "/dev/null is not a folder"),
])
def test_mistakes_get_one_line(folder, capsys, argv, message):
    status, out, err = games_main(argv, capsys)
    assert status == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1, err


def test_delete_without_a_terminal_needs_yes(folder, capsys, monkeypatch):
    monkeypatch.setattr(sys.stdin, "isatty", lambda: False, raising=False)
    game_id = sorted(folder.glob("*.jsonl"))[0].stem
    status, _, err = games_main(["delete", game_id], capsys)
    assert status == 2 and "needs an answer: run it at a terminal, or add --yes" in err
    assert (folder / f"{game_id}.jsonl").exists()


def test_a_bad_record_imports_nothing(folder, tmp_path, capsys):
    (tmp_path / "bad.txt").write_text(HAND.replace("3. 1 b1xa2", "3. 1 b1-b9"))
    before = sorted(folder.iterdir())
    status, _, err = games_main(["import", str(tmp_path / "bad.txt")], capsys)
    assert status == 2 and err.startswith(f"reedboard: {tmp_path / 'bad.txt'}:10: move 3 '1 b1-b9' is refused: ")
    assert err.rstrip().endswith("; nothing was imported") and sorted(folder.iterdir()) == before


def test_replay_save_keeps_a_trace_from_another_board_in_the_archive(tmp_path, monkeypatch, capsys):
    from reedboard.controller.commands.cli import main

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    trace = sorted((Path(__file__).parent / "traces").glob("*.jsonl"))[0]
    assert main(["replay", str(trace), "--save"]) == 0
    replayed = capsys.readouterr()
    assert "kept in the archive as" in replayed.err
    assert main(["games", "list"]) == 0
    listed = capsys.readouterr().out
    name = replayed.err.split("kept in the archive as ")[1].split()[0]
    assert name in listed
