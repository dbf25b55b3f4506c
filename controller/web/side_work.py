"""Work a spectator asks for, done beside the referee, never in its loop.

Listing and replaying past games reads journals and replays every move through the rules
engine: long enough to hold up the board if it ran in the referee's loop. Here it runs in one
worker thread (one, so that spectators together take at most one thread's share of the
processor); the loop only waits for the answer. The same work asked for again while it runs
is shared, and when too much is waiting a spectator is told to come back later.

    work = SideWork()
    answer = await work.run(("game", name), answers.replay, name)   # Busy when too much waits
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

WAITING_AT_MOST = 16  # different pieces of work waiting at once


class Busy(Exception):
    """Too much work is waiting already."""


class SideWork:
    def __init__(self, waiting_at_most: int = WAITING_AT_MOST) -> None:
        self.waiting_at_most = waiting_at_most
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="reedboard-side-work")
        self._pending: dict[Hashable, asyncio.Future] = {}

    async def run(self, key: Hashable, work: Callable[..., Any], *args: Any) -> Any:
        """work(*args) in the worker thread; one run for all who ask for `key` meanwhile."""
        shared = self._pending.get(key)
        if shared is None:
            if len(self._pending) >= self.waiting_at_most:
                raise Busy(f"{len(self._pending)} answers are being worked out already")
            shared = asyncio.get_running_loop().run_in_executor(self._executor, work, *args)
            self._pending[key] = shared
            shared.add_done_callback(lambda done: self._finished(key, done))
        # shielded: a spectator who leaves does not cancel the answer for the others
        return await asyncio.shield(shared)

    def _finished(self, key: Hashable, done: asyncio.Future) -> None:
        self._pending.pop(key, None)
        if not done.cancelled():
            done.exception()  # seen, even when everyone who asked has left

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
