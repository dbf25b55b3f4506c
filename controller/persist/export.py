"""`reedboard export JOURNAL`: a journal's game in the rules' notation (see notation), the moves
up to the damage of a damaged journal, with a warning of what was left out."""

from __future__ import annotations

import logging
from pathlib import Path

from .journal_reader import read_journal
from .journal_replay import rebuild
from .notation import record_lines

log = logging.getLogger(__name__)

def export_lines(path: str | Path) -> list[str]:
    """The game record of a journal, in the rules' notation; what was left out of a damaged
    journal is logged as a warning (on standard error, for the command line)."""
    contents = read_journal(path)
    if contents.warning:
        log.warning("reedboard: warning: %s", contents.warning)
    return record_lines(rebuild(contents).game)
