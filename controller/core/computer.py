"""The computer at the table, as the referee sees it: which side it plays, and the questions
the referee asks of its search (the computer's own move, or a hint for a player).

Pure data: the referee says what it wants decided (`Question`), an edge of the program
(controller.session.play_session) has it searched in a worker process and hands the answer back with the
question's key; an answer to a question no longer asked (the position moved on) is dropped.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from .. import __version__
from ..games import Game, level_today, top_level
from ..language.phrases import Phrasebook

phrase = Phrasebook("play")

ROLL_DECISION = "roll"  # the search's answer when the computer chooses to roll (opponent.ROLL)
HINT_LEVEL = 8  # a hint with no computer in the game searches as level 8 does (every game has it)


@dataclass(frozen=True)
class Computer:
    """The side the computer plays and its level (1 to the strongest of some game: the game
    played checks its own, check_level)."""

    plays: str
    level: int

    def __post_init__(self) -> None:
        check_level(self.level)

    def header(self) -> dict:
        """What the journal's header says of it."""
        return {"plays": self.plays, "level": self.level, "version": __version__}

    @classmethod
    def from_header(cls, data: dict | None, game: str | None = None) -> Computer | None:
        """The computer a journal's header names; in `game` (a name), at the level that plays as
        the recorded one did when the header's version wrote it (games.level_today)."""
        if not data:
            return None
        level = data["level"] if game is None else level_today(game, data["level"], data.get("version"))
        return cls(data["plays"], level)


@dataclass(frozen=True)
class Question:
    """A decision for the search: in `game` (a copy; `roll` the die shown, if any), for the
    computer's own move, or a hint for the player to move (`hint`)."""

    key: Hashable  # the position asked about: an answer counts only while it still stands
    game: Game
    roll: int | None
    level: int
    hint: bool = False


def check_level(level: object, game: str | None = None) -> int:
    """`level` if `game` (a name; None: any game) has it; ValueError (a phrase) otherwise."""
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= top_level(game):
        raise ValueError(phrase("the computer's level is 1 to {top}, not {level}", top=top_level(game), level=repr(level)))
    return level


def parse_opponent(text: str) -> int | None:
    """`--vs human`, `computer` or `computer:L`: None for a person, else the computer's level
    (5 by default); ValueError says what is expected, in one line."""
    if text in ("human", "person"):
        return None
    kind, colon, number = text.partition(":")
    if kind == "computer" and not colon:
        return 5
    if kind == "computer" and number.isdigit() and 1 <= int(number) <= top_level():
        return int(number)
    raise ValueError(phrase("the opponent is human, computer or computer:1 .. computer:{top}, not {text}",
                            top=top_level(), text=repr(text)))
