"""The computer thinks in a worker process, so that the board's loop never waits for it: while
a search runs, the board goes on sensing, lighting and answering the page.

One search at a time; the newest question wins. Each question gets a number, shared with the
worker: a search whose number is no longer the newest stops at its next check and returns the
best move it has so far (which the referee then drops, the position having moved on).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Hashable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ..games.base import Game
from .levels import level
from .review import SEED, review_limits
from .search import choose
from .search_parts import Limits

_newest = None  # in the worker: the number of the newest question (shared with the board's process)
PARENT_CHECK = 0.5  # s between the worker's looks at its parent


def _start_worker(newest, parent: int | None = None) -> None:
    global _newest
    _newest = newest
    if parent is not None:
        end_with_parent(parent)


def end_with_parent(parent: int) -> None:
    """In a worker process the board started (the computer's, a review's): end it when the
    board's process `parent` is gone (killed, it cannot say so), so that no worker (nor
    multiprocessing's resource tracker, which ends with the last of them) lives on. A thread
    looks every PARENT_CHECK seconds: the worker's own work never has to."""
    threading.Thread(target=_end_with, args=(parent,), name="parent watch", daemon=True).start()


def _end_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(0)


def hint_limits(game: str | None = None, seconds: float | None = None) -> Limits:
    """A hint's search: the review's (review.review_limits, seeded alike), so that a move the hint
    shows is never marked by the review of the game, whatever the computer's level."""
    from dataclasses import replace

    return replace(review_limits(), seconds=seconds)


def _decide(number: int, game: Game, limits: Limits, roll: int | None, seed: int, newest=None) -> Hashable:
    """In the worker: the move (or ROLL) for question `number` (`newest`: the shared number,
    when it cannot come by inheritance, in a thread)."""
    newest = newest or _newest
    return choose(game, limits, roll=roll, rng=random.Random(seed), stop=lambda: newest.value != number).move


class _Counter:  # the threads' stand-in for a shared value
    value = 0


class Thinker:
    """Answers the referee's questions (controller.core.computer.Question) by searching elsewhere.

    seconds: the most a move may take (a slower Pi: the levels' node budgets are cut short by it).
    processes: False searches in a thread instead (tests that need no second process)."""

    def __init__(self, seconds: float | None = None, *, processes: bool = True) -> None:
        self.seconds = seconds
        self.processes = processes
        self._rng = random.Random()
        self._lock = threading.Lock()
        self._executor: Executor | None = None
        if processes:
            self._context = multiprocessing.get_context("spawn")  # no copy of the board's loop and threads
            self._newest = self._context.Value("q", 0, lock=False)
        else:
            self._newest = _Counter()

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.processes:
                self._executor = ProcessPoolExecutor(1, mp_context=self._context, initializer=_start_worker,
                                                     initargs=(self._newest, os.getpid()))
            else:
                self._executor = ThreadPoolExecutor(1)
        return self._executor

    def limits(self, number: int, game: str | None = None) -> Limits:
        """Level `number`'s limits in `game` (a name): its node budget, with a time cap for
        safety only (the budgets take far less here; a much slower board stops at the cap)."""
        chosen = level(number, game)
        cap = chosen.safety_seconds(game)
        return chosen.limits(game, seconds=cap if self.seconds is None else min(cap, self.seconds))

    def warm_up(self) -> None:
        """Start the worker now, so that the first move does not wait for it."""
        self._pool().submit(int)

    async def decide(self, question) -> Hashable:
        """The move (or ROLL) for `question`; a worker that died is started again once."""
        with self._lock:
            self._newest.value += 1
            number = self._newest.value
        if question.hint:  # the review's search: a hint the review would not mark
            limits, seed = hint_limits(question.game.name, self.limits(question.level, question.game.name).seconds), SEED
        else:
            limits, seed = self.limits(question.level, question.game.name), self._rng.getrandbits(32)
        args = (number, question.game, limits, question.roll, seed)
        if not self.processes:
            args += (self._newest,)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), _decide, *args)
        except BrokenProcessPool:
            self._executor = None
            return await loop.run_in_executor(self._pool(), _decide, *args)

    def cancel(self) -> None:
        """Stop the search running (it answers at once with its best move so far)."""
        with self._lock:
            self._newest.value += 1

    def close(self) -> None:
        self.cancel()
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
