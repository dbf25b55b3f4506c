"""Choosing and opening a board backend (hal.registry names them: gpio, serial, sim).

Each backend is tried only when asked for (or, with no choice made, the registry's hardware
backends in order: serial then gpio); what was tried and why it failed is kept, so a person
can be told. What asks for a backend (`asked_for`): its name, a port (the serial backend), or
a board file named whose backend is hardware. With no board file named, every shipped board that has the hollows asked for
is a candidate: a Pico's hello (its matrix size) tells which one is plugged in.
"""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field

from .board import Board, BoardError, load_board, shipped_boards
from .install import pip_extra
from .registry import BACKENDS, HANDS, PORT, can, names_in_words, unasked, with_capability


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


@dataclass(frozen=True)
class Request:
    """What the opener of a backend is told besides the candidate boards."""

    port: str | None = None  # serial: a device or pyserial URL instead of the board file's
    start: Iterable[str] = ()  # a backend that keeps a start position (registry.START): the cells occupied
    timeout: float | None = None  # s to wait for the hardware to answer (None: the backend's own)
    pin_factory: str | None = None  # gpio: gpiozero's pin factory from the configuration


def candidate_boards(board_path: str | None, game: str | None = None, *,
                     cells: Iterable[str] | None = None) -> list[Board]:
    """The boards a game may be played on: the board file named, or the shipped board named
    `game` (a board's name), or else every shipped board that has the hollows in `cells`."""
    cells = tuple(cells) if cells is not None else None
    if board_path is not None or game is not None:
        return [load_board(board_path, game=game, cells=cells)]
    boards, problems = [], []
    for name in shipped_boards():
        try:
            boards.append(load_board(game=name, cells=cells))
        except BoardError as error:
            problems.append(str(error))
    if not boards:
        raise BoardError(problems[0] if problems else "no board is shipped (hardware/boards/ is empty)")
    return boards


def open_serial(boards: list[Board], request: Request | str | None = None, timeout: float = 3.0) -> Found:
    """The first board whose Pico answers on the port (the hello says its matrix size)."""
    from .serial_board import BoardRefused, SerialBoard, SerialBoardError, find_port

    if not isinstance(request, Request):  # open_serial(boards, port)
        request = Request(port=request)
    timeout = request.timeout or timeout
    device = request.port or boards[0].settings_of("serial").port
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


def open_gpio(boards: list[Board], request: Request | None = None, timeout: float = 2.0) -> Found:
    from .gpio_board import GpioBoard, GpioUnavailable

    timeout = (request.timeout if request is not None else None) or timeout
    from gpiozero.exc import BadPinFactory

    board = boards[0]
    try:
        with warnings.catch_warnings():  # gpiozero warns of each pin library it tries
            warnings.simplefilter("ignore")
            device = GpioBoard(board, pin_factory=request.pin_factory if request is not None else None)
            occupied = asyncio.run(asyncio.wait_for(_first_frame(device), timeout))
    except BadPinFactory:
        raise LookupError("gpio: no GPIO pins here (not a Raspberry Pi, or lgpio missing:"
                          f" {pip_extra('pi')})") from None
    except GpioUnavailable as error:
        raise LookupError(f"gpio: {error}") from None
    except OSError as error:  # a device file that is missing or refused: its name and why, in words
        where = f"{error.filename}: " if error.filename else ""
        raise LookupError(f"gpio: {where}{(error.strerror or str(error)).lower()}") from None
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


def open_sim(boards: list[Board], request: Request | Iterable[str] = ()) -> Found:
    from .sim import SimBoard

    occupied = request.start if isinstance(request, Request) else request
    board = boards[0]
    device = SimBoard(board, occupied)
    return Found("sim", board, device, "the simulated board", frozenset(device.occupied))


def asked_for(backend: str | None, port: str | None = None, board: Board | None = None) -> tuple[str | None, str | None]:
    """The backend a command is to open, and what named it ("backend", "port" or "board"):
    the backend named (--backend, the configuration's); else, with a port named, the backend
    reached over a port (registry.PORT); else the backend of the board file named, when it is
    hardware (not a board moved by hand). (None, None) when nothing names one: the hardware
    backends are then tried in turn, and only then may a command play on the simulated board.
    `board` is a board file someone named, never the shipped board chosen for them."""
    if backend is not None:
        return backend, "backend"
    over_port = with_capability(PORT)
    if port is not None and over_port:
        return over_port[0].name, "port"
    if board is not None and board.backend in BACKENDS and not can(board.backend, HANDS):
        return board.backend, "board"
    return None, None


def find_board(hal: str | None, board_path: str | None = None, port: str | None = None,
               game: str | None = None, start: Iterable[str] = (), *,
               cells: Iterable[str] | None = None, pin_factory: str | None = None) -> Found:
    """Open the backend asked for, or try the hardware backends in turn; NoBoard says what was
    tried. `game` names a board (a game says which it plays on), `cells` are the hollows the
    game needs (see candidate_boards), `start` the cells occupied on a backend that keeps a
    start position (registry.START). The device found is a cell-level board (hal.addresses
    CellBoard); its `addresses` is the backend's address-level board under it."""
    try:
        boards = candidate_boards(board_path, game, cells=cells)
    except BoardError as error:
        raise NoBoard([str(error)]) from None
    request = Request(port=port, start=start, pin_factory=pin_factory)
    tried = []
    for name in [hal] if hal else unasked():
        backend = BACKENDS.get(name)
        if backend is None:
            tried.append(f"{name}: no such backend ({names_in_words()})")
            continue
        try:
            return backend.open(boards, request)
        except LookupError as error:
            tried.append(str(error))
    raise NoBoard(tried)
