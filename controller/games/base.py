"""What every game offers the rest of reedboard.

A Game holds one position and the stack of moves that led to it (push/pop, as in
python-chess). Moves are small immutable values whose str() is the rules' notation.
The end of a game is an Outcome with a Termination reason. A Footprint says what a
move does physically, in sensed cells: the move recogniser is built on it.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from dataclasses import dataclass


class Termination(enum.Enum):
    """Why a game ended; the value is the word used in game records."""

    A7 = "a7"  # Big Balls: a stone reached the top hollow
    BALLS_ONLY = "balls-only"  # Big Balls: only big balls left, one can still move
    POINTS = "points"  # Off Board: six or more points
    UNREACHABLE = "unreachable"  # Off Board: neither player can reach six any more
    NO_MOVE = "no-move"  # the player to move has no legal move and loses
    RESIGN = "resign"
    AGREED = "agreed"
    TIME = "time"  # a player's clock ran out


@dataclass(frozen=True)
class Outcome:
    termination: Termination
    winner: str | None  # a player's name, None for a draw

    def result(self, players: Sequence[str]) -> str:
        """`1-0` when the first of `players` won, `0-1` for the second, `1/2-1/2` a draw."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == players[0] else "0-1"


@dataclass(frozen=True)
class Footprint:
    """What a move does to the sensed cells (cell names).

    empties:  cells occupied before and empty after
    fills:    cells empty before and occupied after
    captures: cells whose piece is taken while the cell stays occupied (the capturer lands there)
    passes:   cells that stay occupied while a moving line slides through them
    """

    empties: frozenset[str]
    fills: frozenset[str]
    captures: frozenset[str] = frozenset()
    passes: frozenset[str] = frozenset()


class MoveError(ValueError):
    """A move that cannot be read or is not legal here; the message says why."""


class GameOverError(MoveError):
    """A move was offered after the game had ended."""


class Game(ABC):
    """One game's position and move stack. Subclasses are the rules engines."""

    name: str  # "bigballs", "offboard"
    players: tuple[str, str]  # the first wins "1-0"

    def __init__(self) -> None:
        self.move_stack: list[Hashable] = []
        self._declared: Outcome | None = None

    # --- the position -------------------------------------------------------------
    @property
    @abstractmethod
    def turn(self) -> str:
        """The player to move."""

    @property
    @abstractmethod
    def cells(self) -> tuple[str, ...]:
        """Every sensed cell of the board, in board order."""

    @abstractmethod
    def occupied(self) -> frozenset[str]:
        """The cells a presence sensor sees occupied in this position."""

    @abstractmethod
    def diagram(self) -> str:
        """A text picture of the position for people."""

    @abstractmethod
    def copy(self) -> Game:
        """An independent game with the same position and move stack."""

    # --- moves --------------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> list:
        """Every legal move for the player to move (none once the game is over)."""

    def turn_moves(self, roll: int | None = None) -> list:
        """The moves the player may make now, given the die (games without a die ignore it)."""
        return self.legal_moves()

    def count_legal_moves(self) -> int:
        """len(legal_moves()), which engines compute faster for perft."""
        return len(self.legal_moves())

    def is_legal(self, move: Hashable) -> bool:
        return self.outcome() is None and move in self.legal_moves()

    @abstractmethod
    def push(self, move: Hashable) -> None:
        """Play a legal move (not checked: use is_legal or parse_move first)."""

    @abstractmethod
    def pop(self) -> Hashable:
        """Take back the last move and return it."""

    @abstractmethod
    def footprint(self, move: Hashable) -> Footprint:
        """What `move`, legal in this position, does to the sensed cells."""

    @abstractmethod
    def parse_move(self, text: str) -> Hashable:
        """The legal move written `text`; MoveError naming the reason otherwise."""

    def format_move(self, move: Hashable) -> str:
        return str(move)

    def piece_name(self, cell: str) -> str:
        """What stands on `cell` in this position, in a player's words ("black stone 3",
        "big ball", "red ball"); "piece" when the game cannot say."""
        return "piece"

    def roll_of(self, move: Hashable) -> int | None:
        """The die value `move` was made with (games with a die), else None. A takeback
        keeps it: the player moves again with the same number."""
        return None

    def play(self, text: str) -> Hashable:
        """Parse and push one move in notation; returns the move."""
        move = self.parse_move(text)
        self.push(move)
        return move

    # --- the end ------------------------------------------------------------------
    @abstractmethod
    def rules_outcome(self) -> Outcome | None:
        """The end by the rules alone, checked in the rules' order, or None."""

    def outcome(self) -> Outcome | None:
        """How the game ended (by the rules, a resignation or an agreed draw), or None."""
        return self._declared or self.rules_outcome()

    def resign(self, player: str) -> Outcome:
        """Record that `player` resigned; the other player wins."""
        if player not in self.players:
            raise ValueError(f"no player {player!r}; players are {', '.join(self.players)}")
        return self._declare(Outcome(Termination.RESIGN, self.other(player)))

    def lose_on_time(self, player: str) -> Outcome:
        """Record that `player`'s clock ran out; the other player wins."""
        if player not in self.players:
            raise ValueError(f"no player {player!r}; players are {', '.join(self.players)}")
        return self._declare(Outcome(Termination.TIME, self.other(player)))

    def agree_draw(self) -> Outcome:
        return self._declare(Outcome(Termination.AGREED, None))

    def _declare(self, outcome: Outcome) -> Outcome:
        if self.outcome() is not None:
            raise GameOverError("the game is already over")
        self._declared = outcome
        return outcome

    def other(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    def result(self) -> str | None:
        """`1-0`, `0-1`, `1/2-1/2`, or None while the game goes on."""
        outcome = self.outcome()
        return None if outcome is None else outcome.result(self.players)

    def _check_playable(self) -> None:
        if self.outcome() is not None:
            raise GameOverError(f"the game is over ({self.result()}, {self.outcome().termination.value})")
