"""The games' Zobrist keys (position_key): kept up to date by push and pop, equal for equal
positions however they were reached, different for different ones, and carried by copies and
pickles (a worker process receives a pickled game)."""

from __future__ import annotations

import pickle
import random

import pytest

from reedboard.controller.games import GAMES, BigBalls

from random_play import played_at_random

pytestmark = pytest.mark.unit

GAME_NAMES = sorted(GAMES)


def state(game) -> tuple:
    """Everything that tells two positions of `game` apart, read without the key."""
    if game.name == "bigballs":
        return (game._turn, tuple(game._board))
    if game.name == "offboard":
        return (game._turn, game._waiting, tuple(game._board), tuple(game._holder), tuple(game._dropped))
    return (game._turn, game._bits[0], game._bits[1], game._off[0], game._off[1])


def random_game(name: str, rng: random.Random, plies: int):
    """A game of `plies` random moves (fewer when it ends), pushing every move."""
    return played_at_random(GAMES[name].drawn_start(rng), rng, plies)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_key_kept_by_push_and_pop_is_the_key_computed_afresh(name):
    rng = random.Random(f"keys {name}")
    checked = 0
    for _ in range(12):
        game = GAMES[name].drawn_start(rng)
        keys = [game.position_key()]
        for _ in range(rng.randrange(40, 120)):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
            assert game.position_key() == game._zobrist(), game.diagram()
            keys.append(game.position_key())
        while game.move_stack:  # taking every move back walks the same keys backwards
            keys.pop()
            game.pop()
            assert game.position_key() == keys[-1] == game._zobrist()
            checked += 1
    assert checked > 400


@pytest.mark.parametrize("name", GAME_NAMES)
def test_equal_positions_have_equal_keys_and_different_ones_different_keys(name):
    """Random games from one start: a move of one player, one of the other, then another of
    the first, against the same three in the other order (the first player's two swapped)."""
    rng = random.Random(f"transpositions {name}")
    seen: dict[int, tuple] = {}
    transposed = 0
    for _ in range(60):
        game = random_game(name, rng, rng.randrange(0, 30))
        if game.outcome() is not None:
            continue
        for first in rng.sample(game.legal_moves(), min(4, len(game.legal_moves()))):
            game.push(first)
            replies = game.legal_moves()
            if not replies:
                game.pop()
                continue
            reply = rng.choice(replies)
            game.push(reply)
            for second in game.legal_moves()[:12]:
                game.push(second)
                key, reached = game.position_key(), state(game)
                assert seen.setdefault(key, reached) == reached  # no two positions share a key
                game.pop()
                other = game.copy()
                for _ in range(2):
                    other.pop()
                if second in other.legal_moves():
                    other.push(second)
                    if reply in other.legal_moves():
                        other.push(reply)
                        if first in other.legal_moves():
                            other.push(first)
                            if state(other) == reached:
                                assert other.position_key() == key
                                transposed += 1
            game.pop()
            game.pop()
    assert transposed > 50
    assert len(seen) > 500


def test_a_set_up_position_has_the_key_of_the_same_position_reached_in_play():
    game = BigBalls()
    for text in ("BB b5-b4", "BB c5-c4"):
        game.play(text)
    placed = BigBalls(black=game.stones("black"), white=game.stones("white"), balls=game.balls(), first="black")
    assert placed.position_key() == game.position_key()
    assert BigBalls(first="white").position_key() != BigBalls().position_key()  # the player to move counts


@pytest.mark.parametrize("name", GAME_NAMES)
def test_copies_and_pickles_keep_the_key_and_keep_it_up_to_date(name):
    game = random_game(name, random.Random(f"pickle {name}"), 20)
    for twin in (game.copy(), pickle.loads(pickle.dumps(game))):
        assert twin.position_key() == game.position_key()
        for move in twin.legal_moves()[:5]:
            twin.push(move)
            game.push(move)
            assert twin.position_key() == game.position_key() == twin._zobrist()
            twin.pop()
            game.pop()
        assert state(twin) == state(game)


def test_off_board_keys_follow_balls_pushed_off_into_full_sectors_waiting_and_dropped():
    """Most sectors taken and pushes preferred: balls wait to be put back, are put back or
    dropped, and scores change; the key follows each of them."""
    from reedboard.controller.games import OffBoard

    rng = random.Random("off board waiting")
    seen = {"waiting": 0, "replaced": 0, "dropped": 0, "scored": 0}
    for _ in range(30):
        game = OffBoard(sectors={"S1": "red", "S4": "yellow", "S7": "red", "S10": "yellow", "S2": "yellow",  # 4-4
                                 "S5": "red"})
        for _ in range(150):
            moves = game.legal_moves()
            if not moves:
                break
            if game.waiting:  # put it back or drop it, as often
                put_back = rng.random() < 0.5
                moves = [m for m in moves if (m.tail is None) == put_back] or moves
            forcing = [m for m in moves if m.pushed]
            move = rng.choice(forcing if forcing and rng.random() < 0.8 else moves)
            game.push(move)
            seen["waiting"] += move.full
            seen["replaced"] += move.tail is None
            seen["dropped"] += move.drops_waiting
            seen["scored"] += move.points > 0
            assert game.position_key() == game._zobrist(), game.diagram()
        while game.move_stack:
            game.pop()
            assert game.position_key() == game._zobrist()
    assert min(seen.values()) >= 10, seen
