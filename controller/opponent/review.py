"""A finished (or unfinished) game looked over by the computer: after every move, the first
player's chance to win, and the moves that lost most marked, with the move the search preferred.

    review(start, ["3 c1-d1", ...], nodes) -> Review;  Review.data() -> the JSON the page draws

Pure: no I/O, no clock read for a decision. Every search is limited by nodes alone (never by
time) and seeded, so a game gives the same numbers on any machine, fast or slow.

The first player is the colour that moved first in this game. A position's value v comes from a
search (`choose`, review_limits: nodes alone, no repetition draw, which none of the games has)
for the player to move: the mean of its last two iterations (settled_value), so that a search
ending on its own move and one ending on the reply do not make the curve swing with the side to
move. The value is mapped to a chance by a logistic curve calibrated on the computer's ladder
games (chance.py); an ended position is exactly 1, 0 or 1/2, a proven win or loss 1 or 0.

Every move is weighed: a move's loss is how much less the mover's chance is after the move
played than after the move the search chose in the position before it, both positions searched
alike. In a game with a die, a move without the die is weighed against the search's choice
before the roll (rolling being worth the mean over the six faces of the move the search plays
for each); a move after a roll against the search's move for that face (the roll is luck, the
move is not), and the roll itself against the search's move without the die when it preferred
one: the greater loss is told, and after a roll the better move named is one the face allows,
unless the roll was the mistake (`rolled`: the better move is then one without the die). A loss
of 0.20 or more is a blunder, 0.10 a mistake; so is, however decided the game was, a move that
hands the opponent a win at once where another would not. A marked move names the better move
(ROLL, "roll", where rolling was better) and the cells it empties and fills, for a page to light.
The hint (worker.hint_limits) searches as the review does, so the two never disagree.

A game that goes on is reviewed a move at a time: `kept`, the moves of an earlier review of its
first moves (moves_of(data)), are taken as they are and only the moves after them searched;
every position is searched alone (its own search, its own seed), so the numbers are those of a
review of the whole game. `stop()`, asked before and during every search, ends a review nobody
waits for any more (ReviewStopped).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from ..games.base import Game
from .chance import PROVEN, chance, even_weight
from .search import choose
from .search_parts import ROLL, Limits

REVIEW_VERSION = 7  # raised whenever the numbers a review gives change (the archive's cache is keyed by it)
REVIEW_NODES = 4_000  # each search's nodes by default: a game of 40 moves in 2 to 5 seconds on a desktop
SEED = 26  # the searches' random numbers (no level's noise is used: kept for reproducibility alone)
BLUNDER, MISTAKE = 0.20, 0.10  # a move's loss of the mover's chance to win, at least
FACES = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True)
class ReviewedMove:
    ply: int  # 1 for the game's first move
    move: str  # in the rules' notation
    mover: str
    before: float  # the first player's chance to win before the move
    after: float  # and after it
    loss: float  # of the mover's own chance, against the better move (0 when it was played)
    mark: str | None  # "blunder", "mistake" or None
    better: str | None  # the move the search chose instead, for a marked move
    cells: dict[str, list[str]] | None  # {"from": cells it empties, "to": cells it fills or captures}
    rolled: bool = False  # a marked move whose loss was the roll: `better` is a move without the die
    compared: bool = True  # weighed against another choice (False: the search had none to offer)


class ReviewStopped(Exception):
    """The review was stopped (its `stop()` said so) before it was worked out."""


class NotThisGame(ValueError):
    """The moves kept from an earlier review are not this game's first moves."""


@dataclass(frozen=True)
class Review:
    game: str
    first: str
    nodes: int
    start: float  # the first player's chance before the first move
    moves: tuple[ReviewedMove, ...]
    result: float | None  # 1, 0 or 1/2 for the first player; None while the game goes on
    version: int = REVIEW_VERSION

    def points(self) -> list[float]:
        """The first player's chance before the first move and after every move."""
        return [self.start] + [move.after for move in self.moves]

    def data(self) -> dict:
        """The review as JSON-ready data, the shape the page's replay draws."""
        points: list[dict] = [{"ply": 0, "p": self.start}]
        for m in self.moves:
            points.append({"ply": m.ply, "move": m.move, "mover": m.mover, "p": m.after, "loss": m.loss,
                           "mark": m.mark, "better": m.better, "cells": m.cells, "rolled": m.rolled})
        return {"first": self.first, "nodes": self.nodes, "version": self.version, "points": points,
                "result": self.result}


def moves_of(data: dict) -> tuple[ReviewedMove, ...]:
    """The reviewed moves of a review's data (Review.data), the shape already checked."""
    points = data["points"]
    return tuple(ReviewedMove(point["ply"], point["move"], point["mover"], points[n]["p"], point["p"], point["loss"],
                              point["mark"], point["better"], point["cells"], point.get("rolled", False))
                 for n, point in enumerate(points[1:]))


def mark_of(loss: float) -> str | None:
    return "blunder" if loss >= BLUNDER else "mistake" if loss >= MISTAKE else None


def score(game: Game, player: str) -> float | None:
    """1, 0 or 1/2 for `player` when the game is over, else None."""
    outcome = game.outcome()
    if outcome is None:
        return None
    return 0.5 if outcome.winner is None else 1.0 if outcome.winner == player else 0.0


def review_limits(nodes: int = REVIEW_NODES) -> Limits:
    """The review's search (and the hint's, worker.hint_limits: the two agree on every position):
    by nodes alone, never a move a beginner would find absurd (Game.absurd), no repetition
    draw, which none of the games has, and a position with a single choice valued all the same
    (not an even 0)."""
    return Limits(nodes=nodes, seconds=None, sensible=True, repetition=False, valued=True)


def settled_value(result, even: float = 0.5) -> float:
    """A search's value of a position, for the player to move, without the side to move's swing: a
    search whose last ply is its own move sees that move's gain and not the reply, one ply deeper
    the reply too, so the values of odd and even depths lean opposite ways. The mean of the last
    two iterations completed, the even depth's weighted `even` (the game's, chance.even_weight:
    where the odd depth leans further, it weighs less), or the last alone when it proves a win or
    a loss."""
    values = result.by_depth
    if len(values) < 2 or abs(values[-1]) > PROVEN:
        return values[-1] if values else result.value
    last_even = len(values) % 2 == 0
    return even * values[-1] + (1 - even) * values[-2] if last_even else even * values[-2] + (1 - even) * values[-1]


class Searcher:
    """The searches of one review, each position searched once (by its moves from the start)."""

    def __init__(self, nodes: int, clock: Callable[[], float] | None,
                 stop: Callable[[], bool] | None = None, even: float | None = None) -> None:
        self.limits = review_limits(nodes)
        self.even = even  # the even depth's weight in settled values (None: the game's, chance.even_weight)
        self.clock = clock
        self.stop = stop
        self.known: dict[tuple, tuple[Hashable | None, float]] = {}

    def best(self, game: Game, roll: int | None = None) -> tuple[Hashable | None, float]:
        """The move the search chooses (ROLL before a roll, in a game with a die) and the
        position's value for the player to move (settled_value)."""
        key = (tuple(map(str, game.move_stack)), roll)
        found = self.known.get(key)
        if found is None:
            self.stopped()
            try:
                result = choose(game, self.limits, roll=roll, stop=self.stop, clock=self.clock,
                                rng=random.Random(SEED))
                found = (result.move, settled_value(result, even_weight(game.name) if self.even is None else self.even))
            except IndexError:  # nothing to choose from (no move, no roll), though not over
                found = (None, 0.0)
            self.stopped()  # a search cut short by stop() gives no number to keep
            self.known[key] = found
        return found

    def stopped(self) -> None:
        if self.stop is not None and self.stop():
            raise ReviewStopped

    def chance_of(self, game: Game, player: str) -> float:
        """`player`'s chance to win in `game`'s position (exact when it is over)."""
        ended = score(game, player)
        if ended is not None:
            return ended
        value = chance(game, self.best(game)[1])
        return value if game.turn == player else 1.0 - value

    def after(self, game: Game, move: Hashable, player: str) -> float:
        """`player`'s chance after `move` is played in `game` (left as it was)."""
        game.push(move)
        try:
            return self.chance_of(game, player)
        finally:
            game.pop()

    def rolling(self, game: Game, player: str) -> float:
        """`player`'s (to move) chance when they roll: the mean over the six faces of the chance
        after the move the search plays for each."""
        faces = []
        for face in FACES:
            reply, _value = self.best(game, face)
            faces.append(self.chance_of(game, player) if reply is None else self.after(game, reply, player))
        return sum(faces) / len(faces)


def _cells(game: Game, move: Hashable) -> dict[str, list[str]]:
    if move == ROLL:
        return {"from": [], "to": []}
    footprint = game.footprint(move)
    return {"from": sorted(footprint.empties), "to": sorted(footprint.fills | footprint.captures)}


def _written(game: Game, move: Hashable) -> str:
    return ROLL if move == ROLL else game.format_move(move)


def wins_at_once(game: Game) -> bool:
    """Whether the player to move can win at once whatever the die: a move that ends the game in
    their favour (a move without the die, in a game with one), or a winning move for every face."""
    player = game.turn
    for move in game.turn_moves(None) if game.uses_die else game.legal_moves():
        if _winning(game, move, player):
            return True
    if game.uses_die and game.can_roll():
        return all(any(_winning(game, move, player) for move in game.turn_moves(face)) for face in FACES)
    return False


def _winning(game: Game, move: Hashable, player: str) -> bool:
    game.push(move)
    outcome = game.outcome()
    game.pop()
    return outcome is not None and outcome.winner == player


def hands_over(game: Game, move: Hashable) -> bool:
    """Whether `move` leaves the opponent a win at once (wins_at_once)."""
    game.push(move)
    try:
        return game.outcome() is None and wins_at_once(game)
    finally:
        game.pop()


def _safe_instead(game: Game, played: Hashable, preferred: Hashable | None) -> Hashable | None:
    """A choice of the same turn that hands nothing over at once (the search's `preferred` when it
    does not), or None when every one does."""
    roll = game.roll_of(played) if game.uses_die else None
    choices = game.turn_moves(roll) if game.uses_die else game.legal_moves()
    if preferred is not None and preferred != ROLL and preferred in choices:
        choices = [preferred] + [m for m in choices if m != preferred]
    return next((m for m in choices if m != played and not hands_over(game, m)), None)


def _weighed(search: Searcher, game: Game, move: Hashable, mover: str) -> tuple[Hashable | None, float, bool]:
    """The move played weighed against the search's choice in its position: (that choice, the
    mover's chance lost against it, whether the loss was the roll's). Every move is weighed. In a
    game with a die a move without it is weighed against the search's choice before the roll, the
    roll itself as the mean over the faces; a move after a roll against the search's move for
    that face, and the roll against the search's move without the die, if it preferred one (the
    greater loss is the one told: after a roll only a move that face allows is suggested)."""
    if not game.uses_die:
        best, _value = search.best(game)
        if best is None or best == move:
            return None, 0.0, False
        return best, _round(max(0.0, search.after(game, best, mover) - search.after(game, move, mover))), False
    roll = game.roll_of(move)
    first, _value = search.best(game)  # before the roll: ROLL, or a move without the die
    if roll is None:
        if first is None or first == move:
            return None, 0.0, False
        worth = search.rolling(game, mover) if first == ROLL else search.after(game, first, mover)
        return first, _round(max(0.0, worth - search.after(game, move, mover))), False
    best, _value = search.best(game, roll)
    loss = 0.0
    if best is not None and best != move:
        loss = _round(max(0.0, search.after(game, best, mover) - search.after(game, move, mover)))
    if first is not None and first != ROLL:
        by_rolling = _round(max(0.0, search.after(game, first, mover) - search.rolling(game, mover)))
        if by_rolling > loss:
            return first, by_rolling, True
    return best, loss, False


def _round(p: float) -> float:
    return round(p, 4)


def review(start: Game, moves: Sequence[str], nodes: int = REVIEW_NODES, *, end: float | None = None,
           clock: Callable[[], float] | None = None, kept: Sequence[ReviewedMove] = (),
           stop: Callable[[], bool] | None = None) -> Review:
    """The review of the game played from `start` by `moves` (notation). `end`: the first
    player's result when the game ended otherwise than by its rules (a resignation, time, a
    draw agreed): the last point is then that result. `clock` is handed to the searches, which
    never stop by it (node budgets only). `kept`: the first moves' points from an earlier
    review of this game at these nodes while it went on (result None), taken as they are.
    MoveError for a move that is not legal, NotThisGame for kept moves that are not the game's,
    ReviewStopped when `stop()` said so."""
    game = start.copy()
    first = game.turn
    search = Searcher(nodes, clock, stop)
    if len(kept) > len(moves) or [m.move for m in kept] != list(moves[:len(kept)]) or any(
            m.ply != ply for ply, m in enumerate(kept, 1)):
        raise NotThisGame("the kept moves are not the first moves of this game")
    reviewed = list(kept)
    for point in kept:
        if point.mover != game.turn:
            raise NotThisGame(f"move {point.ply} is not {point.mover}'s")
        game.push(game.parse_move(point.move))
    before = kept[-1].after if kept else search.chance_of(game, first)
    for ply, text in enumerate(moves[len(kept):], len(kept) + 1):
        mover = game.turn
        move = game.parse_move(text)
        written = game.format_move(move)
        better, loss, rolled = _weighed(search, game, move, mover)
        compared = better is not None or search.best(game, game.roll_of(move) if game.uses_die else None)[0] == move
        mark = mark_of(loss)
        if mark != "blunder" and hands_over(game, move):
            # however decided the game, a move that hands the opponent its end at once is told
            preferred = better if better is not None and better != ROLL else \
                search.best(game, game.roll_of(move) if game.uses_die else None)[0]
            instead = _safe_instead(game, move, preferred)
            if instead is not None:
                better, mark, rolled = instead, "blunder", False
        better_text = cells = None
        if mark is not None:
            better_text, cells = _written(game, better), _cells(game, better)
        game.push(move)
        after = search.chance_of(game, first)
        reviewed.append(ReviewedMove(ply, written, mover, _round(before), _round(after), loss, mark, better_text,
                                     cells, rolled and mark is not None, compared))
        before = after
    result = score(game, first)
    if result is None and end is not None:
        result = end
        if reviewed:
            last = reviewed[-1]
            reviewed[-1] = ReviewedMove(last.ply, last.move, last.mover, last.before, end, last.loss, last.mark,
                                        last.better, last.cells, last.rolled)
    start_point = _round(before if not reviewed else reviewed[0].before)
    return Review(start.name, first, nodes, start_point, tuple(reviewed), result)
