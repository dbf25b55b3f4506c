"""Game records: a journal's game written as a record reads back to the same record, and a
record typed by hand is checked move by move, all or nothing."""

import json
import random
from datetime import timedelta
from pathlib import Path

import pytest

from reedboard.controller.archive.records import (
    RecordError, game_record, import_records, parse_records, record_lines, save_replayed,
)
from reedboard.controller.games import GAMES, game_class
from reedboard.controller.persist.journal_replay import rebuild
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.session.replay import replay
from reedboard.controller.persist.trace import read_trace

from archive_games import EVENING as START, HAND, random_journal

pytestmark = pytest.mark.component

TRACES = Path(__file__).resolve().parent / "traces"
TRACE_NAMES = sorted(p.stem for p in TRACES.glob("*.jsonl"))


def export_lines(journal_path):
    """The journal's game as a record, as `reedboard games export` writes it."""
    return record_lines(game_record(read_journal(journal_path)))


def round_trip(journal_path, tmp_path):
    """export -> import -> export: the two exports, and the imported journal."""
    first = export_lines(journal_path)
    tmp_path.mkdir(parents=True, exist_ok=True)
    record = tmp_path / "record.txt"
    record.write_text("\n".join(first) + "\n")
    (imported,) = import_records(record, tmp_path / "imported")
    return first, export_lines(imported), imported


# --- export -> import -> export -------------------------------------------------------------------
@pytest.mark.parametrize("name", TRACE_NAMES)
def test_every_trace_s_game_exports_imports_and_exports_the_same(name, tmp_path):
    journal = save_replayed(TRACES / f"{name}.jsonl", tmp_path / "games")
    first, second, imported = round_trip(journal, tmp_path)
    assert first == second
    expected = (TRACES / f"{name}.record").read_text().splitlines()
    moves = [line.split(". ", 1)[1].split(" {")[0] for line in first if line[:1].isdigit() and ". " in line]
    assert moves == [line for line in expected[1:] if line in moves]  # the record's moves, in order
    assert rebuild(read_journal(imported)).game.move_stack == rebuild(read_journal(journal)).game.move_stack


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_games_export_import_and_export_the_same(name, tmp_path):
    rng = random.Random(f"records/{name}")
    for index in range(6):
        players = {game_class(name).players[0]: "Ann", game_class(name).players[1]: "Bob Ó'Brien \"B\""}
        path = random_journal(tmp_path / "games", name, rng, START + timedelta(hours=index), players=players,
                              clock=index % 2 == 0)
        first, second, _ = round_trip(path, tmp_path / str(index))
        assert first == second, path
        assert any(line.startswith("1. ") for line in first)


def test_a_record_keeps_names_clock_comments_and_times(tmp_path):
    path = random_journal(tmp_path, "abalone", random.Random(3), players={"black": "Ann", "white": "Bob"},
                          clock=True, max_moves=30)
    lines = export_lines(path)
    assert lines[:4] == ['[Game "abalone"]', '[Date "2026.11.28"]', '[Time "19:30:00+01:00"]', '[Black "Ann"]']
    assert '[Clock "10+5"]' in lines and '[Layout "standard"]' in lines and '[First "black"]' in lines
    assert any("[%clk black=" in line for line in lines) and any("[%t " in line for line in lines)


def test_a_game_replayed_from_a_trace_is_kept_with_the_replay_s_moves(tmp_path):
    trace = TRACES / "bigballs-game-to-a7.jsonl"
    path = save_replayed(trace, tmp_path)
    assert path.parent == tmp_path and path.name.endswith("-bigballs.jsonl")
    from reedboard.controller.persist.notation import record_lines as notation_lines
    assert notation_lines(rebuild(read_journal(path)).game) == replay(read_trace(trace), str(trace)).record
    assert export_lines(path)[-1] in ("1-0 a7", "0-1 a7") or export_lines(path)[-1].startswith(("1-0 a7 {", "0-1 a7 {"))


# --- records typed by hand --------------------------------------------------------------------------
def test_records_typed_by_hand_become_journals(tmp_path):
    (tmp_path / "hand.txt").write_text(HAND)
    first, second = import_records(tmp_path / "hand.txt", tmp_path / "games")
    assert first.name == "20261128-000000-bigballs.jsonl" and second.name == "20261129-000000-abalone.jsonl"
    header = read_journal(first).header
    assert header["players"] == {"black": "Ann", "white": "Bob"} and header["event"] == "Club evening"
    lines = export_lines(second)
    assert lines[-3:] == ["1. A1B2 {[%t 12]}", "2. I5H5", "0-1 resign 0-0"]
    assert rebuild(read_journal(second)).game.outcome().winner == "white"


def test_a_wrong_move_is_refused_with_its_line_and_nothing_is_imported(tmp_path):
    (tmp_path / "bad.txt").write_text(HAND.replace("4. 5 f2-e3", "4. 5 f2-f4"))
    with pytest.raises(RecordError) as caught:
        import_records(tmp_path / "bad.txt", tmp_path / "games")
    assert str(caught.value).startswith(f"{tmp_path / 'bad.txt'}:11: move 4 '5 f2-f4' is refused: ")
    assert not (tmp_path / "games").exists() or not list((tmp_path / "games").iterdir())


def test_the_second_record_wrong_leaves_the_first_unimported(tmp_path):
    (tmp_path / "bad.txt").write_text(HAND.replace("2. I5H5", "2. I5A1"))
    with pytest.raises(RecordError, match=r"bad.txt:18: move 2 'I5A1' is refused: "):
        import_records(tmp_path / "bad.txt", tmp_path / "games")
    assert not (tmp_path / "games").exists() or not list((tmp_path / "games").iterdir())


@pytest.mark.parametrize("text, line, problem", [
    ('[Game "chess"]\n*\n', 1, "unknown game 'chess'"),
    ('[Game "abalone"]\n[Colour "x"]\n*\n', 2, "unknown tag [Colour]"),
    ('[Game "abalone"]\n[Date "yesterday"]\n*\n', 2, "write the date as YYYY.MM.DD"),
    ('[Game "abalone"]\n[Black "Ann"]\n[Black "Bo"]\n*\n', 3, "[Black] is given twice"),
    ('[Game "abalone"]\n[Black Ann]\n*\n', 2, "the value must be in quotes"),
    ('[Game "abalone"]\n[Layout "square"]\n*\n', 2, "[Layout]: the set-up"),
    ('[Game "abalone"]\n[First "white"]\n*\n', 2, "black moves first in this set-up"),
    ('[Game "abalone"]\n1. A1B2\n3. A2B3\n*\n', 3, "move number 3: this is move 2"),
    ('[Game "abalone"]\n1. A1B2\n1-0 pushed-off\n', 3, "the game is not over"),
    ('[Game "abalone"]\n1. A1B2\n1-0\n', 3, "write the reason after it"),
    ('[Game "abalone"]\n[Result "1-0"]\n1. A1B2\n*\n', 2, "[Result]: says 1-0 but the result line says *"),
    ('[Game "abalone"]\n1. A1B2 {[%t soon]}\n*\n', 2, "write [%t SECONDS]"),
    ('[Game "abalone"]\n1. A1B2 {[%clk red=3]}\n*\n', 2, "no colour 'red'"),
    ('[Game "abalone"]\n1. A1B2\n', 2, "the record has no result line"),
    ('1. A1B2\n*\n', 1, "a move before any tag"),
    ('[Game "abalone"]\nhello\n*\n', 2, "not a tag, a move (N. MOVE) or a result"),
    ('[Game "abalone"]\n[White "' + "x" * 41 + '"]\n*\n', 2, "[White]: the name of white must be 1 to 40"),
    ('[Game "abalone"]\n[Computer {"plays": "red", "level": 3, "version": ""}]\n*\n', 2,
     "[Computer]: it plays black or white, not 'red'"),
    ('[game "abalone"]\n1. A1B2\n*\n', None, None),  # tags are read in any case
])
def test_a_bad_record_is_named_with_its_line(text, line, problem):
    if problem is None:
        assert len(parse_records(text, "hand.txt")) == 1
        return
    with pytest.raises(RecordError) as caught:
        parse_records(text, "hand.txt")
    assert str(caught.value).startswith(f"hand.txt:{line}: ") and problem in str(caught.value), str(caught.value)


def test_an_empty_file_has_no_record():
    with pytest.raises(RecordError, match="no record in it"):
        parse_records("\n; just a comment\n", "empty.txt")


def test_export_of_a_damaged_journal_gives_the_moves_up_to_the_damage(tmp_path):
    path = random_journal(tmp_path, "bigballs", random.Random(5), max_moves=20, extras=False)
    lines = path.read_text().splitlines()
    moves_before = sum(1 for line in lines[:6] if json.loads(line)["type"] == "move")
    path.write_text("\n".join(lines[:6] + ["{garbage"] + lines[6:]) + "\n")
    contents = read_journal(path)
    exported = record_lines(game_record(contents))
    assert sum(1 for line in exported if line[:1].isdigit() and ". " in line) == moves_before
    assert exported[-1] == "*" and f"{path}:7: damaged line" in contents.warning


def docs_examples():
    text = (Path(__file__).resolve().parent.parent / "docs" / "records.md").read_text()
    blocks = [block.split("```", 1)[0] for block in text.split("```text\n")[1:]]
    return [block for block in blocks if block.startswith("[Game ")]


def test_the_documented_examples_import_and_export_as_written(tmp_path):
    examples = docs_examples()
    assert len(examples) == 4  # the first one, then one per game
    games = set()
    for number, example in enumerate(examples):
        (tmp_path / f"{number}.txt").write_text(example)
        (path,) = import_records(tmp_path / f"{number}.txt", tmp_path / "games")
        games.add(read_journal(path).header["game"])
        if number > 0:  # written as reedboard writes them
            assert "\n".join(export_lines(path)) + "\n" == example
    assert games == set(GAMES)


def test_a_trace_is_saved_with_its_journal_s_names_and_once(tmp_path):
    from reedboard.controller.persist.trace import TraceError
    games = tmp_path / "games"
    original = save_replayed(TRACES / "abalone-broadside.jsonl", tmp_path / "board")
    lines = original.read_text().splitlines()
    header = json.loads(lines[0])
    header.update(players={"black": "Ann", "white": "Bob"}, event="Away match")
    original.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    trace = original.with_name(original.name.removesuffix(".jsonl") + ".trace.jsonl")
    trace.write_text((TRACES / "abalone-broadside.jsonl").read_text())
    kept = save_replayed(trace, games)
    assert read_journal(kept).header["players"] == {"black": "Ann", "white": "Bob"}
    assert read_journal(kept).header["event"] == "Away match" and kept.name == original.name
    with pytest.raises(TraceError, match="its game is in the archive already"):
        save_replayed(trace, tmp_path / "board")


def test_a_whole_journal_that_does_not_replay_is_not_written(tmp_path):
    from reedboard.controller.persist.journal_format import JournalError
    from reedboard.controller.persist.journal import write_journal
    header = {"game": "abalone", "layout": "standard", "settings": {}}
    entries = [{"type": "move", "t": 1, "move": "A1B2"}, {"type": "move", "t": 2, "move": "A1B2"}]
    with pytest.raises(JournalError, match=":3: "):
        write_journal(tmp_path, header, entries, START)
    assert list(tmp_path.iterdir()) == []
    path = write_journal(tmp_path, header, entries[:1], START)
    assert [p.name for p in tmp_path.iterdir()] == [path.name] == ["20261128-193000-abalone.jsonl"]
