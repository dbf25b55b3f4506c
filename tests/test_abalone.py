"""Abalone's rules engine: perft, against a naive reference, notation, refusals, the end,
footprints, headers and what a view shows."""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from importlib import resources

import pytest

import reference_abalone as ra
from reedboard.controller.games import GameOverError, MoveError, Termination, divide, perft
from reedboard.controller.games.abalone import LAYOUTS, PUSHED_OFF, Abalone, PositionError, start_layouts
from reedboard.controller.words import said

pytestmark = pytest.mark.unit

STANDARD_PERFT = {1: 44, 2: 1936, 3: 98912}
PERFT_3 = {"standard": 98912, "belgian-daisy": 149322, "german-daisy": 493480}


# --- perft ----------------------------------------------------------------------------------
def test_perft_from_the_standard_layout():
    game = Abalone()
    assert perft(game, 1) == 44
    assert perft(game, 2) == 1936
    assert Counter(len(m.marbles) for m in game.legal_moves()) == {1: 14, 2: 20, 3: 10}
    assert game.count_legal_moves() == len(game.legal_moves()) == len(set(game.legal_moves()))


@pytest.mark.parametrize("layout", ["standard", "belgian-daisy"])
def test_perft_3_agrees_with_the_reference(layout):
    assert perft(Abalone(layout), 3) == ra.perft(ra.start(layout), 3) == PERFT_3[layout]


def test_perft_3_german_daisy_agrees_with_the_reference():
    # The whole depth 2, and depth 3 below every eighth first move (the reference is slow).
    game, start = Abalone("german-daisy"), ra.start("german-daisy")
    assert perft(game, 2) == ra.perft(start, 2)
    assert perft(game, 3) == PERFT_3["german-daisy"]
    reference_moves = {ra.notation(m): m for m in ra.moves(start)}
    for move, count in divide(game, 3)[::8]:
        assert count == ra.perft(ra.apply(start, reference_moves[str(move)]), 2), str(move)


# --- against the reference over random games ----------------------------------------------------
def _reference_position(game: Abalone) -> ra.Position:
    board = {hole: code for hole, code in game.pieces().items() if code}
    return ra.Position(board, game.turn, {p: game.pushed_off(p) for p in game.players})


def _random_games(seed: int, plies: int):
    """Positions of random games from each layout, pushes made whenever there is one."""
    rng = random.Random(seed)
    for layout in LAYOUTS:
        game = Abalone(layout)
        for _ in range(plies):
            moves = game.legal_moves()
            if not moves:
                break
            yield game
            pushes = [m for m in moves if m.pushed]
            game.push(rng.choice(pushes if pushes and rng.random() < 0.7 else moves))
        yield game


def test_legal_moves_agree_with_the_reference_over_random_games():
    pushes = push_offs = 0
    for game in _random_games(seed=11, plies=120):
        reference = _reference_position(game)
        found = {ra.notation(m): m for m in ra.moves(reference)}
        moves = game.legal_moves()
        assert sorted(str(m) for m in moves) == sorted(found), game.diagram()
        assert game.count_legal_moves() == len(moves)
        for move in moves:
            pushes += bool(move.pushed)
            push_offs += move.off
            after = ra.apply(reference, found[str(move)])
            game.push(move)
            assert _reference_position(game).board == after.board, str(move)
            assert _reference_position(game).off == after.off, str(move)
            game.pop()
    assert pushes > 100 and push_offs > 10  # the games did reach pushes and push-offs


def test_legal_moves_agree_with_the_reference_on_crowded_boards():
    # Marbles strewn at random: lines of every length against every other, at every edge.
    rng = random.Random(2)
    kinds = Counter()
    for _ in range(250):
        holes = rng.sample(ra.HOLES, rng.randint(16, 28))
        half = len(holes) // 2
        game = Abalone(black=holes[:half], white=holes[half:], turn=rng.choice(["black", "white"]))
        found = {ra.notation(m) for m in ra.moves(_reference_position(game))}
        moves = game.legal_moves()
        assert sorted(str(m) for m in moves) == sorted(found), game.diagram()
        assert game.count_legal_moves() == len(moves)
        kinds.update((len(m.marbles), m.pushed, m.off) for m in moves if m.pushed)
        # parse_move finds its moves its own way: it accepts exactly the legal ones
        reference = _reference_position(game)
        for line in ra.lines(reference):
            for direction in ra.DIRECTIONS:
                text = ra.notation((line, direction))
                if ra.step(text[:2], direction) is None:
                    continue  # the notation cannot name a hole off the board
                try:
                    accepted = str(game.parse_move(text)) == text
                except MoveError:
                    accepted = False
                assert accepted == (text in found), text
    assert set(kinds) == {(2, 1, False), (2, 1, True), (3, 1, False), (3, 1, True), (3, 2, False), (3, 2, True)}


def test_push_and_pop_restore_the_position_exactly():
    rng = random.Random(5)
    for layout in LAYOUTS:
        game = Abalone(layout)
        start = (game.pieces(), game.turn, game.position_data())
        seen = []
        for _ in range(150):
            moves = game.legal_moves()
            if not moves:
                break
            seen.append((game.pieces(), game.turn, game.position_data(), game.count_legal_moves()))
            pushes = [m for m in moves if m.pushed]
            game.push(rng.choice(pushes or moves))
        while game.move_stack:
            game.pop()
            pieces, turn, data, count = seen.pop()
            assert (game.pieces(), game.turn, game.position_data(), game.count_legal_moves()) == (
                pieces, turn, data, count)
        assert (game.pieces(), game.turn, game.position_data()) == start


def test_every_legal_move_reads_back_from_its_notation():
    for game in _random_games(seed=3, plies=60):
        for move in game.legal_moves():
            text = str(move)
            assert game.parse_move(text) == move
            assert game.parse_move(f"  {text.lower()} ") == move
            assert game.parse_move(f"{text[:2]} {text[2:]}") == move


def test_footprints_match_what_the_move_does_to_the_holes():
    for game in _random_games(seed=8, plies=60):
        before = game.occupied()
        for move in game.legal_moves():
            fp = game.footprint(move)
            game.push(move)
            after = game.occupied()
            game.pop()
            assert after == (before - fp.empties) | fp.fills, str(move)
            assert fp.captures <= before and fp.captures <= after
            assert fp.passes <= before and fp.passes <= after
            assert not (fp.empties | fp.fills) & (fp.captures | fp.passes)


# --- notation and refusals ------------------------------------------------------------------------
def test_notation_of_each_kind_of_move():
    game = Abalone()
    assert str(game.parse_move("C3D4")) == "C3D4"  # a single marble
    three = game.parse_move("a1b2")
    assert (three.marbles, three.direction, three.broadside) == (("A1", "B2", "C3"), "NE", False)
    side = game.parse_move("C3C5D3")
    assert (side.marbles, side.direction, side.broadside) == (("C3", "C4", "C5"), "NW", True)
    push = Abalone(black=["E1", "E2", "E3"], white=["E4", "E5"]).parse_move("E1E2")
    assert (push.pushed, push.off) == (2, False)
    off = Abalone(black=["E7", "E8"], white=["E9"]).parse_move("E7E8")
    assert (off.pushed, off.off) == (1, True)


def _refusal(game: Abalone, text: str) -> str:
    with pytest.raises(MoveError) as caught:
        game.parse_move(text)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_refusals_name_the_reason():
    # equal numbers never push
    assert "2 marbles cannot push 2" in _refusal(Abalone(black=["C3", "C4"], white=["C5", "C6"]), "C3C4")
    assert "3 marbles cannot push 3" in _refusal(
        Abalone(black=["C1", "C2", "C3"], white=["C4", "C5", "C6"]), "C1C2")
    assert "1 marble cannot push 1" in _refusal(Abalone(black=["C3"], white=["C4"]), "C3C4")
    # one's own marble behind the opposing ones
    assert "own marble on C7 blocks the push" in _refusal(
        Abalone(black=["C3", "C4", "C5", "C7"], white=["C6"]), "C3C4")
    # broadside into a taken hole, and off the board
    assert "D4 is not free" in _refusal(Abalone(black=["C3", "C4"], white=["D4"]), "C3C4D3")
    assert "E9 would leave the board" in _refusal(Abalone(black=["E8", "E9"], white=["A1"]), "E8E9F9")
    # one's own marble off the board, inline
    assert "own marble off the board at A1" in _refusal(Abalone(), "A3A2")
    # a line of four
    four = Abalone(black=["C3", "C4", "C5", "C6"], white=["I9"])
    assert "4 black marbles" in _refusal(four, "C3C4")
    assert "line of 4" in _refusal(four, "C3C6D3")
    # marbles that are not one line
    gap = Abalone(black=["C3", "C5"], white=["C4", "I9"])
    assert "C4 holds a white marble" in _refusal(gap, "C3C5D3")
    assert "C4 is a free hole" in _refusal(Abalone(black=["C3", "C5"], white=["I9"]), "C3C5D3")
    assert "not on one line" in _refusal(Abalone(), "C3D5E3")
    # bad holes and text
    assert "no hole J1" in _refusal(Abalone(), "J1K2")
    assert "no hole A9" in _refusal(Abalone(), "A9B9")
    assert "E5 is not next to A1" in _refusal(Abalone(), "A1E5")
    assert "no black marble on D4" in _refusal(Abalone(), "D4E5")
    for text in ("", "hello", "A1-B2", "A1B2C3D4", "A1 x B2"):
        assert "cannot read" in _refusal(Abalone(), text)


def test_broadside_moves_are_written_one_way():
    game = Abalone()
    assert "write the line's first hole in board order first: C3C5D3" in _refusal(game, "C5C3D5")
    assert "inline move" in _refusal(game, "C3C5C2")
    assert "is given twice" in _refusal(game, "C3C3D3")


# --- pushing off and the end ------------------------------------------------------------------------
def test_a_push_off_counts_and_six_win():
    game = Abalone(black=["E7", "E8"], white=["E9", "A1", "A2"], pushed_off={"black": 4})
    game.play("E7E8")
    assert game.pushed_off("black") == 5 and game.marbles("white") == ["A1", "A2"]
    assert game.position_data() == {"score": {"black": 5, "white": 0}, "waiting": None}
    assert game.outcome() is None

    game = Abalone(black=["E5", "E6", "E7"], white=["E8", "E9", "A1"], pushed_off={"black": 5})
    move = game.play("E5E6")
    assert move.off and game.marbles("black") == ["E6", "E7", "E8"] and game.marbles("white") == ["A1", "E9"]
    outcome = game.outcome()
    assert outcome.termination is PUSHED_OFF and outcome.winner == "black"
    assert game.result() == "1-0" and game.result_details() == "6-0"
    assert game.winner_cells("black") == {"E6", "E7", "E8"}
    assert game.legal_moves() == [] and game.count_legal_moves() == 0 and perft(game, 2) == 0
    with pytest.raises(GameOverError):
        game.parse_move("A1B2")
    game.pop()
    assert game.outcome() is None and game.pushed_off("black") == 5
    assert game.marbles("white") == ["A1", "E8", "E9"]


def test_a_player_who_cannot_move_loses():
    game = Abalone(black=["A1"], white=["A2", "B1", "B2"])
    assert game.legal_moves() == [] and game.count_legal_moves() == 0
    outcome = game.outcome()
    assert outcome.termination is Termination.NO_MOVE and outcome.winner == "white"
    assert Abalone(black=["A1"], white=["A2", "B1"]).outcome() is None


def test_positions_that_cannot_stand_are_refused():
    for kwargs, words in [
        ({"black": ["A1", "A1"]}, "given twice"),
        ({"black": ["Z9"]}, "no such hole"),
        ({"black": ["A1"], "turn": "red"}, "black or white"),
        ({"black": ["A1"], "pushed_off": {"white": 14}}, "only 14 marbles"),
        ({"layout": "hex"}, "unknown layout"),
    ]:
        with pytest.raises(PositionError, match=words):
            Abalone(**kwargs)


# --- footprints ----------------------------------------------------------------------------------------
def _footprint(game: Abalone, text: str) -> tuple:
    fp = game.footprint(game.parse_move(text))
    return tuple(sorted(s) for s in (fp.empties, fp.fills, fp.captures, fp.passes))


def test_footprints_of_each_kind_of_move():
    assert _footprint(Abalone(), "C3D4") == (["C3"], ["D4"], [], [])
    assert _footprint(Abalone(), "A1B2") == (["A1"], ["D4"], [], ["B2", "C3"])
    assert _footprint(Abalone(), "C3C5D3") == (["C3", "C4", "C5"], ["D3", "D4", "D5"], [], [])
    # three against two: only the two ends change
    assert _footprint(Abalone(black=["E1", "E2", "E3"], white=["E4", "E5"]), "E1E2") == (
        ["E1"], ["E6"], [], ["E2", "E3", "E4", "E5"])
    # pushed off: the edge hole stays taken by the marble pushed into it
    assert _footprint(Abalone(black=["E5", "E6", "E7"], white=["E8", "E9"]), "E5E6") == (
        ["E5"], [], ["E9"], ["E6", "E7", "E8"])
    assert _footprint(Abalone(black=["E7", "E8"], white=["E9"]), "E7E8") == (["E7"], [], ["E9"], ["E8"])


# --- the start, headers and options ------------------------------------------------------------------
def test_the_layouts_are_the_data_file():
    text = resources.files("reedboard.controller.games").joinpath("data/abalone.toml").read_text(encoding="utf-8")
    assert tuple(tomllib.loads(text)) == LAYOUTS
    assert Abalone.options[0].choices == LAYOUTS
    for layout in LAYOUTS:
        game = Abalone(layout)
        assert game.marbles("black") == sorted(start_layouts()[layout]["black"], key=game.cells.index)
        assert len(game.marbles("white")) == 14 and game.turn == "black"
    assert Abalone("standard").marbles("white")[:3] == ["G5", "G6", "G7"]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_headers_round_trip(layout):
    game = Abalone.from_options(layout=layout)
    assert game.start_header() == {"layout": layout}
    assert game.record_header() == [f"layout {layout}"]
    again = Abalone.from_header(game.start_header())
    assert again.pieces() == game.pieces() and again.layout == layout
    game.play(str(game.legal_moves()[0]))
    fresh = game.next_start()
    assert fresh.layout == layout and not fresh.move_stack and fresh.pieces() == again.pieces()


def test_header_and_option_refusals():
    assert Abalone.from_header({}).layout == "standard"
    assert Abalone.from_options().record_header() == ["layout standard"]
    for header, words in [({"layout": "hex"}, "layout"), ({"layout": 3}, "layout"),
                          ({"board": "x.toml"}, "board"), ({"game": "abalone"}, "game")]:
        with pytest.raises(ValueError, match=words) as caught:
            Abalone.from_header(header)
        assert "\n" not in str(caught.value)
    for options in ({"layout": "hex"}, {"board": "x.toml"}):
        with pytest.raises(ValueError):
            Abalone.from_options(**options)
    custom = Abalone(black=["A1"], white=["I9"])
    assert custom.next_start() is None
    with pytest.raises(ValueError, match="start layout"):
        custom.start_header()


# --- what a view shows -----------------------------------------------------------------------------------
def test_geometry_has_the_61_holes():
    geometry = Abalone().geometry()
    assert list(geometry["cells"]) == list(Abalone().cells) and len(geometry["cells"]) == 61
    assert geometry["cells"]["A1"] == [1.0, 0.0] and geometry["cells"]["E1"] == [-1.0, -3.4641]
    assert geometry["outline"] == [geometry["cells"][c] for c in ("A1", "A5", "E9", "I9", "I5", "E1")]
    assert (geometry["shape"], geometry["goal"], geometry["sectors"]) == ("hexagon", None, [])
    assert geometry["marbles"] == {"B": "black", "W": "white"}


def test_pieces_and_names():
    game = Abalone()
    pieces = game.pieces()
    assert Counter(pieces.values()) == {"B": 14, "W": 14, "": 33}
    assert game.occupied() == {cell for cell, code in pieces.items() if code}
    pieces = game.pieces()
    assert said(game.piece_words(pieces["A1"])) == "the black marble"
    assert said(game.piece_words(pieces["I9"])) == "the white marble"
    assert said(game.piece_words(pieces["E5"])) == "the piece"
    assert game.result_details() == "0-0"
    copy = game.copy()
    copy.play("A1B2")
    assert game.pieces() == pieces and not game.move_stack


def test_rules_page_diagrams_play_from_the_example_start():
    rules = Abalone().rules()
    assert {"The board and the marbles", "The push", "At the board"} <= {s["title"] for s in rules["sections"]}
    ids = [d[0] for d in rules["diagrams"]]
    assert ids[:4] == ["setup", "inline", "broadside", "push"]
    for _, _, moves, _ in rules["diagrams"]:
        game = Abalone.example_start()
        for text in moves:
            game.play(text)
    assert game.move_stack[-1].pushed == 1
