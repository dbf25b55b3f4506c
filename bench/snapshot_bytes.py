"""What a watcher's page is sent for each move, and what building a snapshot costs.

Serves a play session on the simulated board on 127.0.0.1 (a free port, in this process's
loop), opens WATCHERS WebSockets (/ws?lang=..., languages taken in turn from LANGUAGES), and
plays MOVES moves by clicks, as a hand makes them, with a seeded die and seeded choices. Each
watcher counts the bytes and messages it receives from the first move on. Then, at the
position reached (mid-game), builds the session's snapshot BUILDS times as a change builds it
for the watchers (its words in their languages), and with its words in every language (what
every change cost while a snapshot carried them all; what /api/state and the broadcast ask for).

Prints, per game: messages a move a watcher, bytes a message, bytes a move a watcher, and
CPU microseconds per snapshot build (the quickest of ROUNDS rounds: other work on the machine
only ever adds to one).

    python bench/snapshot_bytes.py [--moves 20] [--watchers 2] [--builds 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
import timeit
from pathlib import Path

import websockets

from reedboard.controller.core.reconcile import Settings
from reedboard.controller.language.catalogue import LANGUAGES
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.session.snapshot import Geometry, said, session_snapshot
from reedboard.controller.web.app import make_server
from reedboard.controller.web.listening import tcp_listener

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from play_sessions import carry_out  # noqa: E402  (the tests' hand, clicking a move)

HAND = Settings(debounce=0.001, settle=0.05, grace=0.2)
CLICK_PAUSE = 0.02  # s between two clicks of the hand
PATIENCE = 10.0  # s for the board to take a move
ROUNDS = 10  # of snapshot builds, the quickest kept


async def until(condition, what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"never {what}")
        await asyncio.sleep(0.005)


class Watcher:
    """A page's WebSocket in one language: the bytes and messages it got since counting began."""

    def __init__(self, port: int, lang: str) -> None:
        self.lang = lang
        self.url = f"ws://127.0.0.1:{port}/ws?lang={lang}"
        self.counting = False
        self.bytes = self.messages = 0
        self.seq = 0

    async def run(self, ready: asyncio.Event) -> None:
        async with websockets.connect(self.url, max_size=None, compression=None) as ws:
            async for text in ws:
                if not ready.is_set():
                    ready.set()
                if self.counting:
                    self.bytes += len(text.encode("utf-8"))
                    self.messages += 1
                self.seq = max(self.seq, _seq(text))


def _seq(text: str) -> int:
    """The snapshot's number, read without decoding the whole message."""
    at = text.rfind('"seq":')
    digits = ""
    for ch in text[at + 6:]:
        if not ch.isdigit():
            break
        digits += ch
    return int(digits or 0)


async def play(session: PlaySession, moves: int, rng: random.Random) -> int:
    referee = session.referee
    made = 0
    for _ in range(moves):
        game = referee.game
        if game.outcome() is not None:
            break
        roll = None
        if game.uses_die:
            session.press("die")
            await until(lambda: referee.roll is not None and not referee.view().rolling, "rolled")
            roll = referee.roll
        choices = sorted(game.turn_moves(roll), key=str)
        before = len(game.move_stack)
        await carry_out(session, game.footprint(rng.choice(choices)), CLICK_PAUSE)
        await until(lambda: len(referee.game.move_stack) > before, "the move taken")
        made += 1
    return made


def build_time(session: PlaySession, builds: int, languages: tuple[str, ...]) -> float:
    """CPU seconds per snapshot as a change builds it, its words in `languages` (see
    controller.session.snapshot: the rest is built on every change, the words when asked for);
    the best of a few rounds, as other work on the machine only ever adds to it."""
    geometry = Geometry()

    def build() -> None:
        body = session_snapshot(session, geometry)
        for lang in languages:
            said(session, body, lang)

    rounds = timeit.Timer(build, timer=time.process_time).repeat(repeat=ROUNDS, number=max(1, builds // ROUNDS))
    return min(rounds) / max(1, builds // ROUNDS)


async def measure(game: str, args: argparse.Namespace, folder: str) -> dict:
    rng = random.Random(args.seed)
    session = PlaySession(game, games_dir=folder, setup="given", settings=HAND, rng=random.Random(args.seed))
    sock = tcp_listener()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = make_server(session, "127.0.0.1", port)
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    watchers, tasks = [], []
    try:
        await until(lambda: server.started, "the server started")
        await until(lambda: session.referee is not None and session.referee.phase.value in ("play", "rolled"),
                    "the game set up")
        for i in range(args.watchers):
            watcher = Watcher(port, LANGUAGES[i % len(LANGUAGES)])
            ready = asyncio.Event()
            tasks.append(asyncio.create_task(watcher.run(ready)))
            await asyncio.wait_for(ready.wait(), PATIENCE)
            watchers.append(watcher)
        await asyncio.sleep(0.3)  # the first snapshot and the set-up's are not a move's
        for watcher in watchers:
            watcher.counting = True
        made = await play(session, args.moves, rng)
        await until(lambda: all(w.seq >= session.seq for w in watchers), "every watcher up to date")
        for watcher in watchers:
            watcher.counting = False
        watched = tuple(dict.fromkeys(w.lang for w in watchers))
        built = build_time(session, args.builds, watched), build_time(session, args.builds, LANGUAGES)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        server.should_exit = True
        await serving
    messages = statistics.mean(w.messages for w in watchers) / made
    per_move = statistics.mean(w.bytes for w in watchers) / made
    return {"moves": made, "messages": messages, "per_message": per_move / messages, "per_move": per_move,
            "build": built}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--watchers", type=int, default=2)
    parser.add_argument("--builds", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    watched = ", ".join(dict.fromkeys(LANGUAGES[i % len(LANGUAGES)] for i in range(args.watchers)))
    print(f"watchers: {args.watchers} ({watched}); build: µs a snapshot, its words in the watchers' languages"
          f" / in all {len(LANGUAGES)}")
    print(f"{'game':10} {'moves':>5} {'msgs/move':>9} {'B/msg':>7} {'B/move/watcher':>15} {'build µs':>9}"
          f" {'all langs µs':>12}")
    with tempfile.TemporaryDirectory() as folder:
        for game in ("bigballs", "offboard"):
            r = asyncio.run(measure(game, args, folder))
            print(f"{game:10} {r['moves']:5} {r['messages']:9.1f} {r['per_message']:7.0f} {r['per_move']:15.0f}"
                  f" {r['build'][0] * 1e6:9.0f} {r['build'][1] * 1e6:12.0f}")


if __name__ == "__main__":
    main()
