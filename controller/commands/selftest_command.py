"""`reedboard selftest`'s command line: its options, and the board file and the report's place
checked before the board is opened (the test itself: selftest.py)."""

from __future__ import annotations

import argparse

from ..language.catalogue import COMMANDS, N_
from .usage import UsageError
from .arguments import add_hal_options, board_argument, check_board_file, check_output, seconds
from ..words import said

_ = COMMANDS.gettext


def add_parser(commands) -> argparse.ArgumentParser:
    selftest = commands.add_parser("selftest", help=_("check every reed switch and LED with a magnet; write a report"))
    add_hal_options(selftest, names=True)
    selftest.add_argument("--report", metavar="FILE",
                          help=_("where to write the report (default: selftest-GAME-TIMESTAMP.txt here)"))
    selftest.add_argument("--timeout", metavar="S", type=seconds, default=20.0,
                          help=_("seconds to wait for each magnet or button press, and for a switch still closed"
                                 " on a cleared board before it is found stuck (default 20)"))
    selftest.add_argument("--watch", metavar="S", type=seconds, default=3.0,
                          help=_("seconds of the hands-off check on the empty board (default 3)"))
    selftest.set_defaults(run=run)
    return selftest


def run(args: argparse.Namespace) -> int:
    from ..workshop.problems import BenchError
    from ..workshop.selftest import selftest_command

    path, name = board_argument(args.board)
    check_board_file(path)
    check_output(args.report, N_("the self-test report"), "--report")
    try:
        return selftest_command(args.backend, args.port, path, args.report, args.timeout, watch=args.watch,
                                board_name=name)
    except BenchError as error:  # a report or a board file that cannot be written
        raise UsageError(said(error)) from None
