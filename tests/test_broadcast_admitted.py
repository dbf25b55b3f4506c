"""Admitted boards on the club's own broker (Mosquitto when installed, and amqtt): only boards
named in the club's configuration get in, each writing only its own topics; the standings
count only admitted boards, and a result only after the game's moves."""

import asyncio
import contextlib
import aiomqtt
import pytest

from reedboard.controller.broadcast.club import mosquitto
from reedboard.controller.broadcast.club.broker import EmbeddedBroker
from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.broadcast.club.follow import follow
from reedboard.controller.commands.club_command import read_boards
from reedboard.controller.broadcast.messages import encode, journal_message

from club_lines import board_lines

pytestmark = pytest.mark.system

BOARDS = {"table1": "first-secret", "table2": "second-secret"}
KINDS = ["amqtt", pytest.param("mosquitto", marks=pytest.mark.mosquitto)]


async def publish(port: int, user: str | None, password: str | None, topic_board: str, game: str,
                  lines: list[dict]) -> None:
    async with aiomqtt.Client("127.0.0.1", port, username=user, password=password,
                              identifier=f"reedboard-board-{user}" if user else "stranger") as client:
        for seq, entry in enumerate(lines, 1):
            await client.publish(f"reedboard/boards/{topic_board}/journal",
                                 encode(journal_message(topic_board, game, seq, entry)), qos=1)


@pytest.mark.parametrize("kind", KINDS)
def test_only_admitted_boards_publish_and_only_under_their_names(kind, tmp_path):
    honest = board_lines(tmp_path / "a", players={"white": "Ann", "black": "Bo"})  # black wins
    forged = board_lines(tmp_path / "b", players={"white": "Eve", "black": "Mallory"})
    no_moves = [dict(honest[0], players={"white": "Ann", "black": "Bo"}),
                {"type": "result", "t": 1.0, "result": "1-0", "reason": "resign", "winner": "white"}]

    async def main():
        broker = EmbeddedBroker("127.0.0.1", mosquitto.free_port(), boards=BOARDS, kind=kind)
        await broker.start()
        club = Club(tmp_path / "club", admitted=set(BOARDS))
        ready = asyncio.Event()
        task = asyncio.create_task(follow(club, broker.address, ready=ready))
        try:
            await ready.wait()
            refused = []
            for user, password in ((None, None), ("table1", "wrong"), ("table9", "x")):
                try:
                    await publish(broker.port, user, password, "table1", "forged", forged)
                except aiomqtt.MqttError:
                    refused.append(user)
            await publish(broker.port, "table2", "second-secret", "table1", "forged", forged)  # another's name
            for number in range(20):  # results with no moves before them
                await publish(broker.port, "table2", "second-secret", "table2", f"quick{number}", no_moves)
            await publish(broker.port, "table1", "first-secret", "table1", "honest", honest)
            while not club.boards.get("table1") or club.boards["table1"].games.get("honest") is None \
                    or club.boards["table1"].games["honest"].seq < len(honest):
                await asyncio.sleep(0.05)
            return refused, club
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await broker.stop()
    refused, club = asyncio.run(asyncio.wait_for(main(), 60))
    assert refused == [None, "table1", "table9"]
    assert set(club.boards["table1"].games) == {"honest"}  # nothing forged reached the club
    assert {row["player"]: row["wins"] for row in club.standings()} == {"Bo": 1, "Ann": 0}
    club.close()


def test_the_standings_count_admitted_boards_only(tmp_path):
    (tmp_path / "club").mkdir()
    lines = board_lines(tmp_path, players={"white": "Ann", "black": "Bo"})
    club = Club(tmp_path / "club", admitted={"table1"})
    for board in ("table1", "table3"):
        for seq, entry in enumerate(lines, 1):
            club.receive(f"reedboard/boards/{board}/journal", encode(journal_message(board, "g", seq, entry)))
    assert club.boards["table3"].games["g"].seq == len(lines)  # shown
    assert [row["games"] for row in club.standings()] == [1, 1]  # counted once: table1's
    club.close()


def test_the_boards_file_is_checked_in_one_line(tmp_path):
    good = tmp_path / "boards.toml"
    good.write_text('[boards]\ntable1 = "s1"\ntable2 = "s2"\n', "utf-8")
    assert read_boards(good) == {"table1": "s1", "table2": "s2"}
    for text in ('[boards]\n"bad name" = "s"\n', "[boards]\n", '[boards]\nclub = "s"\n', '[boards]\nt1 = 3\n',
                 "not toml ["):
        good.write_text(text, "utf-8")
        with pytest.raises(ValueError) as error:
            read_boards(good)
        assert "\n" not in str(error.value) and str(good) in str(error.value)
