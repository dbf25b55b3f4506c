"""The firmware on an emulated Pico: MicroPython's own RP2040 build on rp2040js (pico_emulator/),
both shipped boards, the board wired to the chip's pins.

One chip per board for the whole module (booting and running it is the slow part). Everything
about the firmware's timing is measured in emulated time, from the chip's pins; the waits here
are only generous wall-clock timeouts, since the emulation runs at a fraction of real time.
Skipped, saying why, without node, `npm ci` in pico_emulator/, or the MicroPython build and boot
ROM in the shared folder beside the repository (its `pico`)."""

from __future__ import annotations


import pytest
import serial

from reedboard.controller.games import GAMES
from reedboard.hal.board import load_board
from reedboard.hal.protocol import decode, encode, encode_bitmap

from command_line import run_reedboard
from pico_here import ROOT, emulated_pico

pytestmark = [pytest.mark.system, pytest.mark.pico]
pe = emulated_pico()

FIRMWARE = (ROOT / "firmware" / "app.py").read_text().split('FIRMWARE = "')[1].split('"')[0]
WAIT = 120.0  # s of wall time for anything the chip does (it runs at 0.2-1x real time)


class Rig:
    """The emulated chip with a board, and the host's end of its port."""

    def __init__(self, game: str):
        self.rules = GAMES[game]
        self.board = load_board(game=self.rules.board)
        self.start = set(self.rules().occupied())
        self.pico = pe.EmulatedPico(self.board, occupied=self.start).start()
        self.seq = 0
        self.port: serial.Serial | None = None

    def open(self) -> None:
        self.port = serial.Serial(self.pico.port, 115200, timeout=0.05)

    def send(self, kind: str, payload="") -> None:
        self.port.write(encode(kind, self.seq, payload))
        self.seq = (self.seq + 1) & 0xFF

    def answers(self, since: int, count: int = 1, timeout: float = WAIT) -> list:
        """The board's next `count` lines other than S heartbeats from event `since` (decoded)."""
        def enough(_event) -> bool:
            return len(self.replies(since)) >= count

        self.pico.wait(enough, timeout, since)
        return self.replies(since)[:count]

    def replies(self, since: int) -> list:
        return [decode(line + "\n") for line in self.pico.lines(since) if not line.startswith("S ")]

    def emulated_ms(self) -> float:
        return self.pico.stats()["t"]

    def close(self) -> None:
        if self.port is not None:
            self.port.close()
        self.pico.close()


@pytest.fixture(scope="module", params=["bigballs", "offboard"])
def rig(request):
    rig = Rig(request.param)
    try:
        rig.pico.booted(WAIT)
        yield rig
    finally:
        rig.close()


def test_doctor_sees_exactly_the_start_position(rig):
    doctor = run_reedboard("doctor", "--backend", "serial", "--port", rig.pico.port,
                           "--board", ROOT / "hardware" / "boards" / f"{rig.board.name}.toml", timeout=WAIT)
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    lines = doctor.stdout.splitlines()
    assert lines[0] == f"backend: serial (Pico on {rig.pico.port})"
    assert lines[-1] == "occupied: " + " ".join(c for c in rig.board.cells if c in rig.start)


def test_every_line_of_the_protocol_and_every_bad_one(rig):
    pico, board = rig.pico, rig.board
    rig.open()
    n = board.led_count
    # V -> H and S with the pieces on the board
    mark = pico.mark()
    rig.send("V", "1")
    hello, state = pico.wait(lambda e: e["ev"] == "tx" and e["line"].startswith("H "), WAIT, mark), None
    assert decode(hello["line"] + "\n").fields == ("1", FIRMWARE, str(board.rows), str(board.columns), str(n))
    start_bits = encode_bitmap((board.sensor[c] for c in rig.start), board.rows * board.columns)
    state = pico.wait(lambda e: e["ev"] == "tx" and e["line"].startswith("S "), WAIT, pico.events.index(hello))
    assert decode(state["line"] + "\n").fields == (start_bits,)
    # R -> S at once (before the next heartbeat would come)
    mark = pico.mark()
    asked = rig.emulated_ms()
    rig.send("R")
    state = pico.wait(lambda e: e["ev"] == "tx" and e["line"].startswith("S "), WAIT, mark)
    assert state["t"] - asked < 300
    # a piece lifted and put back: C lines
    cell = min(rig.start, key=lambda c: board.sensor[c])
    index = board.sensor[cell]
    mark = pico.mark()
    pico.lift(cell)
    [lifted] = rig.answers(mark)
    pico.place(cell)
    [lifted, placed] = rig.answers(mark, 2)
    assert (lifted.type, lifted.fields, placed.type, placed.fields) == ("C", (f"{index}-",), "C", (f"{index}+",))
    # buttons: short and long presses
    mark = pico.mark()
    pico.press("die", 150)
    pico.wait(lambda e: False if e["ev"] != "tx" else e["line"].startswith("B "), WAIT, mark)
    pico.press("ok", 1300)
    presses = rig.answers(mark, 2)
    assert [p.fields for p in presses] == [("die", "short"), ("ok", "long")]
    # a light frame with blinking LEDs: decoded from the data pin, blinking at 2 Hz
    colours = [((i * 37) % 256, (i * 91 + 17) % 256, (255 - i * 5) % 256) for i in range(n)]
    wanted = ["%02x%02x%02x" % c for c in colours]
    blink = {0, 2, n - 1}
    dark = [("000000" if i in blink else w) for i, w in enumerate(wanted)]
    mark = pico.mark()
    rig.send("L", ["".join(wanted), encode_bitmap(blink, n)])
    pico.wait(lambda e: len([f for f in pico.kind("leds", mark) if f["pixels"] in (wanted, dark)]) >= 6, WAIT, mark)
    frames = [f for f in pico.kind("leds", mark) if f["pixels"] in (wanted, dark)]
    assert wanted in [f["pixels"] for f in frames]  # the first frame lit or dark, as the blinking goes then
    assert all(a["pixels"] != b["pixels"] for a, b in zip(frames, frames[1:]))  # on, off, on, ...
    halves = [b["t"] - a["t"] for a, b in zip(frames[1:], frames[2:])]
    assert all(225 <= h <= 275 for h in halves), halves  # 250 ms +-10 %, emulated
    assert frames[0]["high_ns"][0] < 500 < 700 < frames[0]["high_ns"][1]  # WS2812 T0H and T1H
    assert not [r for r in rig.replies(mark) if r.type == "E"]
    # a frame with one colour for the whole chain, and a bad blink bitmap: E, and the lights stay
    mark = pico.mark()
    rig.send("L", ["00ff00", "0"])
    rig.send("L", ["".join(wanted), "z" * ((n + 3) // 4)])
    errors = rig.answers(mark, 2)
    assert [(e.type, " ".join(e.fields[:2])) for e in errors] == [("E", "bad L:"), ("E", "bad L:")], errors
    # buzzer cues, from the PWM registers
    for cue, notes in (("move", [1760, 0]), ("illegal", [220, 0, 220, 0])):
        mark = pico.mark()
        rig.send("Z", cue)
        pico.wait(lambda e: len(pico.kind("buzzer", mark)) >= len(notes), WAIT, mark)
        assert [b["hz"] for b in pico.kind("buzzer", mark)] == notes
    # the die display, a bad CRC, an echo of a board line, a line too long: no answer;
    # then an unknown type and another protocol version: E (and H, S for V)
    mark = pico.mark()
    rig.send("D", "3")
    rig.port.write(b"V 00 1*00\n")
    rig.port.write(b"S 05 0000000*" + b"%02x" % 0 + b"\n")
    rig.port.write(b"R 01 " + b"a" * 1100 + b"*00\n")
    rig.send("Q", "what")
    rig.send("V", "2")
    replies = rig.answers(mark, 3)
    assert [r.type for r in replies] == ["E", "E", "H"], replies
    assert "Q" in " ".join(replies[0].fields) and "protocol 1" in " ".join(replies[1].fields)
    seqs = [decode(line + "\n").seq for line in pico.lines()]
    assert all(b == (a + 1) & 0xFF for a, b in zip(seqs, seqs[1:]))  # the board's numbers in step


def test_the_scan_never_stalls(rig):
    """Idle with LEDs blinking and the heartbeat going, and L lines at the host's highest rate
    (back to back): no gap between two scans over 10 ms of emulated time, and a 25 ms switch
    pulse in a burst is seen."""
    pico, board = rig.pico, rig.board
    if rig.port is None:
        rig.open()
    n = board.led_count
    # idle but for blinking LEDs and the heartbeat, for five heartbeats of the chip's own time
    lit = ["%02x%02x%02x" % (9, i * 5 % 256, 90) for i in range(n)]
    blinking = {0, n // 2, n - 1}
    dark = ["000000" if i in blinking else c for i, c in enumerate(lit)]
    mark = pico.mark()
    rig.send("L", ["".join(lit), encode_bitmap(blinking, n)])
    pico.wait(lambda e: e["ev"] == "leds" and e["pixels"] in (lit, dark), WAIT, mark)
    pico.stats()
    mark = pico.mark()
    pico.wait(lambda e: len([s for s in pico.kind("tx", mark) if s["line"].startswith("S ")]) >= 5, WAIT, mark)
    idle = pico.stats()
    heartbeats = [e["t"] for e in pico.kind("tx", mark) if e["line"].startswith("S ")]
    blinks = [f for f in pico.kind("leds", mark) if f["pixels"] in (lit, dark)]
    assert len(blinks) >= 6 and all(a["pixels"] != b["pixels"] for a, b in zip(blinks, blinks[1:])), blinks
    assert idle["longest_gap_ms"] <= 10.0, idle
    assert len(heartbeats) >= 5 and all(480 <= b - a <= 530 for a, b in zip(heartbeats, heartbeats[1:])), heartbeats
    # eight frames back to back, blinking, with switches pulsed for 25 ms while they come in
    sensors = sorted({board.sensor[c] for c in board.cells} - {board.sensor[c] for c in rig.start})[:4]
    frames = []
    for k in range(8):
        colours = "".join("%02x%02x%02x" % (k * 30, i * 3 % 256, 200 - k) for i in range(n))
        frames.append(encode("L", (rig.seq + k) & 0xFF, [colours, encode_bitmap(range(0, n, 5), n)]))
    rig.seq = (rig.seq + 8) & 0xFF
    mark = pico.mark()
    pico.stats()
    rig.port.write(b"".join(frames))
    for k, sensor in enumerate(sensors):
        pico.pulse(sensor, 25, after=15 + 70 * k)
    last = "".join("%02x%02x%02x" % (7 * 30, i * 3 % 256, 200 - 7) for i in range(n))
    last = [last[i:i + 6] for i in range(0, len(last), 6)]
    shown = pico.wait(lambda e: e["ev"] == "leds" and e["pixels"] == last, WAIT, mark)
    burst = pico.stats()
    assert burst["longest_gap_ms"] <= 10.0, burst
    pico.wait(lambda e: len([r for r in rig.replies(mark) if r.type == "C"]) >= 2 * len(sensors), WAIT, mark)
    changes = [f for r in rig.replies(mark) if r.type == "C" for f in r.fields]
    for sensor in sensors:
        assert [f for f in changes if f[:-1] == str(sensor)] == [f"{sensor}+", f"{sensor}-"], changes
    pulses = pico.kind("pulse", mark)
    assert len(pulses) == len(sensors) and all(p["t"] + 25 < shown["t"] for p in pulses)  # inside the burst
    assert not [r for r in rig.replies(mark) if r.type == "E"]
    # every cell changing at once (a board lifted, a cloth pulled off it) and back: one scan's
    # changes, sent a piece a step
    wired, start = set(board.sensor.values()), {board.sensor[c] for c in rig.start}
    for magnets in (wired - start, start):
        mark = pico.mark()
        pico.stats()
        pico.set_magnets(magnets)
        pico.wait(lambda e: {int(f[:-1]) for r in rig.replies(mark) if r.type == "C" for f in r.fields} >= wired,
                  WAIT, mark)
        changed = pico.stats()
        assert changed["longest_gap_ms"] <= 10.0, changed
    pico.wait(lambda e: "t" in e and e["t"] >= changed["t"] + 50, WAIT, pico.mark())  # what follows the last line
    after = pico.stats()
    assert after["longest_gap_ms"] <= 10.0, after
