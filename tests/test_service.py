"""`reedboard service`: the systemd unit that starts the board at boot (systemctl never runs here)."""

import configparser
import os
import pwd
import subprocess
import sys
from pathlib import Path

import pytest

from reedboard.controller.commands import service

from command_line import run_parsed

pytestmark = pytest.mark.system

ME = pwd.getpwuid(os.getuid()).pw_name
SCRIPT = Path(sys.executable).absolute().parent / "reedboard"


@pytest.fixture
def systemctl(monkeypatch):
    """The systemctl commands the service would run; each answers `status` (0: done)."""
    calls = []

    def fake(args):
        calls.append(list(args))
        return fake.status
    fake.status = 0
    fake.calls = calls
    monkeypatch.setattr(service, "systemctl", fake)
    monkeypatch.setattr(service, "systemd_here", lambda: True)
    return fake


def unit_lines(text):
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def test_dry_run_prints_the_unit_that_plays_from_this_venv(capsys, systemctl):
    assert run_parsed(service, ["service", "install", "--dry-run", "--user", ME]) == 0
    lines = unit_lines(capsys.readouterr().out)
    assert f"ExecStart={SCRIPT} play" in lines
    assert f"User={ME}" in lines and f"WorkingDirectory={pwd.getpwnam(ME).pw_dir}" in lines
    for line in ("Restart=on-failure", "RestartSec=5", "After=network-online.target",
                 "Wants=network-online.target", "WantedBy=multi-user.target"):
        assert line in lines
    assert systemctl.calls == []


def test_the_unit_starts_play_again_until_the_board_named_answers(capsys, systemctl):
    # `play` with a board named that does not answer (its Pico not plugged in yet) exits with
    # ABSENT; Restart=on-failure starts it again after any exit status but the unit's successes
    # and those it says not to retry, every RestartSec, and with no limit on the starts a Pico
    # plugged in an hour later is still picked up.
    from reedboard.controller.commands.play_command import ABSENT

    assert run_parsed(service, ["service", "install", "--dry-run", "--user", ME]) == 0
    unit = configparser.ConfigParser(interpolation=None)
    unit.optionxform = str  # systemd's keys are case-sensitive
    unit.read_string(capsys.readouterr().out)
    retry = unit["Service"]
    assert retry["Restart"] == "on-failure" and 0 < int(retry["RestartSec"]) <= 10
    kept = retry.get("SuccessExitStatus", "").split() + retry.get("RestartPreventExitStatus", "").split()
    assert ABSENT != 0 and str(ABSENT) not in kept
    assert unit["Unit"]["StartLimitIntervalSec"] == "0"


@pytest.mark.systemd
def test_the_unit_passes_systemd_analyze_verify(capsys, tmp_path, systemctl):
    assert run_parsed(service, ["service", "install", "--dry-run", "--user", ME]) == 0
    unit = tmp_path / "reedboard.service"
    unit.write_text(capsys.readouterr().out)

    def verify(path):
        # no systemd runs in a container: verify reads the file alone; --man=no skips man pages
        return subprocess.run(["systemd-analyze", "verify", "--man=no", "--recursive-errors=no", str(path)],
                              capture_output=True, text=True, timeout=60,
                              env={**os.environ, "SYSTEMD_LOG_LEVEL": "notice"})

    checked = verify(unit)
    assert checked.returncode == 0, checked.stderr
    assert checked.stderr.strip() == ""
    broken = tmp_path / "broken" / "reedboard.service"  # the check can fail: a misspelt key
    broken.parent.mkdir()
    broken.write_text(unit.read_text().replace("RestartSec=", "RestartSecs="))
    assert verify(broken).returncode != 0


def test_install_writes_the_unit_and_enables_it_now(capsys, tmp_path, systemctl):
    assert run_parsed(service, ["service", "install", "--user", ME, "--unit-dir", str(tmp_path)]) == 0
    unit = tmp_path / "reedboard.service"
    assert f"ExecStart={SCRIPT} play" in unit.read_text()
    assert systemctl.calls == [["daemon-reload"], ["enable", "--now", "reedboard"]]
    assert str(unit) in capsys.readouterr().out
    # installed again (a new venv, say): the running service is restarted on the new unit
    systemctl.calls.clear()
    assert run_parsed(service, ["service", "install", "--user", ME, "--unit-dir", str(tmp_path)]) == 0
    assert systemctl.calls == [["daemon-reload"], ["enable", "reedboard"], ["restart", "reedboard"]]


def test_a_failing_systemctl_step_is_named_and_stops_the_rest(capsys, tmp_path, systemctl):
    systemctl.status = 1
    assert run_parsed(service, ["service", "install", "--user", ME, "--unit-dir", str(tmp_path)]) == 1
    assert systemctl.calls == [["daemon-reload"]]
    assert "`systemctl daemon-reload` failed (exit status 1)" in capsys.readouterr().err


def test_status_passes_systemctl_through(systemctl):
    systemctl.status = 3  # systemctl's "not running"
    assert run_parsed(service, ["service", "status"]) == 3
    assert systemctl.calls == [["status", "reedboard"]]


def test_uninstall_stops_disables_and_removes(capsys, tmp_path, systemctl):
    unit = tmp_path / "reedboard.service"
    unit.write_text("[Unit]\n")
    assert run_parsed(service, ["service", "uninstall", "--unit-dir", str(tmp_path)]) == 0
    assert not unit.exists()
    assert systemctl.calls == [["disable", "--now", "reedboard"], ["daemon-reload"]]
    systemctl.calls.clear()
    assert run_parsed(service, ["service", "uninstall", "--unit-dir", str(tmp_path)]) == 0
    assert systemctl.calls == [] and "no reedboard service is installed" in capsys.readouterr().out


def test_root_is_refused_unless_named(capsys, monkeypatch, systemctl):
    monkeypatch.setattr(service, "invoking_user", lambda: "root")
    assert run_parsed(service, ["service", "install", "--dry-run"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--user root" in err
    assert run_parsed(service, ["service", "install", "--dry-run", "--user", "root"]) == 0
    assert "User=root" in capsys.readouterr().out


def test_the_user_under_sudo_is_the_one_who_typed_sudo(monkeypatch):
    monkeypatch.setenv("SUDO_USER", "alice")
    assert service.invoking_user() == "alice"


def test_an_unknown_user_is_one_line(capsys, systemctl):
    assert run_parsed(service, ["service", "install", "--dry-run", "--user", "no-such-player"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no-such-player" in err


def test_without_write_access_it_says_the_sudo_command(capsys, tmp_path, monkeypatch, systemctl):
    monkeypatch.setattr(service, "writable", lambda unit: False)
    assert run_parsed(service, ["service", "install", "--user", ME, "--unit-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert f"run it with sudo: sudo {SCRIPT} service install --user {ME} --unit-dir {tmp_path}" in err
    assert systemctl.calls == [] and not (tmp_path / "reedboard.service").exists()


def test_without_systemd_nothing_is_written(capsys, tmp_path, systemctl, monkeypatch):
    monkeypatch.setattr(service, "systemd_here", lambda: False)
    assert run_parsed(service, ["service", "install", "--user", ME, "--unit-dir", str(tmp_path)]) == 2
    assert "does not run systemd" in capsys.readouterr().err
    assert not (tmp_path / "reedboard.service").exists() and systemctl.calls == []


def test_a_path_with_spaces_and_percent_is_quoted_for_systemd():
    text = service.unit_text(Path("/home/a b/100%/bin/reedboard"), "pi", "/home/pi")
    assert 'ExecStart="/home/a b/100%%/bin/reedboard" play' in text
