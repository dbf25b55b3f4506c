"""A toy board backend, made only to show that a backend is one module and one registry line.

Its board is kept in memory: switches a hand closes and opens by address, an LED chain, a die
display and a buzzer that remember what they were told. It reads a [toy] table of its own
from a board file (`label`: what it is called when it is found), keeps a start position and
lights LEDs by address. test_toy_backend registers it, runs the backends' contract on it and
plays a game with a capture on it live; nothing else in the tree knows it.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from reedboard.hal.addresses import DARK, CellBoard, Switches
from reedboard.hal.backends import Found, Request
from reedboard.hal.board import Board, BoardError
from reedboard.hal.interfaces import Button, DieState, Press
from reedboard.hal.leds import capped
from reedboard.hal.registry import ADDRESSES, START, Backend, BoardTable


@dataclass(frozen=True)
class ToySettings:
    label: str = "the toy board"


def read_table(table: dict, data: dict, board: Board) -> ToySettings:
    label = table.get("label", ToySettings.label)
    if not isinstance(label, str) or not label.strip():
        raise BoardError(f"{board.source}: [toy] label is a few words, not {label!r}")
    return ToySettings(label)


def write_table(settings: ToySettings) -> dict[str, list[str]]:
    return {"toy": [f'label = "{settings.label}"']}


class ToySwitches:
    """The toy's address level: every change is told to each listener at once."""

    def __init__(self, board: Board, closed=()) -> None:
        self.board = board
        self.clock = time.monotonic
        self.closed = set(closed)
        self.colours = [DARK] * board.led_count
        self.die = DieState()
        self.cues: list = []
        self._switch_queues: list[asyncio.Queue] = []
        self._press_queues: list[asyncio.Queue] = []
        self._loops: dict[int, asyncio.AbstractEventLoop] = {}

    def set(self, address: int, closed: bool) -> None:
        (self.closed.add if closed else self.closed.discard)(address)
        self._tell(self._switch_queues, Switches(self.clock(), frozenset(self.closed)))

    def press(self, button: Button) -> None:
        self._tell(self._press_queues, Press(self.clock(), button))

    def _tell(self, queues: list, item) -> None:
        for queue in list(queues):  # from the loop's thread or another (a test's hands in an executor)
            self._loops[id(queue)].call_soon_threadsafe(queue.put_nowait, item)

    async def _listen(self, queues: list, first=None):
        queue: asyncio.Queue = asyncio.Queue()
        self._loops[id(queue)] = asyncio.get_running_loop()
        queues.append(queue)
        try:
            if first is not None:
                yield first
            while True:
                yield await queue.get()
        finally:
            queues.remove(queue)
            del self._loops[id(queue)]

    def switches(self):
        return self._listen(self._switch_queues, Switches(self.clock(), frozenset(self.closed)))

    def presses(self):
        return self._listen(self._press_queues)

    def show_leds(self, colours, blinking) -> None:
        self.colours = capped(list(colours), self.board.budget_ma)

    def show_die(self, state: DieState) -> None:
        self.die = state

    def play(self, cue) -> None:
        self.cues.append(cue)

    def close(self) -> None:
        pass


class ToyBoard(CellBoard):
    """The toy's cell-level board: its own class, by which registry.backend_of finds the entry."""


def open_toy(boards: list[Board], request: Request) -> Found:
    board = boards[0]
    switches = ToySwitches(board, {board.sensor[cell] for cell in request.start})
    device = ToyBoard(board, switches)
    return Found("toy", board, device, board.settings_of("toy").label, frozenset(request.start))


BACKEND = Backend("toy", "a toy board kept in memory", "toy_backend:open_toy", "toy_backend:ToyBoard",
                  BoardTable("toy", "toy_backend:read_table", "toy_backend:write_table"),
                  frozenset({START, ADDRESSES}))


class ToyRig:
    """The toy opened through the registry, with hands: as tests/rigs.py's rigs are."""

    def __init__(self, board: Board, start=()) -> None:
        from reedboard.hal.registry import BACKENDS

        self.board = board
        self.device = BACKENDS["toy"].open([board], Request(start=frozenset(start))).device

    def place(self, cell: str) -> None:
        self.device.addresses.set(self.board.sensor[cell], True)

    def lift(self, cell: str) -> None:
        self.device.addresses.set(self.board.sensor[cell], False)

    def press_die(self) -> None:
        self.device.addresses.press(Button.DIE)

    def leds(self) -> list:
        return list(self.device.addresses.colours)

    def close(self) -> None:
        self.device.close()
