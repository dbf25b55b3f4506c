"""Big Balls' start as the rules give it: where each colour's stones and the big balls stand,
and a shuffle of the numbers over the start hollows. The rules engine and its set-up guide both
build on it (data and a draw only, no game).
"""

from __future__ import annotations

import random

DEFAULT_SETUP = {
    "black": {"a1": 1, "b1": 2, "c1": 3, "a2": 4, "b2": 5, "a3": 6},
    "white": {"e1": 1, "f1": 2, "g1": 3, "e2": 4, "f2": 5, "e3": 6},
}
START_HOLLOWS = {colour: tuple(cells) for colour, cells in DEFAULT_SETUP.items()}
DEFAULT_BALLS = ("a7", "a6", "b6", "a5", "b5", "c5")


def shuffled_setup(rng: random.Random | None = None) -> dict[str, dict[str, int]]:
    """Each colour's numbers 1-6 shuffled over its start hollows, {colour: {hollow: number}}:
    the stones as they fall when players shuffle them."""
    rng = rng or random.SystemRandom()
    setup = {}
    for colour, hollows in START_HOLLOWS.items():
        numbers = list(range(1, 7))
        rng.shuffle(numbers)
        setup[colour] = dict(zip(hollows, numbers))
    return setup
