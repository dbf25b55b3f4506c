"""Live play: the referee on a board in real time, its journal and its flight recorder.

The board's sensors and buttons are async streams (hal interfaces); the referee is driven
by them and by the clock, in one asyncio loop, so nothing fights over its state.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import asdict
from datetime import datetime
from pathlib import Path

from hal.interfaces import Buttons, Frame, Press, Sensors

from .clock import ClockSettings
from .games import Game
from .journal import Journal, game_header, read_journal, rebuild, trace_path
from .reconcile import Settings
from .recorder import FlightRecorder
from .referee import Outputs, Referee

TRACE_SETTINGS = ("debounce", "settle", "grace")


def new_referee(
    game: Game,
    games_dir: str | Path,
    *,
    settings: Settings | None = None,
    setup: str = "given",
    outputs: Outputs | None = None,
    now: Callable[[], datetime] = lambda: datetime.now().astimezone(),
    rng: random.Random | None = None,
    clock: ClockSettings | None = None,
) -> Referee:
    """A referee for a new game whose journal and trace go into games_dir once it is set up."""
    settings = settings or Settings()
    recorder = FlightRecorder()

    def open_journal(game: Game) -> Journal:
        journal = Journal.create(games_dir, game, asdict(settings), now(), clock=clock)
        timing = {key: getattr(settings, key) for key in TRACE_SETTINGS}
        recorder.begin(journal.trace_path, {**game_header(game), "settings": timing})
        return journal

    return Referee(game, settings=settings, open_journal=open_journal, recorder=recorder,
                   outputs=outputs, setup=setup, rng=rng, clock=clock)


def resume_referee(path: str | Path, t: float, *, outputs: Outputs | None = None,
                   rng: random.Random | None = None) -> Referee:
    """A referee for an unfinished game: replayed from its journal, the board guided back to it."""
    contents = read_journal(path)
    resumed = rebuild(contents)
    settings = Settings(**contents.header.get("settings", {}))
    journal = Journal.resume(path)
    recorder = FlightRecorder()
    if trace_path(path).exists():
        recorder.resume(trace_path(path), t)
    return Referee(resumed.game, settings=settings, journal=journal, recorder=recorder, outputs=outputs,
                   pending_roll=resumed.pending_roll, rng=rng, clock=resumed.clock,
                   clock_remaining=resumed.clock_remaining)


@contextlib.asynccontextmanager
async def inputs(*streams) -> AsyncIterator[asyncio.Queue]:
    """One queue fed by several async streams (frames, presses) while the block runs."""
    queue: asyncio.Queue = asyncio.Queue()

    async def pump(stream) -> None:
        async for item in stream:
            await queue.put(item)

    tasks = [asyncio.create_task(pump(stream)) for stream in streams]
    try:
        yield queue
    finally:
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def next_input(queue: asyncio.Queue, machine, clock: Callable[[], float], poll: float):
    """The next frame or press, at a time never older than what the machine (a referee, a
    guide) has decided; None after letting its timers run when nothing came in time."""
    deadline = machine.next_deadline()
    timeout = poll if deadline is None else min(poll, max(0.0, deadline - clock()))
    try:
        item = await asyncio.wait_for(queue.get(), timeout)
    except TimeoutError:
        machine.advance(max(clock(), machine.now))
        return None
    return dataclasses.replace(item, t=max(item.t, machine.now))


async def run(referee: Referee, sensors: Sensors, buttons: Buttons | None = None, *,
              clock: Callable[[], float] = time.monotonic, stop: asyncio.Event | None = None,
              poll: float = 0.05) -> None:
    """Referee the game until `stop` is set: frames, presses and timers in one loop."""
    streams = [sensors.frames()] + ([buttons.presses()] if buttons is not None else [])
    async with inputs(*streams) as queue:
        referee.start(clock())
        while stop is None or not stop.is_set():
            item = await next_input(queue, referee, clock, poll)
            if isinstance(item, Frame):
                referee.frame(item.t, item.occupied)
            elif isinstance(item, Press):
                referee.press(item.t, item.button.value)
