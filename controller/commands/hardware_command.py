"""`reedboard hardware draw`: the board's drawings (drilling template, matrix wiring, LED chain)
as SVG files, and the drilling template tiled on A4 and on Letter sheets for a home printer (PDF)."""

from __future__ import annotations

import argparse

from ..games import GAMES
from .arguments import check_output
from .usage import Parser
from ..language.catalogue import COMMANDS, N_

_ = COMMANDS.gettext


def add_parser(commands) -> argparse.ArgumentParser:
    hardware = commands.add_parser("hardware", help=_("the board's drawings"))
    drawings = hardware.add_subparsers(dest="hardware_command", metavar="COMMAND", parser_class=Parser, required=True)
    draw = drawings.add_parser("draw", help=_("draw the drilling template, the matrix wiring and the LED chain (SVG),"
                                              " and the template tiled on A4 and Letter sheets (PDF)"))
    draw.add_argument("--board", metavar="FILE", help=_("a board file (default: every shipped board)"))
    draw.add_argument("--out", metavar="DIR", default="hardware/drawings", help=_("where to write (default hardware/drawings)"))
    draw.set_defaults(run=run)
    return hardware


def run(args: argparse.Namespace) -> int:
    """`reedboard hardware draw`: every board's drawings, or the --board file's."""
    from reedboard.hal.board import load_board
    from reedboard.hardware.drawings import draw_all
    from reedboard.hardware.tiles import write_tiles

    check_output(args.out, N_("the drawings"), "--out", directory=True)
    boards = ([load_board(args.board)] if args.board else
              [load_board(game=board) for board in sorted({cls.board for cls in GAMES.values() if cls.board})])
    for board in boards:
        for path in draw_all(board, args.out) + write_tiles(board, args.out):
            print(path)
    return 0
