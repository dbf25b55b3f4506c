"""The archive as a page asks it: a page of the games that match, the statistics, a player's
rating against the computer, one game to replay, its record to download, what a review is
worked out from, and the owner's changes (a player renamed, a game deleted).

One ArchiveAnswers belongs to one thread (the web's side work): the index's SQLite connection
is that thread's, and the index is brought up to date with the journals at each question. What
it cannot answer is an ArchiveError of the kind that says why (controller.archive.problems):
the web turns each kind into its status.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from ..language.catalogue import COMMANDS
from ..opponent.ratings import level_ratings, player_rating, suggested_level
from ..persist.export import export_lines
from ..persist.journal_format import JournalError
from ..persist.journal_reader import read_journal
from .index import Archive, Skipped
from .past_games import journal_path, past_game
from .problems import ArchiveBusy, ArchiveError, NoSuchGame, UnreadableGame
from .queries import LIST_LIMIT, indexed, listed, months, unfoldered, unindexed
from .records import game_record, record_lines
from .reviews import ReviewJob

_ = COMMANDS.gettext

RECORD_FORMATS = ("moves", "record")


class ArchiveAnswers:
    """The archive of one games folder, answering in one thread (see the module's words)."""

    def __init__(self, games: Path) -> None:
        self.games = games
        self._archive: Archive | None = None
        self._read: dict[str, tuple[tuple, dict]] = {}  # damaged journals as read, by name

    def archive(self) -> Archive | None:
        """The archive of the games folder, up to date with its journals; None before the first game."""
        if self._archive is None:
            if not self.games.is_dir():  # no game yet: nothing to index, and no folder made for it
                return None
            self._archive = Archive(self.games)
        self._archive.refresh()
        return self._archive

    def _archive_or_none(self) -> Archive:
        found = self.archive()
        if found is None:
            raise NoSuchGame(_('there are no games yet'))
        return found

    def close(self) -> None:
        found, self._archive = self._archive, None
        if found is not None:
            found.close()

    @contextlib.contextmanager
    def _asked(self):
        """The index's troubles as the archive's: busy (another program, `reedboard games`, holds
        the index) or an index damaged meanwhile (opened afresh at the next question: it is
        rebuilt); an ArchiveError names no folder of the board (visitors read it)."""
        try:
            yield
        except sqlite3.OperationalError:
            raise ArchiveBusy(_('the archive is busy: try again in a moment')) from None
        except sqlite3.DatabaseError:
            with contextlib.suppress(sqlite3.Error):
                self.close()
            raise ArchiveBusy(_("the archive's index is being rebuilt: try again in a moment")) from None
        except ArchiveError as problem:
            message = unfoldered(str(problem), self.games).replace(str(self.games), "the games folder")
            raise type(problem)(message) from None

    # --- what is asked -------------------------------------------------------------------------------
    def games_page(self, filters: dict, limit: int, offset: int, live: str | None) -> tuple[list[dict], int]:
        """A page of the games that match, and how many match. Unfiltered, the list also holds
        the damaged journals (what can be read of them, and why the rest cannot) and the game
        at the board (`live`, its journal's name) before its first move, each in its place."""
        games = self.games
        with self._asked():
            found = self.archive()
            if found is None:
                return [], 0
            total = found.count(**filters)
            if filters:
                return [listed(row, games) for row in found.games(**filters, limit=limit, offset=offset)], total
            skipped = found.skipped()
            extra = [self._journal_entry(s.path, s) for s in skipped]
            if live is not None and not indexed(found, live) and live not in {s.path.name for s in skipped}:
                extra.append(self._journal_entry(games / live, None))
            extra = [entry for entry in extra if entry is not None]
            page = sorted([listed(row, games) for row in found.games(limit=offset + limit)] + extra,
                          key=lambda entry: entry["id"], reverse=True)[offset:offset + limit]
        return page, total + len(extra)

    def _journal_entry(self, path: Path, skipped: Skipped | None) -> dict | None:
        """A journal the index does not list, read once per version of the file; None when gone."""
        try:
            stat = path.stat()
        except OSError:
            return None
        version = (stat.st_size, stat.st_mtime_ns, skipped)
        entry = self._read.get(path.name)
        if entry is None or entry[0] != version:
            entry = self._read[path.name] = (version, unindexed(path, skipped))
        if len(self._read) > 4 * LIST_LIMIT:  # journals repaired or gone: forget them
            self._read.clear()
        return dict(entry[1])

    def stats(self, player: str | None) -> dict:
        """The archive's statistics (Archive.stats), a player's or everyone's, and month by month."""
        with self._asked():
            found = self.archive()
            if found is None:
                return {"player": player, "players": [], "games": [], "months": []}
            stats, by_month = found.stats(player), months(found.games(player=player), player)
        return {"player": player, **stats, "months": by_month}

    def rating(self, game: str, player: str | None) -> dict:
        """The people's rating in `game` from their finished games against the computer (a
        player's, with a name), and the level to try next."""
        with self._asked():
            found = self.archive()
            results = found.against_computer(game, player) if found is not None else []
        answer = {"game": game, "player": player, "games": len(results)}
        known = {n for n, *_rest in level_ratings(game)}
        results = [(level, score) for level, score in results if level in known]
        if results:
            rating, low, high = player_rating(game, results)
            answer.update(rating=round(rating), low=round(low), high=round(high),
                          suggested=suggested_level(game, rating))
        return answer

    def replay(self, name: str) -> dict:
        """The game (its journal's name) for replaying move by move: the same dict for as long
        as its journal is unchanged."""
        return past_game(self.games, name)

    def record(self, name: str, form: str) -> tuple[str, str]:
        """A file name and the text to download: the record (docs/records.md, as `reedboard
        games export` writes it) or the moves (as `reedboard export` prints them)."""
        path = journal_path(self.games, name)
        try:
            if form == "record":
                lines, filename = record_lines(game_record(read_journal(path))), f"{path.stem}-record.txt"
            else:
                lines, filename = export_lines(path), f"{path.stem}.txt"
        except JournalError as problem:
            raise UnreadableGame(str(problem)) from None
        return filename, "\n".join(lines) + "\n"

    def review_job(self, name: str) -> ReviewJob:
        """What the review of the game `name` is worked out from, with the review kept if any."""
        found = self.archive()
        try:
            if found is None:
                raise ArchiveError(name)
            found.resolve(name)
        except ArchiveError:
            raise NoSuchGame(_('no game {name}').format(name=repr(name.removesuffix(".jsonl")))) from None
        with self._asked():
            return found.review_job(name)

    def keep_review(self, job: ReviewJob, data: dict) -> None:
        found = self.archive()
        if found is not None:
            with self._asked():
                found.keep_review(job, data)

    # --- the owner's changes -------------------------------------------------------------------------
    def rename_player(self, old: str, new: str) -> dict:
        with self._asked():
            renamed, failed = self._archive_or_none().rename_player(old, new)
        return {"renamed": renamed, "failed": [unfoldered(problem, self.games) for problem in failed]}

    def delete(self, key: str) -> dict:
        with self._asked():
            game = self._archive_or_none().delete(key)
        return {"deleted": game["id"]}
