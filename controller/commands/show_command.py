"""`reedboard show GAME MOVE...`: the position after the given moves, as a diagram."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence

from ..games import MoveError
from ..language.catalogue import COMMANDS
from .arguments import add_game_options, new_game
from ..words import said

_ = COMMANDS.gettext

_DIE_OR_BB = re.compile(r"(?i)bb|\d+")
_SECTOR_TAIL = re.compile(r"(?i)S\d+(\+\d+)?|full")


def add_parser(commands) -> argparse.ArgumentParser:
    show = commands.add_parser("show", help=_("print the position after the given moves"))
    add_game_options(show)
    show.add_argument("moves", nargs="*", metavar="MOVE",
                      help=_('moves in notation, e.g. "4 b2-b3" "BB a5-a4" or C3-D4 +E5'))
    show.set_defaults(run=run)
    return show


def split_moves(tokens: Sequence[str]) -> list[str]:
    """Rejoin moves the shell split at their spaces: `4 b2-b3`, `C7-D8x1 S5+2`, `S5 full`."""
    moves: list[str] = []
    for token in tokens:
        joins_previous = moves and (
            _DIE_OR_BB.fullmatch(moves[-1]) or _SECTOR_TAIL.fullmatch(token)
        )
        if joins_previous:
            moves[-1] += " " + token
        else:
            moves.append(token)
    return moves


def run(args: argparse.Namespace) -> int:
    game = new_game(args)
    for number, text in enumerate(split_moves(args.moves), 1):
        try:
            game.play(text)
        except MoveError as error:
            raise MoveError(_("move {number} ({move}) is not played: {reason}").format(
                number=number, move=text, reason=said(error))) from None
    print(said(game.diagram()))
    return 0
