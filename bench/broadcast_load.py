"""A club evening under load: simulated boards publishing a move a second each through Mosquitto.

Starts Mosquitto (Debian's, on 127.0.0.1 and a free port, its files in a temporary folder) and
the club (`reedboard club --broker ...`, its page and API, in a process of its own), then
--boards simulated boards in this process, each playing recorded games (tests/traces) one
journal line per second (staggered), through the board's own Broadcaster, for --seconds.
Meanwhile GET /api/boards is polled every --poll seconds; a line's delay is from its commit
(on disk at the board) to the first poll whose answer holds it (so it includes up to one
poll interval). Prints p50/p95/max of the delays, lines committed and seen, duplicates
dropped by the club, and the club's CPU (share of one core) and memory (RSS, peak).

The boards run in --processes processes (64 boards in one Python loop would measure that loop);
a line's commit time travels in its message ("committed"), so the delay is measured from the
API alone.

--broker embedded runs `reedboard club` with its own broker instead (Mosquitto of its own when
installed), --broker amqtt with amqtt as its own broker; --kills N kills Mosquitto (kill -9)
N times mid-run and starts it again a second later.
At the end every board's journals are compared with the club's: lines lost (on the board's
disk, not in the club's journal) and duplicated (in the club's journal more than once).

Usage: python bench/broadcast_load.py [--boards 64] [--seconds 30] [--poll 0.05] [--processes 4]
                                      [--broker mosquitto|embedded|amqtt] [--kills 0]
Target: p95 under 250 ms with 64 boards; 0 lost, 0 duplicated.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2

from reedboard.controller.broadcast.club import mosquitto
from reedboard.controller.broadcast.address import parse_broker_url
from reedboard.controller.broadcast.publisher.board import Broadcaster
from reedboard.controller.broadcast.publisher.replay import publish_trace
from reedboard.controller.session.replay import replay
from reedboard.controller.persist.trace import read_trace

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "traces"
GAMES = ["bigballs-game-to-a7", "offboard-game-to-six", "abalone-push-off-edge-first", "abalone-push-front-first"]
TRACES = {game: read_trace(FOLDER / f"{game}.jsonl") for game in GAMES}
REPLAYED = {game: replay(trace, source=game) for game, trace in TRACES.items()}  # once, not at each board's start
CLUB = """
import asyncio, sys
from pathlib import Path
from reedboard.controller.broadcast.address import parse_broker_url
from reedboard.controller.commands.club_command import serve_club
asyncio.run(serve_club(parse_broker_url(sys.argv[1]), ("127.0.0.1", int(sys.argv[2])), ("", 0), Path(sys.argv[3])))
"""
CLUB_EMBEDDED = """
import asyncio, sys
from pathlib import Path
from reedboard.controller.commands.club_command import serve_club
arguments = (None, ("127.0.0.1", int(sys.argv[2])), ("127.0.0.1", int(sys.argv[1])), Path(sys.argv[3]))
try:
    asyncio.run(serve_club(*arguments, broker_kind=sys.argv[4]))
except TypeError:  # a club of before the broker's choice: amqtt
    asyncio.run(serve_club(*arguments))
"""
TICK = os.sysconf("SC_CLK_TCK")


async def connected(name: str, url: str) -> Broadcaster:
    """A board's broadcaster, once online (a board is connected long before its first move)."""
    broadcaster = Broadcaster(parse_broker_url(url), name)
    await broadcaster.start()
    while broadcaster.state != "online":
        await asyncio.sleep(0.05)
    return broadcaster


async def board(broadcaster: Broadcaster, url: str, folder: Path, until: float, rate: float) -> None:
    """Games one after another, a journal line every 1/rate seconds, until `until`."""
    name = broadcaster.name
    await asyncio.sleep(random.random() / rate)  # the boards' moves are spread over the second
    for game in itertools.cycle(random.sample(GAMES, len(GAMES))):
        if time.time() >= until:
            break

        async def step(index, entry):
            await asyncio.sleep(1 / rate)
            if time.time() >= until:
                raise asyncio.CancelledError
        try:
            await publish_trace(TRACES[game], url, name, games_dir=folder / name, step=step,
                                broadcaster=broadcaster, flush_wait=5, replayed=REPLAYED[game])
        except asyncio.CancelledError:
            break
    await broadcaster.stop()


async def club_started(api, tries: int) -> None:
    """Wait until the club's page says it is connected to its broker (SystemExit if never)."""
    for _ in range(tries):
        try:
            if (await api.get("/api/club")).json()["connected"]:
                return
        except httpx2.HTTPError:
            pass
        await asyncio.sleep(0.05)
    raise SystemExit("the club did not start")

def club_usage(pid: int) -> tuple[float, int]:
    """CPU seconds used so far and the resident memory now (bytes) of process `pid`."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / TICK
    rss = int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    return cpu, rss


async def boards_process(args) -> None:
    """A child: boards --first to --last, connected, then playing from --start until --until."""
    names = [f"table{i:02d}" for i in range(args.first, args.last + 1)]
    online = await asyncio.gather(*(connected(name, args.url) for name in names))
    print("online", flush=True)
    await asyncio.sleep(max(0.0, args.start - time.time()))
    used = time.process_time()
    await asyncio.gather(*(board(b, args.url, Path(args.folder), args.until, args.rate) for b in online))
    print(f"cpu {(time.process_time() - used) / (time.time() - args.start):.3f}", flush=True)


async def measure(args) -> None:
    with tempfile.TemporaryDirectory(prefix="reedboard-bench-") as scratch:
        scratch = Path(scratch)
        web_port = mosquitto.free_port()
        club_log = open(scratch / "club.log", "wb")
        if args.broker == "mosquitto":
            broker = mosquitto.Mosquitto(scratch / "mosquitto").start()
            url = broker.url
            club = subprocess.Popen([sys.executable, "-c", CLUB, broker.url, str(web_port), str(scratch / "club")],
                                    stdout=subprocess.DEVNULL, stderr=club_log)
        else:
            broker, port = None, mosquitto.free_port()
            url = f"mqtt://127.0.0.1:{port}"
            kind = "auto" if args.broker == "embedded" else "amqtt"
            club = subprocess.Popen([sys.executable, "-c", CLUB_EMBEDDED, str(port), str(web_port),
                                     str(scratch / "club"), kind], stdout=subprocess.DEVNULL, stderr=club_log)
        children = []
        try:
            async with httpx2.AsyncClient(base_url=f"http://127.0.0.1:{web_port}", timeout=5) as api:
                await club_started(api, tries=200)
                start = time.time() + 3 + args.boards / 20 + args.processes * 0.6  # every board connected first
                until = start + args.seconds
                share = -(-args.boards // args.processes)
                for first in range(1, args.boards + 1, share):
                    last = min(args.boards, first + share - 1)
                    children.append(await asyncio.create_subprocess_exec(
                        sys.executable, __file__, "--child", "--url", url, "--first", str(first),
                        "--last", str(last), "--start", str(start), "--until", str(until), "--rate", str(args.rate),
                        "--folder", str(scratch / "boards"), stdout=asyncio.subprocess.PIPE))
                for child in children:
                    await child.stdout.readline()  # "online"
                await asyncio.sleep(max(0.0, start - time.time()))
                cpu0, rss0 = club_usage(club.pid)
                seen: dict[tuple[str, str], int] = {}
                delays: list[float] = []
                peak = rss0
                kills = [start + args.seconds * (i + 1) / (args.kills + 1) for i in range(args.kills)]
                while time.time() < until + 3 + (10 if args.kills else 0):
                    if kills and time.time() >= kills[0]:
                        kills.pop(0)
                        await asyncio.to_thread(kill_and_restart, broker)
                    asked = time.time()
                    summaries = (await api.get("/api/boards")).json()
                    now = time.time()
                    for summary in summaries:
                        key = (summary["name"], summary["game"])
                        before = seen.get(key, 0)
                        if summary["seq"] <= before:
                            continue
                        if summary["seq"] == before + 1:
                            committed = [summary["committed"]]
                        else:  # more than one new line since the last poll: their times from the detail
                            lines = (await api.get(f"/api/boards/{summary['name']}")).json()["lines"]
                            committed = [line["committed"] for line in lines[before:summary["seq"]]]
                        delays += [now - c for c in committed if c is not None and c >= start]
                        seen[key] = summary["seq"]
                    peak = max(peak, club_usage(club.pid)[1])
                    await asyncio.sleep(max(0.0, args.poll - (time.time() - asked)))
                if not delays and "summaries" not in locals():
                    raise SystemExit("the boards were not all connected before the run's end: give more --seconds")
                cpu1, rss1 = club_usage(club.pid)
                elapsed = time.time() - start
                status = (await api.get("/api/club")).json()
                inside = []  # commit -> taken by the club (its clock): the part before the API
                for summary in summaries:
                    for line in (await api.get(f"/api/boards/{summary['name']}")).json()["lines"]:
                        if line["committed"] is not None and line["committed"] >= start:
                            inside.append(line["received"] - line["committed"])
                inside.sort()
                boards_cpu = 0.0
                for child in children:
                    boards_cpu += float((await child.stdout.readline()).split()[1])
                    await child.wait()
        finally:
            for child in children:
                if child.returncode is None:
                    child.kill()
            club.terminate()
            club.wait(10)
            if broker is not None:
                broker.stop()
            club_log.close()
        lost, duplicated, committed = compare_journals(scratch / "boards", scratch / "club")
        errors = (scratch / "club.log").read_bytes().count(b"dictionary changed size during iteration")
    delays.sort()
    ms = lambda q: 1000 * delays[min(len(delays) - 1, int(q * len(delays)))]  # noqa: E731
    print(f"boards {args.boards} (in {args.processes} processes), a journal line every {1 / args.rate:g} s each,"
          f" {args.seconds:g} s, the API polled every {args.poll * 1000:g} ms (Mosquitto {mosquitto.binary()})")
    print(f"lines seen at the club's API {len(delays)}, duplicates dropped {status['duplicates']},"
          f" garbled {status['garbled']}")
    print(f"journal lines on the boards {committed}: lost at the club {lost}, duplicated {duplicated}"
          f" (broker {args.broker}, killed {args.kills} times; 'dictionary changed size' in the club's log {errors})")
    if delays:
        print(f"commit -> API delay: p50 {ms(0.5):.0f} ms, p95 {ms(0.95):.0f} ms, max {1000 * delays[-1]:.0f} ms,"
              f" mean {1000 * statistics.fmean(delays):.0f} ms  (target p95 < 250 ms)")
    if inside:
        print(f"commit -> taken by the club: p50 {1000 * inside[len(inside) // 2]:.0f} ms,"
              f" p95 {1000 * inside[int(0.95 * len(inside))]:.0f} ms, max {1000 * inside[-1]:.0f} ms"
              f" (of the current games)")
    print(f"club: CPU {100 * (cpu1 - cpu0) / elapsed:.0f}% of one core, memory {rss0 / 2**20:.0f} MiB at the start,"
          f" {peak / 2**20:.0f} MiB peak, {rss1 / 2**20:.0f} MiB at the end")
    print(f"the simulated boards: CPU {100 * boards_cpu:.0f}% of one core in all ({args.processes} processes)")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (the boards run here too)")


def kill_and_restart(broker) -> None:
    """kill -9 the broker and start it again a second later (it keeps what it had saved)."""
    broker.kill()
    time.sleep(1)
    broker.start()


def compare_journals(boards: Path, club: Path) -> tuple[int, int, int]:
    """(lines lost, lines duplicated, lines committed): each board's journals against the club's."""
    import json

    index = json.loads((club / "club-index.json").read_text("utf-8")) if (club / "club-index.json").exists() else {}
    lost = duplicated = committed = 0
    for journal in sorted(boards.glob("*/*.jsonl")):
        if journal.name.endswith(".trace.jsonl"):
            continue
        board_lines = [line for line in journal.read_text("utf-8").splitlines() if line.strip()]
        committed += len(board_lines)
        known = index.get(f"{journal.parent.name}/{journal.stem}")
        club_lines = []
        if known is not None and (club / known["journal"]).exists():
            club_lines = [line for line in (club / known["journal"]).read_text("utf-8").splitlines() if line.strip()]
            club_lines = [line for line in club_lines if json.loads(line).get("type") != "resume"]
            club_lines += [None] * len(known.get("skipped", []))  # the board's resume lines the club noted
        lost += max(0, len(board_lines) - len(club_lines))
        duplicated += max(0, len(club_lines) - len(board_lines))
    return lost, duplicated, committed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rate", type=float, default=1.0, help="journal lines a second per board")
    parser.add_argument("--poll", type=float, default=0.05, help="seconds between polls of /api/boards")
    parser.add_argument("--processes", type=int, default=4, help="processes the simulated boards run in")
    parser.add_argument("--broker", choices=("mosquitto", "embedded", "amqtt"), default="mosquitto",
                        help="Mosquitto, or the club's own broker (embedded: Mosquitto when installed; amqtt)")
    parser.add_argument("--kills", type=int, default=0, help="times the broker is killed and started again")
    for child_option in ("--url", "--folder"):
        parser.add_argument(child_option, help=argparse.SUPPRESS)
    for child_option in ("--first", "--last"):
        parser.add_argument(child_option, type=int, help=argparse.SUPPRESS)
    for child_option in ("--start", "--until"):
        parser.add_argument(child_option, type=float, help=argparse.SUPPRESS)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        asyncio.run(boards_process(args))
        return
    if mosquitto.binary() is None and args.broker != "amqtt":
        raise SystemExit("no mosquitto (apt-get install mosquitto)")
    if args.kills and args.broker != "mosquitto":
        raise SystemExit("--kills: with --broker mosquitto (the club's own broker ends with the club)")
    asyncio.run(measure(args))


if __name__ == "__main__":
    main()
