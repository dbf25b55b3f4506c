"""Declared faults of a simulated board, and hands that work such a board by themselves.

A board file may declare faults for the simulated boards, so that `reedboard selftest`
(and its tests) can meet every kind of fault without a broken board at hand:

    [sim.faults]
    stuck_closed = ["a1"]           # the switch reads closed, magnet or not
    stuck_open = ["d1"]             # the switch never closes
    chatter = ["c2"]                # the switch flickers by itself, at random times
    swapped = [["a2", "b2"]]        # each hollow's magnet closes the other's switch
    dark = ["b4", "pip1", "turn"]   # the LED never lights (a cell's, a die pip's, the turn light's)

`parse_faults(board)` checks them (unknown kinds, unknown cells, a cell in two kinds, a
`swapped` entry that is not a pair of two different cells; every message names the board
file) and gives a `Faults`. The same faults are then applied, by switch address and LED
index as the board file wires the cells, to either simulated board:

- `faulty_sim(board, faults)`: a FaultySimSwitches, the simulated board's address level
  (hal.sim.SimSwitches) whose switches misbehave: close_switch() and open_switch() put and
  take magnets (`magnets`), switches() reports what the faulty switches read instead, and
  dark LEDs stay dark (`lit()`).
- `faulty_circuit(board, faults)`: a hal.mock.matrix Circuit (for MatrixPins under a GpioBoard
  on MockFactory pins) whose switches misbehave the same way, at matrix level; `DarkStrip`
  wraps a FakeStrip so that dark LEDs stay dark on the chain.

Chatter: a chattering switch reads the opposite of what its magnet says during bursts of
`burst` seconds that come after gaps of `gap` seconds, both drawn at random from a seeded
rng (`seed`): faster than a person, slower than the gpio backend's debounce (3 scans of
4 ms), so the frames show every flicker.

Hands (`SimHands`, `MockHands`) are what a simulated builder uses: they put a magnet on a
hollow (through the true wiring, which may differ from the board file under test), press
ok, and see which LEDs are lit (as the names of what they are under: a hollow, "pip1" to
"pip7" or "turn"); a dark LED is not seen.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import random
import time
from collections.abc import AsyncIterator, Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

from ..addresses import DARK, Switches
from ..board import Board, BoardError
from ..colours import RGB
from ..interfaces import Button, Cue, DieState, Press
from ..leds import PIP_NAMES, led_names
from ..sim import SimSwitches
from .matrix import Circuit

__all__ = [
    "KINDS", "SWITCH_KINDS", "PIP_NAMES", "Faults", "FaultError", "parse_faults", "Chatter",
    "FaultySimSwitches", "faulty_sim", "FaultyCircuit", "faulty_circuit", "DarkStrip", "SimHands",
    "MockHands", "led_names", "dark_leds",
]

SWITCH_KINDS = ("stuck_closed", "stuck_open", "chatter", "swapped")
KINDS = SWITCH_KINDS + ("dark",)
BURST = (0.03, 0.07)  # s a chattering switch reads wrong
GAP = (0.04, 0.15)  # s between two bursts


class FaultError(BoardError):
    """Declared faults that cannot be used; the message names the board file and the problem."""


@dataclass(frozen=True)
class Faults:
    stuck_closed: frozenset[str] = frozenset()
    stuck_open: frozenset[str] = frozenset()
    chatter: frozenset[str] = frozenset()
    swapped: tuple[tuple[str, str], ...] = ()
    dark: frozenset[str] = frozenset()  # cells, "pip1".."pip7", "turn"

    def __bool__(self) -> bool:
        return bool(self.stuck_closed or self.stuck_open or self.chatter or self.swapped or self.dark)

    @property
    def swap(self) -> dict[str, str]:
        """A hollow -> the cell whose switch a magnet on it closes."""
        pairs: dict[str, str] = {}
        for a, b in self.swapped:
            pairs[a], pairs[b] = b, a
        return pairs

    def count(self) -> int:
        """How many faults a self-test should report: a swapped pair is one."""
        return (len(self.stuck_closed) + len(self.stuck_open) + len(self.chatter) + len(self.swapped)
                + len(self.dark))


def parse_faults(board: Board, faults: dict | None = None) -> Faults:
    """Check and read a board's declared faults (`board.faults`, or `faults` given)."""
    data = board.settings_of("sim").faults if faults is None else faults
    at = f"{board.source}: [sim.faults] "
    if not isinstance(data, dict):
        raise FaultError(f"{at}must be a table of fault kinds")
    unknown = [k for k in data if k not in KINDS]
    if unknown:
        raise FaultError(f"{at}unknown fault kind {unknown[0]!r} (choose {', '.join(KINDS)})")
    by_lower = {c.lower(): c for c in board.cells}
    extra = {}
    if board.die_pips:
        extra.update({p: p for p in PIP_NAMES})
    if board.turn_led is not None:
        extra["turn"] = "turn"

    def cell(name, kind: str, names: dict[str, str]) -> str:
        if not isinstance(name, str):
            raise FaultError(f"{at}{kind}: {name!r} is not a cell name")
        found = names.get(name.lower())
        if found is None:
            what = "cell or LED" if kind == "dark" else "cell"
            raise FaultError(f"{at}{kind}: no {what} {name!r} on the {board.name} board")
        return found

    def names_list(kind: str) -> list:
        value = data.get(kind, [])
        if not isinstance(value, list):
            raise FaultError(f"{at}{kind} must be a list, not {value!r}")
        return value

    seen: dict[str, str] = {}  # cell -> the kind it was given in

    def claim(c: str, kind: str) -> None:
        other = seen.get(c)
        if other == kind:
            raise FaultError(f"{at}{c} is given twice in {kind}")
        if other is not None:
            raise FaultError(f"{at}{c} is in two kinds of fault: {other} and {kind}")
        seen[c] = kind

    sets: dict[str, frozenset[str]] = {}
    for kind in ("stuck_closed", "stuck_open", "chatter", "dark"):
        names = {**by_lower, **extra} if kind == "dark" else by_lower
        cells = []
        for name in names_list(kind):
            c = cell(name, kind, names)
            claim(c, kind)
            cells.append(c)
        sets[kind] = frozenset(cells)
    pairs = []
    for entry in names_list("swapped"):
        if (not isinstance(entry, list) or len(entry) != 2
                or not all(isinstance(n, str) for n in entry)):
            raise FaultError(f"{at}swapped: {entry!r} is not a pair of cells (write [\"a1\", \"b1\"])")
        a, b = (cell(n, "swapped", by_lower) for n in entry)
        if a == b:
            raise FaultError(f"{at}swapped: [{a}, {b}] is not a pair of two different cells")
        for c in (a, b):
            if seen.get(c) == "swapped":
                raise FaultError(f"{at}{c} is in two swapped pairs")
            claim(c, "swapped")
        pairs.append((a, b))
    return Faults(sets["stuck_closed"], sets["stuck_open"], sets["chatter"], tuple(pairs), sets["dark"])


def dark_leds(board: Board, faults: Faults) -> frozenset[int]:
    """The LED indices of the dark LEDs."""
    by_name = {name: index for index, name in led_names(board).items()}
    return frozenset(by_name[name] for name in faults.dark if name in by_name)


# --------------------------------------------------------------------------------------------
# Chatter and the switch model
# --------------------------------------------------------------------------------------------

class Chatter:
    """When each chattering switch reads wrong: a timeline of flips, drawn per switch from a
    seeded rng (the same seed and switch give the same timeline, whatever is asked first),
    starting at the first time anyone asks."""

    def __init__(self, keys: Iterable[Hashable], *, seed: int = 0, burst=BURST, gap=GAP) -> None:
        self.keys = tuple(keys)
        self.burst, self.gap = burst, gap
        self._rngs = {key: random.Random(f"{seed}/{key}") for key in self.keys}
        self._flips: dict[Hashable, list[float]] = {key: [] for key in self.keys}
        self._start: float | None = None

    def _extend(self, key, t: float) -> list[float]:
        if self._start is None:
            self._start = t
        flips, rng = self._flips[key], self._rngs[key]
        last = flips[-1] if flips else self._start
        while last <= t:
            # an even number of flips so far: the next one starts a burst (after a gap)
            span = self.gap if len(flips) % 2 == 0 else self.burst
            last += rng.uniform(*span)
            flips.append(last)
        return flips

    def flipped(self, key, t: float) -> bool:
        """Whether the switch reads the opposite of its magnet at time t."""
        if key not in self._flips:
            return False
        flips = self._extend(key, t)
        if t < (self._start or t):
            return False
        return bisect.bisect_right(flips, t) % 2 == 1

    def next_change(self, t: float) -> float | None:
        """The first flip of any chattering switch after t."""
        times = []
        for key in self.keys:
            flips = self._extend(key, t)
            times.append(flips[bisect.bisect_right(flips, t)])
        return min(times) if times else None


class SwitchModel:
    """Faulty switches over any keys (switch addresses, or (row, column) of a matrix)."""

    def __init__(self, *, stuck_closed=(), stuck_open=(), chatter=(), swap: dict | None = None,
                 seed: int = 0, burst=BURST, gap=GAP) -> None:
        self.stuck_closed = frozenset(stuck_closed)
        self.stuck_open = frozenset(stuck_open)
        self.swap = dict(swap or {})
        self.chatter = Chatter(chatter, seed=seed, burst=burst, gap=gap)

    def read(self, magnets: Iterable, t: float) -> frozenset:
        """The switches that read closed at time t with magnets on these switches."""
        closed = {self.swap.get(key, key) for key in magnets}
        closed -= self.stuck_open
        closed |= self.stuck_closed
        for key in self.chatter.keys:
            if self.chatter.flipped(key, t):
                closed ^= {key}
        return frozenset(closed)

    def next_change(self, t: float) -> float | None:
        return self.chatter.next_change(t)


def _address_model(board: Board, faults: Faults, where: Callable[[str], Hashable], seed: int,
                   burst, gap) -> SwitchModel:
    """The faults on the switches the board file wires the cells to; `where(cell)` names a
    switch (an address, or a (row, column) of the matrix)."""
    return SwitchModel(
        stuck_closed=[where(c) for c in faults.stuck_closed], stuck_open=[where(c) for c in faults.stuck_open],
        chatter=[where(c) for c in sorted(faults.chatter)],
        swap={where(a): where(b) for a, b in faults.swap.items()}, seed=seed, burst=burst, gap=gap)


# --------------------------------------------------------------------------------------------
# The simulated board with faults
# --------------------------------------------------------------------------------------------

class FaultySimSwitches:
    """The simulated board's address level (a SimSwitches) with faulty switches and dark LEDs.

    close_switch(address) and open_switch(address) put and take magnets (the SimSwitches'
    `closed`: `magnets`); switches() reports what the switches read (`closed`), including
    every chatter flicker. show_leds() passes the chain on with the dark LEDs left dark;
    everything else is the SimSwitches'.
    """

    def __init__(self, sim: SimSwitches, model: SwitchModel | None = None, dark: Iterable[int] = ()) -> None:
        self.sim = sim
        self.board: Board = sim.board
        self.clock = sim.clock
        self.model = model or SwitchModel()
        self.dark = frozenset(dark)

    # --- hands --------------------------------------------------------------------------
    def close_switch(self, address: int) -> None:
        self.sim.close_switch(address)

    def open_switch(self, address: int) -> None:
        self.sim.open_switch(address)

    def press(self, button: Button | str, long: bool = False) -> None:
        self.sim.press(button, long)

    @property
    def magnets(self) -> frozenset[int]:
        return frozenset(self.sim.closed)

    @property
    def closed(self) -> frozenset[int]:
        """What the switches read now."""
        return self.model.read(self.sim.closed, self.clock())

    # --- AddressBoard ---------------------------------------------------------------------
    async def switches(self) -> AsyncIterator[Switches]:
        changed = asyncio.Event()

        async def watch() -> None:
            async for _ in self.sim.switches():
                changed.set()

        watcher = asyncio.create_task(watch())
        last = None
        try:
            while True:
                now = self.clock()
                reading = self.model.read(self.sim.closed, now)
                if reading != last:
                    last = reading
                    yield Switches(now, reading)
                    continue
                due = self.model.next_change(now)
                changed.clear()
                if due is None:
                    await changed.wait()
                else:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(changed.wait(), max(0.0, due - self.clock()) + 0.0005)
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher

    def presses(self) -> AsyncIterator[Press]:
        return self.sim.presses()

    def show_leds(self, colours: Sequence[RGB], blinking: Sequence[bool]) -> None:
        dark = self.dark
        self.sim.show_leds([DARK if i in dark else c for i, c in enumerate(colours)], blinking)

    def show_die(self, state: DieState) -> None:
        self.sim.show_die(state)

    def play(self, cue: Cue) -> None:
        self.sim.play(cue)

    def close(self) -> None:
        self.sim.close()

    # --- what it shows --------------------------------------------------------------------
    def lit(self) -> frozenset[int]:
        """The LEDs lit now (a dark LED never is)."""
        return self.sim.lit()

    @property
    def die(self) -> DieState:
        return self.sim.die

    @property
    def cues(self) -> list[Cue]:
        return self.sim.cues


def faulty_sim(board: Board, faults: Faults | None = None, *, seed: int = 0, burst=BURST, gap=GAP,
               clock: Callable[[], float] = time.monotonic) -> FaultySimSwitches:
    """A simulated board wired as the board file says, with its declared faults."""
    faults = faults if faults is not None else parse_faults(board)
    model = _address_model(board, faults, lambda cell: board.sensor[cell], seed, burst, gap)
    return FaultySimSwitches(SimSwitches(board, clock=clock), model, dark_leds(board, faults))


# --------------------------------------------------------------------------------------------
# The mock matrix with faults
# --------------------------------------------------------------------------------------------

class FaultyCircuit(Circuit):
    """A hal.mock.matrix Circuit whose switches misbehave: `magnets` are where the magnets are (by
    (row, column)); `closed`, which the circuit model reads, is worked out from them, the
    faults and the clock whenever the matrix settles (each row the scanner selects)."""

    def __init__(self, rows: int, columns: int, diodes: bool = True, *, model: SwitchModel | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        super().__init__(rows, columns, diodes)
        self.magnets: set[tuple[int, int]] = set()
        self.model = model or SwitchModel()
        self.clock = clock or time.monotonic

    def levels(self, drive) -> list[bool]:
        self.closed = set(self.model.read(self.magnets, self.clock()))
        return super().levels(drive)

    def place(self, index: int) -> None:
        self.magnets.add(divmod(index, self.columns))

    def lift(self, index: int) -> None:
        self.magnets.discard(divmod(index, self.columns))


def faulty_circuit(board: Board, faults: Faults | None = None, *, seed: int = 0, burst=BURST, gap=GAP,
                   clock: Callable[[], float] | None = None) -> FaultyCircuit:
    """A Circuit for MatrixPins (or FakeMcpBus) with the board's declared faults, placed on the
    switches the board file wires the cells to."""
    faults = faults if faults is not None else parse_faults(board)
    model = _address_model(board, faults, lambda cell: divmod(board.sensor[cell], board.columns), seed, burst, gap)
    return FaultyCircuit(board.rows, board.columns, board.diodes, model=model, clock=clock)


class DarkStrip:
    """A strip (FakeStrip, or rpi_ws281x's PixelStrip) whose dark LEDs never light."""

    def __init__(self, strip, dark: Iterable[int]) -> None:
        self.strip = strip
        self.dark = frozenset(dark)

    def setPixelColor(self, index, colour):  # noqa: N802 - rpi_ws281x's name
        self.strip.setPixelColor(index, 0 if index in self.dark else colour)

    def __getattr__(self, name):
        return getattr(self.strip, name)


# --------------------------------------------------------------------------------------------
# Hands
# --------------------------------------------------------------------------------------------

class SimHands:
    """A builder's hands at a simulated board's address level (a SimSwitches or a
    FaultySimSwitches), whose hollows are really wired as `truth` says."""

    def __init__(self, device, truth: Board) -> None:
        self.device = device
        self.truth = truth
        self._names = led_names(truth)

    async def put(self, hollow: str) -> None:
        self.device.close_switch(self.truth.sensor[hollow])

    async def take(self, hollow: str) -> None:
        self.device.open_switch(self.truth.sensor[hollow])

    async def press_ok(self) -> None:
        self.device.press(Button.OK)

    async def press_die(self) -> None:
        self.device.press(Button.DIE)

    def lit(self) -> set[str]:
        return {self._names.get(i, f"LED {i}") for i in self.device.lit()}


class MockHands:
    """A builder's hands at a GpioBoard on MockFactory pins: magnets on the MatrixPins, the ok
    button's pin pressed, the LEDs seen on the (Fake)Strip."""

    def __init__(self, factory, matrix, strip, truth: Board, *, hold: float = 0.03, rest: float = 0.025) -> None:
        self.factory, self.matrix, self.strip, self.truth = factory, matrix, strip, truth
        self.hold = hold  # s the button is held down
        self.rest = rest  # s after its release: past the button's bounce time before the next press
        self._names = led_names(truth)

    async def put(self, hollow: str) -> None:
        self.matrix.place(self.truth.sensor[hollow])

    async def take(self, hollow: str) -> None:
        self.matrix.lift(self.truth.sensor[hollow])

    async def press_ok(self) -> None:
        await self._press(self.truth.settings_of("gpio").ok_button)

    async def press_die(self) -> None:
        await self._press(self.truth.settings_of("gpio").die_button)

    async def _press(self, number: int | None) -> None:
        if number is None:  # a board without that button
            return
        pin = self.factory.pin(number)
        pin.drive_low()
        await asyncio.sleep(self.hold)
        pin.drive_high()
        await asyncio.sleep(self.rest)

    def lit(self) -> set[str]:
        pixels = self.strip.pixels
        return {self._names.get(i, f"LED {i}") for i, colour in enumerate(pixels) if colour}
