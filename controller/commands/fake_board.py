"""`reedboard fake-board GAME`: the Pico's firmware on the host behind a pty, with the game's
start position on the board the game is played on (hal.mock.fakeboard)."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..games import GAMES, game_name
from ..language.catalogue import COMMANDS
from .arguments import games_in_words

_ = COMMANDS.gettext


def add_parser(commands) -> argparse.ArgumentParser:
    fake = commands.add_parser("fake-board", help=_("run the Pico firmware on this computer behind a pty"))
    fake.add_argument("game", type=game_name, choices=sorted(GAMES), help=games_in_words())
    fake.add_argument("--board", metavar="FILE", help=_("a board file (default: hardware/boards/GAME.toml)"))
    fake.set_defaults(run=run)
    return fake


def run(args: argparse.Namespace) -> int:
    return main(args.game, args.board) or 0


def main(game: str, board_path: str | Path | None = None, stdin=None, stdout=None) -> int:
    from reedboard.hal.mock.fakeboard import main as serve  # the board loader: not for `reedboard --help`

    rules = GAMES[game]
    return serve(None if board_path else rules.board, board_path, stdin, stdout,
                 occupied=rules().occupied())
