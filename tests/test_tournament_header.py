"""A tournament's game keeps its round and board number (docs/records.md, docs/tournament.md): a
board seated by the club's pairing writes the tournament, the round, the board number and the
players into its journal's header; a record shows them as [Event], [Round], [Table] and the
colours' tags, and reads them back. A journal written before (without them) reads, replays and
exports as it always did, and a header with a round that is no round is refused."""

import asyncio
import json
from datetime import datetime, timezone

import pytest

from reedboard.controller.archive.records import RecordError, game_record, parse_records, record_lines
from reedboard.controller.broadcast.publisher.board import _seat_players
from reedboard.controller.games import GAMES
from reedboard.controller.persist.journal import Journal
from reedboard.controller.persist.journal_format import JournalError, check_header
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.persist.journal_replay import rebuild
from reedboard.controller.session.play_session import PlaySession

pytestmark = pytest.mark.component

NOW = datetime(2026, 11, 30, 19, 0, tzinfo=timezone.utc)
PAIRING = {"event": "Thursday club", "round": 3, "number": 5, "text": "Thursday club, round 3, board 5",
           "game": "abalone", "clock": None, "players": {"black": "Ann Lee", "white": "Bo Chen"}}
# An Abalone journal as boards wrote them before a header could hold a round: it must stay readable.
OLD_JOURNAL = "\n".join(json.dumps(line) for line in [
    {"type": "header", "version": 1, "game": "abalone", "layout": "belgian-daisy", "settings": {},
     "started": "2026-10-01T19:00:00+02:00", "players": {"black": "Ann", "white": "Bob"}, "event": "Club evening"},
    {"type": "move", "t": 3.0, "move": "A1B2"},
    {"type": "move", "t": 9.5, "move": "I5H5"},
    {"type": "result", "t": 12.0, "result": "0-1", "reason": "resign", "winner": "white"},
]) + "\n"


def test_a_journal_from_before_reads_replays_and_exports_as_it_did(tmp_path):
    path = tmp_path / "20261001-190000-abalone.jsonl"
    path.write_text(OLD_JOURNAL)
    contents = read_journal(path)
    assert contents.warning is None and "round" not in contents.header
    game = rebuild(contents).game
    assert [game.format_move(m) for m in game.move_stack] == ["A1B2", "I5H5"]
    record = record_lines(game_record(contents))
    assert record[:4] == ['[Game "abalone"]', '[Event "Club evening"]', '[Date "2026.10.01"]', '[Time "19:00:00+02:00"]']
    assert not [line for line in record if line.startswith(("[Round", "[Table"))]
    assert record[-1] == "0-1 resign 0-0 {[%t 12]}"


def test_a_tournament_game_s_record_names_its_round_board_and_players_and_reads_back(tmp_path):
    game = GAMES["abalone"]()
    journal = Journal.create(tmp_path, game, {}, NOW, players=PAIRING["players"],
                             occasion={"event": "Thursday club", "round": 3, "table": 5})
    journal.append_entry({"type": "move", "t": 2.0, "move": "A1B2"})
    journal.close()
    contents = read_journal(journal.path)
    assert {key: contents.header[key] for key in ("event", "round", "table", "players")} == {
        "event": "Thursday club", "round": 3, "table": 5, "players": {"black": "Ann Lee", "white": "Bo Chen"}}
    record = record_lines(game_record(contents))
    assert record[:8] == ['[Game "abalone"]', '[Event "Thursday club"]', '[Date "2026.11.30"]',
                          '[Time "19:00:00+00:00"]', '[Round "3"]', '[Table "5"]', '[Black "Ann Lee"]',
                          '[White "Bo Chen"]']
    (parsed,) = parse_records("\n".join(record) + "\n", "night.txt")
    assert (parsed.header["event"], parsed.header["round"], parsed.header["table"]) == ("Thursday club", 3, 5)


@pytest.mark.parametrize("round_, table", [(0, 1), ("3", 1), (True, 1), (3, -5), (3, 2 ** 40)])
def test_a_round_or_board_number_that_is_none_is_refused(tmp_path, round_, table):
    with pytest.raises(ValueError, match="whole number"):
        Journal.create(tmp_path, GAMES["abalone"](), {}, NOW, occasion={"round": round_, "table": table})
    header = {"type": "header", "version": 1, "game": "abalone", "settings": {}, "round": round_, "table": table}
    with pytest.raises(JournalError, match="whole number from 1"):
        check_header(tmp_path / "j.jsonl", header)
    assert not list(tmp_path.iterdir())


def test_a_record_s_round_must_be_a_number():
    text = '[Game "abalone"]\n[Round "third"]\n\n*\n'
    with pytest.raises(RecordError, match=r"night.txt:2: \[Round\]: a whole number from 1"):
        parse_records(text, "night.txt")


def test_a_board_seated_by_the_pairing_journals_its_round_and_board_while_those_players_sit_at_it(tmp_path):
    async def run():
        session = PlaySession("abalone", games_dir=tmp_path)
        _seat_players(session, PAIRING)
        header = await first_header(session, None)
        assert {key: header.get(key) for key in ("event", "round", "table", "players")} == {
            "event": "Thursday club", "round": 3, "table": 5, "players": PAIRING["players"]}
        assert session.snapshot()["occasion"] == {"event": "Thursday club", "round": 3, "table": 5}
        before = session.referee
        await session.new_game(players={"black": "Cy Ode", "white": "Bo Chen"})  # not the pairing's players
        header = await first_header(session, before)
        assert "round" not in header and "table" not in header and session.snapshot()["occasion"] is None
        _seat_players(session, None)  # no game on this board this round
        before = session.referee
        await session.new_game(players=PAIRING["players"])
        header = await first_header(session, before)
        assert "round" not in header and header["players"] == PAIRING["players"]
        await session.stop()
    asyncio.run(run())


async def first_header(session, before) -> dict:
    """The header of the journal of the session's game after the referee `before` (an Abalone
    game starts at once on a table moved by hand), its first line as written."""
    for __ in range(500):
        referee = session.referee
        path = getattr(referee.journal, "path", None) if referee is not None and referee is not before else None
        if path is not None:
            return json.loads(path.read_text().splitlines()[0])
        await asyncio.sleep(0.01)
    raise AssertionError("no journal was started")
