"""A board learns its tournament game over a real Mosquitto (docs/tournament.md): the club pairs
round 2 of four players on two boards, board `table2` hears its game on the retained pairing
topic, starts its next game with the pairing's players, and its journal's header, the game's
header the club receives and stores, and the broadcast state carry the tournament, the round,
the board number and the players by colour, and its game clock is the tournament's time control.
The game's result, broadcast, is the round's."""

import asyncio
import contextlib
import json

import aiomqtt
import pytest

from reedboard.controller.broadcast.club import mosquitto
from reedboard.controller.core.clock import ClockSettings
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.broadcast.address import parse_broker_url
from reedboard.controller.broadcast.publisher.board import attach
from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.broadcast.club.follow import follow
from reedboard.controller.broadcast.club.tournament import Tournament
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.session.play_session import PlaySession

pytestmark = [pytest.mark.system, pytest.mark.mosquitto]
WAIT = 20.0


async def until(condition, what: str, timeout: float = WAIT):
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = condition()
        if value:
            return value
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def test_a_board_hears_its_pairing_and_its_game_s_header_carries_the_round_board_and_players(tmp_path):
    broker = mosquitto.Mosquitto(tmp_path / "broker").start()
    try:
        asyncio.run(_evening(tmp_path, broker.url, broker.port))
    finally:
        broker.stop()


async def _evening(tmp_path, url: str, port: int) -> None:
    night = Tournament.create(tmp_path / "night", archive=tmp_path / "club", name="Thursday club", game="abalone",
                              colours=["black", "white"], rounds=3, boards=["table1", "table2"],
                              clock={"minutes": 15, "increment": 10})
    for name, rating in (("Ann Lee", 1700), ("Bo Chen", 1600), ("Cy Ode", 1500), ("Di Pop", 1400)):
        night.register(name, rating=rating)
    night.pair_next()
    for game in night.pairing_rows(1):
        night.enter_result(1, game["number"], "1-0")
    night.pair_next()
    (paired,) = [row for row in night.pairing_rows(2) if row["board"] == "table2"]
    players = {"black": paired["first"], "white": paired["second"]}
    club = Club(tmp_path / "club", tournament=night)
    ready = asyncio.Event()
    following = asyncio.create_task(follow(club, parse_broker_url(url), identifier="club", retry=(0.05, 0.2),
                                           ready=ready))
    session = PlaySession("abalone", games_dir=tmp_path / "board", settings=Settings(settle=0.3, grace=0.5))
    broadcaster = attach(session, url, name="table2", retry=(0.05, 0.2), resend=(0.5, 1.0))
    try:
        await ready.wait()
        async with aiomqtt.Client("127.0.0.1", port, identifier="watcher") as watcher:
            await watcher.subscribe("reedboard/boards/table2/state", qos=1)
            await broadcaster.start()
            # the board hears the club's retained pairing and starts its game with the pairing's players
            await until(lambda: (broadcaster.pairing or {}).get("round") == 2, "the pairing on table2")
            assert broadcaster.pairing["players"] == players and broadcaster.pairing["number"] == 2
            journal = await until(lambda: session.referee and getattr(session.referee.journal, "path", None)
                                  and session.occasion and session.referee.journal.path, "the paired game's journal")
            header = read_journal(journal).header
            assert (header["event"], header["round"], header["table"], header["players"]) == (
                "Thursday club", 2, 2, players)
            # the tournament's time control on the board's clock: 15 minutes each, 10 s a move
            assert session.game_clock == ClockSettings(15, 10)
            assert header["clock"] == {"minutes": 15, "increment": 10}
            snapshot = session.snapshot()
            assert snapshot["names"] == players
            assert snapshot["occasion"] == {"event": "Thursday club", "round": 2, "table": 2}

            # a move each, by hand on the table, then White resigns: the lines go to the club through the broker
            for number, clicks in enumerate((("A1", "D4"), ("H9", "G9")), 1):  # A1B2 (a line of three), H9G9
                for cell in clicks:
                    session.click(cell)
                await until(lambda: len(session.referee.game.move_stack) == number, f"move {number}")
            session.resign("white")
            assert await broadcaster.confirmed(WAIT), "the club did not confirm the board's lines"

            # the game's header as the club has it, stored in its own journal, and the broadcast state
            detail = club.detail("table2")
            received = detail["lines"][0]["entry"]
            assert (received["event"], received["round"], received["table"], received["players"]) == (
                "Thursday club", 2, 2, players)
            assert (detail["event"], detail["round"], detail["table"]) == ("Thursday club", 2, 2)
            stored = read_journal(tmp_path / "club" / detail["journal"]).header
            assert (stored["event"], stored["round"], stored["table"], stored["players"]) == (
                "Thursday club", 2, 2, players)

            async def retained_state() -> dict:
                async for message in watcher.messages:
                    state = json.loads(message.payload)
                    if state.get("result"):
                        return state
            state = await asyncio.wait_for(retained_state(), WAIT)
            assert (state["event"], state["round"], state["table"], state["players"]) == (
                "Thursday club", 2, 2, players)
            assert state["lines"][0]["round"] == 2
            # and the round's game on table2 has its result from the board
            await until(lambda: night.rounds[2][1].score is not None, "the result in the tournament")
            assert night.rounds[2][1].score == 2 and night.rounds[2][1].source["board"] == "table2"
            assert state["clock"]["settings"] == {"minutes": 15, "increment": 10}
            # its game played, the board has none in the round: its next games are on its own clock again
            await until(lambda: broadcaster.pairing is None, "the board's empty pairing")
            assert session.game_clock is None and session.pairing is None
    finally:
        await broadcaster.stop()
        await session.stop()
        following.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await following
        club.close()
        night.close()
