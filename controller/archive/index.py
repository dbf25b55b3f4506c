"""The archive's index: an SQLite database in the games folder, built from the journals.

The journals are the truth; the index only remembers what reading them gave, so that finding
games among thousands does not replay them all. Each journal's row is kept with the file's size
and time of last change when it was read: a journal that changed (a game being played, a name
given afterwards, a line torn by a power cut) is read again at the next refresh, one gone is
dropped. Deleting the index file loses nothing: it is built again. Each refresh is one
transaction, so a power cut leaves the index as it was before or after it.

The computer's reviews of games (controller.archive.reviews) are kept here too, by journal and
by a digest of the moves and the review's settings: worked out once, on the first ask; a reindex
keeps them, a journal gone takes its reviews with it.

Not listed: journals that cannot be read or are damaged (reported with their file and line),
and games given up before their first move.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path

from ..games import level_today
from ..persist.game_files import SUFFIX, TRACE_SUFFIX, trace_path
from ..persist.journal_format import NAME_LIMIT, JournalError, is_player_name, start_game
from ..persist.journal_replay import rebuild
from ..persist.journal_reader import players_of, read_game
from ..persist.journal import append_players
from ..persist.game_files import sync_directory
from ..persist.notation import result_line
from ..language.catalogue import COMMANDS
from .problems import ArchiveError
from ..words import said

_ = COMMANDS.gettext

INDEX_NAME = "archive-index.sqlite3"
SCHEMA_VERSION = 5
PARALLEL_FROM = 200  # journals to read before a refresh reads them in several processes
OUTCOMES = ("win", "draw", "unfinished")

SCHEMA = """
CREATE TABLE files (name TEXT PRIMARY KEY, size INTEGER, mtime INTEGER, state TEXT, problem TEXT);
CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT, title TEXT, started TEXT, day TEXT, moves INTEGER,
                    result TEXT, outcome TEXT, reason TEXT, winner TEXT, first TEXT, line TEXT,
                    colours TEXT, players TEXT, computer TEXT, event TEXT, place TEXT, note TEXT);
CREATE TABLE players (id TEXT, colour TEXT, name TEXT, folded TEXT, game TEXT, score TEXT);
CREATE INDEX games_by_game ON games (game, id);
CREATE INDEX games_by_day ON games (day, id);
CREATE INDEX games_by_outcome ON games (outcome, id);
CREATE INDEX players_by_name ON players (folded, id);
CREATE INDEX players_by_score ON players (folded, game, score, name);
CREATE INDEX players_by_game ON players (id);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE reviews (name TEXT, digest TEXT, game TEXT, data TEXT, PRIMARY KEY (name, digest));
"""

GAME_COLUMNS = ("id", "game", "title", "started", "day", "moves", "result", "outcome", "reason", "winner",
                "first", "line", "colours", "players", "computer", "event", "place", "note")


@dataclass(frozen=True)
class Skipped:
    """A journal left out of the archive: its file, the line of the damage (if known), why."""

    path: Path
    line: int | None
    problem: str

    def __str__(self) -> str:
        where = str(self.path) if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.problem}"


def index_path(games_dir: str | Path) -> Path:
    return Path(games_dir) / INDEX_NAME


def journal_files(games_dir: Path) -> dict[str, tuple[int, int]]:
    """Every journal in the folder (not the traces) by name: its size and time of last change (ns)."""
    found = {}
    try:
        entries = os.scandir(games_dir)
    except FileNotFoundError:
        return {}
    with entries:
        for entry in entries:
            name = entry.name
            if not name.endswith(SUFFIX) or name.endswith(TRACE_SUFFIX) or name.startswith("."):
                continue
            try:
                stat = entry.stat()
            except OSError:  # removed meanwhile
                continue
            found[name] = (stat.st_size, stat.st_mtime_ns)
    return found


def summarise(path: Path) -> tuple[str, str | None, int | None, dict | None]:
    """What the index keeps of one journal: (state, problem, line, row). state is "game",
    "damaged" or "unplayed" (given up before its first move: not listed)."""
    try:
        contents, resumed = read_game(path)
    except JournalError as error:
        return "damaged", error.problem, error.line, None
    if contents.damage is not None:
        return "damaged", contents.damage.problem, contents.damage.line, None
    game = (resumed or rebuild(contents)).game
    outcome = game.outcome()
    if outcome is None and not game.move_stack:
        return "unplayed", None, None, None
    header = contents.header
    started = header.get("started", "")
    try:
        day = date.fromisoformat(started[:10]).isoformat() if started else None
    except ValueError:
        day = None
    players = players_of(contents)
    row = {
        "id": path.name.removesuffix(SUFFIX), "game": game.name, "title": game.title, "started": started,
        "day": day, "moves": len(game.move_stack),
        "result": None if outcome is None else outcome.result(game.players),
        "outcome": "unfinished" if outcome is None else "draw" if outcome.winner is None else "win",
        "reason": None if outcome is None else outcome.termination.value,
        "winner": None if outcome is None else outcome.winner,
        "first": start_game(header).turn, "line": result_line(game),
        "colours": json.dumps(list(game.players)), "players": json.dumps(players),
        "computer": json.dumps(header["computer"]) if "computer" in header else None,
        "event": header.get("event"), "place": header.get("place"), "note": contents.warning,
    }
    return "game", None, None, row


def _summarise_named(item: tuple[str, str]) -> tuple[str, tuple]:
    directory, name = item
    return name, summarise(Path(directory) / name)


def computer_name(game: str, computer: dict) -> str:
    """How the archive names the computer's side of a game: "computer:LEVEL", the level numbered
    as today (a game recorded before its ladder grew: the level that plays as it did then)."""
    return f"computer:{level_today(game, computer.get('level'), computer.get('version'))}"


class Archive:
    """The games of one folder, as the index knows them. `refresh` brings the index up to date
    with the journals; the queries answer from the index alone."""

    def __init__(self, games_dir: str | Path, *, jobs: int | None = None) -> None:
        """jobs: processes reading journals in a large refresh (the command line uses every
        core; a server keeps 1, never forking its threads)."""
        self.games_dir = Path(games_dir)
        self.jobs = jobs if jobs is not None else 1  # more: a refresh of many journals forks workers
        self.db = self._open()

    # --- the database -------------------------------------------------------------------
    def _open(self) -> sqlite3.Connection:
        if not self.games_dir.is_dir():  # no games yet: nothing to keep, and no folder made for it
            return self._connect(":memory:")
        path = index_path(self.games_dir)
        try:
            return self._connect(path)
        except sqlite3.OperationalError:  # a folder we may not write in: an index for this run only
            return self._connect(":memory:")
        except sqlite3.DatabaseError:  # not a database any more (damaged): it is only an index
            return self._afresh()

    def _afresh(self) -> sqlite3.Connection:
        """A new, empty index in place of a damaged one."""
        path = index_path(self.games_dir)
        for stale in (path, path.with_name(path.name + "-journal")):
            try:
                stale.unlink(missing_ok=True)
            except OSError:
                return self._connect(":memory:")
        try:
            return self._connect(path)
        except sqlite3.DatabaseError:
            return self._connect(":memory:")

    @staticmethod
    def _connect(path) -> sqlite3.Connection:
        db = sqlite3.connect(path, timeout=10, isolation_level=None)
        db.row_factory = sqlite3.Row
        if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
            with db:
                db.execute("BEGIN IMMEDIATE")
                if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:  # made meanwhile
                    return db
                for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
                    db.execute(f'DROP TABLE "{name}"')
                for statement in filter(str.strip, SCHEMA.split(";")):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        return db

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    # --- keeping up with the journals -----------------------------------------------------------
    def refresh(self) -> list[Skipped]:
        """Read the journals that are new or changed since the index last saw them, forget the
        ones gone; the journals skipped (damaged), each with its file and line. An index found
        damaged is built again."""
        try:
            return self._refresh()
        except sqlite3.DatabaseError as error:
            if isinstance(error, sqlite3.OperationalError):  # busy, or not writable: not damage
                raise
            self.db.close()
            self.db = self._afresh()
            return self._refresh()

    def _refresh(self) -> list[Skipped]:
        on_disk = journal_files(self.games_dir)
        known = {row["name"]: (row["size"], row["mtime"]) for row in self.db.execute("SELECT name, size, mtime FROM files")}
        stale = [name for name in on_disk if known.get(name) != on_disk[name]]
        gone = [name for name in known if name not in on_disk]
        if stale or gone:
            read = dict(self._read(sorted(stale)))
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                for name in gone + stale:
                    self._forget(name)
                for name in gone:
                    self.db.execute("DELETE FROM reviews WHERE name = ?", (name,))
                for name in stale:
                    state, problem, line, row = read[name]
                    self.db.execute("INSERT INTO files VALUES (?, ?, ?, ?, ?)",
                                    (name, *on_disk[name], state, json.dumps([line, problem]) if problem else None))
                    if row is not None:
                        self._insert(row)
        return self.skipped()

    def rebuild(self) -> list[Skipped]:
        """Forget everything and read every journal again (`reedboard games reindex`)."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            for table in ("files", "games", "players"):
                self.db.execute(f"DELETE FROM {table}")
        return self.refresh()

    def _read(self, names: list[str]) -> Iterable[tuple[str, tuple]]:
        items = [(str(self.games_dir), name) for name in names]
        if self.jobs > 1 and len(items) >= PARALLEL_FROM:
            import multiprocessing

            with multiprocessing.get_context("spawn" if os.name == "nt" else "fork").Pool(self.jobs) as pool:
                return list(pool.imap_unordered(_summarise_named, items, chunksize=32))
        return [_summarise_named(item) for item in items]

    def _forget(self, name: str) -> None:
        game_id = name.removesuffix(SUFFIX)
        self.db.execute("DELETE FROM files WHERE name = ?", (name,))
        self.db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        self.db.execute("DELETE FROM players WHERE id = ?", (game_id,))

    def _insert(self, row: dict) -> None:
        self.db.execute(f"INSERT INTO games VALUES ({', '.join('?' * len(GAME_COLUMNS))})",
                        [row[column] for column in GAME_COLUMNS])
        names = json.loads(row["players"])
        computer = json.loads(row["computer"]) if row["computer"] else None
        if computer and computer["plays"] not in names:  # found and counted as "computer:LEVEL"
            names[computer["plays"]] = computer_name(row["game"], computer)
        self.db.executemany("INSERT INTO players VALUES (?, ?, ?, ?, ?, ?)",
                            [(row["id"], colour, name, name.casefold(), row["game"], _score(row, colour))
                             for colour, name in names.items()])

    def skipped(self) -> list[Skipped]:
        """The damaged journals the index knows, by name."""
        found = []
        for row in self.db.execute("SELECT name, problem FROM files WHERE state = 'damaged' ORDER BY name"):
            line, problem = json.loads(row["problem"])
            found.append(Skipped(self.games_dir / row["name"], line, problem))
        return found

    # --- finding games ----------------------------------------------------------------------------
    def games(self, *, game: str | None = None, player: str | None = None, since: date | None = None,
              until: date | None = None, result: str | None = None, limit: int | None = None,
              offset: int = 0) -> list[dict]:
        """The games that match, newest first (by journal name: its start time). `player` is a
        name (any case); `result` is win (someone won), draw or unfinished; `since` and `until`
        are days, both included (a game of no known day is left out by them); `limit` and
        `offset` page through them (a page lists tens, not thousands)."""
        where, values = self._where(game, player, since, until, result)
        sql = f"SELECT {', '.join(GAME_COLUMNS)} FROM games" + (f" WHERE {' AND '.join(where)}" if where else "")
        sql += " ORDER BY id DESC LIMIT ? OFFSET ?"
        values += [-1 if limit is None else limit, offset]
        rows = self.db.cursor()
        rows.row_factory = None  # plain tuples: a long list is built the faster
        return [_game_data(row) for row in rows.execute(sql, values)]

    def count(self, *, game: str | None = None, player: str | None = None, since: date | None = None,
              until: date | None = None, result: str | None = None) -> int:
        """How many games match (see `games`)."""
        where, values = self._where(game, player, since, until, result)
        sql = "SELECT COUNT(*) FROM games" + (f" WHERE {' AND '.join(where)}" if where else "")
        return self.db.execute(sql, values).fetchone()[0]

    @staticmethod
    def _where(game, player, since, until, result) -> tuple[list[str], list]:
        where, values = [], []
        if game is not None:
            where.append("game = ?")
            values.append(game)
        if player is not None:
            where.append("id IN (SELECT id FROM players WHERE folded = ?)")
            values.append(player.casefold())
        if since is not None:
            where.append("day >= ?")
            values.append(since.isoformat())
        if until is not None:
            where.append("day <= ?")
            values.append(until.isoformat())
        if result is not None:
            if result not in OUTCOMES:
                raise ArchiveError(_('a result is {outcomes}, not {result}').format(
                    outcomes=', '.join(OUTCOMES), result=repr(result)))
            where.append("outcome = ?")
            values.append(result)
        return where, values

    def game(self, key: str) -> dict:
        """One game by its ID (the journal's name without .jsonl), its file name, or a unique
        start of its ID; ArchiveError otherwise."""
        game_id = self.resolve(key)
        row = self.db.execute(f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE id = ?", (game_id,)).fetchone()
        return _game_data(tuple(row))

    def resolve(self, key: str) -> str:
        """The ID of the game `key` names (see `game`)."""
        key = key.removesuffix(SUFFIX)
        if not key or any(c in key for c in "/\\%_") or key != key.strip():
            raise ArchiveError(_("no game {key}: an ID is a journal's name, as `reedboard games list` shows it").format(
                key=repr(key)))
        found = [row[0] for row in self.db.execute("SELECT id FROM games WHERE id >= ? AND id < ? ORDER BY id LIMIT 3",
                                                   (key, key + "\U0010ffff"))]
        if key in found:
            return key
        if len(found) == 1:
            return found[0]
        if not found:
            raise ArchiveError(self._why_not_listed(key))
        raise ArchiveError(_("{key} is the start of several games' IDs ({found}, ...): give more of it").format(
            key=repr(key), found=", ".join(found[:2])))

    def _why_not_listed(self, key: str) -> str:
        """No game `key` in the folder, in one line, and why when its journal is there."""
        row = self.db.execute("SELECT state, problem FROM files WHERE name = ?", (key + SUFFIX,)).fetchone()
        words = dict(key=repr(key), folder=self.games_dir)
        if row is None:
            return _("no game {key} in {folder}").format(**words)
        if row["state"] == "damaged":
            line, problem = json.loads(row["problem"])
            if line is None:
                return _("no game {key} in {folder}: its journal is damaged ({problem})").format(
                    problem=problem, **words)
            return _("no game {key} in {folder}: its journal is damaged (line {line}: {problem})").format(
                line=line, problem=problem, **words)
        return _("no game {key} in {folder}: it was given up before its first move").format(**words)

    def journal(self, key: str) -> Path:
        """The journal of the game `key` names."""
        return self.games_dir / (self.resolve(key) + SUFFIX)

    def rename_player(self, old: str, new: str) -> tuple[int, list[str]]:
        """Rename a player in every game: a `players` line appended to each journal (nothing
        written is rewritten, so a rebuilt index keeps the new name). How many games were
        renamed, and why the others were not (a damaged journal is never written to)."""
        if not is_player_name(new.strip() if isinstance(new, str) else new):
            raise ArchiveError(_('a name is 1 to {most} printable characters, not {name}').format(
                most=NAME_LIMIT, name=repr(new)))
        new = new.strip()
        games = self.games(player=old)
        if not games:
            raise ArchiveError(_('no game has a player called {name}').format(name=repr(old)))
        renamed, failed = 0, []
        for game in games:
            colours = {colour: new for colour, name in game["players"].items() if name.casefold() == old.casefold()}
            try:
                append_players(self.journal(game["id"]), colours)
                renamed += 1
            except JournalError as error:
                failed.append(said(error))
        self.refresh()
        return renamed, failed

    def delete(self, key: str) -> dict:
        """Delete the game `key` names: its journal and its trace. The game as it was listed."""
        game_id = self.resolve(key)
        game = self.game(game_id)
        path = self.journal(game_id)
        for file in (path, trace_path(path)):
            try:
                file.unlink()
            except FileNotFoundError:
                pass
            except OSError as error:
                raise ArchiveError(_('cannot delete {name} ({problem})').format(
                    name=file.name, problem=error.strerror or said(error))) from None
        sync_directory(path.parent)
        self.refresh()
        return game

    def record(self, key: str) -> list[str]:
        """The game's record (docs/records.md), from its journal."""
        from .records import game_record, record_lines

        return record_lines(game_record(self._contents(key)))

    def replay(self, key: str) -> dict:
        """The game for replaying move by move in a page: its record and the position after
        every move (see controller.archive.past_games.past_game)."""
        from .past_games import past_game

        return past_game(self.games_dir, self.resolve(key) + SUFFIX)

    # --- the computer's reviews -------------------------------------------------------------------
    def review_job(self, key: str, nodes: int | None = None):
        """What the review of the game `key` names is worked out from (controller.archive.reviews.
        ReviewJob), with the review kept in the index when there is a sound one (`cached`), or
        one of its first moves while it went on (`earlier`): see reviews.read_kept."""
        from .reviews import REVIEW_NODES, read_kept, review_job

        try:
            job = review_job(self._contents(key), REVIEW_NODES if nodes is None else nodes)
        except JournalError as error:
            raise ArchiveError(said(error)) from None
        read_kept(self.db, job)
        return job

    def keep_review(self, job, data: dict) -> None:
        """Keep the review worked out for `job`; the journal's reviews of other moves are dropped
        (those of the same moves with other settings are kept)."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("DELETE FROM reviews WHERE name = ? AND game != ?", (job.name, job.game_digest))
            self.db.execute("INSERT OR REPLACE INTO reviews VALUES (?, ?, ?, ?)",
                            (job.name, job.digest, job.game_digest,
                             json.dumps(data, ensure_ascii=False, separators=(",", ":"))))
        job.cached = data

    def review(self, key: str, nodes: int | None = None, compute=None) -> dict:
        """The computer's review of the game `key` names (its JSON, see controller.opponent.review),
        from the index, else worked out by `compute(job)` (by default in this process) and kept."""
        job = self.review_job(key, nodes)
        if job.cached is None:
            if compute is None:
                from .reviews import compute
            self.keep_review(job, compute(job))
        return job.cached

    def _contents(self, key: str):
        from ..persist.journal_reader import read_journal

        path = self.journal(key)
        try:
            return read_journal(path)
        except JournalError as error:  # changed since it was indexed
            raise ArchiveError(said(error)) from None

    # --- statistics -------------------------------------------------------------------------------
    def against_computer(self, game: str, player: str | None = None) -> list[tuple[int, float]]:
        """(the computer's level, the people's score: 1, 1/2 or 0) of each finished game of `game`
        against the computer (the level numbered as today: games.level_today); with `player`, only
        the games that player played (any case)."""
        results = []
        for row in self.games(game=game, player=player):
            computer = row["computer"]
            if not computer or row["outcome"] not in ("win", "draw"):
                continue
            people = [colour for colour in row["colours"] if colour != computer.get("plays")]
            if player is not None:
                people = [c for c in people if str(row["players"].get(c, "")).casefold() == player.casefold()]
            if len(people) != 1 or not isinstance(computer.get("level"), int):
                continue
            score = 0.5 if row["outcome"] == "draw" else float(row["winner"] == people[0])
            results.append((level_today(game, computer["level"], computer.get("version")), score))  # as it played
        return results

    def stats(self, player: str | None = None) -> dict:
        """Per player and game: games, wins, draws, losses, unfinished; per game: the first
        player's results, each colour's wins, the draws, the average length of finished games.
        With `player`, only that player's rows and games."""
        folded = player.casefold() if player is not None else None
        only = " WHERE folded = ?" if folded else ""
        players = [
            {"player": row[0], "game": row[1], "games": row[2], "wins": row[3], "draws": row[4],
             "losses": row[5], "unfinished": row[6]}
            for row in self.db.execute(
                "SELECT MIN(name), game, COUNT(*), SUM(score = 'win'), SUM(score = 'draw'), SUM(score = 'loss'),"
                f" SUM(score = 'unfinished') FROM players{only} GROUP BY folded, game",
                (folded,) if folded else ())]
        players.sort(key=lambda e: (e["player"].casefold(), e["game"]))
        among = " WHERE id IN (SELECT id FROM players WHERE folded = ?)" if folded else ""
        values = (folded,) if folded else ()
        games = {}
        for row in self.db.execute(
                "SELECT game, COUNT(*), SUM(outcome != 'unfinished'), SUM(CASE WHEN outcome != 'unfinished'"
                " THEN moves END), SUM(winner IS first), SUM(outcome = 'draw'),"
                f" SUM(outcome = 'win' AND winner IS NOT first), MAX(colours) FROM games{among} GROUP BY game",
                values):
            game, count, finished, moves, first_wins, draws, first_losses, colours = row
            games[game] = {"game": game, "games": count, "finished": finished,
                           "first": {"wins": first_wins, "draws": draws, "losses": first_losses},
                           "colours": {colour: 0 for colour in json.loads(colours)}, "draws": draws,
                           "average_moves": round(moves / finished, 1) if finished else None}
        for game, winner, wins in self.db.execute(
                f"SELECT game, winner, COUNT(*) FROM games{among}{' AND' if among else ' WHERE'}"
                " outcome = 'win' GROUP BY game, winner", values):
            games[game]["colours"][winner] = wins
        return {"players": players, "games": [games[name] for name in sorted(games)]}


def _score(row: dict, colour: str) -> str:
    """How the game went for the side of `colour`: win, draw, loss or unfinished."""
    if row["outcome"] != "win":
        return row["outcome"]
    return "win" if row["winner"] == colour else "loss"


def _game_data(row: tuple) -> dict:
    data = dict(zip(GAME_COLUMNS, row))
    data["colours"] = list(_decoded(data["colours"]))
    data["players"] = dict(_decoded(data["players"]))
    data["computer"] = dict(_decoded(data["computer"])) if data["computer"] else None
    return data


@lru_cache(maxsize=4096)
def _decoded(text: str) -> tuple:
    """A JSON list or object of the index as a tuple (of items, for an object): a club's pairs of
    players repeat, and each caller gets a list or dict of its own."""
    value = json.loads(text)
    return tuple(value.items()) if isinstance(value, dict) else tuple(value)
