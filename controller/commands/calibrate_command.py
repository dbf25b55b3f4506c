"""`reedboard calibrate`'s command line: its options, and the board file and the place of the
new one checked before the board is opened (the calibration itself: calibrate.py)."""

from __future__ import annotations

import argparse

from ..language.catalogue import COMMANDS, N_
from .usage import UsageError
from .arguments import add_hal_options, board_argument, check_board_file, check_output, listen, seconds
from ..words import said

_ = COMMANDS.gettext


def add_parser(commands) -> argparse.ArgumentParser:
    calibrate = commands.add_parser("calibrate", help=_("learn which switch and LED belong to each hollow; write the board file"))
    add_hal_options(calibrate, names=True)
    calibrate.add_argument("--out", metavar="FILE",
                           help=_("the board file to write (default: the --board file; for a board's name, or none, NAME.toml"
                                  " here)"))
    calibrate.add_argument("--timeout", metavar="S", type=seconds, default=60.0,
                           help=_("seconds to wait for each magnet or button press (default 60)"))
    calibrate.add_argument("--listen", metavar="HOST:PORT", type=listen,
                           help=_("also show the prompts in a web page (e.g. 127.0.0.1:8000)"))
    calibrate.set_defaults(run=run)
    return calibrate


def run(args: argparse.Namespace) -> int:
    from ..workshop.problems import BenchError
    from ..workshop.calibrate import calibrate_command

    path, name = board_argument(args.board)
    check_board_file(path)
    check_output(args.out or path, N_("the board file"), "--out")
    try:
        return calibrate_command(args.backend, args.port, path, args.out, timeout=args.timeout, listen=args.listen,
                                 board_name=name)
    except BenchError as error:  # a report or a board file that cannot be written
        raise UsageError(said(error)) from None
