"""The firmware on an emulated Pico (pico_emulator/), beyond the protocol: `reedboard firmware
install` and `firmware version` through mpremote onto a blank MicroPython, the firmware's own
checks (firmware/tests/run_micropython.py) run by MicroPython on the RP2040, and a reset of the
chip with the host reconnecting. Skipped, saying why, where the emulated Pico cannot run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import pytest

from reedboard.controller.games import GAMES
from reedboard.hal.board import load_board
from reedboard.hal.interfaces import Light, LightFrame, LinkState
from reedboard.hal.serial_board import SerialBoard

from command_line import run_reedboard
from pico_here import ROOT, emulated_pico

pytestmark = [pytest.mark.system, pytest.mark.pico]
pe = emulated_pico()

WAIT = 180.0  # s of wall time (the emulation runs at 0.2-1x real time)
FIRMWARE = (ROOT / "firmware" / "app.py").read_text().split('FIRMWARE = "')[1].split('"')[0]


def hello(pico, since: int) -> list[str]:
    """The fields of the firmware's next H line from event `since`."""
    event = pico.wait(lambda e: e["ev"] == "tx" and e["line"].startswith("H "), WAIT, since)
    return event["line"].split("*")[0].split()[2:]


def test_install_onto_a_blank_micropython_then_version_says_up_to_date():
    board = load_board(game="offboard")
    with pe.EmulatedPico(board, files={}) as pico:  # a Pico just flashed with MicroPython
        pico.usb_up()
        mark = pico.mark()
        install = run_reedboard("firmware", "install", "--port", pico.port, "--board", "offboard", timeout=WAIT)
        assert install.returncode == 0, install.stdout + install.stderr
        # mpremote wrote the files to the emulated flash and reset the chip; main.py runs at boot
        pico.wait(lambda e: e["ev"] == "reset", WAIT, mark)
        assert hello(pico, mark) == ["1", FIRMWARE, "8", "10", "74"]
        version = run_reedboard("firmware", "version", "--port", pico.port, timeout=WAIT)
        assert version.returncode == 0, version.stdout + version.stderr
        said = version.stdout + version.stderr
        assert f"{FIRMWARE} (protocol 1), offboard: 8x10 matrix, 74 LEDs" in said and "up to date" in said, said
        # version restarts the Pico afterwards: the firmware is still there and says hello again
        pico.wait(lambda e: len(pico.kind("reset", mark)) >= 2, WAIT, mark)
        second = pico.events.index(pico.kind("reset", mark)[1])
        assert hello(pico, second) == ["1", FIRMWARE, "8", "10", "74"]


# The checks that step the board loop hundreds of times on a fake clock: pure logic, also run
# under CPython and the unix port; together 23 s of the chip's own time (over a minute of wall
# time here), the last five 2.6 s of the 4.2 s the others take. PICO_ALL_CHECKS=1 runs them on
# the chip too.
LONG_CHECKS = {"heartbeat_at_least_once_a_second", "heartbeat_across_the_ticks_wrap", "a_light_frame_is_shown",
               "blinking_leds_blink_at_2_hz", "buzzer_cues", "button_short_and_long",
               "a_request_while_a_line_is_composed_is_answered_after_it", "lines_taken_are_handled_a_piece_at_a_time",
               "many_changes_at_once_go_out_a_piece_a_step", "usb_input_is_read_as_far_as_it_goes_and_for_a_bounded_time",
               "button_bounce_is_no_press"}


def test_the_firmwares_own_checks_pass_on_the_rp2040():
    source = (ROOT / "firmware" / "tests" / "run_micropython.py").read_text()
    names = re.findall(r"^@check\ndef (\w+)\(", source, re.M)
    assert LONG_CHECKS <= set(names)
    run = names if os.environ.get("PICO_ALL_CHECKS") else [n for n in names if n not in LONG_CHECKS]
    script = ("import sys, os\nsys.path[:0] = ['/fw/tests/fakes', '/fw/tests', '/fw']\n"
              "import run_micropython as r\nprint(sys.implementation._machine)\n"
              f"r.CHECKS[:] = [f for f in r.CHECKS if f.__name__ in {run!r}]\n"
              "print('failed:', r.run())\n")
    board = load_board(game="bigballs")
    with pe.EmulatedPico(board, files=pe.check_files()) as pico:
        pico.usb_up()
        done = subprocess.run([sys.executable, "-m", "mpremote", "connect", pico.port, "exec", script],
                              capture_output=True, text=True, timeout=WAIT)
    out = done.stdout
    assert "Raspberry Pi Pico with RP2040" in out, out + done.stderr
    assert f"{len(run)} passed, 0 failed" in out and "failed: 0" in out, out + done.stderr


def test_a_reset_and_the_host_reconnecting():
    game = GAMES["bigballs"]
    board = load_board(game=game.board)
    start = set(game().occupied())
    with pe.EmulatedPico(board, occupied=start) as pico:
        pico.booted(WAIT)
        frame = LightFrame({cell: Light("place", blink=False) for cell in sorted(start)[:3]})
        with SerialBoard(board, pico.port) as host:
            end = time.monotonic() + WAIT
            while not (host.in_step and host.link.state is LinkState.CONNECTED) and time.monotonic() < end:
                time.sleep(0.1)
            assert host.occupied == start
            host.show(frame)
            lit = pico.wait(lambda e: e["ev"] == "leds" and any(p != "000000" for p in e["pixels"]), WAIT)
            mark = pico.mark()
            pico.reset()
            pico.wait(lambda e: e["ev"] == "reset", WAIT, mark)
            end = time.monotonic() + WAIT
            while host.link.state is not LinkState.LOST and time.monotonic() < end:
                time.sleep(0.05)
            assert host.link.state is LinkState.LOST and host.link.why == "unplugged"
            pico.lift(sorted(start)[0])  # while the port is away
            # the host opens the port again, greets the board and sends it its lights again
            relit = pico.wait(lambda e: e["ev"] == "leds" and e["pixels"] == lit["pixels"], WAIT, mark)
            assert relit["t"] > pico.kind("reset", mark)[0]["t"]
            end = time.monotonic() + WAIT
            while not (host.in_step and host.link.state is LinkState.CONNECTED) and time.monotonic() < end:
                time.sleep(0.1)
            assert host.link.state is LinkState.CONNECTED
            assert host.occupied == start - {sorted(start)[0]}
