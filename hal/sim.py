"""The simulated board: an in-memory board with hands, lights and a die, and no hardware.

SimSwitches is its address-level board: switches closed and opened by hand, an LED chain,
a die display and a buzzer that keep what they were told. SimBoard is the cell-level board
over it: pieces are lifted and placed by lift(cell) and place(cell) (from the simulator's
page or a test); the light frame, die display state and buzzer cues it was told to show are
kept for anyone to look at.

A simulated board needs no board file: given only its cells (anything with `cells`, e.g. a
game played on hollows no shipped board has exactly), it is wired in their order, one switch
and one LED per cell.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence

from .addresses import DARK, CellBoard, Switches
from .board import Board
from .colours import RGB
from .interfaces import Button, Cue, DieState, Press
from .leds import capped


class SimSwitches:
    """The simulated board's wiring: switch addresses closed by hand, LEDs by index."""

    def __init__(self, board: Board, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.board = board
        self.clock = clock
        self.closed: set[int] = set()
        self.colours: list[RGB] = [DARK] * board.led_count  # as shown, dimmed to the budget
        self.blinking: list[bool] = [False] * board.led_count
        self.die = DieState()
        self.cues: list[Cue] = []
        self._listeners: list[asyncio.Queue] = []
        self._press_listeners: list[asyncio.Queue] = []

    # --- hands ------------------------------------------------------------------------------------
    def close_switch(self, address: int) -> None:
        self._address(address)
        self.closed.add(address)
        self._changed()

    def open_switch(self, address: int) -> None:
        self._address(address)
        self.closed.discard(address)
        self._changed()

    def press(self, button: Button | str, long: bool = False) -> None:
        press = Press(self.clock(), Button(button), long)
        for queue in self._press_listeners:
            queue.put_nowait(press)

    def lit(self) -> frozenset[int]:
        """The LEDs that are lit now (blinking ones included)."""
        return frozenset(i for i, colour in enumerate(self.colours) if colour != DARK)

    def _address(self, address: int) -> None:
        if not 0 <= address < self.board.rows * self.board.columns:
            raise ValueError(f"no switch {address} in a {self.board.rows}x{self.board.columns} matrix")

    def _changed(self) -> None:
        switches = Switches(self.clock(), frozenset(self.closed))
        for queue in self._listeners:
            queue.put_nowait(switches)

    # --- AddressBoard -------------------------------------------------------------------------------
    async def switches(self) -> AsyncIterator[Switches]:
        queue: asyncio.Queue = asyncio.Queue()
        self._listeners.append(queue)
        try:
            yield Switches(self.clock(), frozenset(self.closed))
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

    def show_leds(self, colours: Sequence[RGB], blinking: Sequence[bool]) -> None:
        self.colours = capped(list(colours), self.board.budget_ma)
        self.blinking = list(blinking)

    def show_die(self, state: DieState) -> None:
        self.die = state

    def play(self, cue: Cue) -> None:
        self.cues.append(cue)

    def close(self) -> None:
        pass


def wired_in_order(cells: Iterable[str]) -> Board:
    """A board for these cells with nothing but them: one row of switches and one LED per
    cell, in their order."""
    cells = tuple(cells)
    return Board(name="sim", backend="sim", cells=cells, sensor={c: k for k, c in enumerate(cells)},
                 led={c: k for k, c in enumerate(cells)}, rows=1, columns=max(1, len(cells)),
                 led_count=max(1, len(cells)), source="the simulated board")


class SimBoard(CellBoard):
    def __init__(self, board: Board, occupied: Iterable[str] = (), *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if not isinstance(board, Board):  # only its cells: no wiring to keep
            board = wired_in_order(board.cells)
        super().__init__(board, SimSwitches(board, clock=clock))
        self.clock = clock
        for cell in occupied:
            self.place(cell)

    @property
    def occupied(self) -> set[str]:
        return set(self.cells_of(frozenset(self.addresses.closed)))

    # --- hands ----------------------------------------------------------------------------
    def lift(self, cell: str) -> None:
        self._check(cell)
        if cell not in self.occupied:
            raise ValueError(f"nothing to lift on {cell}")
        self.addresses.open_switch(self.board.sensor[cell])

    def place(self, cell: str) -> None:
        self._check(cell)
        if cell in self.occupied:
            raise ValueError(f"{cell} is occupied already")
        self.addresses.close_switch(self.board.sensor[cell])

    def press(self, button: Button | str, long: bool = False) -> None:
        self.addresses.press(button, long)

    def _check(self, cell: str) -> None:
        if cell not in self.board.sensor:
            raise ValueError(f"no cell {cell!r} on this board")

    def lit(self, colour: str) -> set[str]:
        """The cells lit in a colour now."""
        return {cell for cell, light in self.lights.cells.items() if light.colour == colour}
