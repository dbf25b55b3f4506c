"""For positions reached by random play: every legal move formats and parses back to the same
move, moves apply and undo to the same position, and the fast count equals the move list."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reedboard.controller.games import BigBalls, OffBoard
from reedboard.controller.games.bigballs_start import START_HOLLOWS

from conftest import seeds

pytestmark = pytest.mark.unit

CHECKS = settings(max_examples=seeds(25), deadline=None)


def shuffled_bigballs(rng: random.Random) -> BigBalls:
    setup = {}
    for colour, hollows in START_HOLLOWS.items():
        numbers = list(range(1, 7))
        rng.shuffle(numbers)
        setup[colour] = dict(zip(hollows, numbers))
    return BigBalls(**setup, first=rng.choice(["black", "white"]))


def play_and_check(game, rng: random.Random, plies: int, prefer_pushes: bool = False) -> int:
    """Play up to `plies` random moves, checking every legal move on the way; returns moves checked."""
    checked = 0
    for _ in range(plies):
        moves = game.legal_moves()
        assert game.count_legal_moves() == len(moves)
        assert len(set(moves)) == len(moves), "a move is listed twice"
        if not moves:
            assert game.outcome() is not None
            break
        before = game.diagram()
        for move in moves:
            text = str(move)
            assert game.parse_move(text) == move, text
            game.push(move)
            game.pop()
            assert game.diagram() == before, f"{text} did not undo cleanly"
            checked += 1
        pushes = [m for m in moves if getattr(m, "pushed", 0) or getattr(m, "is_replacement", False)]
        choice = rng.choice(pushes) if prefer_pushes and pushes and rng.random() < 0.7 else rng.choice(moves)
        game.push(choice)
    return checked


@CHECKS
@given(seed=st.integers(0, 2**32 - 1))
def test_bigballs_round_trip_by_random_play(seed):
    rng = random.Random(seed)
    game = shuffled_bigballs(rng)
    assert play_and_check(game, rng, plies=60) > 0
    while game.move_stack:  # and all the way back
        game.pop()
    assert game.diagram() == shuffled_bigballs(random.Random(seed)).diagram()


@CHECKS
@given(seed=st.integers(0, 2**32 - 1))
def test_offboard_round_trip_by_random_play(seed):
    rng = random.Random(seed)
    game = OffBoard()
    start = game.diagram()
    assert play_and_check(game, rng, plies=80, prefer_pushes=True) > 0
    while game.move_stack:
        game.pop()
    assert game.diagram() == start
