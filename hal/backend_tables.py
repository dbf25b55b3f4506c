"""The shipped backends' tables in a board file: [gpio] (with [leds] driver and spi), [serial]
and [sim], each read into its backend's settings (Board.settings[name]) and written back.

hal.registry names each reader and writer; the board loader calls them through it and knows
no backend's table itself. A reader raises a BoardError naming the file and the problem.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board, BoardError

# How the gpio backend drives the WS2812 chain ([leds] driver): rpi_ws281x (PWM or PCM, every
# Pi but the 5) or the WS2812 signal encoded as SPI bytes (spidev, every Pi with SPI).
LED_DRIVERS = ("ws281x", "spi")
# The SPI buses the spi driver may use: the data pin (MOSI) and every pin the kernel takes for
# the bus once it is turned on (dtparam=spi=on: SPI0 with CE0 and CE1; dtoverlay=spi1-1cs: SPI1).
SPI_BUSES = {0: (10, (7, 8, 9, 10, 11)), 1: (20, (18, 19, 20, 21))}
# gpiozero's pin factories ([gpio] pin_factory), by the names gpiozero gives them.
PIN_FACTORIES = ("lgpio", "rpigpio", "pigpio", "native", "mock")


@dataclass(frozen=True)
class GpioPins:
    rows: tuple[int, ...] = ()  # BCM pins driving the matrix rows
    columns: tuple[int, ...] = ()  # BCM pins reading the columns (pulled up)
    expander: tuple[int, tuple[int, ...]] | None = None  # MCP23017 instead: (I2C bus, addresses)
    leds: int = 18  # the WS2812 data pin (with the spi driver: its bus's MOSI)
    die_button: int | None = None
    ok_button: int | None = None
    buzzer: int | None = None
    led_driver: str = "ws281x"  # one of LED_DRIVERS ([leds] driver)
    spi: tuple[int, int] = (0, 0)  # the spi driver's (bus, device): /dev/spidev<bus>.<device>
    pin_factory: str | None = None  # one of PIN_FACTORIES; None: gpiozero's default


@dataclass(frozen=True)
class SerialLine:
    port: str = "auto"  # a device, a pyserial URL, or "auto": the first Pico on USB
    baudrate: int = 115200


@dataclass(frozen=True)
class SimSettings:
    faults: dict  # declared faults (hal.mock.faults reads them)


def _integer(at: str, value, what: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise BoardError(f"{at}{what} must be a whole number {low} or more, not {value!r}")
    return value


def read_gpio(table: dict, data: dict, board: Board) -> GpioPins:
    at = f"{board.source}: "
    leds = data.get("leds", {})
    driver = leds.get("driver", "ws281x")
    if driver not in LED_DRIVERS:
        raise BoardError(f"{at}[leds] driver {driver!r}: choose {' or '.join(repr(d) for d in LED_DRIVERS)}")
    spi = leds.get("spi", {})
    if not isinstance(spi, dict) or set(spi) - {"bus", "device"}:
        raise BoardError(f"{at}[leds] spi: write {{ bus = 0, device = 0 }}")
    spi = (_integer(at, spi.get("bus", 0), "[leds] spi bus"), _integer(at, spi.get("device", 0), "[leds] spi device"))
    if spi[0] not in SPI_BUSES:
        raise BoardError(f"{at}[leds] spi bus {spi[0]!r}: choose {' or '.join(map(str, SPI_BUSES))}")

    factory = table.get("pin_factory")
    if factory is not None and factory not in PIN_FACTORIES:
        raise BoardError(f"{at}[gpio] pin_factory {factory!r}: choose {', '.join(PIN_FACTORIES)}")
    data_pin = _integer(at, table.get("leds", 18), "the LED pin")
    spi_pins: tuple[int, ...] = ()
    if driver == "spi":
        mosi, spi_pins = SPI_BUSES[spi[0]]
        if "leds" in table and data_pin != mosi:
            raise BoardError(f"{at}[gpio] leds = {data_pin}, but the spi driver on bus {spi[0]} sends on"
                             f" GPIO{mosi} (its MOSI): write leds = {mosi}, or leave it out")
        data_pin = mosi
    expander = table.get("expander")
    if expander is not None:
        if not isinstance(expander, dict) or "addresses" not in expander:
            raise BoardError(f"{at}gpio expander: write {{ bus = 1, addresses = [32, 33] }}")
        expander = (_integer(at, expander.get("bus", 1), "the I2C bus"),
                    tuple(_integer(at, a, "an MCP23017 address", 0x20) for a in expander["addresses"]))
    pins = GpioPins(
        rows=tuple(_integer(at, p, "a row pin") for p in table.get("rows", [])),
        columns=tuple(_integer(at, p, "a column pin") for p in table.get("columns", [])),
        expander=expander,
        leds=data_pin,
        die_button=table.get("die_button"),
        ok_button=table.get("ok_button"),
        buzzer=table.get("buzzer"),
        led_driver=driver,
        spi=spi,
        pin_factory=factory,
    )
    rows, columns = board.rows, board.columns
    if table and expander is None and (len(pins.rows), len(pins.columns)) != (rows, columns):
        raise BoardError(f"{at}gpio lists {len(pins.rows)} row and {len(pins.columns)} column pins"
                         f" for a {rows}x{columns} matrix")
    all_pins = list(pins.rows) + list(pins.columns) + [p for p in (pins.leds, pins.die_button, pins.ok_button, pins.buzzer) if p is not None]
    if table and len(set(all_pins)) != len(all_pins):
        twice = next(p for p in all_pins if all_pins.count(p) > 1)
        raise BoardError(f"{at}gpio pin {twice} is used twice")
    taken = sorted(set(all_pins) & set(spi_pins) - {data_pin})
    if table and taken:
        raise BoardError(f"{at}gpio pin {taken[0]} belongs to SPI{spi[0]}, which the LED chain's spi driver"
                         f" turns on (it takes {', '.join(map(str, spi_pins))}): move it to a free pin")
    return pins


def write_gpio(pins: GpioPins) -> dict[str, list[str]]:
    """The lines the gpio backend reads, by table: [leds] driver (and its SPI bus), and [gpio]
    (none for a board with no pins listed)."""
    leds = [f'driver = "{pins.led_driver}"']
    if pins.led_driver == "spi":
        leds.append(f"spi = {{ bus = {pins.spi[0]}, device = {pins.spi[1]} }}")
    if not (pins.rows or pins.expander):
        return {"leds": leds}
    gpio = []
    if pins.expander:
        bus, addresses = pins.expander
        gpio.append(f"expander = {{ bus = {bus}, addresses = [{', '.join(map(str, addresses))}] }}")
    else:
        gpio.append(f"rows = [{', '.join(map(str, pins.rows))}]")
        gpio.append(f"columns = [{', '.join(map(str, pins.columns))}]")
    gpio.append(f"leds = {pins.leds}")
    if pins.pin_factory is not None:
        gpio.append(f'pin_factory = "{pins.pin_factory}"')
    for name in ("die_button", "ok_button", "buzzer"):
        if getattr(pins, name) is not None:
            gpio.append(f"{name} = {getattr(pins, name)}")
    return {"leds": leds, "gpio": gpio}


def read_serial(table: dict, data: dict, board: Board) -> SerialLine:
    return SerialLine(port=str(table.get("port", "auto")),
                      baudrate=_integer(f"{board.source}: ", table.get("baudrate", 115200), "baudrate", 1))


def write_serial(line: SerialLine) -> dict[str, list[str]]:
    return {"serial": [f'port = "{line.port}"', f"baudrate = {line.baudrate}"]}


def read_sim(table: dict, data: dict, board: Board) -> SimSettings:
    return SimSettings(faults=dict(table.get("faults", {})))
