"""`reedboard doctor`: which backend answers, and what the board senses now."""

from __future__ import annotations

import re
import sys

from ..games import GAMES
from reedboard.hal import registry
from reedboard.hal.backends import NoBoard, find_board

from . import pi_checks
from .backend_words import said
from ..language.catalogue import COMMANDS

_ = COMMANDS.gettext
ngettext = COMMANDS.ngettext

# hal.protocol's refusal of a board of another protocol version
OTHER_PROTOCOL = re.compile(r"speaks protocol version (\S+) \(firmware (.*?)\)")


def doctor(hal: str | None, port: str | None, board_path: str | None, out=None, *,
           board_name: str | None = None) -> int:
    """Say which backend answers and what it senses: 0, or 1 when no board answers. `board_name`:
    a shipped board named instead of a board file (arguments.board_argument)."""
    out = out or sys.stdout
    start = None
    if registry.can(hal, registry.START):  # a board that keeps a start position: the game's played on it
        from reedboard.hal.backends import candidate_boards
        from reedboard.hal.board import BoardError

        try:
            board = candidate_boards(board_path, board_name)[0]
        except BoardError:
            board = None  # find_board says what is wrong with it
        game = next((g for g in GAMES.values() if board is not None and g.board == board.name), None)
        cells = set(board.cells) if board is not None else set()
        if game is not None and set(game().cells) <= cells:
            start = game().occupied()
    try:
        found = find_board(hal, board_path, port, game=board_name, start=start or ())
    except NoBoard as error:
        print(_("reedboard doctor: no board could be reached. Tried:"), file=out)
        for attempt in error.tried:
            print(f"  - {said(attempt)}", file=out)
        _print_pi_checks(hal, port, None, out, refusals=error.tried)
        return 1
    board = found.board
    print(_("backend: {backend} ({detail})").format(backend=found.backend, detail=said(found.detail)), file=out)
    print(ngettext("board: {name}, {source}, {n} cell on a {rows}x{columns} matrix",
                   "board: {name}, {source}, {n} cells on a {rows}x{columns} matrix", len(board.cells)).format(
        name=board.name, source=board.source, n=len(board.cells), rows=board.rows, columns=board.columns), file=out)
    close = getattr(found.device, "close", None)
    if close:
        close()
    _print_pi_checks(hal, port, found, out)  # the port is closed now: whoever else has it open is another program
    print(_("occupied: {cells}").format(cells=" ".join(cell for cell in board.cells if cell in found.occupied)),
          file=out)
    return 0


def _board_port(hal: str | None, port: str | None, found) -> str | None:
    """The port the board is on, or would be: the one given, the one answering, or the one a
    backend reached over a port finds (none for a backend named that is not reached so)."""
    if hal in registry.BACKENDS and not registry.can(hal, registry.PORT):
        return None
    if port:
        return port
    if found is not None and registry.can(found.backend, registry.PORT):
        return getattr(found.device, "port", None)
    return registry.port_found(hal)


def _print_pi_checks(hal: str | None, port: str | None, found, out, refusals: list[str] = ()) -> None:
    """The firmware's protocol, then the Pi's own checks (groups, SPI, I2C, the port free)."""
    from reedboard.hal.protocol import VERSION

    port = _board_port(hal, port, found)
    extra = []
    hello = getattr(found.device, "firmware", None) if found is not None and registry.can(found.backend, registry.PORT) else None
    if hello is not None:
        print(_("firmware: {firmware}, protocol {version} (this controller speaks {ours})").format(
            firmware=hello.firmware, version=hello.version, ours=VERSION), file=out)
        extra.append(pi_checks.protocol_finding(hello.version, hello.firmware, VERSION, port))
    for refusal in refusals:
        other = OTHER_PROTOCOL.search(refusal)
        if other:
            extra.append(pi_checks.protocol_finding(other.group(1), other.group(2), VERSION, port))
    facts = pi_checks.gather_facts(port)
    for line in pi_checks.report_lines(facts, [finding for finding in extra if finding is not None]):
        print(line, file=out)
