"""The serial backend against a fake Pico on a real pty, and its line handling under fuzzing.

The test plays the Pico on a pty's master end (os.openpty), writing lines encoded with
hal.protocol; the SerialBoard opens the slave end with pyserial, as it would /dev/ttyACM0.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
import serial
from hypothesis import given, settings
from hypothesis import strategies as st

from reedboard.hal.addresses import Switches
from reedboard.hal.board import Board, load_board
from reedboard.hal.interfaces import Button, Cue, DieFace, DieState, Frame, Light, LightFrame, Press
from reedboard.hal.leds import capped, chain, current_ma
from reedboard.hal.protocol import (
    MAX_LINE,
    Line,
    LineSplitter,
    SeqCounter,
    crc8,
    decode,
    decode_bitmap,
    encode,
    encode_bitmap,
)
from reedboard.hal.serial_board import (
    PICO_VID,
    BoardRefused,
    HostLink,
    SerialBoard,
    SerialBoardError,
    find_port,
    light_payload,
)

from conftest import seeds
from fake_pico import FakePico, cells_of

pytestmark = pytest.mark.component

VECTORS = json.loads((Path(__file__).parent.parent / "firmware" / "protocol_vectors.json").read_text())
BIGBALLS = load_board(game="bigballs")  # 4x7 matrix, every sensor wired, 36 LEDs
OFFBOARD = load_board(game="offboard")  # 8x10 matrix, 7 sensors wired to no cell


class Listener:
    """Pumps a SerialBoard's frames and presses into queues the test can wait on."""

    def __init__(self, board: SerialBoard) -> None:
        self.frames: asyncio.Queue = asyncio.Queue()
        self.presses: asyncio.Queue = asyncio.Queue()
        self.tasks = [asyncio.create_task(self._pump(board.frames(), self.frames)),
                      asyncio.create_task(self._pump(board.presses(), self.presses))]

    @staticmethod
    async def _pump(stream, queue: asyncio.Queue) -> None:
        try:
            async for item in stream:
                queue.put_nowait(item)
        except BoardRefused as refused:
            queue.put_nowait(refused)

    async def frame(self, timeout: float = 2.0) -> Frame:
        return await asyncio.wait_for(self.frames.get(), timeout)

    async def press(self, timeout: float = 2.0) -> Press:
        return await asyncio.wait_for(self.presses.get(), timeout)

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def until(condition, timeout: float = 2.0) -> float:
    """Wait for condition() to be true; the time it took."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"not true within {timeout} s")
        await asyncio.sleep(0.005)
    return time.monotonic() - start


@pytest.fixture
def rig():
    """Makes fake Picos and SerialBoards, and closes them all at the end."""
    made: list = []

    def pico(board: Board = BIGBALLS, *args, **kwargs) -> FakePico:
        fake = FakePico(board, *args, **kwargs)
        made.append(fake)
        return fake

    def host(fake: FakePico | None = None, *, board: Board | None = None, port: str | None = None,
             **kwargs) -> SerialBoard:
        sb = SerialBoard(board or fake.board, port or fake.path, **kwargs)
        made.append(sb)
        return sb

    yield SimpleNamespace(pico=pico, host=host)
    for thing in reversed(made):
        (thing.close if isinstance(thing, SerialBoard) else thing.unplug)()


# --- the codec -------------------------------------------------------------------------------------

@pytest.mark.parametrize("vector", VECTORS["crc8"], ids=lambda v: repr(v["bytes"]))
def test_crc8_vectors(vector):
    assert f"{crc8(vector['bytes'].encode('latin-1')):02x}" == vector["crc"]


@pytest.mark.parametrize("vector", VECTORS["lines"], ids=lambda v: v.get("why") or v["line"][:20])
def test_line_vectors_decode_as_stated(vector):
    line = decode(vector["line"].encode("latin-1"))
    if vector["valid"]:
        assert line == Line(vector["type"], vector["seq"], tuple(vector["fields"]))
        if not vector["line"].endswith("\r\n"):
            assert encode(vector["type"], vector["seq"], vector["fields"]) == vector["line"].encode()
    else:
        assert line is None


def test_bitmaps_and_the_sequence_counter():
    assert decode_bitmap("0000003", 28) == {0, 1}
    assert encode_bitmap({0, 1}, 28) == "0000003"
    assert encode_bitmap({34}, 35) == "400000000"
    assert decode_bitmap("000003", 28) is None and decode_bitmap("000000g", 28) is None
    counter = SeqCounter(254)
    assert [counter.next() for _ in range(4)] == [254, 255, 0, 1]


@settings(max_examples=seeds(400), deadline=None)
def link_on(board: Board = BIGBALLS) -> tuple[HostLink, list]:
    """A HostLink that keeps what it emits."""
    emitted: list = []
    return HostLink(board, lambda type, payload: None, emitted.append), emitted


def frames_of(emitted: list) -> list[Switches]:
    return [item for item in emitted if isinstance(item, Switches)]


def test_an_aged_c_line_is_stamped_when_its_changes_happened():
    """PROTOCOL.md, Options: with `age`, a C line ends with @AGE, the milliseconds between when
    its changes most likely happened and the line; the host's frame carries that time."""
    hello = next(v for v in VECTORS["lines"] if v["type"] == "H" and v.get("options"))
    aged = next(v for v in VECTORS["lines"] if "age_ms" in v)
    link, emitted = link_on()
    link.feed(hello["line"].encode(), 10.0)
    assert link.hello.options == tuple(hello["options"])
    link.feed(encode("S", aged["seq"] - 1, encode_bitmap({12}, 28)), 10.0)
    link.feed(aged["line"].encode(), 20.0)
    sensors = {12}
    for index, occupied in aged["changes"]:
        (sensors.add if occupied else sensors.discard)(index)
    assert frames_of(emitted)[-1] == Switches(20.0 - aged["age_ms"] / 1000, frozenset(sensors))


def test_an_age_never_stamps_a_change_before_the_frame_before_it():
    link, emitted = link_on()
    link.feed(encode("H", 0, "1 fw 4 7 36 age"), 0.0)
    link.feed(encode("S", 1, encode_bitmap({0}, 28)), 10.0)
    link.feed(encode("C", 2, "1+ @5000"), 10.5)  # seen 5 s before: before the S at 10 s
    link.feed(encode("C", 3, "2+ @300"), 10.9)
    assert [f.t for f in frames_of(emitted)] == [10.0, 10.0, pytest.approx(10.6)]


@pytest.mark.parametrize("payload", ["5+ @x", "@7", "5+ @123456", "5+ @7 6+", "5+ @-7", "5+ @"])
def test_a_garbled_age_makes_a_bad_line(payload):
    link, emitted = link_on()
    link.feed(encode("H", 0, "1 fw 4 7 36 age"), 0.0)
    link.feed(encode("S", 1, encode_bitmap({0}, 28)), 0.0)
    assert not link.feed(encode("C", 2, payload), 1.0)
    assert link.stats.lines_bad == 1 and frames_of(emitted)[-1].closed == {0}


@given(st.binary(max_size=1100))
def test_decode_never_raises(data):
    line = decode(data)
    assert line is None or (data.endswith(b"\n") and len(data) <= MAX_LINE)
    for raw in LineSplitter().feed(data):
        decode(raw)


@settings(max_examples=seeds(300), deadline=None)
@given(st.sampled_from("HSCBEVLDZR"), st.integers(0, 255),
       st.lists(st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E, blacklist_characters="*"),
                        min_size=1, max_size=12), max_size=6))
def test_encode_decode_round_trip(type, seq, fields):
    assert decode(encode(type, seq, fields)) == Line(type, seq, tuple(fields))


# --- through a pty ------------------------------------------------------------------------------

def test_s_then_c_lines_give_the_frames(rig):
    fake = rig.pico(BIGBALLS, {0, 1})
    sb = rig.host(fake)

    async def main():
        listener = Listener(sb)
        assert (await listener.frame()).occupied == {"a1", "b1"}  # right after the first S
        fake.change("5+")
        assert (await listener.frame()).occupied == {"a1", "b1", "f1"}
        fake.change("0-", "13+")
        assert (await listener.frame()).occupied == {"b1", "f1", "a3"}
        fake.state()  # the heartbeat: no change, no frame
        fake.change("13-")
        assert (await listener.frame()).occupied == {"b1", "f1"}
        assert sb.in_step and sb.occupied == {"b1", "f1"}
        await listener.stop()

    asyncio.run(main())
    assert fake.sent("V")[0] == Line("V", 0, ("1", "age"))  # asking how old changes are
    assert (sb.stats.lines_ok, sb.stats.lines_bad, sb.stats.gaps, sb.stats.duplicates) == (6, 0, 0, 0)
    assert sb.firmware.firmware == "fake-1.0"


def test_sensors_wired_to_no_cell_are_ignored(rig):
    assert 75 not in OFFBOARD.sensor.values()
    fake = rig.pico(OFFBOARD, {0, 75})
    sb = rig.host(fake)

    async def main():
        listener = Listener(sb)
        assert (await listener.frame()).occupied == cells_of(OFFBOARD, {0})
        fake.change("76+")  # no cell: no change, no frame
        fake.change("1+")
        assert (await listener.frame()).occupied == cells_of(OFFBOARD, {0, 1})
        await listener.stop()

    asyncio.run(main())


def test_a_bad_checksum_line_is_dropped(rig):
    fake = rig.pico(BIGBALLS, {0})
    sb = rig.host(fake)

    async def main():
        listener = Listener(sb)
        await listener.frame()
        # noise with the next sequence number and a wrong CRC: dropped, no gap after it
        good = encode("C", fake.seq.peek(), "9+")
        fake.write(good[:-3] + (b"00" if good[-3:-1] != b"00" else b"01") + b"\n")
        fake.write(b"\x00\xff garbage \x13\x11\n")
        fake.change("10+")
        assert (await listener.frame()).occupied == {"a1", "d2"}  # sensor 10 (d2) without 9 (c2)
        assert sb.stats.lines_bad == 2 and sb.stats.gaps == 0 and not fake.sent("R")
        await listener.stop()

    asyncio.run(main())


def test_a_sequence_gap_sends_r_and_trusts_nothing_until_s(rig):
    fake = rig.pico(BIGBALLS, {0}, answer_r=False)
    sb = rig.host(fake)

    async def main():
        listener = Listener(sb)
        assert (await listener.frame()).occupied == {"a1"}
        with fake._write_lock:  # a C lost on the way: the board changed, the host never heard it
            fake.sensors.add(20)
            fake.lose()
        fake.change("21+")
        fake.wait_for("R")
        await until(lambda: not sb.in_step)
        fake.change("22+")  # in sequence, but the host is out of step: no frame
        fake.send("B", "ok short")  # presses still count
        assert (await listener.press()).button is Button.OK
        assert sb.occupied == {"a1"}  # nothing applied while out of step
        fake.state()
        assert (await listener.frame()).occupied == {"a1", "c4", "d4", "a5"}  # the first frame since the gap
        assert sb.in_step and sb.stats.gaps == 1
        await listener.stop()

    asyncio.run(main())


def test_duplicates_are_dropped(rig):
    fake = rig.pico(BIGBALLS, set())
    sb = rig.host(fake)

    async def main():
        listener = Listener(sb)
        assert (await listener.frame()).occupied == frozenset()
        press = fake.send("B", "die short")
        fake.write(press)  # the same line again
        line = fake.change("5+")
        fake.write(encode("C", decode(line).seq, "6+"))  # another line repeating the sequence number
        fake.change("7+")
        assert (await listener.frame()).occupied == {"f1"}
        assert (await listener.frame()).occupied == {"f1", "a2"}  # without 6
        assert (await listener.press()).button is Button.DIE
        await asyncio.sleep(0.05)
        assert listener.presses.empty()  # one press, not two
        await listener.stop()

    asyncio.run(main())
    assert sb.stats.duplicates == 2 and sb.stats.gaps == 0 and not fake.sent("R")


def test_button_lines_become_presses(rig):
    fake = rig.pico(BIGBALLS)
    sb = rig.host(fake, clock=lambda: 42.5)

    async def main():
        listener = Listener(sb)
        await listener.frame()
        fake.send("B", "die short")
        fake.send("B", "ok long")
        fake.send("B", "ok sideways")  # a bad line
        fake.send("B", "die long")
        assert await listener.press() == Press(42.5, Button.DIE, False)
        assert await listener.press() == Press(42.5, Button.OK, True)
        assert await listener.press() == Press(42.5, Button.DIE, True)
        await listener.stop()

    asyncio.run(main())
    assert sb.stats.lines_bad == 1


def test_lights_die_and_buzzer_send_l_d_and_z(rig):
    board = replace(BIGBALLS, budget_ma=300.0)  # small enough that the frame is dimmed
    fake = rig.pico(board)
    sb = rig.host(fake)
    frame = LightFrame(cells={"a1": Light("fill", blink=True), "b1": Light("winner"),
                              "g1": Light("empty", blink=True), "a7": Light("last")},
                       die_pips=5, turn="red")

    async def main():
        listener = Listener(sb)
        await listener.frame()
        sb.show(frame)
        sb.show(DieState(DieFace.VALUE, 4))
        sb.show(DieState(DieFace.ROLLING))
        sb.show(DieState(DieFace.ERROR, 3))
        sb.show(DieState())
        for cue in Cue:
            sb.play(cue)
        fake.wait_for("Z", fake.wait_for("Z")[0] + len(Cue) - 1)
        await listener.stop()

    asyncio.run(main())
    (l_line,) = fake.sent("L")
    text, blink = l_line.fields
    colours = [tuple(int(text[i + j:i + j + 2], 16) for j in (0, 2, 4)) for i in range(0, len(text), 6)]
    full, blinking = chain(frame, board)
    assert colours == capped(full, board.budget_ma) and colours != full
    assert current_ma(colours) <= board.budget_ma
    assert colours[BIGBALLS.led["b1"]] != (0, 0, 0) and colours[BIGBALLS.led["c1"]] == (0, 0, 0)
    assert decode_bitmap(blink, board.led_count) == {BIGBALLS.led["a1"], BIGBALLS.led["g1"]}
    assert [line.payload for line in fake.sent("D")] == ["4", "rolling", "error", "blank"]
    assert [line.payload for line in fake.sent("Z")] == [cue.value for cue in Cue]
    seqs = [line.seq for line in fake.received if line is not None]
    assert seqs == list(range(len(seqs)))  # V first, then +1 a line
    with pytest.raises(TypeError):
        sb.show("red")


def test_a_board_of_another_protocol_version_is_refused(rig):
    fake = rig.pico(BIGBALLS, {0}, version="2")
    sb = rig.host(fake)

    async def main():
        listener = Listener(sb)
        refused = await listener.frame()
        assert isinstance(refused, BoardRefused)
        assert (await listener.press()).args == refused.args  # presses() ends the same way
        with pytest.raises(BoardRefused):
            await sb.frames().__anext__()
        await until(lambda: sb.refused is not None and not sb.connected)
        await listener.stop()
        return str(refused)

    message = asyncio.run(main())
    assert "protocol version 2" in message and "version 1" in message and fake.path in message
    assert sb.refused == message and not sb.connected
    assert len(fake.sent("V")) == 1  # refused for good: no more greetings
    with pytest.raises(BoardRefused, match="version 2"):
        rig.host(fake).probe(timeout=1.0)


def test_a_board_with_another_matrix_is_refused(rig):
    fake = rig.pico(BIGBALLS, rows=8)
    with pytest.raises(BoardRefused, match="8x7 matrix but .* says 4x7"):
        rig.host(fake).probe(timeout=1.0)


def test_the_host_greets_again_after_3_s_of_silence(rig):
    """On the link's own clock, which the test moves: no greeting before 3 s of silence, one
    at 3 s. Each time the clock moves, the test waits until the reader has looked at it."""
    fake = rig.pico(BIGBALLS)
    now = [0.0]
    sb = rig.host(fake, timer=lambda: now[0])

    async def main():
        listener = Listener(sb)
        await listener.frame()  # the board's H and S were heard at 0 s
        await listener.stop()

    asyncio.run(main())
    first, _ = fake.wait_for("V")
    now[0] = 2.99  # just short of the silence: the reader must not greet
    assert sb.addresses.reader_went_round()
    sb.show(DieState(DieFace.VALUE, 4))  # behind anything the reader queued
    fake.wait_for("D", first + 1)
    assert len(fake.sent("V")) == 1
    now[0] = 3.0
    assert sb.addresses.reader_went_round()
    fake.wait_for("V", first + 1)


def test_the_host_greets_a_board_that_knows_no_options_with_a_bare_version(rig):
    """PROTOCOL.md, Options: the host asks for the age of changes; a board whose H names no
    options (older firmware) is greeted with a bare V 1 from then on."""
    fake = rig.pico(BIGBALLS)  # its H has the five fields of old
    now = [0.0]
    sb = rig.host(fake, timer=lambda: now[0])

    async def main():
        listener = Listener(sb)
        await listener.frame()
        await listener.stop()

    asyncio.run(main())
    first, greeting = fake.wait_for("V")
    assert greeting.fields == ("1", "age") and sb.firmware.options == ()
    now[0] = 3.0  # silent for 3 s: greeted again
    assert sb.addresses.reader_went_round()
    _, again = fake.wait_for("V", first + 1)
    assert again.fields == ("1",)


def test_the_host_greets_until_the_board_says_hello(rig):
    fake = rig.pico(BIGBALLS, answer_v=False)
    sb = rig.host(fake, silence=0.3)

    async def main():
        listener = Listener(sb)
        for _ in range(5):
            fake.state()  # heard, but without H the host trusts none of it
            await asyncio.sleep(0.1)
        assert len(fake.sent("V")) >= 2 and listener.frames.empty()
        fake.send("H", fake.hello)
        fake.state()
        assert (await listener.frame()).occupied == frozenset()
        await listener.stop()

    asyncio.run(main())


def test_reconnects_when_the_port_vanishes_and_comes_back(rig):
    """A pulled cable: reads fail, the device is gone (opening fails), then a re-plug gives a new
    device with a freshly booted Pico whose pieces moved meanwhile."""
    first = rig.pico(BIGBALLS, {0, 1})
    state = SimpleNamespace(path=first.path, plugged=True, failed_opens=0)

    def factory(port, **kwargs):
        assert port == "/dev/reedboard-pico"
        if not state.plugged:
            state.failed_opens += 1
            raise serial.SerialException(f"[Errno 2] could not open port {port}: No such file or directory")
        return serial.serial_for_url(state.path, **kwargs)

    sb = rig.host(board=BIGBALLS, port="/dev/reedboard-pico", serial_factory=factory)
    lights = LightFrame(cells={"c1": Light("fill", blink=True)})

    async def main():
        listener = Listener(sb)
        assert (await listener.frame()).occupied == {"a1", "b1"}
        sb.show(lights)
        sb.show(DieState(DieFace.VALUE, 6))
        first.wait_for("D")

        state.plugged = False
        unplugged = time.monotonic()
        first.unplug()
        await until(lambda: not sb.connected, timeout=2.0)
        lost = time.monotonic() - unplugged
        second = rig.pico(BIGBALLS, {1, 5, 27})  # moved while unplugged
        await until(lambda: state.failed_opens >= 1, timeout=2.0)
        assert sb.occupied == {"a1", "b1"} and listener.frames.empty()  # no frame while away

        state.path, state.plugged = second.path, True
        start = time.monotonic()
        frame = await listener.frame(timeout=2.0)
        recovered = time.monotonic() - start
        assert frame.occupied == second.cells() == {"b1", "f1", "a7"}
        assert sb.in_step and sb.occupied == second.cells() and sb.stats.reconnects == 1
        # the Pico got the lights and the die display back
        assert second.wait_for("L")[1].payload == light_payload(lights, BIGBALLS)
        assert second.wait_for("D")[1].payload == "6"
        second.change("1-")
        assert (await listener.frame()).occupied == {"f1", "a7"}
        await listener.stop()
        return lost, recovered

    lost, recovered = asyncio.run(main())
    assert lost < 1.0 and recovered < 2.0, (lost, recovered)
    print(f"port loss noticed in {lost * 1000:.0f} ms, recovered {recovered * 1000:.0f} ms after the re-plug")


def test_probe_for_doctor(rig, mocker):
    fake = rig.pico(BIGBALLS, {2, 3})
    sb = rig.host(fake)
    assert sb.probe(timeout=1.0) == {"c1", "d1"}
    assert sb.firmware.firmware == "fake-1.0" and not sb.connected

    silent = rig.pico(BIGBALLS, answer_v=False)
    with pytest.raises(SerialBoardError, match=f"opened {silent.path} at 115200 baud and sent V 1.*heard nothing"):
        rig.host(silent).probe(timeout=0.3)

    no_s = rig.pico(BIGBALLS, send_s=False)
    with pytest.raises(SerialBoardError, match="no S"):
        rig.host(no_s).probe(timeout=0.3)

    with pytest.raises(SerialBoardError, match="cannot open /nonexistent/tty"):
        SerialBoard(BIGBALLS, "/nonexistent/tty").probe(timeout=0.3)

    mocker.patch("serial.tools.list_ports.comports",
                 return_value=[SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, description="FT232R")])
    with pytest.raises(SerialBoardError, match="no Raspberry Pi Pico found.*2e8a.*ttyUSB0"):
        SerialBoard(BIGBALLS, "auto").probe(timeout=0.3)


def test_probe_starts_a_fresh_line_and_greets_again_after_line_noise(rig):
    """Noise on the wire glues itself to a line: to the board's hello (here), or to the host's V
    (tests/test_doctor.py). The probe starts its greeting on a fresh line and greets again."""
    fake = rig.pico(BIGBALLS, {2}, answer_v=False)
    now = [0.0]  # the probe's clock: it moves only when the board below has spoken

    def board() -> None:
        try:
            first, _ = fake.wait_for("V")
            fake.write(b"\x00 half a line")  # the H that follows is one bad line with it
            fake.send("H", fake.hello)
            fake.state()
            now[0] += 0.6  # a third of the timeout later: time to greet again
            fake.wait_for("V", first + 1)
            fake.send("H", fake.hello)
            fake.state()
        except BaseException:
            now[0] += 100  # the probe gives up instead of waiting for ever
            raise

    answering = threading.Thread(target=board, daemon=True)
    answering.start()
    host = rig.host(fake)
    host.addresses._timer = lambda: now[0]
    assert host.probe(timeout=1.5) == {"c1"}
    answering.join()
    assert fake.received[0] is None and fake.received[1].type == "V"  # a blank line, then V


def test_find_port(mocker):
    comports = mocker.patch("serial.tools.list_ports.comports")
    comports.return_value = [SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403),
                             SimpleNamespace(device="/dev/ttyS0", vid=None),
                             SimpleNamespace(device="/dev/ttyACM1", vid=PICO_VID)]
    assert find_port() == "/dev/ttyACM1"
    comports.return_value = [SimpleNamespace(device="/dev/ttyS0", vid=None)]
    assert find_port() is None


# --- fuzzing ------------------------------------------------------------------------------------

class SimPico:
    """The true board for fuzzing: its lines and its state after each."""

    def __init__(self, rng: random.Random, count: int) -> None:
        self.rng, self.count = rng, count
        self.sensors: set[int] = set()
        self.seq = 0
        self.requested = False

    def line(self, type: str, payload: str = "") -> tuple[bytes, frozenset[int]]:
        raw = encode(type, self.seq, payload)
        self.seq = (self.seq + 1) & 0xFF
        return raw, frozenset(self.sensors)

    def next_lines(self) -> list[tuple[bytes, frozenset[int]]]:
        rng = self.rng
        if self.requested:
            self.requested = False
            return [self.line("S", encode_bitmap(self.sensors, self.count))]
        roll = rng.random()
        if roll < 0.60:
            changes = []
            for index in rng.sample(range(self.count), rng.randint(1, 3)):
                sign = "-" if index in self.sensors else "+"
                (self.sensors.discard if sign == "-" else self.sensors.add)(index)
                changes.append(f"{index}{sign}")
            return [self.line("C", " ".join(changes))]
        if roll < 0.72:
            return [self.line("S", encode_bitmap(self.sensors, self.count))]
        if roll < 0.84:
            return [self.line("B", f"{rng.choice(['die', 'ok'])} {rng.choice(['short', 'long'])}")]
        if roll < 0.88:
            return [self.line("E", "bad L: 3 colours for 74 LEDs")]
        if roll < 0.90:  # a reboot: numbering starts again
            self.seq = 0
            return [self.line("H", "1 fw-1.0 8 10 74"), self.line("S", encode_bitmap(self.sensors, self.count))]
        # several changes in a row, one a line
        lines = []
        for index in rng.sample(range(self.count), 3):
            sign = "-" if index in self.sensors else "+"
            (self.sensors.discard if sign == "-" else self.sensors.add)(index)
            lines.append(self.line("C", f"{index}{sign}"))
        return lines


def channel(rng: random.Random, lines: list[tuple[bytes, frozenset[int]]], reorder: bool = True):
    """The noisy cable: each item is (bytes delivered, the state if they are one intact line).
    With `reorder`, now and then two lines change places (no serial cable does that, but it
    exercises the sequence numbers)."""
    held = None
    for raw, truth in lines:
        if rng.random() < 0.05:  # noise between lines
            noise = bytes(rng.randrange(256) for _ in range(rng.randint(1, 60)))
            if rng.random() < 0.03:
                noise = bytes(rng.randrange(32, 127) for _ in range(rng.randint(1100, 3000)))
            yield noise + (b"\n" if rng.random() < 0.5 else b""), None
        fate = rng.random()
        if fate < 0.66:
            items = [(raw, truth)]
        elif fate < 0.72:  # lost
            items = []
        elif fate < 0.78:  # repeated
            items = [(raw, truth), (raw, truth)]
        elif fate < 0.83:  # cut: the rest never arrives, the next line is glued to it
            items = [(raw[: rng.randint(1, len(raw) - 2)], None)]
        elif fate < 0.88:  # a wrong checksum
            crc = int(raw[-3:-1], 16)
            items = [(raw[:-3] + f"{(crc + rng.randint(1, 255)) & 0xFF:02x}".encode() + b"\n", None)]
        elif fate < 0.93:  # a flipped bit
            at = rng.randrange(len(raw))
            items = [(raw[:at] + bytes([raw[at] ^ (1 << rng.randrange(8))]) + raw[at + 1 :], None)]
        elif fate < 0.97:  # swapped with the next line
            if held is None and reorder:
                held = (raw, truth)
                continue
            items = [(raw, truth)]
        else:  # upper-case sequence number: bad
            items = [(raw[:2] + raw[2:4].upper() + raw[4:], None if raw[2:4] != raw[2:4].upper() else truth)]
        yield from items
        if held is not None and items:
            yield held
            held = None


def test_fuzzed_lines_never_crash_the_host_nor_give_a_wrong_frame():
    """10,000 inputs of a noisy cable fed to the host's line handling: every frame it emits,
    and its occupancy whenever it says it is in step, is the true board's as of the last line
    it accepted (the last S plus the C lines after it)."""
    rng = random.Random(20251129)
    board = OFFBOARD
    pico = SimPico(rng, board.rows * board.columns)
    emitted: list = []
    sent: list[str] = []
    now = [0.0]

    def send(type: str, payload: str) -> None:
        sent.append(type)
        if type == "R" and rng.random() < 0.8:  # some R are lost too
            pico.requested = True

    link = HostLink(board, send, emitted.append)
    splitter = LineSplitter()
    origin: dict[bytes, frozenset[int]] = {}  # an intact line -> the true state after it
    believed = None  # the true state as of the last intact line the host was given
    inputs = frames = in_step_checks = fabricated = collisions = 0
    link.feed(b"H 00 1 fw-1.0 8 10 74*" + f"{crc8(b'H 00 1 fw-1.0 8 10 74'):02x}".encode() + b"\n", 0.0)
    pico.seq = 1
    started = time.monotonic()
    while inputs < 10_000:
        lines = pico.next_lines()
        for raw, truth in lines:
            origin[raw] = truth
        for data, _ in channel(rng, lines):
            inputs += 1
            now[0] += 0.02
            for raw in splitter.feed(data):
                before, accepted = len(emitted), link.stats.lines_ok
                known = origin.get(raw)
                link.feed(raw, now[0])
                if known is not None:
                    believed = known
                elif link.stats.lines_ok > accepted:
                    fabricated += 1  # noise the host took for a line: it would be believed
                elif decode(raw) is not None:
                    collisions += 1  # mangled, yet its CRC fits: refused for its payload
                for item in emitted[before:]:
                    if isinstance(item, Switches):
                        frames += 1
                        assert known is not None, f"a frame from a line the board never sent: {raw!r}"
                        assert item.closed == known
                if link.in_step:
                    in_step_checks += 1
                    assert link.sensors == believed
    elapsed = time.monotonic() - started
    stats = link.stats
    print(f"\n{inputs} inputs in {elapsed:.2f} s: {frames} frames, in step at {in_step_checks} checks, {stats},"
          f" {sent.count('R')} R sent, {splitter.overlong} overlong, {collisions} CRC collisions")
    assert fabricated == 0
    assert frames > 1000 and in_step_checks > 4000  # the checks did check something
    assert stats.gaps > 300 and stats.duplicates > 300 and stats.lines_bad > 1000 and splitter.overlong > 0
    assert not any(isinstance(item, BoardRefused) for item in emitted)
    # and it is back in step at the next S
    link.feed(encode("S", 0x42, encode_bitmap(pico.sensors, pico.count)), now[0])
    assert link.in_step and link.sensors == pico.sensors


def test_fuzzed_bytes_through_the_pty(rig):
    """A shorter noisy stream through the real port and reader thread: the frames are the true
    states in order (some skipped, never a false one), and the host ends in step."""
    rng = random.Random(7)
    fake = rig.pico(OFFBOARD, {0})
    sb = rig.host(fake)

    async def main():
        listener = Listener(sb)
        await listener.frame()
        sim = SimPico(rng, fake.count)
        for _ in range(1500):
            lines = []
            with fake._write_lock:
                for raw, _ in sim.next_lines():
                    line = decode(raw)
                    if line.type == "H":
                        continue
                    if line.type == "C":  # the fake's own state and numbering, the sim's content
                        for change in line.fields:
                            (fake.sensors.add if change[-1] == "+" else fake.sensors.discard)(int(change[:-1]))
                    elif line.type == "S":
                        fake.sensors = set(decode_bitmap(line.fields[0], fake.count))
                    seq = fake.seq.next()
                    fake.history.append(frozenset(fake.sensors))
                    lines.append((encode(line.type, seq, line.fields), None))
                data = b"".join(d for d, _ in channel(rng, lines, reorder=False))
                fake.write(data)
            sim.sensors = set(fake.sensors)
        fake.write(b"\n")
        fake.state()
        await until(lambda: sb.in_step and sb.occupied == fake.cells(), timeout=5.0)
        await asyncio.sleep(0.05)
        truth = [cells_of(OFFBOARD, s) for s in fake.history]
        got = []
        while not listener.frames.empty():
            got.append(listener.frames.get_nowait())
        assert got and got[-1].occupied == fake.cells()
        position = 0
        for frame in got:  # a subsequence of the true states
            while truth[position] != frame.occupied:
                position += 1
                assert position < len(truth), f"a frame that was never the board's: {sorted(frame.occupied)}"
        await listener.stop()
        return len(got)

    count = asyncio.run(main())
    assert sb.in_step and sb.occupied == fake.cells()
    assert count > 20 and sb.stats.lines_bad > 100 and sb.stats.gaps > 50, (count, sb.stats)
