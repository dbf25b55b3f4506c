"""The WS2812 drivers of the gpio backend (hal.led_drivers): the spi driver (every Pi, the Pi 5
included) and rpi_ws281x show the same colours for the same light frame.

Each driver runs against a fake of its device (hal.mock.leds), put in sys.modules in place of
spidev and rpi_ws281x, so the board opens its chain exactly as on a Pi. The spidev fake reads
the SPI bytes back as a WS2812 would (the line's high times at the bus's clock, 24 bits an LED,
green first, a frame latched by a long low): the tests compare colours, not bytes.
"""

from __future__ import annotations

import sys
import tomllib
from importlib import resources

import pytest
from gpiozero.pins.mock import MockFactory

from reedboard.hal.board import parse_board
from reedboard.hal.gpio_board import GpioBoard
from reedboard.hal.interfaces import Light, LightFrame
from reedboard.hal.led_drivers import RESET_BYTES, SPI_HZ, SpiChain, Ws281xChain, encode_spi
from reedboard.hal.leds import capped, chain
from reedboard.hal.mock.leds import FakeSpiDev, NotWs2812, decode_ws2812, fake_rpi_ws281x, fake_spidev

pytestmark = pytest.mark.component


def board_with(game: str, driver: str, **gpio):
    """A shipped board's file, read with `[leds] driver` (and [gpio] keys) changed."""
    data = tomllib.loads(resources.files("reedboard.hardware").joinpath(f"boards/{game}.toml").read_text())
    data["leds"]["driver"] = driver
    if driver == "ws281x":
        data["gpio"]["leds"] = 18
    data["gpio"].update(gpio)
    return parse_board(data, f"{game}-{driver}.toml")


@pytest.fixture
def fakes(monkeypatch):
    """spidev and rpi_ws281x replaced by fakes: (spidev module, rpi_ws281x module)."""
    spidev, ws281x = fake_spidev(), fake_rpi_ws281x()
    monkeypatch.setitem(sys.modules, "spidev", spidev)
    monkeypatch.setitem(sys.modules, "rpi_ws281x", ws281x)
    return spidev, ws281x


@pytest.fixture
def boards():
    made = []
    yield made
    for board in made:
        board.close()


def open_board(board, boards):
    # A clock standing still: both boards show the same half of a blink.
    device = GpioBoard(board, pin_factory=MockFactory(), bus=FakeBus() if board.settings_of("gpio").expander else None,
                       clock=lambda: 100.0)
    boards.append(device)
    return device


class FakeBus:
    """MCP23017s that read every switch open."""

    def write_byte_data(self, address, register, value):
        pass

    def read_byte_data(self, address, register):
        return 0xFF

    def close(self):
        pass


FRAMES = {
    "bigballs": LightFrame(cells={"a1": Light("movable"), "b2": Light("fill", blink=True), "c3": Light("winner"),
                                  "g1": Light("empty", blink=True)}, die_pips=5, turn="white"),
    # Every hollow lit white: far over the supply's budget, so the frame is dimmed.
    "offboard": LightFrame(cells={cell: Light("choose") for cell in board_with("offboard", "spi").cells},
                           turn="black"),
}


@pytest.mark.parametrize("game", ["bigballs", "offboard"])
def test_the_spi_driver_and_rpi_ws281x_show_the_same_colours(fakes, boards, game):
    spidev, ws281x = fakes
    spi_board, pwm_board = board_with(game, "spi"), board_with(game, "ws281x")
    by_spi, by_pwm = open_board(spi_board, boards), open_board(pwm_board, boards)
    frame = FRAMES[game]
    by_spi.show(frame)
    by_pwm.show(frame)
    [spi], [strip] = spidev.devices, ws281x.devices
    assert spi.frames and strip.frames
    assert spi.rgb() == strip.frames[-1]
    assert by_spi.blink_on()
    colours, _ = chain(frame, spi_board)
    assert spi.rgb() == capped(colours, spi_board.budget_ma)  # the frame the board meant, LED by LED
    if game == "offboard":
        assert spi.rgb()[0] != (255, 255, 255)  # dimmed to the budget, the same by both


def test_both_drivers_open_their_device_as_the_board_file_says(fakes, boards):
    spidev, ws281x = fakes
    open_board(board_with("bigballs", "spi", leds=10), boards).show(FRAMES["bigballs"])
    open_board(board_with("offboard", "ws281x"), boards).show(FRAMES["offboard"])
    [spi], [strip] = spidev.devices, ws281x.devices
    assert (spi.bus, spi.device, spi.max_speed_hz, spi.mode) == (0, 0, SPI_HZ, 0)
    assert (strip.pin, strip.freq_hz, strip.channel, strip.brightness, strip.begun) == (18, 800_000, 0, 255, True)
    assert len(strip.pixels) == 74 and len(spi.frames[-1]) == 36


def test_the_spi_stream_is_green_red_blue_and_latched():
    spi = FakeSpiDev()
    spi.open(0, 0)
    chain_ = SpiChain(spi, 3)
    chain_.show([(255, 0, 0), (0, 255, 0), (1, 2, 3)])
    assert spi.frames[-1] == [(0, 255, 0), (255, 0, 0), (2, 1, 3)]  # on the wire: green, red, blue
    data = encode_spi([(255, 0, 0)])
    assert len(data) == 9 + RESET_BYTES and data[9:] == bytes(RESET_BYTES)
    assert RESET_BYTES * 8 / SPI_HZ >= 280e-6  # a WS2812B latches after 280 us low


def test_the_spidev_fake_refuses_what_a_ws2812_would_not_read():
    good = encode_spi([(10, 20, 30)])
    with pytest.raises(NotWs2812, match="no latch"):
        decode_ws2812(good[:-RESET_BYTES] + bytes(4), SPI_HZ)
    with pytest.raises(NotWs2812):
        decode_ws2812(good, 4 * SPI_HZ)  # the right bytes at the wrong clock
    with pytest.raises(NotWs2812):
        decode_ws2812(bytes([0b11111111]) * 9 + bytes(RESET_BYTES), SPI_HZ)  # one long high
    wrong_order = encode_spi([(20, 10, 30)])  # red and green swapped: another colour
    assert decode_ws2812(wrong_order, SPI_HZ) != decode_ws2812(good, SPI_HZ)
    spi = FakeSpiDev()
    spi.open(0, 0)
    spi.max_speed_hz, spi.mode = SPI_HZ, 3
    with pytest.raises(NotWs2812, match="SPI mode 3"):
        spi.writebytes2(good)


def test_rpi_ws281x_sets_only_the_leds_that_change():
    from reedboard.hal.mock.leds import FakePixelStrip

    strip = FakePixelStrip(4, 18)
    leds = Ws281xChain(strip, 4)
    leds.show([(0, 0, 0), (1, 2, 3), (0, 0, 0), (9, 9, 9)])
    leds.show([(0, 0, 0), (1, 2, 3), (5, 5, 5), (9, 9, 9)])
    assert strip.writes == 5 and strip.shows == 2
    assert strip.frames[-1] == [(0, 0, 0), (1, 2, 3), (5, 5, 5), (9, 9, 9)]


def test_closing_darkens_the_chain_and_lets_the_bus_go(fakes, boards):
    spidev, _ = fakes
    device = open_board(board_with("bigballs", "spi"), boards)
    device.show(FRAMES["bigballs"])
    device.close()
    [spi] = spidev.devices
    assert spi.rgb() == [(0, 0, 0)] * 36 and spi.closed


def test_rpi_ws281x_on_a_pi_5_says_to_use_the_spi_driver(monkeypatch, boards):
    monkeypatch.setitem(sys.modules, "rpi_ws281x",
                        fake_rpi_ws281x(begin_error="ws2811_init failed with code -3 (Hardware revision is not supported)"))
    device = open_board(board_with("bigballs", "ws281x"), boards)
    with pytest.raises(RuntimeError) as raised:
        device.show(FRAMES["bigballs"])
    message = str(raised.value)
    assert "\n" not in message and 'driver = "spi"' in message and "bigballs-ws281x.toml" in message


@pytest.mark.parametrize("error, hint", [(FileNotFoundError, "raspi-config nonint do_spi 0"),
                                         (PermissionError, "spi group")])
def test_an_spi_bus_that_cannot_be_opened_says_what_to_do(monkeypatch, boards, error, hint):
    class Refusing(FakeSpiDev):
        def open(self, bus, device):
            raise error(2, "no")

    module = fake_spidev()
    module.SpiDev = Refusing
    monkeypatch.setitem(sys.modules, "spidev", module)
    device = open_board(board_with("bigballs", "spi"), boards)
    with pytest.raises(RuntimeError, match=hint) as raised:
        device.show(FRAMES["bigballs"])
    assert "/dev/spidev0.0" in str(raised.value) and "\n" not in str(raised.value)
