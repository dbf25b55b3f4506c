"""Which pin each wire of a board goes to, so that a guide's finding can say what to check
("check row 0's wire from GP0 (pin 1) to its switches").

A board reached over a port (the serial backend's Pico) has its pins in firmware/pins.py (what
`reedboard firmware install` writes into board.json); one wired to the Pi has them in its
backend's table of the board file (BCM numbers, or MCP23017 expander ports); the simulated
board is named with the pins of the backend its board file says (a Pico's when that is the
simulated board too, as the drawings do). The names are the
drawings' (hardware/drawings.py): "GP0 (pin 1)", "BCM 5 (pin 29)", "0x20 GPA0".
"""

from __future__ import annotations

from dataclasses import dataclass

from reedboard.hal.board import Board


@dataclass(frozen=True)
class Wiring:
    """The pins of a board's wires, as people name them; empty (or None) where not known."""

    rows: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    leds: str | None = None  # the LED chain's data pin
    die_button: str | None = None
    ok_button: str | None = None
    buzzer: str | None = None

    def row(self, row: int) -> str | None:
        return self.rows[row] if 0 <= row < len(self.rows) else None

    def column(self, column: int) -> str | None:
        return self.columns[column] if 0 <= column < len(self.columns) else None


def pico_wiring(board: Board) -> Wiring:
    """The Pico's pins (firmware/pins.py), the first rows and columns of them."""
    from reedboard.hardware.drawings import PICO_PACKAGE, pico_pins

    try:
        pins = pico_pins()
    except Exception:  # a firmware folder that cannot be read: the findings say no pins
        return Wiring()

    def pin(gp) -> str | None:
        if not isinstance(gp, int):
            return None
        return f"GP{gp} (pin {PICO_PACKAGE[gp]})" if gp in PICO_PACKAGE else f"GP{gp}"

    rows, columns = tuple(pins.get("ROW_PINS", ())), tuple(pins.get("COLUMN_PINS", ()))
    return Wiring(tuple(pin(p) for p in rows[:board.rows]), tuple(pin(p) for p in columns[:board.columns]),
                  pin(pins.get("LED_PIN")), pin(pins.get("DIE_BUTTON_PIN")), pin(pins.get("OK_BUTTON_PIN")),
                  pin(pins.get("BUZZER_PIN")))


def table_wiring(board: Board, settings) -> Wiring:
    """The Pi's pins from the backend's table of the board file (its rows and columns, or the
    expanders they are on, the LED chain's data pin, the buttons and the buzzer)."""
    from reedboard.hardware.drawings import PI_HEADER

    def bcm(p) -> str | None:
        if p is None:
            return None
        return f"BCM {p} (pin {PI_HEADER[p]})" if p in PI_HEADER else f"BCM {p}"

    rows = tuple(bcm(p) for p in getattr(settings, "rows", ()))
    columns = tuple(bcm(p) for p in getattr(settings, "columns", ()))
    expander = getattr(settings, "expander", None)
    if expander is not None:
        try:
            from reedboard.hal.matrix import expander_pin
        except ImportError:  # eight lines to a port
            def expander_pin(index: int) -> tuple[int, int]:
                return divmod(index, 8)
        __, addresses = expander

        def port(letter: str, index: int) -> str | None:
            chip, bit = expander_pin(index)
            return f"0x{addresses[chip]:02X} GP{letter}{bit}" if chip < len(addresses) else None

        rows = tuple(port("A", r) for r in range(board.rows))
        columns = tuple(port("B", c) for c in range(board.columns))
    return Wiring(rows, columns, *(bcm(getattr(settings, name, None))
                                   for name in ("leds", "die_button", "ok_button", "buzzer")))


def wiring_of(board: Board, backend: str | None) -> Wiring:
    """The pins of `board` on `backend` (None, or a board moved by hand: the board file's own
    backend): a board reached over a port (a Pico) and the simulated one have the Pico's pins,
    the others those of their table in the board file."""
    from reedboard.hal import registry

    if backend is None or registry.can(backend, registry.HANDS):
        backend = board.backend
    try:
        if registry.can(backend, registry.PORT) or registry.can(backend, registry.HANDS):
            return pico_wiring(board)
        return table_wiring(board, board.settings_of(backend))
    except Exception:  # pins that cannot be read say nothing: a finding names the wire alone
        return Wiring()
