"""Going on after damage: a damaged journal is never written to (what is appended after the
damage would never be read); its game up to the damage is copied into a new journal next to
it, whose header names the journal and line it came from."""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

from ..ground.readfile import JOURNAL_LIMIT, read_bytes
from .game_files import new_journal_file, sync_directory
from .games_folder import going_on_in
from .journal_format import JournalContents, JournalError
from .journal_reader import read_journal
from ..language.phrases import Phrasebook

phrase = Phrasebook("commands")

def go_on_in_new_journal(path: str | Path, now: datetime | None = None) -> Path:
    """A new journal, next to the damaged journal at `path`, holding its game up to the damage:
    the header, naming the journal and line it comes from, then every line before the damage,
    copied byte for byte. The damaged journal is left as it is. JournalError when it is not
    damaged, cannot be used, or its game already goes on in another journal."""
    path = Path(path)
    contents = read_journal(path)
    damage = contents.damage
    if damage is None:
        raise JournalError(path, None, phrase("not damaged: it is resumed as it is"))
    other = going_on_in(path)
    if other is not None:
        raise JournalError(path, damage.line, phrase("{problem}; its game already goes on in {other}",
                                                     problem=damage.problem, other=other))
    try:
        raw = read_bytes(path, JOURNAL_LIMIT, "journal").split(b"\n")
    except OSError as error:
        raise JournalError(path, None, phrase("cannot read the journal ({problem})", problem=error)) from None
    header = {**contents.header, "recovered_from": {"journal": path.name, "line": damage.line}}
    lines = [json.dumps(header).encode("utf-8")] + [raw[number - 1] for number in contents.line_numbers]
    now = datetime.now().astimezone() if now is None else now
    new_path, file = new_journal_file(path.parent, contents.header["game"], now)
    with file:  # all at once, then synced: nothing is lost if the power goes meanwhile (the original stays)
        file.write(b"".join(line + b"\n" for line in lines))
        file.flush()
        os.fsync(file.fileno())
    sync_directory(path.parent)
    return new_path


def why_not_written(path: Path, contents: JournalContents) -> str:
    """Why a damaged journal is not appended to, and where its game goes on (or how it can)."""
    other = going_on_in(path)
    if other is not None:
        return phrase("{problem}; a damaged journal is never written to: its game goes on in {other}",
                      problem=contents.damage.problem, other=other)
    command = f"reedboard play {contents.header['game']} --resume {path}"
    return phrase("{problem}; a damaged journal is never written to: go on with its game in a new journal: {command}",
                  problem=contents.damage.problem, command=command)
