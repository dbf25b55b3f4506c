"""The board backends: each one's name, what it is, what it can do, the board-file table it
reads, and how it is opened.

The one seam between a backend and the rest: the board loader reads each backend's table
through its entry, the chooser (hal.backends.find_board) opens the entries, the command line
and the controller ask an entry what it can do (`can`) and never compare names. A backend's
modules are imported only when they are needed (its table read, its board opened), so that
naming them costs nothing and a missing extra only matters to the backend that needs it.

A new backend is one more entry (`register`): its module, its table and its capabilities.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field

# What a backend can do (Backend.can), as the controller asks it:
# its pieces are moved by hand in software (lift, place): clicks on the web view, a test's hands;
# its board is made empty as Class(board, clock=...) (hand_moved)
HANDS = "hands"
START = "start"  # it is opened holding a start position (Request.start), not the pieces it senses
UNASKED = "unasked"  # tried, in registry order, when no backend is named
PORT = "port"  # reached over a port a person may name (--port); its board says `port` and `firmware`
ADDRESSES = "addresses"  # switches and LEDs by address (hal.addresses): calibration and the self-test run on it
CAPABILITIES = (HANDS, START, UNASKED, PORT, ADDRESSES)


def _load(where: str):
    """The object named "module:name", imported now."""
    module, name = where.split(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class BoardTable:
    """The [section] of a board file a backend reads, and how.

    reader: "module:function", function(table, data, board) -> the backend's settings; `table`
      is the section ({} when the file has none), `data` the whole file (a backend may read a
      key of a shared table, as gpio reads [leds] driver), `board` the board's generic part
      (its source names the file in a BoardError).
    writer: "module:function", function(settings) -> TOML lines by table name (a calibrated
      board file is written with them; a backend may add keys to a shared table, as gpio to
      [leds]), or None for a table that is never written."""

    section: str
    reader: str
    writer: str | None = None

    def read(self, table: dict, data: dict, board):
        return _load(self.reader)(table, data, board)

    def write(self, settings) -> dict[str, list[str]]:
        return _load(self.writer)(settings) if self.writer else {}


@dataclass(frozen=True)
class Backend:
    name: str
    what: str  # for people, in --help and in what was tried
    opener: str  # "module:function": function(boards, request) -> hal.backends.Found
    device: str  # "module:Class" of its cell-level board (backend_of finds the entry of a board)
    table: BoardTable | None = None
    can: frozenset[str] = field(default_factory=frozenset)
    finds_port: str | None = None  # with PORT: "module:function" -> the port it opens when none is named (or None)

    def __post_init__(self) -> None:
        unknown = set(self.can) - set(CAPABILITIES)
        if unknown:
            raise ValueError(f"backend {self.name}: no capability {sorted(unknown)[0]!r} ({', '.join(CAPABILITIES)})")

    def open(self, boards, request):
        return _load(self.opener)(boards, request)


BACKENDS: dict[str, Backend] = {}

# The backend a board file means when its [board] table names none.
DEFAULT = "sim"


def register(backend: Backend) -> Backend:
    BACKENDS[backend.name] = backend
    return backend


register(Backend("serial", "a Raspberry Pi Pico on USB, running firmware/", "reedboard.hal.backends:open_serial",
                 "reedboard.hal.serial_board:SerialBoard",
                 BoardTable("serial", "reedboard.hal.backend_tables:read_serial", "reedboard.hal.backend_tables:write_serial"),
                 frozenset({UNASKED, PORT, ADDRESSES}), "reedboard.hal.serial_board:find_port"))
register(Backend("gpio", "reed switches and LEDs on the Raspberry Pi's own pins", "reedboard.hal.backends:open_gpio",
                 "reedboard.hal.gpio_board:GpioBoard",
                 BoardTable("gpio", "reedboard.hal.backend_tables:read_gpio", "reedboard.hal.backend_tables:write_gpio"),
                 frozenset({UNASKED, ADDRESSES})))
register(Backend("sim", "the simulated board, played in the web view", "reedboard.hal.backends:open_sim",
                 "reedboard.hal.sim:SimBoard",
                 BoardTable("sim", "reedboard.hal.backend_tables:read_sim"),
                 frozenset({HANDS, START, ADDRESSES})))


def names() -> tuple[str, ...]:
    return tuple(BACKENDS)


def unasked() -> tuple[str, ...]:
    """The backends tried, in this order, when none is named."""
    return tuple(name for name, backend in BACKENDS.items() if UNASKED in backend.can)


def names_in_words() -> str:
    """"gpio, serial or sim"."""
    listed = sorted(BACKENDS)
    return ", ".join(listed[:-1]) + " or " + listed[-1] if len(listed) > 1 else listed[0]


def can(backend: str | None, capability: str) -> bool:
    """Whether the backend named can do this (an unknown name or None can do nothing)."""
    entry = BACKENDS.get(backend) if backend is not None else None
    return entry is not None and capability in entry.can


def with_capability(capability: str) -> tuple[Backend, ...]:
    return tuple(backend for backend in BACKENDS.values() if capability in backend.can)


def port_found(backend: str | None = None) -> str | None:
    """The port the backend named would open when none is named (with no backend named: the
    first that is reached over a port, registry.PORT), or None: nothing plugged in, or a
    backend that is not reached over a port."""
    backends = [BACKENDS[backend]] if backend in BACKENDS else list(with_capability(PORT))
    for entry in backends:
        if PORT in entry.can and entry.finds_port:
            return _load(entry.finds_port)()
    return None


def backend_of(device) -> Backend | None:
    """The entry whose cell-level board `device` is (or is made from), or None for a board
    no backend declares (a test's own)."""
    kinds = {f"{kind.__module__}:{kind.__qualname__}" for kind in type(device).__mro__}
    return next((backend for backend in BACKENDS.values() if backend.device in kinds), None)


def device_can(device, capability: str) -> bool:
    """Whether the backend of this cell-level board can do this."""
    backend = backend_of(device)
    return backend is not None and capability in backend.can


def hand_moved(board, *, clock=None):
    """A board whose pieces are moved by hand, for `board` (a Board, or anything with `cells`
    for a board wired in their order), empty: the first backend that can (HANDS)."""
    backends = with_capability(HANDS)
    if not backends:
        raise LookupError("no backend moves its pieces by hand")
    module = backends[0].device
    return _load(module)(board, **({"clock": clock} if clock is not None else {}))
