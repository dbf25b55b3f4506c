"""`reedboard doctor` and `reedboard fake-board`: which backend answers and what it senses."""

import subprocess
from pathlib import Path

import pytest
import serial

from reedboard.controller.commands.cli import main
from reedboard.controller.games import BigBalls

from command_line import start_reedboard

pytestmark = pytest.mark.system

START = [c for c in BigBalls().cells if c in BigBalls().occupied()]


@pytest.fixture
def fake_board():
    process = start_reedboard("fake-board", "bigballs", stdin=subprocess.PIPE)
    first = process.stdout.readline()
    assert first.startswith("port: /dev/pts/"), first
    yield process, first.split()[1]
    process.stdin.write("quit\n")
    process.stdin.close()
    process.wait(timeout=10)


def test_doctor_reads_the_start_position_from_the_fake_board(fake_board):
    process, port = fake_board
    doctor = start_reedboard("doctor", "--hal", "serial", "--port", port)
    out, err = doctor.communicate(timeout=30)
    assert doctor.returncode == 0, err
    lines = out.splitlines()
    assert lines[0] == f"backend: serial (Pico on {port})"
    assert lines[-1] == "occupied: " + " ".join(START) and len(START) == 18
    process.stdin.write("lift a5\n")
    process.stdin.flush()
    assert process.stdout.readline().startswith("lifted a5")  # the fake board has done it
    doctor = start_reedboard("doctor", "--hal", "serial", "--port", port)
    out, _ = doctor.communicate(timeout=30)
    assert out.splitlines()[-1] == "occupied: " + " ".join(c for c in START if c != "a5")


def test_doctor_on_the_simulated_board(capsys):
    assert main(["doctor", "--hal", "sim"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "occupied: " + " ".join(START)


def test_doctor_says_what_it_tried_when_no_board_answers(capsys, tmp_path):
    assert main(["doctor", "--hal", "serial", "--port", str(tmp_path / "ttyNONE")]) == 1
    out = capsys.readouterr().out
    assert "no board could be reached" in out and "ttyNONE" in out
    assert main(["doctor", "--hal", "gpio"]) == 1
    assert "gpio: no GPIO pins here" in capsys.readouterr().out


def test_doctor_with_a_bad_board_file_is_a_usage_error(capsys, tmp_path):
    bad = tmp_path / "board.toml"
    bad.write_text("[board]\ngame = 'bigballs'\n")
    assert main(["doctor", "--hal", "sim", "--board", str(bad)]) == 2
    assert "board.toml: missing [matrix] table" in capsys.readouterr().err


def test_fake_board_refuses_bad_commands():
    process = start_reedboard("fake-board", "offboard", stdin=subprocess.PIPE)
    assert process.stdout.readline().startswith("port: ")
    out, err = process.communicate("lift Z9\nwiggle\nquit\n", timeout=10)
    assert process.returncode == 0
    assert len((out + err).strip().splitlines()) == 2 and "Z9" in out + err


def test_firmware_folder_is_where_the_fake_board_looks():
    assert (Path(__file__).resolve().parent.parent / "firmware" / "app.py").exists()


def test_doctor_answers_at_once_after_line_noise_on_the_port(fake_board):
    """Bytes without a newline left on the port (a terminal program, a half-written line) glue
    themselves to the first greeting: the doctor starts on a fresh line and greets again."""
    process, port = fake_board
    for noise in (b"\x03\x04 garbage with no newline", b"AT+GMR"):
        with serial.Serial(port, 115200, timeout=0.1) as line:
            line.write(noise)
            line.flush()
        doctor = start_reedboard("doctor", "--hal", "serial", "--port", port)
        out, err = doctor.communicate(timeout=30)
        assert doctor.returncode == 0, out + err
        assert out.splitlines()[-1] == "occupied: " + " ".join(START)


def test_doctor_checks_the_machine_and_keeps_occupied_last(capsys, monkeypatch):
    from reedboard.controller.workshop import pi_checks

    facts = pi_checks.PiFacts(model="Raspberry Pi 4 Model B Rev 1.5", user="pi", groups=frozenset({"gpio"}),
                              session_groups=frozenset({"gpio"}), existing_groups=frozenset(pi_checks.GROUPS),
                              spi_devices=["/dev/spidev0.0"], i2c_devices=[])
    monkeypatch.setattr(pi_checks, "gather_facts", lambda port=None: facts)
    assert main(["doctor", "--hal", "sim"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "occupied: " + " ".join(START)
    assert "pi: Raspberry Pi 4 Model B Rev 1.5" in lines
    assert "    fix: sudo usermod -aG dialout pi, then log out and in" in lines
    assert "    fix: sudo raspi-config nonint do_i2c 0, then reboot" in lines


def test_doctor_off_a_pi_says_so_in_one_line(capsys, monkeypatch):
    from reedboard.controller.workshop import pi_checks

    monkeypatch.setattr(pi_checks, "read_model", lambda path=None: None)
    assert main(["doctor", "--hal", "sim"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line for line in lines if line.startswith("pi:")] == [
        "pi: not a Raspberry Pi (no 'Raspberry Pi' in /proc/device-tree/model): the Pi's checks are skipped"]


def test_doctor_gives_the_fix_for_a_firmware_of_another_protocol(capsys, monkeypatch):
    from reedboard.controller.workshop import doctor as doctor_module
    from reedboard.hal.backends import NoBoard

    def refused(*args, **kwargs):
        raise NoBoard(["serial: /dev/ttyACM0: the board speaks protocol version 2 (firmware fw-2.0) and this"
                       " controller speaks version 1: flash the firmware that matches this controller"])
    monkeypatch.setattr(doctor_module, "find_board", refused)
    assert main(["doctor", "--hal", "serial", "--port", "/dev/ttyACM0"]) == 1
    assert "    fix: reedboard firmware install --port /dev/ttyACM0" in capsys.readouterr().out.splitlines()


def test_doctor_takes_a_shipped_boards_name_as_firmware_install_does(capsys, tmp_path, monkeypatch):
    from reedboard.controller.games import OffBoard

    assert main(["doctor", "--hal", "sim", "--board", "offboard"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "board: offboard, hardware/boards/offboard.toml, 73 cells on a 8x10 matrix"
    assert lines[-1] == "occupied: " + " ".join(c for c in OffBoard().cells if c in OffBoard().occupied())
    # a file of that name here is the file: a name never hides a board file
    monkeypatch.chdir(tmp_path)
    (tmp_path / "offboard").write_text((Path(__file__).resolve().parents[1] / "hardware" / "boards" /
                                        "bigballs.toml").read_text())
    assert main(["doctor", "--hal", "sim", "--board", "offboard"]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("board: offboard, offboard, 28 cells")
