# The Pico's entry point: real pins, the WS2812 chain, the buzzer and USB serial, handed to
# the board logic in app.py.
#
# `reedboard firmware install` copies firmware/*.py to the Pico and writes the board's
# configuration beside them as board.json (matrix size, LED count, pins), so that nobody edits
# this file. Without board.json the built-in board below is used, on the pins of pins.py.
# MicroPython runs main.py at boot. Imported rather than run (tests, the unix port with fakes
# of machine and neopixel on MICROPYPATH), it only defines things.

import json
import select
import sys
import time

import machine
import neopixel

import app
import scanner
from pins import BUZZER_PIN, COLUMN_PINS, DIE_BUTTON_PIN, LED_PIN, OK_BUTTON_PIN, ROW_PINS

# The built-in boards: (matrix rows, matrix columns, LEDs on the chain), as in
# hardware/boards/GAME.toml. GAME is the one used when there is no board.json.
GAME = "bigballs"
BOARDS = {
    "bigballs": (4, 7, 36),
    "offboard": (8, 10, 74),
}
BOARD_FILE = "board.json"  # beside main.py; written by `reedboard firmware install`
PIN_KEYS = ("rows", "columns", "leds", "die_button", "ok_button", "buzzer")
HIGHEST_PIN = 29  # GP0-GP29

DEBOUNCE_SCANS = 3  # a switch change counts after 3 equal scans in a row
SETTLE_US = 20  # after driving a row low, before reading the columns (wire capacitance)
STEP_MS = 2  # pause between loop steps (one matrix scan per step) when the host sends nothing
LOOP_US = 5000  # a step and the reading of USB after it take about this long at most, so that scanning goes on
MIN_READ_US = 300  # but USB is read at least this long after each step (the host's lines keep coming)
CHUNK = 512  # and at most this many bytes
GC_STEPS = 16  # collect the garbage every this many steps, between two scans, while there is little
GC_SAFETY = 65536  # and at the latest after this many bytes (MicroPython collects when the heap is full)


def write_stdout(line):
    """Send one line to the host over USB CDC."""
    out = getattr(sys.stdout, "buffer", None)
    if out is not None:
        out.write(line.encode())
    else:
        sys.stdout.write(line)


def built_in(game=GAME):
    """The configuration of a built-in board, on the pins of pins.py."""
    rows, columns, leds = BOARDS[game]
    return {
        "board": game, "rows": rows, "columns": columns, "leds": leds,
        "pins": {"rows": list(ROW_PINS[:rows]), "columns": list(COLUMN_PINS[:columns]), "leds": LED_PIN,
                 "die_button": DIE_BUTTON_PIN, "ok_button": OK_BUTTON_PIN, "buzzer": BUZZER_PIN},
    }


def here():
    path = globals().get("__file__", "")
    if "/" in path:
        return path.rsplit("/", 1)[0]
    return "."


def _whole(value, what, low, high):
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError("%s must be a whole number %d to %d, not %r" % (what, low, high, value))
    return value


def check_config(config):
    """The configuration as build() takes it; ValueError naming the key for anything wrong."""
    if not isinstance(config, dict):
        raise ValueError("not a JSON object")
    rows = _whole(config.get("rows"), "rows", 1, 16)
    columns = _whole(config.get("columns"), "columns", 1, 16)
    _whole(config.get("leds"), "leds", 1, 1024)
    pins = config.get("pins")
    if not isinstance(pins, dict):
        raise ValueError("pins must be an object with " + ", ".join(PIN_KEYS))
    for key in PIN_KEYS:
        if key not in pins:
            raise ValueError("pins has no " + key)
    used = []
    for key, count in (("rows", rows), ("columns", columns)):
        if not isinstance(pins[key], list) or len(pins[key]) != count:
            raise ValueError("pins %s must list %d pins" % (key, count))
        for n in pins[key]:
            used.append(_whole(n, "pins " + key, 0, HIGHEST_PIN))
    for key in PIN_KEYS[2:]:
        used.append(_whole(pins[key], "pins " + key, 0, HIGHEST_PIN))
    for n in used:
        if used.count(n) > 1:
            raise ValueError("pin GP%d is used twice" % n)
    return config


def load_config(path=None):
    """(configuration, problem): board.json's when it is there and right; otherwise the
    built-in board's, and why (None when there is simply no board.json)."""
    if path is None:
        path = here() + "/" + BOARD_FILE
    try:
        f = open(path)
    except OSError:
        return built_in(), None
    try:
        try:
            return check_config(json.load(f)), None
        finally:
            f.close()
    except ValueError as error:  # bad JSON is a ValueError too
        return built_in(), "%s: %s; using the built-in %s board" % (BOARD_FILE, error, GAME)


def build(game=None, write=write_stdout, clock=time, config=None):
    """The board logic on the real pins (or on machine/neopixel fakes): a built-in board by
    name, or a configuration (check_config's), by default board.json's."""
    if config is None:
        config = built_in(game) if game is not None else load_config()[0]
    pins = config["pins"]
    Pin = machine.Pin
    # Open drain: a row that is not being scanned floats instead of driving high, so two
    # closed switches on one column can never short two row outputs together.
    drive = getattr(Pin, "OPEN_DRAIN", Pin.OUT)
    row_pins = [Pin(n, drive, value=1) for n in pins["rows"]]
    column_pins = [Pin(n, Pin.IN, Pin.PULL_UP) for n in pins["columns"]]
    sleep_us = getattr(time, "sleep_us", None)
    settle = None
    if sleep_us is not None and SETTLE_US:
        def settle():
            sleep_us(SETTLE_US)
    matrix = scanner.Scanner(row_pins, column_pins, DEBOUNCE_SCANS, settle)
    leds = neopixel.NeoPixel(Pin(pins["leds"], Pin.OUT), config["leds"])
    buttons = [
        app.Button("die", Pin(pins["die_button"], Pin.IN, Pin.PULL_UP), DEBOUNCE_SCANS),
        app.Button("ok", Pin(pins["ok_button"], Pin.IN, Pin.PULL_UP), DEBOUNCE_SCANS),
    ]
    buzzer = machine.PWM(Pin(pins["buzzer"]))
    buzzer.freq(1000)
    buzzer.duty_u16(0)
    return app.App(matrix, leds, write, clock, buttons, buzzer)


class Input:
    """USB CDC input a byte at a time (a read never waits: MicroPython's stdin read blocks until
    it has every byte asked for), for a bounded time at once."""

    def __init__(self, stream=None, poller=None, clock=time):
        self.stream = stream if stream is not None else getattr(sys.stdin, "buffer", sys.stdin)
        if poller is None:
            poller = select.poll()
            poller.register(sys.stdin, select.POLLIN)
        self.ipoll = poller.ipoll
        self.clock = clock
        self.chunk = bytearray(CHUNK)
        self.one = bytearray(1)

    def read(self, budget_us=MIN_READ_US):
        """What the host has sent, as much as can be read in budget_us (b"" when nothing)."""
        clock = self.clock
        start = clock.ticks_us()
        chunk = self.chunk
        one = self.one
        readinto = self.stream.readinto
        ipoll = self.ipoll
        n = 0
        while n < CHUNK:
            ready = False
            for _ in ipoll(0):
                ready = True
            if not ready or not readinto(one):
                break
            chunk[n] = one[0]
            n += 1
            if not n & 7 and clock.ticks_diff(clock.ticks_us(), start) >= budget_us:
                break
        return bytes(chunk[:n]) if n else b""


def run(board=None):
    """Boot and loop for ever: one step (a scan and a piece of the host's lines), then what the
    host sent, or a short sleep when it sent nothing."""
    import gc

    problem = None
    if board is None:
        config, problem = load_config()
        board = build(config=config)
    host = Input()
    gc.collect()
    gc.threshold(GC_SAFETY)
    board.start()
    if problem:  # said after the hello, so that the host logs it
        board.error(problem)
    ipoll = host.ipoll
    ticks_us = time.ticks_us
    ticks_diff = time.ticks_diff
    steps = 0
    while True:
        start = ticks_us()
        steps += 1
        # not while changes wait to be sent: the collection would have them to go through too
        collect = steps >= GC_STEPS and not board.sending()
        waiting = board.step(not collect)
        if collect and not board.busy:  # a couple of milliseconds after a light step, instead of its reading or sleep
            steps = 0
            gc.collect()
            continue
        ready = False
        for _ in ipoll(0):
            ready = True
        if ready:
            board.take(host.read(max(MIN_READ_US, LOOP_US - ticks_diff(ticks_us(), start))))
        elif not waiting:
            time.sleep_ms(STEP_MS)


if __name__ == "__main__":
    run()
