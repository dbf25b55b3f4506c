"""`reedboard play`: the simulated board when no hardware is found, and the web view's address
(a board named but absent: tests/test_named_board_absent.py)."""

import json
import socket
import subprocess
import time
import urllib.request

import pytest

from reedboard.controller.commands.cli import main
from reedboard.controller.games import top_level

from command_line import start_reedboard

pytestmark = pytest.mark.system


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_play_runs_on_the_simulated_board_and_serves_the_web_view(tmp_path):
    port = free_port()
    process = start_reedboard("play", "offboard", "--listen", f"127.0.0.1:{port}", "--games-dir", tmp_path,
                              stderr=subprocess.STDOUT)
    try:
        lines = []
        while not lines or not lines[-1].startswith("web view: "):
            line = process.stdout.readline()
            assert line, "".join(lines)
            lines.append(line.strip())
        assert any("playing on the simulated board" in line for line in lines)
        assert lines[-1] == f"web view: http://127.0.0.1:{port}/"
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as answer:
                    state = json.load(answer)
                break
            except OSError:
                time.sleep(0.1)
        assert state["game"] == "offboard" and state["turn"] == "red"
        for _ in range(100):  # the game is journaled (its first lines may follow the page's first answer)
            if list(tmp_path.glob("*-offboard.jsonl")):
                break
            time.sleep(0.1)
        assert list(tmp_path.glob("*-offboard.jsonl"))
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.parametrize(
    "argv, status, message",
    [
        (["play", "bigballs", "--listen", "nowhere"], 2, "--listen takes HOST:PORT"),
        (["play", "bigballs", "--hal", "gpio"], 1, "asks for the gpio board, and it does not answer (gpio: no GPIO pins here"),
        (["play", "bigballs", "--resume"], 2, "no unfinished Big Balls game"),
        (["play", "bigballs", "--hal", "sim", "--vs", f"computer:{top_level() + 1}"], 2, f"computer:1 .. computer:{top_level()}"),
        (["play", "bigballs", "--hal", "sim", "--vs", "computer", "--computer-plays", "red"], 2,
         "the computer plays black or white in Big Balls, not red"),
        (["play", "bigballs", "--hal", "sim", "--computer-plays", "white"], 2, "--computer-plays needs --vs"),
        (["play", "bigballs", "--hal", "sim", "--think-seconds", "0"], 2, "think seconds are a number from 0.1"),
        (["play", "bigballs", "--hal", "sim", "--black", ""], 2, "a player's name is 1 to 40"),
        (["play", "bigballs", "--hal", "sim", "--broadcast", "http://club.local"], 2, "mqtt://"),
        (["play", "bigballs", "--hal", "sim", "--broadcast", "mqtt://club.local", "--name", "a b"], 2, "a board's name"),
    ],
)
def test_play_refuses_what_it_cannot_do(capsys, tmp_path, argv, status, message):
    assert main(argv + ["--games-dir", str(tmp_path)]) == status
    captured = capsys.readouterr()
    assert message in captured.out + captured.err


def test_play_says_when_the_port_is_taken(capsys, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["play", "bigballs", "--hal", "sim", "--listen", f"127.0.0.1:{port}",
                     "--games-dir", str(tmp_path)]) == 1
    assert "port is taken" in capsys.readouterr().out


def test_a_mistaken_command_line_is_said_before_the_port_is_looked_at(capsys, tmp_path):
    # The README's `reedboard play` may hold the port already: a mistake is still named as such.
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for mistake, message in ((["--vs", "computer", "--computer-plays", "red"], "not red"),
                                 (["--broadcast", "http://club.local"], "mqtt://")):
            status = main(["play", "bigballs", "--hal", "sim", "--listen", f"127.0.0.1:{port}",
                           "--games-dir", str(tmp_path), *mistake])
            out, err = capsys.readouterr()
            assert status == 2 and message in err and "port is taken" not in out


def test_in_the_tests_a_fixed_port_counts_as_taken():
    import errno

    import conftest

    with socket.socket() as probe:
        with pytest.raises(OSError) as refused:
            probe.bind(("127.0.0.1", 8000))
    assert refused.value.errno == errno.EADDRINUSE and conftest._fixed.pop() == ("127.0.0.1", 8000)


def test_play_says_where_it_broadcasts_and_as_which_board(capsys, tmp_path, monkeypatch):
    async def serve(session, host, port, token, **options):
        pass

    monkeypatch.setattr("reedboard.controller.web.app.serve", serve)
    status = main(["play", "bigballs", "--hal", "sim", "--listen", f"127.0.0.1:{free_port()}",
                   "--games-dir", str(tmp_path), "--broadcast", "mqtt://club.local/evening", "--name", "table1"])
    out = capsys.readouterr().out
    assert status == 0
    assert "broadcast: live to mqtt://club.local:1883/evening as the board 'table1'" in out


@pytest.mark.parametrize("refusal, said", [
    (FileNotFoundError(2, "No such file or directory", "/dev/i2c-1"),
     "gpio: no I2C bus /dev/i2c-1 for the MCP23017 expanders (not a Raspberry Pi, or I2C is off:"
     " sudo raspi-config nonint do_i2c 0)"),
    (PermissionError(13, "Permission denied", "/dev/i2c-1"),
     "gpio: /dev/i2c-1 may not be opened (join the i2c group: sudo usermod -aG i2c $USER, then log in again)"),
])
def test_a_missing_backend_is_one_clear_line(capsys, tmp_path, monkeypatch, refusal, said):
    # Off Board's matrix hangs on I2C expanders: away from a Pi, /dev/i2c-1 is not there.
    import smbus2

    def bus(number):
        raise refusal

    monkeypatch.setattr(smbus2, "SMBus", bus)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    assert main(["play", "offboard", "--hal", "gpio", "--games-dir", str(tmp_path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.endswith("\n") and len(err.splitlines()) == 1
    assert err.startswith(f"reedboard: --backend gpio asks for the gpio board, and it does not answer ({said}): ")
    assert "Error" not in err and "Errno" not in err
