"""Guiding a builder step by step at the board: what the self-test and the calibration share.

A guide is a pure, time-driven machine (frames, presses and the passing of time in; light
frames, die display states, buzzer cues and prompts out) with at most one deadline at a
time. It must not trust the board file's map (checking or learning it is its job), so it
runs on a backend's address level (hal.addresses.AddressBoard: switch addresses, LEDs by
index): `open_backend` opens one, `drive` runs a guide on it in asyncio, and `SimBuilder`
plays the builder on a simulated board, answering the prompts by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from reedboard.hal.addresses import CellBoard, Switches
from reedboard.hal.board import Board
from reedboard.hal.interfaces import Cue, DieState, Light, LightFrame, Press

from ..language.catalogue import COMMANDS
from ..session.live import inputs, next_input

TEST_LIGHT = Light("choose")  # steady white: all three colours of the LED at once
ASK_LIGHT = Light("place", blink=True)  # green blinking: put it here
REMOVE_LIGHT = Light("empty", blink=True)  # vermillion blinking: take it away

_ = COMMANDS.gettext


@dataclass(frozen=True)
class Settings:
    """How long a guide waits for the builder, in seconds: with hands off before the first step
    (`watch`: the self-test's step 1), for each magnet or ok press (`timeout`), and for the
    magnets to be taken away (`remove_timeout`; None: `timeout`)."""

    watch: float = 3.0
    timeout: float = 20.0
    remove_timeout: float | None = None

    def __post_init__(self) -> None:
        for name in ("watch", "timeout", "remove_timeout"):
            value = getattr(self, name)
            if value is None and name == "remove_timeout":
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
                raise ValueError(f"a guide's {name} must be a positive number of seconds, not {value!r}")

    @property
    def removal(self) -> float:
        return self.timeout if self.remove_timeout is None else self.remove_timeout


class Steps:
    """What a guide (the self-test, the calibration) is made of: the board file it works on, its
    settings, its outputs and prompt, and its clock of at most one deadline; subclasses say
    what a timeout means."""

    def __init__(self, board: Board, settings: Settings, *, outputs=None,
                 on_prompt: Callable[[Prompt], None] | None = None) -> None:
        from ..core.referee import Outputs  # the referee's outputs: lights, die display, buzzer

        self.board = board
        self.settings = settings
        self.outputs = outputs or Outputs()
        self.on_prompt = on_prompt
        self.prompt = Prompt(0, "idle", _("not started"))
        self.now = 0.0
        self.done = False
        self.lights = LightFrame()
        self.die = DieState()
        self._phase = "idle"
        self._deadline: float | None = None
        self._then: Callable[[float], None] | None = None
        self._serial = 0
        self.prompted: list[Callable[[], None]] = []  # called after each new prompt (a builder waiting on it)

    def advance(self, t: float) -> None:
        while not self.done and self._deadline is not None and self._deadline <= t:
            due, self._deadline = self._deadline, None
            self.now = max(self.now, due)
            self._timeout(due)
        self.now = max(self.now, t)

    def next_deadline(self) -> float | None:
        return None if self.done else self._deadline

    def _timeout(self, t: float) -> None:
        raise NotImplementedError

    # What a guide shows: subclasses set outputs, on_prompt, prompt, lights, die and _serial.
    def _output(self, lights, die: DieState | None) -> None:  # lights: a LightFrame or a LedFrame
        self.lights = lights
        if self.outputs.lights:
            self.outputs.lights(lights)
        if die is not None and die != self.die:
            self.die = die
            if self.outputs.die:
                self.outputs.die(die)

    def _cue(self, cue: Cue) -> None:
        if self.outputs.buzzer:
            self.outputs.buzzer(cue)

    def _ask(self, prompt: Prompt) -> None:
        self._serial += 1
        self.prompt = replace(prompt, serial=self._serial)
        if self.on_prompt:
            self.on_prompt(self.prompt)
        for wake in self.prompted:
            wake()


@dataclass(frozen=True)
class Prompt:
    """What the builder is asked to do now.

    action: "hands-off" (touch nothing), "place" (a magnet on `cell`), "remove" (take the
    magnets away), "find" (a magnet on the hollow that is lit; ok if the lit LED is under
    no hollow), "ok" (press ok if the LED is lit), "done"; `idle` before the start.
    `cell` is the hollow named or tested, `led` the LED lit (step 3), `serial` counts prompts.
    """

    step: int
    action: str
    text: str
    cell: str | None = None
    led: int | None = None
    serial: int = 0

    def as_dict(self) -> dict:
        return {"step": self.step, "action": self.action, "text": self.text, "cell": self.cell,
                "led": self.led, "serial": self.serial}


async def drive(machine, addresses, *, builder=None, clock: Callable[[], float] | None = None,
                translate: Callable[[frozenset[int]], Iterable] | None = None, poll: float | None = 0.05) -> None:
    """Feed a machine (SelfTest, Calibration) the closed switches of an address board (through
    `translate`, if given), its presses and time until it is done; a simulated builder
    (anything with `async run(machine)`) answers alongside."""
    clock = clock or getattr(addresses, "clock", None) or time.monotonic
    translate = translate or (lambda closed: closed)
    async with inputs(addresses.switches(), addresses.presses()) as queue:
        first = await queue.get()  # the board as it is now, before the first prompt
        while not isinstance(first, Switches):
            first = await queue.get()
        machine.frame(first.t, translate(first.closed))
        machine.start(max(clock(), first.t))
        helper = asyncio.create_task(builder.run(machine)) if builder is not None else None
        try:
            while not machine.done:
                item = await next_input(queue, machine, clock, poll)
                if isinstance(item, Switches):
                    machine.frame(item.t, translate(item.closed))
                elif isinstance(item, Press):
                    machine.press(item.t, item.button.value)
        finally:
            if helper is not None:
                helper.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await helper


def address_board(device):
    """`device`, if it is an address-level board; a cell-level one is refused (a guide reads
    nothing through a map that may be wrong)."""
    if isinstance(device, CellBoard) or not hasattr(device, "switches"):
        raise TypeError(f"a guide runs on a backend's address-level board (its `addresses`),"
                        f" not on a {type(device).__name__} of cells")
    return device


class SimBuilder:
    """A simulated builder: answers each prompt with its hands (hal.mock.faults SimHands, MockHands).

    It reads the prompt as a person reads the terminal: it puts a magnet on the hollow named
    ("place"), takes its magnets away ("remove"), puts a magnet on the hollow it sees lit
    ("find"; ok when the lit LED is under no hollow) and presses ok when it sees the LED lit
    ("ok"). It cannot see a dark LED. `look`: how long it waits before it looks at the LEDs
    (for a backend whose LEDs follow a light frame only after a while, as over serial); hands
    with an async `look()` are awaited instead of guessing. `mistakes` (hollow -> hollow) makes it put the magnet
    elsewhere when a hollow is named: a builder's slip, for tests.
    """

    def __init__(self, hands, *, poll: float = 0.001, look: float = 0.0,
                 mistakes: dict[str, str] | None = None) -> None:
        self.hands = hands
        self.poll = poll
        self.look = look  # s before looking at the LEDs: a backend whose lights follow late (serial)
        self.mistakes = dict(mistakes or {})
        self.holding: set[str] = set()

    async def run(self, machine) -> None:
        handled = None
        prompted = asyncio.Event()  # a machine that says when it asks something new is not polled
        wakers = getattr(machine, "prompted", None)
        if wakers is not None:
            wakers.append(prompted.set)
        try:
            while True:
                prompt = machine.prompt
                if prompt.serial != handled:
                    handled = prompt.serial
                    prompted.clear()
                    await self.answer(prompt)
                if prompt.action == "done":
                    return
                if wakers is None:
                    await asyncio.sleep(self.poll)
                elif machine.prompt.serial == handled:
                    await prompted.wait()
        finally:
            if wakers is not None:
                wakers.remove(prompted.set)

    async def answer(self, prompt: Prompt) -> None:
        hands = self.hands
        if prompt.action == "remove":
            for hollow in sorted(self.holding):
                await hands.take(hollow)
            self.holding.clear()
        elif prompt.action == "place" and prompt.cell is not None:
            await self._put(self.mistakes.get(prompt.cell, prompt.cell))
        elif prompt.action in ("find", "ok"):
            if self.look:
                await asyncio.sleep(self.look)
            if hasattr(hands, "look"):  # hands that can tell when the LEDs have caught up
                await hands.look()
            lit = hands.lit()
            hollows = sorted(h for h in lit if h in hands.truth.cells)
            if prompt.action == "find" and hollows:
                await self._put(hollows[0])
            elif lit:
                await hands.press_ok()

    async def _put(self, hollow: str) -> None:
        if hollow not in self.holding:
            await self.hands.put(hollow)
            self.holding.add(hollow)


@dataclass
class Opened:
    backend: str
    board: Board  # the board file as loaded
    device: object  # the backend's address-level board (hal.addresses.AddressBoard)
    builder: SimBuilder | None = None
    detail: str = ""

    def close(self) -> None:
        close = getattr(self.device, "close", None)
        if close:
            close()


def open_backend(hal: str | None, board_path: str | None, port: str | None,
                 by_hand: Callable[[Board], Opened]) -> Opened:
    """Open the backend asked for (or the ones tried unasked) at its address level; a backend
    whose pieces are moved by hand (registry.HANDS) is made by by_hand(board), with a builder
    to move them. Raises hal.backends.NoBoard saying what was tried."""
    from reedboard.hal import registry
    from reedboard.hal.backends import NoBoard, candidate_boards, find_board
    from reedboard.hal.board import BoardError

    if registry.can(hal, registry.HANDS):
        try:
            board = candidate_boards(board_path, None)[0]
        except BoardError as error:
            raise NoBoard([str(error)]) from None
        return by_hand(board)  # declared faults that make no sense are a FaultError, not "no board"
    found = find_board(hal, board_path, port)
    return Opened(found.backend, found.board, found.device.addresses, None, found.detail)
