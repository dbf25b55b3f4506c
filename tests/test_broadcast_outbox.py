"""Nothing a board recorded is lost on its way to the club, through real Mosquitto: the club
confirms what it has stored, the board keeps an outbox of what the club has confirmed (a file
beside its journals, surviving its restarts) and sends again whatever the club has not
confirmed, old games included; the club takes each line once, in order."""

import asyncio
import contextlib
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from reedboard.controller.broadcast.club import mosquitto
from reedboard.controller.broadcast.address import parse_broker_url
from reedboard.controller.broadcast.publisher.board import Broadcaster
from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.persist.journal import Journal
from reedboard.controller.persist.export import export_lines
from reedboard.controller.session.replay import replay
from reedboard.controller.persist.trace import read_trace

from club_lines import club_on

TRACES = Path(__file__).parent / "traces"
NOW = datetime(2026, 11, 30, 19, 0, tzinfo=timezone.utc)
FAST = {"retry": (0.05, 0.2), "timeout": 3.0, "resend": (0.3, 1.0)}

pytestmark = [pytest.mark.system, pytest.mark.mosquitto]


def play(folder: Path, written, trace: str, minutes: int, upto: int | None = None) -> Path:
    """A game of the trace written as a board writes it, each line told to `written`."""
    played = read_trace(TRACES / f"{trace}.jsonl")
    journal = Journal.create(folder, played.game(), {}, NOW + timedelta(minutes=minutes), written=written)
    for entry in replay(played, source=trace).decisions[:upto]:
        journal.append_entry(entry)
    journal.close()
    return journal.path


def check_once_in_order(club: Club, board: str, journal: Path, club_folder: Path) -> None:
    games = [g for g in club.boards[board].games.values() if g.journal_name and
             read_journal(club_folder / g.journal_name).header["started"] == read_journal(journal).header["started"]]
    assert len(games) == 1
    assert games[0].lines == [read_journal(journal).header, *read_journal(journal).entries]
    assert export_lines(club_folder / games[0].journal_name) == export_lines(journal)


def test_games_played_while_the_broker_was_down_are_sent_after_a_restart(tmp_path):
    """A game finished with the broker down, the board stopped (and another game's board
    killed): started again with the broker back, the board sends both."""
    port = mosquitto.free_port()
    url = f"mqtt://127.0.0.1:{port}"
    games = tmp_path / "games"
    outbox = games / ".broadcast-table1.json"
    said = []

    async def main():
        first = Broadcaster(parse_broker_url(url), "table1", outbox=outbox, say=said.append, **FAST)
        await first.start()
        finished = play(games, first.line_written, "bigballs-game-to-a7", 0)
        await asyncio.sleep(0)
        assert first.unconfirmed > 0
        await first.stop()  # Ctrl-C: it says what waits
        killed = Broadcaster(parse_broker_url(url), "table1", outbox=outbox, say=said.append, **FAST)
        await killed.start()
        unfinished = play(games, killed.line_written, "offboard-game-to-six", 1, upto=9)
        killed._task.cancel()  # kill -9: nothing said, nothing written
        with contextlib.suppress(asyncio.CancelledError):
            await killed._task

        with mosquitto.Mosquitto(tmp_path / "mosquitto", port):
            async with club_on(url, tmp_path / "club") as club:
                again = Broadcaster(parse_broker_url(url), "table1", outbox=outbox, say=said.append, **FAST)
                await again.start()
                assert await again.confirmed(30)
                await again.stop()
                check_once_in_order(club, "table1", finished, tmp_path / "club")
                check_once_in_order(club, "table1", unfinished, tmp_path / "club")
                assert club.duplicates == 0
        restarted = Broadcaster(parse_broker_url(url), "table1", outbox=outbox, say=said.append, **FAST)
        assert restarted.unconfirmed == 0  # the outbox remembers what the club confirmed
    asyncio.run(asyncio.wait_for(main(), 90))
    assert any("journal lines wait for the club's confirmation" in line for line in said)


def test_lines_a_broker_lost_in_a_crash_are_sent_again_once_in_order(tmp_path):
    """The club is away; its broker holds a finished game's lines for it and is killed (kill -9:
    what it held is gone, the board had its acknowledgements). The club confirmed nothing, so
    the board sends them again; the club takes each once, in order, the next game's too."""
    port = mosquitto.free_port()
    url = f"mqtt://127.0.0.1:{port}"
    broker = mosquitto.Mosquitto(tmp_path / "mosquitto", port)

    async def main():
        await asyncio.to_thread(broker.start)
        async with club_on(url, tmp_path / "club", "club-a"):
            pass  # the club's session is known to the broker; the club goes away
        board = Broadcaster(parse_broker_url(url), "table1", outbox=tmp_path / "games" / ".broadcast-table1.json",
                            **FAST)
        await board.start()
        first = play(tmp_path / "games", board.line_written, "bigballs-game-to-a7", 0)
        assert await board.flushed(30)  # the broker has them all
        await asyncio.to_thread(broker.kill)
        await asyncio.to_thread(broker.start)
        second = play(tmp_path / "games", board.line_written, "abalone-push-off-edge-first", 1)
        async with club_on(url, tmp_path / "club", "club-a") as club:
            assert await board.confirmed(60)
            await board.stop()
            check_once_in_order(club, "table1", first, tmp_path / "club")
            check_once_in_order(club, "table1", second, tmp_path / "club")
    try:
        asyncio.run(asyncio.wait_for(main(), 90))
    finally:
        broker.stop()


def test_the_clubs_own_mosquitto_is_started_again_and_nothing_is_lost(tmp_path):
    """The club's own broker killed mid-game: the club starts it again, the board sends what
    the club has not confirmed, and the club has the game once, in order."""
    from reedboard.controller.broadcast.club.broker import EmbeddedBroker

    said = []

    async def main():
        broker = EmbeddedBroker("127.0.0.1", mosquitto.free_port(), kind="mosquitto")
        await broker.start()
        keeping = asyncio.create_task(broker.keep_up(0.05, say=said.append))
        url = f"mqtt://127.0.0.1:{broker.port}"
        try:
            async with club_on(url, tmp_path / "club") as club:
                board = Broadcaster(parse_broker_url(url), "table1", outbox=tmp_path / "games" / ".broadcast-t1.json",
                                    **FAST)
                await board.start()
                first = play(tmp_path / "games", board.line_written, "offboard-game-to-six", 0, upto=6)
                assert await board.confirmed(30)
                broker.kill()
                second = play(tmp_path / "games", board.line_written, "bigballs-game-to-a7", 1)
                assert await board.confirmed(60)
                await board.stop()
                check_once_in_order(club, "table1", first, tmp_path / "club")
                check_once_in_order(club, "table1", second, tmp_path / "club")
        finally:
            keeping.cancel()
            await broker.stop()
    asyncio.run(asyncio.wait_for(main(), 90))
    assert len(said) == 1 and "started again" in said[0]



def test_a_board_idle_for_long_sends_its_next_game_once(tmp_path):
    """A board connected long before its first move: its lines go out once, not again at once
    as if the club had been silent about them all that time (the club, away, confirms them
    when it is back: every line stored once)."""
    now = [0.0]
    broker = mosquitto.Mosquitto(tmp_path / "mosquitto")

    async def main():
        await asyncio.to_thread(broker.start)
        async with club_on(broker.url, tmp_path / "club", "club-a"):
            pass  # the club's session is known to the broker; the club goes away
        board = Broadcaster(parse_broker_url(broker.url), "table1", outbox=tmp_path / "games" / ".broadcast-t1.json",
                            clock=lambda: now[0], **{**FAST, "resend": (5.0, 60.0)})
        await board.start()
        while board.state != "online":
            await asyncio.sleep(0.01)
        now[0] += 600  # ten minutes on the board's clock before the first move
        game = play(tmp_path / "games", board.line_written, "bigballs-game-to-a7", 0)
        assert await board.flushed(30)  # the broker holds them for the club
        async with club_on(broker.url, tmp_path / "club", "club-a") as club:
            assert await board.confirmed(30)
            await board.stop()
            check_once_in_order(club, "table1", game, tmp_path / "club")
            assert club.duplicates == 0
    try:
        asyncio.run(asyncio.wait_for(main(), 60))
    finally:
        broker.stop()
