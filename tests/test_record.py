"""The game record in the rules' notation: header, one move a line, result with reason."""

import re
from importlib import resources

import pytest

from reedboard.controller.games import BigBalls, OffBoard, load_layout
from reedboard.controller.persist.notation import header_lines, record_lines, result_line

pytestmark = pytest.mark.unit

SHUFFLED = {"black": {"a1": 3, "b1": 6, "c1": 1, "a2": 5, "b2": 2, "a3": 4},
            "white": {"e1": 2, "f1": 4, "g1": 6, "e2": 1, "f2": 3, "e3": 5}}
# Black's stone 3 climbs from a4 through two big balls to the top.
TO_A7 = ["3 a4xa5", "2 g1-f2", "3 a5xa6", "2 f2-e3", "3 a6xa7"]
# From the default Off Board start: two pushes, then Red pushes a yellow ball into S3.
SCORING = ["B2-B3x1", "D6-D5x1", "B3-B4x1 S3+3"]


def club_board(tmp_path, red, yellow):
    """A board file like the default one with another start position."""
    text = resources.files("reedboard.controller.games").joinpath("data/offboard.toml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^red = .*$", f"red = {red!r}".replace("'", '"'), text)
    text = re.sub(r"(?m)^yellow = .*$", f"yellow = {yellow!r}".replace("'", '"'), text)
    path = tmp_path / "club.toml"
    path.write_text(text, encoding="utf-8")
    return path


def played(game, moves):
    for move in moves:
        game.play(move)
    return game


def test_a_finished_big_balls_game_from_a_custom_position():
    game = played(BigBalls(black={"a4": 3, "a1": 1}, white={"g1": 2}), TO_A7)
    assert record_lines(game) == [
        "game bigballs",
        "black a1=1 a4=3",  # the set-up before the first move, not where stone 3 ended
        "white g1=2",
        "first black",
        *TO_A7,
        "1-0 a7",
    ]


def test_the_header_shows_the_shuffled_set_up_and_the_first_player():
    game = played(BigBalls(**SHUFFLED, first="white"), ["1 e2-d3", "BB a5-a4"])
    assert record_lines(game) == [
        "game bigballs",
        "black a1=3 b1=6 c1=1 a2=5 b2=2 a3=4",
        "white e1=2 f1=4 g1=6 e2=1 f2=3 e3=5",
        "first white",
        "1 e2-d3",
        "BB a5-a4",
    ]


def test_a_game_still_going_has_no_result_line():
    game = played(BigBalls(), ["BB a5-a4"])
    assert record_lines(game)[-1] == "BB a5-a4" and result_line(game) is None


def test_making_the_record_leaves_the_game_alone():
    game = played(BigBalls(black={"a4": 3, "a1": 1}, white={"g1": 2}), TO_A7[:3])
    before = (game.diagram(), list(game.move_stack))
    record_lines(game)
    assert (game.diagram(), list(game.move_stack)) == before


@pytest.mark.parametrize(
    "end, line",
    [(lambda g: g.resign("black"), "0-1 resign"), (lambda g: g.resign("white"), "1-0 resign"),
     (lambda g: g.agree_draw(), "1/2-1/2 agreed")],
)
def test_resignation_and_agreed_draw_end_a_big_balls_record(end, line):
    game = played(BigBalls(), ["BB a5-a4"])
    end(game)
    assert record_lines(game)[-2:] == ["BB a5-a4", line]


def test_big_balls_draw_when_only_balls_are_left():
    game = played(BigBalls(black={"b4": 1}, white={"c4": 1}), ["BB b5xb4", "BB c5xc4"])
    assert record_lines(game)[-1] == "1/2-1/2 balls-only"


def test_an_off_board_record_ends_with_the_score():
    game = played(OffBoard(), SCORING)
    game.resign("yellow")
    assert record_lines(game) == ["game offboard", "board default", *SCORING, "1-0 resign 3-0"]


def test_an_off_board_game_won_on_points_names_its_board_file(tmp_path):
    board = club_board(tmp_path, ["B3", "B2", "A3", "A4"], ["B1", "A5", "I9"])
    game = played(OffBoard(load_layout(board)), ["B3-B2x1", "I9-I8", "A3-A4x1"])
    assert record_lines(game) == [
        "game offboard", f"board {board}", "B3-B2x1 S12+3", "I9-I8", "A3-A4x1 S3+3", "1-0 points 6-0",
    ]


def test_off_board_agreed_draw_and_score_order_red_yellow():
    game = played(OffBoard(), SCORING[:2])
    game.agree_draw()
    assert result_line(game) == "1/2-1/2 agreed 0-0"
    game = OffBoard(yellow=["B1", "I9"], red=["B3", "B2"], turn="red", sectors={"S3": "red"})
    game.resign("red")
    assert result_line(game) == "0-1 resign 0-3"  # Yellow holds 3 points: red first, then yellow


def test_header_of_other_objects_is_refused():
    with pytest.raises(TypeError):
        header_lines(object())
