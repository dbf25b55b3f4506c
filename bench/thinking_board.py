"""How the board answers while the computer thinks: the time from a piece lifted on the
simulated board to the referee counting it, while the computer searches at its top level.

The search runs in a worker process (the table's way) or, for comparison, in a thread of the
board's own process, where it holds the interpreter's lock: the board then waits for it.

    python bench/thinking_board.py [--game abalone] [--lifts 40]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time

from reedboard.controller.core.computer import Computer
from reedboard.controller.games import GAMES
from reedboard.controller.opponent.worker import Thinker
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.core.reconcile import Settings


async def measure(game: str, processes: bool, lifts: int) -> list[float]:
    players = GAMES[game].players
    session = PlaySession(game, games_dir=tempfile.mkdtemp(), setup="given",
                          settings=Settings(debounce=0.001, settle=0.05, grace=60),
                          computer=Computer(players[0], 8), thinker=Thinker(seconds=30, processes=processes))
    await session.start()
    try:
        referee = session.referee
        while not session.thinking:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.5)  # the search well under way
        cell = next(iter(sorted(referee.game.occupied())))
        delays = []
        for _ in range(lifts):
            if not session.thinking:
                break
            started = time.perf_counter()
            session.click(cell)  # lifted ... the board reports it; the referee counts it
            while cell in referee.reconciler.stable:
                await asyncio.sleep(0)
            delays.append(time.perf_counter() - started)
            session.click(cell)  # ... and put back
            while cell not in referee.reconciler.stable:
                await asyncio.sleep(0)
            await asyncio.sleep(0.02)
        return delays
    finally:
        await session.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="abalone", choices=sorted(GAMES))
    parser.add_argument("--lifts", type=int, default=40)
    args = parser.parse_args()
    for processes in (True, False):
        delays = asyncio.run(measure(args.game, processes, args.lifts))
        where = "worker process" if processes else "thread of the board's process"
        ms = sorted(d * 1000 for d in delays)
        print(f"{args.game}, search in a {where}: {len(ms)} lifts counted in median {statistics.median(ms):.1f} ms,"
              f" p95 {ms[int(0.95 * (len(ms) - 1))]:.1f} ms, max {ms[-1]:.1f} ms")


if __name__ == "__main__":
    main()
