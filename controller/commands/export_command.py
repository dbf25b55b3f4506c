"""`reedboard export JOURNAL_FILE`: a journaled game's record in the rules' notation."""

from __future__ import annotations

import argparse

from ..language.catalogue import COMMANDS

_ = COMMANDS.gettext


def add_parser(commands) -> argparse.ArgumentParser:
    export = commands.add_parser("export", help=_("print a journaled game's record in the rules' notation"))
    export.add_argument("journal", metavar="JOURNAL_FILE", help=_("a game's journal (NAME.jsonl in the games folder)"))
    export.set_defaults(run=run)
    return export


def run(args: argparse.Namespace) -> int:
    from ..persist.export import export_lines

    for line in export_lines(args.journal):
        print(line)
    return 0
