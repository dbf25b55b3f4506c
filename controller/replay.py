"""Replay a trace: the referee run on a recorded board's frames and presses, in virtual time.

A replay never reads the wall clock, so it is exact and fast: the same trace always gives
the same record and the same notes.
"""

from __future__ import annotations

from dataclasses import dataclass

from hal.interfaces import Frame

from .reconcile import Settings
from .record import record_lines
from .referee import Die, Note, Referee
from .trace import Trace, TraceError, TracePress, TraceResume

FLUSH = 60.0  # s of virtual time let run after the last event, so pending timers fire


@dataclass
class Replayed:
    referee: Referee
    record: list[str]
    notes: list[Note]


def replay(trace: Trace, source: str = "trace") -> Replayed:
    header = trace.header
    try:
        settings = Settings(**header.get("settings", {}))
    except (TypeError, ValueError) as error:
        raise TraceError(source, 1, f"settings: {error}") from None
    referee = Referee(trace.game(), settings=settings, die=Die(given_only=True))
    start = trace.events[0].t if trace.events else 0.0
    referee.start(start)
    notes: list[Note] = []
    for event in trace.events:
        if isinstance(event, TraceResume):  # a power cut: the referee starts again on its game
            referee.advance(event.t)  # what fell due before the power went was decided and kept
            notes += referee.notes
            referee = Referee(referee.game, settings=settings, die=Die(given_only=True), pending_roll=referee.roll)
            referee.notes.append(Note(event.t, "power back: resuming the game"))
            referee.start(event.t)
            continue
        if isinstance(event, Frame):
            referee.frame(event.t, event.occupied)
        elif isinstance(event, TracePress):
            try:
                referee.press(event.t, event.button, event.roll)
            except ValueError as error:
                raise TraceError(source, None, f"the {event.button} press at t={event.t:g}: {error}") from None
    end = (trace.events[-1].t if trace.events else start) + FLUSH
    referee.advance(end)
    return Replayed(referee, record_lines(referee.game), notes + referee.notes)
