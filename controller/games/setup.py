"""What a game's set-up mode asks of the referee: the SetupGuide interface.

A game whose pieces cannot be set up by the lights alone (numbered stones the sensors cannot
tell apart) offers set-up modes; `Game.setup_guide(mode, rng)` returns a guide through one of
them, or None for "given" (the lights show the start position until the board matches it).

A guide is pure: it never sees the reconciler, the clock or the outputs. The referee tells it
what the board did (read while nothing is asked yet, reached the board asked for, a piece
lifted and put back) and carries out the steps it answers with, in their order:

    Expect(cells)     ask the reconciler for this board (the lights follow it)
    Replace(game)     the position to set up is now this game (a drawn arrangement)
    Announce(mode)    note the set-up prompt as it now stands (kind "setup", data {"mode"})
    Say(kind, data, refused)   note this (a Note's kind and data); `refused` also sounds the refusal
    Identify()        the pieces stand; each is now lifted and put back to be told apart
                      (the referee stops listening for moves: phase IDENTIFY)
    Play()            set-up done: the game (`guide.game`) begins

Between reactions the referee reads the guide's state: `reading` (the board is read before
anything is asked), `mode`, `game`, `pieces_known`, `marks()` (what the lights show beyond the
board asked for), `prompt(...)` (what is asked, as data) and `known_pieces()`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field

from .base import Game


@dataclass(frozen=True)
class Expect:
    cells: frozenset[str]


@dataclass(frozen=True)
class Replace:
    game: Game


@dataclass(frozen=True)
class Announce:
    mode: str


@dataclass(frozen=True)
class Say:
    kind: str
    data: dict = field(default_factory=dict, compare=False)
    refused: bool = False


@dataclass(frozen=True)
class Identify:
    pass


@dataclass(frozen=True)
class Play:
    pass


Step = Expect | Replace | Announce | Say | Identify | Play


@dataclass(frozen=True)
class Marks:
    """What the lights show in the set-up besides the board asked for.

    place:  where the piece being placed goes (shown as "place", not as a plain gap)
    number: the number the die shows (the stone placed or asked for)
    lift:   identification: the cells whose pieces may be the one asked for
    """

    place: frozenset[str] = frozenset()
    number: int | None = None
    lift: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Asked:
    """A prompt as data (kind and details): controller.core.view.Prompt without the import."""

    kind: str
    data: dict = field(default_factory=dict)


class SetupGuide(ABC):
    """A guide through one set-up mode of one game (see the module's words)."""

    mode: str  # the mode followed; "auto" until the board has said which it is
    game: Game  # the position being set up; the referee plays it once the guide says Play

    @property
    @abstractmethod
    def reading(self) -> bool:
        """Whether the board is still read to choose what to ask (nothing counts as a move)."""

    @property
    def pieces_known(self) -> bool:
        """Whether the pieces' identities are known (a view must not make numbers up)."""
        return True

    @abstractmethod
    def begin(self) -> list[Step]:
        """The steps when the referee starts (before its first note)."""

    @abstractmethod
    def read(self, board: frozenset[str]) -> list[Step]:
        """While `reading`: the board has settled as `board`."""

    @abstractmethod
    def reached(self) -> list[Step]:
        """The board matches the board last asked for."""

    def touched(self, cells: frozenset[str]) -> list[Step]:
        """While identifying: pieces on `cells` were lifted and put back."""
        return []

    def cleared(self) -> bool:
        """While identifying: the board has settled empty. True where the guide reads the board
        again (`reading`): the players cleared it to be guided another way."""
        return False

    def marks(self, identifying: bool) -> Marks:
        """What the lights show now besides the board asked for (`identifying`: phase IDENTIFY)."""
        return Marks()

    @abstractmethod
    def prompt(self, identifying: bool, stable: frozenset[str], wanted: frozenset[str] | None) -> Asked | None:
        """What is asked of the players now, given the board (`stable`) and the board asked for
        (`wanted`, None when nothing is); None: the plain set-up prompt (fill and empty)."""

    def known_pieces(self) -> dict[str, str]:
        """While identifying: cell -> piece code for every piece being told apart ("B4", "B?")."""
        return {}

    def table_start(self, rng: random.Random | None = None) -> dict[str, str]:
        """The pieces a simulated table starts with in this mode when it is not empty:
        cell -> piece code. By default the start position."""
        return {cell: piece for cell, piece in self.game.pieces().items() if piece}


def start_table(game: Game, guide: SetupGuide | None, rng: random.Random | None = None) -> dict[str, str]:
    """The pieces a simulated table starts with for `game` set up by `guide` (None: given)."""
    if guide is not None:
        return guide.table_start(rng)
    return {cell: piece for cell, piece in game.pieces().items() if piece}


__all__: Sequence[str] = (
    "Announce", "Asked", "Expect", "Identify", "Marks", "Play", "Replace", "Say", "SetupGuide", "Step", "start_table",
)
