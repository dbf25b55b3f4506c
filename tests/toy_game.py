"""A toy game for the game seam's tests: Black and White put a stone on a free cell of a row in
turn; the one who fills the row wins. It is written only against controller.games' Game
interface (its hooks and its own ending), as a new game would be, and lives here, outside the
package: a test registers it with one entry in GAMES and plays it through the rest of reedboard.
"""

from __future__ import annotations

from collections.abc import Mapping

from reedboard.controller.language.catalogue import current
from reedboard.controller.games import Footprint, Game, GameOption, MoveError, Outcome, Termination

# the toy's own ending: its key is what its records and journals write
FILLED = Termination("filled", "by filling the row")
SPOKEN = {"en": "a stone on {cell}", "de": "ein Stein auf {cell}", "ro": "o piatră pe {cell}"}


class Toy(Game):
    """Black and White put a stone on a free cell of a row in turn; the one who fills the row wins."""

    name = "toy"
    title = "Toy Row"
    players = ("black", "white")  # the colours of the stones: the board lights the turn in them
    board = "toy"
    options = (GameOption("length", "the number of cells (default 4)", choices=("3", "4", "5")),)
    header_keys = ("length",)
    endings = (FILLED,)

    def __init__(self, length: int = 4) -> None:
        super().__init__()
        self.length = length
        self._stones: dict[str, str] = {}

    @property
    def turn(self) -> str:
        return self.players[len(self.move_stack) % 2]

    @property
    def cells(self) -> tuple[str, ...]:
        return tuple(f"c{n}" for n in range(1, self.length + 1))

    def occupied(self) -> frozenset[str]:
        return frozenset(self._stones)

    def diagram(self) -> str:
        return " ".join(self._stones.get(c, ".")[:1].upper() or "." for c in self.cells) + f"\n{self.status_line()}"

    def copy(self) -> Toy:
        twin = Toy(self.length)
        twin._stones, twin.move_stack, twin._declared = dict(self._stones), list(self.move_stack), self._declared
        return twin

    def legal_moves(self) -> list[str]:
        return [] if self.outcome() else [c for c in self.cells if c not in self._stones]

    def push(self, move: str) -> None:
        self._stones[move] = self.turn
        self.move_stack.append(move)

    def pop(self) -> str:
        move = self.move_stack.pop()
        del self._stones[move]
        self._declared = None
        return move

    def footprint(self, move: str) -> Footprint:
        return Footprint(empties=frozenset(), fills=frozenset({move}))

    def parse_move(self, text: str) -> str:
        move = text.strip().lower()
        if move not in self.legal_moves():
            raise MoveError(f"{text!r}: no free cell {move} on the row")
        return move

    def spoken(self, move: object) -> str:
        # a game from elsewhere, without a catalogue of ours: its own words, in the language in use
        return SPOKEN.get(current(), SPOKEN["en"]).format(cell=move)

    def rules_outcome(self) -> Outcome | None:
        if len(self._stones) == self.length:
            return Outcome(FILLED, self._stones[self.move_stack[-1]])
        return None

    def ending_words(self, outcome: Outcome) -> str:
        if outcome.termination == FILLED:
            return f"{outcome.winner.capitalize()} filled the row"
        return super().ending_words(outcome)

    @classmethod
    def from_options(cls, *, length: str | None = None, **others) -> Toy:
        cls.refuse_foreign_options({"length": length, **others})
        return cls(int(length or 4))

    def start_header(self) -> dict:
        return {"length": self.length}

    @classmethod
    def from_header(cls, header: Mapping) -> Toy:
        cls.refuse_foreign_keys(header)
        length = header.get("length", 4)
        if length not in (3, 4, 5):
            raise ValueError(f'"length" is 3, 4 or 5, not {length!r}')
        return cls(length)

    def record_header(self) -> list[str]:
        return [f"length {self.length}"]

    def next_start(self) -> Toy:
        return Toy(self.length)

    def pieces(self) -> dict[str, str]:
        return {c: self._stones.get(c, "")[:1].upper() for c in self.cells}

    def result_details(self) -> str:
        return f"{len(self._stones)} stones"

    def winner_cells(self, winner: str) -> frozenset[str]:
        return frozenset(c for c, p in self._stones.items() if p == winner)

    def light_meanings(self) -> dict[str, str]:
        return {"winner": "Game over: the stones of the player who filled the row."}

    def geometry(self) -> dict:
        cells = {c: [float(n), 0.0] for n, c in enumerate(self.cells)}
        return {"shape": "triangle", "cells": cells, "outline": [cells[self.cells[0]], cells[self.cells[-1]]],
                "goal": None, "sectors": [], "marbles": {"B": "black", "W": "white"}}

    def rules(self) -> dict:
        return {"sections": [{"title": "The aim", "points": ["Fill the row's last cell."]}],
                "diagrams": [("start", "The start", [], "An empty row."),
                             ("first", "A first move", ["c2"], "Black put a stone on c2.")]}
