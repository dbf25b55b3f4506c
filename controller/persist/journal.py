"""Writing the game journal (its format: journal_format): a game survives a power cut.

Each line is flushed and synced before the controller goes on, and nothing written is ever
rewritten: a resumed game appends to its journal, after a `resume` line, and players named
afterwards are a `players` line appended (after the result too). A torn last line is ended
with a newline and the `resume` (or `players`) line written right after it, so that it stays
recognisable. A damaged journal is never written to (see journal_recovery). A whole game
(a record imported, a trace replayed) is written at once, named only once it is whole.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path

from ..ground.readfile import JOURNAL_LIMIT, read_bytes
from ..ground.settings import ClockSettings
from ..games import Game
from .game_files import SUFFIX, new_journal_file, sync_directory, trace_path
from .journal_format import VERSION, JournalError, check_entry, extras_problem, game_header, occasion_problem
from .journal_reader import read_journal
from .journal_recovery import why_not_written
from .journal_replay import rebuild
from ..language.phrases import Phrasebook

phrase = Phrasebook("commands")

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
               computer: Mapping[str, object] | None = None, occasion: Mapping[str, object] | None = None,
               written: Callable[[Path, int, dict], None] | None = None, origin: float = 0.0) -> Journal:
        """Start the journal of a new game (before its first move) in `games_dir`: `players`
        names the players by colour, `computer` says which side the computer plays, `occasion`
        the tournament's game ({"event": NAME, "round": N, "table": N}: its round and board
        number), all optional; `written` is told of every line written, this header first."""
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
        if occasion:
            problem = occasion_problem(occasion)
            if problem:
                raise ValueError(problem)
            header.update(occasion)
        problem = extras_problem(header, game.players)
        if problem:
            raise ValueError(problem)
        journal = cls(*new_journal_file(Path(games_dir), game.name, now), written=written, origin=origin)
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
            raise JournalError(path, contents.damage.line, why_not_written(path, contents))
        if rebuild(contents).finished:
            raise JournalError(path, None, phrase("the game is over: there is nothing to resume"))
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

    def append_roll(self, t: float, player: str, value: int, free: bool = False) -> None:
        entry = {"type": "roll", "t": self._since_start(t), "player": player, "value": value}
        if free:  # a number kept over a takeback: a big-ball move may drop it (R19)
            entry["free"] = True
        self._write(entry)

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
        check_entry(self.path, self.lines + 1, entry)
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


def append_players(path: str | Path, players: Mapping[str, str], now: datetime | None = None) -> None:
    """Rename players in a journal, finished or not, by appending a `players` entry: nothing
    written is rewritten. JournalError for a damaged journal (it is never written to) or names
    that do not fit the game."""
    path = Path(path)
    contents = read_journal(path)
    if contents.damage is not None:
        raise JournalError(path, contents.damage.line, why_not_written(path, contents))
    game = rebuild(contents).game
    problem = extras_problem({"players": dict(players)}, game.players)
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
        raise JournalError(games_dir, None, phrase("too many games started at {time}", time=started))
    finally:
        partial.unlink(missing_ok=True)
