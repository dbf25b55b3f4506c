"""A deliberately naive Big Balls move generator, written from the rules text alone.

It exists only to cross-check the real engine (controller.games.bigballs): nothing here is
shared with it. A position is a plain dict hollow-name -> piece ("B3" = Black's stone 3,
"W1" = White's stone 1, "O" = a big ball) plus the player to move; neighbours come from the
(column, row) coordinates of the rules' table; a move is its notation string; applying a move
copies the dict. Speed is not a goal.
"""

from __future__ import annotations

LETTERS = "abcdefg"
PLAYERS = ("black", "white")
PREFIX = {"black": "B", "white": "W"}
BALL = "O"

# The 28 hollows: row r (1 = bottom) has 8 - r hollows, columns a, b, ...
HOLLOWS = [f"{LETTERS[i]}{r}" for r in range(1, 8) for i in range(8 - r)]

# direction -> (column step, row step), as in the rules' table
DIRECTIONS = {
    "ne": (0, 1),
    "e": (1, 0),
    "se": (1, -1),
    "sw": (0, -1),
    "w": (-1, 0),
    "nw": (-1, 1),
}
BALL_DIRECTIONS = ("sw", "se")  # a big ball rolls one step down
STONE_DIRECTIONS = ("nw", "ne", "w", "e")  # a stone steps up or sideways

DEFAULT_BLACK = {"a1": 1, "b1": 2, "c1": 3, "a2": 4, "b2": 5, "a3": 6}
DEFAULT_WHITE = {"e1": 1, "f1": 2, "g1": 3, "e2": 4, "f2": 5, "e3": 6}
DEFAULT_BALLS = ["a7", "a6", "b6", "a5", "b5", "c5"]


def neighbour(hollow: str, direction: str) -> str | None:
    """The hollow one step from `hollow` in `direction`, or None off the board."""
    column, row = LETTERS.index(hollow[0]), int(hollow[1:])
    dc, dr = DIRECTIONS[direction]
    column, row = column + dc, row + dr
    if column < 0 or row < 1 or column >= len(LETTERS):
        return None
    name = f"{LETTERS[column]}{row}"
    return name if name in HOLLOWS else None


def other(player: str) -> str:
    return PLAYERS[1] if player == PLAYERS[0] else PLAYERS[0]


class Position:
    """board: hollow -> piece (empty hollows are simply absent); turn: the player to move."""

    def __init__(self, board: dict[str, str], turn: str = "black") -> None:
        self.board = dict(board)
        self.turn = turn

    @classmethod
    def setup(cls, black=None, white=None, balls=None, first="black") -> Position:
        board: dict[str, str] = {}
        for hollow, number in (DEFAULT_BLACK if black is None else black).items():
            board[hollow] = f"B{number}"
        for hollow, number in (DEFAULT_WHITE if white is None else white).items():
            board[hollow] = f"W{number}"
        for hollow in DEFAULT_BALLS if balls is None else balls:
            board[hollow] = BALL
        return cls(board, first)

    def occupied(self) -> frozenset[str]:
        return frozenset(self.board)

    def stones(self, player: str) -> dict[int, str]:
        """number -> hollow of the player's stones on the board."""
        p = PREFIX[player]
        return {int(piece[1:]): h for h, piece in self.board.items() if piece[0] == p}


def movable_numbers(numbers_present, roll: int) -> list[int]:
    """The stone numbers a roll lets move (rules: stone n, else nearest lower and higher)."""
    present = set(numbers_present)
    if roll in present:
        return [roll]
    result = []
    lower = [k for k in present if k < roll]
    higher = [k for k in present if k > roll]
    if lower:
        result.append(max(lower))
    if higher:
        result.append(min(higher))
    return result


def big_ball_moves(pos: Position) -> list[str]:
    moves = []
    for hollow, piece in pos.board.items():
        if piece != BALL:
            continue
        for direction in BALL_DIRECTIONS:
            target = neighbour(hollow, direction)
            if target is None or pos.board.get(target) == BALL:
                continue
            sign = "x" if target in pos.board else "-"
            moves.append(f"BB {hollow}{sign}{target}")
    return moves


def stone_moves(pos: Position, roll: int) -> list[str]:
    moves = []
    mine = pos.stones(pos.turn)
    for number in movable_numbers(mine, roll):
        hollow = mine[number]
        for direction in STONE_DIRECTIONS:
            target = neighbour(hollow, direction)
            if target is None:
                continue
            sign = "x" if target in pos.board else "-"
            moves.append(f"{roll} {hollow}{sign}{target}")
    return moves


def _any_ball_can_move(pos: Position) -> bool:
    return bool(big_ball_moves(pos))


def outcome(pos: Position) -> tuple[str, str | None] | None:
    """The end rules in the rules' order: (reason, winner or None for a draw), or None."""
    mover = other(pos.turn)  # the player who made the last move
    # 1. a stone of the mover stands on a7
    top = pos.board.get("a7")
    if top is not None and top[0] == PREFIX[mover]:
        return ("a7", mover)
    # 2. no stones of either colour
    if not pos.stones("black") and not pos.stones("white"):
        if _any_ball_can_move(pos):
            return ("balls-only", None)
        return ("no-move", other(pos.turn))
    # 3. the player to move has no legal move: no own stones and no movable big ball
    if not pos.stones(pos.turn) and not _any_ball_can_move(pos):
        return ("no-move", other(pos.turn))
    return None


def legal_moves(pos: Position) -> list[str]:
    """Big-ball moves plus, for each die value 1..6, every stone move for that value."""
    if outcome(pos) is not None:
        return []
    moves = big_ball_moves(pos)
    if pos.stones(pos.turn):
        for roll in range(1, 7):
            moves.extend(stone_moves(pos, roll))
    return moves


def apply(pos: Position, move: str) -> Position:
    """A new position after the move written `move` (assumed legal)."""
    head, path = move.split(" ")
    sign = "x" if "x" in path else "-"
    src, dst = path.split(sign)
    board = dict(pos.board)
    piece = board.pop(src)
    if head == "BB":
        assert piece == BALL, (move, piece)
    else:
        assert piece[0] == PREFIX[pos.turn], (move, piece)
    board[dst] = piece  # whatever stood there is captured
    return Position(board, other(pos.turn))


def perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = legal_moves(pos)  # empty for a finished game
    if depth == 1:
        return len(moves)
    return sum(perft(apply(pos, m), depth - 1) for m in moves)
