"""The archive's questions checked (the filters of a list of games, a player's name, a day: a
QueryError for one put wrongly), and its answers in the shapes the page reads: a listed game, a
damaged journal, the months. The web asks them (GET /api/games, /api/stats), and keeps HTTP."""

from __future__ import annotations

import os
import re
from datetime import date
from pathlib import Path

from ..games import GAMES
from ..language.catalogue import COMMANDS
from ..language.phrases import Phrase, message_of
from ..persist.game_files import SUFFIX
from ..persist.journal_format import NAME_LIMIT, JournalError, is_player_name
from ..persist.journal_replay import rebuild
from ..persist.journal_reader import read_journal
from ..persist.notation import result_line
from .index import OUTCOMES, Archive, Skipped, computer_name
from .problems import ArchiveError, QueryError
from ..words import said

_ = COMMANDS.gettext

LIST_PAGE = 100  # games in one answer of /api/games, unless ?limit= says otherwise
LIST_LIMIT = 500  # ... and at most
OFFSET_LIMIT = 1_000_000
LIST_PARAMETERS = ("game", "player", "since", "until", "result", "limit", "offset")


def list_filters(asked: dict[str, str]) -> dict:
    """The filters of a list of games as asked (each a name of LIST_PARAMETERS, once), checked:
    the keyword arguments of Archive.games, with limit and offset."""
    filters: dict = {}
    for key, text in asked.items():
        if key == "game":
            if text not in GAMES:
                raise QueryError(_('no game {name}: {games}').format(
                    name=repr(text[:40]), games=_games_in_words()))
            filters[key] = text
        elif key == "player":
            filters[key] = player_name(text)
        elif key in ("since", "until"):
            filters[key] = _day(key, text)
        elif key == "result":
            if text not in OUTCOMES:
                raise QueryError(_('result is one of {outcomes}, not {text}').format(
                    outcomes=', '.join(OUTCOMES), text=repr(text[:40])))
            filters[key] = text
        else:
            lowest, highest = (1, LIST_LIMIT) if key == "limit" else (0, OFFSET_LIMIT)
            if not re.fullmatch(r"[0-9]{1,7}", text) or not lowest <= int(text) <= highest:
                raise QueryError(_('{key} is a whole number from {lowest} to {highest}').format(
                    key=key, lowest=lowest, highest=highest))
            filters[key] = int(text)
    if "since" in filters and "until" in filters and filters["since"] > filters["until"]:
        raise QueryError(_('since ({since}) is after until ({until})').format(
            since=filters['since'], until=filters['until']))
    return filters


def _games_in_words() -> str:
    """The games' names for a message, in the language of the question: "a, b or c"."""
    names = sorted(GAMES)
    return _("{names} or {last}").format(names=", ".join(names[:-1]), last=names[-1]) if len(names) > 1 else names[0]


def player_name(text: str) -> str:
    name = text.strip()
    if not is_player_name(name):
        raise QueryError(_("a player's name is 1 to {most} printable characters").format(most=NAME_LIMIT))
    return name


def _day(key: str, text: str) -> date:
    try:
        if len(text) == 10:  # YYYY-MM-DD, or YYYY.MM.DD as records write it
            return date.fromisoformat(text.replace(".", "-"))
    except ValueError:
        pass
    raise QueryError(_('{key} is a day, YYYY-MM-DD').format(key=key))


def journal_name(name: str) -> str:
    """A game named by its journal's file name or by its archive ID (the name without .jsonl)."""
    return name if name.endswith(SUFFIX) else name + SUFFIX


def listed(row: dict, folder: Path) -> dict:
    """A game of the archive as the page lists it: the journal's name, the result line."""
    entry = {key: value for key, value in row.items() if value is not None and key not in ("line", "result")}
    if "note" in entry:
        entry["note"] = unfoldered(entry["note"], folder)
    return {"name": row["id"] + SUFFIX, **entry, "result": row["line"]}


def _damaged(path: Path, skipped: Skipped, damage: JournalError | None) -> str:
    """Why a journal is damaged, after its name and line: the problem found reading it now (a
    phrase), or the index's when it reads well now (changed since it was indexed)."""
    line, problem = (damage.line, damage.problem) if damage is not None else (skipped.line, skipped.problem)
    return (path.name if line is None else f"{path.name}:{line}") + ": " + unfoldered(problem, path.parent)


def skipped_words(skipped: Skipped) -> str:
    """A journal the index leaves out, as the command line names it: its path and line, and why
    (the problem found reading it now, a phrase said where it is shown; the index keeps only the
    English), as `str(skipped)` has it in English."""
    try:
        damage = read_journal(skipped.path).damage
    except JournalError as error:
        damage = error
    except OSError:
        damage = None
    line, problem = (damage.line, damage.problem) if damage is not None else (skipped.line, skipped.problem)
    return (str(skipped.path) if line is None else f"{skipped.path}:{line}") + ": " + problem


def unfoldered(text: str | None, folder: Path) -> str | None:
    """A message about a journal, naming it without the board's folders (visitors read it); a
    phrase stays a phrase, its data unfoldered."""
    if isinstance(text, Phrase):
        return Phrase(text.domain, text.text, tuple((key, unfoldered(value, folder) if isinstance(value, (str, Path))
                                                     else value) for key, value in text.data), text.plural, text.n)
    return str(text).replace(f"{folder}{os.sep}", "") if text else text


def months(rows: list[dict], player: str | None) -> list[dict]:
    """The results month by month, oldest first: with `player`, that player's wins, draws, losses
    and unfinished games; without, the games won by someone, drawn and unfinished."""
    folded = player.casefold() if player is not None else None
    found: dict[str, dict] = {}
    for row in rows:
        if not row["day"]:
            continue
        month = row["day"][:7]
        counts = found.setdefault(month, {"month": month, "games": 0} | dict.fromkeys(
            ("wins", "draws", "losses", "unfinished") if folded else ("decided", "draws", "unfinished"), 0))
        counts["games"] += 1
        outcome = row["outcome"]
        if folded is None:
            counts["decided" if outcome == "win" else "draws" if outcome == "draw" else "unfinished"] += 1
        elif outcome != "win":
            counts["draws" if outcome == "draw" else "unfinished"] += 1
        else:
            counts["wins" if _colour_of(row, folded) == row["winner"] else "losses"] += 1
    return [found[month] for month in sorted(found)]


def _colour_of(row: dict, folded: str) -> str | None:
    """The side the player (a name, case folded) had in the game; the computer is "computer:LEVEL"."""
    for colour, name in row["players"].items():
        if name.casefold() == folded:
            return colour
    computer = row["computer"]
    if computer and computer_name(row["game"], computer) == folded:
        return computer.get("plays")
    return None


def indexed(archive: Archive, name: str) -> bool:
    game_id = name.removesuffix(SUFFIX)
    try:
        return archive.resolve(game_id) == game_id
    except ArchiveError:
        return False


def unindexed(path: Path, skipped: Skipped | None) -> dict:
    """A journal the index leaves out, as the page lists it: a damaged one (`skipped`) with why,
    and its game up to the damage when that can be read; the game at the board before its first move.

    The words about a journal (`damaged`, `error`, `note`) are phrases, said where the answer is
    given, in the language it is asked in: why a journal is damaged comes from reading it now
    (the index keeps only its English)."""
    entry: dict = {"name": path.name, "id": path.name.removesuffix(SUFFIX)}
    try:
        contents = read_journal(path)
    except (JournalError, OSError) as error:
        if skipped is not None:
            entry["damaged"] = _damaged(path, skipped, error if isinstance(error, JournalError) else None)
        problem = entry.get("damaged") or unfoldered(message_of(error) if isinstance(error, JournalError)
                                                     else said(error), path.parent)
        return {**entry, "error": problem}
    if skipped is not None:
        entry["damaged"] = _damaged(path, skipped, contents.damage)
    try:
        game = rebuild(contents).game
    except JournalError as error:
        return {**entry, "error": entry.get("damaged") or unfoldered(message_of(error), path.parent)}
    entry.update(game=game.name, title=game.title, started=contents.header.get("started", ""),
                 moves=len(game.move_stack), result=result_line(game))
    note = unfoldered(contents.warning, path.parent) or entry.get("damaged")
    return {**entry, "note": note} if note else entry
