"""The computer's review of an archived game (controller.opponent.review): what it is asked
for, a key that says when a review kept in the index still holds, and a worker process that
works it out, so that neither the board's loop nor the page's side work searches.

    job = review_job(path, nodes)          # the journal read: the game's start, its moves, its end
    data = compute(job)                    # the review's JSON (here, in this process)
    ReviewWorker().review(job)             # the same, in a worker process (a concurrent Future)

A review is kept in the index by the journal's name and a digest of what makes its numbers: the
game's start, its moves, how it ended, the nodes and REVIEW_VERSION. A journal that only gained
its players' names keeps its reviews; one whose moves changed is reviewed again (and its
reviews of the old moves are dropped).
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import threading
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from ..games import Game
from ..opponent.review import REVIEW_NODES, REVIEW_VERSION, review, score
from ..persist.journal_format import JournalContents
from ..persist.journal_replay import rebuild
from ..persist.notation import starting_position

__all__ = ["REVIEW_NODES", "REVIEW_VERSION", "ReviewJob", "ReviewWorker", "compute", "job_of", "review_job"]


@dataclass
class ReviewJob:
    """What a review is worked out from, and the key it is kept by."""

    name: str  # the journal's file name
    start: Game
    moves: list[str]
    end: float | None  # the first player's result, once the game is over
    nodes: int
    digest: str = ""  # of the game and the review's settings: the key a review is kept by
    game_digest: str = ""  # of the game alone (its start, moves and end)
    cached: dict | None = field(default=None, compare=False)  # the review kept in the index, if any

    def __post_init__(self) -> None:
        game = {"game": self.start.name, "first": self.start.turn, "start": self.start.start_header(),
                "moves": self.moves, "end": self.end}
        self.game_digest = self.game_digest or _digest(game)
        self.digest = self.digest or _digest({**game, "nodes": self.nodes, "version": REVIEW_VERSION})


def _digest(key: dict) -> str:
    return hashlib.sha256(json.dumps(key, sort_keys=True, ensure_ascii=True).encode()).hexdigest()


def job_of(name: str, game: Game, nodes: int = REVIEW_NODES) -> ReviewJob:
    """The review job of `game` (its moves on its stack, its end declared or by the rules)."""
    start = starting_position(game)
    return ReviewJob(name, start, _notation(start, game), score(game, start.turn), nodes)


def _notation(start: Game, game: Game) -> list[str]:
    """The game's moves in the rules' notation, each written in the position it was made in."""
    replay, written = start.copy(), []
    for move in game.move_stack:
        written.append(replay.format_move(move))
        replay.push(move)
    return written


def review_job(contents: JournalContents, nodes: int = REVIEW_NODES) -> ReviewJob:
    """The review job of a journal read (JournalError for one that does not replay)."""
    return job_of(Path(contents.path).name if contents.path else "", rebuild(contents).game, nodes)


def compute(job: ReviewJob) -> dict:
    """The review's JSON (controller.opponent.review.Review.data), worked out here."""
    return review(job.start, job.moves, job.nodes, end=job.end).data()


class ReviewWorker:
    """Works reviews out in one worker process, one at a time; the same review asked for again
    while it is worked out is shared. processes=False: in a thread (tests)."""

    def __init__(self, *, processes: bool = True) -> None:
        self.processes = processes
        self.computed = 0  # reviews worked out (not shared, not kept ones)
        self._executor: Executor | None = None
        self._pending: dict[str, Future] = {}
        self._lock = threading.Lock()

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.processes:
                self._executor = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
            else:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="reedboard-review")
        return self._executor

    def review(self, job: ReviewJob) -> Future:
        """The review of `job` (a Future of its JSON data)."""
        with self._lock:
            pending = self._pending.get(job.digest)
            if pending is not None:
                return pending
            self.computed += 1
            try:
                pending = self._pool().submit(compute, job)
            except RuntimeError:  # the pool broke (a worker killed): a new one
                self._executor = None
                pending = self._pool().submit(compute, job)
            self._pending[job.digest] = pending
        pending.add_done_callback(lambda done: self._done(job.digest))
        return pending

    def _done(self, digest: str) -> None:
        with self._lock:
            self._pending.pop(digest, None)

    def close(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
