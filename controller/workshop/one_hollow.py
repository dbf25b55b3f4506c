"""The one-hollow test: one reed switch watched while a builder tries a magnet in its hollow.

Pure: frames of closed switch addresses with their times in; each close and open of a switch
out, with how many times it closed and for how long. It works on switch addresses (the place
in the matrix, row * columns + column), as the self-test and the calibration do, so a board
whose board file is still wrong is watched as it is wired: the hollow a switch belongs to is
only a name, from the board file. `any switch` (no hollow chosen) follows whichever switch
changed last.

The words a builder reads, in the language in use: each change ("a1 closed (2 times so far)"),
the sum at the end, and the guidance (`guidance`): how far above the glass the magnet must close
the switch through the floor, and what to try when it does not (hardware/README.md, "The
magnets" and the one-hollow test of "Drilling"): a thinner floor, a stronger magnet or a more
sensitive switch, the switch lying along the magnet's field, the wiring of its row and column;
and what to try when it closes with the next hollow's piece too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from reedboard.hal.board import Board

from ..language.catalogue import COMMANDS

_ = COMMANDS.gettext
ngettext = COMMANDS.ngettext

ANY = "any"  # the name that chooses any switch

# hardware/README.md, "The magnets" and "Drilling" (its one-hollow test): what a board is built to
MAGNET_ABOVE_GLASS_MM = 5  # the magnet's lower face above the middle of the glass, in a finished board:
FELT_MM, FLOOR_MM, HALF_GLASS_MM = 1, 3, 1  # the felt under the piece, the hollow's floor, half the glass
STILL_CLOSES_AT_MM = 8  # the margin: the switch must still close this far (3 mm of card in the hollow)
THINNER_FLOOR_MM, THINNEST_FLOOR_MM, GROOVE_MM = 2.5, 2, 1  # a floor made thinner, never below; a groove
SWITCH_OFFSET_MM = 6  # the switch's centre beside the hollow's: the magnet over one end of the glass
MORE_SENSITIVE_AT, SENSITIVE_AT, LESS_SENSITIVE_AT = "10-15", "15-20", "20-30"  # reed switches' ampere-turns


@dataclass
class Count:
    """One switch: closed now or not, how many times it closed, since when it is as it is,
    and how long it was closed over the closes that ended."""

    closed: bool = False
    closes: int = 0
    since: float | None = None  # its last change (or when it was first seen, closed)
    held: float = 0.0  # s closed, over the closes that ended
    last_held: float | None = None  # s its last close lasted

    def closed_for(self, now: float) -> float:
        """Seconds closed in all, the close going on now included."""
        if self.closed and self.since is not None:
            return self.held + max(0.0, now - self.since)
        return self.held

    def as_dict(self) -> dict:
        return {"closed": self.closed, "closes": self.closes, "since": self.since, "held": round(self.held, 3),
                "last_held": None if self.last_held is None else round(self.last_held, 3)}


@dataclass(frozen=True)
class Change:
    """A switch closed or opened at `t`: `closes` counts its closes so far (this one included);
    `held` is how long the close that ended lasted (on opening), or None."""

    t: float
    address: int
    closed: bool
    closes: int
    held: float | None = None


@dataclass
class SwitchCounts:
    """Every switch's closes and their lengths, from frames of closed addresses. A switch that
    is closed in the first frame (a piece on the board) is closed from then on, not a close."""

    counts: dict[int, Count] = field(default_factory=dict)
    closed: frozenset[int] = frozenset()
    last: int | None = None  # the switch that changed last
    seen: bool = False

    def frame(self, t: float, closed: Iterable[int]) -> list[Change]:
        closed = frozenset(closed)
        if not self.seen:
            self.seen = True
            self.closed = closed
            for address in sorted(closed):
                self.counts[address] = Count(True, 0, t)
            return []
        changes = []
        for address in sorted(self.closed ^ closed):
            count = self.counts.setdefault(address, Count())
            if address in closed:
                count.closed, count.since = True, t
                count.closes += 1
                changes.append(Change(t, address, True, count.closes))
            else:
                held = max(0.0, t - count.since) if count.since is not None else 0.0
                count.closed, count.since = False, t
                count.held += held
                count.last_held = held
                changes.append(Change(t, address, False, count.closes, held))
            self.last = address
        self.closed = closed
        return changes

    def reset(self, t: float) -> None:
        """Counting starts again: switches closed now are closed since `t`, with no closes."""
        self.counts = {address: Count(True, 0, t) for address in self.closed}
        self.last = None

    def count(self, address: int) -> Count:
        return self.counts.get(address, Count(address in self.closed))


class OneHollow:
    """The test of one hollow's switch (`cell`), or of any switch (`cell` None)."""

    def __init__(self, board: Board, cell: str | None = None) -> None:
        if cell is not None and cell not in board.sensor:
            raise ValueError(f"no hollow {cell!r} on the {board.name} board")
        self.board = board
        self.cell = cell
        self.address = board.sensor[cell] if cell is not None else None
        self.counts = SwitchCounts()

    def frame(self, t: float, closed: Iterable[int]) -> list[Change]:
        """Every switch's changes (the hollow's and the others'), in address order."""
        return self.counts.frame(t, closed)

    def mine(self, change: Change) -> bool:
        """A change of the switch under test (any switch's, for `any`)."""
        return self.address is None or change.address == self.address

    @property
    def shown(self) -> int | None:
        """The switch the test shows: the hollow's, or for `any` the last that changed."""
        return self.address if self.address is not None else self.counts.last

    # --- words ---------------------------------------------------------------------------------
    def line(self, change: Change) -> str:
        """A change as the terminal prints it."""
        name = switch_name(self.board, change.address)
        if change.closed:
            if not self.mine(change):
                return _("{switch} closed, not {cell}: is the magnet in {cell}?").format(
                    switch=name, cell=self.cell)
            return ngettext("{switch} closed ({n} time so far)", "{switch} closed ({n} times so far)",
                            change.closes).format(switch=name, n=change.closes)
        return _("{switch} opened after {seconds} s").format(switch=name, seconds=_seconds(change.held or 0.0))

    def summary(self, now: float) -> str:
        """What the test saw of the switch under test, at its end."""
        if self.address is None:
            closing = sorted(a for a, c in self.counts.counts.items() if c.closes)
            if not closing:
                return _("no switch closed")
            return ngettext("{n} switch closed: {switches}", "{n} switches closed: {switches}", len(closing)).format(
                n=len(closing), switches=", ".join(switch_name(self.board, a) for a in closing))
        count = self.counts.count(self.address)
        if not count.closes:
            return _("{cell} never closed").format(cell=self.cell)
        return ngettext("{cell} closed {n} time, {seconds} s in all", "{cell} closed {n} times, {seconds} s in all",
                        count.closes).format(cell=self.cell, n=count.closes, seconds=_seconds(count.closed_for(now)))


def _seconds(value: float) -> str:
    return f"{value:.2f}"


def find_hollow(board: Board, name: str) -> str | None:
    """The hollow `name` names (its case as the board file has it), None for `any`; ValueError
    (in words) for a name the board has not."""
    if name.strip().lower() == ANY:
        return None
    by_lower = {cell.lower(): cell for cell in board.cells}
    found = by_lower.get(name.strip().lower())
    if found is None or found not in board.sensor:
        shown = ", ".join(board.cells[:4]) + (", ..." if len(board.cells) > 4 else "")
        raise ValueError(_("no hollow {name} on the {board} board (its hollows: {cells}; or any)").format(
            name=repr(name), board=board.name, cells=shown))
    return found


def place(board: Board, address: int) -> tuple[int, int]:
    """A switch address's matrix row and column."""
    return divmod(address, board.columns)


def switch_name(board: Board, address: int) -> str:
    """"a1 (sensor 0)", or "sensor 12 (row 1, column 5; under no hollow)" for a switch the board
    file puts under no hollow."""
    cell = board.cell_at(address)
    if cell is not None:
        return _("{cell} (sensor {address})").format(cell=cell, address=address)
    row, column = place(board, address)
    return _("sensor {address} (row {row}, column {column}; under no hollow)").format(
        address=address, row=row, column=column)


@dataclass(frozen=True)
class Guidance:
    """What a builder reads beside the switch: what must happen, and what to try when it does not."""

    expect: str  # the distance at which the magnet must close the switch
    if_open: tuple[str, ...]  # when it does not close, in the order to try
    if_neighbour: str  # when the piece closes the next hollow's switch too

    def lines(self) -> list[str]:
        return [self.expect, _("It does not close:")] + [f"  - {text}" for text in self.if_open] + [self.if_neighbour]

    def as_dict(self) -> dict:
        return {"expect": self.expect, "if_open": list(self.if_open), "if_neighbour": self.if_neighbour}


def neighbour_mm(board: Board, cell: str) -> float | None:
    """How far the nearest other hollow's centre is from this one's (None without positions)."""
    if cell not in board.position:
        return None
    x, y = board.position[cell]
    distances = [((x - u) ** 2 + (y - v) ** 2) ** 0.5 for c, (u, v) in board.position.items() if c != cell]
    return min(distances) if distances else None


def guidance(board: Board, cell: str | None = None) -> Guidance:
    """The guidance for a hollow's switch (`cell`), or for any switch, in the language in use."""
    distances = dict(low=MAGNET_ABOVE_GLASS_MM, felt=FELT_MM, floor=FLOOR_MM, glass=HALF_GLASS_MM,
                     high=STILL_CLOSES_AT_MM, card=STILL_CLOSES_AT_MM - MAGNET_ABOVE_GLASS_MM)
    if cell is not None:
        address = board.sensor[cell]
        row, column = place(board, address)
        expect = _("Put a piece in {cell}: its switch, sensor {address} (row {row}, column {column}), must close with"
                   " the magnet's lower face {low} mm above the middle of the glass (the felt, {felt} mm, the floor,"
                   " {floor} mm, and half the glass, {glass} mm), and still close at {high} mm: stand the piece on"
                   " {card} mm of card in the hollow.").format(cell=cell, address=address, row=row, column=column,
                                                               **distances)
        wiring = _("Hold the magnet right on the glass: if the switch still stays open, it is the switch or its"
                   " wiring: its diode (the band toward the row wire), the wire of row {row} and of column {column}"
                   " to the controller. When no switch of row {row} (or of column {column}) closes, it is that"
                   " wire.").format(row=row, column=column)
        near = neighbour_mm(board, cell)
    else:
        expect = _("Put a piece in any hollow: its switch must close with the magnet's lower face {low} mm above the"
                   " middle of the glass (the felt, {felt} mm, the floor, {floor} mm, and half the glass, {glass} mm),"
                   " and still close at {high} mm: stand the piece on {card} mm of card in the hollow.").format(
            **distances)
        wiring = _("Hold the magnet right on the glass: if the switch still stays open, it is the switch or its"
                   " wiring: its diode (the band toward the row wire), the wires of its row and column to the"
                   " controller. When no switch of a row (or of a column) closes, it is that wire.")
        near = None
    if_open = (
        _("A thinner floor: {thinner} mm (not under {thinnest} mm), or a {groove} mm groove for the switch in the"
          " underside.").format(thinner=f"{THINNER_FLOOR_MM:g}", thinnest=THINNEST_FLOOR_MM, groove=GROOVE_MM),
        _("A stronger magnet (a thicker one, or N52), or a more sensitive switch ({more} AT rather than {usual}"
          " AT).").format(more=MORE_SENSITIVE_AT, usual=SENSITIVE_AT),
        _("The switch along the board, the magnet over the end of its glass (the switch's centre {offset} mm beside"
          " the hollow's): a reed switch closes best with the field running along its glass, and hardly at all with"
          " the magnet over its middle.").format(offset=SWITCH_OFFSET_MM),
        wiring,
    )
    if near is not None:
        neighbour = _("It closes with a piece in the next hollow, {distance} mm away, too: a weaker magnet (a thinner"
                      " one, or N35), or a less sensitive switch ({less} AT).").format(
            distance=f"{near:.0f}", less=LESS_SENSITIVE_AT)
    else:
        neighbour = _("It closes with a piece in the next hollow too: a weaker magnet (a thinner one, or N35), or a"
                      " less sensitive switch ({less} AT).").format(less=LESS_SENSITIVE_AT)
    return Guidance(expect, if_open, neighbour)
