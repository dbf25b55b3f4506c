"""uvicorn's server, woken once a second instead of ten times.

uvicorn's main loop sleeps 0.1 s between ticks to refresh its Date header (which changes once
a second) and to notice that it should stop. On a board that sits idle most of the evening
those ten wake-ups a second are most of what the controller costs, so this server ticks once a
second and is woken at once when it is told to stop (a signal, or `should_exit` set by the
code that started it).
"""

from __future__ import annotations

import asyncio
import contextlib

import uvicorn

TICK = 1.0  # s between ticks: the Date header's own resolution
TICKS_PER_SECOND = 10  # uvicorn refreshes the Date header when its tick counter is a multiple of this


class CalmServer(uvicorn.Server):
    _loop: asyncio.AbstractEventLoop | None = None
    _wake: asyncio.Event | None = None

    @property
    def should_exit(self) -> bool:
        return getattr(self, "_should_exit", False)

    @should_exit.setter
    def should_exit(self, value: bool) -> None:
        self._should_exit = value
        if value and self._loop is not None and self._wake is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nothing to wake
                self._loop.call_soon_threadsafe(self._wake.set)

    async def main_loop(self) -> None:
        self._wake = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        counter = 0
        while not await self.on_tick(counter):
            counter = (counter + TICKS_PER_SECOND) % 864000
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), TICK)
