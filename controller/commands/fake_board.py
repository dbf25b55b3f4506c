"""`reedboard fake-board GAME`: the Pico's firmware on the host behind a pty, with the game's
start position on the board the game is played on (hal.mock.fakeboard)."""

from __future__ import annotations

from pathlib import Path

from reedboard.hal.mock.fakeboard import main as serve

from reedboard.controller.games import GAMES


def main(game: str, board_path: str | Path | None = None, stdin=None, stdout=None) -> int:
    rules = GAMES[game]
    return serve(None if board_path else rules.board, board_path, stdin, stdout,
                 occupied=rules().occupied())
