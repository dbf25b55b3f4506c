"""Mosquitto configured as docs/broadcast.md says (a password file with a user per board, an ACL
letting a board write only its own topics): a board with a wrong password, or one publishing
under another board's name, is refused, and the board says so in one line."""

import asyncio
import contextlib
from pathlib import Path

import pytest

from reedboard.controller.broadcast.club import mosquitto
from reedboard.controller.broadcast.address import parse_broker_url
from reedboard.controller.broadcast.publisher.board import Broadcaster
from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.broadcast.club.follow import follow
from reedboard.controller.broadcast.publisher.replay import publish_trace

TRACE = Path(__file__).parent / "traces" / "offboard-takeback-two.jsonl"
USERS = {"table1": "first-secret", "table2": "second-secret", "club": "club-secret"}

pytestmark = [pytest.mark.system, pytest.mark.mosquitto]


@pytest.fixture
def broker(tmp_path):
    process = mosquitto.Mosquitto(tmp_path / "mosquitto", users=USERS)
    with process:
        yield process


def url(broker, user, password):
    return f"mqtt://{user}:{password}@127.0.0.1:{broker.port}"


async def refused(broadcaster: Broadcaster) -> None:
    await broadcaster.start()
    while broadcaster.state != "refused":
        await asyncio.sleep(0.05)


def run(coroutine):
    asyncio.run(asyncio.wait_for(coroutine, 60))


def test_a_board_with_its_own_user_publishes_and_the_club_reads(broker, tmp_path):
    async def main():
        club = Club(tmp_path / "club")
        ready = asyncio.Event()
        task = asyncio.create_task(follow(club, parse_broker_url(url(broker, "club", "club-secret")), ready=ready))
        await ready.wait()
        assert await publish_trace(TRACE, url(broker, "table1", "first-secret"), "table1", speed=0,
                                   games_dir=tmp_path / "board")
        while not club.boards.get("table1") or club.summary(club.boards["table1"])["online"] is not False:
            await asyncio.sleep(0.05)
        assert club.summary(club.boards["table1"])["moves"] > 0
        task.cancel()
    run(main())


def test_a_wrong_password_is_refused_in_one_line(broker):
    said = []

    async def main():
        broadcaster = Broadcaster(parse_broker_url(url(broker, "table1", "wrong")), "table1", say=said.append,
                                  refused_retry=60)
        await refused(broadcaster)
        await broadcaster.stop()
    run(main())
    assert len(said) == 1 and "\n" not in said[0]
    assert "refused board 'table1'" in said[0] and "user name or password" in said[0].lower()


def test_an_unknown_user_is_refused(broker):
    said = []

    async def main():
        broadcaster = Broadcaster(parse_broker_url(url(broker, "stranger", "x")), "stranger", say=said.append,
                                  refused_retry=60)
        await refused(broadcaster)
        await broadcaster.stop()
    run(main())
    assert len(said) == 1 and "refused" in said[0]


def test_publishing_under_another_boards_name_is_refused(broker, tmp_path):
    said = []

    async def main():
        club = Club(tmp_path / "club")
        ready = asyncio.Event()
        task = asyncio.create_task(follow(club, parse_broker_url(url(broker, "club", "club-secret")), ready=ready))
        await ready.wait()
        impostor = Broadcaster(parse_broker_url(url(broker, "table1", "first-secret")), "table2", say=said.append,
                               echo_wait=1.0, refused_retry=60)
        await refused(impostor)
        await impostor.stop()
        await asyncio.sleep(0.3)  # anything that got through would be here by now
        task.cancel()
        return club
    club = asyncio.run(asyncio.wait_for(main(), 60))
    assert len(said) == 1 and "\n" not in said[0]
    assert "does not let board 'table2' publish" in said[0]
    assert "table2" not in club.boards  # not even its online status got through


def test_a_board_cannot_take_another_boards_client_id(broker, tmp_path):
    """User table2 connecting with table1's client id does not knock table1 off."""
    import aiomqtt

    async def main():
        said = []
        table1 = Broadcaster(parse_broker_url(url(broker, "table1", "first-secret")), "table1", say=said.append)
        await table1.start()
        while table1.state != "online":
            await asyncio.sleep(0.05)
        async with aiomqtt.Client("127.0.0.1", broker.port, username="table2", password="second-secret",
                                  identifier=table1.identifier):
            # table1 writes a line now: knocked off, it would have to connect again to send it
            journal = tmp_path / "g1.jsonl"
            journal.write_text('{"type": "header"}\n', "utf-8")
            table1.line_written(journal, 1, {"type": "header"})
            assert await table1.flushed(30)
        connections = table1.connections
        await table1.stop()
        return connections
    assert asyncio.run(asyncio.wait_for(main(), 60)) == 1


def test_nobody_else_receives_what_the_broker_keeps_for_the_club(broker, tmp_path):
    """The club's persistent session (what comes while it is away) goes to the club only,
    whatever client id another user connects with."""
    import aiomqtt

    club_url = parse_broker_url(url(broker, "club", "club-secret"))
    identifier = "reedboard-club-test"

    async def main():
        club = Club(tmp_path / "club")
        ready = asyncio.Event()
        task = asyncio.create_task(follow(club, club_url, identifier=identifier, ready=ready))
        await ready.wait()
        task.cancel()  # the club goes away; its session stays
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert await publish_trace(TRACE, url(broker, "table1", "first-secret"), "table1", speed=0,
                                   games_dir=tmp_path / "board")
        taken = []
        async with aiomqtt.Client("127.0.0.1", broker.port, username="table2", password="second-secret",
                                  identifier=identifier, clean_session=False) as thief:
            marker = "reedboard/boards/table2/status"
            await thief.subscribe(marker, qos=1)
            await thief.publish(marker, b'{"v": 1, "online": false}', qos=1)
            async for message in thief.messages:  # what a session kept comes before the marker
                if message.topic.value == marker:
                    break
                taken.append(message.topic.value)
        club = Club(tmp_path / "club-again")
        ready = asyncio.Event()
        task = asyncio.create_task(follow(club, club_url, identifier=identifier, ready=ready))
        await ready.wait()
        while not club.boards.get("table1") or club.summary(club.boards["table1"])["online"] is not False:
            await asyncio.sleep(0.05)
        task.cancel()
        return taken, club
    taken, club = asyncio.run(asyncio.wait_for(main(), 60))
    assert taken == []
    assert club.summary(club.boards["table1"])["moves"] > 0
