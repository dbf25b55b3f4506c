"""The computer's review of an archived game (controller.opponent.review): what it is asked
for, a key that says when a review kept in the index still holds, and a worker process that
works it out, so that neither the board's loop nor the page's side work searches.

    job = review_job(path, nodes)          # the journal read: the game's start, its moves, its end
    data = compute(job)                    # the review's JSON (here, in this process)
    await ReviewWorker().review(job)       # the same, in a worker process

A review is kept in the index by the journal's name and a digest of what makes its numbers: the
game's start, its moves, how it ended, the nodes and REVIEW_VERSION. A journal that only gained
its players' names keeps its reviews; one whose moves changed is reviewed again (and its
reviews of the old moves are dropped). A game that goes on is reviewed a move at a time: the
review kept of its first moves (`earlier`) is taken as it is and only the moves after it are
searched.

What the index holds is read with care (read_kept): its size first, from SQLite's own record
of it, never more than a review of the game's moves can take; then its shape, point by point
against the game's moves. A row that is too big, not JSON or of another shape is not used: the
review is worked out again, and replaces it.

The worker process is the ReviewWorker's alone: it starts it at the first review, replaces it
when it died (the review it was working out is asked of the new one once more; a second death
is ReviewUnavailable), stops the review nobody waits for any more, and ends it with the
board's process, even one killed without a word.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import itertools
import json
import multiprocessing
import os
import sqlite3
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from ..games import Game
from ..opponent.review import REVIEW_NODES, REVIEW_VERSION, NotThisGame, moves_of, review, score
from ..opponent.worker import end_with_parent
from ..persist.journal_format import JournalContents
from ..persist.journal_replay import rebuild
from ..persist.notation import starting_position

__all__ = ["REVIEW_NODES", "REVIEW_VERSION", "ReviewBusy", "ReviewJob", "ReviewUnavailable", "ReviewWorker",
           "compute", "job_of", "read_kept", "review_job", "size_limit", "valid"]

REVIEW_SIZE = 2048  # bytes of a review's JSON beyond its points, at most
POINT_SIZE = 512  # bytes of one point of it, at most (a marked move with its better move takes about 250)
EARLIER_ROWS = 8  # reviews of a journal looked at for one of its first moves
WAITING_AT_MOST = 8  # different reviews waiting for the worker at once
ATTEMPTS = 2  # a review whose worker died is asked of a new one once more
SLOTS = 64  # the stop flags shared with the worker, one per review asked for (more than ever wait)

DATA_KEYS = frozenset({"first", "nodes", "version", "points", "result"})
POINT_KEYS = frozenset({"ply", "move", "mover", "p", "loss", "mark", "better", "cells", "rolled"})
MARKS = (None, "blunder", "mistake")
TEXT_LENGTH = 64  # characters of a move or a cell's name, at most


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
    earlier: dict | None = field(default=None, compare=False)  # a review kept of its first moves (it went on)
    stop: Callable[[], bool] | None = field(default=None, compare=False, repr=False)  # set where it is worked out

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
    """The review's JSON (controller.opponent.review.Review.data), worked out here: after the
    moves of `job.earlier` only, when it holds some (ReviewStopped when `job.stop()` says so)."""
    if job.earlier is not None:
        try:
            return review(job.start, job.moves, job.nodes, end=job.end, kept=moves_of(job.earlier),
                          stop=job.stop).data()
        except NotThisGame:  # its moves were not this game's after all: the whole game
            pass
    return review(job.start, job.moves, job.nodes, end=job.end, stop=job.stop).data()


# --- what the index holds, read with care ----------------------------------------------------------------
def size_limit(moves: int) -> int:
    """The most bytes the JSON of a review of `moves` moves can take."""
    return REVIEW_SIZE + POINT_SIZE * (moves + 1)


def read_kept(db: sqlite3.Connection, job: ReviewJob) -> None:
    """The reviews the index keeps for `job`'s journal: `job.cached`, the review of these very
    moves, and otherwise `job.earlier`, the longest review of its first moves while the game
    went on (at the same nodes), each only when it is no bigger than size_limit and of the
    review's shape; None where there is none."""
    job.cached = job.earlier = None
    limit = size_limit(len(job.moves))
    row = db.execute("SELECT rowid FROM reviews WHERE name = ? AND digest = ?", (job.name, job.digest)).fetchone()
    if row is not None:
        data = _read(db, row[0], limit)
        if valid(data, job):
            job.cached = data
            return
    for (rowid,) in db.execute("SELECT rowid FROM reviews WHERE name = ? AND digest != ? LIMIT ?",
                               (job.name, job.digest, EARLIER_ROWS)).fetchall():
        data = _read(db, rowid, limit)
        if valid(data, job, earlier=True) and (
                job.earlier is None or len(data["points"]) > len(job.earlier["points"])):
            job.earlier = data


def _read(db: sqlite3.Connection, rowid: int, limit: int) -> object:
    """The JSON of a row's review, None when it is bigger than `limit` bytes or no JSON. Its
    size comes from the row's record (a blob handle reads none of it; SQL's length() of a text
    reads it all), so a huge row is never brought into memory."""
    try:
        with db.blobopen("reviews", "data", rowid, readonly=True) as blob:
            if len(blob) > limit:
                return None
            text = blob.read()
        return json.loads(text.decode("utf-8"))
    except (sqlite3.OperationalError, UnicodeDecodeError, ValueError, RecursionError):
        return None  # not text nor bytes (a number, NULL), not UTF-8, not JSON


def valid(data: object, job: ReviewJob, *, earlier: bool = False) -> bool:
    """Is `data` the shape of a review (Review.data) of `job`'s moves, at its nodes and version
    and with its result? earlier: of its first moves, while the game went on (result None)."""
    if not isinstance(data, dict) or set(data) != DATA_KEYS or data["first"] != job.start.turn:
        return False
    if not _whole(data["nodes"]) or data["nodes"] != job.nodes or not _whole(data["version"]) or \
            data["version"] != REVIEW_VERSION:
        return False
    points = data["points"]
    if not isinstance(points, list) or not points or len(points) > len(job.moves) + 1:
        return False
    if earlier:
        if data["result"] is not None or len(points) < 2:
            return False
    elif len(points) != len(job.moves) + 1 or not (
            data["result"] is None if job.end is None else _share(data["result"]) and data["result"] == job.end):
        return False
    head = points[0]
    if not isinstance(head, dict) or set(head) != {"ply", "p"} or not _whole(head["ply"]) or head["ply"] != 0 or \
            not _share(head["p"]):
        return False
    players = set(job.start.players)
    for ply, point in enumerate(points[1:], 1):
        if not isinstance(point, dict) or set(point) != POINT_KEYS:
            return False
        if not _whole(point["ply"]) or point["ply"] != ply or point["move"] != job.moves[ply - 1]:
            return False
        if not isinstance(point["mover"], str) or point["mover"] not in players or not _share(point["p"]) or \
                not _share(point["loss"]):
            return False
        if point["mark"] not in MARKS or not (point["better"] is None or _text(point["better"])):
            return False
        if type(point["rolled"]) is not bool or (point["rolled"] and point["mark"] is None):
            return False
        if not _cells(point["cells"]):
            return False
    return True


def _whole(value: object) -> bool:
    return type(value) is int


def _share(value: object) -> bool:
    return type(value) in (int, float) and 0 <= value <= 1  # NaN is neither


def _text(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= TEXT_LENGTH


def _cells(value: object) -> bool:
    if value is None:
        return True
    return isinstance(value, dict) and set(value) == {"from", "to"} and all(
        isinstance(cells, list) and len(cells) <= TEXT_LENGTH and all(_text(cell) for cell in cells)
        for cells in value.values())


# --- the worker process ------------------------------------------------------------------------------------
class ReviewBusy(Exception):
    """Too many reviews are waiting for the worker already."""


class ReviewUnavailable(Exception):
    """The review cannot be worked out now: its worker died twice, or the worker was closed."""


_flags = None  # in the worker process: the stop flags shared with the board's process


def _start(flags, parent: int) -> None:
    """In the worker process, first: the stop flags, and an end with the board's process."""
    global _flags
    _flags = flags
    end_with_parent(parent)


def _work_out(job: ReviewJob, number: int, flags=None) -> dict:
    """In the worker: the review of `job`, asked for as `number`, stopped when its flag is set."""
    flags = _flags if flags is None else flags
    slot = number % SLOTS
    job.stop = lambda: flags[slot] != 0
    return compute(job)


@dataclass
class _Wanted:
    task: asyncio.Task
    waiters: int = 0


class ReviewWorker:
    """Works reviews out in one worker process, one at a time, for the asyncio loop that asks;
    the same review asked for again while it is worked out is shared, and stopped when all who
    asked for it have gone. processes=False: in a thread (tests)."""

    def __init__(self, *, processes: bool = True, waiting_at_most: int = WAITING_AT_MOST) -> None:
        self.processes = processes
        self.waiting_at_most = waiting_at_most
        self.computed = 0  # reviews worked out (not shared, not kept ones)
        self._executor: Executor | None = None
        self._shared = None  # the stop flags, made with the first worker
        self._wanted: dict[str, _Wanted] = {}
        self._numbers = itertools.count(1)
        self._closed = False

    @property
    def waiting(self) -> int:
        """Different reviews asked for and not worked out yet."""
        return len(self._wanted)

    def asked(self, digest: str) -> bool:
        """Is the review of this digest being worked out already (for someone else)?"""
        return digest in self._wanted

    async def review(self, job: ReviewJob) -> dict:
        """The review of `job`'s JSON data, worked out in the worker. ReviewBusy when too many
        different reviews wait, ReviewUnavailable when it cannot be worked out now; a caller
        cancelled (its client gone) stops the review, unless others wait for it too."""
        wanted = self._wanted.get(job.digest)
        if wanted is None:
            if self._closed:
                raise ReviewUnavailable("the review worker is closed")
            if len(self._wanted) >= self.waiting_at_most:
                raise ReviewBusy(f"{len(self._wanted)} reviews are waiting already")
            self.computed += 1
            wanted = _Wanted(asyncio.ensure_future(self._worked_out(job)))
            self._wanted[job.digest] = wanted
            wanted.task.add_done_callback(functools.partial(self._finished, job.digest, wanted))
        wanted.waiters += 1
        try:
            return await asyncio.shield(wanted.task)
        finally:
            wanted.waiters -= 1
            if not wanted.waiters and not wanted.task.done():  # nobody waits for it any more
                self._forget(job.digest, wanted)
                wanted.task.cancel()

    def _finished(self, digest: str, wanted: _Wanted, task: asyncio.Task) -> None:
        self._forget(digest, wanted)
        if not task.cancelled():
            task.exception()  # seen, even when everyone who asked has gone

    def _forget(self, digest: str, wanted: _Wanted) -> None:
        if self._wanted.get(digest) is wanted:
            del self._wanted[digest]

    async def _worked_out(self, job: ReviewJob) -> dict:
        for _attempt in range(ATTEMPTS):
            executor = self._pool()
            number = next(self._numbers)
            flags = self._flags()
            flags[number % SLOTS] = 0
            try:
                done = executor.submit(_work_out, job, number, *(() if self.processes else (flags,)))
            except RuntimeError:  # the pool broke while idle (its worker killed): a new one
                self._replace(executor)
                continue
            try:
                return await asyncio.wrap_future(done)
            except asyncio.CancelledError:
                flags[number % SLOTS] = 1  # running already: the worker stops it at its next look
                raise
            except BrokenProcessPool:  # the worker died (killed, out of memory): a new one
                self._replace(executor)
        raise ReviewUnavailable(f"the review worker died {ATTEMPTS} times")

    def _flags(self):
        if self._shared is None:
            if self.processes:
                self._shared = multiprocessing.get_context("spawn").Array("b", SLOTS, lock=False)
            else:
                self._shared = bytearray(SLOTS)
        return self._shared

    def _pool(self) -> Executor:
        if self._closed:
            raise ReviewUnavailable("the review worker is closed")
        if self._executor is None:
            if self.processes:  # spawned: no copy of the board's loop and threads
                self._executor = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                                     initializer=_start, initargs=(self._flags(), os.getpid()))
            else:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="reedboard-review")
        return self._executor

    def _replace(self, executor: Executor) -> None:
        """The broken `executor` let go (once, whoever saw it break first); the next review starts
        a new one."""
        if self._executor is executor:
            self._executor = None
            executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the review under way and end the worker; no review is worked out after."""
        self._closed = True
        if self._shared is not None:
            for slot in range(SLOTS):
                self._shared[slot] = 1
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
