"""The archive's index: built from the journals, rebuilt at will, never ahead of or behind them."""

import json
import random
from datetime import date, timedelta

import pytest

from reedboard.controller.archive.index import INDEX_NAME, Archive, ArchiveError
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.persist.journal import Journal, append_players

from archive_games import A7_GAME, START, bigballs, played, random_journal

pytestmark = pytest.mark.component


def ids(games):
    return [g["id"] for g in games]


def test_the_archive_lists_every_played_game_newest_first(club):
    with Archive(club) as archive:
        assert archive.refresh() == []
        games = archive.games()
    assert [(g["game"], g["outcome"], g["moves"]) for g in games] == [
        ("abalone", "draw", 2), ("bigballs", "unfinished", 2), ("bigballs", "win", 3), ("bigballs", "win", 15)]
    assert games[-1]["players"] == {"black": "Ann", "white": "Bob"} and games[-1]["line"] == "1-0 a7"
    assert games[-1]["day"] == "2026-11-01" and games[-1]["first"] == "black"
    assert (club / INDEX_NAME).is_file()


@pytest.mark.parametrize("filters, expected", [
    ({"game": "abalone"}, ["abalone/draw"]),
    ({"player": "ann"}, ["abalone/draw", "bigballs/unfinished", "bigballs/win", "bigballs/win"]),
    ({"player": "Cleo"}, ["abalone/draw"]),
    ({"player": "nobody"}, []),
    ({"result": "win"}, ["bigballs/win", "bigballs/win"]),
    ({"result": "unfinished"}, ["bigballs/unfinished"]),
    ({"since": date(2026, 11, 2), "until": date(2026, 11, 3)}, ["bigballs/unfinished", "bigballs/win"]),
    ({"since": date(2026, 11, 4)}, ["abalone/draw"]),
    ({"until": date(2026, 11, 1)}, ["bigballs/win"]),
    ({"limit": 1}, ["abalone/draw"]),
    ({"player": "Bob", "result": "win", "game": "bigballs"}, ["bigballs/win", "bigballs/win"]),
])
def test_list_filters(club, filters, expected):
    with Archive(club) as archive:
        archive.refresh()
        assert [f"{g['game']}/{g['outcome']}" for g in archive.games(**filters)] == expected


def test_a_bad_result_filter_is_refused(club):
    with Archive(club) as archive, pytest.raises(ArchiveError, match="a result is win, draw, unfinished"):
        archive.games(result="lost")


def test_stats_on_a_small_archive(club):
    with Archive(club) as archive:
        archive.refresh()
        stats = archive.stats()
        ann_only = archive.stats("ANN")
    by = {(e["player"], e["game"]): {k: e[k] for k in ("games", "wins", "draws", "losses", "unfinished")}
          for e in stats["players"]}
    assert by == {
        ("Ann", "bigballs"): {"games": 3, "wins": 1, "draws": 0, "losses": 1, "unfinished": 1},
        ("Bob", "bigballs"): {"games": 3, "wins": 1, "draws": 0, "losses": 1, "unfinished": 1},
        ("Ann", "abalone"): {"games": 1, "wins": 0, "draws": 1, "losses": 0, "unfinished": 0},
        ("Cleo", "abalone"): {"games": 1, "wins": 0, "draws": 1, "losses": 0, "unfinished": 0},
    }
    big = next(g for g in stats["games"] if g["game"] == "bigballs")
    assert big["games"] == 3 and big["finished"] == 2 and big["average_moves"] == 9.0
    assert big["first"] == {"wins": 2, "draws": 0, "losses": 0} and big["colours"] == {"black": 2, "white": 0}
    abalone = next(g for g in stats["games"] if g["game"] == "abalone")
    assert abalone["draws"] == 1 and abalone["first"] == {"wins": 0, "draws": 1, "losses": 0}
    assert {e["player"] for e in ann_only["players"]} == {"Ann"} and sum(g["games"] for g in ann_only["games"]) == 4


def test_a_damaged_journal_is_reported_with_its_line_and_skipped(club):
    victim = sorted(club.glob("*-bigballs.jsonl"))[0]
    lines = victim.read_text().splitlines()
    lines[3] = '{"type": "move", "t": 3.0, "move": "6 g7-a1"}'
    victim.write_text("\n".join(lines) + "\n")
    (club / "20261201-000000-offboard.jsonl").write_text("not a journal\n")
    with Archive(club) as archive:
        skipped = archive.refresh()
        listed = ids(archive.games())
        with pytest.raises(ArchiveError, match="its journal is damaged"):
            archive.game(victim.stem)
    assert [(s.path.name, s.line) for s in skipped] == [(victim.name, 4), ("20261201-000000-offboard.jsonl", 1)]
    assert str(skipped[0]).startswith(f"{victim}:4: ")
    assert len(listed) == 3 and victim.stem not in listed


def test_a_torn_last_line_leaves_the_index_consistent(club):
    path = played(club, bigballs(), A7_GAME[:4], players={"black": "Dan"}, day=9)
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"type": "move", "t": 5.0, "mo')  # the power went while a move was written
    with Archive(club) as archive:
        assert archive.refresh() == []
        game = archive.game(path.stem)
        assert game["moves"] == 4 and "cut off" in game["note"]
        path.write_bytes(whole + b'{"type": "move", "t": 5.0, "move": "5 a3-a4"}\n')  # the game went on
        archive.refresh()
        assert archive.game(path.stem)["moves"] == 5 and archive.game(path.stem)["note"] is None


def test_deleting_the_index_loses_nothing(club):
    with Archive(club) as archive:
        archive.refresh()
        before = archive.games()
    (club / INDEX_NAME).unlink()
    with Archive(club) as archive:
        archive.refresh()
        assert archive.games() == before


def test_a_garbled_index_is_built_again(club):
    with Archive(club) as archive:
        archive.refresh()
        before = archive.games()
    (club / INDEX_NAME).write_bytes(b"this is no database" * 100)
    with Archive(club) as archive:
        archive.refresh()
        assert archive.games() == before


def test_a_rebuild_reads_every_journal_in_parallel_as_alone(tmp_path, monkeypatch):
    from reedboard.controller.archive import index
    rng = random.Random(7)
    for n, name in enumerate(["bigballs", "offboard", "abalone"] * 4):
        random_journal(tmp_path, name, rng, START + timedelta(minutes=n), max_moves=15)
    monkeypatch.setattr(index, "PARALLEL_FROM", 4)
    with Archive(tmp_path, jobs=2) as parallel:
        parallel.refresh()
        together = parallel.games()
    (tmp_path / INDEX_NAME).unlink()
    with Archive(tmp_path, jobs=1) as alone:
        alone.refresh()
        assert alone.games() == together and len(together) == 12


def test_new_games_changes_and_deletions_are_picked_up(club):
    with Archive(club) as archive:
        archive.refresh()
        newest = played(club, bigballs(), A7_GAME[:1], players={"white": "Eve"}, day=20)
        archive.refresh()
        assert archive.games(limit=1)[0]["id"] == newest.stem
        newest.unlink()
        archive.refresh()
        assert newest.stem not in ids(archive.games())


def test_a_renamed_player_survives_a_rebuild(club):
    with Archive(club) as archive:
        archive.refresh()
        for game in archive.games(player="Ann"):
            colours = {c: "Ann Smith" for c, name in game["players"].items() if name == "Ann"}
            append_players(archive.journal(game["id"]), colours, START)
        archive.refresh()
        assert archive.games(player="Ann") == []
        assert len(archive.games(player="ann smith")) == 4
    (club / INDEX_NAME).unlink()
    with Archive(club) as archive:
        archive.rebuild()
        assert len(archive.games(player="Ann Smith")) == 4
        finished = archive.journal(archive.games(player="Ann Smith", result="win")[0]["id"])
    entries = read_journal(finished).entries
    assert entries[-1]["type"] == "players" and entries[-2]["type"] == "result"  # appended after the result


def test_ids_are_found_by_a_unique_start(club):
    with Archive(club) as archive:
        archive.refresh()
        first = archive.games()[-1]["id"]
        assert archive.resolve(first[:9]) == first and archive.resolve(first + ".jsonl") == first
        with pytest.raises(ArchiveError, match="the start of several games"):
            archive.resolve("2026")
        with pytest.raises(ArchiveError, match="no game '1999'"):
            archive.resolve("1999")
        with pytest.raises(ArchiveError, match="given up before its first move"):
            archive.resolve(sorted(club.glob("*.jsonl"))[-1].stem)


def test_the_page_gets_a_game_s_record_and_positions(club):
    with Archive(club) as archive:
        archive.refresh()
        game_id = archive.games(result="win", game="bigballs")[-1]["id"]
        record = archive.record(game_id)
        assert record[0] == '[Game "bigballs"]' and record[-1] == "1-0 a7 {[%t 99]}"
        replay = archive.replay(game_id)
        assert len(replay["positions"]) == 16 and replay["result"] == "1-0 a7"


def test_the_index_s_player_rows_follow_the_journal(club):
    path = sorted(club.glob("*-abalone.jsonl"))[0]
    header = json.loads(path.read_text().splitlines()[0])
    assert header["players"] == {"black": "Cleo", "white": "Ann"}


def test_a_name_given_to_a_game_cut_off_mid_line_keeps_it_readable(club):
    path = played(club, bigballs(), A7_GAME[:4], players={"black": "Dan"}, day=9)
    path.write_bytes(path.read_bytes() + b'{"type": "move", "t": 5.0, "mo')  # a power cut mid-line
    append_players(path, {"white": "Eve"}, START)
    contents = read_journal(path)
    assert contents.damage is None and "cut off" in contents.warning
    with Archive(club) as archive:
        archive.refresh()
        assert archive.game(path.stem)["players"] == {"black": "Dan", "white": "Eve"}


def test_a_renamed_unfinished_game_is_resumed_and_goes_on(club):
    path = played(club, bigballs(), A7_GAME[:4], players={"black": "Dan"}, day=9)
    append_players(path, {"black": "Daniel"}, START)
    with Journal.resume(path, START) as journal:
        journal.append_move(1.0, A7_GAME[4])
    contents = read_journal(path)
    assert contents.damage is None and [e["type"] for e in contents.entries][-3:] == ["players", "resume", "move"]
    with Archive(club) as archive:
        archive.refresh()
        assert archive.game(path.stem)["moves"] == 5 and archive.game(path.stem)["players"] == {"black": "Daniel"}


def test_a_damaged_journal_is_not_renamed(club):
    path = sorted(club.glob("*-bigballs.jsonl"))[0]
    path.write_text(path.read_text().replace('"move": "1 e3-d4"', '"move": "1 e3-e9"'))
    with pytest.raises(Exception, match="a damaged journal is never written to"):
        append_players(path, {"black": "Zed"})


def test_a_page_pages_through_the_games(club):
    with Archive(club) as archive:
        archive.refresh()
        everything = ids(archive.games())
        assert ids(archive.games(limit=2, offset=1)) == everything[1:3] and archive.count() == 4
        assert archive.count(player="ann", result="win") == 2 and archive.count(game="abalone") == 1


def test_the_computer_s_side_is_found_and_counted_by_its_level(tmp_path):
    from reedboard.controller.games import game_class
    game = game_class("abalone")()
    journal = Journal.create(tmp_path, game.copy(), {}, START, players={"black": "Ann"},
                             computer={"plays": "white", "level": 3, "version": "0.1.0"})
    journal.append_move(1.0, "A1B2")
    journal.append_result(2.0, "0-1", "resign", "white")
    journal.close()
    with Archive(tmp_path) as archive:
        archive.refresh()
        assert ids(archive.games(player="computer:3")) == [journal.path.stem]
        rows = {(e["player"], e["wins"], e["losses"]) for e in archive.stats()["players"]}
    assert rows == {("Ann", 0, 1), ("computer:3", 1, 0)}
