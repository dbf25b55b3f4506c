"""The review's chance to win: the curve from a search's value, and its fit to results."""

from __future__ import annotations

import random

import pytest

from reedboard.controller.games import GAMES, game_class
from reedboard.controller.opponent.chance import DEFAULT_SLOPE, calibration, chance, curve, fit, logistic


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


def test_a_game_with_a_die_gives_its_mean_result_as_the_chance():
    game = next(cls() for cls in GAMES.values() if cls.uses_die)
    assert [chance(game, v) for v in (-1.0, 0.0, 0.5, 1.0)] == [0.0, 0.5, 0.75, 1.0]


@pytest.mark.parametrize("name", sorted(n for n, cls in GAMES.items() if not cls.uses_die))
def test_a_game_without_a_die_follows_its_calibrated_curve(name):
    game = game_class(name)()
    slope, tempo = curve(name)
    assert slope > 0, "a better value must mean a better chance"
    assert chance(game, 0.0) == pytest.approx(logistic(tempo))
    assert chance(game, 0.3) == pytest.approx(logistic(0.3 * slope + tempo))
    values = [chance(game, v / 10) for v in range(-10, 11)]
    assert values == sorted(values) and 0 < values[0] < values[-1] < 1


def test_the_calibration_names_only_games_without_a_die_and_what_it_was_fitted_on():
    for name, entry in calibration().items():
        assert name in GAMES and not GAMES[name].uses_die
        assert entry["slope"] > 0 and entry["positions"] >= 1000 and entry["games"] >= 20
    assert DEFAULT_SLOPE > 0
