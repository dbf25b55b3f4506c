"""Reading a journal: every line parsed and checked, the game replayed through the rules engine.

A power cut can leave the last line half written. Reading ignores such a line with a warning
(a `resume` or `players` line written after it vouches for it). A header that cannot be used
is a JournalError naming the file and line 1. Damage further on (a line that is not JSON, an
entry that is wrong or does not replay) ends the reading there: every entry before it is kept,
and the damage is named with its line.
"""

from __future__ import annotations

from pathlib import Path

from ..ground.readfile import JOURNAL_LIMIT, read_bytes
from .journal_format import (
    NESTED_TOO_DEEPLY, JournalContents, JournalError, check_entry, check_header, parse_line,
)
from .journal_replay import Resumed, rebuild
from ..language.phrases import Phrasebook, listed, message_of

phrase = Phrasebook("commands")
phrase_n = phrase.n

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
        raise JournalError(path, None, phrase("cannot read the journal ({problem})", problem=error)) from None
    if not data:
        raise JournalError(path, None, phrase("empty: a journal starts with a header line"))
    raw = data.split(b"\n")
    ends_cleanly = raw[-1] == b""
    if ends_cleanly:
        raw.pop()

    kept: list[tuple[int, dict]] = []
    torn: list[int] = []  # unreadable lines waiting to be judged by what follows them
    ignored: list[int] = []  # torn lines a power cut explains
    why: dict[int, str] = {}  # of each unreadable line
    for number, line in enumerate(raw, 1):
        value, problem = parse_line(line)
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
        check_header(path, header)
    except RecursionError:  # nesting the parser took, too deep to check
        raise JournalError(path, 1, phrase("the header line is damaged: {why}", why=phrase(NESTED_TOO_DEEPLY))) from None
    entries: list[tuple[int, dict]] = []
    for number, entry in kept[1:]:
        try:
            check_entry(path, number, entry)
        except JournalError as error:  # always before a damage found above: kept ends there
            damage = error
            break
        except RecursionError:
            damage = JournalError(path, number, phrase("damaged line: {why}", why=phrase(NESTED_TOO_DEEPLY)))
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
    return JournalContents(header, [e for __, e in entries], warning, path, [n for n, __ in entries], damage)


def _damaged(path: Path, number: int, why: str) -> JournalError:
    if number == 1:
        if why == phrase(NESTED_TOO_DEEPLY):
            return JournalError(path, 1, phrase("the header line is damaged ({why}): this game cannot be restored",
                                                why=why))
        return JournalError(path, 1, phrase("the header line is damaged: this game cannot be restored"))
    return JournalError(path, number, phrase("damaged line: {why}", why=why or phrase("not a JSON object")))


def _warning(path: Path, ignored: list[int], damage: JournalError | None) -> str | None:
    """One line on what was left out, or None."""
    parts = []
    if damage is not None:
        parts.append(phrase("{damage}; the game is read up to the line before it, and nothing from it on is used",
                            damage=message_of(damage)))
    if ignored:
        parts.append(_torn_warning(path, ignored))
    return listed(parts, "; ") if parts else None


def _torn_warning(path: Path, numbers: list[int]) -> str:
    lines = ", ".join(str(n) for n in numbers)
    return phrase_n("{path}: line {lines} was cut off (a power cut?) and is ignored; everything before it is kept",
                    "{path}: lines {lines} were cut off (a power cut?) and are ignored; everything before them is kept",
                    len(numbers), path=path, lines=lines)


def players_of(contents: JournalContents) -> dict[str, str]:
    """The players' names by colour: the header's, with every later `players` entry over them."""
    players = dict(contents.header.get("players", {}))
    for entry in contents.entries:
        if entry["type"] == "players":
            players.update(entry["players"])
    return players
