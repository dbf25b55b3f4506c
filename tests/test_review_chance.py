"""The review's chance to win: the curve from a search's value, and its fit to results."""

from __future__ import annotations

import random

import pytest

from reedboard.controller.games import GAMES, BigBalls, game_class
from reedboard.controller.opponent.chance import DEFAULT_SLOPE, calibration, chance, curve, fit, logistic, pieces_in_play

pytestmark = pytest.mark.unit


def results_of(slope: float, tempo: float, n: int, seed: int) -> list[tuple[float, float]]:
    """Positions valued in [-1, 1] and results drawn from the curve (slope, tempo)."""
    rng = random.Random(seed)
    samples = []
    for _ in range(n):
        v = rng.uniform(-1, 1)
        samples.append((v, 1.0 if rng.random() < logistic(slope * v + tempo) else 0.0))
    return samples


@pytest.mark.parametrize("slope, tempo", [(2.5, 0.3), (6.0, -0.4), (1.0, 0.0)])
def test_the_fit_finds_the_curve_the_results_came_from(slope, tempo):
    k, c = fit(results_of(slope, tempo, 4000, seed=7))
    assert k == pytest.approx(slope, rel=0.15) and c == pytest.approx(tempo, abs=0.12)


def test_draws_count_as_half_a_point():
    """Results that are all halves, whatever the value, mean the value says nothing: a flat curve."""
    k, c = fit([(v / 10, 0.5) for v in range(-10, 11)])
    assert abs(k) < 0.05 and abs(c) < 0.05


def test_one_sided_results_still_give_a_finite_curve():
    k, c = fit([(0.5, 1.0)] * 50)
    assert k == k and c == c and abs(k) < 1e3 and abs(c) < 1e3


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_follows_its_calibrated_curve_without_a_side_to_move(name):
    """An even position is an even chance for either side: the curve has no tempo, so the first
    player's chance does not swing from ply to ply with the side to move."""
    game = game_class(name)()
    assert name in calibration()
    slope, tempo = curve(name, game)
    assert slope > 0, "a better value must mean a better chance"
    assert tempo == 0 and chance(game, 0.0) == pytest.approx(0.5)
    assert chance(game, 0.3) == pytest.approx(logistic(0.3 * slope)) == pytest.approx(1 - chance(game, -0.3))
    values = [chance(game, v / 10) for v in range(-9, 10)]  # the evaluation's range
    assert values == sorted(values) and 0 < values[0] < values[-1] < 1


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_proven_win_or_loss_is_certain(name):
    game = game_class(name)()
    assert chance(game, 0.999) == 1.0 and chance(game, -0.98) == 0.0


def test_the_fit_can_keep_the_tempo_at_nought():
    k, c = fit(results_of(3.0, 0.0, 4000, seed=3), tempo=0.0)
    assert c == 0.0 and k == pytest.approx(3.0, rel=0.15)


def test_the_calibration_says_what_it_was_fitted_on():
    for name, entry in calibration().items():
        assert name in GAMES
        assert entry["slope"] > 0 and entry["positions"] >= 1000 and entry["games"] >= 8
    assert DEFAULT_SLOPE > 0


def test_in_big_balls_a_value_says_more_the_fewer_stones_race():
    """With twelve stones a long way from a7 the race the evaluation sees decides little yet; with
    two stones left each side it is nearly the game: the same value is a surer chance then."""
    full = BigBalls()
    few = BigBalls(black={"a3": 2, "b3": 5}, white={"d3": 1, "e3": 4}, balls=["a7", "a6", "b6"])
    assert pieces_in_play(full) == 12 and pieces_in_play(few) == 4  # the big balls are nobody's
    assert 0.5 < chance(full, 0.3) < chance(few, 0.3) < 1
    assert chance(few, -0.3) < chance(full, -0.3) < 0.5
    assert chance(full, 0.3) < 0.6, "a full board's race is no sure thing"


def test_the_settled_value_weighs_the_even_depth_as_the_game_asks():
    """A search ending on its own move (an odd depth) sees that move's gain and not the reply; the
    settled value is the mean of the last two depths, the even one weighted as the game's
    calibration says (1/2 unless it says otherwise), and a proven end as it is."""
    from reedboard.controller.opponent.chance import even_weight
    from reedboard.controller.opponent.review import settled_value
    from reedboard.controller.opponent.search_parts import Result

    two, three = Result(None, 0.6, 2, 100, True, (0.2, 0.6)), Result(None, 0.3, 3, 100, True, (0.2, 0.6, 0.3))
    assert settled_value(two) == pytest.approx(0.4) and settled_value(three) == pytest.approx(0.45)
    assert settled_value(two, 0.75) == pytest.approx(0.5) and settled_value(three, 0.75) == pytest.approx(0.525)
    assert settled_value(Result(None, 0.99, 3, 100, True, (0.2, 0.6, 0.99)), 0.75) == 0.99
    assert all(0 < even_weight(name) < 1 for name in GAMES)
    assert even_weight("abalone") > 0.5, "Abalone's odd depths overrate the player to move more"
