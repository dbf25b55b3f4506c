"""A deliberately naive Abalone move generator, written from the rules text alone.

It exists only to cross-check the real engine (controller.games.abalone): holes, neighbours
and lines are computed here from the (row, diagonal) coordinates, and every candidate line
of one to three marbles is tried in each of the six directions by walking the board hole by
hole. Only the start layouts are read from the project's data file, since they are data.

A position is: a dict hole -> "B"/"W", the marbles each player has pushed off, and the
player to move. A move is (frozenset of the holes moved, direction); its notation is
written here too (AbaPro style). Applying one builds a new position. Speed is not a goal.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROWS = "ABCDEFGHI"
PLAYERS = ("black", "white")
COLOUR = {"black": "B", "white": "W"}
WIN = 6

# direction -> (row step, diagonal step), as in the rules
DIRECTIONS = {"NE": (1, 1), "E": (0, 1), "SE": (-1, 0), "SW": (-1, -1), "W": (0, -1), "NW": (1, 0)}


def exists(r: int, c: int) -> bool:
    """Row r (A = 0), diagonal c (1 = 0): a hole when both are on the board and |c - r| <= 4."""
    return 0 <= r <= 8 and 0 <= c <= 8 and abs(c - r) <= 4


HOLES = [f"{ROWS[r]}{c + 1}" for r in range(9) for c in range(9) if exists(r, c)]
assert len(HOLES) == 61


def coords(hole: str) -> tuple[int, int]:
    return ROWS.index(hole[0]), int(hole[1:]) - 1


def _step(hole: str, direction: str) -> str | None:
    r, c = coords(hole)
    dr, dc = DIRECTIONS[direction]
    return f"{ROWS[r + dr]}{c + dc + 1}" if exists(r + dr, c + dc) else None


_NEIGHBOUR = {(hole, d): _step(hole, d) for hole in HOLES for d in DIRECTIONS}  # looked up, not recomputed


def step(hole: str, direction: str) -> str | None:
    """The hole one step from `hole` in `direction`, or None (off the board)."""
    return _NEIGHBOUR[hole, direction]


def opposite(direction: str) -> str:
    dr, dc = DIRECTIONS[direction]
    return next(name for name, v in DIRECTIONS.items() if v == (-dr, -dc))


def other(player: str) -> str:
    return PLAYERS[1] if player == PLAYERS[0] else PLAYERS[0]


@dataclass
class Position:
    board: dict[str, str]
    turn: str = "black"
    off: dict[str, int] = field(default_factory=lambda: {"black": 0, "white": 0})  # pushed off BY each player


def start(layout: str = "standard") -> Position:
    path = Path(__file__).resolve().parents[1] / "controller" / "games" / "data" / "abalone.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))[layout]
    board = {hole: "B" for hole in data["black"]}
    board.update({hole: "W" for hole in data["white"]})
    return Position(board)


def lines(pos: Position) -> set[frozenset[str]]:
    """Every straight line of 1, 2 or 3 adjacent marbles of the player to move."""
    mine = COLOUR[pos.turn]
    found = set()
    for hole, colour in pos.board.items():
        if colour != mine:
            continue
        found.add(frozenset([hole]))
        for direction in DIRECTIONS:
            line = [hole]
            for _ in range(2):
                nxt = step(line[-1], direction)
                if nxt is None or pos.board.get(nxt) != mine:
                    break
                line.append(nxt)
                found.add(frozenset(line))
    return found


def along(line: frozenset[str], direction: str) -> bool:
    """Whether `direction` runs along the line's own axis (always, for one marble)."""
    return len(line) == 1 or any(step(h, direction) in line for h in line)


def is_legal(pos: Position, line: frozenset[str], direction: str) -> bool:
    mine = COLOUR[pos.turn]
    if along(line, direction):
        lead = next(h for h in line if step(h, direction) not in line)
        ahead = step(lead, direction)
        if ahead is None:  # never one's own marble off the board
            return False
        if ahead not in pos.board:
            return True
        if pos.board[ahead] == mine:  # this set is not the whole line moving
            return False
        pushed, behind = 0, ahead
        while behind is not None and pos.board.get(behind) not in (None, mine):
            pushed += 1
            behind = step(behind, direction)
        if pushed >= len(line):
            return False
        return behind is None or behind not in pos.board  # the edge, or a free hole
    targets = [step(h, direction) for h in line]
    return all(t is not None and t not in pos.board for t in targets)


def moves(pos: Position) -> list[tuple[frozenset[str], str]]:
    if any(n >= WIN for n in pos.off.values()):
        return []
    return [(line, d) for line in lines(pos) for d in DIRECTIONS if is_legal(pos, line, d)]


def apply(pos: Position, move: tuple[frozenset[str], str]) -> Position:
    line, direction = move
    board = dict(pos.board)
    off = dict(pos.off)
    if along(line, direction):
        lead = next(h for h in line if step(h, direction) not in line)
        run = []  # the opposing marbles ahead, nearest first
        hole = step(lead, direction)
        while hole is not None and board.get(hole) not in (None, COLOUR[pos.turn]):
            run.append(hole)
            hole = step(hole, direction)
        for h in reversed(run):
            nxt = step(h, direction)
            if nxt is None:
                off[pos.turn] += 1
            else:
                board[nxt] = board[h]
            del board[h]
    for h in line:
        del board[h]
    for h in line:
        board[step(h, direction)] = COLOUR[pos.turn]
    return Position(board, other(pos.turn), off)


def notation(move: tuple[frozenset[str], str]) -> str:
    """Inline: the trailing marble's hole and the hole it moves to. Broadside: the two end
    holes, the first in board order (row, then diagonal), and where the first one moves."""
    line, direction = move
    if along(line, direction):
        trail = next(h for h in line if step(h, opposite(direction)) not in line)
        return f"{trail}{step(trail, direction)}"
    ends = sorted((h for h in line if sum(step(h, d) in line for d in DIRECTIONS) <= 1), key=coords)
    return f"{ends[0]}{ends[-1]}{step(ends[0], direction)}"


def perft(pos: Position, depth: int) -> int:
    if depth == 0:
        return 1
    found = moves(pos)
    if depth == 1:
        return len(found)
    return sum(perft(apply(pos, m), depth - 1) for m in found)
