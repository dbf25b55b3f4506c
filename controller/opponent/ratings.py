"""Ratings on one scale: the computer's levels (measured by bench/ladder.py, kept in ladder.toml)
and a player's own, estimated from their results against the levels.

Elo: a player rated D points above another is expected to score 1 / (1 + 10^(-D/400)). The
scale is anchored at level 1 = 800 in every game (a beginner's rating; the levels above are
measured from it, step by step). A player's rating is the maximum-likelihood one given their
results, with a mild prior (a normal around 1200, spread 400) so that a few results, or all
won or all lost, still give a finite rating.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable
from functools import cache
from importlib import resources

ANCHOR = 800.0  # level 1's rating in every game
PRIOR, PRIOR_SPREAD = 1200.0, 400.0
_SLOPE = math.log(10) / 400


def elo_difference(score: float) -> float:
    """The rating difference a score (0..1, exclusive) against an opponent means: 400 log10(p / (1 - p))."""
    return 400 * math.log10(score / (1 - score))


def expected(rating: float, opponent: float) -> float:
    """The score `rating` expects against `opponent`."""
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


LEVEL_SETTINGS = ("nodes", "depth", "temperature", "natural")  # what ladder.toml keeps of each level


@cache
def ladder() -> dict:
    """ladder.toml: per game `ratings`, `low`, `high` (levels 1 to the game's strongest), `games`
    and `scores` per step (2 vs 1, 3 vs 2 ...), and each level's setting as measured (LEVEL_SETTINGS)."""
    text = resources.files(__package__).joinpath("ladder.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def level_ratings(game: str) -> list[tuple[int, float, float, float]]:
    """(level, rating, low, high) for levels 1 to the strongest of `game`: the rating and its 95 %
    interval (a ladder not measured to the top yet: the levels measured so far)."""
    table = ladder()[game]
    return [(n, rating, low, high) for n, rating, low, high
            in zip(range(1, len(table["ratings"]) + 1), table["ratings"], table["low"], table["high"])]


def player_rating(game: str, results: Iterable[tuple[int, float]]) -> tuple[float, float, float]:
    """A player's rating in `game` from their results against the computer: (level, score) per
    game, the score 1, 1/2 or 0. Returns (rating, low, high), the interval 95 %."""
    ratings = {n: rating for n, rating, _, _ in level_ratings(game)}
    return estimate([(ratings[n], score) for n, score in results])


def estimate(results: Iterable[tuple[float, float]]) -> tuple[float, float, float]:
    """The maximum-likelihood rating (with the prior) from (opponent's rating, score) pairs, and
    its 95 % interval from the likelihood's curvature."""
    results = list(results)
    rating = PRIOR
    for _ in range(50):  # Newton's method on the log-likelihood, which is concave
        slope = -(rating - PRIOR) / PRIOR_SPREAD ** 2
        curvature = 1 / PRIOR_SPREAD ** 2
        for opponent, score in results:
            e = expected(rating, opponent)
            slope += _SLOPE * (score - e)
            curvature += _SLOPE ** 2 * e * (1 - e)
        step = slope / curvature
        rating += max(-400.0, min(400.0, step))
        if abs(step) < 0.01:
            break
    spread = 1.96 / math.sqrt(curvature)
    return rating, rating - spread, rating + spread


def suggested_level(game: str, rating: float) -> int:
    """The level to play next: the weakest one rated above `rating` (the top one when none is)."""
    rows = level_ratings(game)
    for n, level_rating, _, _ in rows:
        if level_rating > rating:
            return n
    return rows[-1][0]
