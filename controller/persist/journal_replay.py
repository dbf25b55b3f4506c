"""Replaying a journal through the rules engine: the game its entries leave (the position, a
die showing, whether it is over, the clock), or a JournalError naming the entry that does not
replay."""

from __future__ import annotations

from dataclasses import dataclass

from ..ground.settings import ClockSettings
from ..games import Game, MoveError, brief
from ..language.phrases import Phrasebook, message_of
from .journal_format import (
    AFTER_THE_RESULT, JournalContents, JournalError, _or, clock_settings, extras_problem, start_game,
)

phrase = Phrasebook("commands")

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
        raise JournalError(path, 1, message_of(error)) from None
    numbers = contents.line_numbers or list(range(2, len(contents.entries) + 2))
    pending: int | None = None
    free = False  # the pending number was kept over a takeback: a big-ball move may drop it
    finished = False
    remaining: dict[str, float] | None = None
    for number, entry in zip(numbers, contents.entries):
        kind = entry["type"]
        if kind == "resume":
            continue
        if finished and kind not in AFTER_THE_RESULT:
            raise JournalError(path, number, phrase("a {kind} entry after the result", kind=kind))
        try:
            if kind == "roll":
                pending = _roll(game, entry["player"], entry["value"])
                free = entry.get("free", False)
            elif kind == "move":
                _play(game, entry["move"], pending, free)
                pending = None
                remaining = entry.get("clock", remaining)
            elif kind == "takeback":
                pending = _take_back(game, entry["move"])  # no free re-roll: the move's roll stays
                free = False
            elif kind == "amend":
                _take_back(game, entry["old"])
                _play(game, entry["new"], None)
                pending = None
            elif kind == "result":
                _finish(game, entry["result"], entry["reason"], entry["winner"])
                finished = True
            elif kind == "hint" and entry["player"] not in game.players:  # a hint changes nothing
                raise ValueError(phrase("a hint for {player}, who does not play {game}",
                                        player=brief(entry["player"]), game=game.title))
            elif kind == "players" and (problem := extras_problem({"players": entry["players"]}, game.players)):
                raise ValueError(problem)
        except ValueError as error:  # MoveError, GameOverError and the checks below
            raise JournalError(path, number, message_of(error)) from None
    clock = clock_settings(contents.header["clock"]) if "clock" in contents.header else None
    return Resumed(game, pending, finished, clock, remaining)


def _roll(game: Game, player: str, value: int) -> int:
    if not game.uses_die:
        raise ValueError(phrase("{game} has no die roll", game=game.name))
    if player != game.turn:
        raise ValueError(phrase("{player} rolled, but it is {turn}'s turn", player=player, turn=game.turn))
    if not game.can_roll():
        raise ValueError(phrase("{player} has no stone to roll for", player=player))
    if not 1 <= value <= 6:
        raise ValueError(phrase("a die shows 1-6, not {value}", value=value))
    return value


def _play(game: Game, text: str, pending_roll: int | None, free: bool = False) -> None:
    move = game.parse_move(text)
    if free and game.roll_of(move) is None:
        pending_roll = None  # a big-ball move drops a number kept over a takeback (R19)
    if pending_roll is not None and game.roll_of(move) != pending_roll:
        raise MoveError(phrase("{move}: the die showed {roll}, so a stone move for {roll} is due", move=repr(text),
                               roll=pending_roll))
    game.push(move)


def _take_back(game: Game, text: str) -> int | None:
    """Undo the last move, which must be `text`; the die value it was made with, if any."""
    if not game.move_stack:
        raise ValueError(phrase("takes back {move}, but no move was made", move=repr(text)))
    last = game.pop()
    try:
        same = game.parse_move(text) == last
    except MoveError:
        same = False
    if not same:
        raise ValueError(phrase("takes back {move}, but the last move was {last}", move=repr(text),
                                last=game.format_move(last)))
    return game.roll_of(last)


def _finish(game: Game, result: str, reason: str, winner: str | None) -> None:
    if reason == "resign":
        if winner not in game.players:
            raise ValueError(phrase("a resignation needs the winner, {colours}; got {winner}",
                                    colours=_or(game.players), winner=repr(winner)))
        game.resign(game.other(winner))
    elif reason == "agreed":
        game.agree_draw()
    elif reason == "time":
        if winner not in game.players:
            raise ValueError(phrase("a loss on time needs the winner, {colours}; got {winner}",
                                    colours=_or(game.players), winner=repr(winner)))
        game.lose_on_time(game.other(winner))
    outcome = game.outcome()
    if outcome is None:
        raise ValueError(phrase("the result says {result} {reason}, but the game is not over", result=result,
                                reason=reason))
    expected = (outcome.result(game.players), outcome.termination.value, outcome.winner)
    if (result, reason, winner) != expected:
        raise ValueError(phrase("the result says {result} {reason} (winner {winner}), but the position gives {expected}"
                                " {expected_reason} (winner {expected_winner})",
                                result=result, reason=reason, winner=winner, expected=expected[0],
                                expected_reason=expected[1], expected_winner=expected[2]))
