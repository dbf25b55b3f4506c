"""How the board answers while the computer thinks: the time from a piece lifted on the
simulated board to the referee counting it, while the computer searches.

The search runs in a worker process (the table's way) or, for comparison, in a thread of the
board's own process, where it holds the interpreter's lock: the board then waits for it. A
level's search is a node budget (and a depth), over in a fraction of a second here; so the bench
searches at the top level's setting without either, until its lifts are done, and every lift
falls inside a search. The same lifts with no search running give the board's own time.

    python bench/thinking_board.py [--game abalone] [--lifts 40]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import statistics
import tempfile
import time

from reedboard.controller.core.computer import Computer
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.games import GAMES
from reedboard.controller.opponent.levels import level
from reedboard.controller.opponent.search import choose
from reedboard.controller.opponent.search_parts import Limits
from reedboard.controller.opponent.worker import Thinker
from reedboard.controller.session.play_session import PlaySession

TOP = 8  # the level whose setting the search has
SEARCH_SECONDS = 600.0  # a cap far beyond the lifts: the bench stops the search itself
DEEPEST = Limits().depth  # plies no search here reaches


class UnboundedThinker(Thinker):
    """The top level's search without its node budget and depth: it goes on until stopped."""

    def limits(self, number: int, game: str | None = None):
        return dataclasses.replace(level(number).limits(game), nodes=None, depth=DEEPEST, seconds=SEARCH_SECONDS)

    async def started(self) -> None:
        """Until the worker is up, so that a question is searched as soon as it is asked."""
        await asyncio.wrap_future(self._pool().submit(int))


async def measure(game: str, lifts: int, processes: bool | None) -> list[float]:
    """The delays of `lifts` lifts; `processes` None: no computer in the game."""
    players = GAMES[game].players
    thinker = UnboundedThinker(processes=bool(processes)) if processes is not None else None
    if thinker is not None:
        await thinker.started()
    session = PlaySession(game, games_dir=tempfile.mkdtemp(), setup="given",
                          settings=Settings(debounce=0.001, settle=0.05, grace=60),
                          computer=Computer(players[0], TOP) if thinker else None, thinker=thinker)
    await session.start()
    try:
        referee = session.referee
        if thinker is not None:
            while not session.thinking:
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.5)  # the search well under way
        cell = next(iter(sorted(referee.game.occupied())))
        delays = []
        for _ in range(lifts):
            if thinker is not None and not session.thinking:
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


def top_level_search(game: str) -> str:
    """What the top level's own search takes here: its nodes and time for the first move."""
    limits = level(TOP).limits(game)
    started = time.perf_counter()
    result = choose(GAMES[game](), limits)
    return f"{result.nodes} nodes (budget {limits.nodes}) in {(time.perf_counter() - started) * 1000:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="abalone", choices=sorted(GAMES))
    parser.add_argument("--lifts", type=int, default=40)
    args = parser.parse_args()
    print(f"{args.game}: level {TOP}'s own search for the first move: {top_level_search(args.game)};"
          f" here it searches without its budget and depth until the lifts are done")
    for processes in (None, True, False):
        delays = asyncio.run(measure(args.game, args.lifts, processes))
        where = {None: "no search running", True: "search in a worker process",
                 False: "search in a thread of the board's process"}[processes]
        if not delays:
            print(f"{args.game}, {where}: no lift counted (the search ended before the first)")
            continue
        ms = sorted(d * 1000 for d in delays)
        print(f"{args.game}, {where}: {len(ms)} lifts counted in median {statistics.median(ms):.1f} ms,"
              f" p95 {ms[int(0.95 * (len(ms) - 1))]:.1f} ms, max {ms[-1]:.1f} ms")


if __name__ == "__main__":
    main()
