"""The board at the level of its wiring: switch addresses, LED indices, buttons and tones.

Every backend (gpio, serial, sim) implements an AddressBoard once, the way gpiozero's pin
factories give devices their pins; one shared layer over it, CellBoard, maps cells to
addresses from the board file and is the cell-level board the controller talks to
(hal.interfaces: Sensors, Lights, DieDisplay, Buttons, Buzzer, and LinkWatch where the
backend has a link). Tools that must not trust the board file's map (the self-test, the
calibration) use the AddressBoard under it directly: they read Switches and light LEDs by
index (LedFrame).

A switch address is the place of a reed switch in the matrix, row * columns + column; an
LED index is its place on the WS2812 chain.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .board import Board
from .colours import PALETTE, RGB
from .interfaces import Cue, DieState, Frame, Light, LightFrame, Link, Press
from .leds import chain

DARK: RGB = (0, 0, 0)


@dataclass(frozen=True)
class Switches:
    """What the matrix reports at time `t` (seconds): the addresses of the closed switches."""

    t: float
    closed: frozenset[int]


@dataclass(frozen=True)
class LedFrame:
    """LEDs of the chain by index, each lit as a Light says (unlisted ones are dark)."""

    leds: Mapping[int, Light] = field(default_factory=dict)

    def chain(self, count: int) -> tuple[list[RGB], list[bool]]:
        """The colours and blinking of a chain of `count` LEDs, for AddressBoard.show_leds
        (an index beyond the chain is left out)."""
        colours: list[RGB] = [DARK] * count
        blinking = [False] * count
        for index, light in self.leds.items():
            if 0 <= index < count:
                colours[index] = PALETTE[light.colour]
                blinking[index] = light.blink
        return colours, blinking


class AddressBoard(Protocol):
    board: Board  # how it is reached and how big it is (matrix, chain); not its cell map
    clock: Callable[[], float]  # the time its Switches and Presses are stamped with

    def switches(self) -> AsyncIterator[Switches]:
        """The closed switches now, then whenever they change."""
        ...

    def show_leds(self, colours: Sequence[RGB], blinking: Sequence[bool]) -> None:
        """Every LED of the chain at once, at full brightness (the backend dims the chain to the
        board's current budget) and whether it blinks."""
        ...

    def show_die(self, state: DieState) -> None: ...

    def presses(self) -> AsyncIterator[Press]: ...

    def play(self, cue: Cue) -> None: ...

    def close(self) -> None: ...


class CellBoard:
    """The cell-level board over an AddressBoard: cells from the board file's map.

    Sensors, Lights, DieDisplay, Buttons and Buzzer at once; LinkWatch too when the address
    board has `link` and links(). `addresses` is the board under it."""

    def __init__(self, board: Board, addresses: AddressBoard) -> None:
        self.board = board
        self.cells = board.cells
        self.addresses = addresses
        self.lights = LightFrame()
        self.die = DieState()
        self.cues: list[Cue] = []
        self._cell_at = {address: cell for cell, address in board.sensor.items()}

    def cells_of(self, closed: frozenset[int]) -> frozenset[str]:
        """The cells whose switches are among `closed` (unwired addresses are left out)."""
        cell_at = self._cell_at
        return frozenset(cell_at[a] for a in closed if a in cell_at)

    # --- Sensors and Buttons -------------------------------------------------------------------
    async def frames(self) -> AsyncIterator[Frame]:
        """The occupied cells now, then whenever they change (a switch under no cell is not
        a change)."""
        last = None
        stream = self.addresses.switches()
        try:
            async for switches in stream:
                cells = self.cells_of(switches.closed)
                if cells != last:
                    last = cells
                    yield Frame(switches.t, cells)
        finally:
            await stream.aclose()

    def presses(self) -> AsyncIterator[Press]:
        return self.addresses.presses()

    # --- Lights, DieDisplay, Buzzer ---------------------------------------------------------------
    def show(self, what: LightFrame | DieState) -> None:
        if isinstance(what, LightFrame):
            self.lights = what
            colours, blinking = chain(what, self.board)
            self.addresses.show_leds(colours, blinking)
        elif isinstance(what, DieState):
            self.die = what
            self.addresses.show_die(what)
        else:
            raise TypeError(f"a board shows a LightFrame or a DieState, not {type(what).__name__}")

    def play(self, cue: Cue) -> None:
        self.cues.append(cue)
        self.addresses.play(cue)

    # --- life -------------------------------------------------------------------------------------
    def close(self) -> None:
        self.addresses.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class LinkedCellBoard(CellBoard):
    """A CellBoard over a backend that can be unplugged: LinkWatch too."""

    @property
    def link(self) -> Link:
        return self.addresses.link

    def links(self) -> AsyncIterator[Link]:
        return self.addresses.links()
