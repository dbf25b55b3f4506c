"""The journals in a games folder: the games not finished, newest first; a game given up before
its first move removed; the journal a damaged journal's game goes on in. Each journal is only
glanced at (the type of each line, or its first line), never replayed."""

from __future__ import annotations

from pathlib import Path

from ..ground.readfile import JOURNAL_LIMIT, read_bytes, read_first_line
from .game_files import SUFFIX, TRACE_SUFFIX, sync_directory, trace_path
from .journal_format import parse_line, recovered_from

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
        if (source := recovered_from(header)) is not None:
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
        value = parse_line(line)[0]
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


def going_on_in(path: str | Path) -> Path | None:
    """The journal (next to it) in which the game of the damaged journal at `path` goes on, if any."""
    path = Path(path)
    for other in _journals(path.parent):
        try:
            first = read_first_line(other, JOURNAL_LIMIT, "journal")
        except OSError:
            continue
        source = recovered_from(parse_line(first)[0])
        if source is not None and source[0] == path.name:
            return other
    return None
