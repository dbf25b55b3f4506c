"""The seam between the controller and a board: what a board senses and what it shows.

The controller talks only to these interfaces; gpio, serial and sim backends implement
them. Values that cross the seam (light frames, die display states, cues) are plain,
immutable data so that they can be compared in tests and sent over a wire.
"""

from __future__ import annotations

import enum
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class Frame:
    """What the sensors report at time `t` (seconds): the set of occupied cells."""

    t: float
    occupied: frozenset[str]


class Button(enum.Enum):
    DIE = "die"  # roll the electronic die
    OK = "ok"  # confirm


@dataclass(frozen=True)
class Press:
    t: float
    button: Button
    long: bool = False  # held for the long-press time


@dataclass(frozen=True)
class Light:
    """One cell's LED: a colour name from signals.PALETTE, steady or blinking."""

    colour: str
    blink: bool = False


@dataclass(frozen=True)
class LightFrame:
    """Everything the LEDs show at once: lit cells (unlisted cells are dark), the die's pips
    (0 = dark) and the turn indicator (a player's colour name, or None)."""

    cells: Mapping[str, Light] = field(default_factory=dict)
    die_pips: int = 0
    turn: str | None = None


class DieFace(enum.Enum):
    BLANK = "blank"
    ROLLING = "rolling"
    VALUE = "value"
    ERROR = "error"


@dataclass(frozen=True)
class DieState:
    face: DieFace = DieFace.BLANK
    value: int | None = None  # with VALUE, and with ERROR (the roll stays known): 1-6


class LinkState(enum.Enum):
    """Whether a board that can be unplugged (the serial backend) is there."""

    CONNECTING = "connecting"  # not heard from yet
    CONNECTED = "connected"
    LOST = "lost"  # unplugged, silent or refused: its sensors say nothing


@dataclass(frozen=True)
class Link:
    """The link to the board since time `t` (seconds). `why` says why it is lost: "unplugged"
    (the port vanished), "silent" (the port is open but the board does not answer) or
    "refused" (it speaks another protocol or describes another board)."""

    t: float
    state: LinkState
    why: str = ""


class Cue(enum.Enum):
    """Short buzzer sounds."""

    MOVE = "move"  # a move was accepted
    ILLEGAL = "illegal"  # the board and the game disagree: look at the lights
    CHOOSE = "choose"  # several moves fit: touch one
    TAKEBACK = "takeback"
    ROLL = "roll"
    REFUSED = "refused"  # a button press that cannot be obeyed now
    READY = "ready"  # the set-up is complete
    GAME_OVER = "game-over"


# A backend is usually one object that is all of these at once; its show() then takes a
# LightFrame or a DieState and tells them apart by type.


class Sensors(Protocol):
    cells: tuple[str, ...]

    def frames(self) -> AsyncIterator[Frame]: ...


class Lights(Protocol):
    def show(self, frame: LightFrame) -> None: ...


class DieDisplay(Protocol):
    def show(self, state: DieState) -> None: ...


class Buttons(Protocol):
    def presses(self) -> AsyncIterator[Press]: ...


class Buzzer(Protocol):
    def play(self, cue: Cue) -> None: ...


class LinkWatch(Protocol):
    """Optional: a board that can be unplugged says so. `link` is the state now; links()
    yields it, then every change. A board without them (sim, gpio) is always connected."""

    link: Link

    def links(self) -> AsyncIterator[Link]: ...
