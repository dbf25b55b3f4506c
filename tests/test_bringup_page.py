"""The bring-up page (`reedboard bringup`) as a maker at the bench uses it, on a real server and in
a real browser: the board's switches and LEDs live, the one-hollow test, the self-test and the
calibration started from the page, answered by hands at the board and the page's own ok and die
buttons, and run to their end.

The emulated Pico (the real firmware, tests/pico_here.py) is the board for the one-hollow test (on
the page and in the terminal) and for the self-test started with Big Balls' start position on the
board: the maker clears the board when asked, and no fault is found. A self-test that runs through
every hollow and LED, and the calibration, run on the simulated board: a dead matrix row and a
broken LED chain planted in it ([sim.faults]) are shown on the page as such, and the calibration
learns a pair of hollows wired the wrong way round and writes its board file.

The maker who keeps the hands off the board for the self-test's watch is played by moving the
board's clock on: no test here waits on the wall clock.
Screenshots (desktop and phone) go to REEDBOARD_SHOTS when it names a folder.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import httpx2 as httpx
import pytest

from reedboard.controller.workshop.bringup import Bench
from reedboard.controller.workshop.guide import Opened, Settings
from reedboard.controller.web.bringup_page import bringup_server
from reedboard.hal.board import load_board
from reedboard.hal.mock.faults import faulty_sim, parse_faults
from reedboard.hal.serial_board import SerialSwitches

from conftest import free_port
from command_line import start_reedboard
from in_browser import DESKTOP, PHONE, TIMEOUT, expect, shot
from pico_here import emulated_pico

pytestmark = pytest.mark.system

pe = emulated_pico()
ROOT = Path(__file__).resolve().parent.parent
WAIT = 120.0  # s of wall time for the emulated chip (it runs at 0.2-1x real time)
SLOW = Settings(watch=3.0, timeout=30.0)  # nobody waits these out: the clock is moved on instead
LONG = 20000  # ms for the page to show what a whole guide found


class MovableClock:
    """The board's clock: the machine's monotonic time, plus what the test moved it on by."""

    def __init__(self) -> None:
        self.moved = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.moved

    def skip(self, seconds: float) -> None:
        self.moved += seconds


@contextmanager
def served(bench: Bench):
    """The bench's page on a loopback port the system chose, in a thread of its own."""
    port = free_port()
    server = bringup_server(bench, "127.0.0.1", port)
    thread = threading.Thread(target=server.run, name="bring-up page", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the page's server did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(10)


def sim_bench(tmp_path: Path, faults: str, clock: MovableClock, **options) -> tuple[Bench, object]:
    """A bench on the simulated Big Balls board with these [sim.faults] (TOML lines)."""
    text = (ROOT / "hardware" / "boards" / "bigballs.toml").read_text(encoding="utf-8")
    path = tmp_path / "bigballs.toml"
    path.write_text(text.replace('backend = "serial"', 'backend = "sim"') + "\n[sim.faults]\n" + faults + "\n",
                    encoding="utf-8")
    board = load_board(str(path))
    device = faulty_sim(board, parse_faults(board), clock=clock)
    return Bench(Opened("sim", board, device, None, "the simulated board"), selftest=SLOW, calibration=SLOW,
                 **options), device


def open_bringup(open_page, url: str, viewport=None):
    page = open_page(url, viewport=viewport or {"width": 1280, "height": 800})
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=TIMEOUT)
    return page


def prompt(page):
    return page.locator('[data-role="prompt"]')


# The maker's hands on the simulated board, in the page: a click on a hollow puts a magnet in it (or
# takes it out). It answers each new prompt as a person would, with the page's ok and die buttons
# for the board's: the button asked for, a magnet on the hollow named (the die button when its
# switch does not close: `dead`), the magnets off when asked, a magnet on the hollow it sees lit (the
# map shows the LEDs as the board was told to light them; the broken ones it cannot see: `dark`),
# ok when it sees the LED asked about lit, the die button when nothing is. The hands-off watch it
# waits out, through window.waitOut(seconds). It ends when the guide does.
BUILDER = """async ({dead, dark, deadline}) => {
  const $ = (s) => document.querySelector(s);
  const held = new Set();
  const cellEl = (cell) => document.querySelector(`[data-cell="${cell}"]`);
  const click = (cell) => cellEl(cell).dispatchEvent(new MouseEvent("click", { bubbles: true }));
  const settled = () => new Promise((r) => setTimeout(r, 0));
  const lit = (el) => el && el.dataset.lit && !dark.includes(el.dataset.cell || el.dataset.ledName);
  let handled = null;
  const end = Date.now() + deadline;
  while (true) {
    const guide = $("[data-role=guide]");
    if (["done", "stopped", "failed"].includes(guide.dataset.phase)) return guide.dataset.phase;
    if (Date.now() > end) return "gave up at " + $("[data-role=prompt]").textContent;
    const p = $("[data-role=prompt]").dataset;
    if (!p.serial || p.serial + p.action === handled) { await new Promise((r) => setTimeout(r, 2)); continue; }
    handled = p.serial + p.action;
    await settled();
    if (p.action === "remove") {
      for (const cell of held) click(cell);
      held.clear();
    } else if (p.action === "press") {
      $(`[data-role=${p.button}]`).click();
    } else if (p.action === "hear") {
      $("[data-role=ok]").click();  // the simulated board's buzzer is heard
    } else if (p.action === "place") {
      click(p.target); held.add(p.target);
      if (dead.includes(p.target)) { click(p.target); held.delete(p.target); $("[data-role=die]").click(); }
    } else if (["find", "ok", "pick"].includes(p.action)) {
      const hollow = [...document.querySelectorAll("[data-cell]")].find((el) => lit(el));
      const other = [...document.querySelectorAll("[data-led-name]")].find((el) => !el.closest("[data-cell]") && lit(el));
      if (p.action === "find" && hollow) { click(hollow.dataset.cell); held.add(hollow.dataset.cell); }
      else if (p.action === "pick") $(`[data-role=${other && other.dataset.ledName === p.target ? "ok" : "die"}]`).click();
      else if (hollow || other) $("[data-role=ok]").click();
      else $("[data-role=die]").click();  // nothing lit
    } else if (p.action === "hands-off") {
      await window.waitOut(10);
    }
  }
}"""


# When the one-hollow test shows the switch's n-th close (Date.now(): the test's wall clock too).
SEEN = """(n) => {
  window.seenAt = null;
  const box = document.querySelector("[data-role=switch-state]");
  new MutationObserver((changes, observer) => {
    if (box.dataset.closes === n) { window.seenAt = Date.now(); observer.disconnect(); }
  }).observe(box, { attributes: true });
}"""


# ms from a click on a hollow of the simulated board to the page showing its switch changed.
CLICKED = """(cell) => new Promise((resolve) => {
  const el = document.querySelector(`[data-cell="${cell}"]`);
  const before = el.dataset.closed;
  const t0 = performance.now();
  new MutationObserver((changes, observer) => {
    if (el.dataset.closed !== before) { observer.disconnect(); resolve(performance.now() - t0); }
  }).observe(el, { attributes: true });
  el.dispatchEvent(new MouseEvent("click", { bubbles: true }));
})"""


def build(page, clock: MovableClock, dead=(), dark=()) -> str:
    page.expose_function("waitOut", clock.skip)
    return page.evaluate(BUILDER, {"dead": list(dead), "dark": list(dark), "deadline": LONG})


# ------------------------------------------------------------------------------------------------
# The emulated Pico
# ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def pico():
    """The Big Balls board behind the emulated Pico, its start position on the board."""
    from reedboard.controller.games import BigBalls

    board = load_board(game="bigballs")
    with pe.EmulatedPico(board, occupied=BigBalls().occupied()) as chip:
        chip.booted(WAIT)
        yield chip


@pytest.mark.pico
def test_the_terminal_one_hollow_test_prints_each_close_and_open(pico):
    """`reedboard bringup --hollow a1 --closes 2` on the Pico: the guidance first, then each close and
    open of a1's switch as the magnet comes and goes, a piece moved in another hollow named as not a1,
    and the sum at the end."""
    pico.set_magnets(set())
    run = start_reedboard("bringup", "--backend", "serial", "--port", pico.port, "--hollow", "A1", "--closes", "2",
                          env={**os.environ, "LANGUAGE": "en"})
    lines: list[str] = []

    def line_with(text: str) -> str:
        while True:
            line = run.stdout.readline()
            assert line, f"the command ended before saying {text!r}: {lines} {run.stderr.read()}"
            lines.append(line.rstrip("\n"))
            if text in line:
                return line

    try:
        line_with("It does not close:")
        assert line_with("ready").strip() == "ready: every switch is open"
        board = pico.board
        for n in (1, 2):
            pico.place("a1")
            assert line_with("a1 (sensor 0) closed").strip() == \
                f"a1 (sensor 0) closed ({n} time{'s' if n > 1 else ''} so far)"
            if n == 1:
                pico.place("b1")
                assert line_with("b1 (sensor 1)").strip() == "b1 (sensor 1) closed, not a1: is the magnet in a1?"
                pico.set_magnets({board.sensor["a1"]})
                line_with("b1 (sensor 1) opened after")
            pico.lift("a1")
            line_with("a1 (sensor 0) opened after")
        assert line_with("a1 closed 2 times").startswith("a1 closed 2 times, ")
        assert run.wait(30) == 0
    finally:
        run.kill()
        run.wait()
    assert lines[0].startswith("one-hollow test of a1 (sensor 0) on the bigballs board"), lines[0]
    assert "5 mm above the middle of the glass" in lines[1] and "row 0, column 0" in lines[1]


@pytest.mark.pico
def test_on_the_emulated_pico_the_page_follows_a_switch_and_the_selftest_starts_on_a_cleared_board(
        pico, open_page, tmp_path):
    from reedboard.controller.games import BigBalls

    board = pico.board
    start = set(BigBalls().occupied())
    pico.set_magnets({board.sensor[c] for c in start})  # the start position, as the game left it
    occupied, empty = sorted(start)[0], next(c for c in board.cells if c not in start)
    clock = MovableClock()
    device = SerialSwitches(board, pico.port, clock=clock)
    bench = Bench(Opened("serial", board, device, None, "the emulated Pico"), selftest=SLOW,
                  report_path=tmp_path / "report.txt")
    try:
        with served(bench) as url:
            page = open_bringup(open_page, url)
            expect(page.locator(f'[data-cell="{occupied}"]')).to_have_attribute("data-closed", "true", timeout=TIMEOUT)
            expect(page.locator(f'[data-cell="{empty}"]')).to_have_attribute("data-closed", "false")
            # The one-hollow test of an empty hollow: the magnet in, out, and in again.
            page.select_option('[data-role="hollow"]', empty)
            switch = page.locator('[data-role="switch-state"]')
            expect(switch).to_have_attribute("data-closed", "false", timeout=TIMEOUT)
            expect(page.locator('[data-role="expect"]')).to_contain_text(f"in {empty}: its switch, sensor")
            latencies = []
            for n in (1, 2):
                page.evaluate(SEEN, str(n))
                t0 = time.time()
                pico.place(empty)
                expect(switch).to_have_attribute("data-closes", str(n), timeout=TIMEOUT)
                latencies.append(page.evaluate("() => window.seenAt") / 1000 - t0)
                expect(switch).to_have_attribute("data-closed", "true")
                expect(page.locator(f'[data-cell="{empty}"]')).to_have_attribute("data-lit", "00ff80")  # its LED
                pico.lift(empty)
                expect(switch).to_have_attribute("data-closed", "false", timeout=TIMEOUT)
            expect(page.locator('[data-role="switch-count"]')).to_have_text("closed 2 times")
            print(f"\nthe page showed the switch closed {1000 * max(latencies):.0f} ms (at most) after the magnet"
                  f" went in (the emulated Pico's scan and debounce included)")
            shot(page, "bringup-pico-desktop")

            # The self-test, started with the pieces on the board: the maker is asked to clear it ...
            page.locator('[data-role="start-selftest"]').click()
            expect(prompt(page)).to_have_attribute("data-action", "clear", timeout=TIMEOUT)
            expect(prompt(page)).to_contain_text("take every piece off the board")
            asked = page.locator("[data-cell].take")  # marked: pieces to take away
            expect(asked).to_have_count(len(start))
            refused = httpx.post(url + "api/start", json={"flow": "calibration"})  # one guide at a time
            assert refused.status_code == 409
            assert refused.json() == {"error": "the self-test is running: stop it first, or wait for its end"}
            phone = open_bringup(open_page, url, PHONE)
            expect(prompt(phone)).to_have_attribute("data-action", "clear", timeout=TIMEOUT)
            shot(phone, "bringup-pico-phone-clear")
            pico.set_magnets(set())  # ... and does
            expect(prompt(page)).to_have_attribute("data-action", "hands-off", timeout=TIMEOUT)
            clock.skip(SLOW.watch)  # the maker keeps the hands off for as long as asked
            # The buttons: the board's own die button, the page's ok for the board's; the buzzer heard.
            expect(prompt(page)).to_have_text(re.compile("press the die button"), timeout=TIMEOUT)
            expect(page.locator('[data-role="die"]')).to_have_class(re.compile(r"\bwanted\b"))
            pico.press("die")
            expect(prompt(page)).to_have_text(re.compile("press ok"), timeout=TIMEOUT)
            page.locator('[data-role="ok"]').click()
            expect(prompt(page)).to_have_attribute("data-action", "hear", timeout=TIMEOUT)
            page.locator('[data-role="ok"]').click()
            expect(prompt(page)).to_have_attribute("data-action", "place", timeout=TIMEOUT)
            expect(prompt(page)).to_have_text(re.compile("put a magnet on a1"))
            expect(page.locator('[data-cell="a1"]')).to_have_class(re.compile(r"\basked\b"))
            assert page.locator('[data-role="findings"] li').count() == 0  # no piece was taken for a stuck switch
            shot(phone, "bringup-pico-phone-selftest")
            page.locator('[data-role="stop"]').click()
            expect(page.locator('[data-role="guide"]')).to_have_attribute("data-phase", "stopped", timeout=TIMEOUT)
            expect(page.locator('[data-role="summary"]')).to_have_text("stopped before the end: no faults so far")
            expect(page.locator('[data-role="result"] li')).to_have_text([f"report written to {tmp_path / 'report.txt'}"])
            # The page lives on after the guide: the switches are followed still.
            pico.place(empty)
            expect(switch).to_have_attribute("data-closes", "3", timeout=TIMEOUT)
            assert page.errors == [] and phone.errors == []
    finally:
        device.close()
    assert bench.flow.findings() == []


# ------------------------------------------------------------------------------------------------
# The simulated board
# ------------------------------------------------------------------------------------------------

DEAD_ROW = ("d4", "a5", "b5", "c5", "a6", "b6", "a7")  # Big Balls' matrix row 3
BROKEN_AFTER = ("pip6", "pip7", "turn")  # the chain's last three LEDs (33-35): its data stops at 32


def test_a_dead_row_and_a_broken_led_chain_are_shown_on_the_page(open_page, tmp_path):
    clock = MovableClock()
    faults = f"stuck_open = {json.dumps(list(DEAD_ROW))}\ndark = {json.dumps(list(BROKEN_AFTER))}"
    bench, device = sim_bench(tmp_path, faults, clock, report_path=tmp_path / "selftest.txt")
    with served(bench) as url:
        page = open_bringup(open_page, url)
        page.locator('[data-role="start-selftest"]').click()  # an empty board: it starts at once
        expect(prompt(page)).to_have_attribute("data-action", "hands-off", timeout=TIMEOUT)
        assert build(page, clock, dead=DEAD_ROW, dark=BROKEN_AFTER) == "done"
        result = page.locator('[data-role="result"]')
        expect(page.locator('[data-role="summary"]')).to_have_text("2 faults")
        lines = result.locator("li").all_inner_texts()
        assert lines[0].startswith("row 3 does not answer (d4, a5, b5, c5, a6, b6 and a7): check row 3's wire from GP3")
        assert lines[1].startswith("the LED chain is broken after LED 32 (the die's middle-right pip): check the data"
                                   " wire from LED 32's DOUT to LED 33's DIN")
        assert lines[2:] == [f"report written to {tmp_path / 'selftest.txt'}"]
        marked = sorted(page.locator("[data-cell].fault").evaluate_all("els => els.map(e => e.dataset.cell)"))
        assert marked == sorted(DEAD_ROW)  # on the map: the row's hollows, and the chain from LED 33 on
        for name in BROKEN_AFTER:
            expect(page.locator(f'[data-led-name="{name}"]')).to_have_class(re.compile(r"\bfault\b"))
        shot(page, "bringup-selftest-desktop")
        phone = open_bringup(open_page, url + "?lang=ro", PHONE)  # the page's own words in Romanian
        expect(phone.locator('[data-role="summary"]')).to_have_text("2 faults")  # the guide's: the starter's language
        expect(phone.locator('[data-role="start-selftest"]')).to_have_text("Pornește autotestul")
        expect(phone.locator('[data-role="expect"]')).to_contain_text("trebuie să se închidă cu fața de jos a magnetului")
        shot(phone, "bringup-selftest-phone-ro")
        assert page.errors == [] and phone.errors == []
    assert (tmp_path / "selftest.txt").read_text().splitlines()[-1] == "2 faults"


def test_the_calibration_runs_to_its_end_and_says_where_the_board_file_is(open_page, tmp_path):
    """a1 and b1 are wired the other way round from the board file: the calibration learns it."""
    clock = MovableClock()
    out = tmp_path / "learned.toml"
    bench, device = sim_bench(tmp_path, 'swapped = [["a1", "b1"]]', clock, board_out=out)
    with served(bench) as url:
        page = open_bringup(open_page, url, DESKTOP)
        shown = [page.evaluate(CLICKED, cell) for cell in ("c3", "c3")]  # a magnet in and out, by a click
        print(f"\nthe page showed a click's magnet in {max(shown):.0f} ms (at most) on the simulated board")
        page.locator('[data-role="start-calibration"]').click()
        expect(prompt(page)).to_have_attribute("data-action", "place", timeout=TIMEOUT)
        expect(prompt(page)).to_have_text(re.compile(r"\(1/28\): put a magnet on a1$"))
        assert build(page, clock) == "done"
        expect(page.locator('[data-role="summary"]')).to_have_text("calibration done: the map is complete")
        expect(page.locator('[data-role="result"] li')).to_have_text([f"board file written to {out}"])
        assert page.errors == []
    learned = load_board(str(out))
    shipped = load_board(game="bigballs")
    assert (learned.sensor["a1"], learned.sensor["b1"]) == (1, 0)
    assert {c: a for c, a in learned.sensor.items() if c not in ("a1", "b1")} == \
        {c: a for c, a in shipped.sensor.items() if c not in ("a1", "b1")}
    assert learned.led == shipped.led
    assert (learned.die_pips, learned.turn_led) == (shipped.die_pips, shipped.turn_led)


def test_a_hostile_or_malformed_request_gets_a_4xx_and_changes_nothing(tmp_path):
    clock = MovableClock()
    bench, device = sim_bench(tmp_path, "", clock, report_path=tmp_path / "report.txt")
    with served(bench) as url:
        with httpx.Client(base_url=url, timeout=5) as client:
            def post(path, body=None, **options):
                if body is not None:
                    options["json"] = body
                return client.post(path, **options)

            assert post("api/start", content=b'{"flow": "selftest"}', headers={"Content-Type": "text/plain"}
                        ).status_code == 415
            assert post("api/start", content=b"{not json", headers={"Content-Type": "application/json"}
                        ).status_code == 400
            assert post("api/start", {"flow": "selftest", "more": 1}).status_code == 400
            assert post("api/start", {"flow": 7}).status_code == 400
            assert post("api/start", {"flow": "everything"}).status_code == 400
            assert post("api/start", content=b'{"flow": "' + b"x" * 5000 + b'"}',
                        headers={"Content-Type": "application/json"}).status_code == 413
            assert post("api/press", {"button": "reset"}).status_code == 400
            assert post("api/magnet", {"cell": "z9"}).status_code == 404
            assert post("api/stop", {}).status_code == 409
            assert client.get("api/hollow/z9").status_code == 404
            assert client.get("api/hollow/" + "a" * 300).status_code == 404
            # another site's page, or a name pointed at this machine, changes nothing
            assert post("api/start", {"flow": "selftest"}, headers={"Origin": "http://evil.example"}).status_code == 403
            assert client.get("api/bench", headers={"Host": "evil.example"}).status_code == 400
            assert bench.flow is None
            state = client.get("api/bench").json()["state"]
            assert state["flow"] is None and state["closed"] == []
            assert post("api/start", {"flow": "selftest"}).status_code == 200
            second = post("api/start", {"flow": "selftest"}, headers={"Accept-Language": "de"})
            assert second.status_code == 409
            assert second.json()["error"] == "der Selbsttest läuft: erst anhalten oder sein Ende abwarten"
            assert post("api/stop", {}).status_code == 200
            assert client.get("api/bench").json()["state"]["flow"]["phase"] == "stopped"
