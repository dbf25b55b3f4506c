# The Pico's entry point: real pins, the WS2812 chain, the buzzer and USB serial, handed to
# the board logic in app.py. Every pin number is in pins.py (and in README.md).
#
# Copy every firmware/*.py to the Pico (mpremote cp firmware/*.py :); MicroPython runs
# main.py at boot. Imported rather than run (tests, the unix port with fakes of machine
# and neopixel on MICROPYPATH), it only defines things.

import select
import sys
import time

import machine
import neopixel

import app
import scanner
from pins import BUZZER_PIN, COLUMN_PINS, DIE_BUTTON_PIN, LED_PIN, OK_BUTTON_PIN, ROW_PINS

# Which board this Pico sits in: (matrix rows, matrix columns, LEDs on the chain), as in
# hardware/boards/GAME.toml. Change GAME before copying the files if the board is Off Board.
GAME = "bigballs"
BOARDS = {
    "bigballs": (4, 7, 36),
    "offboard": (8, 10, 74),
}

DEBOUNCE_SCANS = 3  # a switch change counts after 3 equal scans in a row
SETTLE_US = 20  # after driving a row low, before reading the columns (wire capacitance)
STEP_MS = 2  # pause between loop steps (one matrix scan per step)
READ_BUDGET = 512  # at most this many bytes from USB per step, so scanning goes on


def write_stdout(line):
    """Send one line to the host over USB CDC."""
    out = getattr(sys.stdout, "buffer", None)
    if out is not None:
        out.write(line.encode())
    else:
        sys.stdout.write(line)


def build(game=GAME, write=write_stdout, clock=time):
    """The board logic on the real pins (or on machine/neopixel fakes)."""
    rows, columns, led_count = BOARDS[game]
    Pin = machine.Pin
    # Open drain: a row that is not being scanned floats instead of driving high, so two
    # closed switches on one column can never short two row outputs together.
    drive = getattr(Pin, "OPEN_DRAIN", Pin.OUT)
    row_pins = [Pin(n, drive, value=1) for n in ROW_PINS[:rows]]
    column_pins = [Pin(n, Pin.IN, Pin.PULL_UP) for n in COLUMN_PINS[:columns]]
    sleep_us = getattr(time, "sleep_us", None)
    settle = None
    if sleep_us is not None and SETTLE_US:
        def settle():
            sleep_us(SETTLE_US)
    matrix = scanner.Scanner(row_pins, column_pins, DEBOUNCE_SCANS, settle)
    leds = neopixel.NeoPixel(Pin(LED_PIN, Pin.OUT), led_count)
    buttons = [
        app.Button("die", Pin(DIE_BUTTON_PIN, Pin.IN, Pin.PULL_UP), DEBOUNCE_SCANS),
        app.Button("ok", Pin(OK_BUTTON_PIN, Pin.IN, Pin.PULL_UP), DEBOUNCE_SCANS),
    ]
    buzzer = machine.PWM(Pin(BUZZER_PIN))
    buzzer.freq(1000)
    buzzer.duty_u16(0)
    return app.App(matrix, leds, write, clock, buttons, buzzer)


def run(board=None):
    """Boot and loop for ever: read what the host sent, then one step."""
    if board is None:
        board = build()
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    board.start()
    while True:
        got = 0
        while got < READ_BUDGET and poller.poll(0):
            data = stdin.read(1)
            if not data:
                break
            board.feed(data)
            got += 1
        board.step()
        time.sleep_ms(STEP_MS)


if __name__ == "__main__":
    run()
