"""Mosquitto configured as docs/broadcast.md says (a password file with a user per board, an ACL
letting a board write only its own topics): a board with a wrong password, or one publishing
under another board's name, is refused, and the board says so in one line."""

import asyncio
from pathlib import Path

import pytest

from reedboard.controller.broadcast import mosquitto
from reedboard.controller.broadcast.address import parse_broker_url
from reedboard.controller.broadcast.board import Broadcaster
from reedboard.controller.broadcast.club import Club, follow
from reedboard.controller.broadcast.replay_publish import publish_trace

TRACE = Path(__file__).parent / "traces" / "offboard-takeback-two.jsonl"
USERS = {"table1": "first-secret", "table2": "second-secret", "club": "club-secret"}

if mosquitto.binary() is None:
    pytest.skip("no mosquitto binary (apt-get install mosquitto): the ACL tests are skipped", allow_module_level=True)


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
