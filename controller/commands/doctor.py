"""`reedboard doctor`: which backend answers, and what the board senses now."""

from __future__ import annotations

import re
import sys

from reedboard.controller.games import GAMES
from reedboard.hal.backends import NoBoard, find_board

from reedboard.controller.commands import pi_checks

# hal.protocol's refusal of a board of another protocol version
OTHER_PROTOCOL = re.compile(r"speaks protocol version (\S+) \(firmware (.*?)\)")


def doctor(hal: str | None, port: str | None, board_path: str | None, out=None) -> int:
    out = out or sys.stdout
    sim_start = None
    if hal == "sim":  # the simulated board holds the start position of a game played on it
        from reedboard.hal.backends import candidate_boards
        from reedboard.hal.board import BoardError

        try:
            board = candidate_boards(board_path, None)[0]
        except BoardError:
            board = None  # find_board says what is wrong with it
        game = next((g for g in GAMES.values() if board is not None and g.board == board.name), None)
        cells = set(board.cells) if board is not None else set()
        if game is not None and set(game().cells) <= cells:
            sim_start = game().occupied()
    try:
        found = find_board(hal, board_path, port, sim_occupied=sim_start or ())
    except NoBoard as error:
        print("reedboard doctor: no board could be reached. Tried:", file=out)
        for attempt in error.tried:
            print(f"  - {attempt}", file=out)
        _print_pi_checks(hal, port, None, out, refusals=error.tried)
        return 1
    board = found.board
    print(f"backend: {found.backend} ({found.detail})", file=out)
    print(f"board: {board.name}, {board.source}, {len(board.cells)} cells on a {board.rows}x{board.columns} matrix", file=out)
    close = getattr(found.device, "close", None)
    if close:
        close()
    _print_pi_checks(hal, port, found, out)  # the port is closed now: whoever else has it open is another program
    print("occupied: " + " ".join(cell for cell in board.cells if cell in found.occupied), file=out)
    return 0


def _serial_port(hal: str | None, port: str | None, found) -> str | None:
    """The serial port the board is on, or would be: the one given, the one answering, or the
    first Pico on USB."""
    if hal in ("sim", "gpio"):
        return None
    if port:
        return port
    if found is not None and found.backend == "serial":
        return getattr(found.device, "port", None)
    from reedboard.hal.serial_board import find_port

    return find_port()


def _print_pi_checks(hal: str | None, port: str | None, found, out, refusals: list[str] = ()) -> None:
    """The firmware's protocol, then the Pi's own checks (groups, SPI, I2C, the port free)."""
    from reedboard.hal.protocol import VERSION

    port = _serial_port(hal, port, found)
    extra = []
    hello = getattr(found.device, "firmware", None) if found is not None and found.backend == "serial" else None
    if hello is not None:
        print(f"firmware: {hello.firmware}, protocol {hello.version} (this controller speaks {VERSION})", file=out)
        extra.append(pi_checks.protocol_finding(hello.version, hello.firmware, VERSION, port))
    for refusal in refusals:
        other = OTHER_PROTOCOL.search(refusal)
        if other:
            extra.append(pi_checks.protocol_finding(other.group(1), other.group(2), VERSION, port))
    facts = pi_checks.gather_facts(port)
    for line in pi_checks.report_lines(facts, [finding for finding in extra if finding is not None]):
        print(line, file=out)
