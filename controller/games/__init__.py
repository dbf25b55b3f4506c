"""The rules engines (pure, no I/O beyond reading a board definition file) and their registry.

GAMES maps each game's name to its class. Everything outside this package learns the games
from the registry and the Game hooks alone; a new game is one line in REGISTERED.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from importlib import import_module

from ..language.phrases import Phrase, Phrasebook
from .base import Footprint, Game, GameOption, GameOverError, MoveError, Outcome, Termination, brief
from .bigballs import BigBalls, BigBallsMove, SetupError
from .offboard import OffBoard, OffBoardMove
from .offboard_layout import Layout, LayoutError, load_layout
from .perft import divide, perft

phrase = Phrasebook("play")

# "module.Class" of each game, in the order the page lists them.
REGISTERED = (
    "bigballs.BigBalls",
    "offboard.OffBoard",
    "abalone.Abalone",
)


def _load(entry: str) -> type[Game]:
    module, _dot, name = entry.partition(".")
    return getattr(import_module(f".{module}", __name__), name)


GAMES: dict[str, type[Game]] = {cls.name: cls for cls in map(_load, REGISTERED)}


def names_in_words(names: Iterable[str] | None = None, last: str = "or") -> str | Phrase:
    """The games' names for a message: "a, b or c" (sorted), a phrase for the words room to say."""
    names = sorted(GAMES if names is None else names)
    if len(names) == 1:
        return names[0]
    if last in ("or", "and"):  # in the language in use
        first = ", ".join(names[:-1])
        if last == "or":
            return phrase("{first} or {last}", first=first, last=names[-1])
        return phrase("{first} and {last}", first=first, last=names[-1])
    return f"{', '.join(names[:-1])} {last} {names[-1]}"


def top_level(name: str | None = None) -> int:
    """The computer's strongest level in game `name` (its levels are 1 to it; a name not
    registered: the default table's); None: the strongest in any game."""
    if name is None:
        return max(len(cls.computer_levels) for cls in (Game, *GAMES.values()))
    return len(GAMES.get(name, Game).computer_levels)


def level_today(name: str, level: int, version: str | None) -> int:
    """The level that plays as level `level` of game `name` did when the board's `version` recorded
    it (Game.renumbered_levels: a ladder given levels between since); `level` where none moved."""
    return GAMES.get(name, Game).renumbered_levels.get(version or "", {}).get(level, level)


def top_levels() -> str:
    """Each game's strongest level, for a command's help: "Abalone 13, Big Balls 8, Off Board 12"."""
    return ", ".join(f"{cls.title} {top_level(name)}" for name, cls in sorted(GAMES.items()))


def game_name(text: str) -> str:
    """A game's name as someone wrote it, in any case ("Abalone", "BIGBALLS"): the registered
    name it means, or the text as it was (for the caller to refuse, naming the games)."""
    folded = text.strip().lower() if isinstance(text, str) else text
    return folded if folded in GAMES else text


def colours() -> tuple[str, ...]:
    """Every player colour of the registered games, in registry order (the seats a name or the
    computer may take)."""
    return tuple(dict.fromkeys(p for cls in GAMES.values() for p in cls.players))


def game_class(name: object) -> type[Game]:
    """The registered game called `name`; ValueError (one line, naming the known games) otherwise."""
    cls = GAMES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"unknown game {brief(name)}: expected {names_in_words()}")
    return cls


def header_keys() -> frozenset[str]:
    """Every header key some registered game reads (a file's own keys come on top)."""
    return frozenset(key for cls in GAMES.values() for key in cls.header_keys)


def game_header(game: Game) -> dict:
    """The game and its start position as header data: {"game": name, **start_header()}.
    `game` must stand in its start position (no move on its stack)."""
    return {"game": game.name, **game.start_header()}


def game_from_header(header: Mapping, file_keys: Iterable[str] = ()) -> Game:
    """The game a journal or trace header describes, in its start position, dispatched on
    header["game"]; `file_keys` are the file's own keys, left out of what the game reads.
    ValueError (SetupError, LayoutError included) says what is wrong."""
    cls = game_class(header.get("game"))
    own = set(file_keys) | {"game"}
    return cls.from_header({key: value for key, value in header.items() if key not in own})


def catalog() -> list[dict]:
    """The registry for a page: each game's name, title, die, players, the set-up modes a player may
    choose for a new game ("given" is for replays and tests) and its start options (their words
    in the language in use)."""
    return [
        {"name": cls.name, "title": cls.title, "uses_die": cls.uses_die, "players": list(cls.players),
         "setup_modes": [mode for mode in cls.setup_modes if mode != "given"],
         "options": [option.for_page() for option in cls.options]}
        for cls in GAMES.values()
    ]


__all__ = [
    "GAMES", "REGISTERED", "BigBalls", "BigBallsMove", "Footprint", "Game", "GameOption", "GameOverError",
    "Layout", "LayoutError", "MoveError", "OffBoard", "OffBoardMove", "Outcome", "SetupError", "Termination",
    "catalog", "colours", "divide", "game_class", "game_from_header", "game_header", "header_keys", "load_layout",
    "names_in_words", "perft", "top_level",
]
