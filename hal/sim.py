"""The simulated board: an in-memory board with hands, lights and a die, and no hardware.

Pieces are lifted and placed by lift(cell) and place(cell) (from the simulator's page or a
test); the lights, the die display and the buzzer cues it was told to show are kept for
anyone to look at.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterable

from .board import Board
from .interfaces import Button, Cue, DieState, Frame, LightFrame, Press


class SimBoard:
    def __init__(self, board: Board, occupied: Iterable[str] = (), *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.board = board
        self.cells = board.cells
        self.clock = clock
        self.occupied: set[str] = set()
        self.lights = LightFrame()
        self.die = DieState()
        self.cues: list[Cue] = []
        self._listeners: list[asyncio.Queue] = []
        self._press_listeners: list[asyncio.Queue] = []
        for cell in occupied:
            self.place(cell)

    # --- hands ----------------------------------------------------------------------------
    def lift(self, cell: str) -> None:
        self._check(cell)
        if cell not in self.occupied:
            raise ValueError(f"nothing to lift on {cell}")
        self.occupied.discard(cell)
        self._changed()

    def place(self, cell: str) -> None:
        self._check(cell)
        if cell in self.occupied:
            raise ValueError(f"{cell} is occupied already")
        self.occupied.add(cell)
        self._changed()

    def press(self, button: Button | str, long: bool = False) -> None:
        press = Press(self.clock(), Button(button), long)
        for queue in self._press_listeners:
            queue.put_nowait(press)

    def _check(self, cell: str) -> None:
        if cell not in self.cells:
            raise ValueError(f"no cell {cell!r} on this board")

    def _changed(self) -> None:
        frame = Frame(self.clock(), frozenset(self.occupied))
        for queue in self._listeners:
            queue.put_nowait(frame)

    # --- Sensors and Buttons -----------------------------------------------------------------
    async def frames(self) -> AsyncIterator[Frame]:
        queue: asyncio.Queue = asyncio.Queue()
        self._listeners.append(queue)
        try:
            yield Frame(self.clock(), frozenset(self.occupied))
            while True:
                yield await queue.get()
        finally:
            self._listeners.remove(queue)

    async def presses(self) -> AsyncIterator[Press]:
        queue: asyncio.Queue = asyncio.Queue()
        self._press_listeners.append(queue)
        try:
            while True:
                yield await queue.get()
        finally:
            self._press_listeners.remove(queue)

    # --- Lights, DieDisplay, Buzzer -------------------------------------------------------------
    def show(self, what: LightFrame | DieState) -> None:
        if isinstance(what, LightFrame):
            self.lights = what
        elif isinstance(what, DieState):
            self.die = what
        else:
            raise TypeError(f"a board shows a LightFrame or a DieState, not {type(what).__name__}")

    def play(self, cue: Cue) -> None:
        self.cues.append(cue)

    def lit(self, colour: str) -> set[str]:
        """The cells lit in a colour now."""
        return {cell for cell, light in self.lights.cells.items() if light.colour == colour}
