"""The game journal: one JSON Lines file per game, so a game survives a power cut.

The first line is the header (the game, its start position, the settings, when it started);
then one entry a line: a die roll, a move, a takeback, an amended move, the result. Each line
is flushed and synced before the controller goes on, and nothing written is ever rewritten:
a resumed game appends to its journal, after a `resume` line, and players named afterwards are
a `players` line appended (after the result too).

A power cut can leave the last line half written. Reading ignores such a line with a warning;
`Journal.resume` ends it with a newline and writes the `resume` line right after it, so the
torn line stays recognisable. A header that cannot be used is a JournalError naming the file
and line 1. Damage further on (a line that is not JSON, an entry that is wrong or does not
replay) ends the reading there: every entry before it is kept, and the damage is named with
its line. A damaged journal is never written to: `go_on_in_new_journal` copies the game up to
the damage into a new journal, whose header names where it came from.
"""

from __future__ import annotations

import json
import logging
import math
import os
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from reedboard.controller.core.clock import ClockSettings
from reedboard.controller.games import Game, MoveError, game_from_header, header_keys
from reedboard.controller.games import game_header as header_of
from reedboard.hal.readfile import JOURNAL_LIMIT, read_bytes, read_first_line
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.persist.record import record_lines, starting_position
from reedboard.controller.persist.trace import brief, sync_directory

VERSION = 1
SUFFIX = ".jsonl"
TRACE_SUFFIX = ".trace.jsonl"
JOURNAL_KEYS = {"type", "version", "game", "settings", "started", "clock",
                "recovered_from",  # {"journal": NAME, "line": N}: the damaged journal this game goes on from
                "players",  # {COLOUR: NAME}: who played which colour (optional)
                "computer",  # {"plays": COLOUR, "level": 1-8, "version": TEXT}: the computer's side (optional)
                "event", "place"}  # TEXT: the tournament or occasion, and where it was played (optional)
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
    "move": {"clock": (dict,),  # with a game clock: each player's time left after the move
             "comment": (str,)},  # a comment on the move (a record imported with one)
}
NESTED_TOO_DEEPLY = "arrays or objects nested too deeply"

log = logging.getLogger(__name__)


class JournalError(ValueError):
    """A journal that cannot be used; the message names the file and the line."""

    def __init__(self, path: str | Path | None, line: int | None, problem: str) -> None:
        self.path, self.line, self.problem = str(path or "journal"), line, problem
        where = self.path if line is None else f"{self.path}:{line}"
        super().__init__(f"{where}: {problem}")


def default_games_dir() -> Path:
    """$XDG_DATA_HOME/reedboard/games, else ~/.local/share/reedboard/games."""
    data_home = os.environ.get("XDG_DATA_HOME", "")
    # The XDG spec says to ignore a relative (or empty) XDG_DATA_HOME.
    base = Path(data_home) if os.path.isabs(data_home) else Path.home() / ".local" / "share"
    return base / "reedboard" / "games"


# --- the start of a game as data -------------------------------------------------------------
def game_header(game: Game) -> dict:
    """The game and its start position as header data (journal and trace headers both use it):
    {"game": NAME, ...the game's own keys}. A game keeps in it whatever resuming needs (a
    board definition as data, say), so that no other file is needed to go on."""
    return header_of(starting_position(game))


# --- writing ---------------------------------------------------------------------------------
class Journal:
    """An open journal, appended to line by line."""

    def __init__(self, path: Path, file, lines: int = 0,
                 written: Callable[[Path, int, dict], None] | None = None,
                 origin: float = 0.0) -> None:  # use create() or resume()
        self.path = path
        # the controller's clock at the game's start: entries' times are written from it, so that a
        # record says when in the game a move was made (a resumed game's times go on from its last)
        self.origin = origin
        self._file = file
        self.lines = lines  # lines in the file so far: the next entry's line number is one more
        self.written = written  # told (path, line number, entry) of every line once it is on disk

    @classmethod
    def create(cls, games_dir: str | Path, game: Game, settings: Mapping, now: datetime,
               clock: ClockSettings | None = None, *, players: Mapping[str, str] | None = None,
               computer: Mapping[str, object] | None = None,
               written: Callable[[Path, int, dict], None] | None = None, origin: float = 0.0) -> Journal:
        """Start the journal of a new game (before its first move) in `games_dir`: `players`
        names the players by colour, `computer` says which side the computer plays (both
        optional); `written` is told of every line written, this header first."""
        if game.move_stack:
            raise ValueError("start the journal before the first move")
        header = {"type": "header", "version": VERSION, **game_header(game),
                  "settings": dict(settings), "started": now.isoformat(timespec="seconds")}
        if clock is not None:
            header["clock"] = {"minutes": clock.minutes, "increment": clock.increment}
        if players:
            header["players"] = dict(players)
        if computer:
            header["computer"] = dict(computer)
        problem = _extras_problem(header, game.players)
        if problem:
            raise ValueError(problem)
        journal = cls(*_new_file(Path(games_dir), game.name, now), written=written, origin=origin)
        journal._write(header)
        sync_directory(Path(games_dir))  # so the new file's name survives a power cut too
        return journal

    @classmethod
    def resume(cls, path: str | Path, now: datetime | None = None,
               written: Callable[[Path, int, dict], None] | None = None, t: float | None = None) -> Journal:
        """Open an unfinished game's journal to go on with it (appending, never rewriting); `t`:
        the controller's clock now, so that the game's times go on from its last entry's."""
        path = Path(path)
        contents = read_journal(path)
        if contents.damage is not None:  # what is appended after the damage would never be read
            raise JournalError(path, contents.damage.line, _damaged_is_not_resumed(path, contents))
        if rebuild(contents).finished:
            raise JournalError(path, None, "the game is over: there is nothing to resume")
        data = read_bytes(path, JOURNAL_LIMIT)
        torn = not data.endswith(b"\n")
        last = max((entry["t"] for entry in contents.entries if "t" in entry), default=0.0)
        journal = cls(path, open(path, "ab"), data.count(b"\n") + torn, written, origin=0.0 if t is None else t - last)
        now = datetime.now().astimezone() if now is None else now
        # A torn last line is closed with a newline; the resume line after it marks it as torn.
        journal._write({"type": "resume", "resumed": now.isoformat(timespec="seconds")}, b"\n" if torn else b"")
        return journal

    @property
    def trace_path(self) -> Path:
        """Where the flight recorder keeps this game's raw frames: `<stem>.trace.jsonl`."""
        return trace_path(self.path)

    def _since_start(self, t: float) -> float:
        return round(t - self.origin, 3) if self.origin else t

    def append_roll(self, t: float, player: str, value: int) -> None:
        self._write({"type": "roll", "t": self._since_start(t), "player": player, "value": value})

    def append_move(self, t: float, move_text: str, clock: Mapping[str, float] | None = None,
                    comment: str | None = None) -> None:
        entry = {"type": "move", "t": self._since_start(t), "move": move_text}
        if clock is not None:
            entry["clock"] = dict(clock)
        if comment is not None:
            entry["comment"] = comment
        self._write(entry)

    def append_takeback(self, t: float, move_text: str) -> None:
        self._write({"type": "takeback", "t": self._since_start(t), "move": move_text})

    def append_amend(self, t: float, old_text: str, new_text: str) -> None:
        self._write({"type": "amend", "t": self._since_start(t), "old": old_text, "new": new_text})

    def append_result(self, t: float, result: str, reason: str, winner: str | None) -> None:
        self._write({"type": "result", "t": self._since_start(t), "result": result, "reason": reason, "winner": winner})

    def append_hint(self, t: float, player: str, move_text: str) -> None:
        self._write({"type": "hint", "t": self._since_start(t), "player": player, "move": move_text})

    def append_entry(self, entry: Mapping) -> None:
        """An entry as another journal holds it (what a trace decided, a club's copy of a board's
        game): checked as reading checks it (JournalError), then written."""
        entry = dict(entry)
        _check_entry(self.path, self.lines + 1, entry)
        self._write(entry)

    def _write(self, entry: dict, prefix: bytes = b"") -> None:
        # One whole line, flushed and synced: a power cut loses at most the line being written.
        self._file.write(prefix + (json.dumps(entry, allow_nan=False) + "\n").encode("utf-8"))
        self._file.flush()
        os.fsync(self._file.fileno())
        self.lines += 1
        if self.written is not None:
            self.written(self.path, self.lines, entry)

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def _new_file(games_dir: Path, game: str, now: datetime):
    """A new journal's path in games_dir, named by its start, and the file, opened to write."""
    games_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{now:%Y%m%d-%H%M%S}-{game}"
    for n in range(1, 1000):  # two games started in one second get -2, -3, ...
        path = games_dir / f"{stem}{'' if n == 1 else f'-{n}'}{SUFFIX}"
        try:
            return path, open(path, "xb")
        except FileExistsError:
            continue
    raise FileExistsError(f"{games_dir}: too many games started at {now}")


def trace_path(journal_path: str | Path) -> Path:
    path = Path(journal_path)
    return path.with_name(path.name.removesuffix(SUFFIX) + TRACE_SUFFIX)


# --- reading ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class JournalContents:
    header: dict
    entries: list[dict]
    warning: str | None = None  # one line: a torn line that was ignored, the damage reading stopped at
    path: Path | None = None
    line_numbers: list[int] = field(default_factory=list)  # of each entry, for error messages
    damage: JournalError | None = None  # the damaged line reading stopped at; the entries are those before it


@dataclass(frozen=True)
class Resumed:
    game: Game  # the position after every recorded move
    pending_roll: int | None  # the die value showing, when the player had rolled but not moved
    finished: bool  # a result was recorded
    clock: ClockSettings | None = None  # the game clock, if the game had one
    clock_remaining: dict[str, float] | None = None  # each player's time after the last move


def read_journal(path: str | Path) -> JournalContents:
    """Read and check a journal, replaying it through the rules engine.

    A torn last line (a power cut) is ignored with a warning. A header that cannot be used is
    a JournalError naming line 1. Any other damage (a line that is not JSON, an entry that is
    wrong or does not replay) ends the reading: the entries before it are kept, `damage` names
    the line and the problem, and `warning` says so in one line."""
    return read_game(path)[0]


def read_game(path: str | Path) -> tuple[JournalContents, Resumed | None]:
    """read_journal, and the game its entries leave from the same replay (as `rebuild` gives
    it); None for the game when the engine cut the entries short (rebuild them for it)."""
    path = Path(path)
    try:
        data = read_bytes(path, JOURNAL_LIMIT, "journal")
    except OSError as error:
        raise JournalError(path, None, f"cannot read the journal ({error})") from None
    if not data:
        raise JournalError(path, None, "empty: a journal starts with a header line")
    raw = data.split(b"\n")
    ends_cleanly = raw[-1] == b""
    if ends_cleanly:
        raw.pop()

    kept: list[tuple[int, dict]] = []
    torn: list[int] = []  # unreadable lines waiting to be judged by what follows them
    ignored: list[int] = []  # torn lines a power cut explains
    why: dict[int, str] = {}  # of each unreadable line
    for number, line in enumerate(raw, 1):
        value, problem = _parse(line)
        if value is None:
            torn.append(number)
            why[number] = problem
            continue
        if torn:
            if value.get("type") not in ("resume", "players"):  # lines written after a cut vouch for it
                break
            ignored += torn
            torn = []
        kept.append((number, value))
    damage = None
    if torn:
        if torn == [len(raw)] and not ends_cleanly:  # the last line, cut by a power cut
            ignored += torn
        else:
            damage = _damaged(path, torn[0], why[torn[0]])

    if not kept or kept[0][0] != 1:
        raise _damaged(path, 1, why.get(1, ""))
    header = kept[0][1]
    try:
        _check_header(path, header)
    except RecursionError:  # nesting the parser took, too deep to check
        raise JournalError(path, 1, f"the header line is damaged: {NESTED_TOO_DEEPLY}") from None
    entries: list[tuple[int, dict]] = []
    for number, entry in kept[1:]:
        try:
            _check_entry(path, number, entry)
        except JournalError as error:  # always before a damage found above: kept ends there
            damage = error
            break
        except RecursionError:
            damage = JournalError(path, number, f"damaged line: {NESTED_TOO_DEEPLY}")
            break
        entries.append((number, entry))
    return _replayed(path, header, entries, ignored, damage)


def _replayed(path: Path, header: dict, entries: list[tuple[int, dict]], ignored: list[int],
              damage: JournalError | None) -> tuple[JournalContents, Resumed | None]:
    """The contents, checked by the engine (the entries up to a move that does not replay), and
    the game they leave when nothing was cut off by the engine."""
    resumed = None
    try:
        resumed = rebuild(_contents(header, entries, path))  # the engine has the last word on every move
    except JournalError as error:
        if error.line in (None, 1):
            raise
        damage = error
        entries = [(n, e) for n, e in entries if n < error.line]
    if damage is not None:
        ignored = [n for n in ignored if n < damage.line]
    return _contents(header, entries, path, _warning(path, ignored, damage), damage), resumed


def _contents(header: dict, entries: list[tuple[int, dict]], path: Path, warning: str | None = None,
              damage: JournalError | None = None) -> JournalContents:
    return JournalContents(header, [e for _, e in entries], warning, path, [n for n, _ in entries], damage)


def _parse(line: bytes) -> tuple[dict | None, str]:
    """The line's JSON object, or None and what is wrong with it."""
    try:
        value = json.loads(line.decode("utf-8"))
    except RecursionError:
        return None, NESTED_TOO_DEEPLY
    except (UnicodeDecodeError, ValueError):  # JSONDecodeError; an integer of too many digits
        return None, "not a JSON object"
    return (value, "") if isinstance(value, dict) else (None, "not a JSON object")


def _damaged(path: Path, number: int, why: str) -> JournalError:
    if number == 1:
        detail = f" ({why})" if why == NESTED_TOO_DEEPLY else ""
        return JournalError(path, 1, f"the header line is damaged{detail}: this game cannot be restored")
    return JournalError(path, number, f"damaged line: {why or 'not a JSON object'}")


def _warning(path: Path, ignored: list[int], damage: JournalError | None) -> str | None:
    """One line on what was left out, or None."""
    parts = []
    if damage is not None:
        parts.append(f"{damage}; the game is read up to the line before it, and nothing from it on is used")
    if ignored:
        parts.append(_torn_warning(path, ignored))
    return "; ".join(parts) or None


def _torn_warning(path: Path, numbers: list[int]) -> str:
    lines = ", ".join(str(n) for n in numbers)
    return f"{path}: line {lines} was cut off (a power cut?) and is ignored; everything before it is kept"


def _check_header(path: Path, header: dict) -> None:
    if header.get("type") != "header":
        raise JournalError(path, 1, 'the first line must be the header ({"type": "header", ...})')
    if header.get("version") != VERSION:
        raise JournalError(path, 1, f"journal version {brief(header.get('version'))}:"
                                    f" this reedboard reads version {VERSION}")
    unknown = set(header) - JOURNAL_KEYS - header_keys()
    if unknown:
        raise JournalError(path, 1, f"unknown header key {brief(sorted(unknown)[0])}")
    if not isinstance(header.get("settings", {}), dict):
        raise JournalError(path, 1, '"settings" must be an object')
    try:
        Settings.from_mapping(header.get("settings", {}))  # the referee's own rules
    except ValueError as error:
        raise JournalError(path, 1, f'"settings": {error}') from None
    if not isinstance(header.get("started", ""), str):
        raise JournalError(path, 1, '"started" must be an ISO time string')
    if "clock" in header:
        try:
            _clock_settings(header["clock"])
        except (TypeError, ValueError) as error:
            raise JournalError(path, 1, f'"clock": {error}') from None
    if "recovered_from" in header and _recovered_from(header) is None:
        raise JournalError(path, 1, '"recovered_from" must be {"journal": NAME, "line": N}')
    for key in ("event", "place"):
        if key in header and not _is_text(header[key]):
            raise JournalError(path, 1, f'"{key}" must be 1 to {TEXT_LIMIT} printable characters')
    try:
        players = start_game(header).players
    except ValueError as error:
        raise JournalError(path, 1, str(error)) from None
    problem = _extras_problem(header, players)
    if problem:
        raise JournalError(path, 1, problem)


def is_player_name(name: object) -> bool:
    """A name a player may have: 1 to NAME_LIMIT printable characters, not only spaces."""
    return isinstance(name, str) and bool(name.strip()) and len(name) <= NAME_LIMIT and name.isprintable()


def _extras_problem(header: Mapping, colours: tuple[str, ...]) -> str | None:
    """What is wrong with a header's player names or computer side (None: nothing)."""
    players = header.get("players", {})
    if not isinstance(players, dict):
        return '"players" must be an object of colours and names'
    for colour, name in players.items():
        if colour not in colours:
            return f'"players": no colour {brief(colour)} in this game ({" or ".join(colours)})'
        if not is_player_name(name):
            return f'"players": the name of {colour} must be 1 to {NAME_LIMIT} printable characters, not {brief(name)}'
    if "computer" in header:
        computer = header["computer"]
        if not isinstance(computer, dict) or set(computer) != {"plays", "level", "version"}:
            return '"computer" must be {"plays": COLOUR, "level": 1-8, "version": TEXT}'
        level = computer["level"]
        if computer["plays"] not in colours:
            return f'"computer": it plays {" or ".join(colours)}, not {brief(computer["plays"])}'
        if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 8:
            return f'"computer": the level is 1 to 8, not {brief(level)}'
        if not isinstance(computer["version"], str):
            return '"computer": the version must be text'
    return None


def _is_text(value: object, limit: int = TEXT_LIMIT) -> bool:
    return isinstance(value, str) and bool(value.strip()) and len(value) <= limit and value.isprintable()


def _recovered_from(header: object) -> tuple[str, int] | None:
    """The damaged journal (its name) and line a game goes on from, if its header says so."""
    source = header.get("recovered_from") if isinstance(header, dict) else None
    if not isinstance(source, dict) or set(source) != {"journal", "line"}:
        return None
    name, line = source["journal"], source["line"]
    if not isinstance(name, str) or not isinstance(line, int) or isinstance(line, bool):
        return None
    return name, line


def _check_entry(path: Path, number: int, entry: dict) -> None:
    kind = entry.get("type")
    fields = ENTRY_FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise JournalError(path, number, f"unknown entry type {brief(kind)} (expected {', '.join(ENTRY_FIELDS)})")
    optional = OPTIONAL_FIELDS.get(kind, {})
    keys = set(entry) - {"type"} - {k for k in optional if k in entry}
    for key, types in optional.items():
        if key in entry and not isinstance(entry[key], types):
            raise JournalError(path, number, f"{kind} entry: {key} {brief(entry[key])} has the wrong type")
    if keys != set(fields):
        missing, extra = sorted(set(fields) - keys), sorted(keys - set(fields))
        problem = f"missing {brief(missing[0])}" if missing else f"unknown key {brief(extra[0])}"
        raise JournalError(path, number, f"{kind} entry: {problem}")
    for key, types in fields.items():
        value = entry[key]
        if not isinstance(value, types) or isinstance(value, bool):
            raise JournalError(path, number, f"{kind} entry: {key} {brief(value)} has the wrong type")
    if "t" in entry and not _finite(entry["t"]):
        raise JournalError(path, number, f"{kind} entry: t must be a finite number of seconds")
    if "comment" in entry and (not _is_text(entry["comment"]) or any(c in entry["comment"] for c in ("{", "}", "[%"))):
        raise JournalError(path, number, f"{kind} entry: a comment is 1 to {TEXT_LIMIT} printable characters,"
                                         " without { } or [%")


def _finite(number: int | float) -> bool:
    try:
        return math.isfinite(number)
    except OverflowError:  # an integer too big for a float
        return False


# --- replaying -------------------------------------------------------------------------------
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


def rebuild(contents: JournalContents) -> Resumed:
    """The game as the journal leaves it: every entry replayed through the rules engine."""
    path = contents.path
    try:
        game = start_game(contents.header)
    except ValueError as error:
        raise JournalError(path, 1, str(error)) from None
    numbers = contents.line_numbers or list(range(2, len(contents.entries) + 2))
    pending: int | None = None
    finished = False
    remaining: dict[str, float] | None = None
    for number, entry in zip(numbers, contents.entries):
        kind = entry["type"]
        if kind == "resume":
            continue
        if finished and kind not in AFTER_THE_RESULT:
            raise JournalError(path, number, f"a {kind} entry after the result")
        try:
            if kind == "roll":
                pending = _roll(game, entry["player"], entry["value"])
            elif kind == "move":
                _play(game, entry["move"], pending)
                pending = None
                remaining = entry.get("clock", remaining)
            elif kind == "takeback":
                pending = _take_back(game, entry["move"])  # no free re-roll: the move's roll stays
            elif kind == "amend":
                _take_back(game, entry["old"])
                _play(game, entry["new"], None)
                pending = None
            elif kind == "result":
                _finish(game, entry["result"], entry["reason"], entry["winner"])
                finished = True
            elif kind == "hint" and entry["player"] not in game.players:  # a hint changes nothing
                raise ValueError(f"a hint for {brief(entry['player'])}, who does not play {game.title}")
            elif kind == "players" and (problem := _extras_problem({"players": entry["players"]}, game.players)):
                raise ValueError(problem)
        except ValueError as error:  # MoveError, GameOverError and the checks below
            raise JournalError(path, number, str(error)) from None
    clock = _clock_settings(contents.header["clock"]) if "clock" in contents.header else None
    return Resumed(game, pending, finished, clock, remaining)


def _clock_settings(data: object) -> ClockSettings:
    if not isinstance(data, dict) or set(data) != {"minutes", "increment"}:
        raise ValueError("a clock is {\"minutes\": M, \"increment\": S}")
    return ClockSettings(data["minutes"], data["increment"])


def _roll(game: Game, player: str, value: int) -> int:
    if not game.uses_die:
        raise ValueError(f"{game.name} has no die roll")
    if player != game.turn:
        raise ValueError(f"{player} rolled, but it is {game.turn}'s turn")
    if not game.can_roll():
        raise ValueError(f"{player} has no stone to roll for")
    if not 1 <= value <= 6:
        raise ValueError(f"a die shows 1-6, not {value}")
    return value


def _play(game: Game, text: str, pending_roll: int | None) -> None:
    move = game.parse_move(text)
    if pending_roll is not None and game.roll_of(move) != pending_roll:
        raise MoveError(f"{text!r}: the die showed {pending_roll}, so a stone move for {pending_roll} is due")
    game.push(move)


def _take_back(game: Game, text: str) -> int | None:
    """Undo the last move, which must be `text`; the die value it was made with, if any."""
    if not game.move_stack:
        raise ValueError(f"takes back {text!r}, but no move was made")
    last = game.pop()
    try:
        same = game.parse_move(text) == last
    except MoveError:
        same = False
    if not same:
        raise ValueError(f"takes back {text!r}, but the last move was {game.format_move(last)}")
    return game.roll_of(last)


def _finish(game: Game, result: str, reason: str, winner: str | None) -> None:
    if reason == "resign":
        if winner not in game.players:
            raise ValueError(f"a resignation needs the winner, {' or '.join(game.players)}; got {winner!r}")
        game.resign(game.other(winner))
    elif reason == "agreed":
        game.agree_draw()
    elif reason == "time":
        if winner not in game.players:
            raise ValueError(f"a loss on time needs the winner, {' or '.join(game.players)}; got {winner!r}")
        game.lose_on_time(game.other(winner))
    outcome = game.outcome()
    if outcome is None:
        raise ValueError(f"the result says {result} {reason}, but the game is not over")
    expected = (outcome.result(game.players), outcome.termination.value, outcome.winner)
    if (result, reason, winner) != expected:
        raise ValueError(f"the result says {result} {reason} (winner {winner}),"
                         f" but the position gives {expected[0]} {expected[1]} (winner {expected[2]})")


# --- listing and exporting ---------------------------------------------------------------------
def unfinished_games(games_dir: str | Path, *, include_unplayed: bool = True) -> list[Path]:
    """The journals with no result line, newest first (damaged ones too: resuming says why).

    A damaged journal whose game goes on in another journal (see `go_on_in_new_journal`) is
    left out: that one is the game's. include_unplayed=False leaves out the games given up
    before their first move (see `discard_if_unplayed`): there is nothing in them to go on with."""
    games_dir = Path(games_dir)
    if not games_dir.is_dir():
        return []
    journals = _journals(games_dir)
    unfinished, gone_on = [], set()
    for path in journals:
        types, header = _types_and_header(path)
        if (source := _recovered_from(header)) is not None:
            gone_on.add(source[0])
        if "result" not in (types or []) and (include_unplayed or not _unplayed(types)):
            unfinished.append(path)
    return [path for path in unfinished if path.name not in gone_on]


def _journals(games_dir: Path) -> list[Path]:
    """The journals in games_dir, newest first."""
    journals = [p for p in games_dir.glob(f"*{SUFFIX}") if not p.name.endswith(TRACE_SUFFIX)]
    # The name starts with the start time; the modification time breaks ties within a second.
    return sorted(journals, key=lambda p: (p.name[:15], _modified(p)), reverse=True)


def _modified(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:  # a dangling link, or gone since the listing
        return 0


def discard_if_unplayed(path: str | Path) -> bool:
    """Remove the journal of a game given up before its first move, and its trace; True if removed.

    A roll alone is no move. A journal with a result, or with a line that cannot be read (it
    may have been a move), is kept."""
    path = Path(path)
    if not _unplayed(_types_and_header(path)[0]):
        return False
    for file in (path, trace_path(path)):  # the journal first: it is what would be offered
        try:
            file.unlink()
        except FileNotFoundError:
            pass
    sync_directory(path.parent)
    return True


def _types_and_header(path: Path) -> tuple[list[str | None] | None, dict | None]:
    """The type of each line of a journal (None for a line that is not a JSON object, or whose
    type is not a string; None for all when the file cannot be read), and its first line."""
    try:
        lines = read_bytes(path, JOURNAL_LIMIT, "journal").split(b"\n")
    except OSError:
        return None, None
    types: list[str | None] = []
    first = None
    for line in lines:
        if not line.strip():
            continue
        value = _parse(line)[0]
        if not types:
            first = value
        kind = value.get("type") if value is not None else None
        types.append(kind if isinstance(kind, str) else None)
    return types, first


def _unplayed(types: list[str | None] | None) -> bool:
    """A whole journal whose header is followed by no move, takeback, amend or result."""
    if not types or types[0] != "header" or None in types:
        return False
    return not {"move", "takeback", "amend", "result"} & set(types)


def export_lines(path: str | Path) -> list[str]:
    """The game record of a journal, in the rules' notation; what was left out of a damaged
    journal is logged as a warning (on standard error, for the command line)."""
    contents = read_journal(path)
    if contents.warning:
        log.warning("reedboard: warning: %s", contents.warning)
    return record_lines(rebuild(contents).game)


# --- going on after damage ---------------------------------------------------------------------
def go_on_in_new_journal(path: str | Path, now: datetime | None = None) -> Path:
    """A new journal, next to the damaged journal at `path`, holding its game up to the damage:
    the header, naming the journal and line it comes from, then every line before the damage,
    copied byte for byte. The damaged journal is left as it is. JournalError when it is not
    damaged, cannot be used, or its game already goes on in another journal."""
    path = Path(path)
    contents = read_journal(path)
    damage = contents.damage
    if damage is None:
        raise JournalError(path, None, "not damaged: it is resumed as it is")
    other = going_on_in(path)
    if other is not None:
        raise JournalError(path, damage.line, f"{damage.problem}; its game already goes on in {other}")
    try:
        raw = read_bytes(path, JOURNAL_LIMIT, "journal").split(b"\n")
    except OSError as error:
        raise JournalError(path, None, f"cannot read the journal ({error})") from None
    header = {**contents.header, "recovered_from": {"journal": path.name, "line": damage.line}}
    lines = [json.dumps(header).encode("utf-8")] + [raw[number - 1] for number in contents.line_numbers]
    now = datetime.now().astimezone() if now is None else now
    new_path, file = _new_file(path.parent, contents.header["game"], now)
    with file:  # all at once, then synced: nothing is lost if the power goes meanwhile (the original stays)
        file.write(b"".join(line + b"\n" for line in lines))
        file.flush()
        os.fsync(file.fileno())
    sync_directory(path.parent)
    return new_path


def going_on_in(path: str | Path) -> Path | None:
    """The journal (next to it) in which the game of the damaged journal at `path` goes on, if any."""
    path = Path(path)
    for other in _journals(path.parent):
        try:
            first = read_first_line(other, JOURNAL_LIMIT, "journal")
        except OSError:
            continue
        source = _recovered_from(_parse(first)[0])
        if source is not None and source[0] == path.name:
            return other
    return None


def _damaged_is_not_resumed(path: Path, contents: JournalContents) -> str:
    """Why a damaged journal is not appended to, and where its game goes on (or how it can)."""
    other = going_on_in(path)
    then = (f"its game goes on in {other}" if other is not None else
            f"go on with its game in a new journal: reedboard play {contents.header['game']} --resume {path}")
    return f"{contents.damage.problem}; a damaged journal is never written to: {then}"


# --- names given afterwards, and whole games written at once (the archive) ----------------------
def players_of(contents: JournalContents) -> dict[str, str]:
    """The players' names by colour: the header's, with every later `players` entry over them."""
    players = dict(contents.header.get("players", {}))
    for entry in contents.entries:
        if entry["type"] == "players":
            players.update(entry["players"])
    return players


def append_players(path: str | Path, players: Mapping[str, str], now: datetime | None = None) -> None:
    """Rename players in a journal, finished or not, by appending a `players` entry: nothing
    written is rewritten. JournalError for a damaged journal (it is never written to) or names
    that do not fit the game."""
    path = Path(path)
    contents = read_journal(path)
    if contents.damage is not None:
        raise JournalError(path, contents.damage.line, _damaged_is_not_resumed(path, contents))
    game = rebuild(contents).game
    problem = _extras_problem({"players": dict(players)}, game.players)
    if problem:
        raise JournalError(path, None, problem)
    now = datetime.now().astimezone() if now is None else now
    entry = {"type": "players", "players": dict(players), "renamed": now.isoformat(timespec="seconds")}
    data = read_bytes(path, JOURNAL_LIMIT, "journal")
    torn = not data.endswith(b"\n")
    with open(path, "ab") as file:  # the players line after a torn line vouches for it, as a resume line does
        file.write((b"\n" if torn else b"") + (json.dumps(entry) + "\n").encode("utf-8"))
        file.flush()
        os.fsync(file.fileno())


def write_journal(games_dir: str | Path, header: Mapping, entries: list[dict], started: datetime) -> Path:
    """A whole game's journal (a record imported, a trace replayed), written at once: checked as
    `read_journal` checks any journal, and named in `games_dir` by `started` only once it is
    whole and synced, so that a power cut leaves either the whole game or nothing.
    JournalError names what is wrong, with the line of the journal it would have been."""
    games_dir = Path(games_dir)
    games_dir.mkdir(parents=True, exist_ok=True)
    lines = [{"type": "header", "version": VERSION, **header}, *entries]
    data = b"".join((json.dumps(line, allow_nan=False) + "\n").encode("utf-8") for line in lines)
    handle, name = tempfile.mkstemp(prefix=".", suffix=".part", dir=games_dir)  # no journal's name: never listed
    partial = Path(name)
    try:
        with open(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        contents = read_journal(partial)
        problem = contents.damage or (contents.warning and JournalError(partial, None, contents.warning))
        if problem:
            raise problem
        stem = f"{started:%Y%m%d-%H%M%S}-{header['game']}"
        for n in range(1, 1000):  # two games started in one second get -2, -3, ...
            path = games_dir / f"{stem}{'' if n == 1 else f'-{n}'}{SUFFIX}"
            try:
                os.link(partial, path)  # the name appears only now, and never over another journal
            except FileExistsError:
                continue
            except OSError:  # a file system without hard links: written under its name at once
                try:
                    with open(path, "xb") as file:
                        file.write(data)
                        file.flush()
                        os.fsync(file.fileno())
                except FileExistsError:
                    continue
            sync_directory(games_dir)
            return path
        raise JournalError(games_dir, None, f"too many games started at {started}")
    finally:
        partial.unlink(missing_ok=True)
