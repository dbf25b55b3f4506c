"""What the players see: a View turned into a light frame and a die display state. Pure.

No I/O and no clock: the same View always gives the same LightFrame and DieState, so a
referee, a replay and the web view all show exactly the same thing. Blinking is a flag on
each Light; the LED backend owns the blink rhythm. Buzzer cues are chosen by the referee.

The colour language (names are keys of PALETTE)
-----------------------------------------------
Blinking means "do something here"; steady means "for your information". What each light
means to the players, its look in words and what to do: words/legend.py, the one table
of them (the rules page shows it, docs/players.md holds the same rows). Each lights the cells
of one set of the View:

    fill      view.fill                     winner    view.winner_cells
    empty     view.empty, lift, take        dest      view.dest
    choose    any of view.choices           draw      view.occupied
    place     view.place                    to        view.to
    movable   view.movable                  last      view.last_move

Colour-blind players: blue (fill) and vermillion (empty) are the pair that protan, deutan
and tritan vision all keep apart (Okabe and Ito's palette); "choose" is white, which no
colour vision mistakes for either. The tests check that the looks which can appear
together stay apart under simulated protan, deutan and tritan vision. Two looks share a
hue and differ by blink: green means "this stone" (blinking in set-up: put it here;
steady in play: it may move), and white blinks bright for "choose" but is steady and dim
for "last". A blink rhythm of its own for fill and for empty would help further, but a
Light carries only a blink flag.

Precedence: a cell in several sets shows the first that applies, in this order
    fill > empty > choose > place > winner/draw > dest > to > movable > last.
The computer's move (or a hint) shows the pieces to lift and what it captures or pushes off
as "empty" (take the piece off here: the same instruction), and where it goes as "dest"; a
game that gives its moves' steps (Game.hand_steps) is shown one piece at a time, as the board
stands (Game.move_lights).
Guidance to get the board back (fill, empty) wins over everything; ambiguity wins over
the normal play display. Winner and draw apply only in Phase.OVER with an outcome
(winner None = draw). Cells not in view.cells are never lit; unlit cells are dark.

Turn indicator: view.turn's palette name (players "black", "white", "red", "yellow" are
palette names themselves; LEDs cannot shine black, so "black" is a deep blue), None in
Phase.OVER.

The die (pips and die display) shows one number, chosen in this order:
    - view.rolling: the die display runs its ROLLING animation and the pips are dark (0),
      so the value is not given away before the animation ends;
    - Phase.OVER: blank, pips 0;
    - view.roll (1-6): the value; in Phase.ROLLED with fill/empty guidance shown (the
      move made does not fit the roll, or is not legal) the display shows ERROR, still
      carrying the roll in DieState.value, and the pips keep showing the roll;
    - set-up (Phase.SETUP or Phase.IDENTIFY) with view.identify (1-6): the number of the
      stone being asked for;
    - otherwise blank, pips 0.
"""

from __future__ import annotations

import math

from reedboard.hal.colours import PALETTE
from reedboard.hal.interfaces import DieFace, DieState, Light, LightFrame

from .view import Phase, View

__all__ = [
    "BLINKING", "CELL_COLOURS", "PALETTE", "PLAYER_COLOURS", "PRECEDENCE",
    "die_number", "die_state", "light_frame", "scale",
]

# PALETTE (colour name -> RGB) is the board's, from hal.colours; what each name means is above.

# Which cell colours blink; the rest are steady.
BLINKING: frozenset[str] = frozenset({"fill", "empty", "choose", "place"})

# Cell colours, first wins when a cell is in several sets ("winner" and "draw" share a rank).
PRECEDENCE: tuple[str, ...] = ("fill", "empty", "choose", "place", "winner", "draw", "dest", "to", "movable", "last")
CELL_COLOURS: frozenset[str] = frozenset(PRECEDENCE)

# Player -> palette name of the turn indicator.
PLAYER_COLOURS: dict[str, str] = {"black": "black", "white": "white", "red": "red", "yellow": "yellow"}


def _layers(view: View) -> list[tuple[str, frozenset[str]]]:
    """(colour, cells) in precedence order, for the sets that apply to this view."""
    layers: list[tuple[str, frozenset[str]]] = [
        ("fill", view.fill),
        ("empty", view.empty | view.lift | view.take),
        ("choose", frozenset().union(*view.choices)),
        ("place", view.place),
    ]
    if view.phase is Phase.OVER and view.outcome is not None:
        if view.outcome.winner is None:
            layers.append(("draw", view.occupied))
        else:
            layers.append(("winner", view.winner_cells))
    layers += [("dest", view.dest), ("to", view.to), ("movable", view.movable), ("last", view.last_move)]
    return layers


def light_frame(view: View) -> LightFrame:
    """The LEDs for `view`: lit cells in board order, die pips, turn indicator."""
    layers = _layers(view)
    cells: dict[str, Light] = {}
    for cell in view.cells:
        for colour, members in layers:
            if cell in members:
                cells[cell] = Light(colour, blink=colour in BLINKING)
                break
    pips = 0 if view.rolling else (die_number(view) or 0)
    return LightFrame(cells=cells, die_pips=pips, turn=_turn(view))


def _turn(view: View) -> str | None:
    if view.phase is Phase.OVER:
        return None
    try:
        return PLAYER_COLOURS[view.turn]
    except KeyError:
        raise ValueError(f"no turn colour for player {view.turn!r}") from None


def _die_value(n: int | None, what: str) -> int | None:
    if n is not None and not (isinstance(n, int) and 1 <= n <= 6):
        raise ValueError(f"{what} must be 1-6, not {n!r}")
    return n


def die_number(view: View) -> int | None:
    """The number the die shows (ignoring the rolling animation): see the module docstring."""
    if view.phase is Phase.OVER:
        return None
    roll = _die_value(view.roll, "view.roll")
    if roll is not None:
        return roll
    if view.phase in (Phase.SETUP, Phase.IDENTIFY):
        return _die_value(view.identify, "view.identify")
    return None


def _guidance_shown(view: View) -> bool:
    return not (view.fill | view.empty).isdisjoint(view.cells)


def die_state(view: View) -> DieState:
    """The electronic die display for `view`: see the module docstring."""
    if view.rolling:
        return DieState(DieFace.ROLLING)
    number = die_number(view)
    if view.phase is Phase.ROLLED and _guidance_shown(view):
        return DieState(DieFace.ERROR, number)
    if number is None:
        return DieState(DieFace.BLANK)
    return DieState(DieFace.VALUE, number)


def scale(rgb: tuple[int, int, int], brightness: float) -> tuple[int, int, int]:
    """`rgb` dimmed to `brightness` (0..1), for capping LED current.

    Rounded to the nearest step, but a channel that is on stays at least 1 while
    brightness is above 0, so a low cap never turns a lit LED dark or changes its hue
    to another. Brightness 0 is dark, 1 returns `rgb` unchanged.
    """
    if not (isinstance(brightness, (int, float)) and 0.0 <= brightness <= 1.0):  # NaN fails too
        raise ValueError(f"brightness must be between 0 and 1, not {brightness!r}")
    if len(rgb) != 3 or not all(isinstance(c, int) and 0 <= c <= 255 for c in rgb):
        raise ValueError(f"rgb must be three integers 0-255, not {rgb!r}")
    if brightness == 0:
        return (0, 0, 0)
    r, g, b = (max(1, math.floor(c * brightness + 0.5)) if c else 0 for c in rgb)
    return (r, g, b)
