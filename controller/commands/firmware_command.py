"""`reedboard firmware install|version`: the Pico's firmware, copied and checked with mpremote.

install copies the firmware (firmware/*.py, shipped with this package) onto a Pico running
MicroPython and writes the board's configuration beside it as board.json (matrix size, LED
count, the Pico's pins), which main.py reads at boot; then it restarts the Pico. version asks
the Pico which firmware and protocol it has and for which board, and says whether that is older
than the firmware shipped here.

mpremote, the MicroPython project's own tool, does the talking: it is run as
`python -m mpremote ...` through `runner`, which the tests replace.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import json
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..language.catalogue import COMMANDS

if TYPE_CHECKING:  # imported where a command runs: `reedboard --help` starts without it
    import subprocess

FIRMWARE_DIR = Path(__file__).resolve().parents[2] / "firmware"  # shipped beside the packages
FIRMWARE_FILES = ("main.py", "app.py", "protocol.py", "scanner.py", "pins.py")
BOARD_FILE = "board.json"  # main.py reads it beside itself
HIGHEST_PIN = 29  # the Pico's GP0-GP29, as main.py checks them
PIN_NAMES = ("ROW_PINS", "COLUMN_PINS", "DIE_BUTTON_PIN", "OK_BUTTON_PIN", "BUZZER_PIN", "LED_PIN")  # pins.py's
COPY_TIMEOUT = 120.0  # seconds for mpremote to copy the files
ASK_TIMEOUT = 30.0  # seconds for mpremote to answer what is on the Pico
MARK = "reedboard-firmware:"  # starts the line the Pico prints for `version`

# Run on the Pico by `version`: the firmware's version, its protocol and its board.json. The
# modules are imported afresh (mpremote interrupts main.py, which had imported them).
ASK_CODE = """\
import sys
for name in ('app', 'protocol'):
    if name in sys.modules:
        del sys.modules[name]
try:
    import app, protocol
    found = [app.FIRMWARE, protocol.VERSION]
except Exception as error:
    found = [None, repr(error)]
try:
    with open('board.json') as f:
        found.append(f.read())
except OSError:
    found.append(None)
import json
print('reedboard-firmware:' + json.dumps(found))
"""

Runner = Callable[[Sequence[str], float], "subprocess.CompletedProcess"]


def built_in_board() -> str:
    """The shipped board main.py builds when the Pico has no board.json (main.py's GAME line)."""
    match = re.search(r'^GAME = "([\w-]+)"', (FIRMWARE_DIR / "main.py").read_text(encoding="utf-8"), re.M)
    if match is None:
        raise FirmwareError(_("{file} names no built-in board (a GAME line)").format(file=FIRMWARE_DIR / "main.py"))
    return match.group(1)


def run_mpremote(arguments: Sequence[str], timeout: float) -> subprocess.CompletedProcess:
    import subprocess  # here, not on import: `reedboard --help` starts without it

    """Run `python -m mpremote ARGUMENTS` and capture what it says."""
    return subprocess.run([sys.executable, "-m", "mpremote", *arguments], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


runner: Runner = run_mpremote  # the tests put a fake or a unix-port Pico behind this


_ = COMMANDS.gettext


class FirmwareError(Exception):
    """Something that stops a firmware command: one line for the user (and the exit status)."""

    def __init__(self, message: str, status: int = 1):
        super().__init__(message)
        self.status = status


# --- what this package ships ---------------------------------------------------------------------

def _constants(path: Path, names: Sequence[str]) -> dict[str, object]:
    """Top-level constants of a firmware file, read as data (the firmware is MicroPython's)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found = {target.id: ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                 for target in node.targets if isinstance(target, ast.Name) and target.id in names}
    except (OSError, SyntaxError, ValueError) as error:
        raise FirmwareError(_("cannot read the shipped firmware's {file} ({problem})").format(
            file=path.name, problem=error)) from None
    missing = [n for n in names if n not in found]
    if missing:
        raise FirmwareError(_("the shipped firmware's {file} has no {name}").format(file=path, name=missing[0]))
    return found


def shipped_version(folder: Path | None = None) -> tuple[str, int]:
    """(firmware version, protocol version) of the firmware in this package."""
    folder = folder or FIRMWARE_DIR
    firmware = _constants(folder / "app.py", ("FIRMWARE",))["FIRMWARE"]
    protocol = _constants(folder / "protocol.py", ("VERSION",))["VERSION"]
    return str(firmware), int(protocol)  # type: ignore[call-overload]


def version_key(firmware: str) -> tuple[int, ...] | None:
    """reedboard-1.2.3 -> (1, 2, 3); None for a version of another form (a fake, a build of one's own)."""
    match = re.fullmatch(r"reedboard-(\d+(?:\.\d+)*)", firmware)
    return tuple(int(part) for part in match.group(1).split(".")) if match else None


def firmware_files(folder: Path | None = None) -> list[Path]:
    folder = folder or FIRMWARE_DIR
    files = [folder / name for name in FIRMWARE_FILES]
    missing = [f for f in files if not f.is_file()]
    if missing:
        raise FirmwareError(_("the firmware is not where this package keeps it: no {file} (reinstall reedboard)")
                            .format(file=missing[0]))
    return files


# --- the board's configuration -------------------------------------------------------------------

def board_config(board) -> dict:
    """What board.json says for a board (hal.board.Board): its matrix and LED chain, on the
    Pico pins of firmware/pins.py (the first rows and columns of them), the module main.py
    imports on the Pico, imported here as reedboard.firmware.pins."""
    from reedboard.firmware import pins as firmware_pins

    missing = [name for name in PIN_NAMES if not hasattr(firmware_pins, name)]
    if missing:
        raise FirmwareError(_("the shipped firmware's {file} has no {name}").format(
            file=firmware_pins.__file__, name=missing[0]))
    pins = {name: getattr(firmware_pins, name) for name in PIN_NAMES}
    rows, columns = list(pins["ROW_PINS"]), list(pins["COLUMN_PINS"])  # type: ignore[call-overload]
    if board.rows > len(rows) or board.columns > len(columns):
        raise FirmwareError(_("{file}: a {rows}x{columns} matrix, and the Pico has pins for {pin_rows} rows and"
                              " {pin_columns} columns (firmware/pins.py)").format(
            file=board.source, rows=board.rows, columns=board.columns, pin_rows=len(rows), pin_columns=len(columns)),
            status=2)
    config = {
        "board": board.name, "rows": board.rows, "columns": board.columns, "leds": board.led_count,
        "pins": {"rows": rows[:board.rows], "columns": columns[:board.columns], "leds": pins["LED_PIN"],
                 "die_button": pins["DIE_BUTTON_PIN"], "ok_button": pins["OK_BUTTON_PIN"],
                 "buzzer": pins["BUZZER_PIN"]},
    }
    used = config["pins"]["rows"] + config["pins"]["columns"] + [config["pins"][k] for k in
                                                                  ("leds", "die_button", "ok_button", "buzzer")]
    bad = [p for p in used if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= HIGHEST_PIN]
    twice = [p for p in used if used.count(p) > 1]
    if bad or twice:
        if bad:
            what = _("pin {pin} is not GP0-GP{highest}").format(pin=repr(bad[0]), highest=HIGHEST_PIN)
        else:
            what = _("GP{pin} is used twice").format(pin=twice[0])
        raise FirmwareError(f"firmware/pins.py: {what}", status=2)
    return config


def load_board_argument(text: str | None):
    """The board of --board: a board file, or the name of a shipped board (arguments.board_argument)."""
    from reedboard.hal.board import BoardError, load_board

    from .arguments import board_argument

    try:
        if text is None:
            return load_board(game=built_in_board())
        path, name = board_argument(text)
        return load_board(path, game=name)
    except BoardError as error:
        raise FirmwareError(str(error), status=2) from None


# --- talking to the Pico -------------------------------------------------------------------------

def pico_port(port: str | None) -> str:
    """--port, or the Pico found on USB."""
    if port:
        if runner is run_mpremote and port.startswith("/") and not Path(port).exists():
            raise FirmwareError(_("no port {port}: is the Pico plugged in? (its port is usually /dev/ttyACM0;"
                                  " leave --port out to find it on USB)").format(port=port))
        return port
    from reedboard.hal.registry import port_found

    found = port_found()  # the port a backend reached over one finds: the first Pico on USB
    if found is None:
        raise FirmwareError(_("no Pico found on USB (no serial port with the Raspberry Pi vendor id 2e8a):"
                              " plug it in, or give --port (e.g. --port /dev/ttyACM0)"))
    return found


def _require_mpremote() -> None:
    if runner is run_mpremote and importlib.util.find_spec("mpremote") is None:
        raise FirmwareError(_("mpremote is not installed: pip install mpremote (reedboard[pi] brings it)"))


def _mpremote(arguments: Sequence[str], timeout: float, doing: str) -> str:
    """Run mpremote; its output, or a FirmwareError with the line that says what went wrong."""
    import subprocess

    _require_mpremote()
    try:
        result = runner(arguments, timeout)
    except subprocess.TimeoutExpired:
        raise FirmwareError(_("mpremote did not finish within {seconds} s ({doing}): is the Pico running"
                              " MicroPython? (unplug it and plug it in again)").format(
            seconds=f"{timeout:.0f}", doing=doing)) from None
    except OSError as error:
        raise FirmwareError(_("cannot run mpremote: {problem}").format(problem=error)) from None
    if result.returncode != 0:
        said = [line.strip() for line in (result.stderr or "").splitlines() + (result.stdout or "").splitlines()
                if line.strip()]
        last = said[-1] if said else _("exit status {status}").format(status=result.returncode)
        if "in use" in last or "failed to access" in last:
            raise FirmwareError(_("mpremote failed ({doing}): {said}; another program has the port open: stop"
                                  " `reedboard play` (or its service) first").format(doing=doing, said=last))
        raise FirmwareError(_("mpremote failed ({doing}): {said}").format(doing=doing, said=last))
    return result.stdout or ""


def connect(port: str) -> list[str]:
    # resume: no soft reset when mpremote connects (Ctrl-C alone stops main.py); the Pico is
    # restarted at the end instead, so that main.py runs again with what is on it.
    return ["connect", port, "resume"]


def install_commands(port: str, files: Sequence[Path], board_json: Path) -> list[list[str]]:
    """The mpremote runs that install: copy the files and board.json, then restart the Pico."""
    arguments = connect(port)
    for source, name in [(f, f.name) for f in files] + [(board_json, BOARD_FILE)]:
        arguments += ["fs", "cp", str(source), f":{name}", "+"]
    return [arguments + ["reset"]]


def ask_commands(port: str) -> list[list[str]]:
    """The mpremote run that asks the Pico what it has (and restarts it afterwards)."""
    return [connect(port) + ["exec", ASK_CODE, "+", "reset"]]


@dataclass(frozen=True)
class OnPico:
    firmware: str | None  # None: no reedboard firmware on it
    protocol: int | None
    board: dict | None  # its board.json, None when there is none (the built-in board)
    problem: str | None = None  # why the firmware or board.json could not be read


def ask_pico(port: str) -> OnPico:
    output = ""
    for arguments in ask_commands(port):
        output += _mpremote(arguments, ASK_TIMEOUT, _("asking the Pico on {port}").format(port=port))
    line = next((l for l in output.splitlines() if l.startswith(MARK)), None)
    if line is None:
        raise FirmwareError(_("the Pico on {port} did not say what it runs (is it running MicroPython?)").format(
            port=port))
    try:
        firmware, protocol, board_text = json.loads(line[len(MARK):])
    except (ValueError, TypeError):
        raise FirmwareError(_("the Pico on {port} answered something unreadable: {line}").format(
            port=port, line=line[:80])) from None
    if firmware is None:
        return OnPico(None, None, None, problem=str(protocol))
    board, problem = None, None
    if board_text is not None:
        try:
            board = json.loads(board_text)
        except ValueError:
            problem = _("the Pico's {file} is not JSON (the firmware uses its built-in board)").format(file=BOARD_FILE)
        if board is not None and not isinstance(board, dict):
            board, problem = None, _("the Pico's {file} is not a JSON object (the firmware uses its built-in board)"
                                     ).format(file=BOARD_FILE)
    return OnPico(str(firmware), int(protocol) if isinstance(protocol, int) else None, board, problem)


def describe_board(board: dict | None) -> str:
    if board is None:
        return _("no board.json (the firmware's built-in board)")
    name = board.get("board", _("a board"))
    return _("{name}: {rows}x{columns} matrix, {leds} LEDs").format(
        name=name, rows=board.get("rows"), columns=board.get("columns"), leds=board.get("leds"))


# --- the commands --------------------------------------------------------------------------------

def install(port: str | None, board_argument: str | None, dry_run: bool = False, out=None) -> int:
    import tempfile

    out = out or sys.stdout
    board = load_board_argument(board_argument)
    config = board_config(board)
    files = firmware_files()
    firmware, protocol = shipped_version()
    with tempfile.TemporaryDirectory(prefix="reedboard-firmware-") as scratch:
        board_json = Path(scratch) / BOARD_FILE
        board_json.write_text(json.dumps(config) + "\n", encoding="utf-8")
        if dry_run:
            where = port or "PORT"
            print("# " + _("{file}, for {source}:").format(file=BOARD_FILE, source=board.source), file=out)
            print(board_json.read_text(encoding="utf-8"), end="", file=out)
            for arguments in install_commands(where, files, Path(BOARD_FILE)):
                print(" ".join(_quoted([sys.executable, "-m", "mpremote", *arguments])), file=out)
            return 0
        _require_mpremote()
        port = pico_port(port)
        print(_("copying {firmware} (protocol {protocol}) to the Pico on {port}, for {board}").format(
            firmware=firmware, protocol=protocol, port=port, board=describe_board(config)), file=out)
        for arguments in install_commands(port, files, board_json):
            _mpremote(arguments, COPY_TIMEOUT, _("copying the firmware to {port}").format(port=port))
    print(_("installed; the Pico restarts with it. Check it: {command}").format(
        command=f"reedboard firmware version --port {port}"), file=out)
    return 0


def version(port: str | None, out=None) -> int:
    """Say what the Pico runs and how it stands to the firmware shipped here: 0 when it is as new,
    1 when it is older, speaks another protocol or has no reedboard firmware."""
    out = out or sys.stdout
    firmware, protocol = shipped_version()
    print(_("this package's firmware: {firmware} (protocol {protocol})").format(firmware=firmware, protocol=protocol),
          file=out)
    _require_mpremote()
    port = pico_port(port)
    found = ask_pico(port)
    fix = f"reedboard firmware install --port {port}"
    if found.firmware is None:
        print(_("on the Pico ({port}): no reedboard firmware ({problem}); install it: {fix}").format(
            port=port, problem=found.problem, fix=fix), file=out)
        return 1
    print(_("on the Pico ({port}): {firmware} (protocol {protocol}), {board}").format(
        port=port, firmware=found.firmware, protocol=found.protocol, board=describe_board(found.board)), file=out)
    if found.problem:
        print(_("{problem}; write it again: {fix}").format(problem=found.problem, fix=f"{fix} --board FILE"), file=out)
    if found.protocol != protocol:
        print(_("the Pico speaks protocol {theirs} and this controller {ours}: the controller refuses it; install the"
                " firmware that matches: {fix}").format(theirs=found.protocol, ours=protocol, fix=fix), file=out)
        return 1
    theirs, ours = version_key(found.firmware), version_key(firmware)
    if theirs is None or ours is None:
        print(_("its version cannot be compared with this package's (same protocol, so it works)"), file=out)
        return 0
    if theirs < ours:
        print(_("older than this package's: update it with {fix}").format(fix=fix), file=out)
        return 1
    print(_("up to date") if theirs == ours else _("newer than this package's (same protocol, so it works)"), file=out)
    return 1 if found.problem else 0


def _quoted(words: Sequence[str]) -> list[str]:
    import shlex

    return [shlex.quote(w) for w in words]


# --- the command line ----------------------------------------------------------------------------

def add_parser(commands) -> argparse.ArgumentParser:
    """`reedboard firmware install|version`, on cli.py's subcommands."""
    firmware = commands.add_parser("firmware", help=_("put the firmware on the board's Pico, or say which it has"))
    actions = firmware.add_subparsers(dest="firmware_command", metavar="COMMAND", parser_class=type(firmware),
                                      required=True)
    install_parser = actions.add_parser(
        "install", help=_("copy the firmware and the board's configuration (board.json) onto a Pico running MicroPython"))
    install_parser.add_argument("--port", metavar="PORT", help=_("the Pico's serial port (default: found on USB)"))
    install_parser.add_argument("--board", metavar="FILE",
                                help=_("the board file, or a shipped board's name (default: the firmware's built-in board)"))
    install_parser.add_argument("--dry-run", action="store_true",
                                help=_("print board.json and the mpremote command instead of running it"))
    install_parser.set_defaults(run=_run_install)
    version_parser = actions.add_parser(
        "version", help=_("say which firmware the Pico has and whether it is older than this package's"))
    version_parser.add_argument("--port", metavar="PORT", help=_("the Pico's serial port (default: found on USB)"))
    version_parser.set_defaults(run=_run_version)
    return firmware


def _run_install(args: argparse.Namespace) -> int:
    return _reported(lambda: install(args.port, args.board, args.dry_run))


def _run_version(args: argparse.Namespace) -> int:
    return _reported(lambda: version(args.port))


def _reported(command: Callable[[], int]) -> int:
    try:
        return command()
    except FirmwareError as error:
        print(f"reedboard firmware: {error}", file=sys.stderr)
        return error.status
