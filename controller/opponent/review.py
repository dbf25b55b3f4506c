"""A finished (or unfinished) game looked over by the computer: after every move, the first
player's chance to win, and the moves that lost most marked, with the move the search preferred.

    review(start, ["3 c1-d1", ...], nodes) -> Review;  Review.data() -> the JSON the page draws

Pure: no I/O, no clock read for a decision. Every search is limited by nodes alone (never by
time) and seeded, so a game gives the same numbers on any machine, fast or slow.

The first player is the colour that moved first in this game. A position's value v comes from a
search (`choose`) for the player to move: in a game with a die, the expectimax value of the turn's first
decision (before any roll: between two moves no roll is pending) is that player's mean result
in [-1, 1], so p = (1 + v) / 2; alpha-beta's value in the games without a die is mapped by a
logistic curve calibrated on the computer's ladder games (chance.py). An ended position is exactly
1, 0 or 1/2.

A move's loss is how much less the mover's chance is after the move played than after the move
the search chose in the position before it, both positions searched alike (in a game with a die the
search chooses among the moves the die allowed: the roll is luck, the move is not). A loss of
0.20 or more is a blunder, 0.10 a mistake; a marked move names the better move and the cells it
empties and fills, for a page to light.

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
from .chance import chance
from .search import choose
from .search_parts import ROLL, Limits

REVIEW_VERSION = 3  # raised whenever the numbers a review gives change (the archive's cache is keyed by it)
REVIEW_NODES = 4_000  # each search's nodes by default: a game of 40 moves in 2 to 5 seconds on a desktop
SEED = 26  # the searches' random numbers (no level's noise is used: kept for reproducibility alone)
BLUNDER, MISTAKE = 0.20, 0.10  # a move's loss of the mover's chance to win, at least


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
                           "mark": m.mark, "better": m.better, "cells": m.cells})
        return {"first": self.first, "nodes": self.nodes, "version": self.version, "points": points,
                "result": self.result}


def moves_of(data: dict) -> tuple[ReviewedMove, ...]:
    """The reviewed moves of a review's data (Review.data), the shape already checked."""
    points = data["points"]
    return tuple(ReviewedMove(point["ply"], point["move"], point["mover"], points[n]["p"], point["p"], point["loss"],
                              point["mark"], point["better"], point["cells"])
                 for n, point in enumerate(points[1:]))


def mark_of(loss: float) -> str | None:
    return "blunder" if loss >= BLUNDER else "mistake" if loss >= MISTAKE else None


def score(game: Game, player: str) -> float | None:
    """1, 0 or 1/2 for `player` when the game is over, else None."""
    outcome = game.outcome()
    if outcome is None:
        return None
    return 0.5 if outcome.winner is None else 1.0 if outcome.winner == player else 0.0


class Searcher:
    """The searches of one review, each position searched once (by its moves from the start)."""

    def __init__(self, nodes: int, clock: Callable[[], float] | None,
                 stop: Callable[[], bool] | None = None) -> None:
        # never a better move a beginner would find absurd (Game.absurd)
        self.limits = Limits(nodes=nodes, seconds=None, sensible=True)
        self.clock = clock
        self.stop = stop
        self.known: dict[tuple, tuple[Hashable | None, float]] = {}

    def best(self, game: Game, roll: int | None = None) -> tuple[Hashable | None, float]:
        """The move the search chooses (ROLL before a roll, in a game with a die) and its value for the
        player to move."""
        key = (tuple(map(str, game.move_stack)), roll)
        found = self.known.get(key)
        if found is None:
            self.stopped()
            try:
                result = choose(game, self.limits, roll=roll, stop=self.stop, clock=self.clock,
                                rng=random.Random(SEED))
                found = (result.move, result.value)
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


def _cells(game: Game, move: Hashable) -> dict[str, list[str]]:
    footprint = game.footprint(move)
    return {"from": sorted(footprint.empties), "to": sorted(footprint.fills | footprint.captures)}


def _rolled_instead(search: Searcher, game: Game, mover: str) -> tuple[Hashable, float] | None:
    """In a game with a die, before the roll: when the search prefers a move without the die
    (a big ball's, say) to rolling, that move and how much the mover's chance after it
    exceeds their mean chance over the six faces (each played as the search plays it)."""
    first, _value = search.best(game)
    if first is None or first == ROLL:
        return None
    game.push(first)
    kept = search.chance_of(game, mover)
    game.pop()
    faces = []
    for face in range(1, 7):
        reply, _value = search.best(game, face)
        if reply is None:
            faces.append(search.chance_of(game, mover))
            continue
        game.push(reply)
        faces.append(search.chance_of(game, mover))
        game.pop()
    return first, _round(max(0.0, kept - sum(faces) / len(faces)))


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
        best, _ = search.best(game, game.roll_of(move)) if game.uses_die else search.best(game)
        better = cells = None
        loss = 0.0
        game.push(move)
        after = search.chance_of(game, first)
        if best is not None and best != ROLL and best != move:
            played = search.chance_of(game, mover)
            game.pop()
            game.push(best)
            chosen = search.chance_of(game, mover)
            game.pop()
            loss = _round(max(0.0, chosen - played))
            if mark_of(loss) is not None:
                better, cells = game.format_move(best), _cells(game, best)
            game.push(move)
        if game.uses_die and game.roll_of(move) is not None:
            game.pop()
            skipped = _rolled_instead(search, game, mover)  # the die rolled where a move without it was better
            game.push(move)
            if skipped is not None and skipped[1] > loss and mark_of(skipped[1]) is not None:
                game.pop()
                better, cells, loss = game.format_move(skipped[0]), _cells(game, skipped[0]), skipped[1]
                game.push(move)
        reviewed.append(ReviewedMove(ply, written, mover, _round(before), _round(after), loss,
                                     mark_of(loss), better, cells))
        before = after
    result = score(game, first)
    if result is None and end is not None:
        result = end
        if reviewed:
            last = reviewed[-1]
            reviewed[-1] = ReviewedMove(last.ply, last.move, last.mover, last.before, end, last.loss, last.mark,
                                        last.better, last.cells)
    start_point = _round(before if not reviewed else reviewed[0].before)
    return Review(start.name, first, nodes, start_point, tuple(reviewed), result)
