"""`reedboard doctor`'s command line: its options, and the board file read before any backend
is tried (what it says: doctor.py)."""

from __future__ import annotations

import argparse

from ..language.catalogue import COMMANDS
from .arguments import add_hal_options, check_board_file

_ = COMMANDS.gettext


def add_parser(commands) -> argparse.ArgumentParser:
    doctor = commands.add_parser("doctor", help=_("say which board backend answers and what it senses"))
    add_hal_options(doctor)
    doctor.set_defaults(run=run)
    return doctor


def run(args: argparse.Namespace) -> int:
    from .doctor import doctor

    check_board_file(args.board)
    return doctor(args.backend, args.port, args.board)
