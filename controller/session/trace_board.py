"""A replay source: a trace file's frames and presses, as the sensors and buttons of a board.

Events come at the pace they were recorded (or faster, with `speed`); with `speed=None`
they come at once, for tools that run the referee on the trace's own clock.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from reedboard.hal.interfaces import Button, Frame, Press

from ..persist.trace import Trace, TracePress, read_trace


class TraceSource:
    def __init__(self, trace: Trace | str, speed: float | None = 1.0) -> None:
        self.trace = read_trace(trace) if isinstance(trace, str) else trace
        self.cells = self.trace.game().cells
        self.speed = speed
        self._presses: asyncio.Queue = asyncio.Queue()

    async def frames(self) -> AsyncIterator[Frame]:
        previous = None
        for event in self.trace.events:
            if previous is not None and self.speed:
                await asyncio.sleep(max(0.0, event.t - previous) / self.speed)
            previous = event.t
            if isinstance(event, Frame):
                yield event
            elif isinstance(event, TracePress):
                await self._presses.put(Press(event.t, Button(event.button)))

    async def presses(self) -> AsyncIterator[Press]:
        while True:
            yield await self._presses.get()
