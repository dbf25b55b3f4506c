"""Choosing and opening a board backend (hal.registry names them: gpio, serial, sim).

Each backend is tried only when asked for (or, with no choice made, the registry's hardware
backends in order: serial then gpio); what was tried and why it failed is kept, so a person
can be told. What asks for a backend (`asked_for`): its name, a port (the serial backend), or
a board file named whose backend is hardware. With no board file named, every shipped board that has the hollows asked for
is a candidate: a Pico's hello (its matrix size) tells which one is plugged in.

What was tried, and what a board found is (Found.detail), are said in English and kept as their
words and values too (Reason), so that a command says them in the language in use: the words are
marked with N_ for the commands' catalogue (controller/language/extraction.py reads this file).
"""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field

from .board import Board, BoardError, load_board, shipped_boards
from .install import pip_extra
from .registry import BACKENDS, HANDS, PORT, can, unasked, with_capability


def N_(message: str) -> str:
    """Marks words for the commands' catalogue; a command looks them up where it shows them."""
    return message


class Reason(str):
    """Words about a backend, in English (the string itself), with the words as written
    (`words`, a brace template marked N_) and their values (`values`; a list is a list of names)
    kept, for a command to say them in the language in use."""

    words: str
    values: dict

    def __new__(cls, words: str, **values) -> Reason:
        english = {key: _names(value) if isinstance(value, (list, tuple)) else value for key, value in values.items()}
        reason = super().__new__(cls, words.format(**english))
        reason.words, reason.values = words, values
        return reason

    def __reduce__(self):  # kept whole across processes
        return _reason, (self.words, self.values)


def _reason(words: str, values: dict) -> Reason:
    return Reason(words, **values)


def _names(names) -> str:
    names = [str(name) for name in names]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


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
    detail: str = ""  # what it is, for people: "Pico on /dev/ttyACM0" (a Reason)
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
            raise LookupError(Reason(N_("serial: no Raspberry Pi Pico on USB (looked for USB vendor {vendor})"),
                                     vendor="2e8a"))
    problems = []
    for board in boards:
        link = SerialBoard(board, device)
        try:
            occupied = link.probe(timeout)
        except BoardRefused as error:  # another matrix size: maybe the next board fits
            problems.append(str(error))
            continue
        except SerialBoardError as error:
            raise LookupError(Reason(N_("serial: {problem}"), problem=str(error))) from None
        return Found("serial", board, link, Reason(N_("Pico on {port}"), port=device), occupied)
    raise LookupError(Reason(N_("serial: {problem}"), problem="; ".join(problems)))


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
        raise LookupError(Reason(N_("gpio: no GPIO pins here (not a Raspberry Pi, or lgpio missing: {install})"),
                                 install=pip_extra("pi"))) from None
    except GpioUnavailable as error:
        raise LookupError(Reason(N_("gpio: {problem}"), problem=str(error))) from None
    except OSError as error:  # a device file that is missing or refused: its name and why, in words
        where = f"{error.filename}: " if error.filename else ""
        raise LookupError(Reason(N_("gpio: {problem}"),
                                 problem=f"{where}{(error.strerror or str(error)).lower()}")) from None
    except Exception as error:  # a pin in use, an expander that does not answer, ...
        raise LookupError(Reason(N_("gpio: {problem}"), problem=f"{type(error).__name__}: {error}")) from None
    return Found("gpio", board, device, Reason(N_("reed switches on the Pi's pins")), occupied)


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
    return Found("sim", board, device, Reason(N_("the simulated board")), frozenset(device.occupied))


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
            tried.append(Reason(N_("{name}: no such backend ({backends})"), name=name, backends=sorted(BACKENDS)))
            continue
        try:
            return backend.open(boards, request)
        except LookupError as error:
            reason = error.args[0] if error.args else ""
            tried.append(reason if isinstance(reason, Reason) else str(error))
    raise NoBoard(tried)
