"""The fake board end to end: the firmware's logic behind a real pty, spoken to with pyserial
as the serial backend would."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import serial

from reedboard.controller.commands.fake_board import main as fake_board_command
from reedboard.controller.games import GAMES
from reedboard.hal.board import load_board
from reedboard.hal.mock.fakeboard import FakeBoard, FakeBoardError, firmware

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parent.parent
protocol = firmware().protocol


class Host:
    """A minimal host side: send lines, read the board's lines with a deadline."""

    def __init__(self, port: str):
        self.serial = serial.Serial(port, 115200, timeout=0.05)
        self.serial.reset_input_buffer()
        self.seq = protocol.Seq()

    def send(self, kind: str, fields=()) -> None:
        self.serial.write(protocol.encode(kind, self.seq.next(), list(fields)).encode())

    def expect(self, kind: str, timeout: float = 2.0) -> tuple:
        """The next good line of this type (others are skipped)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            raw = self.serial.readline()
            if not raw:
                continue
            decoded = protocol.decode(raw)
            assert decoded is not None, raw
            if decoded[0] == kind:
                return decoded
        raise AssertionError(f"no {kind} line within {timeout} s")

    def close(self) -> None:
        self.serial.close()


@pytest.fixture
def fake():
    with FakeBoard("bigballs", occupied=GAMES["bigballs"]().occupied()) as board:
        yield board


@pytest.fixture
def host(fake):
    h = Host(fake.port)
    yield h
    h.close()


def sensors_of(bitmap: str, count: int) -> set[int]:
    return {i for i, bit in enumerate(protocol.parse_bitmap(bitmap, count)) if bit}


def test_hello_and_the_start_position(fake, host):
    board = load_board(game="bigballs")
    host.send("V", ["1"])
    kind, seq, fields = host.expect("H")
    assert fields[0] == "1" and fields[2:] == [str(board.rows), str(board.columns), str(board.led_count)]
    kind, next_seq, (bitmap,) = host.expect("S")
    assert next_seq == (seq + 1) % 256
    start = GAMES["bigballs"]().occupied()
    assert sensors_of(bitmap, board.rows * board.columns) == {board.sensor[c] for c in start}


def test_a_lifted_piece_is_a_change_line(fake, host):
    board = fake.board
    host.send("R")
    host.expect("S")
    fake.lift("a1")
    assert host.expect("C")[2] == [f"{board.sensor['a1']}-"]
    fake.place("D4")  # any letter case
    assert host.expect("C")[2] == [f"{board.sensor['d4']}+"]
    assert "d4" in fake.occupied and "a1" not in fake.occupied
    host.send("R")
    (bitmap,) = host.expect("S")[2]
    assert sensors_of(bitmap, board.rows * board.columns) == {board.sensor[c] for c in fake.occupied}


def test_a_light_frame_reaches_the_chain(fake, host):
    count = fake.board.led_count
    colours = [(i * 7 % 256, 255 - i, i) for i in range(count)]
    host.send("L", ["".join(f"{r:02x}{g:02x}{b:02x}" for r, g, b in colours), "0" * ((count + 3) // 4)])
    assert fake.wait_for(lambda: fake.leds == tuple(colours))
    assert fake.received[-1][0] == "L"


def test_a_frame_for_another_chain_is_refused(fake, host):
    host.send("L", ["ff0000" * 3, "0"])
    assert " ".join(host.expect("E")[2]) == f"bad L: 3 colours for {fake.board.led_count} LEDs"


def test_buttons_die_and_cues(fake, host):
    host.send("R")
    host.expect("S")
    fake.press("ok")
    assert host.expect("B")[2] == ["ok", "short"]
    host.send("D", ["5"])
    host.send("Z", ["ready"])
    assert fake.wait_for(lambda: fake.app.die == "5" and fake.app.cue == "ready")


def test_heartbeat_keeps_coming(fake, host):
    host.send("R")
    host.expect("S")
    started = time.monotonic()
    host.expect("S", timeout=1.5)  # the heartbeat, with nothing asked
    assert time.monotonic() - started <= 1.1


def test_bad_commands_are_named(fake):
    with pytest.raises(FakeBoardError, match="no cell"):
        fake.lift("z9")
    with pytest.raises(FakeBoardError, match="empty"):
        fake.lift("d4")
    with pytest.raises(FakeBoardError, match="occupied"):
        fake.place("a1")
    assert fake.command("dance").startswith("unknown command 'dance'")
    assert fake.command("press up") == "no button 'up': press die or press ok"
    assert fake.command("lift").startswith("unknown command 'lift'")


def test_every_command_is_answered(fake):
    board = fake.board
    assert fake.command("lift A1") == f"lifted a1: sensor {board.sensor['a1']} opens"
    assert fake.command("place d4") == f"placed d4: sensor {board.sensor['d4']} closes"
    assert fake.command("press ok long") == "pressed ok: held 1.3 s (a long press)"
    assert fake.command("lift a1") == "a1 is empty: nothing to lift"


def test_offboard_start_position():
    with FakeBoard("offboard", occupied=GAMES["offboard"]().occupied()) as fake:
        host = Host(fake.port)
        try:
            host.send("V", ["1"])
            assert host.expect("H")[2][2:] == ["8", "10", "74"]
            (bitmap,) = host.expect("S")[2]
            expected = {fake.board.sensor[c] for c in GAMES["offboard"]().occupied()}
            assert sensors_of(bitmap, 80) == expected
        finally:
            host.close()


def test_main_serves_until_quit():
    read_end, write_end = os.pipe()
    out_read, out_write = os.pipe()
    stdin, commands = os.fdopen(read_end, "r"), os.fdopen(write_end, "w")
    stdout, answers = os.fdopen(out_write, "w"), os.fdopen(out_read, "r")
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault("rc", fake_board_command("bigballs", stdin=stdin, stdout=stdout)))
    thread.start()
    try:
        first = answers.readline()
        assert first.startswith("port: /dev/")
        host = Host(first.split(": ", 1)[1].strip())
        try:
            commands.write("lift b1\n")
            commands.flush()
            board = load_board(game="bigballs")
            assert answers.readline() == f"lifted b1: sensor {board.sensor['b1']} opens\n"
            assert host.expect("C")[2] == [f"{board.sensor['b1']}-"]
            commands.write("bogus words\n")
            commands.flush()
            assert answers.readline().startswith("unknown command 'bogus words'")
            commands.write("press die\n")
            commands.flush()
            assert answers.readline() == "pressed die: held 0.15 s (a short press)\n"
            assert host.expect("B")[2] == ["die", "short"]
        finally:
            host.close()
        commands.write("quit\n")
        commands.flush()
        thread.join(timeout=3)
        assert not thread.is_alive() and result["rc"] == 0
    finally:
        commands.close()
        thread.join(timeout=3)
        for f in (stdin, stdout, answers):
            f.close()


def test_main_as_a_program():
    """As the CLI will run it: a process whose first line names the port."""
    code = "import sys; from controller.commands.fake_board import main; sys.exit(main('bigballs'))"
    process = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    try:
        port = process.stdout.readline().strip().removeprefix("port: ")
        host = Host(port)
        try:
            host.send("V", ["1"])
            assert host.expect("H")[2][0] == "1"
            process.stdin.write("place d4\nlift a9\n")
            process.stdin.flush()
            assert host.expect("C")[2] == [f"{load_board(game='bigballs').sensor['d4']}+"]
            assert process.stdout.readline().startswith("placed d4: sensor ")
            assert "a9" in process.stdout.readline()
        finally:
            host.close()
        process.stdin.write("quit\n")
        process.stdin.flush()
        assert process.wait(timeout=5) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
