"""The archive's index over 10,000 journals: how long a rebuild takes, and each list query.

    python bench/archive_index.py [--games N] [--dir DIR] [--jobs J]

Writes N journals of random legal games (Big Balls, Off Board and Abalone in turn, of 1 to 150
moves, a third of the unfinished ones resigned or drawn, two named players each from a club of
40) with controller.persist.journal.Journal into DIR (a temporary folder, removed afterwards, unless
--dir names one: then its journals are reused by the next run). Writing them is not timed, and
does without the journal's fsync so that it takes a minute rather than an hour. Then it times:
the rebuild of the index from nothing (J processes reading journals, and 1), a refresh that finds
nothing changed, and list queries: the targets are 30 s for the rebuild and 50 ms a query.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from reedboard.controller.archive.index import INDEX_NAME, Archive
from reedboard.controller.games import GAMES, game_class
from reedboard.controller.persist.game_files import SUFFIX
from reedboard.controller.persist.journal import Journal

NAMES = [f"Player {n}" for n in range(40)]
FIRST_DAY = datetime(2024, 1, 1, 18, 0, tzinfo=timezone.utc)
REBUILD_TARGET, QUERY_TARGET = 30.0, 0.050


def write_game(task: tuple[str, int]) -> None:
    folder, index = task
    rng = random.Random(index)
    name = list(GAMES)[index % len(GAMES)]
    game = game_class(name).drawn_start(rng)
    players = dict(zip(game.players, rng.sample(NAMES, 2)))
    started = FIRST_DAY + timedelta(hours=index * 2, seconds=index % 60)
    journal = Journal.create(folder, game, {}, started, players=players)
    t = 0.0
    for _ in range(rng.randint(1, 150)):
        if game.outcome() is not None:
            break
        t = round(t + rng.uniform(1, 30), 2)
        options = game.turn_moves(None)
        if game.uses_die and game.can_roll():
            roll = rng.randint(1, 6)
            journal.append_roll(t, game.turn, roll)
            options = game.turn_moves(roll)
        move = rng.choice(list(options))
        game.push(move)
        journal.append_move(t, game.format_move(move))
    outcome = game.outcome()
    if outcome is None and rng.random() < 0.33:
        outcome = game.resign(game.turn) if rng.random() < 0.8 else game.agree_draw()
    if outcome is not None:
        journal.append_result(t + 1, outcome.result(game.players), outcome.termination.value, outcome.winner)
    journal.close()


def _no_sync(fd: int) -> None:
    """Writing test journals only: the journal syncs every line, which the bench need not wait for."""


def write_journals(folder: Path, count: int, jobs: int) -> None:
    present = sum(1 for p in folder.glob(f"*{SUFFIX}") if not p.name.endswith(".trace.jsonl"))
    if present >= count:
        print(f"{present} journals already in {folder}")
        return
    started = time.perf_counter()
    os.fsync = _no_sync  # inherited by the workers (fork)
    with multiprocessing.Pool(jobs) as pool:
        for done, _ in enumerate(pool.imap_unordered(write_game, [(str(folder), i) for i in range(count)], 50), 1):
            if done % 1000 == 0:
                print(f"  {done} journals written", file=sys.stderr)
    size = sum(p.stat().st_size for p in folder.glob(f"*{SUFFIX}"))
    print(f"wrote {count} journals ({size / 1e6:.1f} MB) in {time.perf_counter() - started:.0f} s")


def timed(what, repeat: int = 1):
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        value = what()
        times.append(time.perf_counter() - started)
    return statistics.median(times), value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--dir", type=Path)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    folder = args.dir or Path(tempfile.mkdtemp(prefix="reedboard-archive-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        write_journals(folder, args.games, args.jobs)
        for jobs in sorted({args.jobs, 1}, reverse=True):
            (folder / INDEX_NAME).unlink(missing_ok=True)
            with Archive(folder, jobs=jobs) as archive:
                seconds, skipped = timed(archive.rebuild)
                listed = len(archive.games())
            verdict = "ok" if seconds <= REBUILD_TARGET else "OVER"
            print(f"rebuild from nothing, {jobs} process{'es' if jobs > 1 else ''}: {seconds:.1f} s for {listed} games"
                  f" ({len(skipped)} skipped; target {REBUILD_TARGET:.0f} s: {verdict})")
        with Archive(folder) as archive:
            seconds, _ = timed(archive.refresh, 5)
            print(f"refresh, nothing changed: {seconds * 1000:.0f} ms")
            queries = {
                "newest 50": dict(limit=50),
                "50, 5000 further on": dict(limit=50, offset=5000),
                "one game": dict(game="abalone", limit=50),
                "one player": dict(player="player 7"),
                "a month": dict(since=date(2024, 6, 1), until=date(2024, 6, 30)),
                "unfinished": dict(result="unfinished", limit=50),
                "player, game, result": dict(player="Player 3", game="bigballs", result="win"),
                "player over a year": dict(player="Player 12", since=date(2024, 1, 1), until=date(2024, 12, 31)),
                f"all {listed}": {},
            }
            for label, filters in queries.items():
                seconds, found = timed(lambda: archive.games(**filters), 5)
                verdict = "ok" if seconds <= QUERY_TARGET else "OVER"
                print(f"list {label:<22} {seconds * 1000:7.1f} ms  {len(found):5d} games  ({verdict})")
            seconds, counted = timed(lambda: archive.count(player="Player 7", result="win"), 5)
            print(f"count (player, result)      {seconds * 1000:7.1f} ms  {counted:5d} games")
            seconds, _ = timed(archive.stats, 3)
            print(f"stats (every player)        {seconds * 1000:7.1f} ms")
            seconds, _ = timed(lambda: archive.stats("Player 5"), 3)
            print(f"stats (one player)          {seconds * 1000:7.1f} ms")
    finally:
        if args.dir is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
