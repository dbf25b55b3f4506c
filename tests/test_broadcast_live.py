"""The broadcast end to end, through a real broker: Mosquitto (Debian's) and the club's own (amqtt).

Simulated boards publish recorded games (tests/traces) as boards do (replay_publish); the
club follows the broker and is read through its JSON API. Each test steps the boards with a
hook before each journal entry, so that the broker is killed, or a board's connection cut,
at a given move, and the board's game goes on meanwhile (its journal is written whatever the
broker does). Every line must reach the club's API exactly once, in order.
"""

import asyncio
import contextlib
import json
import subprocess
import sys
from pathlib import Path

import httpx2
import pytest

from reedboard.controller.broadcast.address import BrokerAddress, parse_broker_url
from reedboard.controller.broadcast.publisher.board import Broadcaster
from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.broadcast.club.follow import follow
from reedboard.controller.broadcast.club.app import create_club_app
from reedboard.controller.broadcast.club import mosquitto
from reedboard.controller.broadcast.publisher.replay import publish_trace
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.persist.export import export_lines

pytestmark = pytest.mark.system

TRACES = Path(__file__).parent / "traces"
GAMES = ["bigballs-game-to-a7", "offboard-game-to-six", "abalone-push-off-edge-first"]
FAST = {"retry": (0.05, 0.2), "timeout": 3.0}  # a test's board tries again at once
LIMIT = 90  # s for one test, whatever happens


AMQTT = """
import asyncio, sys
from reedboard.controller.broadcast.club.broker import EmbeddedBroker
async def main():
    await EmbeddedBroker("127.0.0.1", int(sys.argv[1]), kind="amqtt").start()
    print("listening", flush=True)
    await asyncio.Event().wait()
asyncio.run(main())
"""


class AmqttBroker:
    """The club's embedded broker, in a process of its own so that it can be killed (amqtt keeps
    nothing across a restart: every retained message and session is lost)."""

    name = "amqtt"

    def __init__(self, tmp_path: Path) -> None:
        self.port = mosquitto.free_port()
        self.process = None

    url = property(lambda self: f"mqtt://127.0.0.1:{self.port}")

    async def start(self):
        await asyncio.to_thread(self.start_now)

    def start_now(self):
        self.process = subprocess.Popen([sys.executable, "-c", AMQTT, str(self.port)], stdout=subprocess.PIPE)
        assert self.process.stdout.readline().strip() == b"listening"

    async def kill(self):
        await asyncio.to_thread(self.ended)

    async def stop(self):
        await self.kill()

    def ended(self):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if self.process is not None:
            self.process.stdout.close()


class MosquittoBroker:
    name = "mosquitto"

    def __init__(self, tmp_path: Path) -> None:
        self.process = mosquitto.Mosquitto(tmp_path / "mosquitto")

    url = property(lambda self: self.process.url)

    async def start(self):
        await asyncio.to_thread(self.process.start)

    async def kill(self):
        await asyncio.to_thread(self.process.kill)

    async def stop(self):
        await asyncio.to_thread(self.process.stop)

    def ended(self):
        self.process.stop()


@pytest.fixture(params=["amqtt", pytest.param("mosquitto", marks=pytest.mark.mosquitto)])
def broker(request, tmp_path):
    broker = (AmqttBroker if request.param == "amqtt" else MosquittoBroker)(tmp_path)
    yield broker
    broker.ended()  # whatever the test left running


def run(coroutine):
    asyncio.run(asyncio.wait_for(coroutine, LIMIT))


@contextlib.asynccontextmanager
async def club_on(url: str, folder: Path):
    """A club following the broker, and an HTTP client on its API (in this loop)."""
    address = parse_broker_url(url)
    club = Club(folder)
    ready = asyncio.Event()
    task = asyncio.create_task(follow(club, address, identifier=f"club-{folder.name}", retry=(0.05, 0.2),
                                      ready=ready))
    await ready.wait()
    transport = httpx2.ASGITransport(app=create_club_app(club))
    async with httpx2.AsyncClient(transport=transport, base_url="http://club") as api:
        try:
            yield club, api
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            club.close()


async def settled(api, boards: dict[str, Path], timeout: float = 20.0) -> dict[str, dict]:
    """Each board's detail from the API, once it holds every line of the board's journal."""
    async def wait() -> dict[str, dict]:
        while True:
            details = {name: (await api.get(f"/api/boards/{name}")) for name in boards}
            if all(r.status_code == 200 for r in details.values()):
                details = {name: r.json() for name, r in details.items()}
                if all(details[name]["seq"] == len(journal_lines(path)) for name, path in boards.items()):
                    return details
            await asyncio.sleep(0.05)
    return await asyncio.wait_for(wait(), timeout)


async def all_offline(api, timeout: float = 20.0) -> list[dict]:
    """The boards' summaries once none is online any more (or as they are after `timeout`)."""
    async def wait() -> list[dict]:
        while True:
            summaries = (await api.get("/api/boards")).json()
            if not any(s["online"] for s in summaries):
                return summaries
            await asyncio.sleep(0.05)
    try:
        return await asyncio.wait_for(wait(), timeout)
    except asyncio.TimeoutError:
        return (await api.get("/api/boards")).json()


def journal_lines(folder: Path) -> list[dict]:
    (path,) = [p for p in folder.glob("*.jsonl") if not p.name.endswith(".trace.jsonl")]
    return [json.loads(line) for line in path.read_text().splitlines()]


def check_exactly_once(detail: dict, folder: Path, club_folder: Path) -> None:
    """The club's API has every journal line of the board once, in order, and its own journal
    of the game gives the board's record."""
    lines = journal_lines(folder)
    assert [line["seq"] for line in detail["lines"]] == list(range(1, len(lines) + 1))
    assert [line["entry"] for line in detail["lines"]] == lines
    (board_journal,) = [p for p in folder.glob("*.jsonl") if not p.name.endswith(".trace.jsonl")]
    assert export_lines(club_folder / detail["journal"]) == export_lines(board_journal)
    assert read_journal(club_folder / detail["journal"]).damage is None


def test_boards_at_once_reach_the_club_once_in_order(broker, tmp_path):
    async def main():
        await broker.start()
        async with club_on(broker.url, tmp_path / "club") as (club, api):
            boards = {f"table{i}": tmp_path / f"table{i}" for i in range(1, len(GAMES) + 1)}
            sent = await asyncio.gather(*(
                publish_trace(TRACES / f"{game}.jsonl", broker.url, name, speed=0, games_dir=folder)
                for game, (name, folder) in zip(GAMES, boards.items())))
            assert sent == [True] * len(GAMES)
            details = await settled(api, boards)
            for name, folder in boards.items():
                check_exactly_once(details[name], folder, tmp_path / "club")
            summaries = await all_offline(api)  # each said goodbye at its end (heard after its last line)
            assert [s["name"] for s in summaries] == list(boards)
            assert all(s["online"] is False for s in summaries)
            finished = [s for s in summaries if s["result"]]
            assert finished and all(s["last_move"] for s in summaries)
            standings = (await api.get("/api/standings")).json()
            assert sum(row["games"] for row in standings) == 2 * len(finished)
        await broker.stop()
    run(main())


def test_broker_killed_and_restarted_mid_game(broker, tmp_path):
    """The broker dies at the fifth entry and comes back at the twelfth: the boards' games go on
    meanwhile, and afterwards the club has every line once, in order."""
    async def main():
        await broker.start()
        async with club_on(broker.url, tmp_path / "club") as (club, api):
            boards = {"east": tmp_path / "east", "west": tmp_path / "west"}
            broadcasters = {name: Broadcaster(parse_broker_url(broker.url), name, **FAST) for name in boards}
            written_while_down = []
            down = asyncio.Event()
            back = asyncio.Event()

            async def step_east(index, entry):
                if index == 5:
                    assert await broadcasters["east"].flushed(10)  # connected, the first lines taken
                    await broker.kill()
                    down.set()
                elif index == 12:
                    await broker.start()
                    back.set()
                elif down.is_set() and not back.is_set():
                    # the game goes on while the broker is away: the entry before was written
                    written_while_down.append(len(journal_lines(boards["east"])))
                await asyncio.sleep(0.01)

            async def step_west(index, entry):
                if index == 3:
                    await down.wait()
                await asyncio.sleep(0.01)

            sent = await asyncio.gather(
                publish_trace(TRACES / "bigballs-game-to-a7.jsonl", broker.url, "east", games_dir=boards["east"],
                              broadcaster=broadcasters["east"], step=step_east),
                publish_trace(TRACES / "offboard-game-to-six.jsonl", broker.url, "west", games_dir=boards["west"],
                              broadcaster=broadcasters["west"], step=step_west))
            assert sent == [True, True]
            for broadcaster in broadcasters.values():
                await broadcaster.stop()
            assert len(written_while_down) >= 5 and written_while_down == sorted(written_while_down)
            assert broadcasters["east"].connections >= 2  # it reconnected
            details = await settled(api, boards)
            for name, folder in boards.items():
                check_exactly_once(details[name], folder, tmp_path / "club")
        await broker.stop()
    run(main())


class Cuttable:
    """A TCP relay in front of the broker: `cut()` drops the board's connection and refuses new
    ones (a Wi-Fi gone), `restore()` lets it through again."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = mosquitto.free_port()
        self.server: asyncio.Server | None = None
        self.links: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)

    async def _relay(self, reader, writer) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self.links |= {writer, up_writer}

        async def pipe(source, sink):
            with contextlib.suppress(Exception):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self.links -= {writer, up_writer}

    async def cut(self) -> None:
        self.server.close()
        for writer in list(self.links):
            writer.transport.abort()
        await self.server.wait_closed()

    async def restore(self) -> None:
        await self.start()


def test_board_connection_cut_and_restored(broker, tmp_path):
    async def main():
        await broker.start()
        target = int(broker.url.rsplit(":", 1)[1])
        relay = Cuttable(target)
        await relay.start()
        said = []
        async with club_on(broker.url, tmp_path / "club") as (club, api):
            folder = tmp_path / "north"
            address = BrokerAddress("127.0.0.1", relay.port)
            broadcaster = Broadcaster(address, "north", say=said.append, **FAST)
            states = []

            async def step(index, entry):
                if index == 4:
                    assert await broadcaster.flushed(10)
                    await relay.cut()
                elif index == 10:
                    await relay.restore()
                elif 4 < index < 10:
                    states.append(broadcaster.state)
                await asyncio.sleep(0.02)

            assert await publish_trace(TRACES / "bigballs-game-to-a7.jsonl", address, "north", games_dir=folder,
                                       broadcaster=broadcaster, step=step)
            await broadcaster.stop()
            assert "offline" in states  # it noticed, and the game went on
            assert any("cannot be reached" in line for line in said) and all("\n" not in line for line in said)
            assert broadcaster.connections >= 2
            details = await settled(api, {"north": folder})
            check_exactly_once(details["north"], folder, tmp_path / "club")
        await relay.cut()
        await broker.stop()
    run(main())


def test_a_session_is_broadcast_from_its_journal_hook(broker, tmp_path):
    """`attach` on a play session: its journal lines (a resign) and its own page's snapshot
    reach the club."""
    from reedboard.controller.broadcast import attach
    from reedboard.controller.session.play_session import PlaySession
    from reedboard.controller.games import BigBalls

    async def main():
        await broker.start()
        async with club_on(broker.url, tmp_path / "club") as (club, api):
            session = PlaySession(BigBalls.example_start() if hasattr(BigBalls, "example_start") else "bigballs",
                                  games_dir=tmp_path / "board", players={"white": "Ann", "black": "Bo"})
            broadcaster = attach(session, broker.url, "home", snapshot_every=0.1, **FAST)
            await session.start()
            await broadcaster.start()
            for _ in range(200):  # the set-up of the simulated board is done by itself ("given")
                if session.referee.phase.value in ("play", "rolled"):
                    break
                await asyncio.sleep(0.02)
            # a piece lifted (no journal line): the club's copy of the board's page shows it soon
            cell = next(c for c, info in session.snapshot()["cells"].items() if info["piece"])
            session.click(cell)
            for _ in range(200):
                response = await api.get("/board/home/api/state")
                if response.status_code == 200 and response.json()["cells"][cell].get("sim") == "":
                    break
                await asyncio.sleep(0.05)
            assert response.json()["cells"][cell]["piece"] and response.json()["cells"][cell]["sim"] == ""
            session.click(cell)  # put back
            session.resign("white")
            await asyncio.sleep(0)
            assert await broadcaster.flushed(10)
            details = await settled(api, {"home": tmp_path / "board"})
            assert details["home"]["result"]["winner"] == "black"
            assert details["home"]["players"] == {"white": "Ann", "black": "Bo"}
            for _ in range(100):
                response = await api.get("/board/home/api/state")
                if response.status_code == 200 and response.json().get("outcome"):
                    break
                await asyncio.sleep(0.05)
            snapshot = response.json()
            assert snapshot["outcome"]["winner"] == "black" and snapshot["cells"]
            await broadcaster.stop()
            await session.stop()
            for _ in range(100):
                if (await api.get("/api/boards/home")).json()["online"] is False:
                    break
                await asyncio.sleep(0.05)
            assert (await api.get("/api/boards/home")).json()["online"] is False
        await broker.stop()
    run(main())


def test_the_replay_command_publishes_a_recorded_game(broker, tmp_path, capsys):
    """`reedboard replay TRACE --broadcast URL --name NAME --speed 0`: exit 0, and the broker
    keeps the game's state (retained) for whoever comes later."""
    import argparse

    import aiomqtt

    from reedboard.controller.broadcast.publisher.arguments import add_replay_broadcast_arguments
    from reedboard.controller.commands.replay_command import run_broadcast as run_replay_broadcast

    asyncio.run(broker.start())
    parser = argparse.ArgumentParser()
    parser.add_argument("trace")
    add_replay_broadcast_arguments(parser)
    args = parser.parse_args([str(TRACES / "offboard-game-to-six.jsonl"), "--broadcast", broker.url,
                              "--name", "demo", "--speed", "0"])
    assert run_replay_broadcast(args) == 0

    async def retained():
        address = parse_broker_url(broker.url)
        async with aiomqtt.Client(address.host, address.port) as client:
            await client.subscribe("reedboard/boards/demo/state", qos=1)
            async for message in client.messages:
                if message.topic.value.endswith("/state"):  # (amqtt hands out other retained topics too)
                    return json.loads(message.payload)
    state = asyncio.run(asyncio.wait_for(retained(), 10))
    assert state["board"] == "demo" and state["result"]["winner"] and len(state["lines"]) == state["seq"]


def test_a_board_stops_even_when_its_cancellation_is_swallowed(broker, tmp_path, monkeypatch):
    """Python 3.11's asyncio.wait_for returns the result, and the task's cancellation is lost,
    when what it awaits (aiomqtt's wait for the broker's acknowledgement) comes as the task is
    cancelled: a board stopped at that moment must stop all the same, not wait for ever."""
    import aiomqtt

    from club_lines import board_lines

    lines = board_lines(tmp_path)
    original = aiomqtt.Client.publish
    held = asyncio.Event()

    async def publish(self, topic, *args, **kwargs):
        if topic.endswith("/journal") and not held.is_set():
            held.set()
            try:
                await asyncio.Event().wait()  # until the stop comes, with the acknowledgement
            except asyncio.CancelledError:
                pass  # swallowed, as wait_for does then
        return await original(self, topic, *args, **kwargs)
    monkeypatch.setattr(aiomqtt.Client, "publish", publish)

    async def main():
        await broker.start()
        board = Broadcaster(parse_broker_url(broker.url), "table1", say=lambda line: None, **FAST)
        await board.start()
        for number, entry in enumerate(lines[:3], 1):
            board.line_written(tmp_path / "board" / "game.jsonl", number, entry)
        await held.wait()
        sender = board._task
        stopping = asyncio.create_task(board.stop())
        await asyncio.wait({stopping}, timeout=LIMIT / 3)  # a guard: a stop ends at once
        stopped = stopping.done()
        stopping.cancel()
        sender.cancel()
        await asyncio.gather(stopping, sender, return_exceptions=True)
        return stopped
    assert asyncio.run(asyncio.wait_for(main(), LIMIT))
