"""`reedboard calibrate` (controller/workshop/calibrate.py): learning which switch and which LED belong
to each hollow, on a board wired in another order than its board file says.

The board really wired in a shuffled order (a seeded random permutation of the matrix
addresses and of the LED chain) is calibrated from the default board file, on the address
level of the simulated board and of the gpio backend over the mock matrix (and over serial,
the fake Pico); a simulated builder who knows the true wiring
answers. The learned board file must give back the true wiring, keep the positions and the
rest of the file, and a builder who answers two hollows with one switch must be refused.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import random
import tomllib
from importlib import resources

import pytest
from gpiozero.pins.mock import MockFactory

from reedboard.controller.games import BigBalls
from reedboard.controller.workshop.calibrate import (Calibration, CalibrationRefused, CalibrationResult, Settings, board_text,
                                  calibrate_command, check_map, run_calibration)
from reedboard.controller.core.referee import Outputs
from reedboard.controller.workshop.guide import SimBuilder
from reedboard.hal.addresses import LedFrame
from reedboard.hal.board import Board, load_board, parse_board
from reedboard.hal.mock.faults import MockHands, SimHands
from reedboard.hal.gpio_board import GpioSwitches
from reedboard.hal.interfaces import Cue, DieFace, Light
from reedboard.hal.leds import led_names
from reedboard.hal.mock.matrix import Circuit, FakeStrip, MatrixPins
from reedboard.hal.sim import SimBoard, SimSwitches

from heard import Heard

pytestmark = pytest.mark.component

BOARD = load_board(game="bigballs")
BOARD_TEXT = resources.files("reedboard.hardware").joinpath("boards/bigballs.toml").read_text(encoding="utf-8")
FAST = Settings(timeout=3.0)  # nothing times out here: a long wait costs nothing


def shuffled(board: Board, seed: int) -> Board:
    """The board as really wired: its cells on a random permutation of the matrix addresses
    and of the LEDs that are not die pips or the turn light."""
    rng = random.Random(seed)
    sensors = rng.sample(range(board.rows * board.columns), len(board.cells))
    free = [j for j in range(board.led_count) if j not in board.die_pips and j != board.turn_led]
    leds = rng.sample(free, len(board.cells))
    return dataclasses.replace(board, sensor=dict(zip(board.cells, sensors)), led=dict(zip(board.cells, leds)))


def sim_rig(truth: Board):
    device = SimSwitches(BOARD)
    return device, SimHands(device, truth), lambda: None


def gpio_rig(truth: Board):
    factory = MockFactory()
    matrix = MatrixPins(factory, BOARD.settings_of("gpio").rows, BOARD.settings_of("gpio").columns, Circuit(BOARD.rows, BOARD.columns, BOARD.diodes))
    strip = FakeStrip(BOARD.led_count)
    switches = GpioSwitches(BOARD, pin_factory=factory, strip=strip, scan_interval=0.0005, debounce=2,
                            bounce_time=None)
    return Heard(switches), MockHands(factory, matrix, strip, truth, hold=0.005, rest=0.002), switches.close


def calibrate(rig, truth: Board, mistakes=None) -> tuple[CalibrationResult, object]:
    device, hands, close = rig(truth)
    try:
        result = asyncio.run(run_calibration(device, BOARD, FAST,
                                             builder=SimBuilder(hands, poll=0.0005, mistakes=mistakes)))
    finally:
        close()
    return result, device


def test_the_calibration_reads_addresses_under_a_board_file_that_is_wrong():
    # the cell-level board over the simulated switches believes the old board file; the
    # calibration, on its address level, learns the true wiring all the same
    truth = shuffled(BOARD, 9)
    device = SimBoard(BOARD)
    result = asyncio.run(run_calibration(device.addresses, BOARD, FAST,
                                         builder=SimBuilder(SimHands(device.addresses, truth), poll=0.0005)))
    assert result.ok and result.sensor == truth.sensor and result.led == truth.led


@pytest.mark.parametrize("rig", [sim_rig, gpio_rig], ids=["sim", "gpio"])
@pytest.mark.parametrize("seed", [1, 2])
def test_calibrating_a_shuffled_board_learns_its_wiring(rig, seed):
    truth = shuffled(BOARD, seed)
    assert truth.sensor != BOARD.sensor and truth.led != BOARD.led
    result, device = calibrate(rig, truth)
    assert result.ok, result.problems
    assert result.sensor == truth.sensor and result.led == truth.led
    assert result.notes == ()
    text = result.text()
    learned = parse_board(tomllib.loads(text), "learned.toml")
    assert learned.sensor == truth.sensor and learned.led == truth.led
    assert learned.position == BOARD.position  # positions kept from the old file
    assert (learned.settings_of("gpio"), learned.die_pips, learned.turn_led, learned.led_count) == (
        BOARD.settings_of("gpio"), BOARD.die_pips, BOARD.turn_led, BOARD.led_count)
    assert Cue.GAME_OVER in device.cues and device.die.face is DieFace.BLANK


def test_the_new_board_file_is_the_old_one_with_its_cells_rewritten():
    truth = shuffled(BOARD, 3)
    text = board_text(BOARD, truth.sensor, truth.led, BOARD_TEXT)
    old, new = BOARD_TEXT.splitlines(), text.splitlines()
    cells_at = old.index(next(line for line in old if line.startswith("[cells]")))
    assert new[:cells_at + 1] == old[:cells_at + 1]  # everything up to [cells], comments too
    assert new[cells_at + 1 + 28:] == old[cells_at + 1 + 28:]  # and everything after
    row, column = divmod(truth.sensor["a1"], 7)
    assert new[cells_at + 1] == f"a1 = {{ row = {row}, column = {column}, led = {truth.led['a1']}, x = 30.0, y = 30.0 }}"
    # the wiring the board file already has gives the very same file
    assert board_text(BOARD, BOARD.sensor, BOARD.led, BOARD_TEXT) == BOARD_TEXT


def test_a_board_file_that_cannot_be_read_is_written_whole():
    truth = shuffled(BOARD, 4)
    text = board_text(BOARD, truth.sensor, truth.led, None)
    learned = parse_board(tomllib.loads(text), "fresh.toml")
    assert (learned.sensor, learned.led, learned.position) == (truth.sensor, truth.led, BOARD.position)
    assert (learned.settings_of("gpio"), learned.die_pips, learned.turn_led, learned.budget_ma) == (
        BOARD.settings_of("gpio"), BOARD.die_pips, BOARD.turn_led, BOARD.budget_ma)


@pytest.mark.parametrize("rig", [sim_rig, gpio_rig], ids=["sim", "gpio"])
def test_a_builder_who_answers_two_hollows_with_one_sensor_is_refused(rig, tmp_path):
    truth = shuffled(BOARD, 5)
    result, _ = calibrate(rig, truth, mistakes={"c1": "b1"})  # asked for c1, the magnet goes on b1
    assert not result.ok
    assert result.problems[0] == f"b1 and c1 share sensor {truth.sensor['b1']}"
    assert f"b1 and c1 share LED {truth.led['b1']}" in result.problems
    path = tmp_path / "board.toml"
    with pytest.raises(CalibrationRefused, match=f"b1 and c1 share sensor {truth.sensor['b1']}"):
        result.save(path)
    assert not path.exists()


def test_check_map_names_every_problem():
    cells = ["a1", "b1", "c1", "d1"]
    sensors = {"a1": frozenset({3}), "b1": frozenset({5}), "c1": frozenset({5}), "d1": frozenset()}
    leds = {0: frozenset({"a1"}), 1: frozenset({"b1", "c1"}), 2: frozenset({"a1"})}
    assert check_map(cells, sensors, leds) == [
        "d1: no sensor closed with a magnet on it",
        "b1 and c1 share sensor 5",
        "b1 and c1 share LED 1",
        "a1: LEDs 0 and 2 were both found under it",
        "d1: no LED was found under it",
    ]
    assert check_map(["a1"], {"a1": frozenset({1, 2})}, {0: frozenset({"a1"})}) == [
        "a1: sensors 1 and 2 closed together with a magnet on it"]


def with_die_rewired(board: Board, seed: int) -> Board:
    """The board with its die pips and turn light soldered in another order on the chain."""
    places = list(board.die_pips) + [board.turn_led]
    random.Random(seed).shuffle(places)
    return dataclasses.replace(board, die_pips=tuple(places[:7]), turn_led=places[7])


def answer(machine: Calibration, truth: Board, t: float) -> None:
    """What a builder who knows the true wiring does for the prompt now."""
    prompt = machine.prompt
    by_led = {j: c for c, j in truth.led.items()}
    if prompt.action == "remove":
        machine.frame(t, set())
    elif prompt.action == "place":
        machine.frame(t, {truth.sensor[prompt.cell]})
    elif prompt.action == "find":
        [lit] = machine.lights.leds
        assert lit == prompt.led and machine.lights.leds[lit] == Light("choose")
        hollow = by_led.get(prompt.led)
        if hollow is None:
            machine.press(t, "ok")
        else:
            machine.frame(t, {truth.sensor[hollow]})
    elif prompt.action == "pick":
        [lit] = machine.lights.leds
        assert lit == prompt.led
        names = led_names(truth)
        machine.press(t, "ok" if names.get(lit) == prompt.cell else "die")


def test_the_machine_in_virtual_time():
    board = BOARD
    truth = with_die_rewired(shuffled(board, 6), 6)
    assert truth.die_pips != board.die_pips
    shown, asked = [], []
    machine = Calibration(board, Settings(timeout=10), outputs=Outputs(lights=shown.append), on_prompt=asked.append)
    t = 0.0
    machine.frame(t, {9})  # a magnet left on the board
    machine.start(t)
    assert machine.prompt.action == "remove" and machine.prompt.text == "take every magnet off the board"
    while not machine.done:
        t += 0.1
        answer(machine, truth, t)
    result = machine.result()
    assert result.ok and result.sensor == truth.sensor and result.led == truth.led
    assert (result.die_pips, result.turn) == (truth.die_pips, truth.turn_led)
    places = [p.cell for p in asked if p.action == "place"]
    assert places == list(board.cells)  # every hollow by name, in board order
    finds = [p.led for p in asked if p.action == "find"]
    assert finds == list(range(28))  # the chain in its order, until every hollow has its LED
    picks = [p.cell for p in asked if p.action == "pick"]
    assert [name for i, name in enumerate(picks) if i == 0 or picks[i - 1] != name] == \
        [f"pip{k}" for k in range(1, 8)] + ["turn"]
    assert asked[1].text == "step 1 of 3 (1/28): put a magnet on a1" and asked[-1].action == "done"
    first = next(p for p in asked if p.action == "pick")
    assert first.text == (f"step 3 of 3 (1/8): the die's top-left pip: press ok if it is lit (LED {first.led}); if"
                          " another LED is lit, press the die button for the next")
    assert LedFrame() in shown
    text = result.text()
    learned = parse_board(tomllib.loads(text), "learned.toml")
    assert (learned.die_pips, learned.turn_led) == (truth.die_pips, truth.turn_led)
    pips_line = next(line for line in text.splitlines() if line.startswith("die_pips"))
    assert pips_line.endswith("# top-left, top-right, middle-left, centre, middle-right, bottom-left, bottom-right")


def test_a_pip_not_found_keeps_its_place_and_says_so():
    machine = Calibration(BOARD, Settings(timeout=1))
    t = 0.0
    machine.frame(t, set())
    machine.start(t)
    while not machine.done:
        t += 0.1
        if machine.prompt.action == "pick" and machine.prompt.cell == "pip3":
            machine.advance(t + 1)  # nobody answers
            continue
        answer(machine, BOARD, t)
    result = machine.result()
    assert result.ok and result.die_pips == BOARD.die_pips and result.turn == BOARD.turn_led
    assert result.notes == ("the die's middle-left pip: not found; it stays LED 30, as the old board file has it",)


def test_an_unanswered_hollow_leaves_the_map_unsaved():
    machine = Calibration(BOARD, Settings(timeout=1))
    machine.frame(0.0, set())
    machine.start(0.0)
    machine.advance(1.0)  # nothing on a1
    assert machine.sensors["a1"] == frozenset() and machine.prompt.cell == "b1"
    machine.advance(200.0)  # nobody answers at all
    assert machine.done
    assert "a1: no sensor closed with a magnet on it" in machine.result().problems


def test_a_board_of_cells_is_refused():
    with pytest.raises(TypeError, match="address-level board"):
        asyncio.run(run_calibration(SimBoard(BOARD), BOARD, FAST))


def test_the_command_writes_the_board_file(tmp_path):
    old = tmp_path / "board.toml"
    old.write_text(BOARD_TEXT.replace('backend = "serial"', 'backend = "sim"'))
    new = tmp_path / "learned.toml"
    out = io.StringIO()
    assert calibrate_command("sim", None, str(old), str(new), timeout=3.0, out=out) == 0
    assert new.read_text() == old.read_text()  # the simulated board is wired as its file says
    printed = out.getvalue()
    assert "step 1 of 3 (1/28): put a magnet on a1" in printed and f"board file written to {new}" in printed


def test_the_command_writes_over_the_board_file_by_default_saying_the_backend_it_ran_on(tmp_path):
    # calibrated on the simulated board, the board file says so: `play --board` with it does
    # not then look for a Pico that was never there
    old = tmp_path / "board.toml"
    old.write_text(BOARD_TEXT)
    assert load_board(old).backend == "serial"
    assert calibrate_command("sim", None, str(old), None, timeout=3.0, out=io.StringIO()) == 0
    new = load_board(old)
    assert new.sensor == BOARD.sensor and new.backend == "sim"
    assert 'backend = "sim"  # gpio, serial (a Pico) or sim' in old.read_text().splitlines()


def test_the_command_takes_a_shipped_boards_name_and_writes_a_file_here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    assert calibrate_command("sim", None, None, None, timeout=3.0, out=out, board_name="offboard") == 0
    learned = load_board(tmp_path / "offboard.toml")
    assert learned.name == "offboard" and learned.turn_led == 73 and learned.backend == "sim"
    printed = out.getvalue().splitlines()
    assert printed[0] == "calibrating the offboard board (hardware/boards/offboard.toml) on sim (the simulated board)"
    assert printed[1].endswith("; firmware: none (the simulated board)")


def test_ctrl_c_stops_the_command_without_writing_the_board_file(tmp_path, monkeypatch):
    from reedboard.controller.workshop import calibrate as module

    old = tmp_path / "board.toml"
    old.write_text(BOARD_TEXT)
    real = module.Calibration._ask

    def ask(machine, prompt):
        if prompt.step == 2:
            raise KeyboardInterrupt
        real(machine, prompt)

    monkeypatch.setattr(module.Calibration, "_ask", ask)
    out = io.StringIO()
    assert calibrate_command("sim", None, str(old), None, timeout=3.0, out=out) == 130
    assert old.read_text() == BOARD_TEXT
    assert out.getvalue().splitlines()[-1] == "calibration stopped (Ctrl-C): the board file is not written"


class FakeBoardHands:
    """Hands at the fake Pico (hal.mock.fakeboard) behind a pty: magnets on its matrix by address."""

    def __init__(self, fake, device, truth: Board) -> None:
        from reedboard.hal.mock.faults import led_names

        self.fake, self.device, self.truth = fake, device, truth
        self._names = led_names(truth)

    async def put(self, hollow: str) -> None:
        with self.fake._lock:
            self.fake.matrix.magnets.add(self.truth.sensor[hollow])

    async def take(self, hollow: str) -> None:
        with self.fake._lock:
            self.fake.matrix.magnets.discard(self.truth.sensor[hollow])

    async def press_ok(self) -> None:
        from reedboard.hal.mock.fakeboard import PRESS_S

        self.fake.press("ok")
        await asyncio.sleep(PRESS_S + 0.02)

    async def press_die(self) -> None:
        from reedboard.hal.mock.fakeboard import PRESS_S

        self.fake.press("die")
        await asyncio.sleep(PRESS_S + 0.02)

    async def look(self) -> None:
        """Until the Pico's LEDs show the light frame sent last (the serial link takes a while)."""
        for _ in range(200):
            sent = self.device._last_lights
            if sent is not None:
                text = sent.split()[0]
                colours = tuple(tuple(int(text[k + i:k + i + 2], 16) for i in (0, 2, 4))
                                for k in range(0, len(text), 6))
                if tuple(self.fake.leds) == colours:
                    return
            await asyncio.sleep(0.005)

    def lit(self) -> set[str]:
        return {self._names.get(i, f"LED {i}") for i, colour in enumerate(self.fake.leds) if any(colour)}


def test_calibrating_over_serial_reads_the_picos_raw_addresses():
    from reedboard.controller.workshop.calibrate import open_calibration
    from reedboard.hal.mock.fakeboard import FakeBoard

    truth = shuffled(BOARD, 8)
    fake = FakeBoard("bigballs", occupied=BigBalls().occupied()).start()
    try:
        with fake._lock:
            fake.matrix.magnets.clear()  # the fake starts with the game's pieces on
        opened = open_calibration("serial", None, fake.port)
        try:
            assert opened.backend == "serial" and opened.board == BOARD and opened.builder is None
            result = asyncio.run(run_calibration(opened.device, opened.board, Settings(timeout=2),
                                                 builder=SimBuilder(FakeBoardHands(fake, opened.device, truth))))
        finally:
            opened.close()
    finally:
        fake.stop()
    assert result.ok, result.problems
    assert result.sensor == truth.sensor and result.led == truth.led


def test_the_prompts_are_shown_in_a_web_page_too():
    from starlette.testclient import TestClient

    from reedboard.controller.workshop.guide import Prompt
    from reedboard.controller.web.guide_page import guide_app
    from reedboard.hal.board import load_board

    board = load_board(game="offboard")
    current = [None]
    client = TestClient(guide_app(board, lambda: current[0], "calibration"))
    page = client.get("/").text
    assert 'data-role="prompt"' in page and '"S12"' in page and '"E5"' in page
    assert client.get("/api/prompt").json()["action"] == "idle"
    current[0] = Prompt(1, "place", "put a magnet on C3", cell="C3", serial=4)
    assert client.get("/api/prompt").json() == {"step": 1, "action": "place", "text": "put a magnet on C3",
                                                "cell": "C3", "led": None, "serial": 4, "cells": [], "button": None}


def test_step_2_marks_the_hollow_the_magnet_is_on_never_step_1s_last():
    # the prompt's cell is the hollow a page marks: in step 2 it is the hollow under the lit LED
    truth = shuffled(BOARD, 7)
    machine = Calibration(BOARD, Settings(timeout=10))
    t = 0.0
    machine.frame(t, set())
    machine.start(t)
    by_led = {j: c for c, j in truth.led.items()}
    under = None
    while not machine.done:
        t += 0.1
        prompt = machine.prompt
        if prompt.step == 2:
            assert prompt.cell in (None, under), (prompt, under)
        if prompt.action == "remove":
            machine.frame(t, set())
        elif prompt.action == "place":
            machine.frame(t, {truth.sensor[prompt.cell]})
        elif prompt.action == "find":
            under = by_led.get(prompt.led)
            if under is None:
                machine.press(t, "ok")
            else:
                machine.frame(t, {truth.sensor[under]})
        else:
            machine.press(t, "ok")
    assert machine.result().ok
