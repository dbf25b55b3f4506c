"""The settings a game is played with, checked where they are made: the recogniser's times
(Settings: debounce, settle, grace, takebacks) and the game clock's (ClockSettings: minutes and
an increment), and how a message shows a value someone gave (brief).

They stand on the ground floor because every room reads or writes them: the configuration
file and the command line make them, a new game from the page checks them, the journal and
the trace keep them in their headers, the recogniser and the clock run on them. Each refuses a
value it cannot use with a ValueError of one line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..language.phrases import Phrasebook

phrase = Phrasebook("play")

__all__ = ["ClockSettings", "Settings", "brief"]

_SPEC = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(?:\+\s*(\d+(?:\.\d+)?))?\s*")
LOW_SHARE = 0.1  # the clock's low-time warning: a tenth of the starting time ...
LOW_MOST = 30.0  # ... but never more than 30 s


def brief(value: object, width: int = 40) -> str:
    """A value someone gave, as a message shows it: short, and one line."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an integer of too many digits; nesting too deep
        text = f"a {type(value).__name__}"
    return text if len(text) <= width else text[:width - 3] + "..."


@dataclass(frozen=True)
class Settings:
    debounce: float = 0.020  # s a cell must hold a new state before it counts
    settle: float = 0.8  # s the board must be still before a result that may still grow counts
    grace: float = 1.5  # s before a board that fits no move is signalled
    takebacks: bool = True  # the board back on the previous position undoes the last move

    # The seconds each time may take. Shorter, and a switch's bounce or a hand still moving
    # would count as the players' decision; longer, and the board would seem dead to them.
    # Every way in (the configuration, a new game from the web view, a journal or trace
    # header) is checked against these.
    BOUNDS = {"debounce": (0.001, 1.0), "settle": (0.05, 10.0), "grace": (0.1, 60.0)}

    def __post_init__(self) -> None:
        for name, (low, high) in self.BOUNDS.items():
            value = getattr(self, name)
            rule = f"setting {name} must be a number of seconds from {low:g} to {high:g}"
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise ValueError(f"{rule}, not {brief(value)}")
            try:
                seconds = float(value)
            except OverflowError:  # an integer beyond any float
                raise ValueError(f"{rule}, not a {'negative ' if value < 0 else ''}number too big"
                                 f" for seconds ({value.bit_length()} bits)") from None
            if not low <= seconds <= high:  # NaN fails too
                raise ValueError(f"{rule}, not {seconds:g}")
            object.__setattr__(self, name, seconds)
        if not isinstance(self.takebacks, bool):
            raise ValueError(f"setting takebacks must be true or false, not {brief(self.takebacks)}")

    @classmethod
    def from_mapping(cls, data: object, known: Iterable[str] | None = None) -> Settings:
        """Settings from an object such as {"settle": 0.8} (a header's, a request's); ValueError
        names an unknown setting (`known`: the names allowed, default all) or a bad value."""
        known = tuple(known) if known is not None else tuple(cls.__dataclass_fields__)
        if not isinstance(data, dict):
            raise ValueError(f'settings are an object such as {{"settle": 0.8}}, not {brief(data)}')
        for key in data:
            if key not in known:
                raise ValueError(f"unknown setting {brief(key)} (known: {', '.join(sorted(known))})")
        return cls(**data)


@dataclass(frozen=True)
class ClockSettings:
    minutes: float  # each player's time at the start
    increment: float = 0.0  # seconds added to a player's time for each move they make

    def __post_init__(self) -> None:
        for name, low, high in (("minutes", 0.0, 600.0), ("increment", 0.0, 600.0)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                if name == "minutes":
                    raise ValueError(phrase("clock minutes must be a number, not {value}", value=repr(value)))
                raise ValueError(phrase("clock increment must be a number, not {value}", value=repr(value)))
            if not low <= value <= high or (name == "minutes" and value == 0):
                limits = {"low": f"{low:g}", "high": f"{high:g}", "value": f"{value:g}"}
                if name == "minutes":
                    raise ValueError(phrase("clock minutes must be more than {low} and at most {high}, not {value}",
                                            **limits))
                raise ValueError(phrase("clock increment must be at least {low} and at most {high}, not {value}",
                                        **limits))

    @classmethod
    def parse(cls, text: str) -> ClockSettings:
        """`10` (ten minutes each) or `5+3` (five minutes, three seconds a move)."""
        match = _SPEC.fullmatch(text)
        if not match:
            raise ValueError(phrase("a clock is MINUTES or MINUTES+SECONDS (e.g. 10 or 5+3), not {text}",
                                    text=repr(text)))
        return cls(float(match.group(1)), float(match.group(2) or 0))

    @property
    def initial(self) -> float:
        return self.minutes * 60.0

    @property
    def low_mark(self) -> float:
        """Seconds left under which a player is warned."""
        return min(LOW_MOST, LOW_SHARE * self.initial)

    def __str__(self) -> str:
        return f"{self.minutes:g}+{self.increment:g}"
