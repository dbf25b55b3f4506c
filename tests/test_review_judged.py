"""The review judged by the rules: no repetition draw (none of the games has one), every move
weighed (a big ball's move against the roll too, and after a roll only what that face allows
suggested, unless rolling was the mistake), a move that hands the opponent the end at once told
however decided the game was, and the hint showing what the review would not mark."""

from __future__ import annotations

import asyncio
import random

import pytest

from reedboard.controller.core.computer import Question
from reedboard.controller.games import BigBalls, game_class
from reedboard.controller.games.abalone import Abalone
from reedboard.controller.opponent import ROLL, choose, level
from reedboard.controller.opponent.review import Searcher, review
from reedboard.controller.opponent.worker import Thinker

from archive_games import A7_GAME, bigballs

pytestmark = pytest.mark.component

NODES = 600


def back_and_forth(game) -> list[str]:
    """Four moves after which `game`'s position is met again: each player steps a marble out and back."""
    start = game.position_key()
    for first in game.legal_moves():
        game.push(first)
        for reply in game.legal_moves():
            game.push(reply)
            for back in game.legal_moves():
                game.push(back)
                for again in game.legal_moves():
                    game.push(again)
                    if game.position_key() == start:
                        moves = list(game.move_stack[-4:])
                        for _ in range(4):
                            game.pop()
                        replay, written = game.copy(), []
                        for move in moves:
                            written.append(replay.format_move(move))
                            replay.push(move)
                        return written
                    game.pop()
                game.pop()
            game.pop()
        game.pop()
    raise AssertionError("no way back")


def test_a_position_met_before_in_the_game_is_worth_what_it_is_worth_not_a_draw():
    """Both players step out and back: the start is met again, then the position after the first
    move. Searched with that history or without it, a position gets the same move and value:
    nothing scores it as a draw for having been seen."""
    game = Abalone()
    moves = back_and_forth(game)
    for text in moves + moves[:1]:
        game.play(text)
    fresh = Abalone()
    fresh.play(moves[0])
    assert Searcher(NODES, None).best(game) == Searcher(NODES, None).best(fresh)


def test_stepping_back_into_an_earlier_position_is_judged_as_the_first_time():
    """The same four moves twice over the same positions: the second time, each is reviewed as it
    was the first (its chance, its loss, its mark), not as a step into a draw."""
    moves = back_and_forth(Abalone())
    points = review(Abalone(), moves * 2, NODES).data()["points"]
    for once, again in zip(points[1:5], points[5:9]):
        assert {**again, "ply": once["ply"]} == once


def test_a_big_ball_move_where_rolling_wins_is_a_blunder_and_rolling_the_better_choice():
    """Black's only stone stands on a6 under the big ball on a7: any face moves it, and a6xa7 wins. A
    big ball's move instead lets White take it with that ball; the review weighs it against the roll."""
    start = BigBalls(black={"a6": 3}, white={"e1": 1, "f1": 2}, balls=["a7", "c5"], first="black")
    ball = next(m for m in start.turn_moves(None) if start.format_move(m).startswith("BB c5"))
    data = review(start, [start.format_move(ball)], NODES).data()
    point = data["points"][1]
    assert point["mark"] == "blunder" and point["better"] == ROLL and point["loss"] >= 0.2
    assert point["cells"] == {"from": [], "to": []} and point["rolled"] is False


def test_where_rolling_was_the_mistake_the_review_says_so():
    """White's only stone waits on a6 and wins with any face next turn; the big ball on a7 above it
    takes it. Black rolls a 1 instead and steps: the roll was the mistake, and the better choice
    named is the big ball's move (a move the face allows is never suggested as one)."""
    start = BigBalls(black={"c1": 1, "d1": 2}, white={"a6": 1}, balls=["a7"], first="black")
    data = review(start, ["1 c1-c2"], NODES).data()
    point = data["points"][1]
    assert point["mark"] == "blunder" and point["rolled"] is True and point["better"] == "BB a7xa6"


def test_after_a_roll_only_a_move_of_that_face_is_suggested_unless_the_roll_was_the_mistake():
    for seed in range(3):
        start = BigBalls.drawn_start(random.Random(seed))
        game, moves = start.copy(), []
        rng = random.Random(seed)
        while game.outcome() is None and len(moves) < 40:
            options = game.turn_moves(None) + ([ROLL] * 3 if game.can_roll() else [])
            choice = rng.choice(options)
            if choice == ROLL:
                choice = rng.choice(game.turn_moves(rng.randint(1, 6)))
            moves.append(game.format_move(choice))
            game.push(choice)
        reviewed = review(start, moves, 300)
        replay = start.copy()
        for point, text in zip(reviewed.moves, moves):
            played = replay.parse_move(text)
            assert point.compared, text  # every move weighed
            if point.mark is not None and point.better != ROLL:
                better = replay.parse_move(point.better)
                if point.rolled:
                    assert replay.roll_of(played) is not None and replay.roll_of(better) is None
                elif replay.roll_of(played) is not None:
                    assert better in replay.turn_moves(replay.roll_of(played)), (text, point.better)
            replay.push(played)


def test_a_move_that_hands_over_the_last_push_is_told_in_a_decided_game():
    """Black has pushed off five of White's marbles and lines C3-B2 up against White's A1: White is
    lost whatever it does, but a far move lets the sixth push come at once; stepping A1 aside does not."""
    start = Abalone(None, black=["C3", "B2"], white=["A1", "I9", "I8", "H8"], turn="white",
                    pushed_off={"black": 5})
    far = next(m for m in start.legal_moves() if "A1" not in start.format_move(m))
    data = review(start, [start.format_move(far)], NODES).data()
    point = data["points"][1]
    assert point["mark"] == "blunder" and point["better"] is not None
    assert "A1" in point["better"] and data["points"][0]["p"] < 0.1  # White (first here) was lost anyway
    safe = review(start, [point["better"]], NODES).data()["points"][1]
    assert safe["mark"] is None


@pytest.mark.parametrize("name, moves, roll", [("abalone", ["A1B2", "I5H5", "A2B3"], None),
                                               ("offboard", [], None),
                                               ("bigballs", A7_GAME[:6], 4)])
def test_the_hint_is_the_move_the_review_would_have_chosen(name, moves, roll):
    game = bigballs() if name == "bigballs" else game_class(name)()
    for text in moves:
        game.play(text)
    thinker = Thinker(processes=False)
    try:
        hint = asyncio.run(thinker.decide(Question("k", game.copy(), roll, 1, hint=True)))
    finally:
        thinker.close()
    search = Searcher(4000, None)
    assert hint == search.best(game, roll)[0]
    if hint != ROLL:
        start = bigballs() if name == "bigballs" else game_class(name)()
        point = review(start, moves + [game.format_move(hint)], 4000).moves[-1]
        assert point.loss == 0.0 and point.mark is None


def test_level_one_never_takes_its_own_stone_for_nothing_on_its_first_move():
    for seed in range(40):
        game = BigBalls.drawn_start(random.Random(seed))
        limits = level(1).limits("bigballs")
        first = choose(game, limits, rng=random.Random(seed)).move
        assert not game.absurd(first), game.format_move(first)
        for face in range(1, 7):
            assert not game.absurd(choose(game, limits, roll=face, rng=random.Random(seed)).move)


def test_every_level_is_in_the_dialog_with_its_rating(tmp_path):
    """The page is told each game's levels (1 to its strongest, which the dialog names the
    strongest) and each level's rating, the top ones too."""
    from starlette.testclient import TestClient

    from reedboard.controller.core.reconcile import Settings
    from reedboard.controller.games import GAMES
    from reedboard.controller.session.play_session import PlaySession
    from reedboard.controller.web import create_app

    session = PlaySession(BigBalls(), games_dir=tmp_path / "live", settings=Settings(settle=0.05))
    with TestClient(create_app(session, games_dir=tmp_path / "games"), base_url="http://127.0.0.1") as client:
        catalog = client.get("/api/catalog").json()
    assert sorted(entry["name"] for entry in catalog) == sorted(GAMES)
    for entry in catalog:
        strongest = len(GAMES[entry["name"]].computer_levels)
        assert entry["top_level"] == strongest, entry["name"]
        rows = entry["levels"]
        assert [row["level"] for row in rows] == list(range(1, strongest + 1)), entry["name"]  # the top ones rated too
        assert all(row["low"] <= row["rating"] <= row["high"] for row in rows)


def test_a_position_with_a_single_choice_is_valued_not_called_even():
    """With its one big ball in the bottom row (a ball there never moves) a Big Balls player can
    only roll: the review still weighs the position (the player to move is a turn ahead in the
    race to a7), rather than calling it an even game."""
    game = BigBalls(balls=["d1"])
    assert game.turn_moves(None) == [] and game.can_roll()
    search = Searcher(NODES, None)
    chance = search.chance_of(game, game.turn)
    assert chance != 0.5 and 0.0 < chance < 1.0
    game.push(game.parse_move(next(game.format_move(m) for m in game.turn_moves(6))))
    assert search.chance_of(game, game.turn) != 0.5
