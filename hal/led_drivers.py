"""The WS2812 chain on the Raspberry Pi's pins: two drivers behind one small interface.

A chain (LedChain) is shown a whole frame at a time, LED 0 first, as (red, green, blue);
the board file's `[leds] driver` says which driver sends it:

- "ws281x": Ws281xChain over rpi_ws281x's PixelStrip, which makes the signal with the PWM
  (GPIO 12 or 18, 13 or 19) or PCM (GPIO 21) hardware through DMA. Raspberry Pi Zero 2 W, 3B+
  and 4; not the Pi 5, whose GPIO hangs off its RP1 chip, which rpi_ws281x does not know. It
  needs root (it maps the hardware's registers), and PWM takes the analogue audio's clock.
- "spi": SpiChain over spidev (/dev/spidev<bus>.<device>), which sends the WS2812 signal as
  SPI bytes on the bus's MOSI pin (GPIO 10 for SPI0). Every Pi with SPI, the Pi 5 included;
  it needs SPI turned on and the user in the `spi` group, nothing else.

The SPI encoding: a WS2812 bit lasts 1.25 us (800 kHz). At SPI_HZ = 2.4 MHz an SPI bit lasts
0.417 us, so every WS2812 bit is three SPI bits: 0 is 100 (0.42 us high, 0.83 us low) and
1 is 110 (0.83 us high, 0.42 us low), both within the WS2812B's +-150 ns. Each LED takes 24
bits, green, red, blue, the most significant bit first: 9 SPI bytes. After the last LED the
line stays low for RESET_BYTES zero bytes (300 us: a WS2812B latches the frame after 280 us
low; older WS2812 after 50 us).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .board import Board
from .colours import RGB
from .install import pip_extra

__all__ = ["LedChain", "SpiChain", "Ws281xChain", "encode_spi", "open_chain",
           "RESET_BYTES", "SPI_HZ", "WS281X_CHANNEL_1"]

SPI_HZ = 2_400_000  # three SPI bits per WS2812 bit of 1.25 us
SPI_BITS = {0: 0b100, 1: 0b110}  # a WS2812 bit as three SPI bits, sent left to right
RESET_BYTES = 90  # 90 * 8 / 2.4 MHz = 300 us low: the chain latches the frame
WS281X_CHANNEL_1 = (13, 19, 41, 45, 53)  # rpi_ws281x's PWM1 pins; the others (12, 18, 10, 21) use channel 0



def _spi_bytes(value: int) -> bytes:
    """A colour byte as its 24 bits of SPI stream (3 bytes), most significant bit first."""
    stream = 0
    for bit in range(7, -1, -1):
        stream = stream << 3 | SPI_BITS[value >> bit & 1]
    return stream.to_bytes(3, "big")


_SPI_BYTE = tuple(_spi_bytes(value) for value in range(256))  # worked out once


class LedChain(Protocol):
    """A WS2812 chain: `show` puts a whole frame on it, `close` lets the device go."""

    count: int

    def show(self, colours: Sequence[RGB]) -> None: ...

    def close(self) -> None: ...


def encode_spi(colours: Sequence[RGB]) -> bytes:
    """The SPI bytes that make a WS2812 chain show `colours` (green, red, blue on the wire),
    the reset latch included."""
    out = bytearray()
    for r, g, b in colours:
        out += _SPI_BYTE[g] + _SPI_BYTE[r] + _SPI_BYTE[b]
    out += bytes(RESET_BYTES)
    return bytes(out)


class SpiChain:
    """The chain on an SPI bus's MOSI pin. `spi`: an open spidev.SpiDev (or a fake of it)."""

    def __init__(self, spi, count: int) -> None:
        self.spi = spi
        self.count = count
        spi.max_speed_hz = SPI_HZ
        spi.mode = 0  # clock idles low, MOSI sampled on the rising edge
        spi.bits_per_word = 8

    @classmethod
    def open(cls, count: int, bus: int = 0, device: int = 0, source: str = "the board file") -> SpiChain:
        try:
            import spidev  # the Pi extra
        except ImportError:
            raise RuntimeError(f"the spi LED driver needs spidev ({pip_extra('pi')})") from None
        spi = spidev.SpiDev()
        try:
            spi.open(bus, device)
        except FileNotFoundError:
            raise RuntimeError(f"no /dev/spidev{bus}.{device} for the LED chain ({source} [leds] driver = \"spi\"):"
                               " turn SPI on with `sudo raspi-config nonint do_spi 0` (dtparam=spi=on)"
                               " and reboot") from None
        except PermissionError:
            raise RuntimeError(f"/dev/spidev{bus}.{device} may not be opened by this user: add it to the"
                               " spi group (`sudo usermod -aG spi $USER`, then log in again)") from None
        return cls(spi, count)

    def show(self, colours: Sequence[RGB]) -> None:
        self.spi.writebytes2(encode_spi(colours))  # writebytes2 splits what exceeds spidev's buffer

    def close(self) -> None:
        self.spi.close()


class Ws281xChain:
    """The chain through rpi_ws281x. `strip`: a PixelStrip, begun (or anything with
    setPixelColor(index, 0xRRGGBB) and show()); only the LEDs that change are set."""

    def __init__(self, strip, count: int) -> None:
        self.strip = strip
        self.count = count
        self._shown: list[RGB] | None = None

    @classmethod
    def open(cls, count: int, pin: int = 18, source: str = "the board file") -> Ws281xChain:
        try:
            from rpi_ws281x import PixelStrip  # the Pi extra
        except ImportError:
            raise RuntimeError(f"the ws281x LED driver needs rpi_ws281x ({pip_extra('pi')})") from None
        # 800 kHz, DMA channel 10, not inverted, full brightness (the colours come dimmed already);
        # the strip type is rpi_ws281x's default, GRB, as a WS2812 wants.
        strip = PixelStrip(count, pin, 800_000, 10, False, 255, 1 if pin in WS281X_CHANNEL_1 else 0)
        try:
            strip.begin()
        except RuntimeError as error:  # not root, or a Pi it does not know (the Pi 5)
            raise RuntimeError(f"rpi_ws281x cannot drive GPIO{pin} ({error}): it needs root, and does not run"
                               f" on a Raspberry Pi 5; there, set [leds] driver = \"spi\" in {source}") from None
        return cls(strip, count)

    def show(self, colours: Sequence[RGB]) -> None:
        for index, colour in enumerate(colours):
            if self._shown is None or self._shown[index] != colour:
                r, g, b = colour
                self.strip.setPixelColor(index, (r << 16) | (g << 8) | b)  # rpi_ws281x.Color(r, g, b)
        self.strip.show()
        self._shown = list(colours)

    def close(self) -> None:
        pass  # PixelStrip lets its DMA go when it is collected


def open_chain(board: Board) -> LedChain:
    """The chain the board file's `[leds] driver` names, on its pins."""
    gpio = board.settings_of("gpio")
    if gpio.led_driver == "spi":
        return SpiChain.open(board.led_count, *gpio.spi, source=board.source)
    return Ws281xChain.open(board.led_count, gpio.leds, source=board.source)
