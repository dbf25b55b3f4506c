"""The controller names no board backend: it asks hal.registry what a backend can do (moved by
hand, keeps a start position, reached over a port, ...) and never which one it has.

Every identifier of controller/ (split into its words: SimBoard is sim and board, sim_table is
sim and table) and every string that is nothing but a word is looked at; a backend's name
(sim, gpio, serial: every registered one) found there must be in ALLOWED, with its reason.
Comments and prose inside longer strings are not looked at: "the simulated board" and "the
Pico's serial port" speak of things, not of a backend by its name."""

import io
import re
import tokenize
from pathlib import Path

import pytest

from reedboard.hal import registry

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parent.parent
CONTROLLER = ROOT / "controller"
NAMES = frozenset(registry.BACKENDS)

# (file under controller/, the identifier or string as written): why it may stay
ALLOWED = {
    ("workshop/guide.py", "serial"): "a prompt's serial number (the page shows each prompt once), not a backend",
    ("workshop/guide.py", "_serial"): "the counter of those serial numbers",
    ("web/guide_page.py", "serial"): "the same serial number, as the guide's page reads it",
    ("workshop/guide.py", "SimBuilder"): "the simulated builder: hands that answer a guide's prompts by themselves",
    ("workshop/calibrate.py", "SimBuilder"): "the simulated builder, for a board moved by hand",
    ("workshop/selftest.py", "SimBuilder"): "the simulated builder, for a board moved by hand",
    ("workshop/calibrate.py", "SimHands"): "hal.mock's hands of the simulated builder",
    ("workshop/selftest.py", "SimHands"): "hal.mock's hands of the simulated builder",
    ("workshop/selftest.py", "faulty_sim"): "hal.mock's faults declared in a board file, put on a board moved by hand",
    ("workshop/bringup.py", "faulty_sim"): "the same faults, on the bring-up page's board moved by clicks",
    ("workshop/pi_checks.py", "gpio"): "the Linux group that may use the GPIO pins, checked on the Pi",
    ("session/play_session.py", "sim"): "PlaySession.sim: the board moved by clicks, as the web view names it",
    ("session/snapshot.py", "sim"): "the snapshot's field for a table moved by clicks, which the page reads",
    ("broadcast/messages.py", "sim"): "the same snapshot field, false on a club's page",
    ("broadcast/club/snapshot_check.py", "sim"): "the same snapshot field, checked",
}

_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_STRING = re.compile(r"^[a-zA-Z]*(\"\"\"|'''|\"|')(.*)\1$", re.S)


def words(identifier: str) -> set[str]:
    """SimBoard -> {sim, board}; sim_table -> {sim, table}; GPIOZERO_PIN -> {gpiozero, pin}."""
    return {w.lower() for part in identifier.split("_") for w in _WORD.findall(part)}


def named_backends(text: str) -> list[tuple[int, str]]:
    """(line, the identifier or string) of every backend named in Python source."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.NAME and words(token.string) & NAMES:
            found.append((token.start[0], token.string))
        elif token.type == tokenize.STRING:
            string = _STRING.match(token.string)
            if string and string.group(2).strip().lower() in NAMES:
                found.append((token.start[0], string.group(2).strip()))
    return found


def test_the_words_of_an_identifier():
    assert words("SimBoard") == {"sim", "board"} and words("sim_table") == {"sim", "table"}
    assert words("GpioBoard") == {"gpio", "board"} and words("SERIAL_PORT") == {"serial", "port"}
    assert words("simulated") == {"simulated"} and words("serialize") == {"serialize"}


def test_the_search_finds_a_backend_named_in_code():
    source = 'if hal == "sim":\n    board = SimBoard(x)  # the simulated board\nfrom reedboard.hal.serial_board import find_port\n'
    assert named_backends(source) == [(1, "sim"), (2, "SimBoard"), (3, "serial_board")]
    assert named_backends('"""The simulated board, on a serial port."""\n# gpio\n') == []


def test_the_controller_names_no_backend():
    named = []
    for path in sorted(CONTROLLER.rglob("*.py")):
        where = str(path.relative_to(CONTROLLER))
        for line, token in named_backends(path.read_text(encoding="utf-8")):
            if (where, token) not in ALLOWED:
                named.append(f"controller/{where}:{line}: {token}")
    assert named == [], "ask hal.registry what the backend can do instead:\n" + "\n".join(named)


def test_each_allowance_is_still_needed():
    used = {(str(path.relative_to(CONTROLLER)), token) for path in CONTROLLER.rglob("*.py")
            for _, token in named_backends(path.read_text(encoding="utf-8"))}
    assert set(ALLOWED) - used == set()
