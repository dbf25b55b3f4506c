"""The link to a serial board: a pulled cable is said (the lights cannot say it), the game
waits for the board and takes it up again from the board's full state; an idle board lets the
host sleep.

The board is the fake board (the Pico firmware's own logic behind a real pty), reached through
a stable device name as a Pico on /dev/ttyACM0 would be. Pulling the cable closes the pty, so
the host's reads fail and opening the name fails; plugging it in again serves a freshly booted
fake board holding the pieces as they stand on the table.
"""

from __future__ import annotations

import asyncio
import random

import pytest

from reedboard.controller.games import BigBalls
from reedboard.controller.session.play_session import PlaySession, ScriptedDie
from reedboard.controller.core.reconcile import Settings
from reedboard.hal.board import load_board
from reedboard.hal.mock.fakeboard import CountingPort, FakeBoard
from reedboard.hal.interfaces import Link, LinkState
from reedboard.hal.serial_board import SerialBoard

from fake_pico import FakePico
from serial_cable import START, UNPLUGGED, Cable

pytestmark = pytest.mark.component

FAST = Settings(settle=0.15, grace=0.3)


async def until(condition, timeout: float = 5.0, what: str = "the condition") -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def next_link(links, state: LinkState, timeout: float = 5.0) -> Link:
    """The first link report in that state (reports on the way are skipped)."""
    while True:
        link = await asyncio.wait_for(links.__anext__(), timeout)
        if link.state is state:
            return link


async def drain(stream) -> None:
    async for _ in stream:
        pass


# --- the hal: the link's state ----------------------------------------------------------------------
def test_the_link_follows_the_cable(cable):
    board = SerialBoard(cable.fake.board, Cable.NAME, serial_factory=cable.factory)
    assert board.link.state is LinkState.CONNECTING

    async def main():
        frames = asyncio.create_task(drain(board.frames()))
        links = board.links()
        connected = await next_link(links, LinkState.CONNECTED)
        assert board.link == connected
        cable.pull()
        lost = await next_link(links, LinkState.LOST)
        assert lost.why == "unplugged" and lost.t >= connected.t and not board.connected
        cable.plug(START)
        back = await next_link(links, LinkState.CONNECTED)
        assert back.t >= lost.t and board.stats.reconnects == 1
        # a new watcher hears the state now first
        assert (await asyncio.wait_for(board.links().__anext__(), 2.0)).state is LinkState.CONNECTED
        frames.cancel()
        await links.aclose()

    try:
        asyncio.run(main())
    finally:
        board.close()


def test_a_board_that_does_not_answer_or_is_refused_is_a_lost_link():
    silent = FakePico(load_board(game="bigballs"), answer_v=False)
    other = FakeBoard("bigballs").start()
    boards = [SerialBoard(silent.board, silent.path, silence=0.3),
              SerialBoard(load_board(game="offboard"), other.port)]  # a 4x7 Pico for an 8x10 board

    async def main():
        assert (await next_link(boards[0].links(), LinkState.LOST)).why == "silent"
        links = boards[1].links()  # the refusal ends frames() with BoardRefused, not links()
        assert (await next_link(links, LinkState.LOST)).why == "refused"
        await links.aclose()

    try:
        asyncio.run(main())
    finally:
        for board in boards:
            board.close()
        silent.unplug()
        other.stop()


# --- the play session: the page says it, the referee waits ---------------------------------------
def test_a_pulled_cable_is_said_and_the_game_waits_for_the_board(cable, tmp_path):
    board = SerialBoard(cable.fake.board, Cable.NAME, serial_factory=cable.factory)
    session = PlaySession(BigBalls(), games_dir=tmp_path, backend=board, settings=FAST, setup="given",
                          die=ScriptedDie([3]), rng=random.Random(3))

    async def main():
        await session.start()
        try:
            await until(lambda: session.snapshot()["phase"] == "play", what="the game to start")
            snapshot = session.snapshot()
            assert snapshot["link"]["state"] == "connected"
            session.press("die")
            await until(lambda: session.snapshot()["roll"] == 3, what="the roll")

            frames = []
            referee = session.referee
            taken = referee.frame
            referee.frame = lambda t, occupied: (frames.append(frozenset(occupied)), taken(t, occupied))[1]

            cable.pull()
            await until(lambda: session.snapshot()["link"]["state"] == "lost", what="the link to be lost")
            snapshot = session.snapshot()
            assert snapshot["link"]["why"] == "unplugged" and snapshot["link"]["text"] == UNPLUGGED
            assert snapshot["notes"][0]["text"] == UNPLUGGED and snapshot["notes"][0]["kind"] == "link"
            # while the cable is out, the players move stone 3 c1-d1; nothing reaches the referee
            await asyncio.sleep(4 * FAST.grace)
            assert frames == [] and not [n for n in session.snapshot()["notes"] if n["kind"] == "illegal"]
            assert session.snapshot()["record"] == [] and session.snapshot()["phase"] == "rolled"

            cable.plug(START - {"c1"} | {"d1"})
            await until(lambda: session.snapshot()["link"]["state"] == "connected", what="the board to be back")
            await until(lambda: session.snapshot()["record"] == ["3 c1-d1"], what="the move made while unplugged")
            snapshot = session.snapshot()
            texts = [n["text"] for n in snapshot["notes"]]
            assert texts.index("the board is back") < texts.index(UNPLUGGED)  # newest first
            assert [t for t in texts if t == UNPLUGGED] == [UNPLUGGED]  # said once, not once a heartbeat
            assert not [n for n in snapshot["notes"] if n["kind"] == "illegal"]
            assert frames == [START - {"c1"} | {"d1"}]  # the board's full state, once: no flood
            assert snapshot["link"]["text"] == ""
        finally:
            await session.stop()

    try:
        asyncio.run(main())
    finally:
        board.close()


def test_a_simulated_board_is_always_connected(tmp_path):
    session = PlaySession("bigballs", games_dir=tmp_path, settings=FAST, setup="given")

    async def main():
        await session.start()
        try:
            assert session.snapshot()["link"] == {"state": "connected", "why": "", "since": None, "text": ""}
        finally:
            await session.stop()

    asyncio.run(main())


# --- the reader sleeps while the board is idle --------------------------------------------------------
def test_an_idle_board_costs_a_read_or_two_a_heartbeat(cable):
    ports: list[CountingPort] = []

    def factory(port, **kwargs):
        ports.append(CountingPort(cable.factory(port, **kwargs)))
        return ports[-1]

    board = SerialBoard(cable.fake.board, Cable.NAME, serial_factory=factory)
    heartbeats = 4

    async def main():
        frames = board.frames()
        assert (await asyncio.wait_for(frames.__anext__(), 5.0)).occupied == START
        pump = asyncio.create_task(drain(frames))
        lines, reads = board.stats.lines_ok, ports[-1].reads
        await until(lambda: board.stats.lines_ok >= lines + heartbeats, what="heartbeats")
        counted = ports[-1].reads - reads
        assert counted <= 2 * heartbeats + 2, f"{counted} reads for {heartbeats} heartbeats"
        cable.fake.lift("a1")  # a change still arrives
        await until(lambda: board.occupied == START - {"a1"}, what="the change")
        pump.cancel()

    try:
        asyncio.run(main())
    finally:
        board.close()
