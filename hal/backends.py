"""Choosing and opening a board backend: gpio, serial or sim.

Each backend is tried only when asked for (or, with no choice made, serial then gpio);
what was tried and why it failed is kept, so a person can be told.
"""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .board import Board, BoardError, load_board
from .sim import SimBoard

GAMES = ("bigballs", "offboard")


class NoBoard(RuntimeError):
    """No board could be reached; `tried` says what was tried and why each failed."""

    def __init__(self, tried: list[str]) -> None:
        self.tried = tried
        super().__init__("no board found: " + "; ".join(tried))


@dataclass
class Found:
    backend: str  # "gpio", "serial" or "sim"
    board: Board
    device: object  # the backend object (all the hal interfaces at once)
    detail: str = ""
    occupied: frozenset[str] = field(default_factory=frozenset)


def candidate_boards(board_path: str | None, game: str | None) -> list[Board]:
    if board_path is not None:
        return [load_board(board_path, game=game)]
    return [load_board(game=g) for g in ((game,) if game else GAMES)]


def open_serial(boards: list[Board], port: str | None, timeout: float = 3.0) -> Found:
    """The first board whose Pico answers on the port (the hello says its matrix size)."""
    from .serial_board import BoardRefused, SerialBoard, SerialBoardError, find_port

    device = port or boards[0].port
    if device == "auto":
        device = find_port()
        if device is None:
            raise LookupError("serial: no Raspberry Pi Pico on USB (looked for USB vendor 2e8a)")
    problems = []
    for board in boards:
        link = SerialBoard(board, device)
        try:
            occupied = link.probe(timeout)
        except BoardRefused as error:  # another matrix size: maybe the next board fits
            problems.append(str(error))
            continue
        except SerialBoardError as error:
            raise LookupError(f"serial: {error}") from None
        return Found("serial", board, link, f"Pico on {device}", occupied)
    raise LookupError(f"serial: {'; '.join(problems)}")


def open_gpio(boards: list[Board], timeout: float = 2.0) -> Found:
    from .gpio_board import GpioBoard

    from gpiozero.exc import BadPinFactory

    board = boards[0]
    try:
        with warnings.catch_warnings():  # gpiozero warns of each pin library it tries
            warnings.simplefilter("ignore")
            device = GpioBoard(board)
            occupied = asyncio.run(asyncio.wait_for(_first_frame(device), timeout))
    except BadPinFactory:
        raise LookupError("gpio: no GPIO pins here (not a Raspberry Pi, or lgpio missing:"
                          " install reedboard[pi])") from None
    except Exception as error:  # a pin in use, an expander that does not answer, ...
        raise LookupError(f"gpio: {type(error).__name__}: {error}") from None
    return Found("gpio", board, device, "reed switches on the Pi's pins", occupied)


async def _first_frame(device) -> frozenset[str]:
    stream = device.frames()
    try:
        frame = await stream.__anext__()
    finally:
        await stream.aclose()
    return frame.occupied


def open_sim(boards: list[Board], occupied: Iterable[str] = ()) -> Found:
    board = boards[0]
    device = SimBoard(board, occupied)
    return Found("sim", board, device, "the simulated board", frozenset(device.occupied))


def find_board(hal: str | None, board_path: str | None = None, port: str | None = None,
               game: str | None = None, sim_occupied: Iterable[str] = (), *,
               wiring: Callable[[Board], Board] | None = None) -> Found:
    """Open the backend asked for, or try serial then gpio; NoBoard says what was tried.

    `wiring` gives the board the hardware backends are opened with (the self-test and the
    calibration read raw sensors so); the Found still names the board file's board."""
    try:
        boards = candidate_boards(board_path, game)
    except BoardError as error:
        raise NoBoard([str(error)]) from None
    wired = [wiring(b) for b in boards] if wiring else boards
    order = [hal] if hal else ["serial", "gpio"]
    tried = []
    for backend in order:
        try:
            if backend in ("serial", "gpio"):
                found = open_serial(wired, port) if backend == "serial" else open_gpio(wired)
                found.board = boards[next(i for i, b in enumerate(wired) if b is found.board)]
                return found
            if backend == "sim":
                return open_sim(boards, sim_occupied)
            tried.append(f"{backend}: no such backend (gpio, serial or sim)")
        except LookupError as error:
            tried.append(str(error))
    raise NoBoard(tried)
