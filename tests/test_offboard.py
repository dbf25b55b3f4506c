"""Off Board: every rule and edge of the rules, each test able to fail."""

import pytest

from reedboard.controller.games import MoveError, OffBoard, Termination, load_layout, perft
from reedboard.controller.games.offboard import POINTS, UNREACHABLE
from reedboard.controller.games.offboard_layout import GRID, RIM_POINTS, exit_name

from offboard_boards import regrouped

pytestmark = pytest.mark.unit

# The rules' sector table, written out here to check the default board file against it.
RULES_TABLE = {
    "S1": (1, ["A1-SE", "A2-SW", "A2-SE", "A3-SW"]),
    "S2": (2, ["A3-SE", "A4-SW", "A4-SE", "A5-SW"]),
    "S3": (3, ["A5-E", "B6-SE", "B6-E", "C7-SE"]),
    "S4": (1, ["C7-E", "D8-SE", "D8-E", "E9-SE"]),
    "S5": (2, ["E9-NE", "F9-E", "F9-NE", "G9-E"]),
    "S6": (3, ["G9-NE", "H9-E", "H9-NE", "I9-E"]),
    "S7": (1, ["I8-NE", "I9-NW", "I7-NE", "I8-NW"]),
    "S8": (2, ["I6-NE", "I7-NW", "I5-NE", "I6-NW"]),
    "S9": (3, ["H4-NW", "I5-W", "G3-NW", "H4-W"]),
    "S10": (1, ["F2-NW", "G3-W", "E1-NW", "F2-W"]),
    "S11": (2, ["D1-W", "E1-SW", "C1-W", "D1-SW"]),
    "S12": (3, ["B1-W", "C1-SW", "A1-W", "B1-SW"]),
}
CORNERS = {"A5-SE": "S2", "E9-E": "S4", "I9-NE": "S7", "I5-NW": "S8", "E1-W": "S10", "A1-SW": "S1"}
EXPECTED_SECTOR = {e: s for s, (_, exits) in RULES_TABLE.items() for e in exits} | CORNERS
OPPOSITE = {"NE": "SW", "E": "W", "SE": "NW", "SW": "NE", "W": "E", "NW": "SE"}


def step(hole: str, direction: str) -> str | None:
    nxt = GRID.neighbour(GRID.index(hole), GRID.direction(direction))
    return None if nxt is None else GRID.names[nxt]


def moves(g):
    return sorted(str(m) for m in g.legal_moves())


# --- the board ------------------------------------------------------------------------
def test_the_board_has_61_holes_54_exits_and_30_rim_points():
    assert len(GRID) == 61
    assert sum(len(e) for e in RIM_POINTS.values()) == 54
    assert len(RIM_POINTS) == 30
    assert sorted(len(e) for e in RIM_POINTS.values()) == [1] * 6 + [2] * 24


def test_start_position_is_the_rules_reconstruction():
    g = OffBoard()
    assert g.balls("red") == sorted(["B2", "B3", "B4", "C3", "C4", "D4", "F3", "F4", "F5", "G4", "G5", "H5"],
                                    key=GRID.index)
    assert len(g.balls("yellow")) == 12 and g.turn == "red"
    assert len(g.cells) == 61 + 12


def test_default_board_file_matches_the_rules_table():
    layout = load_layout()
    assert [(s.name, s.value) for s in layout.sectors] == [(n, v) for n, (v, _) in RULES_TABLE.items()]
    for exit_, sector in layout.exit_sector.items():
        assert layout.sectors[sector].name == EXPECTED_SECTOR[exit_name(exit_)], exit_name(exit_)


# --- line moves -------------------------------------------------------------------------
def test_one_ball_steps_to_any_free_neighbour():
    g = OffBoard(red=["E5"], yellow=["A1"])
    assert moves(g) == ["E5-D4", "E5-D5", "E5-E4", "E5-E6", "E5-F5", "E5-F6"]


def test_a_long_line_moves_as_one_and_every_tail_is_a_move():
    line = ["E1", "E2", "E3", "E4", "E5", "E6", "E7"]
    g = OffBoard(red=line, yellow=["A1"])
    move = g.parse_move("E1-E2")
    assert move.balls == 7
    fp = g.footprint(move)
    assert fp.empties == {"E1"} and fp.fills == {"E8"} and fp.passes == set(line[1:])
    assert g.parse_move("E4-E5").balls == 4  # a tail inside the line moves the balls ahead of it
    g.push(move)
    assert g.balls("red") == ["E2", "E3", "E4", "E5", "E6", "E7", "E8"]
    g.pop()
    assert g.balls("red") == line


def test_a_line_may_not_push_its_own_ball_off():
    g = OffBoard(red=["E8", "E9"], yellow=["A1"])
    with pytest.raises(MoveError, match="own ball off the board at E9"):
        g.parse_move("E8-E9")
    g = OffBoard(red=["E7", "E8", "E9"], yellow=["A1"])
    with pytest.raises(MoveError, match="own ball off the board at E9"):
        g.parse_move("E7-E8")
    assert "E7-E8" not in moves(g) and "E9-E8" in moves(g)


@pytest.mark.parametrize("red_count, yellow_count", [(2, 1), (3, 1), (3, 2), (5, 4), (4, 3)])
def test_a_longer_line_pushes_a_shorter_one(red_count, yellow_count):
    row = [f"E{d}" for d in range(1, 10)]
    red, yellow = row[:red_count], row[red_count:red_count + yellow_count]
    g = OffBoard(red=red, yellow=yellow + ["A1"])
    move = g.parse_move(f"E1-E2x{yellow_count}")
    assert (move.balls, move.pushed) == (red_count, yellow_count)
    g.push(move)
    assert g.balls("red") == row[1:red_count + 1]
    assert sorted(g.balls("yellow")) == sorted(row[red_count + 1:red_count + yellow_count + 1] + ["A1"])


@pytest.mark.parametrize("count", [1, 2, 3])
def test_equal_numbers_cannot_push(count):
    row = [f"E{d}" for d in range(1, 10)]
    g = OffBoard(red=row[:count], yellow=row[count:2 * count])
    with pytest.raises(MoveError, match=f"{count} balls? cannot push {count}"):
        g.parse_move("E1-E2")


def test_an_own_ball_behind_the_opponents_line_blocks_the_push():
    g = OffBoard(red=["E1", "E2", "E3", "E5"], yellow=["E4"])
    with pytest.raises(MoveError, match="own ball on E5 blocks"):
        g.parse_move("E1-E2")
    assert "E1-E2x1" not in moves(g)


def test_a_push_needs_room_or_the_rim():
    g = OffBoard(red=["E1", "E2", "E3"], yellow=["E4", "E5"])
    assert "E1-E2x2" in moves(g)
    g = OffBoard(red=["E5", "E6", "E7"], yellow=["E8", "E9"])
    move = g.parse_move("E5-E6x2")
    assert move.sector == "S4" and move.points == 1  # E9-E is the corner exit into S4


def test_opponent_ball_inside_the_line_stops_the_walk():
    # Red E1 E2, Yellow E3, Red E4: tail E1 pushes one yellow ball into its own E4 -> blocked.
    g = OffBoard(red=["E1", "E2", "E4"], yellow=["E3"])
    assert "E1-E2x1" not in moves(g)


# --- push-offs and the rim ------------------------------------------------------------------
def _push_off_position(exit_text: str):
    hole, direction = exit_text.split("-")
    back = OPPOSITE[direction]
    first = step(hole, back)
    second = step(first, back)
    return OffBoard(red=[second, first], yellow=[hole, "E5" if hole != "E5" else "E4"]), f"{second}-{first}x1"


@pytest.mark.parametrize("point", sorted(RIM_POINTS), ids=lambda p: "/".join(exit_name(e) for e in RIM_POINTS[p]))
def test_every_rim_point_sends_a_pushed_ball_to_its_sector(point):
    for exit_ in RIM_POINTS[point]:
        text = exit_name(exit_)
        sector = EXPECTED_SECTOR[text]
        value = RULES_TABLE[sector][0]
        g, written = _push_off_position(text)
        move = g.parse_move(written)
        assert str(move) == f"{written} {sector}+{value}", text
        fp = g.footprint(move)
        assert fp.fills == {sector} and fp.empties == {written.split("-")[0]}
        g.push(move)
        assert g.score("red") == value and g.sector_holder(sector) == "yellow"
        assert sector in g.occupied() and text.split("-")[0] in g.occupied()
        g.pop()
        assert g.score("red") == 0 and g.sector_holder(sector) is None


@pytest.mark.parametrize("corner, sector", sorted(CORNERS.items()))
def test_every_corner_exit_rolls_to_the_lower_valued_sector(corner, sector):
    g, written = _push_off_position(corner)
    move = g.parse_move(written)
    assert move.sector == sector
    neighbours = [s for s, (_, exits) in RULES_TABLE.items() if any(e.startswith(corner.split("-")[0]) for e in exits)]
    assert RULES_TABLE[sector][0] == min(RULES_TABLE[s][0] for s in neighbours)


# --- a full sector and the waiting ball -------------------------------------------------------
def _full_sector_game():
    # S5 already holds a red ball; Red pushes a yellow ball off through E9-NE into S5.
    return OffBoard(red=["C7", "D8", "A1"], yellow=["E9", "I9"], sectors={"S5": "red"})


def test_a_push_into_a_full_sector_scores_nothing_and_the_ball_waits():
    g = _full_sector_game()
    assert g.score("yellow") == 2
    move = g.parse_move("C7-D8x1")
    assert str(move) == "C7-D8x1 S5 full" and move.full and move.points == 0
    fp = g.footprint(move)
    assert fp.empties == {"C7"} and fp.fills == set() and fp.passes == {"D8"}
    assert fp.captures == {"E9"}  # the pushed ball leaves no trace: its hole must be seen empty
    g.push(move)
    assert g.score("red") == 0 and g.waiting == "yellow"
    assert g.balls("yellow") == ["I9"]


def test_the_waiting_ball_is_put_back_on_any_free_hole_as_the_whole_move():
    g = _full_sector_game()
    g.play("C7-D8x1 S5 full")
    replacements = [m for m in g.legal_moves() if m.is_replacement]
    assert len(replacements) == 61 - 4  # every free hole (C7 was freed, D8 E9 A1 I9 are taken)
    assert all(str(m).startswith("*") for m in g.legal_moves() if not m.is_replacement)
    g.play("+E5")
    assert g.turn == "red" and g.waiting is None and "E5" in g.balls("yellow")
    assert g.footprint(g.move_stack[-1]).fills == {"E5"}
    g.pop()
    assert g.waiting == "yellow" and "E5" not in g.balls("yellow")


def test_the_waiting_ball_may_be_dropped_with_a_normal_move():
    g = _full_sector_game()
    g.play("C7-D8x1 S5 full")
    move = g.parse_move("*I9-H9")
    assert move.drops_waiting and str(move) == "*I9-H9"
    assert g.parse_move("I9-H9") == move  # the star may be left out when reading
    g.push(move)
    assert g.waiting is None and g.turn == "red"
    assert not any(m.is_replacement for m in g.legal_moves())
    g.pop()
    assert g.waiting == "yellow"


def test_re_placement_errors_are_named():
    g = OffBoard()
    with pytest.raises(MoveError, match="no red ball is waiting"):
        g.parse_move("+E5")
    h = _full_sector_game()
    h.play("C7-D8x1")
    with pytest.raises(MoveError, match="D8 is not free"):
        h.parse_move("+D8")
    with pytest.raises(MoveError, match="no hole"):
        h.parse_move("+J5")


def test_a_star_without_a_waiting_ball_is_refused():
    with pytest.raises(MoveError, match="no red ball is waiting"):
        OffBoard().parse_move("*C3-D4")


# --- the end -----------------------------------------------------------------------------
def test_six_points_win_at_once():
    # Yellow balls in S3 (3) and S2 (2) give Red 5; a push into S1 (1) makes 6.
    g = OffBoard(red=["C3", "B2"], yellow=["A1", "E5"], sectors={"S3": "yellow", "S2": "yellow"})
    assert g.score("red") == 5 and g.outcome() is None
    move = g.parse_move("C3-B2x1")
    assert str(move) == "C3-B2x1 S1+1"
    g.push(move)
    assert g.outcome().termination is POINTS and g.outcome().winner == "red"
    assert g.result() == "1-0" and g.legal_moves() == []


def test_points_are_checked_before_no_move():
    # Red pushes Yellow's last ball off and reaches six: the reason is points, not no-move.
    g = OffBoard(red=["C3", "B2"], yellow=["A1"], sectors={"S3": "yellow", "S2": "yellow"})
    g.play("C3-B2x1")
    assert g.outcome().termination is POINTS


def test_a_player_with_no_ball_and_none_waiting_loses():
    g = OffBoard(red=["C3", "B2"], yellow=["A1"])
    g.play("C3-B2x1 S1+1")
    outcome = g.outcome()
    assert outcome.termination is Termination.NO_MOVE and outcome.winner == "red"
    assert g.result() == "1-0"


def test_a_player_whose_only_ball_waits_may_still_put_it_back():
    g = OffBoard(red=["C3", "B2"], yellow=["A1"], sectors={"S1": "red"})
    g.play("C3-B2x1 S1 full")
    assert g.outcome() is None and g.waiting == "yellow"
    assert all(m.is_replacement for m in g.legal_moves())


def test_draw_when_neither_player_can_reach_six():
    # Four sectors worth 3, 1, 3, 1 (8 in all). Red holds 3, Yellow pushes a red ball into the
    # other 3: then each has 3 and only 2 points are left free.
    layout = regrouped({"S1": (3, ["S1", "S2", "S3"]), "S2": (1, ["S4", "S5", "S6"]),
                        "S3": (3, ["S7", "S8", "S9"]), "S4": (1, ["S10", "S11", "S12"])})
    g = OffBoard(layout, red=["I7", "A1"], yellow=["G5", "H6"], sectors={"S1": "yellow"}, turn="yellow")
    assert g.outcome() is None and g.score("red") == 3
    move = g.parse_move("G5-H6x1")
    assert move.sector == "S3" and move.points == 3
    g.push(move)
    outcome = g.outcome()
    assert outcome.termination is UNREACHABLE and outcome.winner is None
    assert g.result() == "1/2-1/2"


def test_resign_and_agreed_draw():
    g = OffBoard()
    g.resign("yellow")
    assert g.result() == "1-0" and g.outcome().termination is Termination.RESIGN
    g = OffBoard()
    g.agree_draw()
    assert g.outcome().termination is Termination.AGREED


# --- notation -------------------------------------------------------------------------------
def test_notation_of_each_kind_of_move():
    g = OffBoard(red=["C7", "D8", "C3", "D4"], yellow=["E9", "E5"])
    assert str(g.parse_move("C3-D4x1")) == "C3-D4x1"
    assert str(g.parse_move("C7-D8x1 S5+2")) == "C7-D8x1 S5+2"
    assert g.parse_move("c7-d8") == g.parse_move("C7-D8x1 S5+2")  # case and suffix optional


@pytest.mark.parametrize(
    "text, message",
    [
        ("C3-E5", "not next to"),
        ("E5-E6", "no red ball on E5"),
        ("C3-D4x2", "pushes 0 ball"),
        ("C7-D8x1 S4+2", "nothing into S4"),
        ("C7-D8x1 S5+3", "nothing into S5"),
        ("C7-D8x1 S5 full", "nothing into S5"),
        ("Z1-Z2", "no hole Z1"),
        ("C3 D4", "cannot read"),
        ("", "cannot read"),
    ],
)
def test_bad_moves_are_named(text, message):
    g = OffBoard(red=["C7", "D8", "C3"], yellow=["E9"])
    with pytest.raises(MoveError, match=message):
        g.parse_move(text)


def test_perft_of_the_default_board():
    assert perft(OffBoard(), 1) == 60


# --- the hooks the rest of reedboard reads -----------------------------------------------------
def test_the_view_hooks_draw_the_hexagon_and_its_sectors():
    game = OffBoard(red=["C3", "B2"], yellow=["A1", "E5"], sectors={"S3": "yellow"})
    pieces = game.pieces()
    assert list(pieces) == list(game.cells)
    assert pieces["C3"] == "R" and pieces["E5"] == "Y" and pieces["S3"] == "Y" and pieces["S1"] == "" and pieces["A2"] == ""
    geometry = game.geometry()
    h = 3 ** 0.5 / 2
    assert geometry["shape"] == "hexagon" and geometry["goal"] is None
    assert geometry["marbles"] == {"R": "red", "Y": "yellow"}
    assert geometry["cells"]["A1"] == [1, 0] and geometry["cells"]["E5"] == pytest.approx([3, -4 * h])
    assert geometry["outline"] == [geometry["cells"][c] for c in ("A1", "A5", "E9", "I9", "I5", "E1")]
    assert set(geometry["cells"]) == set(GRID.names)  # the sectors are drawn from their rim points
    assert [s["name"] for s in geometry["sectors"]] == [s.name for s in game.sectors]
    s1 = geometry["sectors"][0]
    assert s1["value"] == 1 and [x for p in s1["points"] for x in p] == pytest.approx([0.5, h, 1.5, h, 2.5, h])
    points = sorted(point for point in RIM_POINTS)
    assert sum(len(s["points"]) for s in geometry["sectors"]) == len(points)
    assert game.position_data() == {"score": {"red": 3, "yellow": 0}, "waiting": None}
    assert game.result_details() == "3-0" and game.winner_cells("red") == frozenset({"C3", "B2"})


def test_the_start_hooks_keep_the_board_as_data(tmp_path):
    from reedboard.controller.games.offboard_layout import layout_to_data

    layout = regrouped({"S1": (1, ["S1", "S2", "S3"]), "S2": (2, ["S4", "S5", "S6"]),
                        "S3": (3, ["S7", "S8", "S9"]), "S4": (2, ["S10", "S11", "S12"])})
    game = OffBoard(layout)
    header = game.start_header()
    assert header == {"board": {"source": layout.source, **layout_to_data(layout)}}
    assert OffBoard.from_header(header).layout.exit_sector == layout.exit_sector
    assert game.record_header() == [f"board {layout.source}"] and OffBoard().record_header() == ["board default"]
    assert game.next_start().layout == layout  # the table's next game is on the same board
    with pytest.raises(ValueError, match="--first is not an option of offboard"):
        OffBoard.from_options(first="white")
    with pytest.raises(ValueError, match="only be recorded from its board's start position"):
        OffBoard(red=["C3"], yellow=["E5"]).start_header()
    board = tmp_path / "board.toml"
    board.write_text("nonsense = 1\n")
    with pytest.raises(ValueError, match="board.toml"):
        OffBoard.from_options(board=str(board))
