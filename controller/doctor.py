"""`reedboard doctor`: which backend answers, and what the board senses now."""

from __future__ import annotations

import sys

from controller.games import GAMES
from hal.backends import NoBoard, find_board


def doctor(hal: str | None, port: str | None, board_path: str | None, out=None) -> int:
    out = out or sys.stdout
    sim_start = None
    if hal == "sim":  # the simulated board holds the start position of a game played on it
        from hal.backends import candidate_boards
        from hal.board import BoardError

        try:
            board = candidate_boards(board_path, None)[0]
        except BoardError:
            board = None  # find_board says what is wrong with it
        game = next((g for g in GAMES.values() if board is not None and g.board == board.name), None)
        cells = set(board.cells) if board is not None else set()
        if game is not None and set(game().cells) <= cells:
            sim_start = game().occupied()
    try:
        found = find_board(hal, board_path, port, sim_occupied=sim_start or ())
    except NoBoard as error:
        print("reedboard doctor: no board could be reached. Tried:", file=out)
        for attempt in error.tried:
            print(f"  - {attempt}", file=out)
        return 1
    board = found.board
    print(f"backend: {found.backend} ({found.detail})", file=out)
    print(f"board: {board.name}, {board.source}, {len(board.cells)} cells on a {board.rows}x{board.columns} matrix", file=out)
    close = getattr(found.device, "close", None)
    if close:
        close()
    print("occupied: " + " ".join(cell for cell in board.cells if cell in found.occupied), file=out)
    return 0
