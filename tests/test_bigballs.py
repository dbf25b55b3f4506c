"""Big Balls: every rule and edge of the rules, each test able to fail."""

import pytest

from reedboard.controller.games import BigBalls, MoveError, SetupError, Termination, perft
from reedboard.controller.games.bigballs import BALLS_ONLY, GRID, REACHED_A7, parse_setup

pytestmark = pytest.mark.unit

NO_BALLS: list[str] = []


def game(black=None, white=None, balls=None, first="black"):
    return BigBalls(black=black or {}, white=white or {}, balls=NO_BALLS if balls is None else balls, first=first)


def moves(g, roll=None):
    found = g.stone_moves(roll) if roll else g.legal_moves()
    return sorted(str(m) for m in found)


# --- the board ------------------------------------------------------------------------
def test_board_has_28_hollows_in_seven_rows():
    assert len(GRID) == 28
    assert [sum(1 for _, r in GRID.coords if r == row) for row in range(1, 8)] == [7, 6, 5, 4, 3, 2, 1]


@pytest.mark.parametrize(
    "direction, expected", [("ne", "b3"), ("e", "c2"), ("se", "c1"), ("sw", "b1"), ("w", "a2"), ("nw", "a3")]
)
def test_neighbours_of_b2_follow_the_rules_table(direction, expected):
    b2 = GRID.index("b2")
    assert GRID.names[GRID.neighbour(b2, GRID.direction(direction))] == expected


def test_a7_has_only_two_neighbours_and_no_way_up():
    a7 = GRID.index("a7")
    present = [d for d in GRID.directions if GRID.neighbour(a7, GRID.direction(d)) is not None]
    assert present == ["se", "sw"]


# --- set-up ---------------------------------------------------------------------------
def test_default_setup_places_18_pieces():
    g = BigBalls()
    assert len(g.occupied()) == 18
    assert g.piece_at("b2") == ("black", 5) and g.piece_at("e3") == ("white", 6) and g.piece_at("a7") == "ball"
    assert g.turn == "black"


def test_any_arrangement_of_the_numbers_is_accepted():
    setup = parse_setup("black=a1:3,b1:6,c1:1,a2:5,b2:2,a3:4 white=e1:2,f1:4,g1:6,e2:1,f2:3,e3:5")
    g = BigBalls(**setup)
    assert g.piece_at("a1") == ("black", 3) and g.piece_at("g1") == ("white", 6)
    assert g.setup_lines() == ["black a1=3 b1=6 c1=1 a2=5 b2=2 a3=4", "white e1=2 f1=4 g1=6 e2=1 f2=3 e3=5"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"black": {"z9": 1}}, "no hollow"),
        ({"black": {"a1": 7}}, "not 1-6"),
        ({"black": {"a1": 1, "b1": 1}}, "placed twice"),
        ({"black": {"a1": 1}, "white": {"a1": 2}}, "given twice"),
        ({"balls": ["a1"], "black": {"a1": 1}}, "given twice"),
        ({"first": "red"}, "black or white"),
    ],
)
def test_bad_setups_are_named(kwargs, message):
    with pytest.raises(SetupError, match=message):
        BigBalls(**kwargs)


@pytest.mark.parametrize("text", ["black", "green=a1:1", "black=a1", "black=a1:x", "black=a1:1,a1:2", "black= black=a1:1"])
def test_bad_setup_text_is_named(text):
    with pytest.raises(SetupError):
        parse_setup(text)


def test_setup_text_keeps_the_default_for_a_colour_left_out():
    setup = parse_setup("white=e1:6,f1:5,g1:4,e2:3,f2:2,e3:1")
    assert setup["black"] == {"a1": 1, "b1": 2, "c1": 3, "a2": 4, "b2": 5, "a3": 6}
    assert setup["white"]["e1"] == 6


# --- the die ----------------------------------------------------------------------------
def test_rolled_stone_present_is_the_only_choice():
    g = game(black={"a1": 1, "b1": 2, "c1": 3}, white={"g1": 1})
    assert g.movable_stones(2) == [2]


def test_missing_rolled_stone_gives_nearest_lower_and_nearest_higher():
    g = game(black={"a1": 1, "c1": 3, "e1": 6}, white={"g1": 1})
    assert g.movable_stones(2) == [1, 3]
    assert g.movable_stones(4) == [3, 6]
    assert g.movable_stones(5) == [3, 6]


def test_missing_rolled_stone_with_only_a_lower_one():
    g = game(black={"a1": 1, "b1": 2}, white={"g1": 1})
    assert g.movable_stones(6) == [2]
    assert g.movable_stones(3) == [2]


def test_missing_rolled_stone_with_only_a_higher_one():
    g = game(black={"c1": 5}, white={"g1": 1})
    assert g.movable_stones(1) == [5]


def test_stone_moves_follow_the_roll():
    g = game(black={"a1": 1, "c1": 3}, white={"g1": 1}, balls=["a7"])
    assert moves(g, 2) == ["2 a1-a2", "2 a1-b1", "2 c1-b1", "2 c1-b2", "2 c1-c2", "2 c1-d1"]
    assert moves(g, 1) == ["1 a1-a2", "1 a1-b1"]
    assert all(not m.is_big_ball for m in g.stone_moves(4))  # having rolled, no big-ball move


def test_perft_counts_the_same_step_under_each_die_value():
    g = game(black={"a1": 1}, white={"g1": 1})
    assert g.count_legal_moves() == 6 * 2 == len(g.legal_moves())


# --- stone moves ---------------------------------------------------------------------
def test_stones_step_up_or_sideways_never_down():
    g = game(black={"c3": 1}, white={"g1": 1})
    assert moves(g, 1) == ["1 c3-b3", "1 c3-b4", "1 c3-c4", "1 c3-d3"]
    with pytest.raises(MoveError, match="nw, ne, w or e"):
        g.parse_move("1 c3-c2")
    with pytest.raises(MoveError, match="nw, ne, w or e"):
        g.parse_move("1 c3-d2")


def test_a_stone_captures_an_own_stone():
    g = game(black={"a1": 1, "a2": 2}, white={"g1": 1})
    move = g.parse_move("1 a1xa2")
    g.push(move)
    assert g.piece_at("a2") == ("black", 1) and g.piece_at("a1") is None
    assert g.stones("black") == {"a2": 1}
    assert g.movable_stones(2, "black") == [1]


def test_a_stone_captures_an_opponent_stone_and_a_big_ball():
    g = game(black={"c1": 3}, white={"d1": 2, "f1": 1}, balls=["c2"])
    g.play("3 c1xd1")
    assert g.stones("white") == {"f1": 1}
    g.play("1 f1-f2")
    g.play("3 d1-d2")
    g.play("1 f2-e2")
    g.play("3 d2xc2")
    assert g.balls() == [] and g.piece_at("c2") == ("black", 3)


def test_capture_mark_must_match_the_board():
    g = game(black={"a1": 1, "a2": 2}, white={"g1": 1})
    with pytest.raises(MoveError, match="write 1 a1xa2"):
        g.parse_move("1 a1-a2")
    with pytest.raises(MoveError, match="write 1 a1-b1"):
        g.parse_move("1 a1xb1")


def test_stone_move_must_be_allowed_by_the_roll():
    g = BigBalls()
    with pytest.raises(MoveError, match="roll 4 lets black move stone 4, not stone 5"):
        g.parse_move("4 b2-b3")
    with pytest.raises(MoveError, match="no black stone on e1"):
        g.parse_move("1 e1-e2")
    with pytest.raises(MoveError, match="1-6"):
        g.parse_move("7 a1-b1")


# --- big balls ---------------------------------------------------------------------------
def test_big_balls_blocked_by_big_balls():
    g = BigBalls()
    big = [m for m in g.legal_moves() if m.is_big_ball]
    assert sorted(map(str, big)) == ["BB a5-a4", "BB a5-b4", "BB b5-b4", "BB b5-c4", "BB c5-c4", "BB c5-d4"]
    with pytest.raises(MoveError, match="another big ball"):
        g.parse_move("BB a7-a6")


def test_big_ball_on_the_bottom_row_cannot_move():
    g = game(black={"a3": 1}, white={"g1": 1}, balls=["d1", "c2"])
    big = sorted(str(m) for m in g.big_ball_moves())
    assert big == ["BB c2-c1"]  # c2 -> d1 is blocked by a ball, d1 is on the rim
    with pytest.raises(MoveError, match="not below"):
        g.parse_move("BB d1-e1")


def test_big_ball_captures_a_stone_of_either_colour():
    g = game(black={"a4": 1}, white={"b4": 1, "g1": 2}, balls=["a5"])
    assert sorted(str(m) for m in g.big_ball_moves()) == ["BB a5xa4", "BB a5xb4"]
    g.play("BB a5xb4")
    assert g.stones("white") == {"g1": 2} and g.piece_at("b4") == "ball"
    g.play("BB b4-b3")
    g.pop()
    g.pop()
    assert g.stones("white") == {"b4": 1, "g1": 2} and g.balls() == ["a5"]


def test_no_passing_a_player_without_stones_must_move_a_big_ball():
    g = game(black={}, white={"g1": 1}, balls=["c5"])
    assert not g.can_roll()
    assert moves(g) == ["BB c5-c4", "BB c5-d4"]
    with pytest.raises(MoveError, match="no stone left"):
        g.parse_move("3 a1-a2")


# --- the end -------------------------------------------------------------------------------
def test_a_stone_on_a7_wins_for_the_mover():
    g = game(black={"a6": 2}, white={"g1": 1}, balls=["a5"])
    g.play("2 a6-a7")
    outcome = g.outcome()
    assert outcome.termination is REACHED_A7 and outcome.winner == "black"
    assert g.result() == "1-0" and g.legal_moves() == [] and g.count_legal_moves() == 0
    assert perft(g, 3) == 0


def test_a7_is_checked_before_the_other_end_rules():
    # White moves onto a7 capturing a big ball; Black has nothing left to move: a7 decides.
    g = game(black={}, white={"b6": 4}, balls=["a7"], first="white")
    g.play("4 b6xa7")
    assert g.outcome().termination is REACHED_A7 and g.outcome().winner == "white"


def test_only_big_balls_left_with_a_movable_ball_is_a_draw():
    g = game(black={"a4": 1}, white={}, balls=["a5", "d4"], first="white")
    g.play("BB a5xa4")
    outcome = g.outcome()
    assert outcome.termination is BALLS_ONLY and outcome.winner is None
    assert g.result() == "1/2-1/2"


def test_only_big_balls_left_none_movable_the_player_to_move_loses():
    g = game(black={"b1": 1}, white={}, balls=["a2"], first="white")
    g.play("BB a2xb1")  # the last stone goes; the only ball now sits on the bottom row
    outcome = g.outcome()
    assert outcome.termination is Termination.NO_MOVE and outcome.winner == "white"  # Black to move, loses
    assert g.result() == "0-1"


def test_no_stones_of_ones_own_and_no_movable_ball_loses():
    g = game(black={}, white={"g1": 1}, balls=["a1", "b1"])
    outcome = g.outcome()
    assert outcome.termination is Termination.NO_MOVE and outcome.winner == "white"


def test_no_stones_of_ones_own_but_a_movable_ball_plays_on():
    g = game(black={}, white={"g1": 1}, balls=["a2"])
    assert g.outcome() is None and moves(g) == ["BB a2-a1", "BB a2-b1"]


def test_a_player_with_a_stone_always_has_a_move():
    for hollow in GRID.names:
        if hollow == "a7":
            continue
        g = game(black={hollow: 1}, white={}, balls=[])  # one colour alone is no end by itself
        assert g.outcome() is None, hollow
        assert len(g.stone_moves(3)) >= 1, hollow


def test_resign_and_agreed_draw():
    g = BigBalls()
    assert g.resign("black").winner == "white"
    assert g.result() == "0-1" and g.outcome().termination is Termination.RESIGN
    h = BigBalls()
    h.agree_draw()
    assert h.result() == "1/2-1/2" and h.legal_moves() == []


# --- apply and undo ---------------------------------------------------------------------------
def test_push_and_pop_restore_the_position_and_turn():
    g = BigBalls()
    before = (g.occupied(), g.stones("black"), g.stones("white"), g.balls(), g.turn)
    for text in ["BB a5-a4", "1 e1xe2", "BB a4xa3"]:
        g.play(text)
    for _ in range(3):
        g.pop()
    assert (g.occupied(), g.stones("black"), g.stones("white"), g.balls(), g.turn) == before


def test_footprint_of_a_plain_move_and_a_capture():
    g = BigBalls()
    plain = g.parse_move("BB a5-a4")
    assert g.footprint(plain).empties == {"a5"} and g.footprint(plain).fills == {"a4"}
    capture = g.parse_move("1 a1xb1")
    fp = g.footprint(capture)
    assert fp.empties == {"a1"} and fp.fills == set() and fp.captures == {"b1"}


def test_unreadable_moves_are_named():
    g = BigBalls()
    for text in ["", "b2-b3", "4 b2b3", "BB", "4 b2-h9"]:
        with pytest.raises(MoveError):
            g.parse_move(text)
    with pytest.raises(MoveError, match="no hollow h9"):
        g.parse_move("4 b2-h9")


def test_perft_of_the_default_setup():
    g = BigBalls()
    assert perft(g, 1) == 24
    assert perft(g, 2) == 580


# --- the hooks the rest of reedboard reads -----------------------------------------------------
def test_the_view_hooks_draw_and_name_the_pieces():
    from reedboard.controller.games.bigballs import parse_setup

    game = BigBalls(**parse_setup("black=a1:3,b1:6,c1:1,a2:5,b2:2,a3:4"))
    pieces = game.pieces()
    assert list(pieces) == list(game.cells)
    assert pieces["a1"] == "B3" and pieces["e1"] == "W1" and pieces["a7"] == "ball" and pieces["d1"] == ""
    geometry = game.geometry()
    h = 3 ** 0.5 / 2
    assert geometry["shape"] == "triangle" and geometry["goal"] == "a7" and geometry["sectors"] == []
    assert geometry["cells"]["a1"] == [0, 0] and geometry["cells"]["g1"] == [6, 0]
    assert geometry["cells"]["c4"] == pytest.approx([2 + 1.5, -3 * h])
    assert geometry["outline"] == [geometry["cells"][c] for c in ("a1", "g1", "a7")]
    assert geometry["marbles"] == {} and set(geometry["cells"]) == set(game.cells)
    assert game.position_data() == {"score": None, "waiting": None} and game.result_details() is None
    assert game.uses_die and game.can_roll() and game.die_pieces(3) == [3]


def test_the_start_hooks_read_back_what_they_write():
    from reedboard.controller.games.bigballs import parse_setup

    game = BigBalls(**parse_setup("black=a1:3,b1:6,c1:1,a2:5,b2:2,a3:4"), first="white", balls=["a7", "c5"])
    header = game.start_header()
    assert header["first"] == "white" and header["balls"] == ["c5", "a7"]
    again = BigBalls.from_header(header)
    assert again.diagram() == game.diagram()
    assert game.record_header() == [*game.setup_lines(), "first white"]
    assert BigBalls.from_options(first="white", setup=None).first == "white"
    with pytest.raises(ValueError, match="--board is not an option of bigballs"):
        BigBalls.from_options(board="x.toml")
    with pytest.raises(ValueError, match='"board" does not belong to a bigballs header'):
        BigBalls.from_header({"board": "x.toml"})
    assert game.next_start() is None  # a new game draws anew
    assert game.winner_cells("black") == frozenset(game.stones("black"))
