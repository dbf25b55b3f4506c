"""The table moved by hand: the pieces a player's clicks move on a board whose pieces are moved
by hand in software (a backend that can, hal.registry.HANDS: the simulated board).

The sensors of such a board see only occupied or not, exactly as at a real table; the table also keeps which piece stands on which cell, the pieces in the hand
(lifted) and the pieces in the box (off the board: captured, pushed off, or not yet set up), so
a whole game can be played by clicks. The controller still works out the moves from the
sensors alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace

from reedboard.hal import registry
from reedboard.hal.board import BoardError, load_board
from reedboard.hal.interfaces import DieState, LightFrame

from .actions import ActionError
from ..games import Game
from ..language.catalogue import PLAY

_ = PLAY.gettext


@dataclass
class Held:
    """A piece in the hand, and the cell it was lifted from."""

    piece: str
    origin: str | None  # None: taken from the box


def board_by_hand_for(game: Game, clock: Callable[[], float]):
    """An empty board moved by hand (hal.registry.hand_moved) for the game's cells: the shipped
    board the game is played on, when it has exactly the game's cells."""
    try:
        board = load_board(game=game.board or game.name)
    except BoardError:
        board = None
    if board is None or tuple(board.cells) != tuple(game.cells):
        board = SimpleNamespace(cells=tuple(game.cells))
    return registry.hand_moved(board, clock=clock)


class HandTable:
    """The pieces on a board moved by hand, in the hand and in the box; clicks move them.

    `expected_piece(cell)` says which piece the set-up wants on an empty cell (it comes from
    the box by itself when the hand is empty), or None."""

    def __init__(self, board, expected_piece: Callable[[str], str | None] = lambda cell: None) -> None:
        self.board = board
        self.expected_piece = expected_piece
        self.physical: dict[str, str] = {}  # cell -> the piece standing there
        self.hand: list[Held] = []
        self.selected: int | None = None
        self.box: list[str] = []

    def arrange(self, placed: dict[str, str], box: list[str]) -> None:
        """Put the pieces as given (between games: nobody is listening)."""
        board = self.board
        for cell in sorted(board.occupied):
            board.lift(cell)
        self.physical = {}
        for cell, piece in placed.items():
            if piece:
                board.place(cell)
                self.physical[cell] = piece
        self.hand, self.selected, self.box = [], None, list(box)
        board.lights, board.die = LightFrame(), DieState()

    def cell(self, cell: object) -> str:
        """The board's name of `cell` (any case); ActionError for anything else."""
        if not isinstance(cell, str):
            raise ActionError(_("a cell is named by a string, not {cell}").format(cell=repr(cell)), 400)
        wanted = cell.strip().lower()
        for name in self.board.cells:
            if name.lower() == wanted:
                return name
        raise ActionError(_("no cell {cell} on this board").format(cell=repr(cell)), 404)

    def click(self, cell: object) -> None:
        """Lift the piece on `cell`, or put the piece in hand there."""
        cell = self.cell(cell)
        board = self.board
        if cell in board.occupied:
            self.hand.append(Held(self.physical.pop(cell, "?"), cell))
            board.lift(cell)
        else:
            held = self.hand.pop(self._piece_for(cell))
            self.selected = None
            board.place(cell)
            self.physical[cell] = held.piece

    def _piece_for(self, cell: str) -> int:
        """The hand's piece to put on `cell`: the one chosen, else the first one lifted.

        With an empty hand in the set-up, the piece the controller expects there comes from
        the box by itself."""
        if self.hand:
            if self.selected is not None and self.selected < len(self.hand):
                return self.selected
            return 0
        wanted = self.expected_piece(cell)
        if wanted and wanted in self.box:
            self.box.remove(wanted)
            self.hand.append(Held(wanted, None))
            return 0
        raise ActionError(_("{cell} is empty and nothing is in the hand: lift a piece first, or take one from the"
                            " box").format(cell=cell), 409)

    def select(self, index: object) -> None:
        """Choose the piece in hand that the next click on an empty cell puts down."""
        self.selected = self._index(index, self.hand, "hand")

    def aside(self, index: object = None) -> None:
        """Put a piece from the hand into the box (a captured piece, say)."""
        if not self.hand:
            raise ActionError(_("nothing in the hand to put aside"), 409)
        if index is None:
            index = self.selected if self.selected is not None else len(self.hand) - 1
        self.box.append(self.hand.pop(self._index(index, self.hand, "hand")).piece)
        self.selected = None

    def take(self, index: object) -> None:
        """Take a piece from the box into the hand."""
        self.hand.append(Held(self.box.pop(self._index(index, self.box, "box")), None))
        self.selected = len(self.hand) - 1

    @staticmethod
    def _index(index: object, items: list, where: str) -> int:
        """`index` of a piece in `items`, the hand's or the box's (`where`)."""
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(items):
            if where == "hand":
                raise ActionError(_("no piece {index} in the hand").format(index=repr(index)), 400)
            raise ActionError(_("no piece {index} in the box").format(index=repr(index)), 400)
        return index

    def name(self, cell: str, piece: str) -> None:
        """The stone on `cell` is `piece`, as the players told the board when it identified the
        stones: on a table moved by hand the stones take the numbers the hands give them (the
        table's own were made up, and never shown), so the piece of that name, wherever it is,
        takes the name the stone on `cell` had."""
        there = self.physical.get(cell)
        if not there or not piece or there == piece:
            return
        self.physical[cell] = piece
        for other, standing in self.physical.items():
            if standing == piece and other != cell:
                self.physical[other] = there
                return
        for held in self.hand:
            if held.piece == piece:
                held.piece = there
                return
        if piece in self.box:
            self.box[self.box.index(piece)] = there

    def cells_data(self) -> dict[str, str]:
        """Cell -> the piece physically there ("" for none), for a snapshot."""
        occupied = self.board.occupied
        return {cell: (self.physical.get(cell, "") if cell in occupied else "") for cell in self.board.cells}

    def data(self) -> dict:
        """The hand, the piece chosen and the box, for a snapshot."""
        return {"hand": [{"piece": h.piece, "from": h.origin} for h in self.hand], "selected": self.selected,
                "box": list(self.box)}
