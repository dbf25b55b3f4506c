"""The rules engines: pure, no I/O beyond reading a board definition file."""

from .base import Footprint, Game, GameOverError, MoveError, Outcome, Termination
from .bigballs import BigBalls, BigBallsMove, SetupError
from .offboard import OffBoard, OffBoardMove
from .offboard_layout import Layout, LayoutError, load_layout
from .perft import divide, perft

GAMES = {"bigballs": BigBalls, "offboard": OffBoard}

__all__ = [
    "GAMES", "BigBalls", "BigBallsMove", "Footprint", "Game", "GameOverError", "Layout",
    "LayoutError", "MoveError", "OffBoard", "OffBoardMove", "Outcome", "SetupError",
    "Termination", "divide", "load_layout", "perft",
]
