"""A maker's first board, at the terminal, on the emulated Pico (pico_emulator/): the real
firmware on MicroPython's RP2040 build, the commands run as a maker types them, in the order of
docs/builders.md and hardware/README.md.

1. `reedboard firmware install --board bigballs` onto a Pico just flashed with MicroPython;
2. `reedboard doctor` reads exactly the start position left on the board;
3. the one-hollow test, `reedboard bringup --hollow`, counts each time a piece comes down;
4. `reedboard selftest` started with the start position still on the board: the maker clears
   it when asked, and no switch is found chattering for it; a switch that stays closed is named
   and found stuck once the maker goes on; a row whose wire is cut and an LED chain broken after
   LED 7 are found, each as one finding naming the wire and the Pico's pin, and nothing else;
5. the faults mended, `reedboard calibrate` from a board file that is wrong (two hollows'
   switches and LEDs swapped, the die's pips and the turn light in another order) learns the
   board as it is wired, and says the backend it ran on.

The maker reads each prompt from the command's output and answers with the emulator's hands
(always: the commands' own timeouts, in wall time, are made long enough never to pass on a busy
machine, where the emulation runs slower):
pieces and magnets on the reed matrix, the buttons, eyes on the LED chain as the chip's data
pin drives it (each LED frame looked at once the chip has drawn it), ears on its buzzer.
"Nothing happens" is said (with the die button) once the chip has scanned for 60 emulated
milliseconds after the magnet came down and reported nothing. Skipped, saying why, where the
emulated Pico or mpremote cannot run.
"""

from __future__ import annotations

import importlib.util
import os
import re
import tomllib

import pytest

from reedboard.controller.games import BigBalls
from reedboard.hal.board import load_board, parse_board
from reedboard.hal.leds import PIP_NAMES, led_names

from command_line import run_reedboard, start_reedboard
from pico_here import ROOT, emulated_pico

pytestmark = [pytest.mark.system, pytest.mark.pico]
pe = emulated_pico()

WAIT = 120.0  # s of wall time for anything the chip does (it runs at 0.2-1x real time)
NOTHING_MS = 60  # emulated ms after a magnet comes down with no switch reported: nothing happens
# (the firmware reports a switch within a few scans, each a millisecond or two of the chip's time)
PRESS_MS = 80  # a button tapped (emulated ms)
BOARD = load_board(game="bigballs")
START = set(BigBalls().occupied())
PIPS = {"the die's top-left pip": "pip1", "the die's top-right pip": "pip2", "the die's middle-left pip": "pip3",
        "the die's centre pip": "pip4", "the die's middle-right pip": "pip5", "the die's bottom-left pip": "pip6",
        "the die's bottom-right pip": "pip7", "the turn light": "turn"}


ENV = {**os.environ, "LANGUAGE": "en", "LC_ALL": "C.UTF-8", "PYTHONUNBUFFERED": "1"}


class Maker:
    """A maker at the emulated board, who reads a command's prompts and answers them."""

    def __init__(self, pico, truth) -> None:
        self.pico, self.truth = pico, truth
        self.names = led_names(truth)
        self.holding: set[str] = set()
        self.mark = pico.mark()
        self.said: list[str] = []

    def run(self, *args: str) -> tuple[int, list[str]]:
        """Run the command, answering each prompt as it comes; its exit status and its lines."""
        process = start_reedboard(*args, env=ENV)
        lines = []
        try:
            for line in process.stdout:
                lines.append(line.rstrip("\n"))
                self.answer(lines[-1])
            process.wait(timeout=WAIT)
        finally:
            if process.poll() is None:
                process.kill()  # our own child, by its handle
                process.wait()
        assert "Traceback" not in process.stderr.read()
        return process.returncode, lines

    # -- hands, eyes and ears -------------------------------------------------------------
    def put(self, hollow: str) -> dict:
        """A magnet down on `hollow`; the chip's `occ` event (when it came down)."""
        since = self.pico.mark()
        self.pico.place(hollow)
        self.holding.add(hollow)
        return self.pico.wait(lambda e: e["ev"] == "occ", WAIT, since)

    def take_all(self) -> None:
        for hollow in sorted(self.holding):
            self.pico.lift(hollow)
        self.holding.clear()

    def press(self, button: str) -> None:
        self.pico.press(button, PRESS_MS)

    def happened(self, hollow: str, down: dict) -> bool:
        """Whether the chip reported the switch of `hollow` closing within NOTHING_MS of `down`
        (the chip asked for its time meanwhile: it says it in a stats event)."""
        sensor = self.truth.sensor[hollow]
        since = self.pico.events.index(down)
        while True:
            for event in self.pico.events[since:]:
                if event["ev"] == "tx" and event["line"].startswith("C ") and f" {sensor}+" in event["line"]:
                    return True
                if event.get("t", 0) >= down["t"] + NOTHING_MS:
                    return False
            mark = self.pico.mark()
            self.pico.control("stats")
            self.pico.wait(lambda e: e["ev"] == "stats", WAIT, mark)

    def lit(self, index: int, since: int) -> set[str]:
        """What is lit once the chip shows the host's frame (sent after event `since`) that lights
        LED `index`."""
        def lighting(event: dict) -> bool:
            if event["ev"] != "rx" or not event["line"].startswith("L "):
                return False
            colours = event["line"].split("*")[0].split()[2]
            return colours[6 * index:6 * index + 6] != "000000"
        sent = self.pico.wait(lighting, WAIT, since)
        payload = " ".join(sent["line"].split("*")[0].split()[2:])
        frame = self.pico.shown(WAIT, payload)
        return {self.names.get(i, f"LED {i}") for i, colour in enumerate(frame["pixels"]) if colour != "000000"}

    def heard(self, since: int) -> bool:
        """Whether the buzzer sounded the READY tune the host asked for after event `since`."""
        asked = self.pico.wait(lambda e: e["ev"] == "rx" and e["line"].startswith("Z ") and " ready" in e["line"],
                               WAIT, since)
        sounded = self.pico.wait(lambda e: e["ev"] == "buzzer" and e.get("hz"), WAIT, self.pico.events.index(asked))
        return sounded is not None

    # -- the prompts ------------------------------------------------------------------------
    def answer(self, line: str) -> None:
        """Do what the line asks. What the board shows for it was sent after the maker answered the
        line before: after `since`."""
        self.said.append(line)
        since, self.mark = self.mark, self.pico.mark()
        if line.startswith("step 1 of 4: take every piece off the board") or line == "take every magnet off the board":
            self.pico.set_magnets(())  # every piece off
            self.holding.clear()
        elif line.startswith("step 1 of 4: still closed:"):
            self.press("ok")
        elif line.startswith("step 2 of 4: press the die button"):
            self.press("die")
        elif line.startswith("step 2 of 4: press ok"):
            self.press("ok")
        elif line.startswith("step 2 of 4: did you hear the buzzer?"):
            self.press("ok" if self.heard(since) else "die")
        elif (found := re.match(r"step 3 of 4: put a magnet on (\w+);", line)) or \
                (found := re.match(r"step 1 of 3 \(\d+/\d+\): put a magnet on (\w+)$", line)):
            down = self.put(found.group(1))
            if line.startswith("step 3 of 4") and not self.happened(found.group(1), down):
                self.press("die")  # nothing happens
        elif line.startswith("take the magnet off"):
            self.take_all()
        elif found := re.match(r"step 4 of 4: put a magnet on the hollow that is lit \(LED (\d+)\)", line):
            hollows = sorted(self.lit(int(found.group(1)), since) & set(self.truth.cells))
            if hollows:
                self.put(hollows[0])
            else:
                self.press("die")
        elif found := re.match(r"step 4 of 4: press ok if .* \(LED (\d+)", line):
            index = int(found.group(1))
            self.press("ok" if self.names.get(index) in self.lit(index, since) else "die")
        elif found := re.match(r"step 4 of 4: LED (\d+) stays dark", line):
            index = int(found.group(1))
            self.press("ok" if self.lit(index + 1, since) else "die")
        elif found := re.match(r"step 2 of 3 \(LED (\d+) of \d+\): put a magnet on the hollow that is lit", line):
            hollows = sorted(self.lit(int(found.group(1)), since) & set(self.truth.cells))
            if hollows:
                self.put(hollows[0])
            else:
                self.press("ok")  # lit, under no hollow
        elif found := re.match(r"step 3 of 3 \(\d+/\d+\): (.+): press ok if it is lit \(LED (\d+)\)", line):
            index = int(found.group(2))
            self.lit(index, since)
            self.press("ok" if self.names.get(index) == PIPS[found.group(1)] else "die")
        else:
            self.mark = since  # not a prompt: what the board shows next is still to come


def wrong_board_file(path) -> None:
    """The shipped board file, but wrong: a1 and b2 with each other's switch and LED, and the
    die's pips and the turn light listed in another order than they are wired."""
    text = (ROOT / "hardware" / "boards" / "bigballs.toml").read_text()
    wiring = re.compile(r"^(a1|b2) = \{ (row = \d+, column = \d+, led = \d+)", re.M)
    places = dict(wiring.findall(text))
    text = wiring.sub(lambda m: f"{m.group(1)} = {{ {places['b2' if m.group(1) == 'a1' else 'a1']}", text)
    assert "die_pips = [28, 29, 30, 31, 32, 33, 34]" in text and "turn = 35" in text
    text = text.replace("die_pips = [28, 29, 30, 31, 32, 33, 34]", "die_pips = [35, 34, 33, 32, 31, 30, 29]")
    path.write_text(text.replace("turn = 35", "turn = 28"))


@pytest.mark.skipif(importlib.util.find_spec("mpremote") is None, reason="mpremote is not installed (pip install mpremote)")
def test_a_makers_first_board_from_the_firmware_to_the_calibration(tmp_path):
    board_file = str(ROOT / "hardware" / "boards" / "bigballs.toml")
    with pe.EmulatedPico(BOARD, occupied=START, files={}) as pico:  # a Pico just flashed with MicroPython
        pico.usb_up(timeout=WAIT)
        maker = Maker(pico, BOARD)

        # 1. the firmware, for the bigballs board named by its name
        mark = pico.mark()
        install = run_reedboard("firmware", "install", "--port", pico.port, "--board", "bigballs", timeout=WAIT,
                                env=ENV)
        assert install.returncode == 0, install.stdout + install.stderr
        pico.wait(lambda e: e["ev"] == "tx" and e["line"].startswith("H "), WAIT, mark)

        # 2. doctor: exactly the pieces on the board
        doctor = run_reedboard("doctor", "--port", pico.port, "--board", "bigballs", timeout=WAIT, env=ENV)
        assert doctor.returncode == 0, doctor.stdout + doctor.stderr
        assert doctor.stdout.splitlines()[-1] == "occupied: " + " ".join(c for c in BOARD.cells if c in START)

        # 3. the one-hollow test: a piece comes down in c3 twice
        process = start_reedboard("bringup", "--backend", "serial", "--port", pico.port, "--board", board_file,
                                  "--hollow", "c3", "--closes", "2", env=ENV)
        try:
            said = []
            for line in process.stdout:
                said.append(line.rstrip("\n"))
                if line.startswith("ready") or " opened after " in line:  # it watches: a piece comes down
                    pico.place("c3")
                elif " closed (" in line:
                    pico.lift("c3")
            process.wait(timeout=WAIT)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        assert process.returncode == 0, "\n".join(said) + process.stderr.read()
        assert f"c3 (sensor {BOARD.sensor['c3']}) closed (2 times so far)" in said, said
        assert said[-1].startswith("c3 closed 2 times")

        # 4. the self-test, the start position still on the board; row 0's wire cut, the chain broken
        pico.set_magnets(BOARD.sensor[c] for c in START)
        pico.cut_row(0)
        pico.break_chain(after=7)
        pico.stick_switch(BOARD.sensor["d3"])  # it stays closed once the board is cleared
        report = tmp_path / "report.txt"
        status, lines = maker.run("selftest", "--backend", "serial", "--port", pico.port, "--board", "bigballs",
                                  "--report", str(report), "--watch", "1", "--timeout", str(WAIT))
        assert status == 1, "\n".join(lines)
        assert "step 1 of 4: take every piece off the board" in lines[1]
        assert lines[2].startswith("step 1 of 4: still closed: d3. Nothing on it?")  # the maker goes on (ok)
        written = report.read_text().splitlines()
        row0 = [c for c in BOARD.cells if BOARD.sensor[c] < BOARD.columns]
        assert written[2:] == [
            f"stuck closed: d3 (sensor {BOARD.sensor['d3']}) reads occupied with nothing on the board: look for a"
            " magnet left there, then for a short across its switch or its diode",
            f"row 0 does not answer ({', '.join(row0[:-1])} and {row0[-1]}): check row 0's wire from GP0 (pin 1) to"
            " its switches",
            "the LED chain is broken after LED 7 (hollow a2): check the data wire from LED 7's DOUT to LED 8's DIN,"
            " and LED 8's 5 V and GND",
            "3 faults"], "\n".join(lines)
        assert written[1].startswith(f"backend: serial (Pico on {pico.port}); firmware: reedboard-")
        asked = [line for line in lines if line.startswith("step 4 of 4")]
        assert len(asked) == 10  # LEDs 0 to 8 one by one, then those after LED 8 all at once

        # 5. mended, the calibration from a board file that is wrong
        pico.mend()
        pico.set_magnets(BOARD.sensor[c] for c in START)
        wrong = tmp_path / "mine.toml"
        wrong_board_file(wrong)
        learned = tmp_path / "learned.toml"
        status, lines = maker.run("calibrate", "--backend", "serial", "--port", pico.port, "--board", str(wrong),
                                  "--out", str(learned), "--timeout", str(WAIT))
        assert status == 0, "\n".join(lines)
    board = parse_board(tomllib.loads(learned.read_text()), "learned.toml")
    assert (board.sensor, board.led, board.die_pips, board.turn_led, board.backend) == (
        BOARD.sensor, BOARD.led, BOARD.die_pips, BOARD.turn_led, "serial")
    assert board.position == BOARD.position and set(PIPS.values()) == set(PIP_NAMES) | {"turn"}
