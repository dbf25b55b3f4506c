"""What the referee decided, as values: the edge of the program carries them out.

The referee does no I/O. Each of its inputs (a frame, a press, the passing of time, an
answer of the search) returns the decisions it made, in the order they were made:

- PlayBegan:  the set-up is done; the game's journal and trace open now
- Recorded:   an input for the flight recorder (a frame, a press, the computer's decision)
- JournalLine: a line the journal keeps (a roll, a move, a takeback, an amend, the result, a hint)
- Lights, DieShows, Sound: what the board is told to show and to sound
- Changed:    what a page shows changed (the view, the notes)

Live play (controller.session.live) writes and signals them; a replay
(controller.session.replay) keeps the journal lines and drops the rest. The order matters:
a journal line is written only after the trace holds the input that led to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from reedboard.hal.interfaces import Cue, DieState, LightFrame

from ..games import Game

@dataclass(frozen=True)
class PlayBegan:
    """The set-up is done and play begins: the game's journal opens now. `origin` is the
    referee's clock then: the journal's times count from it."""

    t: float
    origin: float
    game: Game = field(compare=False)


@dataclass(frozen=True)
class Recorded:
    """An input as the flight recorder keeps it: a frame (t, occupied), a press (t, button,
    the value rolled) or the computer's decision (t, move, the value rolled)."""

    kind: str
    args: tuple

    @property
    def t(self) -> float:
        return self.args[0]


@dataclass(frozen=True)
class JournalLine:
    """A line of the journal: `kind` and its fields in the order the journal takes them
    (roll: player, value; move: move, and each player's time left in `clock`; takeback: move;
    amend: old, new; result: result, reason, winner; hint: player, move)."""

    t: float
    kind: str
    fields: tuple
    clock: Mapping[str, float] | None = None


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
    """Write a journal line to a journal (controller.persist.journal.Journal or one that
    writes as it does): its append_<kind> method."""
    append = getattr(journal, "append_" + line.kind)
    if line.kind == "move":
        append(line.t, *line.fields, clock=line.clock)
    else:
        append(line.t, *line.fields)
