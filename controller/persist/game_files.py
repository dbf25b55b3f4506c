"""Where a game's files are kept and how they are named: the games folder, a journal named by
its start and game (`20261130-193000-GAME.jsonl`), its trace beside it (`....trace.jsonl`), and the
folder synced so that a file just created survives a power cut by its name too."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from ..language.phrases import Phrasebook

phrase = Phrasebook("commands")

SUFFIX = ".jsonl"
TRACE_SUFFIX = ".trace.jsonl"


def default_games_dir() -> Path:
    """$XDG_DATA_HOME/reedboard/games, else ~/.local/share/reedboard/games."""
    data_home = os.environ.get("XDG_DATA_HOME", "")
    # The XDG spec says to ignore a relative (or empty) XDG_DATA_HOME.
    base = Path(data_home) if os.path.isabs(data_home) else Path.home() / ".local" / "share"
    return base / "reedboard" / "games"


def trace_path(journal_path: str | Path) -> Path:
    """Where the flight recorder keeps the raw frames of the game journaled at `journal_path`."""
    path = Path(journal_path)
    return path.with_name(path.name.removesuffix(SUFFIX) + TRACE_SUFFIX)


def new_journal_file(games_dir: Path, game: str, now: datetime):
    """A new journal's path in games_dir, named by its start, and the file, opened to write."""
    games_dir.mkdir(parents=True, exist_ok=True)
    stem = f"{now:%Y%m%d-%H%M%S}-{game}"
    for n in range(1, 1000):  # two games started in one second get -2, -3, ...
        path = games_dir / f"{stem}{'' if n == 1 else f'-{n}'}{SUFFIX}"
        try:
            return path, open(path, "xb")
        except FileExistsError:
            continue
    raise FileExistsError(phrase("{folder}: too many games started at {time}", folder=games_dir, time=now))


def sync_directory(directory: Path) -> None:
    """Sync a directory, so that a file just created in it survives a power cut by its name too."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # some systems cannot open a directory; the file itself is synced anyway
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
