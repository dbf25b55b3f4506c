"""What floods of spectators cost the web view of `reedboard play`, on a board-sized budget.

Runs the web view in a subprocess, as on the board: listening on 127.0.0.1 with a token (as
served to a club's Wi-Fi), its open-file limit lowered to 1,024, logging at the level `play`
uses. Then, one flood at a time (a fresh server for each):

  frames    40 spectator WebSockets each send one 8 MiB frame
  watchers  2,000 spectator WebSockets at once, held for a while
  halfsent  1,100 connections that send half a request and hold it
  games     65 journaled games; 4 spectators list the past games over and over
  body      one 200 MB POST

and prints, for each: the server's memory (RSS: at the start, the peak, at the end), its
open files (peak), how much its log grew, and the owner's press latency (POST /api/press
with the token, a new connection each time, from another process: median, max, failed)
before and during the flood, and whether a spectator could still load the page.

Usage: python bench/web_flood.py [FLOOD ...] [--scale F]   (--scale 0.1: a quick look)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from polling import end  # noqa: E402  (as the tests end their servers)

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "bench-token"
FILE_LIMIT = 1024
FLOODS = ("frames", "watchers", "halfsent", "games", "body")

SERVER = """
import asyncio, resource, sys
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, ({limit}, hard))
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.web.app import serve
session = PlaySession("bigballs", games_dir=sys.argv[1], setup="given")
asyncio.run(serve(session, "127.0.0.1", int(sys.argv[2]), sys.argv[3], games_dir=sys.argv[1]))
"""


# --- the server and what it costs ------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """The web view in a subprocess; its memory, open files and log, sampled."""

    def __init__(self, games_dir: Path, log: Path) -> None:
        self.port = free_port()
        self.log = log
        self.log_file = open(log, "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVER.format(limit=FILE_LIMIT), str(games_dir), str(self.port), TOKEN],
            cwd=ROOT, stdout=self.log_file, stderr=subprocess.STDOUT)
        self.peak_rss = self.peak_files = 0
        deadline = time.monotonic() + 20
        while not self._answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server did not start; its log:\n{log.read_text()}")
            time.sleep(0.05)
        self.start_rss, self.start_log = self.rss(), log.stat().st_size

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"GET /api/auth HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                return sock.recv(100).startswith(b"HTTP/1.1 200")
        except OSError:
            return False

    def rss(self) -> float:
        """Resident memory in MiB."""
        try:
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return 0.0

    def files(self) -> int:
        try:
            return len(os.listdir(f"/proc/{self.process.pid}/fd"))
        except OSError:
            return 0

    def sample(self) -> None:
        self.peak_rss = max(self.peak_rss, self.rss())
        self.peak_files = max(self.peak_files, self.files())

    async def watch(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.sample()
            await asyncio.sleep(0.05)

    def log_growth(self) -> int:
        return self.log.stat().st_size - self.start_log

    def stop(self) -> None:
        end(self.process)
        self.log_file.close()


# --- the owner and a spectator, probed from another process ----------------------------------------
PROBE = """
import json, socket, sys, time
port, token, seconds, pause = int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
def ask(request):
    started = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.settimeout(10)
            sock.sendall(request)
            head = b""
            while b"\\r\\n\\r\\n" not in head:
                data = sock.recv(65536)
                if not data:
                    return "closed"
                head += data
            return (time.perf_counter() - started) * 1000 if head.startswith(b"HTTP/1.1 200") else head[9:12].decode()
    except OSError as error:
        return type(error).__name__
body = b'{"button": "ok"}'
press = (b"POST /api/press HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nX-Reedboard-Token: " + token.encode()
         + b"\\r\\nContent-Type: application/json\\r\\nContent-Length: %d\\r\\nConnection: close\\r\\n\\r\\n" % len(body) + body)
page = b"GET / HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nConnection: close\\r\\n\\r\\n"
presses, pages = [], []
end = time.monotonic() + seconds
while time.monotonic() < end:
    presses.append(ask(press))
    pages.append(ask(page))
    time.sleep(pause)
print(json.dumps({"presses": presses, "pages": pages}))
"""


async def probe(port: int, seconds: float, pause: float = 0.2) -> dict:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", PROBE, str(port), TOKEN, str(seconds), str(pause), stdout=subprocess.PIPE)
    out, _ = await process.communicate()
    return json.loads(out)


def latency(found: dict) -> str:
    """The owner's press times, and how many presses and page loads failed, and how."""
    done = [t for t in found["presses"] if not isinstance(t, str)]
    failed = _failures(found["presses"])
    pages = found["pages"]
    if not done:
        return f"owner's press: every one failed ({failed}); spectator's page failed {_failures(pages)}"
    return (f"owner's press: median {statistics.median(done):7.1f} ms, max {max(done):7.1f} ms, "
            f"failed {failed} of {len(found['presses'])}; spectator's page failed {_failures(pages)} of {len(pages)}")


def _failures(results: list) -> str:
    kinds = [r for r in results if isinstance(r, str)]
    if not kinds:
        return "0"
    return f"{len(kinds)} (" + ", ".join(f"{kinds.count(k)} {k}" for k in sorted(set(kinds))) + ")"


# --- the floods ------------------------------------------------------------------------------------
async def websocket(port: int, **kwargs):
    from websockets.asyncio.client import connect
    return await connect(f"ws://127.0.0.1:{port}/ws", compression=None, open_timeout=30,
                         ping_interval=None, max_size=None, proxy=None, **kwargs)


async def flood_frames(server: Server, scale: float) -> str:
    count, size = max(1, round(40 * scale)), 8 * 1024 * 1024
    sockets = await asyncio.gather(*(websocket(server.port) for _ in range(count)), return_exceptions=True)
    open_ = [s for s in sockets if not isinstance(s, BaseException)]
    frame = random.randbytes(size)

    async def send(ws) -> str:
        try:
            await ws.send(frame)
            await asyncio.wait_for(ws.wait_closed(), 3)
            return f"closed {ws.close_code}"
        except asyncio.TimeoutError:
            return "kept open"
        except Exception as error:  # the server may cut the frame off half way
            return f"cut off ({type(error).__name__})"

    outcomes = await asyncio.gather(*(send(ws) for ws in open_))
    for ws in open_:
        await ws.close()
    kinds = {k: outcomes.count(k) for k in sorted(set(outcomes))}
    return (f"{count} spectator sockets ({len(open_)} admitted), one {size >> 20} MiB frame each from those "
            f"admitted: {kinds}")


async def flood_watchers(server: Server, scale: float, hold: float) -> str:
    count = max(1, round(2000 * scale))

    async def watcher():
        try:
            return await websocket(server.port)
        except Exception as error:
            return error

    results = await asyncio.gather(*(watcher() for _ in range(count)))
    open_ = [r for r in results if not isinstance(r, BaseException)]
    refused = len(results) - len(open_)
    await asyncio.sleep(hold)
    still = 0
    for ws in open_:
        still += ws.state.name == "OPEN"
        await ws.close()
    return f"{count} watchers: {len(open_)} admitted ({still} still open after {hold:.0f} s), {refused} refused"


async def flood_halfsent(server: Server, scale: float, hold: float) -> str:
    count = max(1, round(1100 * scale))
    writers = []
    for _ in range(count):
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", server.port), 10)
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow")
            writers.append((reader, writer))
        except (OSError, asyncio.TimeoutError):
            pass
    await asyncio.sleep(hold)
    cut = sum(1 for reader, _ in writers if reader.at_eof() or reader.exception() is not None)
    for _, writer in writers:
        writer.close()
    return f"{count} half-sent requests: {len(writers)} connected, {cut} cut off by the server within {hold:.0f} s"


async def flood_games(server: Server, scale: float, hold: float) -> str:
    spectators = 4
    answers: list[float] = []

    async def lister(end: float) -> None:
        while time.monotonic() < end:
            started = time.perf_counter()
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            await reader.read()
            writer.close()
            answers.append((time.perf_counter() - started) * 1000)

    end = time.monotonic() + hold
    await asyncio.gather(*(lister(end) for _ in range(spectators)))
    return (f"{spectators} spectators listing the past games: {len(answers)} lists, median "
            f"{statistics.median(answers):.1f} ms each")


async def flood_body(server: Server, scale: float) -> str:
    size = max(1, round(200 * scale)) * 1024 * 1024
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"POST /api/click HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Reedboard-Token: " + TOKEN.encode()
                 + b"\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % size)
    chunk, sent = b" " * (1 << 20), 0
    try:
        while sent < size:
            writer.write(chunk)
            await writer.drain()
            sent += len(chunk)
    except (ConnectionError, OSError):
        pass
    try:
        status = (await asyncio.wait_for(reader.readline(), 30)).decode().strip() or "connection closed"
    except (ConnectionError, OSError, asyncio.TimeoutError) as error:
        status = type(error).__name__
    writer.close()
    return f"a {size >> 20} MB POST: {sent >> 20} MB sent, answered {status!r}"


def write_games(games_dir: Path, count: int, moves: int = 120) -> None:
    """`count` finished-looking Off Board journals of `moves` random legal moves each."""
    sys.path.insert(0, str(ROOT))
    from random_play import journaled_at_random  # the tests' journal of a random game

    rng = random.Random(1)
    start = datetime(2024, 5, 1, 18, 0).astimezone()
    for n in range(count):
        journaled_at_random(games_dir, rng, moves, start + timedelta(minutes=n))


async def run(flood: str, scale: float, work: Path) -> None:
    games_dir = work / flood / "games"
    games_dir.mkdir(parents=True)
    if flood == "games":
        write_games(games_dir, 65)
    server = Server(games_dir, work / flood / "server.log")
    try:
        before = await probe(server.port, 3)
        stop = asyncio.Event()
        watcher = asyncio.create_task(server.watch(stop))
        hold = 20 * max(scale, 0.25)
        if flood == "frames":
            during, summary = await asyncio.gather(probe(server.port, 6), flood_frames(server, scale))
        elif flood == "watchers":
            during, summary = await asyncio.gather(probe(server.port, hold), flood_watchers(server, scale, hold))
        elif flood == "halfsent":
            hold = 30 * max(scale, 0.25)
            during, summary = await asyncio.gather(probe(server.port, hold), flood_halfsent(server, scale, hold))
        elif flood == "games":
            during, summary = await asyncio.gather(probe(server.port, 10), flood_games(server, scale, 10))
        else:
            during, summary = await asyncio.gather(probe(server.port, 6), flood_body(server, scale))
        stop.set()
        await watcher
        await asyncio.sleep(1)
        after = await probe(server.port, 2)
        server.sample()
        print(f"\n[{flood}] {summary}")
        print(f"  memory: {server.start_rss:.0f} MiB at the start, {server.peak_rss:.0f} MiB at the peak, "
              f"{server.rss():.0f} MiB after; open files: {server.peak_files} at the peak (limit {FILE_LIMIT}); "
              f"log grew {server.log_growth():,} bytes")
        print(f"  before: {latency(before)}")
        print(f"  during: {latency(during)}")
        print(f"  after:  {latency(after)}")
        if server.process.poll() is not None:
            print(f"  the server died (status {server.process.returncode})")
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("floods", nargs="*", metavar="FLOOD", help=", ".join(FLOODS) + " (default: all)")
    parser.add_argument("--scale", type=float, default=1.0, help="the floods' size (1: full size)")
    args = parser.parse_args()
    unknown = [f for f in args.floods if f not in FLOODS]
    if unknown:
        parser.error(f"no flood {unknown[0]!r}: {', '.join(FLOODS)}")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # this side holds thousands of sockets
    with tempfile.TemporaryDirectory(prefix="reedboard-flood-") as work:
        for flood in args.floods or FLOODS:
            asyncio.run(run(flood, args.scale, Path(work)))


if __name__ == "__main__":
    main()
