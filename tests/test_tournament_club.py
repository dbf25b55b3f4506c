"""A club night run as a tournament end to end, through a real Mosquitto: a real `reedboard club
--tournament` (a process of its own), 16 players, a 5-round Swiss on 8 boards. Each board
learns its pairing from the club's retained topic; each game is generated (random legal Abalone
moves, then a resignation or an agreed draw) and published as a board publishes its journal,
its players those of the pairing. The club is killed (SIGKILL) during round 2 (half its games
in, the rest published while it is away, and everything published again as boards do) and
between rounds 3 and 4. At the end the pairings keep the rules, every result counts once and
as played, and the standings equal the plain recomputation."""

import asyncio
import json
import os
import random
import re
import signal
import subprocess
import time
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

import aiomqtt
import pytest
from command_line import start_reedboard
from conftest import free_port
from polling import until
from reedboard.controller.broadcast.club import mosquitto
from reedboard.controller.broadcast.messages import (
    encode,
    journal_message,
    state_message,
)
from reedboard.controller.broadcast.club.tournament import Tournament
from reedboard.controller.games import GAMES
from reedboard.controller.persist.journal import Journal
from tournament_checks import check_rules, plain_standings

pytestmark = [pytest.mark.system, pytest.mark.mosquitto]

BOARDS = [f"table{i}" for i in range(1, 9)]
NOW = datetime(2026, 11, 30, 19, 0, tzinfo=timezone.utc)
WAIT = 60.0


class ClubProcess:
    def __init__(self, tmp_path: Path, url: str, run: int) -> None:
        self.port = free_port()
        self.log = tmp_path / f"club-{run}.log"
        env = dict(os.environ, LANGUAGE="en", XDG_DATA_HOME=str(tmp_path / "xdg-data"))
        with open(self.log, "wb") as log:
            self.process = start_reedboard(
                "club", "--broker", url, "--listen", f"127.0.0.1:{self.port}", "--games", tmp_path / "club",
                "--tournament", tmp_path / "night", installed=None,
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env)
        said = until(lambda: re.search(r"\?token=(\S+)", self.text()), "the organiser's address")
        self.token = said.group(1)
        until(lambda: self.get("/api/club").get("connected"), "the club following the broker")

    def text(self) -> str:
        if self.process.poll() is not None:
            raise AssertionError(f"reedboard club ended ({self.process.returncode}): {self.log.read_text()[-2000:]}")
        return self.log.read_text("utf-8", "replace")

    def get(self, path: str) -> dict:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=10) as answer:
                return json.load(answer)
        except OSError:
            return {}

    def act(self, action: str, body: dict | None = None) -> dict:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/tournament/{action}",
                                         data=json.dumps(body or {}).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "X-Reedboard-Token": self.token})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def generated_game(folder: Path, players: dict, rng: random.Random, name: str) -> tuple[list[dict], str | None]:
    """An Abalone game of random legal moves ended by a resignation or an agreed draw, as the
    journal lines a board writes, and its winner (None: a draw)."""
    game = GAMES["abalone"]()
    lines = []
    journal = Journal.create(folder / name, game, {}, NOW, players=players,
                             written=lambda path, number, entry: lines.append(entry))
    t = 0.0
    for __ in range(rng.randrange(2, 7)):
        move = rng.choice(game.legal_moves())
        t += 1.5
        journal.append_entry({"type": "move", "t": t, "move": game.format_move(move)})
        game.push(move)
    ending = rng.choice(["black", "white", None])
    if ending is None:
        outcome = game.agree_draw()
    else:
        outcome = game.resign(game.other(ending))
    journal.append_entry({"type": "result", "t": t + 1, "result": outcome.result(game.players),
                          "reason": outcome.termination.value, "winner": outcome.winner})
    journal.close()
    return lines, ending


async def publish_game(client, board: str, game_id: str, lines: list[dict]) -> None:
    for seq, entry in enumerate(lines, 1):
        await client.publish(f"reedboard/boards/{board}/journal", encode(journal_message(board, game_id, seq, entry)),
                             qos=1)
    state = state_message(board, game_id, len(lines), lines[0], lines[1:], None)
    await client.publish(f"reedboard/boards/{board}/state", encode(state), qos=1, retain=True)


def test_a_sixteen_player_five_round_swiss_on_eight_boards_through_mosquitto_survives_kills(tmp_path):
    asyncio.run(_evening(tmp_path))


async def _evening(tmp_path: Path) -> None:
    broker = mosquitto.Mosquitto(tmp_path / "broker").start()
    club = ClubProcess(tmp_path, broker.url, 1)
    runs = 1
    rng = random.Random(16)
    played: dict[tuple[int, int], str | None] = {}  # (round, board number) -> the winner's colour
    try:
        club.act("new", {"name": "Thursday club", "game": "abalone", "rounds": 5, "boards": BOARDS})
        for i in range(16):
            club.act("register", {"name": f"Player {i + 1}", "rating": 1300 + 37 * ((i * 7) % 16)})
        async with aiomqtt.Client("127.0.0.1", broker.port, identifier="boards") as boards:
            heard: dict[str, dict] = {}

            async def listen() -> None:
                async for message in boards.messages:
                    heard[message.topic.value.rsplit("/", 1)[1]] = json.loads(message.payload)
            listener = asyncio.create_task(listen())
            await boards.subscribe("reedboard/club/pairing/+", qos=1)
            for number in range(1, 6):
                if number == 4:  # killed between rounds: nothing is lost
                    before = club.get("/api/tournament")
                    club.kill()
                    runs += 1
                    club = ClubProcess(tmp_path, broker.url, runs)
                    assert club.get("/api/tournament")["standings"] == before["standings"]
                club.act("pair")
                summary = club.get("/api/tournament")
                games = summary["rounds"][-1]["games"]
                assert summary["tournament"]["round"] == number and len(games) == 8
                for game in games:  # every board hears its game: the players by colour, round and number
                    pairing = await _until(lambda: (heard.get(game["board"]) or {}).get("pairing")
                                           if ((heard.get(game["board"]) or {}).get("pairing") or {}).get("round")
                                           == number else None, f"round {number}'s pairing on {game['board']}")
                    assert pairing["players"] == {"black": game["first"], "white": game["second"]}
                    assert pairing["number"] == game["number"] and pairing["text"].endswith(
                        f"round {number}, board {game['number']}")
                made = {}
                for game in games:
                    lines, winner = generated_game(tmp_path / "boards", {"black": game["first"],
                                                                         "white": game["second"]}, rng, game["board"])
                    made[game["board"]] = (f"r{number}-{game['board']}", lines)
                    played[(number, game["number"])] = winner
                order = list(made.items())
                if number == 2:  # killed during the round: half the games in, the rest sent while it is away
                    for board, (game_id, lines) in order[:4]:
                        await publish_game(boards, board, game_id, lines)
                    await _until(lambda: sum(g["result"] is not None for g in
                                             club.get("/api/tournament")["rounds"][-1]["games"]) == 4,
                                 "round 2's first four results")
                    club.kill()
                    for board, (game_id, lines) in order[4:]:
                        await publish_game(boards, board, game_id, lines)
                    runs += 1
                    club = ClubProcess(tmp_path, broker.url, runs)
                for board, (game_id, lines) in order:  # (round 2: every game again, as boards send what waits)
                    await publish_game(boards, board, game_id, lines)
                await _until(lambda: not club.get("/api/tournament")["tournament"]["waiting"],
                             f"round {number}'s results")
                if number == 1:  # a game sent again after its result counts once
                    board, (game_id, lines) = order[0]
                    await publish_game(boards, board, game_id, lines)
            listener.cancel()
        final = club.get("/api/tournament")
    finally:
        club.stop()
        broker.stop()
    night = Tournament(tmp_path / "night", archive=tmp_path / "club")
    assert night.warning is None
    check_rules(night)
    results = [e for e in night.events if e["type"] == "result"]
    assert len(results) == 40 and not [e for e in night.events if e["type"] == "correction"]
    for event in results:  # as played, once, each from its board's broadcast game
        winner = played[(event["round"], event["number"])]
        assert event["score"] == {None: 1, "black": 2, "white": 0}[winner]
        assert event["source"]["game"] == f"r{event['round']}-{event['source']['board']}"
    points, buchholz, sb, direct = plain_standings(night)
    assert {r["name"]: (r["points"], r["buchholz"], r["sonneborn_berger"], r["direct"])
            for r in final["standings"]} == {p: (points[p], buchholz[p], sb[p], direct[p]) for p in points}
    assert runs == 3


async def _until(condition, what: str, timeout: float = WAIT):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


def test_a_board_that_hears_its_pairing_names_the_players_on_its_page_and_for_its_next_game(tmp_path):
    from reedboard.controller.broadcast.publisher.board import Broadcaster, attach
    from reedboard.controller.broadcast.messages import pairing_message, read_pairing
    from reedboard.controller.session.play_session import PlaySession

    async def run():
        session = PlaySession("abalone", games_dir=tmp_path / "games")
        broadcaster = attach(session, "mqtt://127.0.0.1:1", name="table3")
        assert isinstance(broadcaster, Broadcaster)
        message = pairing_message("table3", {"event": "Thursday club", "round": 2, "number": 3, "game": "abalone",
                                             "text": "Thursday club, round 2, board 3", "clock": None,
                                             "players": {"black": "Ann Lee", "white": "Bo Chen"}})
        broadcaster._paired(read_pairing(json.loads(encode(message))))
        await _until(lambda: session.snapshot().get("names") == {"black": "Ann Lee", "white": "Bo Chen"},
                     "the names on the board's page", 10)
        broadcaster._paired(read_pairing({"pairing": {"players": {"black": "<b>", "red": "x"}}}))  # not one: kept
        assert session.players == {"black": "Ann Lee", "white": "Bo Chen"}
        await broadcaster.stop()
    asyncio.run(run())
