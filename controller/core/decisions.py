"""What the referee decided, as values: the edge of the program carries them out.

The referee does no I/O. Each of its inputs (a frame, a press, the passing of time, an
answer of the search) returns the decisions it made, in the order they were made:

- PlayBegan:  the set-up is done; the game's journal and trace open now
- Recorded:   an input for the flight recorder, one type per kind (FrameRecord, PressRecord,
              ComputerRecord)
- JournalLine: a line the journal keeps, one type per kind (RollLine, MoveLine, TakebackLine,
              AmendLine, ResultLine, HintLine)
- Lights, DieShows, Sound: what the board is told to show and to sound
- Changed:    what a page shows changed (the view, the notes)

Live play (controller.session.live) writes and signals them; a replay
(controller.session.replay) keeps the journal lines and drops the rest. The order matters:
a journal line is written only after the trace holds the input that led to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from reedboard.hal.interfaces import Cue, DieState, LightFrame

from ..games import Game


@dataclass(frozen=True)
class PlayBegan:
    """The set-up is done and play begins: the game's journal opens now. `origin` is the
    referee's clock then: the journal's times count from it."""

    t: float
    origin: float
    game: Game = field(compare=False)


# --- what the flight recorder keeps: one type per kind of input ------------------------------------
@dataclass(frozen=True)
class FrameRecord:
    """A frame: the cells the board read occupied at t."""

    kind: ClassVar[str] = "frame"
    t: float
    occupied: frozenset[str]


@dataclass(frozen=True)
class PressRecord:
    """A button pressed at t, with the value the die drew (None for another button)."""

    kind: ClassVar[str] = "press"
    t: float
    button: str
    roll: int | None = None


@dataclass(frozen=True)
class ComputerRecord:
    """The computer's decision at t: its move's notation (or "roll"), with the value rolled."""

    kind: ClassVar[str] = "computer"
    t: float
    move: str
    roll: int | None = None


Recorded = FrameRecord | PressRecord | ComputerRecord


def record(recorder, decision: Recorded) -> None:
    """Give the flight recorder (controller.persist.flight_recorder.FlightRecorder, or one that
    records as it does) an input."""
    match decision:
        case FrameRecord(t=t, occupied=occupied):
            recorder.frame(t, occupied)
        case PressRecord(t=t, button=button, roll=roll):
            recorder.press(t, button, roll)
        case ComputerRecord(t=t, move=move, roll=roll):
            recorder.computer(t, move, roll)


# --- the journal's lines: one type per kind -------------------------------------------------------
@dataclass(frozen=True)
class RollLine:
    """The die rolled `value` for `player`; `free`: a number kept over a takeback, which a
    big-ball move may drop (R19)."""

    kind: ClassVar[str] = "roll"
    t: float
    player: str
    value: int
    free: bool = False


@dataclass(frozen=True)
class MoveLine:
    """A move in the rules' notation, and with a game clock each player's time left after it."""

    kind: ClassVar[str] = "move"
    t: float
    move: str
    clock: Mapping[str, float] | None = None


@dataclass(frozen=True)
class TakebackLine:
    """The last move taken back."""

    kind: ClassVar[str] = "takeback"
    t: float
    move: str


@dataclass(frozen=True)
class AmendLine:
    """The last move changed for another before the next."""

    kind: ClassVar[str] = "amend"
    t: float
    old: str
    new: str


@dataclass(frozen=True)
class ResultLine:
    """How the game ended: the result (1-0 ...), the ending's key and the winner (None: a draw)."""

    kind: ClassVar[str] = "result"
    t: float
    result: str
    reason: str
    winner: str | None


@dataclass(frozen=True)
class HintLine:
    """The engine's best move shown to `player` as a hint."""

    kind: ClassVar[str] = "hint"
    t: float
    player: str
    move: str


JournalLine = RollLine | MoveLine | TakebackLine | AmendLine | ResultLine | HintLine


@dataclass(frozen=True)
class Lights:
    frame: LightFrame


@dataclass(frozen=True)
class DieShows:
    state: DieState


@dataclass(frozen=True)
class Sound:
    cue: Cue


@dataclass(frozen=True)
class Changed:
    """What a page shows changed; `version` counts the changes (RefereeState.version)."""

    version: int


Decision = PlayBegan | Recorded | JournalLine | Lights | DieShows | Sound | Changed


def write_line(journal, line: JournalLine) -> None:
    """Write a journal line to a journal (controller.persist.journal.Journal, or one that
    writes as it does)."""
    match line:
        case RollLine(t=t, player=player, value=value, free=free):
            journal.append_roll(t, player, value, free)
        case MoveLine(t=t, move=move, clock=clock):
            journal.append_move(t, move, clock=clock)
        case TakebackLine(t=t, move=move):
            journal.append_takeback(t, move)
        case AmendLine(t=t, old=old, new=new):
            journal.append_amend(t, old, new)
        case ResultLine(t=t, result=result, reason=reason, winner=winner):
            journal.append_result(t, result, reason, winner)
        case HintLine(t=t, player=player, move=move):
            journal.append_hint(t, player, move)
