"""A deliberately naive Off Board move generator, written from the rules text alone.

It exists only to cross-check the real engine (controller.games.offboard): the geometry,
neighbours, rays and exits are computed here from the (row, diagonal) coordinates. Only the
board definition's data comes from the project: which sector each exit feeds and its value
(`controller.games.load_layout()`), since a physical board may differ from the default.

A position is: a dict hole -> "R"/"Y", the sector holders (name -> "R"/"Y"/None), the
scores, whether the player to move has a ball waiting, and the player to move. A move is its
notation string; applying one builds a new position. Speed is not a goal.
"""

from __future__ import annotations

ROWS = "ABCDEFGHI"
PLAYERS = ("red", "yellow")
COLOUR = {"red": "R", "yellow": "Y"}
WIN = 6

# direction -> (row step, diagonal step), as in the rules
DIRECTIONS = {
    "NE": (1, 1),
    "E": (0, 1),
    "SE": (-1, 0),
    "SW": (-1, -1),
    "W": (0, -1),
    "NW": (1, 0),
}


def exists(r: int, d: int) -> bool:
    return 0 <= r <= 8 and 1 <= d <= 9 and r - 3 <= d <= r + 5


HOLES = [f"{ROWS[r]}{d}" for r in range(9) for d in range(1, 10) if exists(r, d)]
assert len(HOLES) == 61


def step(hole: str, direction: str) -> str | None:
    """The hole one step from `hole` in `direction`, or None (off the board)."""
    r, d = ROWS.index(hole[0]), int(hole[1:])
    dr, dd = DIRECTIONS[direction]
    r, d = r + dr, d + dd
    return f"{ROWS[r]}{d}" if exists(r, d) else None


# Every exit: an edge hole and a direction with no hole there.
EXITS = [(h, dn) for h in HOLES for dn in DIRECTIONS if step(h, dn) is None]
assert len(EXITS) == 54


def other(player: str) -> str:
    return PLAYERS[1] if player == PLAYERS[0] else PLAYERS[0]


class Rim:
    """The sector table of a board definition: exit -> sector name, sector -> value."""

    def __init__(self, layout=None) -> None:
        if layout is None:
            from reedboard.controller.games import load_layout

            layout = load_layout()
        self.layout = layout
        self.values = {s.name: s.value for s in layout.sectors}
        self.names = [s.name for s in layout.sectors]
        self.exit_sector = {}
        for hole, direction in EXITS:
            self.exit_sector[(hole, direction)] = layout.sector_of(f"{hole}-{direction}").name


_DEFAULT_RIM: Rim | None = None


def default_rim() -> Rim:
    global _DEFAULT_RIM
    if _DEFAULT_RIM is None:
        _DEFAULT_RIM = Rim()
    return _DEFAULT_RIM


class Position:
    def __init__(self, board, sectors, scores, waiting, turn, rim) -> None:
        self.board = board  # hole -> "R"/"Y"; empty holes are absent
        self.sectors = sectors  # sector name -> "R"/"Y"/None
        self.scores = scores  # player -> points
        self.waiting = waiting  # the player to move has a pushed-off ball waiting
        self.turn = turn
        self.rim = rim

    @classmethod
    def setup(cls, red=None, yellow=None, sectors=None, turn="red", waiting=False, rim=None) -> Position:
        rim = rim or default_rim()
        red = rim.layout.red if red is None else red
        yellow = rim.layout.yellow if yellow is None else yellow
        board = {h: "R" for h in red}
        board.update({h: "Y" for h in yellow})
        holders = {name: None for name in rim.names}
        scores = {"red": 0, "yellow": 0}
        for name, player in (sectors or {}).items():
            holders[name] = COLOUR[player]
            # a ball in a sector scored its value to the other player
            scores[other(player)] += rim.values[name]
        return cls(board, holders, scores, bool(waiting), turn, rim)

    def occupied(self) -> frozenset[str]:
        return frozenset(list(self.board) + [s for s, c in self.sectors.items() if c])


def _line(pos: Position, tail: str, direction: str):
    """The rules' walk from `tail`: (cells moving, n, m, front or None if off the board,
    last cell walked) or None when the line move is illegal."""
    me = COLOUR[pos.turn]
    cells = []
    n = m = 0
    cur = tail
    while cur is not None and pos.board.get(cur) == me:
        cells.append(cur)
        n += 1
        cur = step(cur, direction)
    while cur is not None and pos.board.get(cur) not in (None, me):
        cells.append(cur)
        m += 1
        cur = step(cur, direction)
    front = cur
    if m == 0:
        if front is None or front in pos.board:
            return None
    else:
        if n <= m:
            return None
        if front is not None and front in pos.board:  # our own ball blocks the push
            return None
    return cells, n, m, front


def line_moves(pos: Position) -> list[str]:
    me = COLOUR[pos.turn]
    moves = []
    for tail in sorted(h for h, c in pos.board.items() if c == me):
        for direction in DIRECTIONS:
            walk = _line(pos, tail, direction)
            if walk is None:
                continue
            cells, n, m, front = walk
            text = f"{tail}-{step(tail, direction)}"
            if m:
                text += f"x{m}"
            if m and front is None:
                sector = pos.rim.exit_sector[(cells[-1], direction)]
                if pos.sectors[sector] is None:
                    text += f" {sector}+{pos.rim.values[sector]}"
                else:
                    text += f" {sector} full"
            if pos.waiting:
                text = "*" + text
            moves.append(text)
    return moves


def replacements(pos: Position) -> list[str]:
    if not pos.waiting:
        return []
    return [f"+{h}" for h in HOLES if h not in pos.board]


def has_line_move(pos: Position) -> bool:
    return bool(line_moves(pos))


def outcome(pos: Position) -> tuple[str, str | None] | None:
    """The end checks in the rules' order: (reason, winner or None), or None."""
    mover = other(pos.turn)
    for player in (mover, pos.turn):
        if pos.scores[player] >= WIN:
            return ("points", player)
    free = sum(pos.rim.values[s] for s, c in pos.sectors.items() if c is None)
    if all(pos.scores[p] + free < WIN for p in PLAYERS):
        return ("unreachable", None)
    if not pos.waiting and not has_line_move(pos):
        return ("no-move", mover)
    return None


def legal_moves(pos: Position) -> list[str]:
    if outcome(pos) is not None:
        return []
    return line_moves(pos) + replacements(pos)


def apply(pos: Position, move: str) -> Position:
    """A new position after `move` (a notation string, assumed legal)."""
    board = dict(pos.board)
    sectors = dict(pos.sectors)
    scores = dict(pos.scores)
    me = COLOUR[pos.turn]
    if move.startswith("+"):
        assert pos.waiting
        hole = move[1:]
        assert hole not in board
        board[hole] = me
        return Position(board, sectors, scores, False, other(pos.turn), pos.rim)
    # a line move; if a ball of ours was waiting it now leaves the game (nothing to record)
    text = move.lstrip("*")
    tail, rest = text.split("-", 1)
    to = rest.split("x")[0].split(" ")[0]
    direction = next(dn for dn in DIRECTIONS if step(tail, dn) == to)
    walk = _line(pos, tail, direction)
    assert walk is not None, move
    cells, n, m, front = walk
    pieces = [board.pop(c) for c in cells]
    waiting_next = False
    for cell, piece in zip(cells, pieces):
        target = step(cell, direction)
        if target is not None:
            board[target] = piece
            continue
        # pushed off the rim: the opponent's front ball
        sector = pos.rim.exit_sector[(cell, direction)]
        if sectors[sector] is None:
            sectors[sector] = piece
            scores[pos.turn] += pos.rim.values[sector]
        else:
            waiting_next = True  # it waits for its owner, who moves next
    return Position(board, sectors, scores, waiting_next, other(pos.turn), pos.rim)


def perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(apply(pos, m), depth - 1) for m in moves)
