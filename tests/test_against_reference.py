"""Cross-check the rules engines against the naive reference implementations.

tests/reference_bigballs.py and tests/reference_offboard.py were written from the rules text
alone (no code shared with controller.games). Here both must agree on perft counts, and at
every position of seeded random games on the legal moves (as notation), the outcome and the
occupied cells.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest

from reedboard.controller.games import BigBalls, OffBoard, perft
from reedboard.controller.games.offboard_layout import parse_layout

pytestmark = pytest.mark.unit

try:  # the tests folder is on sys.path under pytest's default import mode
    import reference_bigballs as rb
    import reference_offboard as ro
except ImportError:  # pragma: no cover - e.g. if tests/ becomes a package
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import reference_bigballs as rb
    import reference_offboard as ro


def engine_outcome(game):
    o = game.outcome()
    return None if o is None else (o.termination.value, o.winner)


# ======================================================================================
# Big Balls
# ======================================================================================

RULES_EXAMPLE = {  # the set-up written in the rules' notation section
    "black": {"a1": 3, "b1": 6, "c1": 1, "a2": 5, "b2": 2, "a3": 4},
    "white": {"e1": 2, "f1": 4, "g1": 6, "e2": 1, "f2": 3, "e3": 5},
}
BLACK_HOLLOWS = ["a1", "b1", "c1", "a2", "b2", "a3"]
WHITE_HOLLOWS = ["e1", "f1", "g1", "e2", "f2", "e3"]


def shuffled_setup(seed: int) -> dict:
    rng = random.Random(seed)
    black, white = list(range(1, 7)), list(range(1, 7))
    rng.shuffle(black)
    rng.shuffle(white)
    return {"black": dict(zip(BLACK_HOLLOWS, black)), "white": dict(zip(WHITE_HOLLOWS, white))}


def sparse_setup(seed: int) -> dict:
    """A random middle-game-like position: some stones of each colour (any numbers) and some
    big balls anywhere but a7-for-stones, to exercise the lower/higher rule and the ends."""
    rng = random.Random(seed)
    hollows = list(rb.HOLLOWS)
    rng.shuffle(hollows)
    free = [h for h in hollows if h != "a7"]
    black = {free.pop(): n for n in rng.sample(range(1, 7), rng.randint(0, 4))}
    white = {free.pop(): n for n in rng.sample(range(1, 7), rng.randint(1, 4))}
    free.append("a7")
    rng.shuffle(free)
    balls = [free.pop() for _ in range(rng.randint(1, 6))]
    return {"black": black, "white": white, "balls": balls, "first": rng.choice(rb.PLAYERS)}


def bb_pair(setup: dict | None = None):
    setup = setup or {}
    return BigBalls(**setup), rb.Position.setup(**setup)


def bb_check_same(game: BigBalls, ref: rb.Position, where: str) -> list[str]:
    """Assert the engine and the reference agree here; return the reference's moves."""
    assert game.turn == ref.turn, where
    assert game.occupied() == ref.occupied(), where
    assert engine_outcome(game) == rb.outcome(ref), f"{where}: outcome"
    engine_moves = sorted(str(m) for m in game.legal_moves())
    ref_moves = sorted(rb.legal_moves(ref))
    assert engine_moves == ref_moves, f"{where}: legal moves"
    assert game.count_legal_moves() == len(ref_moves), where
    return ref_moves


@pytest.mark.parametrize("depth, expected", [(1, 24), (2, 580), (3, 14754)])
def test_bigballs_perft_default(depth, expected):
    game, ref = bb_pair()
    assert rb.perft(ref, depth) == expected
    assert perft(game, depth) == expected


def test_bigballs_perft_default_depth4():
    game, ref = bb_pair()
    assert perft(game, 4) == rb.perft(ref, 4) == 373993


@pytest.mark.parametrize(
    "setup",
    [
        RULES_EXAMPLE,
        {**shuffled_setup(1), "first": "white"},
        shuffled_setup(2),
        sparse_setup(3),
        sparse_setup(4),
    ],
    ids=["rules-example", "shuffle-1-white-first", "shuffle-2", "sparse-3", "sparse-4"],
)
def test_bigballs_perft_setups(setup):
    game, ref = bb_pair(setup)
    for depth in (1, 2, 3):
        assert perft(game, depth) == rb.perft(ref, depth), f"depth {depth}"


def test_bigballs_end_rules():
    cases = [
        # no stones at all, a ball can move: draw
        ({"black": {}, "white": {}, "balls": ["c3", "a1"]}, ("balls-only", None)),
        # no stones at all, every ball on row 1: the player to move loses
        ({"black": {}, "white": {}, "balls": ["a1", "b1"], "first": "white"}, ("no-move", "black")),
        # the player to move has no stones and no movable ball, the opponent has stones
        ({"black": {}, "white": {"d2": 4}, "balls": ["a1", "b1"]}, ("no-move", "white")),
        # the player to move has no stones but a movable ball: play goes on
        ({"black": {}, "white": {"d2": 4}, "balls": ["a2"]}, None),
    ]
    for setup, expected in cases:
        game, ref = bb_pair(setup)
        assert rb.outcome(ref) == expected, setup
        bb_check_same(game, ref, str(setup))


def test_bigballs_a7_win():
    # Black's stone 2 on a6 steps ne onto a7 (capturing the ball there): Black wins
    game, ref = bb_pair({"black": {"a6": 2}, "white": {"g1": 1}, "balls": ["a7", "d1"]})
    for move in ("2 a6xa7", "3 a6xa7"):
        assert move in rb.legal_moves(ref)
        g = game.copy()
        g.push(g.parse_move(move))
        r = rb.apply(ref, move)
        assert rb.outcome(r) == ("a7", "black")
        bb_check_same(g, r, move)


def bb_random_game(setup: dict, seed: int, max_plies: int = 120, ball_bias: float = 0.3,
                   capture_bias: float = 0.0, take_back: bool = True):
    """Play a seeded random game, checking every position; return the reference's ending."""
    rng = random.Random(seed)
    game, ref = bb_pair(setup)
    history = [ref]
    for ply in range(max_plies):
        where = f"setup {setup}, seed {seed}, after {[str(m) for m in game.move_stack]}"
        moves = bb_check_same(game, ref, where)
        if not moves:
            break
        balls = [m for m in moves if m.startswith("BB")]
        captures = [m for m in moves if "x" in m]
        if balls and rng.random() < ball_bias:
            text = rng.choice(balls)
        elif captures and rng.random() < capture_bias:
            text = rng.choice(captures)
        else:
            text = rng.choice(moves)
        move = game.parse_move(text)
        assert str(move) == text, where
        game.push(move)
        ref = rb.apply(ref, text)
        history.append(ref)
    bb_check_same(game, ref, f"setup {setup}, seed {seed}, end")
    ending = rb.outcome(ref)
    if take_back:  # the engine must walk back through the same positions
        history.pop()
        while game.move_stack:
            game.pop()
            back = history.pop()
            assert game.occupied() == back.occupied()
            assert sorted(str(m) for m in game.legal_moves()) == sorted(rb.legal_moves(back))
    return ending


def test_bigballs_random_games():
    setups = [{}, RULES_EXAMPLE, shuffled_setup(5), {**shuffled_setup(6), "first": "white"}]
    setups += [sparse_setup(100 + i) for i in range(14)]
    endings = set()
    for i, setup in enumerate(setups):
        for seed, (ball_bias, capture_bias) in enumerate([(0.2, 0.0), (0.5, 0.5), (0.3, 0.9)]):
            ending = bb_random_game(setup, 1000 * i + seed, ball_bias=ball_bias,
                                    capture_bias=capture_bias, take_back=seed == 0)
            if ending:
                endings.add(ending[0])
    assert {"a7", "balls-only", "no-move"} <= endings, endings


# ======================================================================================
# Off Board
# ======================================================================================

RIM = ro.default_rim()
EDGE = [h for h in ro.HOLES if any(ro.step(h, d) is None for d in ro.DIRECTIONS)]
SECOND_RING = [
    h for h in ro.HOLES if h not in EDGE and any(ro.step(h, d) in EDGE for d in ro.DIRECTIONS)
]
assert len(EDGE) == 24 and len(SECOND_RING) == 18


def ob_pair(position: dict | None = None, layout=None, rim=None):
    position = position or {}
    return OffBoard(layout, **position), ro.Position.setup(**position, rim=rim)


def ob_check_same(game: OffBoard, ref: ro.Position, where: str) -> list[str]:
    assert game.turn == ref.turn, where
    assert game.occupied() == ref.occupied(), where
    assert engine_outcome(game) == ro.outcome(ref), f"{where}: outcome"
    assert game.waiting == (ref.turn if ref.waiting else None), f"{where}: waiting"
    for player in ro.PLAYERS:
        assert game.score(player) == ref.scores[player], f"{where}: score"
    engine_moves = sorted(str(m) for m in game.legal_moves())
    ref_moves = sorted(ro.legal_moves(ref))
    assert engine_moves == ref_moves, f"{where}: legal moves"
    assert game.count_legal_moves() == len(ref_moves), where
    return ref_moves


def crowded_position(seed: int, rim: ro.Rim = RIM) -> dict:
    """Balls near the rim, some sectors already holding balls (both scores below 6)."""
    rng = random.Random(seed)
    holes = EDGE + SECOND_RING
    rng.shuffle(holes)
    n_red, n_yellow = rng.randint(5, 12), rng.randint(5, 12)
    red, yellow = holes[:n_red], holes[n_red:n_red + n_yellow]
    names = list(rim.names)
    while True:
        filled = rng.sample(names, rng.randint(0, min(7, len(names) - 1)))
        sectors = {s: rng.choice(ro.PLAYERS) for s in filled}
        score = {p: sum(rim.values[s] for s, q in sectors.items() if q != p) for p in ro.PLAYERS}
        if max(score.values()) < 6:
            break
    return {"red": red, "yellow": yellow, "sectors": sectors, "turn": rng.choice(ro.PLAYERS),
            "waiting": rng.random() < 0.3}


# The rules' default sector table (copied here: tests never read the rules folder).
RULES_SECTORS = {
    "S1": (1, "A1-SE A2-SW A2-SE A3-SW A1-SW"),
    "S2": (2, "A3-SE A4-SW A4-SE A5-SW A5-SE"),
    "S3": (3, "A5-E B6-SE B6-E C7-SE"),
    "S4": (1, "C7-E D8-SE D8-E E9-SE E9-E"),
    "S5": (2, "E9-NE F9-E F9-NE G9-E"),
    "S6": (3, "G9-NE H9-E H9-NE I9-E"),
    "S7": (1, "I8-NE I9-NW I7-NE I8-NW I9-NE"),
    "S8": (2, "I6-NE I7-NW I5-NE I6-NW I5-NW"),
    "S9": (3, "H4-NW I5-W G3-NW H4-W"),
    "S10": (1, "F2-NW G3-W E1-NW F2-W E1-W"),
    "S11": (2, "D1-W E1-SW C1-W D1-SW"),
    "S12": (3, "B1-W C1-SW A1-W B1-SW"),
}


def test_offboard_default_sector_table():
    """The default board file gives the rules' table (corner exits included), and the
    reference's own list of exits is exactly the 54 the table names."""
    expected = {}
    for name, (value, exits) in RULES_SECTORS.items():
        assert RIM.values[name] == value
        for text in exits.split():
            hole, direction = text.split("-")
            expected[(hole, direction)] = name
    assert len(expected) == 54
    assert RIM.exit_sector == expected


@pytest.mark.parametrize("depth, expected", [(1, 60), (2, 3589), (3, 208921)])
def test_offboard_perft_default(depth, expected):
    game, ref = ob_pair()
    assert perft(game, depth) == expected
    assert ro.perft(ref, depth) == expected


@pytest.mark.parametrize("seed", range(6))
def test_offboard_perft_crowded(seed):
    game, ref = ob_pair(crowded_position(seed))
    for depth in (1, 2):
        assert perft(game, depth) == ro.perft(ref, depth), f"depth {depth}"


def test_offboard_notation_examples():
    # the rules' example: C7 and D8 red, E9 yellow; C7 moves north-east, E9 goes off into S5
    game, ref = ob_pair({"red": ["C7", "D8"], "yellow": ["E9", "A1"]})
    assert "C7-D8x1 S5+2" in ro.legal_moves(ref)
    ob_check_same(game, ref, "C7-D8x1 S5+2")
    game, ref = ob_pair({"red": ["C7", "D8"], "yellow": ["E9", "A1"], "sectors": {"S5": "red"}})
    assert "C7-D8x1 S5 full" in ro.legal_moves(ref)
    ob_check_same(game, ref, "C7-D8x1 S5 full")
    game.push(game.parse_move("C7-D8x1 S5 full"))
    ref = ro.apply(ref, "C7-D8x1 S5 full")
    assert ref.waiting and ref.turn == "yellow"
    moves = ob_check_same(game, ref, "after S5 full")
    assert "+E5" in moves and "*A1-A2" in moves


def test_offboard_no_move():
    # Red's only ball on A1, hemmed in by yellow: no line move at all, Red loses
    game, ref = ob_pair({"red": ["A1"], "yellow": ["A2", "B1", "B2", "E5"]})
    assert ro.outcome(ref) == ("no-move", "yellow")
    ob_check_same(game, ref, "hemmed in")
    # ...unless a ball of Red's waits: it can always be put back
    game, ref = ob_pair({"red": ["A1"], "yellow": ["A2", "B1", "B2", "E5"], "waiting": True})
    assert ro.outcome(ref) is None
    ob_check_same(game, ref, "hemmed in, waiting")
    # no balls left on the board at all
    game, ref = ob_pair({"red": [], "yellow": ["E5"], "turn": "red"})
    assert ro.outcome(ref) == ("no-move", "yellow")
    ob_check_same(game, ref, "no red balls")


def test_offboard_points():
    game, ref = ob_pair({"red": ["C7", "D8"], "yellow": ["E9", "A1"], "sectors": {"S1": "yellow", "S2": "yellow"}})
    assert ref.scores["red"] == 3
    game.push(game.parse_move("C7-D8x1 S5+2"))
    ref = ro.apply(ref, "C7-D8x1 S5+2")
    assert ro.outcome(ref) is None
    game, ref = ob_pair({"red": ["C7", "D8"], "yellow": ["E9", "A1"],
                         "sectors": {"S1": "yellow", "S2": "yellow", "S4": "yellow"}})
    game.push(game.parse_move("C7-D8x1 S5+2"))
    ref = ro.apply(ref, "C7-D8x1 S5+2")
    assert ro.outcome(ref) == ("points", "red")
    ob_check_same(game, ref, "six points")


def side_layout():
    """A board whose six sectors are the hexagon's six sides, valued 1, 2, 1, 2, 1, 2 (nine
    points in all), so that a game can end with six out of reach for both players. Corner
    exits are left to the loader's rule (touching sectors differ in value)."""
    def side(point):
        r, d = point
        if r == -1:
            return 0
        if d - r == 6:
            return 1
        if d == 10:
            return 2
        if r == 9:
            return 3
        if r - d == 4:
            return 4
        return 5  # d == 0

    exits: dict[int, list[str]] = {i: [] for i in range(6)}
    points: dict[tuple[int, int], list[str]] = {}
    for hole, direction in ro.EXITS:
        r, d = ro.ROWS.index(hole[0]), int(hole[1:])
        dr, dd = ro.DIRECTIONS[direction]
        points.setdefault((r + dr, d + dd), []).append(f"{hole}-{direction}")
    for point, names in points.items():
        if len(names) == 2:
            exits[side(point)].extend(names)
    data = {
        "start": {"red": ["B2", "B3", "B4", "C3", "C4", "D4"], "yellow": ["H5", "H6", "H7", "G5", "G6", "F5"]},
        "sector": [{"name": f"S{i + 1}", "value": 1 + i % 2, "exits": exits[i]} for i in range(6)],
    }
    return parse_layout(data, "six sides")


def test_offboard_unreachable():
    layout = side_layout()
    rim = ro.Rim(layout)
    assert rim.values == {"S1": 1, "S2": 2, "S3": 1, "S4": 2, "S5": 1, "S6": 2}
    # the whole board holds nine points: at the start, six is still within reach
    game, ref = ob_pair(layout=layout, rim=rim)
    assert ro.outcome(ref) is None
    ob_check_same(game, ref, "six sides start")
    assert perft(game, 2) == ro.perft(ref, 2)
    # Red 4 (yellow balls in S2 and S4), Yellow 3 (red balls in S1 and S6); S3 and S5 (1 each)
    # free. Yellow's G5-G4 pushes the red ball on G3 off the upper-left side into S5: Yellow 4,
    # one point left on the rim, and neither player can reach six.
    position = {"red": ["G3", "E5"], "yellow": ["G4", "G5", "A3"],
                "sectors": {"S2": "yellow", "S4": "yellow", "S1": "red", "S6": "red"}, "turn": "yellow"}
    game, ref = ob_pair(position, layout=layout, rim=rim)
    assert ro.outcome(ref) is None
    moves = ob_check_same(game, ref, "before unreachable")
    assert "G5-G4x1 S5+1" in moves, moves
    game.push(game.parse_move("G5-G4x1 S5+1"))
    ref = ro.apply(ref, "G5-G4x1 S5+1")
    assert ro.outcome(ref) == ("unreachable", None)
    ob_check_same(game, ref, "after G5-G4x1 S5+1")
    # and a position that is already out of reach for both
    position = {"red": ["A1", "E5"], "yellow": ["B1", "C1", "G7"],
                "sectors": {"S2": "yellow", "S4": "yellow", "S6": "red", "S1": "red", "S3": "red"}}
    game, ref = ob_pair(position, layout=layout, rim=rim)
    assert ro.outcome(ref) == ("unreachable", None)
    ob_check_same(game, ref, "unreachable")


PUSH_OFF = re.compile(r" S\d+\+\d+$")


def ob_random_game(position, seed, features, layout=None, rim=None, max_plies=120):
    rng = random.Random(seed)
    game, ref = ob_pair(position, layout=layout, rim=rim)
    history = [ref]
    for ply in range(max_plies + 1):
        where = f"position {position}, seed {seed}, after {[str(m) for m in game.move_stack]}"
        moves = ob_check_same(game, ref, where)
        if not moves:
            features.add(ro.outcome(ref)[0])
            break
        pushes = [m for m in moves if "x" in m]
        offs = [m for m in pushes if " S" in m]
        puts = [m for m in moves if m.startswith("+")]
        if puts and rng.random() < 0.5:
            text = rng.choice(puts)
        elif offs and rng.random() < 0.5:
            text = rng.choice(offs)
        elif pushes and rng.random() < 0.7:
            text = rng.choice(pushes)
        else:
            text = rng.choice(moves)
        if PUSH_OFF.search(text):
            features.add("scored")
        if text.endswith(" full"):
            features.add("full")
        if text.startswith("*"):
            features.add("*")
        if text.startswith("+"):
            features.add("+")
        move = game.parse_move(text)
        assert str(move) == text, where
        game.push(move)
        ref = ro.apply(ref, text)
        history.append(ref)
    # take everything back through the same positions
    history.pop()
    while game.move_stack:
        game.pop()
        ref = history.pop()
        assert game.occupied() == ref.occupied()
        assert game.waiting == (ref.turn if ref.waiting else None)
        assert sorted(str(m) for m in game.legal_moves()) == sorted(ro.legal_moves(ref))


def test_offboard_random_games():
    features: set[str] = set()
    for seed in range(4):
        ob_random_game({}, seed, features)
    for seed in range(16):
        ob_random_game(crowded_position(500 + seed), seed, features)
    # a few hemmed-in positions, to reach the end by no-move
    for seed in range(3):
        ob_random_game({"red": ["A1", "A3"], "yellow": ["A2", "B1", "B2", "B3", "B4", "A4", "E5"],
                        "turn": ("red", "yellow", "red")[seed], "waiting": seed == 2}, seed, features)
    assert {"scored", "full", "*", "+", "points", "no-move"} <= features, features


def test_offboard_random_games_other_layout():
    """The six-sides board (nine points on the rim), where a game can end unreachable."""
    layout = side_layout()
    rim = ro.Rim(layout)
    features: set[str] = set()
    for seed in range(2):
        ob_random_game({}, seed, features, layout=layout, rim=rim)
    for seed in range(16):
        ob_random_game(crowded_position(700 + seed, rim), seed, features, layout=layout, rim=rim)
    assert {"scored", "full", "*", "+", "points", "unreachable"} <= features, features
