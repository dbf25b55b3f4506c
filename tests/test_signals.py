"""Signals: a View becomes lights and a die display exactly as documented; each test able to fail."""

import itertools
import math
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reedboard.controller.games import BigBalls, OffBoard, Outcome, Termination
from reedboard.controller.games.bigballs import REACHED_A7
from reedboard.controller.core.signals import (
    BLINKING, CELL_COLOURS, PALETTE, PLAYER_COLOURS, PRECEDENCE, die_number, die_state, light_frame, scale,
)
from reedboard.controller.core.view import Phase, View
from reedboard.hal.interfaces import DieFace, DieState, Light, LightFrame

from conftest import seeds

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parent.parent
BB_CELLS = BigBalls().cells
OB_CELLS = OffBoard().cells
GAMES = {
    "bigballs": (BB_CELLS, ("black", "white")),
    "offboard": (OB_CELLS, ("red", "yellow")),
}
WIN = Outcome(REACHED_A7, "black")
DRAW = Outcome(Termination.AGREED, None)


def view(game="bigballs", phase=Phase.PLAY, **kw):
    cells, players = GAMES[game]
    kw.setdefault("turn", players[0])
    kw.setdefault("occupied", frozenset())
    return View(game=game, phase=phase, cells=cells, players=players, **kw)


def fs(*cells):
    return frozenset(cells)


def lit(frame: LightFrame) -> dict[str, tuple[str, bool]]:
    return {cell: (light.colour, light.blink) for cell, light in frame.cells.items()}


# --- each View field shows as documented -----------------------------------------------
def test_nothing_to_show_leaves_every_cell_dark():
    frame = light_frame(view(occupied=fs("a1", "b1", "c1"), turn="white"))
    assert frame == LightFrame(cells={}, die_pips=0, turn="white")


@pytest.mark.parametrize(
    "field, colour, blink",
    [("fill", "fill", True), ("empty", "empty", True), ("place", "place", True),
     ("to", "to", False), ("movable", "movable", False), ("last_move", "last", False)],
)
def test_each_cell_set_shows_its_colour_on_exactly_its_cells(field, colour, blink):
    cells = fs("a1", "c3", "a7")
    frame = light_frame(view(phase=Phase.SETUP if field == "place" else Phase.PLAY, **{field: cells}))
    assert lit(frame) == {c: (colour, blink) for c in cells}


def test_choices_light_every_cell_of_every_candidate_path_blinking():
    paths = (fs("C3", "D4", "E5"), fs("C3", "C4"), fs("S5",))
    frame = light_frame(view("offboard", choices=paths))
    assert lit(frame) == {c: ("choose", True) for c in ("C3", "D4", "E5", "C4", "S5")}


def test_game_over_with_a_winner_lights_the_winner_cells_only():
    frame = light_frame(view(phase=Phase.OVER, outcome=WIN, occupied=fs("a1", "b1", "a7", "g1"),
                             winner_cells=fs("a1", "a7")))
    assert lit(frame) == {"a1": ("winner", False), "a7": ("winner", False)}


def test_a_draw_lights_every_occupied_cell_in_the_draw_colour():
    occupied = fs("A1", "E5", "I9", "S3")
    frame = light_frame(view("offboard", phase=Phase.OVER, outcome=DRAW, occupied=occupied,
                             winner_cells=fs("A2")))
    assert lit(frame) == {c: ("draw", False) for c in occupied}


@pytest.mark.parametrize("phase", [p for p in Phase if p is not Phase.OVER])
def test_winner_and_draw_show_only_once_the_game_is_over(phase):
    for outcome in (WIN, DRAW):
        frame = light_frame(view(phase=phase, outcome=outcome, occupied=fs("a1"), winner_cells=fs("a1")))
        assert frame.cells == {}


def test_game_over_without_an_outcome_shows_no_winner():
    assert light_frame(view(phase=Phase.OVER, occupied=fs("a1"), winner_cells=fs("a1"))).cells == {}


def test_the_black_winner_and_white_winner_look_the_same_on_their_cells():
    white_win = Outcome(REACHED_A7, "white")
    frame = light_frame(view(phase=Phase.OVER, outcome=white_win, winner_cells=fs("e1")))
    assert lit(frame) == {"e1": ("winner", False)}


# --- precedence -------------------------------------------------------------------------
SETTERS = {
    "fill": lambda c: {"fill": fs(c)},
    "empty": lambda c: {"empty": fs(c)},
    "choose": lambda c: {"choices": (fs(c, "a7"), fs("g1"))},
    "place": lambda c: {"place": fs(c)},
    "winner": lambda c: {"outcome": WIN, "winner_cells": fs(c)},
    "draw": lambda c: {"outcome": DRAW, "occupied": fs(c)},
    "dest": lambda c: {"dest": fs(c)},
    "to": lambda c: {"to": fs(c)},
    "movable": lambda c: {"movable": fs(c)},
    "last": lambda c: {"last_move": fs(c)},
}


def test_precedence_is_the_documented_order():
    assert PRECEDENCE == ("fill", "empty", "choose", "place", "winner", "draw", "dest", "to", "movable", "last")
    assert set(SETTERS) == set(PRECEDENCE)


@pytest.mark.parametrize(
    "high, low", [(h, l) for h, l in itertools.combinations(PRECEDENCE, 2) if {h, l} != {"winner", "draw"}]
)
def test_a_cell_in_two_sets_shows_the_higher_one(high, low):
    kw = {**SETTERS[low]("c3"), **SETTERS[high]("c3")}
    frame = light_frame(view(phase=Phase.OVER, **kw))
    assert lit(frame)["c3"] == (high, high in BLINKING)


def test_a_cell_in_every_set_shows_fill_and_the_others_keep_their_own():
    frame = light_frame(view(
        phase=Phase.OVER, outcome=WIN, fill=fs("c3"), empty=fs("c3", "d1"),
        choices=(fs("c3", "d1", "e1"),), place=fs("c3", "e1", "f1"),
        winner_cells=fs("c3", "f1", "g1"), movable=fs("c3", "g1", "a2"), last_move=fs("c3", "a2", "b2"),
    ))
    assert lit(frame) == {
        "c3": ("fill", True), "d1": ("empty", True), "e1": ("choose", True), "f1": ("place", True),
        "g1": ("winner", False), "a2": ("movable", False), "b2": ("last", False),
    }


def test_guidance_beats_the_winner_display_after_the_game():
    frame = light_frame(view(phase=Phase.OVER, outcome=DRAW, occupied=fs("a1", "b1"), empty=fs("a1")))
    assert lit(frame) == {"a1": ("empty", True), "b1": ("draw", False)}


# --- only the board's cells ---------------------------------------------------------------
def test_a_frame_lists_only_cells_of_the_view_and_in_board_order():
    foreign = fs("z9", "A1", "S1")  # not Big Balls hollows
    frame = light_frame(view(
        fill=fs("g1", "z9"), empty=fs("S1"), choices=(fs("A1", "a1"),), movable=fs("b4", "z9"),
        last_move=fs("a7", "A1"),
    ))
    assert set(frame.cells) == {"g1", "a1", "b4", "a7"}
    assert not foreign & set(frame.cells)
    assert list(frame.cells) == [c for c in BB_CELLS if c in frame.cells]


def test_off_board_sectors_are_cells_and_light_up():
    frame = light_frame(view("offboard", fill=fs("S12"), empty=fs("S1"), last_move=fs("I9")))
    assert lit(frame) == {"S12": ("fill", True), "S1": ("empty", True), "I9": ("last", False)}


# --- the die ----------------------------------------------------------------------------
@pytest.mark.parametrize("roll", [None, 1, 2, 3, 4, 5, 6])
@pytest.mark.parametrize("phase", [Phase.PLAY, Phase.ROLLED])
def test_die_pips_show_the_roll_and_zero_without_one(roll, phase):
    assert light_frame(view(phase=phase, roll=roll)).die_pips == (roll or 0)


@pytest.mark.parametrize("roll", [None, 3])
def test_die_pips_are_dark_while_the_die_rolls(roll):
    assert light_frame(view(phase=Phase.ROLLED, roll=roll, rolling=True)).die_pips == 0


def test_die_pips_are_dark_once_the_game_is_over():
    assert light_frame(view(phase=Phase.OVER, roll=4, outcome=WIN)).die_pips == 0


@pytest.mark.parametrize("phase", [Phase.SETUP, Phase.IDENTIFY])
@pytest.mark.parametrize("number", [1, 6])
def test_set_up_shows_the_number_of_the_stone_asked_for(phase, number):
    v = view(phase=phase, identify=number, place=fs("b2") if phase is Phase.SETUP else fs())
    assert light_frame(v).die_pips == number
    assert die_state(v) == DieState(DieFace.VALUE, number)


def test_a_stale_identify_number_is_not_shown_in_play():
    v = view(phase=Phase.PLAY, identify=3)
    assert light_frame(v).die_pips == 0 and die_state(v) == DieState(DieFace.BLANK)


def test_die_display_is_blank_before_a_roll():
    assert die_state(view(phase=Phase.PLAY)) == DieState(DieFace.BLANK, None)


@pytest.mark.parametrize("phase", list(Phase))
def test_die_display_rolls_while_rolling_whatever_else(phase):
    assert die_state(view(phase=phase, rolling=True, roll=5, fill=fs("a1"))) == DieState(DieFace.ROLLING)


@pytest.mark.parametrize("roll", [1, 2, 3, 4, 5, 6])
def test_die_display_shows_the_roll(roll):
    assert die_state(view(phase=Phase.ROLLED, roll=roll)) == DieState(DieFace.VALUE, roll)


@pytest.mark.parametrize("guidance", [{"fill": fs("b3")}, {"empty": fs("b2")}])
def test_die_display_shows_error_with_the_roll_when_the_move_does_not_fit_it(guidance):
    v = view(phase=Phase.ROLLED, roll=4, **guidance)
    assert die_state(v) == DieState(DieFace.ERROR, 4)
    assert light_frame(v).die_pips == 4


def test_guidance_outside_rolled_is_no_die_error():
    v = view(phase=Phase.PLAY, fill=fs("a1"), empty=fs("a2"))
    assert die_state(v) == DieState(DieFace.BLANK)


def test_guidance_only_on_foreign_cells_is_no_die_error():
    assert die_state(view(phase=Phase.ROLLED, roll=2, fill=fs("z9"))) == DieState(DieFace.VALUE, 2)


def test_die_display_is_blank_once_the_game_is_over():
    assert die_state(view(phase=Phase.OVER, roll=6, outcome=WIN)) == DieState(DieFace.BLANK)


def test_off_board_never_uses_the_die():
    for phase in Phase:
        v = view("offboard", phase=phase)
        assert die_state(v) == DieState(DieFace.BLANK) and light_frame(v).die_pips == 0


@pytest.mark.parametrize("bad", [{"roll": 0}, {"roll": 7}, {"phase": Phase.SETUP, "identify": 9}])
def test_a_die_number_outside_1_to_6_is_refused(bad):
    with pytest.raises(ValueError, match="1-6"):
        die_number(view(**bad))


# --- turn indicator ------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("phase", [p for p in Phase if p is not Phase.OVER])
def test_turn_indicator_shows_the_player_to_move(game, phase):
    for player in GAMES[game][1]:
        turn = light_frame(view(game, phase=phase, turn=player)).turn
        assert turn == PLAYER_COLOURS[player] == player
        assert turn in PALETTE


@pytest.mark.parametrize("game", GAMES)
def test_turn_indicator_is_off_once_the_game_is_over(game):
    assert light_frame(view(game, phase=Phase.OVER, outcome=DRAW)).turn is None


def test_the_players_turn_lights_differ_and_black_is_visible():
    assert PALETTE["black"] != PALETTE["white"] and PALETTE["red"] != PALETTE["yellow"]
    assert PALETTE["black"] != (0, 0, 0)


def test_an_unknown_player_is_refused():
    with pytest.raises(ValueError, match="green"):
        light_frame(view(turn="green"))


# --- the palette --------------------------------------------------------------------------
def test_palette_holds_every_cell_and_player_colour_as_valid_rgb():
    assert CELL_COLOURS | set(PLAYER_COLOURS.values()) <= set(PALETTE)
    assert BLINKING == {"fill", "empty", "choose", "place"}
    for rgb in PALETTE.values():
        assert len(rgb) == 3 and all(isinstance(c, int) and 0 <= c <= 255 for c in rgb) and any(rgb)


def test_every_cell_look_is_unique():
    looks = [(PALETTE[c], c in BLINKING) for c in CELL_COLOURS]
    assert len(set(looks)) == len(looks)


# Machado, Oliveira and Fernandes (2009), full-severity dichromacy, on linear RGB.
CVD = {
    "protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritan": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
}


def seen(rgb, matrix):
    lin = [(c / 255 / 12.92) if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    out = [min(1.0, max(0.0, sum(m * x for m, x in zip(row, lin)))) for row in matrix]
    return [255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055) for c in out]


@pytest.mark.parametrize("vision", CVD)
def test_looks_with_the_same_blink_stay_apart_for_colour_blind_players(vision):
    for blink in (True, False):
        group = sorted(c for c in CELL_COLOURS if (c in BLINKING) == blink)
        for a, b in itertools.combinations(group, 2):
            distance = math.dist(seen(PALETTE[a], CVD[vision]), seen(PALETTE[b], CVD[vision]))
            assert distance >= 100, (vision, a, b, round(distance))


def test_the_players_table_names_every_cell_colour():
    text = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")  # "What the lights mean"
    rows = {m.group(1) for m in re.finditer(r"^\|[^|\n]*\|\s*`(\w+)`\s*\|", text, re.M)}
    assert CELL_COLOURS <= rows


# --- every phase, any view: never raises, never lights a foreign cell ---------------------
FOREIGN = ("z9", "J1", "S13")


@st.composite
def views(draw):
    game = draw(st.sampled_from(sorted(GAMES)))
    cells, players = GAMES[game]
    pool = st.sampled_from(cells + FOREIGN)
    subset = st.frozensets(pool, max_size=8)
    return View(
        game=game, phase=draw(st.sampled_from(list(Phase))), turn=draw(st.sampled_from(players)), cells=cells,
        occupied=draw(subset), roll=draw(st.none() | st.integers(1, 6)), rolling=draw(st.booleans()),
        movable=draw(subset), to=draw(subset), last_move=draw(subset), fill=draw(subset), empty=draw(subset),
        choices=tuple(draw(st.lists(subset, max_size=3))), identify=draw(st.none() | st.integers(1, 6)),
        place=draw(subset), outcome=draw(st.sampled_from([None, WIN, DRAW])), winner_cells=draw(subset),
        players=players,
    )


def test_a_shown_move_lifts_and_takes_as_empty_and_puts_as_dest():
    frame = light_frame(view(phase=Phase.PLAY, lift=fs("c3"), take=fs("d1"), dest=fs("e1"), to=fs("e1")))
    assert lit(frame) == {"c3": ("empty", True), "d1": ("empty", True), "e1": ("dest", False)}


@settings(max_examples=seeds(400), deadline=None)
@given(views())
def test_any_view_in_any_phase_gives_a_valid_frame_and_die_state(v):
    frame = light_frame(v)
    assert set(frame.cells) <= set(v.cells)
    for light in frame.cells.values():
        assert light.colour in CELL_COLOURS and light.blink == (light.colour in BLINKING)
    assert 0 <= frame.die_pips <= 6
    assert frame.turn is None if v.phase is Phase.OVER else frame.turn in PALETTE
    state = die_state(v)
    assert state.face is not DieFace.VALUE or state.value is not None
    assert state.face in (DieFace.VALUE, DieFace.ERROR) or state.value is None
    assert state.value is None or 1 <= state.value <= 6
    assert frame == light_frame(v)  # pure: same view, same frame


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("phase", list(Phase))
def test_every_phase_with_everything_set_stays_on_the_board(game, phase):
    cells, players = GAMES[game]
    everything = frozenset(cells) | frozenset(FOREIGN)
    v = View(game=game, phase=phase, turn=players[1], cells=cells, occupied=everything, roll=3,
             movable=everything, to=everything, last_move=everything, fill=everything, empty=everything,
             choices=(everything,), identify=2, place=everything, outcome=DRAW, winner_cells=everything,
             players=players)
    frame = light_frame(v)
    assert list(frame.cells) == list(cells)
    assert all(light == Light("fill", True) for light in frame.cells.values())
    die_state(v)


# --- brightness cap -------------------------------------------------------------------------
def test_scale_keeps_full_brightness_and_darkens_at_zero():
    assert scale((255, 72, 0), 1.0) == (255, 72, 0)
    assert scale((255, 72, 0), 0) == (0, 0, 0)


def test_scale_halves_and_rounds():
    assert scale((200, 101, 0), 0.5) == (100, 51, 0)
    assert scale((255, 255, 255), 0.25) == (64, 64, 64)


def test_scale_never_turns_a_lit_channel_dark_or_an_unlit_one_on():
    assert scale((255, 2, 0), 0.01) == (3, 1, 0)
    for name, rgb in PALETTE.items():
        dim = scale(rgb, 0.001)
        assert [c > 0 for c in dim] == [c > 0 for c in rgb], name


@pytest.mark.parametrize("brightness", [-0.1, 1.5, float("nan"), "1"])
def test_scale_refuses_a_brightness_outside_0_to_1(brightness):
    with pytest.raises(ValueError):
        scale((1, 2, 3), brightness)


@pytest.mark.parametrize("rgb", [(1, 2), (256, 0, 0), (-1, 0, 0), (1.5, 0, 0)])
def test_scale_refuses_a_bad_colour(rgb):
    with pytest.raises(ValueError):
        scale(rgb, 0.5)
