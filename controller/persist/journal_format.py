"""The game journal's format: one JSON Lines file per game, and the checks of every line.

The first line is the header (the game, its start position, the settings, when it started);
then one entry a line: a die roll, a move, a takeback, an amended move, the result. A resumed
game goes on after a `resume` line, and players named afterwards are a `players` line (after
the result too). A header that cannot be used is a JournalError naming the file and line 1;
an entry's problem is named with its line.
"""

from __future__ import annotations

import json
import math
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..ground.settings import ClockSettings
from ..ground.settings import Settings
from ..games import Game, brief, game_from_header, header_keys, top_level
from ..games import game_header as header_of
from ..language.phrases import N_, Phrasebook, message_of
from .notation import starting_position

VERSION = 1
JOURNAL_KEYS = {"type", "version", "game", "settings", "started", "clock",
                "recovered_from",  # {"journal": NAME, "line": N}: the damaged journal this game goes on from
                "players",  # {COLOUR: NAME}: who played which colour (optional)
                "computer",  # {"plays": COLOUR, "level": 1 to the game's strongest, "version": TEXT}: the computer's side (optional)
                "event", "place",  # TEXT: the tournament or occasion, and where it was played (optional)
                "round", "table"}  # N: the tournament's round and the game's board number in it (optional)
NAME_LIMIT = 40  # characters of a player's name
DECISIONS = ("roll", "move", "takeback", "amend", "result")  # the entries that make the game (a replay's too)
TEXT_LIMIT = 200  # characters of an event's or a place's name, and of a move's comment
# besides these, a header holds the game's own keys (its start position): see games.header_keys
ENTRY_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {  # entry type -> its keys and their types
    "roll": {"t": (int, float), "player": (str,), "value": (int,)},
    "move": {"t": (int, float), "move": (str,)},
    "takeback": {"t": (int, float), "move": (str,)},
    "amend": {"t": (int, float), "old": (str,), "new": (str,)},
    "result": {"t": (int, float), "result": (str,), "reason": (str,), "winner": (str, type(None))},
    "resume": {"resumed": (str,)},  # the controller started again; `t` restarts from here
    "hint": {"t": (int, float), "player": (str,), "move": (str,)},  # the engine's best move, shown
    # the players renamed afterwards ({COLOUR: NAME}, over the header's); allowed after the result too
    "players": {"players": (dict,), "renamed": (str,)},
}
AFTER_THE_RESULT = {"resume", "players"}  # entries that may follow the result
OPTIONAL_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "roll": {"free": (bool,)},  # a number kept over a takeback: a big-ball move may drop it
    "move": {"clock": (dict,),  # with a game clock: each player's time left after the move
             "comment": (str,)},  # a comment on the move (a record imported with one)
}
NESTED_TOO_DEEPLY = N_("arrays or objects nested too deeply")  # looked up where it is said

phrase = Phrasebook("commands")


class JournalError(ValueError):
    """A journal that cannot be used; the message names the file and the line."""

    def __init__(self, path: str | Path | None, line: int | None, problem: str) -> None:
        self.path, self.line, self.problem = str(path or "journal"), line, problem
        where = self.path if line is None else f"{self.path}:{line}"
        super().__init__(f"{where}: " + problem)  # a phrase stays one


@dataclass(frozen=True)
class JournalContents:
    header: dict
    entries: list[dict]
    warning: str | None = None  # one line: a torn line that was ignored, the damage reading stopped at
    path: Path | None = None
    line_numbers: list[int] = field(default_factory=list)  # of each entry, for error messages
    damage: JournalError | None = None  # the damaged line reading stopped at; the entries are those before it


def game_header(game: Game) -> dict:
    """The game and its start position as header data (journal and trace headers both use it):
    {"game": NAME, ...the game's own keys}. A game keeps in it whatever resuming needs (a
    board definition as data, say), so that no other file is needed to go on."""
    return header_of(starting_position(game))


# --- checking a line ------------------------------------------------------------------------
def parse_line(line: bytes) -> tuple[dict | None, str]:
    """The line's JSON object, or None and what is wrong with it."""
    try:
        value = json.loads(line.decode("utf-8"))
    except RecursionError:
        return None, phrase(NESTED_TOO_DEEPLY)
    except (UnicodeDecodeError, ValueError):  # JSONDecodeError; an integer of too many digits
        return None, phrase("not a JSON object")
    return (value, "") if isinstance(value, dict) else (None, phrase("not a JSON object"))


def check_header(path: Path, header: dict) -> None:
    if header.get("type") != "header":
        raise JournalError(path, 1, phrase('the first line must be the header ({"type": "header", ...})'))
    if header.get("version") != VERSION:
        raise JournalError(path, 1, phrase("journal version {version}: this reedboard reads version {ours}",
                                           version=brief(header.get("version")), ours=VERSION))
    unknown = set(header) - JOURNAL_KEYS - header_keys()
    if unknown:
        raise JournalError(path, 1, phrase("unknown header key {key}", key=brief(sorted(unknown)[0])))
    if not isinstance(header.get("settings", {}), dict):
        raise JournalError(path, 1, phrase('"settings" must be an object'))
    try:
        Settings.from_mapping(header.get("settings", {}))  # the referee's own rules
    except ValueError as error:
        raise JournalError(path, 1, '"settings": ' + message_of(error)) from None
    if not isinstance(header.get("started", ""), str):
        raise JournalError(path, 1, phrase('"started" must be an ISO time string'))
    if "clock" in header:
        try:
            clock_settings(header["clock"])
        except (TypeError, ValueError) as error:
            raise JournalError(path, 1, '"clock": ' + message_of(error)) from None
    if "recovered_from" in header and recovered_from(header) is None:
        raise JournalError(path, 1, phrase('"recovered_from" must be {"journal": NAME, "line": N}'))
    for key in ("event", "place"):
        if key in header and not _is_text(header[key]):
            raise JournalError(path, 1, phrase('"{key}" must be 1 to {most} printable characters', key=key,
                                               most=TEXT_LIMIT))
    for key in ("round", "table"):
        if key in header and not is_count(header[key]):
            raise JournalError(path, 1, phrase('"{key}" must be a whole number from 1', key=key))
    try:
        players = start_game(header).players
    except ValueError as error:
        raise JournalError(path, 1, message_of(error)) from None
    problem = extras_problem(header, players)
    if problem:
        raise JournalError(path, 1, problem)


def is_player_name(name: object) -> bool:
    """A name a player may have: 1 to NAME_LIMIT printable characters, not only spaces."""
    return isinstance(name, str) and bool(name.strip()) and len(name) <= NAME_LIMIT and name.isprintable()


def _or(words) -> str:
    """"black or white", in the language in use."""
    words = list(words)
    if len(words) < 2:
        return "".join(words)
    return phrase("{names} or {last}", names=", ".join(words[:-1]), last=words[-1])


def extras_problem(header: Mapping, colours: tuple[str, ...]) -> str | None:
    """What is wrong with a header's player names or computer side (None: nothing)."""
    players = header.get("players", {})
    if not isinstance(players, dict):
        return phrase('"players" must be an object of colours and names')
    for colour, name in players.items():
        if colour not in colours:  # '"players": ' stays as it is: a record's reader takes it off
            return '"players": ' + phrase("no colour {colour} in this game ({colours})", colour=brief(colour),
                                          colours=_or(colours))
        if not is_player_name(name):
            return '"players": ' + phrase("the name of {colour} must be 1 to {most} printable characters, not {name}",
                                          colour=colour, most=NAME_LIMIT, name=brief(name))
    if "computer" in header:
        computer = header["computer"]
        if not isinstance(computer, dict) or set(computer) != {"plays", "level", "version"}:
            return phrase('"computer" must be {"plays": COLOUR, "level": LEVEL, "version": TEXT}')
        level = computer["level"]
        if computer["plays"] not in colours:
            return '"computer": ' + phrase("it plays {colours}, not {colour}", colours=_or(colours),
                                           colour=brief(computer["plays"]))
        if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= top_level():  # any game's
            return '"computer": ' + phrase("the level is 1 to {top}, not {level}", top=top_level(), level=brief(level))
        if not isinstance(computer["version"], str):
            return '"computer": ' + phrase("the version must be text")
    return None


def is_count(value: object) -> bool:
    """A tournament's round or board number: a whole number from 1."""
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value < 1 << 31


def occasion_problem(occasion: Mapping) -> str | None:
    """What is wrong with a game's occasion ({"event": TEXT, "round": N, "table": N}, each
    optional) for its journal's header (None: nothing)."""
    for key, value in occasion.items():
        if key not in ("event", "place", "round", "table"):
            return phrase("unknown header key {key}", key=brief(key))
        if key in ("round", "table") and not is_count(value):
            return phrase('"{key}" must be a whole number from 1', key=key)
        if key in ("event", "place") and not _is_text(value):
            return phrase('"{key}" must be 1 to {most} printable characters', key=key, most=TEXT_LIMIT)
    return None


def _is_text(value: object, limit: int = TEXT_LIMIT) -> bool:
    return isinstance(value, str) and bool(value.strip()) and len(value) <= limit and value.isprintable()


def recovered_from(header: object) -> tuple[str, int] | None:
    """The damaged journal (its name) and line a game goes on from, if its header says so."""
    source = header.get("recovered_from") if isinstance(header, dict) else None
    if not isinstance(source, dict) or set(source) != {"journal", "line"}:
        return None
    name, line = source["journal"], source["line"]
    if not isinstance(name, str) or not isinstance(line, int) or isinstance(line, bool):
        return None
    return name, line


def check_entry(path: Path, number: int, entry: dict) -> None:
    kind = entry.get("type")
    fields = ENTRY_FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise JournalError(path, number, phrase("unknown entry type {kind} (expected {kinds})", kind=brief(kind),
                                                kinds=", ".join(ENTRY_FIELDS)))
    optional = OPTIONAL_FIELDS.get(kind, {})
    keys = set(entry) - {"type"} - {k for k in optional if k in entry}
    for key, types in optional.items():
        if key in entry and not isinstance(entry[key], types):
            raise JournalError(path, number, phrase("{kind} entry: {key} {value} has the wrong type", kind=kind,
                                                    key=key, value=brief(entry[key])))
    if keys != set(fields):
        missing, extra = sorted(set(fields) - keys), sorted(keys - set(fields))
        if missing:
            raise JournalError(path, number, phrase("{kind} entry: missing {key}", kind=kind, key=brief(missing[0])))
        raise JournalError(path, number, phrase("{kind} entry: unknown key {key}", kind=kind, key=brief(extra[0])))
    for key, types in fields.items():
        value = entry[key]
        if not isinstance(value, types) or isinstance(value, bool):
            raise JournalError(path, number, phrase("{kind} entry: {key} {value} has the wrong type", kind=kind,
                                                    key=key, value=brief(value)))
    if "t" in entry and not _finite(entry["t"]):
        raise JournalError(path, number, phrase("{kind} entry: t must be a finite number of seconds", kind=kind))
    if "comment" in entry and (not _is_text(entry["comment"]) or any(c in entry["comment"] for c in ("{", "}", "[%"))):
        raise JournalError(path, number, phrase("{kind} entry: a comment is 1 to {most} printable characters,"
                                                " without {{ }} or [%", kind=kind, most=TEXT_LIMIT))


def _finite(number: int | float) -> bool:
    try:
        return math.isfinite(number)
    except OverflowError:  # an integer too big for a float
        return False


def clock_settings(data: object) -> ClockSettings:
    if not isinstance(data, dict) or set(data) != {"minutes", "increment"}:
        raise ValueError(phrase('a clock is {"minutes": M, "increment": S}'))
    return ClockSettings(data["minutes"], data["increment"])


# --- the game a header starts from ------------------------------------------------------------
STARTS_KEPT = 32  # start positions kept: reading many journals of one board builds each once
_starts: OrderedDict[str, Game] = OrderedDict()
_starts_lock = threading.Lock()


def start_game(header: Mapping) -> Game:
    """The game a journal header starts from, in its start position (a fresh copy: the caller
    may play on it); ValueError as games.game_from_header gives it. A board kept as data
    takes a while to check, so the starts of recent headers are kept, by their data; a
    header naming a file (a text with a dot or a slash) is read afresh, as the file may change."""
    own = {key: value for key, value in header.items() if key == "game" or key not in JOURNAL_KEYS}
    try:
        key = json.dumps(own, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        key = None
    if key is None or any(isinstance(v, str) and ("/" in v or "." in v) for v in own.values()):
        return game_from_header(header, JOURNAL_KEYS)
    with _starts_lock:
        kept = _starts.get(key)
        if kept is not None:
            _starts.move_to_end(key)
    if kept is None:
        kept = game_from_header(header, JOURNAL_KEYS)
        with _starts_lock:
            _starts[key] = kept
            while len(_starts) > STARTS_KEPT:
                _starts.popitem(last=False)
    return kept.copy()
