"""A recorded game published as a board would publish it (`reedboard replay TRACE --broadcast URL`:
demonstrations, tests, a club showing a game again).

The trace is replayed by the referee (controller.session.replay); what it decided is written to a
journal as the game goes, at the pace the trace recorded it (`speed` times faster; 0: at
once), and the journal's lines go out through a Broadcaster exactly as a board's do. At its
end it waits for the broker to take every line and, when the club follows the broker, for the
club to confirm them, so that what it says waits is what the club has not stored. Refused by
the broker (its user, password or ACL), it stops at once: the one line the board said is all.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import asdict, fields
from datetime import datetime
from pathlib import Path

from ...core.clock import ClockSettings
from ...persist.journal_format import JournalError
from ...persist.journal import Journal
from ...core.reconcile import Settings
from ...session.replay import Replayed, replay
from ...persist.trace import read_trace
from ..address import BrokerAddress, parse_broker_url
from .board import Broadcaster, _say

FLUSH_WAIT = 30.0  # s a replay waits at its end for the broker to take what is left


async def publish_trace(trace, address: str | BrokerAddress, name: str, *, speed: float = 1.0,
                        source: str = "trace", games_dir: str | Path | None = None,
                        players: Mapping[str, str] | None = None, say: Callable[[str], None] = _say,
                        flush_wait: float = FLUSH_WAIT, broadcaster: Broadcaster | None = None,
                        now: datetime | None = None,
                        step: Callable[[int, dict], Awaitable[None]] | None = None,
                        replayed: Replayed | None = None) -> bool:
    """Publish a trace (a Trace or a trace file's path) as board `name` would: True when the
    broker took every line. The journal is written in `games_dir` (default: a temporary
    folder, removed at the end). A `broadcaster` given is left running (a board playing one game
    after another keeps its connection); one made here is stopped at the end. `step(i, entry)`, when given, is awaited before the i-th
    entry instead of the trace's pace (tests that do something at a given move)."""
    if isinstance(trace, (str, Path)):
        source, trace = str(trace), read_trace(trace)
    if replayed is None:  # (many boards simulated at once replay each trace once)
        replayed = replay(trace, source=source)
    header = trace.header
    known = {f.name for f in fields(Settings)}
    settings = Settings(**{k: v for k, v in header.get("settings", {}).items() if k in known})
    journal_header = _journal_header(source)
    clock_data = journal_header.get("clock")
    clock = ClockSettings(clock_data["minutes"], clock_data["increment"]) if clock_data else None
    players = dict(players or journal_header.get("players", {}))
    own = broadcaster is None
    if own:
        broadcaster = Broadcaster(address if isinstance(address, BrokerAddress) else parse_broker_url(address),
                                  name, say=say)
    with tempfile.TemporaryDirectory(prefix="reedboard-replay-") as scratch:
        folder = Path(games_dir) if games_dir is not None else Path(scratch)
        started = now or datetime.now().astimezone()
        refused = False
        try:
            await broadcaster.start()

            async def play() -> bool:
                journal = Journal.create(folder, trace.game(), asdict(settings), started, clock,
                                         players=players or None, written=broadcaster.line_written)
                try:
                    previous = replayed.decisions[0]["t"] if replayed.decisions else 0.0
                    for index, entry in enumerate(replayed.decisions):
                        t = entry.get("t", previous)
                        if step is not None:
                            await step(index, entry)
                        else:
                            await asyncio.sleep(max(0.0, t - previous) / speed if speed else 0)
                        previous = max(previous, t)
                        journal.append_entry(entry)
                finally:
                    journal.close()
                if not await broadcaster.flushed(flush_wait):
                    return False
                if own and broadcaster.club_following:  # the broadcast ends: what the club stored is said
                    await broadcaster.confirmed(flush_wait)  # (its confirmations come a moment after the broker's)
                return True

            finished, refused = await _unless_refused(play(), broadcaster)
            return finished is True
        finally:  # cancelled too: a broadcaster made here never outlives the replay
            if own:
                await broadcaster.stop(say_waiting=not refused)


async def _unless_refused(work: Awaitable, broadcaster: Broadcaster) -> tuple[object, bool]:
    """(`work`'s result, False), unless the broker refuses the board first (its one line said):
    then `work` is cancelled, and (None, True). What `work` raises (a cancellation too) is raised."""
    doing = asyncio.ensure_future(work)
    refusal = asyncio.ensure_future(broadcaster.refusal.wait())
    try:
        await asyncio.wait({doing, refusal}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        ended_first = doing.done()
        for task in (doing, refusal):
            task.cancel()
        await asyncio.gather(doing, refusal, return_exceptions=True)
    if ended_first:
        return doing.result(), False
    return None, True


def _journal_header(source: str) -> dict:
    """The header of the journal next to a trace file, when there is one (its clock, its players)."""
    from ...persist.game_files import SUFFIX, TRACE_SUFFIX
    from ...persist.journal_reader import read_journal
    if not source.endswith(TRACE_SUFFIX):
        return {}
    path = Path(source[: -len(TRACE_SUFFIX)] + SUFFIX)
    try:
        return read_journal(path).header if path.is_file() else {}
    except JournalError:
        return {}
