"""`reedboard selftest` over the emulated Pico (pico_emulator/): the real firmware on MicroPython's
RP2040 build, a builder's hands moving magnets on the emulated reed matrix and looking at the
LEDs decoded from the chip's data pin, and faults planted in the wiring (a switch stuck closed,
a dark LED) that the self-test must find, and nothing else. The self-test's deadlines run in the
chip's emulated time. Skipped, saying why, where the emulated Pico cannot run."""

from __future__ import annotations

import asyncio

import pytest

from reedboard.controller.games import GAMES
from reedboard.controller.commands.guide import SimBuilder
from reedboard.controller.commands.selftest import Settings, run_selftest
from reedboard.hal.board import load_board
from reedboard.hal.leds import led_names
from reedboard.hal.protocol import decode_bitmap
from reedboard.hal.serial_board import SerialSwitches

from pico_here import emulated_pico

pytestmark = pytest.mark.pico
pe = emulated_pico()

WAIT = 120.0


def chip_clock(pico):
    """The emulated chip's time in seconds, as far as its reports have come (its heartbeat
    reports at least every 500 ms): the self-test's deadlines run on it, since the emulation runs
    at a fraction of real time, and at less still on a busy machine."""
    latest = 0.0

    def now() -> float:
        nonlocal latest
        events = pico.events
        if events:
            latest = max(latest, events[-1].get("t", 0.0) / 1000)
        return latest
    return now


class Hands:
    """A builder at the emulated board: magnets on the reed matrix, the ok button, and eyes on
    the LED chain as the chip's data pin drives it."""

    def __init__(self, pico, truth, device) -> None:
        self.pico, self.truth, self.device = pico, truth, device
        self._names = led_names(truth)
        self.frame = None

    async def put(self, hollow: str) -> None:
        self.pico.place(hollow)

    async def take(self, hollow: str) -> None:
        self.pico.lift(hollow)

    async def press_ok(self) -> None:
        self.pico.press("ok", 150)

    async def look(self) -> None:
        """Until the LEDs show the light frame the host last sent (as the chip's data pin drives them)."""
        payload = self.device._last_lights  # what the self-test asked the board to show
        self.frame = await asyncio.to_thread(self.pico.shown, WAIT, payload)

    def lit(self) -> set[str]:
        pixels = self.frame["pixels"] if self.frame else []
        return {self._names.get(i, f"LED {i}") for i, colour in enumerate(pixels) if colour != "000000"}


def test_the_selftest_finds_the_planted_faults_and_nothing_else():
    board = load_board(game=GAMES["bigballs"].board)
    with pe.EmulatedPico(board) as pico:  # no pieces: the self-test starts hands off
        pico.booted(WAIT)
        stuck = board.sensor["c3"]
        pico.stick_switch(stuck)
        pico.break_led(board.led["b4"])
        bits = board.rows * board.columns
        pico.wait(lambda e: e["ev"] == "tx" and e["line"].startswith("S ")  # the board reads it closed
                  and stuck in decode_bitmap(e["line"].split("*")[0].split()[2], bits), WAIT)
        clock = chip_clock(pico)  # the switches stamped, and the deadlines kept, in the chip's time
        device = SerialSwitches(board, pico.port, clock=clock)
        try:
            report = asyncio.run(run_selftest(device, board, Settings(watch=1.0, timeout=3.0, remove_timeout=20.0),
                                              builder=SimBuilder(Hands(pico, board, device), poll=0.01), clock=clock))
        finally:
            device.close()
    assert report.kinds() == {("stuck-closed", ("c3",)), ("dark", ("b4",))}, report.text()
    assert report.text().splitlines()[-1] == "2 faults"
