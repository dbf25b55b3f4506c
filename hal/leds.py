"""From a light frame to the colours of an LED chain, within the supply's current budget.

Shared by every backend that drives LEDs (the WS2812 chain on the Pi, the Pico's chain
over serial, the simulated board), so that all of them show exactly the same thing.
"""

from __future__ import annotations

from .board import Board
from .colours import PALETTE, RGB
from .interfaces import LightFrame

# Die pips in the board file's order: top-left, top-right, middle-left, centre,
# middle-right, bottom-left, bottom-right.
PIPS = {
    0: (),
    1: (3,),
    2: (0, 6),
    3: (0, 3, 6),
    4: (0, 1, 5, 6),
    5: (0, 1, 3, 5, 6),
    6: (0, 1, 2, 4, 5, 6),
}
PIP_NAMES = tuple(f"pip{k}" for k in range(1, 8))  # the die pips, in the board file's order
PIP_COLOUR = (255, 255, 255)
MA_PER_CHANNEL = 20.0  # a WS2812 draws about 20 mA per colour channel at full brightness


def chain(frame: LightFrame, board: Board, blink_on: bool = True) -> tuple[list[RGB], list[bool]]:
    """Each LED's colour at full brightness and whether it blinks; blinking LEDs are dark when
    `blink_on` is False (the off half of a blink)."""
    colours: list[RGB] = [(0, 0, 0)] * board.led_count
    blinking = [False] * board.led_count
    for cell, light in frame.cells.items():
        index = board.led.get(cell)
        if index is None:
            continue
        blinking[index] = light.blink
        if blink_on or not light.blink:
            colours[index] = PALETTE[light.colour]
    if board.die_pips:
        for pip in PIPS.get(frame.die_pips, ()):
            colours[board.die_pips[pip]] = PIP_COLOUR
    if board.turn_led is not None and frame.turn is not None:
        colours[board.turn_led] = PALETTE[frame.turn]
    return colours, blinking


def led_names(board: Board) -> dict[int, str]:
    """Each LED of the chain the board file places -> what it is under: a hollow, "pip1".."pip7"
    or "turn"."""
    names = {index: cell for cell, index in board.led.items() if cell in board.cells}
    names.update({index: PIP_NAMES[k] for k, index in enumerate(board.die_pips)})
    if board.turn_led is not None:
        names[board.turn_led] = "turn"
    return names


def current_ma(colours: list[RGB]) -> float:
    return sum(r + g + b for r, g, b in colours) * MA_PER_CHANNEL / 255


def capped(colours: list[RGB], budget_ma: float) -> list[RGB]:
    """The colours dimmed evenly so that the chain draws at most `budget_ma`."""
    drawn = current_ma(colours)
    if drawn <= budget_ma:
        return list(colours)
    factor = budget_ma / drawn
    return [(int(r * factor), int(g * factor), int(b * factor)) for r, g, b in colours]
