"""A search's value as a chance to win, for the player to move, and how that mapping is calibrated.

A search's value is a score, not a chance: alpha-beta's is the evaluation's, and expectimax's,
in a game with a die, is a mean over the faces of evaluations as much as of ends. It is mapped by
a logistic curve, p = 1 / (1 + exp(-(k v + c))), whose slope k and tempo c (what being the one to
move is worth beyond the value) are fitted to the results of the computer's ladder games
(bench/review_calibration.py writes them into chance.toml). A game not calibrated yet gets
k = 4, c = 0 (an even position 1/2, one marble or point ahead, v ~ 0.32, about 0.78), or in a
game with a die the mean result (1 + v) / 2. A value that proves a win or a loss (PROVEN) is
1 or 0.

How much a value says can depend on how far the game still has to go: in a race game with a
die, the evaluation's race of a full board, twelve stones with a long way to go, tells little of
who will win (the results of ladder games follow it with a slope of about 0.2), a race of three
stones tells much (about 8). A game's curve may then have a `phase`: the slope is `slope` when
`pieces` of the players' pieces are on the board (Game.pieces, a neutral big ball not counted),
and grows by the factor exp(phase) with every piece fewer.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cache
from importlib import resources

from ..games.base import Game

DEFAULT_SLOPE, DEFAULT_TEMPO = 4.0, 0.0
PROVEN = 0.95  # a value beyond it (past the evaluation's bounds, 0.9) comes from ended games: won or lost


@cache
def calibration() -> dict:
    """chance.toml: per game without a die its `slope` and `tempo`, and what they were fitted on."""
    import tomllib  # here: importing the review (for its defaults) reads no file

    try:
        text = resources.files(__package__).joinpath("chance.toml").read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    return tomllib.loads(text)


def curve(game_name: str, game: Game | None = None) -> tuple[float, float]:
    """(slope, tempo) of the game's logistic curve, in `game`'s position when the curve has a
    phase (without a position: the slope at the curve's reference count of pieces)."""
    entry = calibration().get(game_name, {})
    slope = entry.get("slope", DEFAULT_SLOPE)
    phase = entry.get("phase", 0.0)
    if phase and game is not None:
        slope *= math.exp(phase * (entry["pieces"] - pieces_in_play(game)))
    return slope, entry.get("tempo", DEFAULT_TEMPO)


def even_weight(game_name: str) -> float:
    """The weight of the even depth in the mean of a search's last two depths (review.settled_value):
    1/2 unless the game's calibration says otherwise. Where a search that ends on its own move
    overrates the player to move more than one that ends on the reply underrates them (the
    marble game of the 61 holes), the even depth weighs more (3/4 there): chosen so that the first player's chance neither swings nor zigzags
    from ply to ply on ladder games (bench/review_check.py measures it)."""
    return calibration().get(game_name, {}).get("even", 0.5)


def pieces_in_play(game: Game) -> int:
    """The players' pieces on the board (a neutral big ball is nobody's)."""
    return sum(1 for code in game.pieces().values() if code and code != "ball")


def chance(game: Game, value: float) -> float:
    """The chance to win of the player to move in `game`, from a search's value for them."""
    if abs(value) > PROVEN:  # a win or a loss proven by the search (on all but the rarest faces of a die)
        return 1.0 if value > 0 else 0.0
    if game.uses_die and game.name not in calibration():
        return min(1.0, max(0.0, (1.0 + value) / 2.0))
    slope, tempo = curve(game.name, game)
    return logistic(slope * value + tempo)


def logistic(x: float) -> float:
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def fit(samples: Iterable[tuple[float, float]], steps: int = 100, tempo: float | None = None) -> tuple[float, float]:
    """The (slope, tempo) that make the results most likely: `samples` are (value for the player
    to move, that player's result 1, 1/2 or 0). Logistic regression by Newton's method, each step
    halved until the likelihood grows, with a faint pull towards (DEFAULT_SLOPE, 0) so that
    one-sided samples still give a finite curve. `tempo` given: the slope alone is fitted, the
    tempo kept at that (0: the curve has no side to move, and does not swing from ply to ply)."""
    data = list(samples)
    if tempo is not None:
        return _fit_slope(data, tempo, steps), tempo
    pull = 1e-3  # the prior's weight: a thousandth of one position's

    def likelihood(k: float, c: float) -> float:
        total = -pull * ((k - DEFAULT_SLOPE) ** 2 + c * c) / 2
        for v, y in data:
            x = k * v + c  # log p = -log(1 + e^-x), log (1 - p) = -log(1 + e^x), computed without overflow
            total -= y * _softplus(-x) + (1 - y) * _softplus(x)
        return total

    k, c = DEFAULT_SLOPE, DEFAULT_TEMPO
    best = likelihood(k, c)
    for _ in range(steps):
        gk, gc = -pull * (k - DEFAULT_SLOPE), -pull * c
        hkk = hcc = pull
        hkc = 0.0
        for v, y in data:
            p = logistic(k * v + c)
            w = p * (1 - p)
            gk += (y - p) * v
            gc += y - p
            hkk += w * v * v
            hkc += w * v
            hcc += w
        det = hkk * hcc - hkc * hkc
        dk, dc = (hcc * gk - hkc * gc) / det, (hkk * gc - hkc * gk) / det
        scale = 1.0
        while scale > 1e-6 and (found := likelihood(k + scale * dk, c + scale * dc)) < best:
            scale /= 2
        if scale <= 1e-6 or found - best < 1e-12:
            break
        k, c, best = k + scale * dk, c + scale * dc, found
    return k, c


def _fit_slope(data: list[tuple[float, float]], tempo: float, steps: int) -> float:
    """The slope that makes the results most likely with the tempo fixed (Newton's method on a
    concave likelihood, with the same faint pull towards DEFAULT_SLOPE)."""
    pull, k = 1e-3, DEFAULT_SLOPE
    for _ in range(steps):
        gradient, curvature = -pull * (k - DEFAULT_SLOPE), pull
        for v, y in data:
            p = logistic(k * v + tempo)
            gradient += (y - p) * v
            curvature += p * (1 - p) * v * v
        step = max(-5.0, min(5.0, gradient / curvature))
        k += step
        if abs(step) < 1e-6:
            break
    return k


def _softplus(x: float) -> float:
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))
