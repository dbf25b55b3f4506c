"""Replaying a journal through the rules engine: the game its entries leave (the position, a
die showing, whether it is over, the clock), or a JournalError naming the entry that does not
replay."""

from __future__ import annotations

from dataclasses import dataclass

from ..core.clock import ClockSettings
from ..games import Game, MoveError, brief
from .journal_format import (
    AFTER_THE_RESULT, JournalContents, JournalError, clock_settings, extras_problem, start_game,
)

@dataclass(frozen=True)
class Resumed:
    game: Game  # the position after every recorded move
    pending_roll: int | None  # the die value showing, when the player had rolled but not moved
    finished: bool  # a result was recorded
    clock: ClockSettings | None = None  # the game clock, if the game had one
    clock_remaining: dict[str, float] | None = None  # each player's time after the last move


def rebuild(contents: JournalContents) -> Resumed:
    """The game as the journal leaves it: every entry replayed through the rules engine."""
    path = contents.path
    try:
        game = start_game(contents.header)
    except ValueError as error:
        raise JournalError(path, 1, str(error)) from None
    numbers = contents.line_numbers or list(range(2, len(contents.entries) + 2))
    pending: int | None = None
    finished = False
    remaining: dict[str, float] | None = None
    for number, entry in zip(numbers, contents.entries):
        kind = entry["type"]
        if kind == "resume":
            continue
        if finished and kind not in AFTER_THE_RESULT:
            raise JournalError(path, number, f"a {kind} entry after the result")
        try:
            if kind == "roll":
                pending = _roll(game, entry["player"], entry["value"])
            elif kind == "move":
                _play(game, entry["move"], pending)
                pending = None
                remaining = entry.get("clock", remaining)
            elif kind == "takeback":
                pending = _take_back(game, entry["move"])  # no free re-roll: the move's roll stays
            elif kind == "amend":
                _take_back(game, entry["old"])
                _play(game, entry["new"], None)
                pending = None
            elif kind == "result":
                _finish(game, entry["result"], entry["reason"], entry["winner"])
                finished = True
            elif kind == "hint" and entry["player"] not in game.players:  # a hint changes nothing
                raise ValueError(f"a hint for {brief(entry['player'])}, who does not play {game.title}")
            elif kind == "players" and (problem := extras_problem({"players": entry["players"]}, game.players)):
                raise ValueError(problem)
        except ValueError as error:  # MoveError, GameOverError and the checks below
            raise JournalError(path, number, str(error)) from None
    clock = clock_settings(contents.header["clock"]) if "clock" in contents.header else None
    return Resumed(game, pending, finished, clock, remaining)


def _roll(game: Game, player: str, value: int) -> int:
    if not game.uses_die:
        raise ValueError(f"{game.name} has no die roll")
    if player != game.turn:
        raise ValueError(f"{player} rolled, but it is {game.turn}'s turn")
    if not game.can_roll():
        raise ValueError(f"{player} has no stone to roll for")
    if not 1 <= value <= 6:
        raise ValueError(f"a die shows 1-6, not {value}")
    return value


def _play(game: Game, text: str, pending_roll: int | None) -> None:
    move = game.parse_move(text)
    if pending_roll is not None and game.roll_of(move) != pending_roll:
        raise MoveError(f"{text!r}: the die showed {pending_roll}, so a stone move for {pending_roll} is due")
    game.push(move)


def _take_back(game: Game, text: str) -> int | None:
    """Undo the last move, which must be `text`; the die value it was made with, if any."""
    if not game.move_stack:
        raise ValueError(f"takes back {text!r}, but no move was made")
    last = game.pop()
    try:
        same = game.parse_move(text) == last
    except MoveError:
        same = False
    if not same:
        raise ValueError(f"takes back {text!r}, but the last move was {game.format_move(last)}")
    return game.roll_of(last)


def _finish(game: Game, result: str, reason: str, winner: str | None) -> None:
    if reason == "resign":
        if winner not in game.players:
            raise ValueError(f"a resignation needs the winner, {' or '.join(game.players)}; got {winner!r}")
        game.resign(game.other(winner))
    elif reason == "agreed":
        game.agree_draw()
    elif reason == "time":
        if winner not in game.players:
            raise ValueError(f"a loss on time needs the winner, {' or '.join(game.players)}; got {winner!r}")
        game.lose_on_time(game.other(winner))
    outcome = game.outcome()
    if outcome is None:
        raise ValueError(f"the result says {result} {reason}, but the game is not over")
    expected = (outcome.result(game.players), outcome.termination.value, outcome.winner)
    if (result, reason, winner) != expected:
        raise ValueError(f"the result says {result} {reason} (winner {winner}),"
                         f" but the position gives {expected[0]} {expected[1]} (winner {expected[2]})")
