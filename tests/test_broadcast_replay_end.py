"""How `reedboard replay TRACE --broadcast URL` ends, through real Mosquitto: with the club
following, it waits for the club's confirmations and says no line waits when the club stored
every one; refused by the broker, it stops at once, in one line, with a failure."""

import asyncio
import argparse
import contextlib
import os
import subprocess
from pathlib import Path

import pytest

from reedboard.controller.broadcast.club import mosquitto
from reedboard.controller.broadcast.address import parse_broker_url
from reedboard.controller.broadcast.publisher.arguments import add_replay_broadcast_arguments
from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.broadcast.club.follow import follow
from reedboard.controller.commands.replay_command import run_broadcast

from command_line import run_reedboard

pytestmark = [pytest.mark.system, pytest.mark.mosquitto]

TRACE = Path(__file__).parent / "traces" / "bigballs-game-to-a7.jsonl"  # 32 journal lines, 26 s at its pace
GUARD = 20  # s at most (met, the test goes on at once); the refused replay, run on, takes a minute


def replay_arguments(url: str, name: str, speed: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("trace")
    add_replay_broadcast_arguments(parser)
    return parser.parse_args([str(TRACE), "--broadcast", url, "--name", name, "--speed", speed])


def test_a_replay_the_club_stored_whole_ends_with_nothing_waiting(tmp_path, capfd):
    async def main():
        club = Club(tmp_path / "club")
        ready = asyncio.Event()
        following = asyncio.create_task(follow(club, parse_broker_url(broker.url), identifier="club",
                                               retry=(0.05, 0.2), ready=ready))
        try:
            await ready.wait()
            code = await asyncio.to_thread(run_broadcast, replay_arguments(broker.url, "demo", "0"))
            return code, {game_id: game.seq for game_id, game in club.boards["demo"].games.items()}
        finally:
            following.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await following
            club.close()

    with mosquitto.Mosquitto(tmp_path / "mosquitto") as broker:
        code, stored = asyncio.run(asyncio.wait_for(main(), GUARD))
    said = capfd.readouterr()
    assert code == 0
    assert list(stored.values()) == [32]  # the club has the game whole
    assert "confirm" not in said.err + said.out  # so no line waits for its confirmation, and none is said to


def test_a_replay_the_broker_refuses_stops_in_one_line_with_a_failure(tmp_path):
    with mosquitto.Mosquitto(tmp_path / "mosquitto", users={"table1": "first-secret"}) as broker:
        url = f"mqtt://table1:wrong-secret@127.0.0.1:{broker.port}"
        try:
            ended = run_reedboard("replay", TRACE, "--broadcast", url, "--name", "table1", installed=None,
                                  timeout=GUARD, env=dict(os.environ, LANGUAGE="en"))
        except subprocess.TimeoutExpired as error:
            raise AssertionError(f"the refused replay goes on: {error.stderr!r}") from None
    lines = (ended.stdout + ended.stderr).splitlines()
    assert ended.returncode != 0
    assert len(lines) == 1 and "refused board 'table1'" in lines[0] and lines[0].endswith("not broadcasting"), lines
