"""The computer's ladder: levels decided by nodes, never by the clock; the softmax at the root;
Big Balls' absurd self-capture kept off above level 1; Elo from scores and a player's rating;
the measured table in ladder.toml."""

from __future__ import annotations

import dataclasses
import importlib.util
import random
from pathlib import Path

import pytest

from reedboard.controller.games import GAMES, top_level
from reedboard.controller.games.abalone import Abalone
from reedboard.controller.games.bigballs import BigBalls, BigBallsMove
from reedboard.controller.opponent import LEVELS, ROLL, choose, level
from reedboard.controller.opponent.alphabeta import AlphaBeta
from reedboard.controller.opponent.match import wilson
from reedboard.controller.opponent.ratings import (
    LEVEL_SETTINGS, elo_difference, estimate, expected, ladder, level_ratings, player_rating, suggested_level,
)
from reedboard.controller.opponent.worker import Thinker

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.component


def played(name: str, plies: int, seed: int):
    """A position of `name` after `plies` random moves."""
    rng = random.Random(seed)
    game = GAMES[name].drawn_start(rng)
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            break
        game.push(rng.choice(moves))
    return game


# --- the nodes decide, never the clock ------------------------------------------------------
@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("number", [1, 4, 7])
def test_the_same_level_position_and_seed_give_the_same_move_whatever_the_clock(name, number):
    game = played(name, 6, number)
    roll = 4 if game.uses_die else None
    limits = level(number).limits(name)
    ticks = iter(range(0, 10**9, 1000))  # a clock racing ahead: a thousand seconds a look
    slow = choose(game, limits, roll=roll, rng=random.Random(3))
    fast = choose(game, limits, roll=roll, rng=random.Random(3), clock=lambda: next(ticks))
    assert (fast.move, fast.nodes) == (slow.move, slow.nodes)
    assert limits.seconds is None and limits.nodes == LEVELS[number].setting(name).nodes


def test_time_is_only_a_safety_cap_at_the_table():
    limits = Thinker(processes=False).limits(8, "abalone")
    assert limits.nodes == LEVELS[8].setting("abalone").nodes and 1 <= limits.seconds <= 10
    assert Thinker(seconds=0.5, processes=False).limits(3, "bigballs").seconds == 0.5


# --- Big Balls: the absurd self-capture ----------------------------------------------------
def trap() -> BigBalls:
    """Black to move: stone 3 on c1 between its own 1 (b1) and 2 (d1); a big ball on b5 above its
    own stone 4 (b4) and White's 5 (c4)."""
    return BigBalls(black={"b1": 1, "c1": 3, "d1": 2, "b4": 4}, white={"e1": 1, "f1": 2, "c4": 5},
                    balls=["b5", "a7"])


def test_a_capture_of_ones_own_stone_for_nothing_is_absurd():
    game = trap()
    absurd = {str(m) for m in game.turn_moves(3) + game.turn_moves(None) if game.absurd(m)}
    assert absurd == {"3 c1xb1", "3 c1xd1", "BB b5xb4"}  # sideways onto its own, a ball onto its own
    assert not game.absurd(ROLL) and not game.absurd(BigBallsMove(None, "b5", "c4", True))  # White's stone
    upward = BigBalls(black={"c1": 3, "c2": 2}, white={"e1": 1}, balls=["a7"])
    assert "3 c1xc2" in {str(m) for m in upward.turn_moves(3)}
    assert not upward.absurd(BigBallsMove(3, "c1", "c2", True))  # a row nearer a7: not for nothing
    assert not any(Abalone().absurd(m) for m in Abalone().legal_moves())  # other games: none


@pytest.mark.parametrize("number", range(1, 9))
def test_no_level_takes_its_own_stone_for_nothing(number):
    game = trap()
    limits = level(number).limits("bigballs")
    for seed in range(4):
        assert not game.absurd(choose(game, limits, roll=3, rng=random.Random(seed)).move)
        assert not game.absurd(choose(game, limits, rng=random.Random(seed)).move)


# --- the softmax at the root -----------------------------------------------------------------
def drawn_counts(number: int, draws: int = 300) -> dict[str, int]:
    values = {"best": 0.10, "second": 0.05, "worst": -0.10}  # plain words: no push, no capture
    counts = dict.fromkeys(values, 0)
    search = AlphaBeta(Abalone(), level(number).limits("abalone"), rng=random.Random(number))
    for _ in range(draws):
        counts[search.drawn(values)[0]] += 1
    return counts


def test_the_softmax_prefers_better_moves_and_more_so_at_higher_levels():
    shares = []
    warm = [n for n in sorted(LEVELS) if level(n).setting("abalone").temperature > 0]  # the levels that draw
    assert len(warm) >= 3
    for number in warm:
        counts = drawn_counts(number)
        assert counts["best"] >= counts["second"] >= counts["worst"]
        shares.append(counts["best"])
    assert shares[0] < shares[2] < shares[-1] and shares[-1] > 280
    assert drawn_counts(1)["best"] > 100  # the best move most often even at level 1


def test_a_weak_level_picks_the_best_move_most_often_in_a_real_position():
    # Black's stone 3 on b6, the die shows 3: onto a7 wins, or sideways to a6
    game = BigBalls(black={"b6": 3, "c1": 1}, white={"e1": 1, "f2": 4}, balls=["c5"])
    wins = BigBallsMove(3, "b6", "a7", False)
    assert wins in game.turn_moves(3)
    counts = {n: sum(choose(game, level(n).limits("bigballs"), roll=3, rng=random.Random(seed)).move == wins
                     for seed in range(30)) for n in (1, 4)}
    assert 15 < counts[1] <= counts[4] == 30


# --- ratings -------------------------------------------------------------------------------------
def test_elo_from_scores():
    assert elo_difference(0.5) == 0
    assert elo_difference(0.76) == pytest.approx(200, abs=2)
    assert elo_difference(0.24) == pytest.approx(-200, abs=2)
    assert expected(1400, 1200) == pytest.approx(0.76, abs=0.01)


def test_a_players_rating_from_made_up_results():
    even, low, high = estimate([(1200, 1), (1200, 0)] * 10)
    assert even == pytest.approx(1200, abs=1) and low < 1100 < 1300 < high
    strong = estimate([(1000, 1)] * 8 + [(1400, 0.5)] * 8)[0]
    assert 1300 < strong < 1500
    all_won = estimate([(900, 1)] * 3)
    assert 900 < all_won[0] < 2000 and all_won[1] < all_won[0] < all_won[2]  # finite: the prior
    few = estimate([(1000, 1)])
    many = estimate([(1000, 1), (1000, 0)] * 30)
    assert few[2] - few[1] > many[2] - many[1]


def test_a_player_against_the_levels_and_the_level_to_play_next():
    table = level_ratings("bigballs")
    beats_three = player_rating("bigballs", [(3, 1), (3, 1), (3, 0.5), (4, 0), (4, 1), (2, 1)])
    assert table[1][1] < beats_three[0]
    suggested = suggested_level("bigballs", beats_three[0])
    assert table[suggested - 1][1] > beats_three[0] or suggested == len(table)
    assert suggested_level("bigballs", 0) == 1 and suggested_level("bigballs", 10_000) == len(level_ratings("bigballs"))


def test_the_ladder_table_has_increasing_ratings():
    rows = level_ratings("bigballs")  # Big Balls: measured to the top
    assert [n for n, *_ in rows] == list(range(1, top_level("bigballs") + 1))
    ratings = [rating for _, rating, _, _ in rows[:8]]  # levels 1-8: every step won by the upper level
    assert ratings == sorted(ratings) and len(set(ratings)) == 8
    table = ladder()["bigballs"]
    for points, games in zip(table["scores"], table["games"]):  # and no upper level measurably weaker
        assert wilson(points, games)[1] > 0.5
    for name in sorted(set(GAMES) & set(ladder())):  # a game measured so far: its levels from 1 on, at 800
        rows = level_ratings(name)
        assert [n for n, *_ in rows] == list(range(1, len(rows) + 1)) and rows[0][1] == 800
        assert all(low <= rating <= high for _, rating, low, high in rows)
        shown = [rating for _, rating, _, _ in rows]  # what the dialog shows: never a higher level rated lower
        assert shown == sorted(shown), name


def test_a_step_lost_by_the_die_rates_the_two_levels_alike():
    """A level searches what the one below searches and more: a step it scores under half in (the
    die's luck over a few dozen games) rates the two alike, at their mean, not the higher one lower."""
    ladder_bench = bench_ladder()
    rating, low, high = ladder_bench.ratings([(70, 100), (60, 100), (45, 100)])
    assert rating[0] == 800 and rating[1] < rating[2] == rating[3] and low[3] < low[2]
    assert rating[2] == pytest.approx((800 + 147.2 + 70.4 + 800 + 147.2 + 70.4 - 34.8) / 2, abs=1)
    assert ladder_bench.ordered([1, 3, 2, 5, 4, 4]) == [1, 2.5, 2.5, 13 / 3, 13 / 3, 13 / 3]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_table_was_measured_with_the_levels_as_they_are(name):
    """A game's table in ladder.toml holds for today's budgets and temperatures, or the game has none
    (a level changed since: run bench/ladder.py again, or drop the game's table)."""
    table = ladder().get(name)
    if table is None:
        return
    for key in LEVEL_SETTINGS:
        assert table[key] == pytest.approx([getattr(LEVELS[n].setting(name), key) for n in range(1, top_level(name) + 1)]), key
    steps = len(table["games"])
    assert len(table["scores"]) == steps and 1 <= steps <= top_level(name) - 1
    assert len(table["ratings"]) == len(table["low"]) == len(table["high"]) == steps + 1
    assert all(0 <= points <= games for points, games in zip(table["scores"], table["games"]))


def test_a_ladder_run_from_a_higher_step_keeps_the_steps_below_only_while_their_levels_stand(monkeypatch):
    bench = bench_ladder()
    table = ladder()["bigballs"]
    steps = dict(zip(range(2, top_level("bigballs") + 1), zip(table["scores"], table["games"])))
    assert bench.kept("bigballs", 5) == {k: steps[k] for k in (2, 3, 4)}
    assert bench.kept("bigballs", 5, 5) == {k: steps[k] for k in steps if k != 5}  # one step measured
    warmer = dataclasses.replace(LEVELS[7].setting("bigballs"), temperature=0.5)
    monkeypatch.setitem(bench.LEVELS, 7, type(LEVELS[7])(7, dict(LEVELS[7].settings, bigballs=warmer)))
    assert bench.kept("bigballs", 5, 5) == {k: steps[k] for k in (2, 3, 4, 6)}  # 7 changed: 7 and 8 measured again
    deeper = dataclasses.replace(LEVELS[2].setting("bigballs"), depth=5)
    monkeypatch.setitem(bench.LEVELS, 2, type(LEVELS[2])(2, dict(LEVELS[2].settings, bigballs=deeper)))
    with pytest.raises(SystemExit, match="changed"):
        bench.kept("bigballs", 5)


def test_a_ladder_step_plays_only_the_games_it_has_not_played(monkeypatch, tmp_path):
    """Game i of a step is the same game in every run: a step given more games, or a run cut
    short and started again, plays only the games missing from ladder_games.csv, and scores as
    a run that played them all."""
    import argparse
    bench = bench_ladder()
    played: list[tuple[int, int]] = []
    real_match = bench.run_match

    def counted(*args, first=0, **kwargs):
        played.append((first, args[2]))
        return real_match(*args, first=first, **kwargs)

    monkeypatch.setattr(bench, "run_match", counted)
    args = argparse.Namespace(games=4, seed=1, jobs=1, max_moves=300, opening=4)
    monkeypatch.setattr(bench, "GAMES_FILE", tmp_path / "all.csv")
    everything = bench.step("bigballs", 2, argparse.Namespace(**{**vars(args), "games": 7}))
    monkeypatch.setattr(bench, "GAMES_FILE", tmp_path / "ladder_games.csv")
    played.clear()
    assert bench.step("bigballs", 2, args)[1] == 4 and played == [(0, 4)]
    lines = bench.GAMES_FILE.read_text().splitlines()
    assert lines[0].split(",") == list(bench.GAMES_COLUMNS) and len(lines) == 5
    bench.GAMES_FILE.write_text("\n".join(lines[:3] + lines[4:]) + "\n")  # game 3 lost from the file
    played.clear()
    assert bench.step("bigballs", 2, argparse.Namespace(**{**vars(args), "games": 7})) == everything
    assert played == [(2, 1), (4, 3)]  # the lost game and the three more, nothing else
    played.clear()
    assert bench.step("bigballs", 2, argparse.Namespace(**{**vars(args), "games": 7})) == everything and played == []
    other_seed = argparse.Namespace(**{**vars(args), "seed": 2})  # another match: its games are its own
    bench.step("bigballs", 2, other_seed)
    assert played == [(0, 4)]


def bench_ladder():
    """bench/ladder.py as a module (the bench is no package)."""
    spec = importlib.util.spec_from_file_location("bench_ladder", ROOT / "bench" / "ladder.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_and_the_players_guide_show_the_ladder_as_measured():
    """The ratings a player reads are ladder.toml's (bench/ladder.py --docs prints the tables)."""
    bench = bench_ladder()
    assert bench.docs_table(steps=False) in (ROOT / "README.md").read_text(encoding="utf-8")
    assert bench.docs_table(steps=True) in (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
