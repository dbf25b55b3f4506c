"""`reedboard bringup`'s command line: its options, and the board file and the places of the
self-test's report and the calibration's board file checked before the board is opened (the
bench itself: bringup.py; its page: web/bringup_page.py; the one-hollow test: one_hollow.py)."""

from __future__ import annotations

import argparse
import contextlib

from ..language.catalogue import COMMANDS, N_
from .arguments import add_hal_options, check_board_file, check_output, listen, seconds
from .usage import UsageError
from ..words import said

_ = COMMANDS.gettext

DEFAULT_LISTEN = "0.0.0.0:8000"  # a phone at the bench opens it


def _closes(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) <= 10000:
        raise argparse.ArgumentTypeError(_("--closes takes a number from 1 to 10000, not {text}").format(
            text=repr(text)))
    return int(text)


def add_parser(commands) -> argparse.ArgumentParser:
    bringup = commands.add_parser("bringup", help=_("bring a board up from a phone: the switches and LEDs live,"
                                                    " one hollow at a time, the self-test and the calibration"))
    add_hal_options(bringup)
    bringup.add_argument("--listen", metavar="HOST:PORT", type=listen,
                         help=_("where the page listens (default {listen}: a phone on the same network opens it;"
                                " beyond localhost a token is printed)").format(listen=DEFAULT_LISTEN))
    bringup.add_argument("--hollow", metavar="CELL",
                         help=_("no page: the one-hollow test in the terminal, each close and open of this hollow's"
                                " switch as it happens (any: every switch)"))
    bringup.add_argument("--closes", metavar="N", type=_closes,
                         help=_("with --hollow: stop once the switch has closed and opened N times (default: at Ctrl-C)"))
    bringup.add_argument("--timeout", metavar="S", type=seconds,
                         help=_("seconds the self-test and the calibration wait for each magnet or ok press"
                                " (default 20 and 60)"))
    bringup.add_argument("--report", metavar="FILE",
                         help=_("where to write the self-test's report (default: selftest-GAME-TIMESTAMP.txt here)"))
    bringup.add_argument("--out", metavar="FILE",
                         help=_("the board file the calibration writes (default: the --board file, or GAME.toml here)"))
    bringup.set_defaults(run=run)
    return bringup


def run(args: argparse.Namespace) -> int:
    from reedboard.hal import registry

    check_board_file(args.board)
    if args.hollow is None:
        if args.closes is not None:
            raise UsageError(_("reedboard bringup: --closes is for the one-hollow test in the terminal (--hollow)"))
        check_output(args.report, N_("the self-test report"), "--report")
        check_output(args.out or args.board, N_("the board file"), "--out")
        from ..workshop.bringup import bringup_command

        with bench_refusals():
            return bringup_command(args.backend, args.port, args.board, listen=args.listen or listen(DEFAULT_LISTEN),
                                   timeout=args.timeout, report_path=args.report, out_path=args.out)
    if registry.can(args.backend, registry.HANDS):
        raise UsageError(_("reedboard bringup: the simulated board's magnets are moved from the page; leave out"
                           " --hollow"))
    from ..workshop.bringup import one_hollow_command

    with bench_refusals():
        return one_hollow_command(args.backend, args.port, args.board, args.hollow, closes=args.closes)


@contextlib.contextmanager
def bench_refusals():
    """What the bench cannot do as asked (a hollow not on the board, a file not written): one line, 2."""
    from ..workshop.problems import BenchError

    try:
        yield
    except BenchError as error:
        raise UsageError(said(error)) from None
