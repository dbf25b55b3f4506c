"""The club under abuse: its memory, open files and page latency under each abuse, one after another.

Starts `reedboard club` (its page, and its own broker: Mosquitto when installed, else amqtt)
in a process of its own on loopback ports, then:

  headers   --headers unfinished games from fake headers (a header and a roll each), from
            --header-boards boards
  waiting   --waiting-games games of --waiting-lines lines of --waiting-kb kB each, every one
            come before the game's first line (so a club holds them, waiting)
  payload   --big publications of --big-mb MB each to the club's broker
  watchers  --boards boards with a game each, --watchers WebSocket watchers of the club's page
            (from 127.0.0.2 to 127.0.0.8, as from a few computers), a board's line every
            --every seconds for --seconds

After each: the club's resident memory (with its broker's when that is a process of its own),
its open files, and the median of 20 GET /api/club; during `watchers` also the club's CPU and
the latency of the page's API while it pushes. Run it against another checkout with
PYTHONPATH=DIR (DIR/reedboard being that checkout) to compare before and after.

Usage: python bench/club_abuse.py [--headers 1100] [--waiting-lines 300] [--big-mb 200] [--boards 3000] ...
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import aiomqtt
import httpx2

from reedboard.controller.broadcast.club import mosquitto
from reedboard.controller.persist.journal import Journal
from reedboard.controller.session.replay import replay
from reedboard.controller.persist.trace import read_trace

from broadcast_load import club_started  # noqa: E402  (bench/ is the script's folder)

TRACE = Path(__file__).resolve().parent.parent / "tests" / "traces" / "bigballs-game-to-a7.jsonl"
CLUB = """
import asyncio, sys
from pathlib import Path
from reedboard.controller.commands.club_command import serve_club
arguments = (None, ("127.0.0.1", int(sys.argv[2])), ("127.0.0.1", int(sys.argv[1])), Path(sys.argv[3]))
try:
    asyncio.run(serve_club(*arguments, broker_kind="auto"))
except TypeError:  # a club of before the broker's choice
    asyncio.run(serve_club(*arguments))
"""
PAGE = os.sysconf("SC_PAGE_SIZE")
TICK = os.sysconf("SC_CLK_TCK")


def game_lines() -> list[dict]:
    """A real game's journal lines, the header first."""
    played = read_trace(TRACE)
    lines: list[dict] = []
    with tempfile.TemporaryDirectory() as scratch:
        journal = Journal.create(scratch, played.game(), {}, datetime(2026, 11, 30, 19, tzinfo=timezone.utc),
                                 written=lambda path, number, entry: lines.append(entry))
        for entry in replay(played, source="bench").decisions:
            journal.append_entry(entry)
        journal.close()
    return lines


def message(board: str, game: str, seq: int, entry: dict) -> bytes:
    return json.dumps({"v": 1, "board": board, "game": game, "seq": seq, "entry": entry,
                       "committed": time.time()}).encode()


def processes(pid: int) -> list[int]:
    """The club and its children (its own broker)."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def rss(pid: int) -> int:
    total = 0
    for each in processes(pid):
        try:
            total += int(Path(f"/proc/{each}/statm").read_text().split()[1]) * PAGE
        except OSError:
            pass
    return total


def rss_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


async def latency(api: httpx2.AsyncClient, times: int = 20) -> float:
    taken = []
    for _ in range(times):
        start = time.perf_counter()
        try:
            (await api.get("/api/club")).raise_for_status()
            taken.append(time.perf_counter() - start)
        except httpx2.HTTPError:
            taken.append(float("inf"))
    return statistics.median(taken)


class Bench:
    def __init__(self, args, club: subprocess.Popen, api: httpx2.AsyncClient, port: int) -> None:
        self.args, self.club, self.api, self.port = args, club, api, port
        self.peak = 0

    async def watch_memory(self) -> None:
        while True:
            if self.club.poll() is None:
                self.peak = max(self.peak, rss(self.club.pid))
            await asyncio.sleep(0.2)

    async def report(self, what: str) -> None:
        if self.club.poll() is not None:
            print(f"{what:<9} the club ended (exit {self.club.returncode})", flush=True)
            return
        await asyncio.sleep(1)  # what was sent is taken
        ms = 1000 * await latency(self.api)
        own = rss_of(self.club.pid)
        print(f"{what:<9} memory {rss(self.club.pid) / 2**20:7.0f} MiB (the club's process {own / 2**20:.0f};"
              f" peak {self.peak / 2**20:.0f}),"
              f" open files {open_files(self.club.pid):5d}, GET /api/club median {ms:7.1f} ms", flush=True)
        self.peak = 0

    def client(self, identifier: str, **options) -> aiomqtt.Client:
        return aiomqtt.Client("127.0.0.1", self.port, identifier=identifier, timeout=60, **options)

    async def headers(self, lines: list[dict]) -> None:
        async with self.client("abuse-headers", max_queued_outgoing_messages=0) as client:
            base = datetime(2026, 11, 30, 19, tzinfo=timezone.utc)
            for number in range(self.args.headers):
                board = f"fake{number % self.args.header_boards}"
                header = dict(lines[0], started=(base + timedelta(seconds=number)).isoformat())  # a journal each
                for seq, entry in ((1, header), (2, lines[1])):
                    await client.publish(f"reedboard/boards/{board}/journal", message(board, f"g{number}", seq, entry),
                                         qos=1)
        await self.report("headers")

    async def waiting(self) -> None:
        pad = "x" * (self.args.waiting_kb * 1024)
        async with self.client("abuse-waiting") as client:
            for game in range(self.args.waiting_games):
                for seq in range(2, self.args.waiting_lines + 2):
                    entry = {"type": "move", "t": 1.0, "move": "x", "pad": pad}
                    await client.publish("reedboard/boards/waiting/journal",
                                         message("waiting", f"w{game}", seq, entry), qos=1)
        await self.report("waiting")

    async def payload(self) -> None:
        big = b"x" * (self.args.big_mb << 20)
        refused = 0
        for number in range(self.args.big):
            try:
                async with aiomqtt.Client("127.0.0.1", self.port, identifier=f"abuse-big{number}", timeout=20) as client:
                    await client.publish("reedboard/boards/big/journal", big, qos=1)
            except aiomqtt.MqttError:
                refused += 1
        print(f"payload   {self.args.big} of {self.args.big_mb} MB: {refused} refused by the broker", flush=True)
        await self.report("payload")

    async def watchers(self, lines: list[dict]) -> None:
        import websockets

        async with self.client("abuse-boards") as client:
            base = datetime(2026, 11, 30, 19, tzinfo=timezone.utc)
            for number in range(self.args.boards):
                board = f"b{number}"
                header = dict(lines[0], started=(base - timedelta(seconds=number)).isoformat())  # a journal each
                for seq, entry in ((1, header), (2, lines[1])):
                    await client.publish(f"reedboard/boards/{board}/journal", message(board, "g", seq, entry), qos=1)
            await self.report("boards")
            sockets, refused = [], 0
            for number in range(self.args.watchers):
                try:
                    sockets.append(await websockets.connect(
                        f"ws://127.0.0.1:{self.args.web_port}/ws", max_size=None,
                        local_addr=(f"127.0.0.{2 + number % 7}", 0), open_timeout=30))
                except (OSError, websockets.exceptions.WebSocketException, asyncio.TimeoutError):
                    refused += 1

            async def drain(socket) -> None:
                try:
                    async for _ in socket:
                        pass
                except websockets.exceptions.WebSocketException:
                    pass
            draining = [asyncio.create_task(drain(socket)) for socket in sockets]
            closed = sum(1 for socket in sockets if socket.close_code is not None)
            used0, start = cpu(self.club.pid), time.time()
            samples, step, seq = [], 0, {}
            while time.time() - start < self.args.seconds:
                board = f"b{step % self.args.boards}"
                number = seq.get(board, 3)
                if number <= len(lines):
                    await client.publish(f"reedboard/boards/{board}/journal",
                                         message(board, "g", number, lines[number - 1]), qos=1)
                    seq[board] = number + 1
                step += 1
                if step % max(1, int(1 / self.args.every)) == 0:
                    samples.append(await latency(self.api, 1))
                await asyncio.sleep(self.args.every)
            share = (cpu(self.club.pid) - used0) / (time.time() - start)
            meanwhile = f"{1000 * statistics.median(samples):.1f} ms" if samples else "not asked (too few lines taken)"
            print(f"watchers  {len(sockets)} watching ({refused} refused at once, {closed} closed),"
                  f" {self.args.boards} boards, a line every {self.args.every:g} s ({step} taken by the broker in"
                  f" {time.time() - start:.0f} s): club CPU {100 * share:.0f}% of one core, GET /api/club median"
                  f" {meanwhile} meanwhile", flush=True)
            for socket in sockets:
                await socket.close()
            for task in draining:
                task.cancel()
            await asyncio.gather(*draining, return_exceptions=True)
        await self.report("watchers")


async def main(args) -> None:
    lines = game_lines()
    with tempfile.TemporaryDirectory(prefix="reedboard-abuse-") as scratch:
        port, args.web_port = mosquitto.free_port(), mosquitto.free_port()
        log = open(Path(scratch) / "club.log", "wb")
        club = subprocess.Popen([sys.executable, "-c", CLUB, str(port), str(args.web_port), str(Path(scratch) / "club")],
                                stdout=subprocess.DEVNULL, stderr=log)
        try:
            async with httpx2.AsyncClient(base_url=f"http://127.0.0.1:{args.web_port}", timeout=60) as api:
                await club_started(api, tries=400)
                bench = Bench(args, club, api, port)
                memory = asyncio.create_task(bench.watch_memory())
                await bench.report("start")
                for abuse in args.only or ["headers", "waiting", "payload", "watchers"]:
                    started = time.time()
                    try:
                        await (bench.headers(lines) if abuse == "headers" else bench.waiting() if abuse == "waiting"
                               else bench.payload() if abuse == "payload" else bench.watchers(lines))
                    except (aiomqtt.MqttError, OSError) as error:
                        print(f"{abuse:<9} stopped: {error}", flush=True)
                        await bench.report(abuse)
                    print(f"{abuse:<9} took {time.time() - started:.0f} s", flush=True)
                memory.cancel()
        finally:
            club.terminate()
            try:
                club.wait(20)
            except subprocess.TimeoutExpired:
                club.kill()
                club.wait()
                print("the club did not stop on SIGTERM within 20 s", flush=True)
            log.close()
            text = (Path(scratch) / "club.log").read_bytes()
            print(f"the club's log: {len(text) / 1024:.0f} kB", flush=True)
            for line in list(dict.fromkeys(text.decode("utf-8", "replace").splitlines()))[:3]:
                print(f"  {line[:160]}", flush=True)


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--headers", type=int, default=1100)
    parser.add_argument("--header-boards", type=int, default=100)
    parser.add_argument("--waiting-games", type=int, default=2)
    parser.add_argument("--waiting-lines", type=int, default=300)
    parser.add_argument("--waiting-kb", type=int, default=900)
    parser.add_argument("--big", type=int, default=4)
    parser.add_argument("--big-mb", type=int, default=200)
    parser.add_argument("--boards", type=int, default=3000)
    parser.add_argument("--watchers", type=int, default=100)
    parser.add_argument("--every", type=float, default=0.1)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--only", nargs="+", choices=("headers", "waiting", "payload", "watchers"))
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(arguments()))
