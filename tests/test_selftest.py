"""`reedboard selftest` (controller/workshop/selftest.py) and declared faults (hal/faults.py).

The self-test runs on the address level of the simulated board and of the gpio backend on
MockFactory pins over the mock matrix (hal/mock/matrix.py), each with faults declared as a board file's
[sim.faults] declares them; a simulated builder answers the prompts. Every fault kind
alone, all of them together, and none: the self-test finds each declared fault and
nothing else. The pure state machine is also driven in virtual time, without any backend.
"""

from __future__ import annotations

import asyncio
import io
import re
import time
from importlib import resources
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from reedboard.controller.core.referee import Outputs
from reedboard.controller.workshop.guide import Prompt, SimBuilder
from reedboard.controller.workshop.selftest import (CLEAR_SETTLE, Report, Settings, SelfTest, default_report_path,
                                                    leds_of, run_selftest, selftest_command)
from reedboard.controller.workshop.wiring import wiring_of
from reedboard.controller.games import BigBalls
from reedboard.hal.leds import led_names
from reedboard.hal.backend_tables import SimSettings
from reedboard.hal.board import load_board
from reedboard.hal.mock.faults import (Chatter, DarkStrip, FaultError, MockHands, SimHands, dark_leds, faulty_circuit,
                             faulty_sim, parse_faults)
from reedboard.hal.gpio_board import GpioSwitches
from reedboard.hal.interfaces import Cue, DieFace, Light, LightFrame
from reedboard.hal.mock.matrix import FakeStrip, MatrixPins
from reedboard.hal.sim import SimBoard

from heard import Heard
from reedboard.controller.session.virtual_time import VirtualClock
from reedboard.controller.session.virtual_time import run_virtual as on_virtual_time

from command_line import run_reedboard, start_reedboard

pytestmark = pytest.mark.system

BOARD = load_board(game="bigballs")
BOARD_TEXT = resources.files("reedboard.hardware").joinpath("boards/bigballs.toml").read_text(encoding="utf-8")
# Short waits keep the suite fast; a removal never times out here, so its wait is long (a
# loaded machine must not turn a slow scan into a fault).
FAST = Settings(watch=0.25, timeout=0.4, remove_timeout=3.0)

CASES = {
    "none": {},
    "stuck_closed": {"stuck_closed": ["c3"]},
    "stuck_open": {"stuck_open": ["d1"]},
    "chatter": {"chatter": ["b2"]},
    "swapped": {"swapped": [["a2", "e3"]]},
    "dark": {"dark": ["b4", "pip3", "turn"]},
    "all": {"stuck_closed": ["c3", "a7"], "stuck_open": ["d1"], "chatter": ["b2"],
            "swapped": [["a2", "e3"], ["f1", "g1"]], "dark": ["b4", "pip1", "turn"]},
}


def expected(faults: dict) -> set[tuple[str, tuple[str, ...]]]:
    """The findings a self-test must report for declared faults, and nothing else."""
    order = BOARD.cells.index
    found = {("stuck-closed", (c,)) for c in faults.get("stuck_closed", [])}
    found |= {("stuck-open", (c,)) for c in faults.get("stuck_open", [])}
    found |= {("chatter", (c,)) for c in faults.get("chatter", [])}
    found |= {("swapped", tuple(sorted(pair, key=order))) for pair in faults.get("swapped", [])}
    found |= {("dark", (c,)) for c in faults.get("dark", [])}
    return found


def with_faults(faults: dict):
    return BOARD.with_settings("sim", SimSettings(faults=faults))


# --------------------------------------------------------------------------------------------
# Declared faults: parsing
# --------------------------------------------------------------------------------------------

def test_declared_faults_are_read():
    faults = parse_faults(with_faults(CASES["all"]))
    assert faults.stuck_closed == {"c3", "a7"} and faults.stuck_open == {"d1"} and faults.chatter == {"b2"}
    assert faults.swapped == (("a2", "e3"), ("f1", "g1"))
    assert faults.swap == {"a2": "e3", "e3": "a2", "f1": "g1", "g1": "f1"}
    assert faults.dark == {"b4", "pip1", "turn"}
    assert faults.count() == 9
    assert not parse_faults(BOARD)


def test_a_board_file_declares_faults_in_its_sim_faults_table(tmp_path):
    text = BOARD_TEXT + '\n[sim.faults]\nstuck_open = ["D1"]\nswapped = [["a2", "e3"]]\n'
    path = tmp_path / "faulty.toml"
    path.write_text(text)
    faults = parse_faults(load_board(path))
    assert faults.stuck_open == {"d1"} and faults.swapped == (("a2", "e3"),)


@pytest.mark.parametrize("faults, message", [
    ({"stuck": ["a1"]}, "unknown fault kind 'stuck'"),
    ({"stuck_open": ["z9"]}, "stuck_open: no cell 'z9' on the bigballs board"),
    ({"stuck_open": "a1"}, "stuck_open must be a list"),
    ({"chatter": ["a1"], "stuck_open": ["a1"]}, "a1 is in two kinds of fault: stuck_open and chatter"),
    ({"stuck_open": ["a1", "a1"]}, "a1 is given twice in stuck_open"),
    ({"stuck_closed": ["b1"], "swapped": [["a1", "b1"]]}, "b1 is in two kinds of fault: stuck_closed and swapped"),
    ({"dark": ["a1"], "stuck_open": ["a1"]}, "a1 is in two kinds of fault: stuck_open and dark"),
    ({"swapped": [["a1"]]}, "swapped: ['a1'] is not a pair of cells"),
    ({"swapped": [["a1", "b1", "c1"]]}, "is not a pair of cells"),
    ({"swapped": ["a1", "b1"]}, "swapped: 'a1' is not a pair of cells"),
    ({"swapped": [["a1", "A1"]]}, "swapped: [a1, a1] is not a pair of two different cells"),
    ({"swapped": [["a1", "b1"], ["b1", "c1"]]}, "b1 is in two swapped pairs"),
    ({"swapped": [["a1", "q7"]]}, "swapped: no cell 'q7'"),
    ({"dark": ["pip8"]}, "dark: no cell or LED 'pip8'"),
    (["a1"], "must be a table of fault kinds"),
])
def test_faults_that_cannot_be_used_are_named(faults, message):
    with pytest.raises(FaultError) as error:
        parse_faults(with_faults(faults))
    assert message in str(error.value)
    assert str(error.value).startswith("hardware/boards/bigballs.toml: [sim.faults] ")


def test_chatter_is_seeded_and_flickers_faster_than_a_person():
    a, b = Chatter(["x", "y"], seed=3), Chatter(["y", "x"], seed=3)
    times = [100 + k * 0.01 for k in range(200)]
    assert [a.flipped("x", t) for t in times] == [b.flipped("x", t) for t in times]
    flips = sum(1 for t0, t1 in zip(times, times[1:]) if a.flipped("y", t0) != a.flipped("y", t1))
    assert 8 <= flips <= 40  # 2 s: a burst every 0.07-0.22 s
    assert Chatter(["x"], seed=4).next_change(5.0) > 5.0


# --------------------------------------------------------------------------------------------
# The state machine in virtual time
# --------------------------------------------------------------------------------------------

def run_virtual(test: SelfTest, closes: dict[str, str | None], dark: set[str] = frozenset(),
                stuck: set[str] = frozenset(), *, pieces: set[str] = frozenset(), dead: set[str] = frozenset(),
                silent: bool = False, by_die: bool = True):
    """Answer every prompt at once in virtual time, as a builder at the board: a magnet on a
    hollow closes closes[hollow] (the hollow itself by default; None: nothing); dark LEDs are
    not seen; `stuck` switches read closed all the time, `pieces` are on the board at the start
    (taken off when asked); buttons in `dead` do not answer, a `silent` buzzer is not heard.
    "Nothing happens" and "nothing lit" are said with the die button (`by_die`, while it
    answers), else by waiting out the timeout."""
    t = 0.0
    test.frame(t, set(stuck) | set(pieces))
    test.start(t)
    prompts = []
    cleared = False
    say_no = by_die and "die" not in dead

    def no() -> None:
        if say_no:
            test.press(t, "die")
        else:
            test.advance(t + test.settings.timeout)

    def press(button: str) -> None:
        if button in dead:
            test.advance(t + test.settings.timeout)
        else:
            test.press(t, button)

    while not test.done:
        prompt = test.prompt
        prompts.append(prompt)
        t = max(t, test.now) + 0.1
        lit = [c for c in test.lights.cells if c not in dark] + (["turn"] if test.lights.turn and "turn" not in dark else [])
        if prompt.action == "clear":
            if not cleared:
                cleared = True
                test.frame(t, stuck)
                if test.prompt.serial == prompt.serial:  # only stuck switches: the prompt names them soon
                    test.advance(t + CLEAR_SETTLE)
            else:  # what still reads closed has nothing on it: go on
                press("ok")
        elif prompt.action == "hands-off":
            test.advance(t + test.settings.watch)
        elif prompt.action == "press":
            press(prompt.button)
        elif prompt.action == "hear":
            if silent:
                no()
            else:
                press("ok")
        elif prompt.action == "place":
            closed = closes.get(prompt.cell, prompt.cell)
            if closed is None:
                no()
            else:
                test.frame(t, set(stuck) | {closed})
        elif prompt.action == "remove":
            test.frame(t, stuck)
        elif prompt.action == "find":
            if lit:
                test.frame(t, set(stuck) | {closes.get(lit[0], lit[0])})
            else:
                no()
        elif prompt.action == "ok":
            if lit:
                press("ok")
            else:
                no()
        assert test.prompt.serial > prompt.serial, prompt  # every answer moves on
    return prompts


def test_the_machine_asks_for_every_hollow_then_every_led():
    shown, dice, cues, asked = [], [], [], []
    test = SelfTest(BOARD, Settings(watch=2, timeout=5),
                    outputs=Outputs(lights=shown.append, die=dice.append, buzzer=cues.append),
                    on_prompt=asked.append)
    prompts = run_virtual(test, {})
    assert test.report().findings == () and test.report().summary == "no faults"
    assert [(p.action, p.button) for p in prompts[:4]] == [("hands-off", None), ("press", "die"), ("press", "ok"),
                                                           ("hear", None)]
    places = [p.cell for p in prompts if p.action == "place"]
    assert places == list(BOARD.cells)
    finds = [p.led for p in prompts if p.action == "find"]
    assert finds == [BOARD.led[c] for c in BOARD.cells]
    oks = [p.cell for p in prompts if p.action == "ok"]
    assert oks == [f"pip{k}" for k in range(1, 8)] + ["turn"]
    assert asked[0].step == 1 and asked[0].action == "hands-off" and asked[-1].action == "done"
    assert LightFrame({"a1": Light("place", blink=True)}) in shown  # step 3: the hollow blinks green
    assert LightFrame({"pip4": Light("choose")}) in shown and LightFrame(turn="white") in shown
    assert [d.value for d in dice[:4]] == [1, 2, 3, 4] and dice[-1].face is DieFace.BLANK
    assert cues[0] is Cue.READY and cues[-1] is Cue.GAME_OVER and Cue.ILLEGAL not in cues
    assert prompts[4].as_dict()["text"].startswith("step 3 of 4: put a magnet on a1")
    assert set(prompts[4].as_dict()) >= {"step", "action", "text", "cell", "led", "serial", "cells", "button"}


def test_the_start_position_is_cleared_first_so_no_switch_is_found_chattering():
    # a game's start position left on the board: the builder is asked to clear it, then hands off
    start = set(BigBalls().occupied())
    assert len(start) == 18
    test = SelfTest(BOARD, Settings(watch=3, timeout=20))
    test.frame(0.0, start)
    test.start(0.0)
    assert test.prompt.action == "clear" and test.prompt.step == 1
    assert set(test.prompt.cells) == start and test.prompt.text.startswith("step 1 of 4: take every piece off")
    assert "20 s after the last piece came off" in test.prompt.text
    assert set(test.lights.cells) == start and all(light.blink for light in test.lights.cells.values())
    left = set(start)
    for k, cell in enumerate(sorted(start)):  # one piece at a time, a second apart: nothing is found
        left.discard(cell)
        test.frame(1.0 + k, left)
        assert cell not in test.lights.cells
    assert test.prompt.action == "hands-off" and test.prompt.text == "step 1 of 4: keep your hands off the board for 3 s"
    test.advance(30.0)
    assert test.prompt.action == "press" and test.findings == []


def test_a_switch_that_stays_closed_on_a_cleared_board_is_found_stuck_after_the_wait_or_at_ok():
    start = set(BigBalls().occupied())
    for go_on in ("wait", "ok"):
        test = SelfTest(BOARD, Settings(watch=3, timeout=20))
        test.frame(0.0, start)
        test.start(0.0)
        test.frame(1.0, {"c3"})  # everything taken off but c3, whose switch stays closed
        first = test.prompt.serial
        test.advance(1.0 + CLEAR_SETTLE)  # nothing changes: the prompt names it
        assert test.prompt.serial > first and test.prompt.cells == ("c3",)
        assert test.prompt.text == "step 1 of 4: still closed: c3. Nothing on it? In 18 s it is found stuck" \
                                   " (ok: go on now)"
        if go_on == "ok":
            test.press(5.0, "ok")
        else:
            test.advance(21.0)  # 20 s after the last piece came off
        assert test.prompt.action == "hands-off"
        test.advance(test.now + 3.0)
        assert test.prompt.action == "press"
        assert test.report().kinds() == {("stuck-closed", ("c3",))}, go_on
        assert "look for a magnet left there" in test.report().text()


def test_the_machine_tells_crossed_from_swapped_and_learns_which_switch_answers():
    # a magnet on a1 closes b1's switch (one way); c1 and d1 answer for each other
    test = SelfTest(BOARD, Settings(watch=1, timeout=5))
    prompts = run_virtual(test, {"a1": "b1", "c1": "d1", "d1": "c1"})
    assert test.report().kinds() == {("crossed", ("a1", "b1")), ("swapped", ("c1", "d1"))}
    assert "crossed: a magnet on a1 closes the switch of b1's (sensor 1) instead of its own (sensor 0)" \
        in test.report().text()
    step4 = {p.cell: p.action for p in prompts if p.step == 4 and p.action in ("find", "ok")}
    # b1's switch answered for two hollows: neither can confirm its LED with a magnet
    assert step4["a1"] == step4["b1"] == "ok" and step4["c1"] == step4["d1"] == "find"


def test_the_machine_finds_stuck_chattering_and_dark_in_virtual_time():
    test = SelfTest(BOARD, Settings(watch=1, timeout=5))
    test.frame(0.0, {"a7"})  # a7's switch reads closed, and stays closed
    test.start(0.0)
    test.press(0.05, "ok")  # asked to clear the board, the builder goes on
    test.frame(0.3, {"a7", "c2"})
    test.frame(0.35, {"a7"})
    test.advance(1.05)
    assert test.ignored == {"a7", "c2"}
    for button in ("die", "ok", "ok"):  # the buttons, and the buzzer heard
        test.press(1.1, button)
    assert test.prompt == Prompt(3, "place", "step 3 of 4: put a magnet on a1; nothing happens? press the die button",
                                 cell="a1", serial=6)
    test.advance(7.0)  # a1: nothing within the timeout
    assert test.prompt.cell == "b1" and test.answers == {"a1": frozenset()}
    run = 7.0
    while test.prompt.step == 3:  # the rest answer with their own switch
        run += 0.1
        test.frame(run, {"a7", test.prompt.cell} if test.prompt.action == "place" else {"a7"})
    # switch findings come in board order once every hollow has answered
    assert [f.kind for f in test.report().findings] == ["chatter", "stuck-closed", "stuck-open"]
    assert test.report().findings[-1].cells == ("a1",)


def test_an_unanswered_removal_marks_the_switch_stuck_closed():
    test = SelfTest(BOARD, Settings(watch=1, timeout=5, remove_timeout=2))
    test.frame(0.0, set())
    test.start(0.0)
    test.advance(1.0)
    for button in ("die", "ok", "ok"):
        test.press(1.1, button)
    test.frame(1.5, {"a1"})
    assert test.prompt.action == "remove" and test.prompt.cell == "a1" and test.prompt.cells == ("a1",)
    test.advance(3.6)
    assert test.prompt.cell == "b1" and "a1" in test.ignored
    assert "stuck closed: a1 (sensor 0) stays closed after the magnet was taken away" in test.report().text()


def test_a_report_has_one_line_per_finding_and_a_summary():
    test = SelfTest(BOARD, Settings(watch=1, timeout=5))
    run_virtual(test, {"g1": None}, dark={"b4"})
    text = test.report().text()
    assert text.splitlines() == [
        "stuck open: g1 (sensor 6) did not close with a magnet on it: check its reed switch, its diode (the band"
        " toward the row wire) and its joints to row 0 and column 6",
        "dark LED: b4's LED (LED 19) does not light: check its solder joints, its 5 V and its GND", "2 faults"]
    assert Report("bigballs", "x", ()).text() == "no faults\n"


# --------------------------------------------------------------------------------------------
# Patterns: a row or column that does not answer or is shorted, a broken LED chain
# --------------------------------------------------------------------------------------------

PICO = wiring_of(BOARD, "serial")  # the Pico's pins: rows on GP0-GP3, columns on GP8-GP14


def row_of(row: int) -> tuple[str, ...]:
    return tuple(c for c in BOARD.cells if BOARD.sensor[c] // BOARD.columns == row)


def column_of(column: int) -> tuple[str, ...]:
    return tuple(c for c in BOARD.cells if BOARD.sensor[c] % BOARD.columns == column)


def test_a_row_that_does_not_answer_is_one_finding_naming_its_wire_and_pin():
    test = SelfTest(BOARD, Settings(watch=1, timeout=5), wiring=PICO)
    run_virtual(test, {c: None for c in row_of(0)} | {"d2": None})
    report = test.report()
    assert report.kinds() == {("dead-row", row_of(0)), ("stuck-open", ("d2",))}, report.text()
    assert report.text().splitlines()[0] == ("row 0 does not answer (a1, b1, c1, d1, e1, f1 and g1): check row 0's"
                                             " wire from GP0 (pin 1) to its switches")
    assert report.summary == "2 faults"


def test_a_column_that_does_not_answer_and_one_shorted_are_named_so():
    dead, shorted = column_of(1), column_of(4)
    test = SelfTest(BOARD, Settings(watch=1, timeout=5), wiring=PICO)
    run_virtual(test, {c: None for c in dead}, stuck=set(shorted))
    kinds = test.report().kinds()
    assert kinds == {("dead-column", dead), ("shorted-column", shorted)}, test.report().text()
    text = test.report().text()
    assert "check column 1's wire from GP9 (pin 12) to its switches" in text
    assert "look for a short on column 4's wire (GP12 (pin 16)) to GND or to the row wires" in text


def test_the_pins_named_are_the_backends_own():
    # the Pico's on serial (and on the simulated board, whose board file says serial), the
    # Pi's from the board file's [gpio] on gpio, an expander's ports where the board has them
    pi = wiring_of(BOARD, "gpio")
    assert (pi.row(0), pi.column(3), pi.ok_button, pi.leds) == ("BCM 5 (pin 29)", "BCM 4 (pin 7)", "BCM 24 (pin 18)",
                                                                "BCM 10 (pin 19)")
    assert wiring_of(BOARD, "sim") == PICO and PICO.row(3) == "GP3 (pin 5)" and PICO.column(7) is None
    expanders = wiring_of(load_board(game="offboard"), "gpio")
    assert expanders.row(0) == "0x20 GPA0" and expanders.column(1) == "0x20 GPB1" and expanders.die_button is None
    test = SelfTest(BOARD, Settings(watch=1, timeout=5), wiring=pi)
    run_virtual(test, {c: None for c in row_of(1)})
    assert "check row 1's wire from BCM 6 (pin 31) to its switches" in test.report().text()


def test_a_row_whose_switches_all_read_closed_is_a_short_and_without_pins_the_wire_is_named_alone():
    test = SelfTest(BOARD, Settings(watch=1, timeout=5))
    run_virtual(test, {}, stuck=set(row_of(2)))
    [finding] = test.report().findings
    assert finding.kind == "shorted-row" and finding.cells == row_of(2)
    assert finding.text.endswith("look for a short on row 2's wire to the column wires or to GND")


def test_a_chain_dark_from_one_led_on_is_one_break_asked_for_at_once():
    after = [name for index, name in sorted(led_names(BOARD).items()) if index >= 8]
    test = SelfTest(BOARD, Settings(watch=1, timeout=5))
    prompts = run_virtual(test, {}, dark=set(after))
    [finding] = test.report().findings
    assert finding.kind == "chain-broken" and finding.cells == tuple(after)
    assert finding.text == ("the LED chain is broken after LED 7 (hollow a2): check the data wire from LED 7's DOUT to"
                            " LED 8's DIN, and LED 8's 5 V and GND")
    asked = [p.led for p in prompts if p.step == 4 and p.led is not None]
    assert asked == list(range(9))  # LEDs 0-8 one by one, then the rest all at once
    chain = [p for p in prompts if p.step == 4 and p.action == "ok" and p.led is None]
    assert len(chain) == 1 and "the 27 LEDs after it on the chain are lit now" in chain[0].text
    assert set(chain[0].cells) == set(after[1:]) & set(BOARD.cells)


def test_a_dark_led_in_a_chain_that_goes_on_is_one_dark_led_and_a_dark_chain_names_its_data_pin():
    test = SelfTest(BOARD, Settings(watch=1, timeout=5))
    run_virtual(test, {}, dark={"b2"})
    assert test.report().kinds() == {("dark", ("b2",))}
    test = SelfTest(BOARD, Settings(watch=1, timeout=5), wiring=PICO)
    run_virtual(test, {}, dark=set(led_names(BOARD).values()), by_die=False)  # the maker waits each time out
    [finding] = test.report().findings
    assert finding.kind == "chain-dark" and len(finding.cells) == BOARD.led_count
    assert finding.text.startswith("no LED of the chain lights: check the data wire from GP22 (pin 29)")


def test_buttons_that_do_not_answer_and_a_silent_buzzer_are_found():
    test = SelfTest(BOARD, Settings(watch=1, timeout=5), wiring=PICO)
    run_virtual(test, {}, dead={"die"}, silent=True)
    assert test.report().kinds() == {("die-button", ()), ("buzzer", ())}
    assert test.report().text().splitlines()[:2] == [
        "the die button does not answer: check its wire to GP18 (pin 24) and its wire to GND",
        "the buzzer is silent: check its wire from GP20 (pin 26) through the 1 kΩ resistor to the transistor, and"
        " the buzzer's 5 V and GND"]
    test = SelfTest(BOARD, Settings(watch=1, timeout=5))
    prompts = run_virtual(test, {}, dead={"ok"})
    # without an ok button the buzzer cannot be said heard: it is not asked
    assert test.report().kinds() >= {("ok-button", ())} and not any(p.action == "hear" for p in prompts)
    assert "the ok button does not answer: check its wires to the controller and to GND" in test.report().text()


def test_a_board_without_a_die_asks_for_ok_alone_and_says_to_wait():
    board = load_board(game="offboard")
    test = SelfTest(board, Settings(watch=1, timeout=5))
    test.frame(0.0, set())
    test.start(0.0)
    test.advance(1.0)
    assert (test.prompt.action, test.prompt.button) == ("press", "ok")
    test.press(1.1, "ok")
    assert test.prompt.text == "step 2 of 4: did you hear the buzzer? press ok if you did; if not, wait 5 s"
    test.press(1.2, "ok")
    assert test.prompt.text == "step 3 of 4: put a magnet on A1; nothing happens? wait 5 s"


# --------------------------------------------------------------------------------------------
# On the simulated board and on the gpio mock, with declared faults
# --------------------------------------------------------------------------------------------

# Both rigs run on the virtual time of the loop (tests/virtual_time.py): a wait for the builder
# ends only when nothing else is left to run, so a loaded machine that is slow to answer never
# turns a good switch or LED into a fault.

def sim_rig(faults: dict, clock):
    board = with_faults(faults)
    device = faulty_sim(board, parse_faults(board), seed=1, clock=clock)
    return device, SimBuilder(SimHands(device, board), poll=0.0005), lambda: None


def gpio_rig(faults: dict, clock):
    board = with_faults(faults)
    declared = parse_faults(board)
    factory = MockFactory()
    matrix = MatrixPins(factory, board.settings_of("gpio").rows, board.settings_of("gpio").columns, faulty_circuit(board, declared, seed=1, clock=clock))
    strip = FakeStrip(board.led_count)
    switches = GpioSwitches(board, pin_factory=factory, strip=DarkStrip(strip, dark_leds(board, declared)),
                            scan_interval=0.0005, debounce=2, bounce_time=None, clock=clock)
    hands = MockHands(factory, matrix, strip, board, hold=0.005, rest=0.002)
    return Heard(switches), SimBuilder(hands, poll=0.0005), switches.close


class SlowHands:
    """Hands on a loaded machine: each answer takes longer (in real time) than the self-test's
    timeout, the way a busy computer may keep the builder's task from running."""

    def __init__(self, hands, stall: float) -> None:
        self.hands, self.stall = hands, stall

    async def put(self, hollow):
        time.sleep(self.stall)
        await self.hands.put(hollow)

    async def press_ok(self):
        time.sleep(self.stall)
        await self.hands.press_ok()

    def __getattr__(self, name):
        return getattr(self.hands, name)


def run_rig(rig, faults: dict, settings: Settings = FAST, slow: float = 0.0):
    clock = VirtualClock()
    device, builder, close = rig(faults, clock)
    if slow:
        builder.hands = SlowHands(builder.hands, slow)
    try:
        return device, on_virtual_time(run_selftest(device, BOARD, settings, builder=builder), clock)
    finally:
        close()


@pytest.mark.parametrize("rig", [sim_rig, gpio_rig], ids=["sim", "gpio"])
@pytest.mark.parametrize("case", list(CASES))
def test_the_selftest_finds_each_declared_fault_and_nothing_else(rig, case):
    device, report = run_rig(rig, CASES[case])
    assert report.kinds() == expected(CASES[case]), report.text()
    lines = report.text().splitlines()
    assert len(lines) == len(report.findings) + 1
    if case == "none":
        assert lines == ["no faults"]
    else:
        count = len(expected(CASES[case]))
        assert lines[-1] == (f"{count} faults" if count > 1 else "1 fault")
    assert Cue.GAME_OVER in device.cues and device.die.face is (DieFace.BLANK if case == "none" else DieFace.ERROR)


@pytest.mark.parametrize("rig", [sim_rig, gpio_rig], ids=["sim", "gpio"])
def test_a_builder_slowed_by_a_loaded_machine_is_not_a_fault(rig):
    # Each answer stalls longer than the timeout: on the loop's own time it is still in time.
    settings = Settings(watch=0.05, timeout=0.02, remove_timeout=0.02)
    _, report = run_rig(rig, {"dark": ["turn"]}, settings, slow=0.03)
    assert report.kinds() == {("dark", ("turn",))}, report.text()


def test_the_selftest_runs_on_addresses_not_on_cells():
    with pytest.raises(TypeError, match="address-level board"):
        asyncio.run(run_selftest(SimBoard(BOARD), BOARD, FAST))
    # a die pip and the turn light are lit alone, by their index on the chain
    assert leds_of(LightFrame({"pip4": Light("choose")}), BOARD).leds == {BOARD.die_pips[3]: Light("choose")}
    assert leds_of(LightFrame(turn="white"), BOARD).leds == {BOARD.turn_led: Light("white")}
    assert leds_of(LightFrame({"b4": Light("place", blink=True)}), BOARD).leds == {
        BOARD.led["b4"]: Light("place", blink=True)}


# --------------------------------------------------------------------------------------------
# The command
# --------------------------------------------------------------------------------------------

HEAD = re.compile(r"self-test of the (\w+) board \((.+)\), (.+) \d\d:\d\d")


def test_the_command_writes_the_report_file(tmp_path):
    board = tmp_path / "faulty.toml"
    board.write_text(BOARD_TEXT + '\n[sim.faults]\nstuck_open = ["d1"]\ndark = ["turn"]\n')
    report = tmp_path / "report.txt"
    out = io.StringIO()
    status = selftest_command("sim", None, str(board), str(report), 0.4, watch=0.25, out=out)
    assert status == 1
    lines = report.read_text().splitlines()
    # its head: the date, the board file, the backend and the firmware
    assert HEAD.fullmatch(lines[0]).groups()[:2] == ("faulty", str(board))
    assert lines[1] == "backend: sim (the simulated board); firmware: none (the simulated board)"
    assert lines[2:] == [
        "stuck open: d1 (sensor 3) did not close with a magnet on it: check its reed switch, its diode (the band"
        " toward the row wire) and its joints to row 0 and column 3",
        "dark LED: the turn light (LED 35) does not light: check its solder joints, its 5 V and its GND",
        "2 faults",
    ]
    printed = out.getvalue()
    assert "step 3 of 4: put a magnet on a1" in printed and printed.rstrip().endswith(f"report written to {report}")
    assert "2 faults\n" in printed and lines[1] in printed


def test_the_command_reports_no_faults_to_a_default_file_in_the_current_directory(tmp_path, monkeypatch):
    board = tmp_path / "good.toml"
    board.write_text(BOARD_TEXT)
    monkeypatch.chdir(tmp_path)
    assert selftest_command("sim", None, str(board), None, 0.4, watch=0.25, out=io.StringIO()) == 0
    [written] = tmp_path.glob("selftest-good-*.txt")
    assert re.fullmatch(r"selftest-good-\d{8}-\d{6}\.txt", written.name)
    assert written.read_text().splitlines()[2:] == ["no faults"]
    assert default_report_path("offboard").name.startswith("selftest-offboard-")


def test_the_command_takes_a_shipped_boards_name(tmp_path):
    report = tmp_path / "r.txt"
    assert selftest_command("sim", None, None, str(report), 0.4, watch=0.25, out=io.StringIO(),
                            board_name="offboard") == 0
    assert report.read_text().startswith("self-test of the offboard board (hardware/boards/offboard.toml), ")


def test_the_command_says_when_the_declared_faults_are_wrong(tmp_path):
    board = tmp_path / "bad.toml"
    board.write_text(BOARD_TEXT + '\n[sim.faults]\nswapped = [["a1", "a1"]]\n')
    with pytest.raises(FaultError, match=r"not a pair of two different cells"):
        selftest_command("sim", None, str(board), str(tmp_path / "r.txt"), 0.25, out=io.StringIO())


def test_ctrl_c_writes_the_report_so_far_and_exits_130(tmp_path, monkeypatch):
    # Ctrl-C in the middle of step 3: the findings so far are written, with no traceback
    from reedboard.controller.workshop import selftest

    board = tmp_path / "faulty.toml"
    board.write_text(BOARD_TEXT + '\n[sim.faults]\nstuck_open = ["b1"]\n')
    report = tmp_path / "report.txt"
    real = selftest.SelfTest._ask

    def ask(test, prompt):
        if prompt.action == "place" and prompt.cell == "e1":
            raise KeyboardInterrupt  # as the SIGINT handler raises it wherever the program is
        real(test, prompt)

    monkeypatch.setattr(selftest.SelfTest, "_ask", ask)
    out = io.StringIO()
    assert selftest_command("sim", None, str(board), str(report), 0.4, watch=0.25, out=out) == 130
    lines = report.read_text().splitlines()
    assert HEAD.fullmatch(lines[0]) and lines[1].startswith("backend: sim")
    assert lines[2].startswith("stuck open: b1 (sensor 1)")
    assert lines[3] == "stopped before the end (Ctrl-C): 1 fault so far"
    assert out.getvalue().rstrip().endswith(f"report written to {report}")


def test_ctrl_c_at_the_terminal_ends_with_the_report_and_no_traceback(tmp_path):
    # `reedboard selftest` on the fake Pico (the game's pieces still on it), stopped by SIGINT
    # while it asks for the board to be cleared: the report names the Pico's firmware
    import signal

    from reedboard.hal.mock.fakeboard import FakeBoard

    firmware = (Path(__file__).resolve().parents[1] / "firmware" / "app.py").read_text().split('FIRMWARE = "')[1]
    firmware = firmware.split('"')[0]
    fake = FakeBoard("bigballs", occupied=BigBalls().occupied()).start()
    report = tmp_path / "report.txt"
    try:
        process = start_reedboard("selftest", "--backend", "serial", "--port", fake.port, "--report", report)
        said = []
        for line in process.stdout:
            said.append(line)
            if line.startswith("step 1 of 4: take every piece off the board"):
                process.send_signal(signal.SIGINT)
                break
        out, err = process.communicate(timeout=60)
    finally:
        fake.stop()
    assert process.returncode == 130, "".join(said) + out + err
    assert "Traceback" not in err, err
    lines = report.read_text().splitlines()
    assert HEAD.fullmatch(lines[0]).groups()[:2] == ("bigballs", "hardware/boards/bigballs.toml")
    assert re.fullmatch(rf"backend: serial \(Pico on {re.escape(fake.port)}\); firmware: {re.escape(firmware)}"
                        r"\S* \(protocol 1\)", lines[1]), lines[1]  # the fake Pico's own, as its hello says
    assert lines[2:] == ["stopped before the end (Ctrl-C): no faults so far"]
    assert out.rstrip().endswith(f"report written to {report}")


def test_the_simulated_board_answers_at_once_so_no_timeout_is_waited_out(tmp_path):
    # Each fault below waits out a timeout of an hour: on the simulated board that is the loop's
    # own time, which passes at once (the subprocess's limit only stops a run that would hang).
    board = tmp_path / "faulty.toml"
    board.write_text(BOARD_TEXT + '\n[sim.faults]\nstuck_open = ["d1"]\ndark = ["b4", "turn"]\n')
    report = tmp_path / "report.txt"
    done = run_reedboard("selftest", "--hal", "sim", "--board", board, "--timeout", "3600", "--report", report,
                         timeout=600)
    assert done.returncode == 1, done.stderr
    assert [line.split(":")[0] for line in report.read_text().splitlines()[2:]] == [
        "stuck open", "dark LED", "dark LED", "3 faults"]
    assert report.read_text().splitlines()[-3:-1] == [
        "dark LED: b4's LED (LED 19) does not light: check its solder joints, its 5 V and its GND",
        "dark LED: the turn light (LED 35) does not light: check its solder joints, its 5 V and its GND"]
