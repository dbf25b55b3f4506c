"""`reedboard doctor`'s checks of the Raspberry Pi: each finding with the command that fixes it."""

import subprocess
import sys
import time

import pytest

from reedboard.controller.workshop.pi_checks import (
    GROUPS, PiFacts, findings, port_holders, protocol_finding, read_model, report_lines,
)

pytestmark = pytest.mark.system

MODEL = "Raspberry Pi 5 Model B Rev 1.0"


def pi(**changes):
    """A Pi set up as a board needs it; `changes` spoil it."""
    facts = dict(model=MODEL, user="pi", groups=frozenset(GROUPS), session_groups=frozenset(GROUPS),
                 existing_groups=frozenset(GROUPS), spi_devices=["/dev/spidev0.0"], i2c_devices=["/dev/i2c-1"],
                 port="/dev/ttyACM0", port_holders=[])
    facts.update(changes)
    return PiFacts(**facts)


def test_a_pi_set_up_right_has_nothing_to_fix():
    assert findings(pi()) == []
    assert report_lines(pi()) == [f"pi: {MODEL}", "  groups, SPI, I2C and the serial port: all good"]


def test_a_missing_group_says_the_usermod_command():
    found = findings(pi(groups=frozenset(GROUPS) - {"dialout"}, session_groups=frozenset(GROUPS) - {"dialout"}))
    assert [f.fix for f in found] == ["sudo usermod -aG dialout pi, then log out and in"]
    assert "dialout" in found[0].problem and "serial port" in found[0].problem


def test_a_group_added_but_not_yet_in_this_login_says_log_out_and_in():
    found = findings(pi(session_groups=frozenset(GROUPS) - {"spi"}))
    assert len(found) == 1 and "predates" in found[0].problem and found[0].fix == "log out and in (or reboot)"


def test_groups_the_system_lacks_and_root_are_not_findings():
    assert findings(pi(groups=frozenset(), existing_groups=frozenset({"dialout"})))[0].fix.startswith(
        "sudo usermod -aG dialout")
    assert findings(pi(user="root", groups=frozenset(), session_groups=frozenset())) == []


def test_spi_and_i2c_off_say_the_raspi_config_commands():
    fixes = [f.fix for f in findings(pi(spi_devices=[], i2c_devices=[]))]
    assert fixes == ["sudo raspi-config nonint do_spi 0, then reboot", "sudo raspi-config nonint do_i2c 0, then reboot"]


def test_a_port_held_by_another_program_names_it():
    found = findings(pi(port_holders=[(4242, "minicom -D /dev/ttyACM0")]))
    assert len(found) == 1 and "minicom" in found[0].problem and "4242" in found[0].problem
    assert found[0].fix == "close that program, or: kill 4242"
    found = findings(pi(port_holders=[(77, "/home/pi/.venv/bin/python /home/pi/.venv/bin/reedboard play")]))
    assert found[0].fix.startswith("sudo systemctl stop reedboard")


def test_not_a_pi_is_one_line_and_skips_the_pi_checks():
    lines = report_lines(pi(model=None, groups=frozenset(), spi_devices=[], i2c_devices=[]))
    assert len(lines) == 1 and lines[0].startswith("pi: not a Raspberry Pi")
    assert report_lines(pi(model="Generic DT based system", spi_devices=[]))[0].startswith("pi: not a Raspberry Pi")


def test_each_finding_is_printed_with_its_fix():
    lines = report_lines(pi(spi_devices=[]), [protocol_finding("2", "fw-0.9", 1, "/dev/ttyACM0")])
    assert lines[1:] == ["  problem: SPI is off (no /dev/spidev*): the LED chain of a Pi 5 is driven over SPI",
                         "    fix: sudo raspi-config nonint do_spi 0, then reboot",
                         "  problem: the Pico's firmware fw-0.9 speaks protocol 2; this controller speaks 1",
                         "    fix: reedboard firmware install --port /dev/ttyACM0"]
    assert protocol_finding("1", "fw-1.0", 1, None) is None


def test_the_model_file_is_read_without_its_trailing_nul(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(MODEL.encode() + b"\0")
    assert read_model(model) == MODEL
    assert read_model(tmp_path / "none") is None


def test_port_holders_finds_another_process_with_the_file_open(tmp_path):
    port = tmp_path / "ttyFAKE"
    port.write_text("")
    holder = subprocess.Popen([sys.executable, "-c", f"import sys; f = open({str(port)!r}); sys.stdin.read()"],
                              stdin=subprocess.PIPE, text=True)
    try:
        for _ in range(200):  # until the child has opened it
            held = port_holders(str(port))
            if held:
                break
            time.sleep(0.02)
        assert [pid for pid, _ in held] == [holder.pid] and "import sys" in held[0][1]
    finally:
        holder.communicate("", timeout=10)
    assert port_holders(str(port)) == []
    with open(port):  # this process's own use is not another program's
        assert port_holders(str(port)) == []
