"""Fakes of the two devices that drive a WS2812 chain on the Pi, for tests and trying things.

- FakeSpiDev stands for spidev.SpiDev. It reads back what was written as a WS2812 would: the
  SPI bytes are turned into the line's levels at the bus's clock, every WS2812 bit is told
  from the time the line stays high, 24 bits make an LED (green, red, blue), and a frame is
  latched only by a long enough low. It is written apart from the encoder (hal.led_drivers),
  so a test compares the colours the LEDs would show, not bytes.
- FakePixelStrip stands for rpi_ws281x.PixelStrip: it keeps each LED's 0xRRGGBB and the frames
  shown.
- fake_spidev() and fake_rpi_ws281x() make modules holding them, to put in sys.modules in
  place of the real ones; every device made is kept in the module's `devices`.
"""

from __future__ import annotations

import types

from .matrix import FakeStrip

RGB = tuple[int, int, int]

# WS2812B timing, in seconds: a bit lasts 1.25 us; its high time says 0 or 1.
HIGH_0 = (0.25e-6, 0.55e-6)  # T0H 0.4 us +- 150 ns
HIGH_1 = (0.65e-6, 0.95e-6)  # T1H 0.8 us +- 150 ns
PERIOD = (0.95e-6, 1.55e-6)  # a whole bit, high and low
LATCH = 280e-6  # low for this long ends a frame


class NotWs2812(ValueError):
    """SPI bytes that a WS2812 chain would not read as a frame."""


def decode_ws2812(data: bytes, hz: float) -> list[tuple[int, int, int]]:
    """The LEDs' (green, red, blue) that `data`, clocked out at `hz`, makes a WS2812 chain show."""
    bit_time = 1.0 / hz
    levels = "".join(format(byte, "08b") for byte in data)
    tail = len(levels) - len(levels.rstrip("0"))
    if tail * bit_time < LATCH:
        raise NotWs2812(f"the line is low for only {tail * bit_time * 1e6:.0f} us at the end: no latch")
    pulses = []  # (high, low) times of each WS2812 bit
    at, end = 0, len(levels) - tail
    while at < end:
        if levels[at] != "1":
            raise NotWs2812(f"a WS2812 bit starts low at SPI bit {at}")
        high_end = at
        while high_end < end and levels[high_end] == "1":
            high_end += 1
        low_end = high_end
        while low_end < len(levels) and levels[low_end] == "0":
            low_end += 1
        high, low = high_end - at, low_end - high_end
        if low_end < end:  # the last bit's low merges into the latch
            period = (high + low) * bit_time
            if not PERIOD[0] <= period <= PERIOD[1]:
                raise NotWs2812(f"a WS2812 bit of {period * 1e6:.2f} us at SPI bit {at}")
        pulses.append(high * bit_time)
        at = low_end
    bits = []
    for high in pulses:
        if HIGH_0[0] <= high <= HIGH_0[1]:
            bits.append(0)
        elif HIGH_1[0] <= high <= HIGH_1[1]:
            bits.append(1)
        else:
            raise NotWs2812(f"a high of {high * 1e6:.2f} us is neither a 0 nor a 1")
    if len(bits) % 24:
        raise NotWs2812(f"{len(bits)} bits are not whole LEDs of 24")
    leds = []
    for start in range(0, len(bits), 24):
        value = int("".join(map(str, bits[start:start + 24])), 2)
        leds.append((value >> 16 & 255, value >> 8 & 255, value & 255))
    return leds


class FakeSpiDev:
    """spidev.SpiDev, as far as the LED chain uses it; `frames` holds what the chain was shown,
    each LED as (green, red, blue), the order of the wire."""

    def __init__(self) -> None:
        self.bus: int | None = None
        self.device: int | None = None
        self.max_speed_hz = 125_000_000  # what spidev reports before it is set
        self.mode = 0
        self.bits_per_word = 8
        self.frames: list[list[tuple[int, int, int]]] = []
        self.closed = False

    def open(self, bus: int, device: int) -> None:
        self.bus, self.device = bus, device

    def writebytes2(self, data) -> None:
        if self.bus is None or self.closed:
            raise OSError(9, "Bad file descriptor")
        if self.mode != 0 or self.bits_per_word != 8:
            raise NotWs2812(f"SPI mode {self.mode}, {self.bits_per_word} bits a word: the bytes would not be sent as written")
        self.frames.append(decode_ws2812(bytes(data), self.max_speed_hz))

    def close(self) -> None:
        self.closed = True

    def rgb(self) -> list[RGB]:
        """The last frame's colours as (red, green, blue)."""
        return [(r, g, b) for g, r, b in self.frames[-1]]


class FakePixelStrip(FakeStrip):
    """rpi_ws281x.PixelStrip, as far as the LED chain uses it; `frames` holds each frame shown
    as (red, green, blue)."""

    def __init__(self, num, pin, freq_hz=800_000, dma=10, invert=False, brightness=255, channel=0,
                 strip_type=None, gamma=None, begin_error: str | None = None) -> None:
        super().__init__(num)
        self.pin, self.freq_hz, self.dma, self.channel = pin, freq_hz, dma, channel
        self.invert, self.brightness, self.strip_type = invert, brightness, strip_type
        self.begun = False
        self.begin_error = begin_error
        self.frames: list[list[RGB]] = []

    def begin(self) -> None:
        if self.begin_error:
            raise RuntimeError(self.begin_error)
        self.begun = True

    def numPixels(self) -> int:  # noqa: N802 - rpi_ws281x's name
        return len(self.pixels)

    def show(self) -> None:
        super().show()
        self.frames.append([self.rgb(i) for i in range(len(self.pixels))])


def fake_spidev() -> types.ModuleType:
    """A `spidev` module whose SpiDev is FakeSpiDev; `devices` holds those made."""
    module = types.ModuleType("spidev")
    module.devices = []

    def make() -> FakeSpiDev:
        device = FakeSpiDev()
        module.devices.append(device)
        return device

    module.SpiDev = make
    return module


def fake_rpi_ws281x(begin_error: str | None = None) -> types.ModuleType:
    """A `rpi_ws281x` module whose PixelStrip is FakePixelStrip; `devices` holds those made.
    `begin_error`: what begin() raises, as rpi_ws281x does where it cannot run (a Pi 5)."""
    module = types.ModuleType("rpi_ws281x")
    module.devices = []

    def make(*args, **kwargs) -> FakePixelStrip:
        strip = FakePixelStrip(*args, begin_error=begin_error, **kwargs)
        module.devices.append(strip)
        return strip

    module.PixelStrip = make
    module.Color = lambda red, green, blue, white=0: (white << 24) | (red << 16) | (green << 8) | blue
    return module
