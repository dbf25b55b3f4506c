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
    """How long a guide waits for the builder, in seconds: with hands off on the empty board
    (`watch`: the self-test's step 1), for each magnet or button press (`timeout`; the
    self-test also waits so long after the last piece came off before a switch still closed
    is found stuck), and for the magnets to be taken away (`remove_timeout`; None: `timeout`)."""

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
        self._lit = False  # a light frame was shown
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
        shown = self._lit and lights == self.lights  # the board shows it already: not sent again
        self.lights = lights
        self._lit = True
        if self.outputs.lights and not shown:
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

    action: "clear" (take every piece off the board: `cells` still read closed; ok goes on
    without waiting), "hands-off" (touch nothing), "press" (press `button`, "die" or "ok"),
    "hear" (ok: the buzzer was heard; the die button: it was not), "place" (a magnet on
    `cell`; the die button: nothing happens), "remove" (take the magnets away), "find" (a
    magnet on the hollow that is lit; ok if the lit LED is under no hollow; the die button:
    nothing is lit), "ok" (press ok if the LED is lit, or any of `cells`; the die button: it is
    not), "pick" (ok if the LED lit now is `cell`, a die pip or the turn light; the die button
    lights the next one), "done"; `idle` before the start. `cell` is the hollow (or pip, or
    turn light) named or tested, `led` the LED lit, `cells` the hollows the prompt is about
    when they are several, `serial` counts prompts.
    """

    step: int
    action: str
    text: str
    cell: str | None = None
    led: int | None = None
    serial: int = 0
    cells: tuple[str, ...] = ()
    button: str | None = None

    def as_dict(self) -> dict:
        return {"step": self.step, "action": self.action, "text": self.text, "cell": self.cell,
                "led": self.led, "serial": self.serial, "cells": list(self.cells), "button": self.button}


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

    It reads the prompt as a person reads the terminal: it takes every piece off the board
    ("clear": all of them with hands that can, `clear()`, else the hollows named; ok once what
    still reads closed is only what it took away already), presses the button asked for
    ("press"), says whether it heard the buzzer ("hear": hands with an async `heard()` are
    asked, others heard it), puts a magnet on the hollow named ("place"), takes its magnets
    away ("remove"), puts a magnet on the hollow it sees lit ("find"; ok when the lit LED is
    under no hollow), presses ok when it sees the LED lit ("ok") and, asked which LED is a die
    pip or the turn light ("pick"), ok when it is the one lit, else the die button for the
    next. It cannot see a dark LED. `look`: how long it waits before it looks at the LEDs
    (for a backend whose LEDs follow a light frame only after a while, as over serial); hands
    with an async `look()` are awaited instead of guessing. `decline`: it says "no" with the
    die button (nothing lit, not heard) instead of waiting out the timeout; `patience`: seconds
    it waits, once its magnet is down, before it says with the die button that nothing
    happens (None: it waits out the timeout). `mistakes` (hollow -> hollow) makes it put the
    magnet elsewhere when a hollow is named: a builder's slip, for tests.
    """

    def __init__(self, hands, *, poll: float = 0.001, look: float = 0.0,
                 mistakes: dict[str, str] | None = None, decline: bool = False,
                 patience: float | None = None) -> None:
        self.hands = hands
        self.poll = poll
        self.look = look  # s before looking at the LEDs: a backend whose lights follow late (serial)
        self.mistakes = dict(mistakes or {})
        self.decline = decline
        self.patience = patience
        self.holding: set[str] = set()
        self.cleared: set[str] | None = None  # what it took off the board when asked to clear it

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
                    if prompt.action == "place" and self.patience is not None:
                        await self._wait_or_say_no(machine, prompt, prompted)
                if prompt.action == "done":
                    return
                if wakers is None:
                    await asyncio.sleep(self.poll)
                elif machine.prompt.serial == handled:
                    await prompted.wait()
        finally:
            if wakers is not None:
                wakers.remove(prompted.set)

    async def _wait_or_say_no(self, machine, prompt: Prompt, prompted: asyncio.Event) -> None:
        """Its magnet is down: nothing happens within its patience? it says so (the die button)."""
        end = asyncio.get_running_loop().time() + self.patience
        while machine.prompt.serial == prompt.serial:
            left = end - asyncio.get_running_loop().time()
            if left <= 0:
                await self._press("die")
                return
            if getattr(machine, "prompted", None) is None:
                await asyncio.sleep(min(self.poll, left))
            else:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(prompted.wait(), left)

    async def answer(self, prompt: Prompt) -> None:
        hands = self.hands
        if prompt.action == "clear":
            await self._clear(prompt)
        elif prompt.action == "press" and prompt.button is not None:
            await self._press(prompt.button)
        elif prompt.action == "hear":
            heard = getattr(hands, "heard", None)
            if heard is None or await heard():
                await hands.press_ok()
            elif self.decline:
                await self._press("die")
        elif prompt.action == "remove":
            for hollow in sorted(self.holding):
                await hands.take(hollow)
            self.holding.clear()
        elif prompt.action == "place" and prompt.cell is not None:
            await self._put(self.mistakes.get(prompt.cell, prompt.cell))
        elif prompt.action in ("find", "ok", "pick"):
            if self.look:
                await asyncio.sleep(self.look)
            if hasattr(hands, "look"):  # hands that can tell when the LEDs have caught up
                await hands.look()
            lit = hands.lit()
            hollows = sorted(h for h in lit if h in hands.truth.cells)
            if prompt.action == "pick":
                await self._press("ok" if prompt.cell in lit else "die")
            elif prompt.action == "find" and hollows:
                await self._put(hollows[0])
            elif lit:
                await hands.press_ok()
            elif self.decline:
                await self._press("die")

    async def _clear(self, prompt: Prompt) -> None:
        """Every piece off the board; asked again about switches it has cleared, it goes on (ok)."""
        hands = self.hands
        first = self.cleared is None
        if first:
            self.cleared = set(self.holding)
            clear = getattr(hands, "clear", None)
            if clear is not None:
                await clear()
                self.cleared.update(prompt.cells)
        still = [c for c in prompt.cells if c not in self.cleared]
        if not first and prompt.cells and not still:
            await hands.press_ok()  # nothing on them, and they read closed: stuck, as the prompt says
            return
        for hollow in still:
            await hands.take(hollow)
            self.cleared.add(hollow)
        self.holding.clear()

    async def _press(self, button: str) -> None:
        press = getattr(self.hands, f"press_{button}", None)
        if press is not None:  # hands without that button press nothing
            await press()

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


def firmware_words(opened: Opened) -> str:
    """The firmware of the board, for a report's head: the Pico's, as its hello said it; none
    on gpio (the Pi reads the switches itself) and on the simulated board."""
    from reedboard.hal import registry

    hello = getattr(opened.device, "firmware", None)
    if getattr(hello, "firmware", None):
        return _("{firmware} (protocol {version})").format(firmware=hello.firmware, version=hello.version)
    if registry.can(opened.backend, registry.HANDS):
        return _("none (the simulated board)")
    if not registry.can(opened.backend, registry.PORT):  # wired to the Pi's own pins
        return _("none (the Pi reads the switches itself)")
    return _("unknown (the board did not say)")


def open_backend(hal: str | None, board_path: str | None, port: str | None,
                 by_hand: Callable[[Board], Opened], board_name: str | None = None) -> Opened:
    """Open the backend asked for (or the ones tried unasked) at its address level; a backend
    whose pieces are moved by hand (registry.HANDS) is made by by_hand(board), with a builder
    to move them. `board_name`: a shipped board named instead of a board file (see
    arguments.board_argument). Raises hal.backends.NoBoard saying what was tried (in the
    language in use)."""
    from reedboard.hal import registry
    from reedboard.hal.backends import NoBoard, candidate_boards, find_board
    from reedboard.hal.board import BoardError

    from .backend_words import all_said, said

    if registry.can(hal, registry.HANDS):
        try:
            board = candidate_boards(board_path, board_name)[0]
        except BoardError as error:
            raise NoBoard([said(error)]) from None
        return by_hand(board)  # declared faults that make no sense are a FaultError, not "no board"
    try:
        found = find_board(hal, board_path, port, game=board_name)
    except NoBoard as error:  # what was tried, in the language in use
        raise NoBoard(all_said(error.tried)) from None
    return Opened(found.backend, found.board, found.device.addresses, None, said(found.detail))
