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
file) and gives a `Faults`. The same faults are then applied to either simulated board:

- `FaultySimBoard(SimBoard(board), faults)`: the SimBoard's occupied cells are where the
  magnets are; its wrapper reports what the faulty switches read instead, and keeps dark
  LEDs dark (`lit_leds()`, `lights`).
- `faulty_circuit(board, faults)`: a mock_matrix Circuit (for MatrixPins under a GpioBoard
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
from collections.abc import AsyncIterator, Callable, Hashable, Iterable
from dataclasses import dataclass

from .board import Board, BoardError
from .interfaces import Button, Cue, DieState, Frame, LightFrame, Press
from .leds import chain
from .mock_matrix import Circuit

__all__ = [
    "KINDS", "SWITCH_KINDS", "PIP_NAMES", "Faults", "FaultError", "parse_faults", "Chatter",
    "FaultySimBoard", "FaultyCircuit", "faulty_circuit", "DarkStrip", "SimHands", "MockHands",
    "led_names", "dark_leds",
]

SWITCH_KINDS = ("stuck_closed", "stuck_open", "chatter", "swapped")
KINDS = SWITCH_KINDS + ("dark",)
PIP_NAMES = tuple(f"pip{k}" for k in range(1, 8))  # the die pips in the board file's order
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
    data = board.faults if faults is None else faults
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
            raise FaultError(f"{at}{kind}: no {what} {name!r} on the {board.game} board")
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


def led_names(board: Board) -> dict[int, str]:
    """LED index -> what it is under: a hollow, "pip1".."pip7" or "turn"."""
    names = {index: cell for cell, index in board.led.items() if cell in board.cells}
    names.update({index: PIP_NAMES[k] for k, index in enumerate(board.die_pips)})
    if board.turn_led is not None:
        names[board.turn_led] = "turn"
    return names


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
    """Faulty switches over any keys (cell names, or (row, column) of a matrix)."""

    def __init__(self, *, stuck_closed=(), stuck_open=(), chatter=(), swap: dict | None = None,
                 seed: int = 0, burst=BURST, gap=GAP) -> None:
        self.stuck_closed = frozenset(stuck_closed)
        self.stuck_open = frozenset(stuck_open)
        self.swap = dict(swap or {})
        self.chatter = Chatter(chatter, seed=seed, burst=burst, gap=gap)

    def read(self, magnets: Iterable, t: float) -> frozenset:
        """The switches that read closed at time t with magnets on these hollows."""
        closed = {self.swap.get(key, key) for key in magnets}
        closed -= self.stuck_open
        closed |= self.stuck_closed
        for key in self.chatter.keys:
            if self.chatter.flipped(key, t):
                closed ^= {key}
        return frozenset(closed)

    def next_change(self, t: float) -> float | None:
        return self.chatter.next_change(t)


def _cell_model(faults: Faults, seed: int, burst, gap) -> SwitchModel:
    return SwitchModel(stuck_closed=faults.stuck_closed, stuck_open=faults.stuck_open,
                       chatter=sorted(faults.chatter), swap=faults.swap, seed=seed, burst=burst, gap=gap)


# --------------------------------------------------------------------------------------------
# The simulated board with faults
# --------------------------------------------------------------------------------------------

class FaultySimBoard:
    """A SimBoard whose switches and LEDs have the declared faults.

    place(cell) and lift(cell) put and take magnets (the SimBoard's `occupied`: `magnets`);
    frames() report what the switches read (`occupied`), including every chatter flicker.
    show() passes everything on, but a dark LED's cell is left out of the light frame (its
    pip or turn light is left out of `lit_leds()`).
    """

    def __init__(self, sim, faults: Faults | None = None, *, seed: int = 0, burst=BURST, gap=GAP) -> None:
        self.sim = sim
        self.board: Board = sim.board
        self.cells = sim.cells
        self.clock = sim.clock
        self.faults = faults if faults is not None else parse_faults(sim.board)
        self.model = _cell_model(self.faults, seed, burst, gap)
        self._dark = dark_leds(self.board, self.faults)

    # --- hands --------------------------------------------------------------------------
    def place(self, cell: str) -> None:
        self.sim.place(cell)

    def lift(self, cell: str) -> None:
        self.sim.lift(cell)

    def press(self, button: Button | str, long: bool = False) -> None:
        self.sim.press(button, long)

    @property
    def magnets(self) -> set[str]:
        return self.sim.occupied

    @property
    def occupied(self) -> frozenset[str]:
        """What the switches read now."""
        return self.model.read(self.sim.occupied, self.clock())

    # --- Sensors and Buttons ------------------------------------------------------------------
    async def frames(self) -> AsyncIterator[Frame]:
        changed = asyncio.Event()

        async def watch() -> None:
            async for _ in self.sim.frames():
                changed.set()

        watcher = asyncio.create_task(watch())
        last = None
        try:
            while True:
                now = self.clock()
                reading = self.model.read(self.sim.occupied, now)
                if reading != last:
                    last = reading
                    yield Frame(now, reading)
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

    # --- Lights, DieDisplay, Buzzer -------------------------------------------------------------
    def show(self, what: LightFrame | DieState) -> None:
        if isinstance(what, LightFrame) and self.faults.dark:
            dark = self.faults.dark
            what = LightFrame({c: light for c, light in what.cells.items() if c not in dark},
                              what.die_pips, None if "turn" in dark else what.turn)
        self.sim.show(what)

    @property
    def lights(self) -> LightFrame:
        return self.sim.lights

    @property
    def die(self) -> DieState:
        return self.sim.die

    @property
    def cues(self) -> list[Cue]:
        return self.sim.cues

    def play(self, cue: Cue) -> None:
        self.sim.play(cue)

    def lit_leds(self) -> frozenset[int]:
        """The LED indices lit now (a dark LED never is)."""
        colours, _ = chain(self.sim.lights, self.board)
        return frozenset(i for i, c in enumerate(colours) if c != (0, 0, 0) and i not in self._dark)


# --------------------------------------------------------------------------------------------
# The mock matrix with faults
# --------------------------------------------------------------------------------------------

class FaultyCircuit(Circuit):
    """A mock_matrix Circuit whose switches misbehave: `magnets` are where the magnets are (by
    (row, column)); `closed`, which the circuit model reads, is worked out from them, the
    faults and the clock whenever the matrix settles (each row the scanner selects)."""

    def __init__(self, rows: int, columns: int, diodes: bool = True, *, model: SwitchModel | None = None,
                 clock: Callable[[], float] | None = None) -> None:
        import time

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

    def at(cell: str) -> tuple[int, int]:
        return divmod(board.sensor[cell], board.columns)

    model = SwitchModel(
        stuck_closed=[at(c) for c in faults.stuck_closed], stuck_open=[at(c) for c in faults.stuck_open],
        chatter=[at(c) for c in sorted(faults.chatter)],
        swap={at(a): at(b) for a, b in faults.swap.items()}, seed=seed, burst=burst, gap=gap)
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
    """A builder's hands at a simulated board (a SimBoard or a FaultySimBoard).

    `truth` is the board as it is really wired; `where(hollow)` is the name the device's
    place() and lift() take for the switch under a hollow (the hollow itself by default;
    a raw device's sensor name in calibration)."""

    def __init__(self, device, truth: Board, where: Callable[[str], str] | None = None) -> None:
        self.device = device
        self.truth = truth
        self.where = where or (lambda hollow: hollow)
        self._names = led_names(truth)

    async def put(self, hollow: str) -> None:
        self.device.place(self.where(hollow))

    async def take(self, hollow: str) -> None:
        self.device.lift(self.where(hollow))

    async def press_ok(self) -> None:
        self.device.press(Button.OK)

    def lit(self) -> set[str]:
        if hasattr(self.device, "lit_leds"):
            indices = self.device.lit_leds()
        else:
            colours, _ = chain(self.device.lights, self.device.board)
            indices = {i for i, c in enumerate(colours) if c != (0, 0, 0)}
        return {self._names.get(i, f"LED {i}") for i in indices}


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
        pin = self.factory.pin(self.truth.gpio.ok_button)
        pin.drive_low()
        await asyncio.sleep(self.hold)
        pin.drive_high()
        await asyncio.sleep(self.rest)

    def lit(self) -> set[str]:
        pixels = self.strip.pixels
        return {self._names.get(i, f"LED {i}") for i, colour in enumerate(pixels) if colour}
