"""`reedboard perft GAME DEPTH`: the number of leaves of a game's move tree, from the rules alone."""

from __future__ import annotations

import argparse

from ..games import divide
from ..language.catalogue import COMMANDS
from .arguments import add_game_options, new_game

_ = COMMANDS.gettext


def add_parser(commands) -> argparse.ArgumentParser:
    perft = commands.add_parser("perft", help=_("count the leaves of the move tree to a depth"))
    add_game_options(perft)
    perft.add_argument("depth", type=_depth, metavar="DEPTH", help=_("how many plies deep (0 or more)"))
    perft.add_argument("--divide", action="store_true", help=_("first print each legal first move and its count"))
    perft.set_defaults(run=run)
    return perft


def _depth(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(_("depth must be a whole number 0 or more, not {text}").format(text=repr(text)))
    return int(text)


def run(args: argparse.Namespace) -> int:
    game = new_game(args)
    if args.divide and args.depth >= 1:
        total = 0
        for move, count in divide(game, args.depth):
            print(f"{move}: {count}")
            total += count
        print(total)
    else:
        from ..games import perft

        print(perft(game, args.depth))
    return 0
