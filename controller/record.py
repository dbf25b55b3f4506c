"""The game record in the rules' notation: what `reedboard export` and `reedboard replay` print.

A record is the set-up (header lines), one move per line, then the result with its reason
when the game is over. Big Balls: `game bigballs`, the two set-up lines of the position
before the first move, `first black|white`; result `1-0 a7`. Off Board: `game offboard`,
`board default` or `board <source>`; result `1-0 points 6-2` (the score red-yellow).
"""

from __future__ import annotations

from functools import cache

from .games import BigBalls, Game, OffBoard, load_layout


def record_lines(game: Game) -> list[str]:
    """The whole record of `game`: header, moves, and the result line once it is over."""
    lines = header_lines(game) + [game.format_move(move) for move in game.move_stack]
    result = result_line(game)
    if result is not None:
        lines.append(result)
    return lines


def header_lines(game: Game) -> list[str]:
    if isinstance(game, BigBalls):
        start = starting_position(game)
        return ["game bigballs", *start.setup_lines(), f"first {start.first}"]
    if isinstance(game, OffBoard):
        source = game.layout.source
        return ["game offboard", "board default" if source == _default_source() else f"board {source}"]
    raise TypeError(f"no record format for {type(game).__name__}")


def result_line(game: Game) -> str | None:
    """`1-0 a7`, `1/2-1/2 agreed`, Off Board `0-1 points 2-6`; None while the game goes on."""
    outcome = game.outcome()
    if outcome is None:
        return None
    line = f"{outcome.result(game.players)} {outcome.termination.value}"
    if isinstance(game, OffBoard):
        red, yellow = game.players
        line += f" {game.score(red)}-{game.score(yellow)}"
    return line


def starting_position(game: Game) -> Game:
    """A copy of `game` with every move taken back: the position the record's header shows."""
    start = game.copy()
    while start.move_stack:
        start.pop()
    return start


@cache
def _default_source() -> str:
    # The loader names the built-in board; ask it rather than repeat its wording here.
    return load_layout().source
