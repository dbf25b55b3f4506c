"""The gpio backend: a board wired straight to a Raspberry Pi, through gpiozero.

GpioSwitches is its address-level board (hal.addresses); GpioBoard is the cell-level board
over it (Sensors, Lights, DieDisplay, Buttons and Buzzer at once, like the simulated board).

- Switches: the reed-switch matrix of hal.matrix, on the Pi's pins or on MCP23017 expanders
  (`[gpio] expander` in the board file). `switches()` scans every `scan_interval` seconds
  (250 full scans a second by default), debounces each switch over `debounce` scans and
  yields the closed addresses at the start and whenever they change, stamped halfway between
  the last scan that missed the change and the first that saw it (when the switch most likely
  moved: the recogniser's own debounce then counts from there, not from the end of this one).
  On a board without diodes, addresses that may be ghosts are kept in `ghosts` (GpioBoard
  logs their cells).
- Lights: the WS2812 chain, opened when show_leds() first needs it by the driver the board
  file names (`[leds] driver`: "ws281x" through rpi_ws281x, "spi" through spidev; see
  hal.led_drivers). Tests pass `chain=` (an LedChain) or `strip=` (anything with
  setPixelColor(index, 0xRRGGBB) and show(), driven as rpi_ws281x's PixelStrip).
  Colours come from hal.leds.chain (in GpioBoard), dimmed by hal.leds.capped to the board's budget_ma;
  blinking LEDs blink at `blink_hz` (2 Hz: a quarter second on, a quarter off) while an
  asyncio loop runs (or whenever `refresh()` is called). The dimming is worked out for the
  "on" half, so steady LEDs keep one brightness through a blink.
- DieDisplay: the die's pips are LEDs of the chain, shown from LightFrame.die_pips; a
  DieState is only remembered (`die`).
- Buttons: gpiozero Buttons (pulled up, to ground) with `bounce_time`; a press shorter
  than `long_press` seconds (hold_time, 1 s) gives Press(long=False) when released, a longer
  one gives Press(long=True) as soon as it has been held that long.
- Buzzer: a gpiozero TonalBuzzer when the pin can do PWM (tunes), else a plain Buzzer (the
  same rhythm, one pitch); each cue is a short pattern played in a background thread, a new
  cue cutting off the one before.

Pins are BCM numbers from the board file. The pins are reached through a gpiozero pin
factory, handed to every gpiozero device (see choose_pin_factory): a factory object passed as
`pin_factory` (tests pass a MockFactory), or one named by, first to last,
  1. GPIOZERO_PIN_FACTORY in the environment (gpiozero's own variable),
  2. `pin_factory="NAME"` (the configuration),
  3. the board file's `[gpio] pin_factory`,
and with none of them gpiozero's default (lgpio, then rpigpio, pigpio, native).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import os
import threading
import time
from collections.abc import AsyncIterator, Callable

from collections.abc import Sequence

from .addresses import CellBoard, Switches
from .board import Board
from .colours import RGB
from .interfaces import Button, Cue, DieState, Frame, Press
from .led_drivers import LedChain, Ws281xChain, open_chain
from .leds import capped
from .matrix import GpioMatrix, MatrixScanner, Mcp23017Matrix

log = logging.getLogger(__name__)

__all__ = ["CUE_PATTERNS", "GpioBoard", "GpioSwitches", "PinFactoryError", "choose_pin_factory",
           "open_pin_factory"]

# A cue: (note or None for a rest, seconds), played in order. Notes lie within the
# TonalBuzzer's range here (A2-A6: mid A4, two octaves).
CUE_PATTERNS: dict[Cue, tuple[tuple[str | None, float], ...]] = {
    Cue.MOVE: (("A5", 0.05),),
    Cue.ILLEGAL: (("B3", 0.15), (None, 0.05), ("B3", 0.15)),
    Cue.CHOOSE: (("E5", 0.06), (None, 0.04), ("A5", 0.06)),
    Cue.TAKEBACK: (("A5", 0.06), ("E5", 0.08)),
    Cue.ROLL: (("C5", 0.03), (None, 0.03), ("E5", 0.03), (None, 0.03), ("G5", 0.03)),
    Cue.REFUSED: (("B3", 0.12),),
    Cue.READY: (("C5", 0.08), ("E5", 0.08), ("G5", 0.12)),
    Cue.GAME_OVER: (("G5", 0.15), ("E5", 0.15), ("C5", 0.3)),
}

PIN_FACTORY_VARIABLE = "GPIOZERO_PIN_FACTORY"
# What a pin factory that cannot start needs, by its name.
_FACTORY_NEEDS = {
    "lgpio": "pip install lgpio (on a Raspberry Pi)",
    "rpigpio": "pip install rpi-lgpio (Bookworm, Pi 5) or RPi.GPIO (older systems)",
    "pigpio": "pip install pigpio, and run the pigpiod daemon",
}


class PinFactoryError(ValueError):
    """A pin factory that is not known or cannot start; the message says who chose it."""


class GpioUnavailable(RuntimeError):
    """Something the board needs on this computer is not there (an I2C bus, a device file's
    permission); the message says what, and what would give it."""


def choose_pin_factory(board: Board, configured: str | None = None,
                       environ=os.environ) -> tuple[str | None, str]:
    """The name of the pin factory to use and who chose it: GPIOZERO_PIN_FACTORY in the
    environment wins over the configuration (`configured`), which wins over the board file's
    `[gpio] pin_factory`; (None, "gpiozero's default") when none of them names one."""
    named = environ.get(PIN_FACTORY_VARIABLE)
    if named:
        return named, f"{PIN_FACTORY_VARIABLE} in the environment"
    if configured:
        return configured, "the configuration"
    if board.settings_of("gpio").pin_factory:
        return board.settings_of("gpio").pin_factory, f"{board.source} [gpio] pin_factory"
    return None, "gpiozero's default"


def _factory_classes() -> dict[str, object]:
    """gpiozero's pin factories by name (its entry points: lgpio, rpigpio, pigpio, native, mock,
    and any other package adds), not yet imported."""
    from importlib.metadata import entry_points

    return {entry.name: entry for entry in entry_points(group="gpiozero_pin_factories")}


def open_pin_factory(name: str, chosen_by: str):
    """The gpiozero pin factory called `name` (as gpiozero looks it up: its name, or in lower
    case), started; PinFactoryError, in one line naming `chosen_by`, when it cannot be."""
    classes = _factory_classes()
    entry = classes.get(name) or classes.get(name.lower())
    if entry is None:
        raise PinFactoryError(f"{chosen_by}: no pin factory {name!r}: choose {', '.join(sorted(classes))}")
    try:
        return entry.load()()
    except Exception as error:  # a library missing, or not a Pi
        needs = _FACTORY_NEEDS.get(entry.name)
        raise PinFactoryError(f"{chosen_by}: the {entry.name} pin factory cannot start"
                              f" ({type(error).__name__}: {error})" + (f"; {needs}" if needs else "")) from None


class GpioSwitches:
    """The board on the Pi's pins, by address: the matrix, the LED chain, buttons, buzzer."""

    def __init__(self, board: Board, *, pin_factory=None, clock: Callable[[], float] = time.monotonic,
                 scan_interval: float = 0.004, debounce: int = 3, strip=None, chain: LedChain | None = None,
                 bus=None, settle: float = 0.0, blink_hz: float = 2.0, bounce_time: float | None = 0.02,
                 long_press: float = 1.0) -> None:
        self.board = board
        self.pins = board.settings_of("gpio")  # the board file's [gpio] table, as read
        self.clock = clock
        self.scan_interval = scan_interval
        self.blink_hz = blink_hz
        self._own_factory = None
        if pin_factory is None or isinstance(pin_factory, str):
            name, self.pin_factory_chosen_by = choose_pin_factory(board, pin_factory)
            self.pin_factory_name = name
            if name is not None:
                pin_factory = self._own_factory = open_pin_factory(name, self.pin_factory_chosen_by)
        else:
            self.pin_factory_name, self.pin_factory_chosen_by = type(pin_factory).__name__, "the caller"
        self.pin_factory = pin_factory
        self.closed: frozenset[int] = frozenset()  # the debounced closed switches
        self.ghosts: frozenset[int] = frozenset()  # switches that may be phantoms (no diodes)
        self.die = DieState()
        self.pixels: list[RGB] | None = None  # what the chain shows now
        self._chain: LedChain | None = chain if chain is not None else (
            Ws281xChain(strip, board.led_count) if strip is not None else None)
        self._phases: tuple[list[RGB], list[RGB]] = ([(0, 0, 0)] * board.led_count,) * 2
        self._blinking = False
        self._blink_task: asyncio.Task | None = None
        self._own_bus = None
        self._devices: list = []
        self._buttons: dict[Button, object] = {}
        self._held: set[Button] = set()
        self._presses: collections.deque[Press] = collections.deque(maxlen=64)
        self._press_loop: asyncio.AbstractEventLoop | None = None
        self._press_event: asyncio.Event | None = None
        self._buzzer = None
        self.tonal = False
        self._player: threading.Thread | None = None
        self._player_stop = threading.Event()
        try:
            self.scanner = MatrixScanner(self._matrix_source(bus, settle), diodes=board.diodes,
                                         debounce=debounce)
            self._make_buttons(bounce_time, long_press)
            self._make_buzzer()
        except Exception:
            self.close()
            raise

    # --- construction ------------------------------------------------------------------------
    def _matrix_source(self, bus, settle: float):
        gpio, board = self.pins, self.board
        if gpio.expander is not None:
            number, addresses = gpio.expander
            if bus is None:
                import smbus2  # the I2C bus of the Pi; tests pass a fake bus

                try:
                    bus = self._own_bus = smbus2.SMBus(number)
                except FileNotFoundError:
                    raise GpioUnavailable(f"no I2C bus /dev/i2c-{number} for the MCP23017 expanders (not a"
                                          " Raspberry Pi, or I2C is off: sudo raspi-config nonint do_i2c 0)") from None
                except PermissionError:
                    raise GpioUnavailable(f"/dev/i2c-{number} may not be opened (join the i2c group:"
                                          " sudo usermod -aG i2c $USER, then log in again)") from None
            return Mcp23017Matrix(bus, addresses, board.rows, board.columns, open_drain=not board.diodes)
        if not gpio.rows or not gpio.columns:
            raise ValueError(f"{board.source}: [gpio] names no row and column pins (nor an expander)")
        return GpioMatrix(gpio.rows, gpio.columns, pin_factory=self.pin_factory,
                          open_drain=not board.diodes, settle=settle)

    def _make_buttons(self, bounce_time: float | None, long_press: float) -> None:
        from gpiozero import Button as GpioButton

        for kind, pin in ((Button.DIE, self.pins.die_button), (Button.OK, self.pins.ok_button)):
            if pin is None:
                continue
            device = GpioButton(pin, pull_up=True, bounce_time=bounce_time, hold_time=long_press,
                                pin_factory=self.pin_factory)
            self._devices.append(device)
            device.when_pressed = lambda kind=kind: self._held.discard(kind)
            device.when_held = lambda kind=kind: self._on_held(kind)
            device.when_released = lambda kind=kind: self._on_released(kind)
            self._buttons[kind] = device

    def _make_buzzer(self) -> None:
        from gpiozero import Buzzer, TonalBuzzer
        from gpiozero.exc import PinPWMError
        from gpiozero.tones import Tone

        pin = self.pins.buzzer
        if pin is None:
            return
        try:
            self._buzzer = TonalBuzzer(pin, mid_tone=Tone("A4"), octaves=2, pin_factory=self.pin_factory)
            self.tonal = True
        except PinPWMError:  # this pin (or pin factory) cannot do PWM: beeps of one pitch
            self._buzzer = Buzzer(pin, pin_factory=self.pin_factory)
        self._devices.append(self._buzzer)

    # --- Switches --------------------------------------------------------------------------------
    async def switches(self) -> AsyncIterator[Switches]:
        """Scan for ever; the closed switches at the start (once the first `debounce` scans
        agree) and at every change of them, stamped halfway between the last scan that missed
        the change and the first that saw it, never before the stamp before. One consumer at
        a time."""
        loop = asyncio.get_running_loop()
        scanner = self.scanner
        interval = self.scan_interval
        # An I2C scan waits on the bus for milliseconds (the GIL released): off the loop's
        # thread. A scan of the Pi's own pins is Python work, cheaper where it is.
        threaded = isinstance(scanner.source, Mcp23017Matrix)
        last: frozenset[int] | None = None
        # A switch flips after `debounce` scans in a row saw it changed: the first of them is
        # the second oldest of the last `debounce` + 1 scans, whose times these are. The switch
        # moved between the oldest (which missed it) and that one: the midpoint is the best
        # guess, so the recogniser's debounce counts from when the hand moved.
        scanned: collections.deque[float] = collections.deque(maxlen=scanner.debounce + 1)
        stamped = float("-inf")
        scans = 0
        failures = 0
        due = loop.time()
        while True:
            started = self.clock()
            try:
                closed = await asyncio.to_thread(scanner.scan) if threaded else scanner.scan()
            except OSError as error:  # an I2C hiccup (a loose cable): report it, keep trying
                failures += 1
                if failures == 1 or failures % 100 == 0:
                    log.warning("the sensor matrix cannot be read (%s); retrying (%d failed scans)",
                                error, failures)
                await asyncio.sleep(max(interval, 0.05))
                due = loop.time()
                scanned.clear()  # a change seen after the outage is not put back into it
                continue
            if failures:
                log.warning("the sensor matrix reads again after %d failed scans", failures)
                failures = 0
            scans += 1
            scanned.append(started)
            if scans >= scanner.debounce:
                closed = frozenset(closed)
                if closed != last:
                    last = self.closed = closed
                    self.ghosts = frozenset(scanner.ghosts)
                    first = max(len(scanned) - scanner.debounce, 0)
                    seen = scanned[first]
                    if first:
                        seen = (scanned[first - 1] + seen) / 2
                    stamped = max(seen, stamped)
                    yield Switches(stamped, closed)
            due += interval
            now = loop.time()
            if due < now - 10 * interval:  # far behind (a slow bus, a busy loop): start afresh
                due = now
            await asyncio.sleep(max(0.0, due - now))

    # --- Lights and DieDisplay -------------------------------------------------------------------
    def show_die(self, state: DieState) -> None:
        self.die = state  # the pips themselves are LEDs of the chain

    def show_leds(self, colours: Sequence[RGB], blinking: Sequence[bool]) -> None:
        on = capped(list(colours), self.board.budget_ma)
        off = [(0, 0, 0) if blinks else colour for colour, blinks in zip(on, blinking)]
        self._phases = (on, off)
        self._blinking = any(blinking)
        self.refresh()
        if self._blinking and self._blink_task is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return  # no loop: blinking follows refresh() calls
            self._blink_task = loop.create_task(self._blink())

    def blink_on(self) -> bool:
        """Whether blinking LEDs are in their lit half now."""
        return int(self.clock() * 2 * self.blink_hz) % 2 == 0

    def refresh(self) -> None:
        """Put the current blink phase on the chain (only the LEDs that change)."""
        colours = self._phases[0] if not self._blinking or self.blink_on() else self._phases[1]
        if colours == self.pixels:
            return
        if self._chain is None:
            self._chain = open_chain(self.board)
        self._chain.show(colours)
        self.pixels = list(colours)

    async def _blink(self) -> None:
        half = 1.0 / (2 * self.blink_hz)
        try:
            while self._blinking:
                await asyncio.sleep(half - (self.clock() % half) + 0.001)
                self.refresh()
        finally:
            self._blink_task = None

    # --- Buttons ---------------------------------------------------------------------------------
    def _on_held(self, kind: Button) -> None:
        self._held.add(kind)
        self._emit(Press(self.clock(), kind, True))

    def _on_released(self, kind: Button) -> None:
        if kind in self._held:
            self._held.discard(kind)  # its long press was given when it had been held long enough
        else:
            self._emit(Press(self.clock(), kind, False))

    def _emit(self, press: Press) -> None:
        """From any thread (gpiozero calls back from its own threads)."""
        self._presses.append(press)
        loop, event = self._press_loop, self._press_event
        if loop is not None and event is not None:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # the loop has closed
                pass

    async def presses(self) -> AsyncIterator[Press]:
        self._press_loop = asyncio.get_running_loop()
        self._press_event = event = asyncio.Event()
        try:
            while True:
                while self._presses:
                    yield self._presses.popleft()
                event.clear()
                if not self._presses:
                    await event.wait()
        finally:
            self._press_loop = self._press_event = None

    # --- Buzzer ----------------------------------------------------------------------------------
    def play(self, cue: Cue) -> None:
        if self._buzzer is None:
            return
        self._stop_player()
        self._player_stop = stop = threading.Event()
        self._player = threading.Thread(target=self._play_pattern, args=(CUE_PATTERNS[cue], stop),
                                        name=f"buzzer {cue.value}", daemon=True)
        self._player.start()

    def _play_pattern(self, pattern, stop: threading.Event) -> None:
        buzzer = self._buzzer
        try:
            for note, seconds in pattern:
                if note is None:
                    self._silence(buzzer)
                elif self.tonal:
                    buzzer.play(note)
                else:
                    buzzer.on()
                if stop.wait(seconds):
                    break
        finally:
            try:
                self._silence(buzzer)
            except Exception:  # closed under us
                pass

    def _silence(self, buzzer) -> None:
        if self.tonal:
            buzzer.stop()
        else:
            buzzer.off()

    def _stop_player(self) -> None:
        if self._player is not None:
            self._player_stop.set()
            self._player.join(timeout=1.0)
            self._player = None

    def wait_quiet(self, timeout: float = 2.0) -> None:
        """Wait until the cue being played has finished."""
        if self._player is not None:
            self._player.join(timeout)

    # --- life ------------------------------------------------------------------------------------
    def close(self) -> None:
        self._blinking = False
        if self._blink_task is not None:
            self._blink_task.cancel()
        self._stop_player()
        if self._chain is not None:
            try:
                if self.pixels is not None:
                    self._phases = ([(0, 0, 0)] * self.board.led_count,) * 2
                    self.refresh()
                self._chain.close()
            except Exception:  # pragma: no cover - the chain went away
                pass
            self._chain = None
        for device in self._devices:
            device.close()
        self._devices.clear()
        scanner = getattr(self, "scanner", None)
        if scanner is not None:
            scanner.close()
        if self._own_factory is not None:
            self._own_factory.close()  # the factory this board started (an lgpio chip handle, ...)
            self._own_factory = None
        if self._own_bus is not None:
            self._own_bus.close()
            self._own_bus = None

    def __enter__(self) -> GpioSwitches:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class GpioBoard(CellBoard):
    """The cell-level board on the Pi's pins (the arguments are GpioSwitches'). What only
    this backend has (scanner, pixels, refresh(), wait_quiet(), tonal) is its GpioSwitches'."""

    def __init__(self, board: Board, **options) -> None:
        super().__init__(board, GpioSwitches(board, **options))
        self.clock = self.addresses.clock
        self._ghosts: frozenset[str] = frozenset()

    @property
    def occupied(self) -> frozenset[str]:
        return self.cells_of(self.addresses.closed)

    @property
    def ghosts(self) -> frozenset[str]:
        """Occupied cells that may be phantoms (a matrix without diodes)."""
        return self.cells_of(self.addresses.ghosts)

    async def frames(self) -> AsyncIterator[Frame]:
        async for frame in super().frames():
            ghosts = self.ghosts
            if ghosts != self._ghosts and ghosts:
                log.warning("possible ghost readings on %s: this matrix has no diodes, and closed"
                            " switches on the corners of a rectangle make a missing one read closed",
                            ", ".join(sorted(ghosts)))
            self._ghosts = ghosts
            yield frame

    def __getattr__(self, name: str):
        if name.startswith("__") or name == "addresses":
            raise AttributeError(name)
        return getattr(self.addresses, name)
