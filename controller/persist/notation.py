"""A game in the rules' notation: what `reedboard export` and `reedboard replay` print.

It is the set-up (header lines: `game NAME`, then the game's own lines for its start
position), one move per line, then the result with its reason when the game is over, and
what the game adds to it (a score, say): `1-0 a7`, `0-1 points 2-6`.
"""

from __future__ import annotations

from ..games import Game


def record_lines(game: Game) -> list[str]:
    """The whole record of `game`: header, moves, and the result line once it is over."""
    lines = header_lines(game) + [game.format_move(move) for move in game.move_stack]
    result = result_line(game)
    if result is not None:
        lines.append(result)
    return lines


def header_lines(game: Game) -> list[str]:
    """`game NAME` and the game's set-up lines for the position before the first move."""
    if not isinstance(game, Game):
        raise TypeError(f"no record format for {type(game).__name__}")
    return [f"game {game.name}", *starting_position(game).record_header()]


def result_line(game: Game) -> str | None:
    """`1-0 a7`, `1/2-1/2 agreed`, and what the game adds (a score: `0-1 points 2-6`); None
    while the game goes on."""
    outcome = game.outcome()
    if outcome is None:
        return None
    line = f"{outcome.result(game.players)} {outcome.termination.value}"
    details = game.result_details()
    return line if details is None else f"{line} {details}"


def starting_position(game: Game) -> Game:
    """A copy of `game` with every move taken back: the position the record's header shows."""
    start = game.copy()
    while start.move_stack:
        start.pop()
    return start
