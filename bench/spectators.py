"""Spectators through the broker: 64 boards, 5,000 spectators on RabbitMQ's Web MQTT, the boards
and the club unaware of them.

Starts RabbitMQ (Debian's rabbitmq-server, a node of its own on free loopback ports, its files in a
temporary folder: controller/broadcast/club/rabbitmq.py), the club's Mosquitto with its bridge feeding
the boards' topics into RabbitMQ, and the club (`reedboard club --broker` on that Mosquitto, in a
process of its own). Then twice, the same evening: --boards simulated boards (bench/broadcast_load.py's,
real journal lines of recorded games, --rate lines a second each) publish to Mosquitto for
--seconds, first with no spectator, then with --spectators spectators connected to RabbitMQ over
MQTT over WebSockets (aiomqtt, paho's websockets transport), in --spectator-processes processes.

A spectator does what the spectators' page does for one board (?board=NAME; the boards are shared
out in turn): it subscribes by name to the board's `state` and `status` (QoS --qos), and also to
its `journal`, whose lines carry their commit time: so it counts the lines it got (each game's
seq 1, 2, ...; a line missing is lost) and the delay from a line's commit at the board to its
arrival (the same clock: one machine), and of the state that shows it. --follow all: each
spectator follows every board (the page's view of all boards, by its wildcard subscriptions), a
far heavier load.

Prints, for each run: lines committed, lines due to the spectators and lost, duplicates, the
delays (p50/p95/max), and the CPU (share of one core) of the boards, the club, Mosquitto,
RabbitMQ and the simulated spectators themselves (they run on the same machine).
--cluster: two RabbitMQ nodes on this machine joined into one cluster (rabbitmqctl join_cluster),
the bridge feeding the first, the spectators split between the two.

Usage: python bench/spectators.py [--boards 64] [--spectators 5000] [--seconds 30] [--rate 0.2]
                                  [--spectator-processes 4] [--qos 0] [--follow one|all] [--cluster]
Targets: 0 lines lost; the boards' and the club's CPU the same with 0 and with 5,000 spectators.
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
from pathlib import Path

HERE = Path(__file__).resolve().parent
TICK = os.sysconf("SC_CLK_TCK")
PREFIX = "reedboard"
CONNECTING = 40  # connections a spectator process opens at once
KEEPALIVE = 30  # s, as the page's: RabbitMQ's Web MQTT closes a WebSocket that sent nothing for 60 s


def usage_of(pid: int | None) -> float:
    """CPU seconds used so far by process `pid` (0 when it is gone)."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def quantile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


# --- a spectators' process ----------------------------------------------------------------------------
async def spectators_process(args) -> None:
    """Spectators --first .. --first+--count-1, each on the Web MQTT port its number picks, each
    following its board (or every board); "ready" once all are subscribed; a report (one JSON
    line) when told on stdin."""
    import aiomqtt

    boards = args.board_names.split(",")
    ports = [int(p) for p in args.ws_ports.split(",")]
    got: dict[int, dict[tuple[str, str], set[int]]] = {}  # spectator -> (board, game) -> seqs
    duplicates = 0
    delays: list[int] = []  # ms, commit -> journal line received
    state_delays: list[int] = []  # ms, commit of the state's last line -> state received
    last_state: dict[int, dict[tuple[str, str], int]] = {}
    committed: dict[tuple[str, str, int], float] = {}
    subscribed = 0
    failed: list[str] = []
    everyone_ready = asyncio.Event()
    stop = asyncio.Event()
    gate = asyncio.Semaphore(CONNECTING)

    async def spectator(number: int) -> None:
        nonlocal duplicates, subscribed
        follows = boards if args.follow == "all" else [boards[number % len(boards)]]
        mine = got.setdefault(number, {})
        states = last_state.setdefault(number, {})
        named = ["+"] if args.follow == "all" else follows  # every board: the page's wildcards (its live part)
        topics = [(f"{PREFIX}/boards/{b}/{kind}", args.qos) for b in named for kind in ("journal", "state", "status")]
        async with gate:
            client = aiomqtt.Client("127.0.0.1", ports[(number // len(boards)) % len(ports)], transport="websockets",
                                    websocket_path="/ws", identifier=f"spectator-{number}", clean_session=True,
                                    keepalive=KEEPALIVE, timeout=20)
            for attempt in range(3):
                try:
                    await client.__aenter__()
                    break
                except aiomqtt.MqttError as error:
                    if attempt == 2:
                        failed.append(str(error))
                        return
                    await asyncio.sleep(1 + attempt)
            await client.subscribe(topics)
        subscribed += 1
        if subscribed == args.count:
            everyone_ready.set()
        try:
            async for message in client.messages:
                now = time.time()
                parts = str(message.topic).split("/")
                board, kind = parts[-2], parts[-1]
                if kind == "status":
                    continue
                data = json.loads(message.payload)
                game, seq = data.get("game"), data.get("seq")
                if kind == "journal":
                    seen = mine.setdefault((board, game), set())
                    if seq in seen:
                        duplicates += 1
                        continue
                    seen.add(seq)
                    committed.setdefault((board, game, seq), data["committed"])
                    if data["committed"] >= args.start:
                        delays.append(round(1000 * (now - data["committed"])))
                elif kind == "state":
                    states[(board, game)] = max(states.get((board, game), 0), seq)
                    at = committed.get((board, game, seq))
                    if at is not None and at >= args.start:
                        state_delays.append(round(1000 * (now - at)))
        finally:
            if not stop.is_set():
                failed.append(f"spectator {number} lost its connection")
            await client.__aexit__(None, None, None)

    used = time.process_time()
    tasks = [asyncio.create_task(spectator(n)) for n in range(args.first, args.first + args.count)]
    waiting = asyncio.create_task(everyone_ready.wait())
    await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)  # (a spectator's failure ends it)
    print("ready" if everyone_ready.is_set() else f"failed {failed[:1]}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "report"
    cpu = time.process_time() - used
    stop.set()
    report = {"got": [[n, b, g, len(s)] for n, games in got.items() for (b, g), s in games.items()],
              "states": [[n, b, g, seq] for n, games in last_state.items() for (b, g), seq in games.items()],
              "duplicates": duplicates, "delays": delays, "state_delays": state_delays, "failed": failed[:5],
              "lost_connections": len(failed), "cpu": cpu}
    print(json.dumps(report), flush=True)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


# --- the evening ------------------------------------------------------------------------------------
def journals(folder: Path) -> dict[tuple[str, str], int]:
    """(board, game) -> the lines of that game's journal, every board's journals in `folder`."""
    lines = {}
    for journal in folder.glob("*/*.jsonl"):
        if not journal.name.endswith(".trace.jsonl"):
            lines[(journal.parent.name, journal.stem)] = sum(1 for line in journal.read_bytes().splitlines() if line.strip())
    return lines


async def run_boards(args, url: str, folder: Path, start: float, until: float) -> tuple[float, list]:
    """The simulated boards (bench/broadcast_load.py's) in --processes processes, from `start` to
    `until`: their CPU in all (share of one core)."""
    share = -(-args.boards // args.processes)
    children = []
    for first in range(1, args.boards + 1, share):
        last = min(args.boards, first + share - 1)
        children.append(await asyncio.create_subprocess_exec(
            sys.executable, str(HERE / "broadcast_load.py"), "--child", "--url", url, "--first", str(first),
            "--last", str(last), "--start", str(start), "--until", str(until), "--rate", str(args.rate),
            "--folder", str(folder), stdout=asyncio.subprocess.PIPE))
    for child in children:
        line = await child.stdout.readline()
        if line.strip() != b"online":
            raise SystemExit("a simulated board did not come online")
    return 0.0, children


async def evening(args, spectators: int, scratch: Path, broker, nodes, club, run: str) -> dict:
    """One run: the spectators connected first (all subscribed), then the boards for --seconds."""
    ws_ports = [node.ws_port for node in nodes]
    names = [f"table{i:02d}" for i in range(1, args.boards + 1)]
    per = -(-spectators // args.spectator_processes) if spectators else 0
    watchers = []
    start_connecting = time.time()
    for first in range(0, spectators, per or 1):
        count = min(per, spectators - first)
        watchers.append(await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--spectator-child", "--first", str(first), "--count", str(count),
            "--ws-ports", ",".join(map(str, ws_ports)), "--board-names", ",".join(names), "--qos", str(args.qos),
            "--follow", args.follow, "--start", "0", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            limit=1 << 30))
    for watcher in watchers:
        line = (await watcher.stdout.readline()).decode().strip()
        if line != "ready":
            raise SystemExit(f"the spectators did not all connect: {line}")
    connected_in = time.time() - start_connecting
    folder = scratch / f"boards-{run}"
    start = time.time() + 3 + args.boards / 20 + args.processes * 0.6  # every board connected first
    until = start + args.seconds
    _, children = await run_boards(args, broker.url, folder, start, until)
    await asyncio.sleep(max(0.0, start - time.time()))
    pids = {"club": club.pid, "mosquitto": broker.process.pid, **{f"rabbitmq {n.name}": n.pid() for n in nodes}}
    before = {what: usage_of(pid) for what, pid in pids.items()}
    await asyncio.sleep(max(0.0, until - time.time()))
    boards_cpu = 0.0
    for child in children:
        boards_cpu += float((await child.stdout.readline()).split()[1])
        await child.wait()
    ended = time.time()
    after = {what: usage_of(pid) for what, pid in pids.items()}
    await asyncio.sleep(args.drain)  # what is still on its way to the spectators
    reports = []
    for watcher in watchers:
        watcher.stdin.write(b"report\n")
        await watcher.stdin.drain()
        reports.append(json.loads(await watcher.stdout.readline()))
        await watcher.wait()
    elapsed = ended - start
    due = journals(folder)
    result = {"spectators": spectators, "connected_in": connected_in, "committed": sum(due.values()),
              "boards_cpu": boards_cpu, **{what: (after[what] - before[what]) / elapsed for what in pids}}
    if spectators:
        lines_due = lost = stale = 0
        got = {(n, b, g): count for report in reports for n, b, g, count in report["got"]}
        states = {(n, b, g): seq for report in reports for n, b, g, seq in report["states"]}
        for n in range(spectators):
            follows = names if args.follow == "all" else [names[n % len(names)]]
            for board in follows:
                games = sorted(g for b, g in due if b == board)
                for game in games:
                    lines_due += due[(board, game)]
                    lost += due[(board, game)] - got.get((n, board, game), 0)
                if games and states.get((n, board, games[-1]), 0) < due[(board, games[-1])]:
                    stale += 1
        delays = sorted(d for report in reports for d in report["delays"])
        state_delays = sorted(d for report in reports for d in report["state_delays"])
        result.update({
            "lines_due": lines_due, "lost": lost, "stale_states": stale,
            "duplicates": sum(r["duplicates"] for r in reports),
            "lost_connections": sum(r["lost_connections"] for r in reports),
            "failed": [f for r in reports for f in r["failed"]][:3],
            "delays": delays, "state_delays": state_delays,
            "spectators_cpu": sum(r["cpu"] for r in reports) / (time.time() - start_connecting),
        })
    return result


def say(result: dict, args) -> None:
    n = result["spectators"]
    print(f"-- {n} spectators" + (f" (connected and subscribed in {result['connected_in']:.1f} s)" if n else ""))
    print(f"   journal lines committed at the boards {result['committed']}")
    if n:
        print(f"   lines due to the spectators {result['lines_due']}, lost {result['lost']} (not there {args.drain:g} s"
              f" after the run's end; target 0),"
              f" duplicates {result['duplicates']}, spectators whose board's last state was not its last line"
              f" {result['stale_states']}, connections lost {result['lost_connections']}")
        for failure in result["failed"]:
            print(f"   failure: {failure}")
        for what, delays in (("commit -> journal line at the spectator", result["delays"]),
                             ("commit -> state showing it at the spectator", result["state_delays"])):
            if delays:
                print(f"   {what}: p50 {quantile(delays, 0.5)} ms, p95 {quantile(delays, 0.95)} ms,"
                      f" max {delays[-1]} ms, mean {statistics.fmean(delays):.0f} ms ({len(delays)} lines)")
    cpu = [f"boards {100 * result['boards_cpu']:.1f}%", f"club {100 * result['club']:.1f}%",
           f"mosquitto {100 * result['mosquitto']:.1f}%",
           *(f"{what} {100 * value:.1f}%" for what, value in result.items() if what.startswith("rabbitmq "))]
    if n:
        cpu.append(f"the simulated spectators {100 * result['spectators_cpu']:.0f}%")
    print("   CPU (share of one core): " + ", ".join(cpu))


async def measure(args) -> None:
    from reedboard.controller.broadcast.club import mosquitto, rabbitmq
    from broadcast_load import CLUB

    with tempfile.TemporaryDirectory(prefix="reedboard-spectators-") as scratch:
        scratch = Path(scratch)
        epmd = rabbitmq.Epmd().start()
        feeders = {"feeder": "feeder-bench"}
        nodes = [rabbitmq.RabbitMQ(scratch / "rabbitmq", name="spectators-a", feeders=feeders, epmd=epmd)]
        if args.cluster:
            nodes.append(rabbitmq.RabbitMQ(scratch / "rabbitmq", name="spectators-b", feeders=feeders, epmd=epmd))
        broker = club = None
        club_log = open(scratch / "club.log", "wb")
        try:
            began = time.monotonic()
            for node in nodes:
                node.start()
            if args.cluster:
                nodes[1].join(nodes[0])
                running = json.loads(nodes[0].ctl("cluster_status", "--formatter", "json"))["running_nodes"]
                print(f"cluster: running nodes {', '.join(sorted(running))}")
            print(f"RabbitMQ {'nodes' if args.cluster else 'node'} up in {time.monotonic() - began:.1f} s"
                  + (" (the second joined to the first: rabbitmqctl join_cluster)" if args.cluster else ""))
            broker = rabbitmq.bridged_mosquitto(scratch / "mosquitto", nodes[0]).start()
            web_port = mosquitto.free_port()
            club = subprocess.Popen([sys.executable, "-c", CLUB, broker.url, str(web_port), str(scratch / "club")],
                                    stdout=subprocess.DEVNULL, stderr=club_log)
            time.sleep(2)
            print(f"boards {args.boards} (in {args.processes} processes), a journal line every {1 / args.rate:g} s each,"
                  f" {args.seconds:g} s a run; spectators over Web MQTT, QoS {args.qos}, each following"
                  f" {'every board' if args.follow == 'all' else 'one board'}, in {args.spectator_processes} processes"
                  f"{' split between the two nodes' if args.cluster else ''}")
            for run, spectators in (("quiet", 0), ("watched", args.spectators)):
                say(await evening(args, spectators, scratch, broker, nodes, club, run), args)
        finally:
            if club is not None:
                club.terminate()
                club.wait(10)
            if broker is not None:
                broker.stop()
            for node in reversed(nodes):
                node.stop()
            epmd.stop()
            club_log.close()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (everything runs here)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=64)
    parser.add_argument("--spectators", type=int, default=5000)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rate", type=float, default=0.2, help="journal lines a second per board")
    parser.add_argument("--processes", type=int, default=4, help="processes the simulated boards run in")
    parser.add_argument("--spectator-processes", type=int, default=4, help="processes the spectators run in")
    parser.add_argument("--qos", type=int, choices=(0, 1), default=0, help="the spectators' subscriptions")
    parser.add_argument("--follow", choices=("one", "all"), default="one",
                        help="each spectator follows one board (shared out in turn) or every board")
    parser.add_argument("--cluster", action="store_true", help="two RabbitMQ nodes joined, the spectators split")
    parser.add_argument("--drain", type=float, default=3.0, help="seconds left for the last lines to arrive")
    parser.add_argument("--spectator-child", action="store_true", help=argparse.SUPPRESS)
    for child_option in ("--ws-ports", "--board-names"):
        parser.add_argument(child_option, help=argparse.SUPPRESS)
    for child_option in ("--first", "--count"):
        parser.add_argument(child_option, type=int, help=argparse.SUPPRESS)
    parser.add_argument("--start", type=float, default=0.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.spectator_child:
        asyncio.run(spectators_process(args))
        return
    from reedboard.controller.broadcast.club import mosquitto, rabbitmq

    if mosquitto.binary() is None:
        raise SystemExit("bench/spectators.py: no mosquitto (apt-get install mosquitto)")
    if rabbitmq.binary() is None or rabbitmq.epmd_binary() is None:
        raise SystemExit("bench/spectators.py: no rabbitmq-server (apt-get install rabbitmq-server)")
    if args.boards < 1 or args.spectators < 0 or args.spectator_processes < 1 or args.rate <= 0:
        raise SystemExit("bench/spectators.py: --boards, --spectator-processes and --rate must be positive")
    asyncio.run(measure(args))


if __name__ == "__main__":
    main()
