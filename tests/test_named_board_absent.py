"""`reedboard play` never plays a silent simulation: a board named (by the board file, the
configuration or --port) that does not answer stops it with one line saying what to check, and
exit status 1, which the boot service's Restart=on-failure retries; with nothing named it plays
on the simulated board and says so. The configuration is always a file of the test's own
(XDG_CONFIG_HOME), never the user's."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest
from babel.messages import pofile

from command_line import run_reedboard
from conftest import free_port
from reedboard.controller.commands.cli import main
from reedboard.controller.commands.play_command import ABSENT
from reedboard.controller.language.catalogue import locale_dir
from reedboard.hal.backends import asked_for
from reedboard.hal.board import load_board

pytestmark = pytest.mark.system

LOCALE = Path(locale_dir())
SHIPPED = Path(__file__).resolve().parents[1] / "hardware" / "boards" / "bigballs.toml"


def words(lang: str, *parts: str) -> str:
    """The commands catalogue's words in `lang` for the one msgid holding every part (English: the msgid)."""
    path = LOCALE / ("commands.pot" if lang == "en" else f"{lang}/LC_MESSAGES/commands.po")
    with path.open("rb") as f:
        found = [m for m in pofile.read_po(f) if isinstance(m.id, str) and all(p in m.id for p in parts)]
    assert len(found) == 1, f"{path}: {len(found)} entries hold {parts}"
    if lang == "en":
        return found[0].id
    assert found[0].string and found[0].string != found[0].id, f"{path} leaves {found[0].id!r} untranslated"
    return found[0].string


def absent_line(lang: str, pico: bool, **values: str) -> tuple[str, str]:
    """The line said for an absent board, as the catalogue has it: what comes before what was
    tried (the backend's own English words) and what comes after."""
    said = words(lang, "{named}", "Pico" if pico else "doctor")
    before, after = said.split("{tried}")
    return before.format(**values), after.format(**values)


def one_line(err: str) -> str:
    assert err.endswith("\n") and len(err.splitlines()) == 1, err
    assert "Traceback" not in err
    return err.rstrip("\n")


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A configuration folder of the test's own (empty until a test writes config.toml), and no Pico
    or Pi pins here whatever this machine has: each hardware backend's opener says why it found none."""
    from reedboard.hal import backends

    def nothing(kind):
        def opener(boards, request=None):
            raise LookupError(f"{kind}: nothing here (the test's)")
        return opener

    monkeypatch.setattr(backends, "open_serial", nothing("serial"))
    monkeypatch.setattr(backends, "open_gpio", nothing("gpio"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    (tmp_path / "config" / "reedboard").mkdir(parents=True)
    return tmp_path


@pytest.fixture
def served(monkeypatch):
    """`reedboard play` up to its web view, which returns at once: the session it would serve."""
    seen = {}

    async def serve(session, host, port, token, **options):
        seen["session"] = session

    monkeypatch.setattr("reedboard.controller.web.app.serve", serve)
    return seen


def configured(home: Path, text: str) -> Path:
    path = home / "config" / "reedboard" / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def board_file(home: Path, backend: str | None, port: str | None = None) -> Path:
    """Big Balls' shipped wiring, its [board] backend as given (None: the line left out)."""
    text = SHIPPED.read_text(encoding="utf-8")
    line = 'backend = "serial"  # gpio, serial (a Pico) or sim\n'
    assert line in text
    text = text.replace(line, f'backend = "{backend}"\n' if backend else "")
    if port:
        text += f'\n[serial]\nport = "{port}"\n'
    path = home / f"board-{backend}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def play(home: Path, *argv: str) -> int:
    return main(["play", "bigballs", "--games-dir", str(home / "games"), "--listen", f"127.0.0.1:{free_port()}", *argv])


# --- the real command, in each language ---------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "de", "ro"])
def test_a_port_given_and_absent_is_one_line_in_each_language(tmp_path, lang):
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env.update(LANGUAGE=lang, XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"))
    result = run_reedboard("play", "bigballs", "--port", "/dev/nonexistent", "--games-dir", tmp_path / "games",
                           "--listen", f"127.0.0.1:{free_port()}", installed=True, timeout=60, env=env)
    assert result.returncode == ABSENT == 1, result.stderr
    assert result.stdout == ""  # no web view, no simulated board
    line = one_line(result.stderr)
    before, after = absent_line(lang, pico=True, named="--port /dev/nonexistent", backend="serial")
    assert line.startswith(before) and line.endswith(after), line
    assert "/dev/nonexistent" in line[len(before):-len(after)]  # what was tried: the port
    assert "firmware install" in after and "BOOTSEL" in after and "OTG" in after


# --- what names the hardware --------------------------------------------------------------------
def test_the_configuration_naming_serial_stops_play(home, served, capsys):
    path = configured(home, '[board]\nbackend = "serial"\n')
    assert play(home) == 1
    out, err = capsys.readouterr()
    before, after = absent_line("en", pico=True, named=f"{path} [board] backend", backend="serial")
    line = one_line(err)
    assert line.startswith(before) and line.endswith(after) and "serial: nothing here" in line
    assert out == "" and "session" not in served


def test_a_port_in_the_configuration_names_the_serial_board(home, served, capsys):
    path = configured(home, '[board]\nport = "/dev/nonexistent"\n')
    assert play(home) == 1
    assert one_line(capsys.readouterr().err).startswith(f"reedboard: {path} [board] port asks for the serial board")
    assert "session" not in served


def test_the_board_file_of_the_configuration_names_its_backend(home, served, capsys):
    board = board_file(home, "serial")
    configured(home, f'[board]\nfile = "{board}"\n')
    assert play(home) == 1
    assert one_line(capsys.readouterr().err).startswith(
        f"reedboard: {board} [board] backend asks for the serial board, and no Pico answers")


def test_a_board_file_wired_to_the_pins_names_gpio(home, served, capsys):
    board = board_file(home, "gpio")
    assert play(home, "--board", str(board)) == 1
    out, err = capsys.readouterr()
    before, after = absent_line("en", pico=False, named=f"{board} [board] backend", backend="gpio")
    line = one_line(err)
    assert line.startswith(before) and line.endswith(after) and "reedboard doctor" in after
    assert out == "" and "session" not in served


# --- nothing named: the simulated board, said so ------------------------------------------------
def test_with_nothing_named_play_is_on_the_simulated_board_and_says_so(home, served, capsys):
    assert play(home) == 0
    out, err = capsys.readouterr()
    assert "serial: nothing here (the test's); gpio: nothing here (the test's)" in out
    assert "playing on the simulated board" in out and err == ""
    assert served["session"].backend.__class__.__name__ == "SimBoard"


@pytest.mark.parametrize("backend", [None, "sim"])
def test_a_board_file_of_the_simulated_board_names_no_hardware(home, served, capsys, backend):
    assert play(home, "--board", str(board_file(home, backend))) == 0
    assert "playing on the simulated board" in capsys.readouterr().out


def test_backend_sim_wins_over_the_hardware_configured(home, served, capsys):
    configured(home, f'[board]\nbackend = "serial"\nport = "/dev/nonexistent"\nfile = "{board_file(home, "gpio")}"\n')
    assert play(home, "--backend", "sim") == 0
    out, err = capsys.readouterr()
    assert err == "" and "the simulated board" in out and "no board found" not in out


def test_what_names_a_backend_and_which_wins():
    wired = load_board(str(SHIPPED))  # the shipped file says serial: named only when someone names the file
    by_hand = dataclasses.replace(wired, backend="sim")
    assert wired.backend == "serial"
    assert asked_for(None, None, None) == (None, None)  # auto: serial, then gpio, else the simulated board
    assert asked_for(None, "/dev/ttyACM0", None) == ("serial", "port")
    assert asked_for(None, None, wired) == ("serial", "board")
    assert asked_for(None, None, by_hand) == (None, None)
    assert asked_for(None, "/dev/ttyACM1", by_hand) == ("serial", "port")
    assert asked_for("sim", "/dev/ttyACM0", wired) == ("sim", "backend")  # a backend named wins
    assert asked_for("gpio", "/dev/ttyACM0", wired) == ("gpio", "backend")
