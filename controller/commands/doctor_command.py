"""`reedboard doctor`'s command line: its options, and the board file read before any backend
is tried (what it says: doctor.py)."""

from __future__ import annotations

import argparse

from ..language.catalogue import COMMANDS
from .arguments import add_hal_options, board_argument, check_board_file

_ = COMMANDS.gettext


def add_parser(commands) -> argparse.ArgumentParser:
    doctor = commands.add_parser("doctor", help=_("say which board backend answers and what it senses"))
    add_hal_options(doctor, names=True)
    doctor.set_defaults(run=run)
    return doctor


def run(args: argparse.Namespace) -> int:
    from ..workshop.doctor import doctor

    path, name = board_argument(args.board)
    check_board_file(path)
    return doctor(args.backend, args.port, path, board_name=name)
