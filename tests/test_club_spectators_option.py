"""`reedboard club --spectators URL` (docs/broadcast.md, "Spectators through the broker"): the
broker's WebSocket address the spectators' page reads from, said in the club's start-up lines and
handed to the page; a bad one is one line and exit 2. `reedboard club --help` writes the
organiser's action as optional, since the club runs without one. The tournament's word for the
spectators holds the standings and the round's games by name, nothing of the organiser's."""

import asyncio
import json
import urllib.error
import urllib.request

import pytest

from command_line import run_command
from conftest import free_port
from reedboard.controller.broadcast.address import BrokerAddress
from reedboard.controller.broadcast.club.tournament import Tournament
from reedboard.controller.commands import club_command
from reedboard.controller.commands.cli import build_parser

pytestmark = pytest.mark.system


@pytest.mark.parametrize("url", ["http://club.example.org:15675/ws", "club.example.org:15675", "ws://",
                                 "ws://spectator:secret@club.example.org/ws", "ws://club.example.org:99999/ws",
                                 "ws://club example.org/ws", "mqtt://club.example.org"])
def test_a_bad_spectators_address_is_one_line_and_exit_2(url, capsys):
    status, out, err = run_command(club_command, ["club", "--spectators", url], capsys)
    assert status == 2 and not out
    assert err.count("\n") == 1 and "--spectators" in err and "ws://HOST[:PORT][/PATH]" in err
    assert "Traceback" not in err


def test_the_club_says_where_the_spectators_read_and_tells_their_page(tmp_path, capsys):
    web = free_port()
    spectators = "wss://club.example.org:15676/ws"
    assert club_command.spectators_url(spectators) == spectators

    async def main() -> dict:
        started = asyncio.Event()
        # a broker nobody answers at: the club keeps trying, its page is served all the same
        club = asyncio.create_task(club_command.serve_club(
            BrokerAddress("127.0.0.1", free_port()), ("127.0.0.1", web), ("127.0.0.1", 0), tmp_path / "club",
            started, spectators=spectators))
        await started.wait()
        try:
            for _ in range(500):  # until the page's server has begun answering
                try:
                    return await asyncio.to_thread(lambda: json.load(
                        urllib.request.urlopen(f"http://127.0.0.1:{web}/spectate/config", timeout=10)))
                except urllib.error.URLError:
                    await asyncio.sleep(0.02)
            raise AssertionError("the club's page never answered")
        finally:
            club.cancel()
            await asyncio.gather(club, return_exceptions=True)

    config = asyncio.run(main())
    assert config["broker"] == spectators and config["prefix"] == "reedboard"
    out = capsys.readouterr().out
    assert f"the spectators' page is http://127.0.0.1:{web}/spectate, reading the boards from the broker at" \
           f" {spectators}" in out


def test_the_club_s_usage_shows_its_action_as_optional():
    (commands,) = [a for a in build_parser()._actions if a.dest == "command"]
    usage = " ".join(commands.choices["club"].format_usage().split())
    assert usage.endswith("[--tournament DIR] [--spectators URL] [ACTION ...]")
    assert usage.count("ACTION") == 1
    assert build_parser().parse_args(["club", "--spectators", "ws://127.0.0.1:15675/ws"]).organise is None


def test_the_spectators_word_of_the_tournament(tmp_path):
    night = Tournament.create(tmp_path / "night", archive=tmp_path, name="Thursday club", game="abalone",
                              colours=["black", "white"], rounds=3, boards=["table1", "table2"])
    assert night.spectators()["pairings"] is None  # nothing paired yet
    for name, rating in (("Ann Lee", 1700), ("Bo Chen", 1600), ("Cy Ode", 1500), ("Di Pop", 1400), ("Ed Rus", 1300)):
        night.register(name, rating=rating)
    night.pair_next()
    night.enter_result(1, 1, "1-0")
    night.correct(1, 1, "0-1", "the wrong box was ticked")
    said = night.spectators()
    assert said["tournament"] == {"name": "Thursday club", "game": "abalone", "colours": ["black", "white"],
                                  "system": "swiss", "round": 1, "rounds": 3, "finished": False}
    games = said["pairings"]["games"]
    assert [(g["number"], g["board"], g["result"]) for g in games] == [(1, "table1", "0-1"), (2, "table2", None)]
    assert said["pairings"]["bye"] == "Ed Rus"  # five players: the lowest has the round off, a point
    winner = games[0]["second"]  # 0-1, as corrected
    top = said["standings"][:2]  # level on points and every tie-break: shared first place
    assert {row["name"] for row in top} == {winner, "Ed Rus"}
    assert [(row["place"], row["points"]) for row in top] == [("1-2", 1.0), ("1-2", 1.0)]
    assert {row["name"] for row in said["standings"]} == {"Ann Lee", "Bo Chen", "Cy Ode", "Di Pop", "Ed Rus"}
    text = json.dumps(said)
    assert "wrong box" not in text and '"id"' not in text and "first_id" not in text  # the organiser's stay his
    night.close()
