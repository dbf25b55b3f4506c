"""The colours a board's LEDs can show: each light name and its RGB at full brightness.

What a colour means at the table (which cells are lit in it, and when) is the controller's
business (controller/core/signals.py); the board only knows how each name looks. Backends cap
the brightness of the whole chain to the board's current budget (hal.leds).
"""

from __future__ import annotations

RGB = tuple[int, int, int]

PALETTE: dict[str, RGB] = {
    # cells, blinking
    "fill": (0, 64, 255),  # blue
    "empty": (255, 72, 0),  # vermillion
    "choose": (255, 255, 255),  # white
    "place": (0, 255, 128),  # green
    # cells, steady
    "winner": (255, 140, 0),  # amber
    "draw": (160, 0, 255),  # purple
    "to": (255, 255, 255),  # white, bright (steady: told from "choose" by the blink)
    "movable": (0, 255, 128),  # green
    "last": (48, 48, 48),  # dim white
    "dest": (0, 128, 160),  # teal: where the computer's move (or a hint) puts the piece
    # players (turn indicator)
    "black": (0, 0, 160),  # deep blue: an LED cannot shine black
    "white": (255, 255, 255),
    "red": (255, 0, 0),
    "yellow": (255, 200, 0),
}
