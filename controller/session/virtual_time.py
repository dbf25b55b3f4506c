"""An asyncio event loop on virtual time: for tests of pacing (scan rates, blinking), and for a
simulated board, which answers at once, so that waiting out a timeout on it costs no real time.

The loop's clock moves only when the loop would wait for a timer: it then jumps to the timer
at once, so a test asks "how often per second of the loop's time" and gets the same answer on
a fast machine, a slow one and a loaded one. Each turn of the loop costs `cost` seconds of
virtual time, so a loop that never sleeps (a busy wait) still sees time pass, and a test of
it ends (and fails) instead of hanging. Waiting on a real thread (call_soon_threadsafe) with
no timer pending blocks as usual.
"""

from __future__ import annotations

import asyncio


class VirtualClock:
    def __init__(self, start: float = 1000.0, cost: float = 1e-6) -> None:
        self.now = start
        self.cost = cost  # s of virtual time each turn of the loop takes

    def __call__(self) -> float:
        return self.now


class _Selector:
    """The loop's selector, whose waits for a timer take no real time."""

    def __init__(self, real, clock: VirtualClock) -> None:
        self._real = real
        self._clock = clock

    def select(self, timeout: float | None = None):
        clock = self._clock
        clock.now += clock.cost
        events = self._real.select(0)
        if events or timeout == 0:
            return events
        if timeout is None:  # no timer: only another thread can wake the loop
            return self._real.select(None)
        clock.now += timeout
        return []

    def __getattr__(self, name: str):
        return getattr(self._real, name)


def run_virtual(main, clock: VirtualClock | None = None):
    """Run a coroutine to its end on a loop whose time is `clock`'s (a fresh VirtualClock
    by default)."""
    clock = clock or VirtualClock()
    loop = asyncio.SelectorEventLoop()
    loop.time = clock  # every timer (sleep, wait_for, call_later) is on virtual time
    loop._selector = _Selector(loop._selector, clock)
    try:
        return loop.run_until_complete(main)
    finally:
        try:  # as asyncio.run ends: what is still running is cancelled, inside the loop
            left = asyncio.all_tasks(loop)
            for task in left:
                task.cancel()
            if left:
                loop.run_until_complete(asyncio.gather(*left, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            loop.close()
