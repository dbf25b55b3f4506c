"""Replay a trace: the referee run on a recorded board's frames and presses, in virtual time.

A replay never reads the wall clock, so it is exact and fast: the same trace always gives
the same record and the same notes.

A resume marker is a restart of the controller. Before it, time runs only as far as the
last recorded event: the controller recorded a frame repeating the board whenever time
alone made it decide something, so whatever was still pending then never happened. After
it, the referee is rebuilt as the controller rebuilt it, from what had been decided so far
(the journal's entries, which the replay keeps as it goes).

The end of a trace is like a marker when the game's journal is at hand (the trace was
recorded with it); a trace without one, written by hand, has time run on after its last event
so that what was pending falls due.

A trace segment (a trace that starts with resume markers, begun where a resumed game's
trace was missing) starts from the game as its journal had it at that restart: the journal
next to the segment, or the one given.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from itertools import islice
from pathlib import Path

from reedboard.hal.interfaces import Frame

from ..core.computer import Computer
from ..core.decisions import Decision, JournalLine, PlayBegan, write_line
from ..persist.game_files import SUFFIX, TRACE_SUFFIX
from ..persist.journal_format import JournalContents, JournalError
from ..persist.journal_replay import rebuild
from ..persist.journal_reader import read_journal
from ..core.reconcile import Settings
from ..persist.notation import record_lines
from ..core.referee import Note, Referee
from ..core.view import NoteKind
from ..core.rolling import Die
from ..persist.trace import (
    Trace, TraceDecision, TraceEnd, TraceError, TracePress, TraceResume,
)
from ..language.phrases import Phrase, Phrasebook, message_of

phrase = Phrasebook("play")  # said where a trace's problem is shown, in the language in use
FLUSH = 60.0  # s of virtual time let run after the last event, so pending timers fire


@dataclass
class Replayed:
    referee: Referee
    record: list[str]
    notes: list[Note]
    decisions: list[dict] = field(default_factory=list)  # what was decided, as journal entries


class Decisions:
    """What the replayed referees decided, kept in the journal's own entry shapes: a restart
    rebuilds the game from them exactly as the controller rebuilds it from its journal."""

    def __init__(self, entries: list[dict] | None = None) -> None:
        self.entries = list(entries or [])
        self.origin = 0.0  # the game's start on the trace's clock: times are kept from it, as the journal's

    def opened(self, t: float) -> Decisions:
        """Play began at `t` (where the controller opened the game's journal)."""
        self.origin = t
        return self

    def going_on(self, t: float) -> None:
        """The controller started again at `t`: the game's times go on from its last."""
        last = max((entry["t"] for entry in self.entries if "t" in entry), default=0.0)
        self.origin = t - last

    def _since_start(self, t: float) -> float:
        return round(t - self.origin, 3) if self.origin else t

    def append_roll(self, t: float, player: str, value: int, free: bool = False) -> None:
        entry = {"type": "roll", "t": self._since_start(t), "player": player, "value": value}
        if free:  # a number kept over a takeback: a big-ball move may drop it (R19)
            entry["free"] = True
        self.entries.append(entry)

    def append_move(self, t: float, move_text: str, clock: Mapping[str, float] | None = None) -> None:
        entry = {"type": "move", "t": self._since_start(t), "move": move_text}
        if clock is not None:
            entry["clock"] = dict(clock)
        self.entries.append(entry)

    def append_takeback(self, t: float, move_text: str) -> None:
        self.entries.append({"type": "takeback", "t": self._since_start(t), "move": move_text})

    def append_amend(self, t: float, old_text: str, new_text: str) -> None:
        self.entries.append({"type": "amend", "t": self._since_start(t), "old": old_text, "new": new_text})

    def append_result(self, t: float, result: str, reason: str, winner: str | None) -> None:
        self.entries.append({"type": "result", "t": self._since_start(t), "result": result, "reason": reason, "winner": winner})

    def append_hint(self, t: float, player: str, move_text: str) -> None:
        pass  # a hint decides nothing


class _Notes:
    """Every note of the replay, taken from each referee as they come (a referee keeps only its newest)."""

    def __init__(self) -> None:
        self.notes: list[Note] = []
        self._referee: Referee | None = None
        self._seen = 0

    def follow(self, referee: Referee) -> None:
        self.collect()
        self._referee, self._seen = referee, referee.notes_total

    def collect(self) -> None:
        referee = self._referee
        if referee is None:
            return
        fresh = referee.notes_total - self._seen
        if fresh > 0:
            self.notes += reversed(list(islice(reversed(referee.notes), fresh)))
            self._seen = referee.notes_total


def replay(trace: Trace, source: str = "trace", *, journal: str | Path | JournalContents | None = None,
           flush: bool | None = None) -> Replayed:
    """The game the trace's board and buttons make, with every note the players were shown.

    journal: the game's journal, for its clock and takebacks and, for a trace segment, where it starts;
    when None, the journal next to `source` (a trace file's path) is used if there is one.
    flush: after the last event let time run on (FLUSH), so that what was pending falls due (a
    trace written by hand); False replays the trace as far as it goes, as the controller left it
    (it recorded when time alone decided something). None: False when there is a journal."""
    header = trace.header
    try:
        settings = Settings(**header.get("settings", {}))
    except (TypeError, ValueError) as error:
        raise TraceError(source, 1, phrase("settings: {problem}", problem=message_of(error))) from None
    leading = next((n for n, e in enumerate(trace.events) if not isinstance(e, TraceResume)), len(trace.events))
    contents = _journal(journal, source, needed=leading > 0)
    takebacks = contents.header.get("settings", {}).get("takebacks") if contents is not None else None
    if isinstance(takebacks, bool):  # a trace header keeps only the times; the journal has the rest
        settings = replace(settings, takebacks=takebacks)
    if leading and contents is None:
        raise TraceError(source, None, phrase("a trace segment (it starts at a restart of its game) replays only"
                                              " with its journal: keep it next to the game's journal"))
    # A rebuild reads the game's start from this header, and its clock from the journal's.
    start = dict(header)
    if contents is not None and "clock" in contents.header:
        start["clock"] = contents.header["clock"]
    decisions = Decisions(_before_restart(contents, leading, source) if leading else [])
    computer = Computer.from_header(header.get("computer"))  # its chosen move is the only one read
    notes = _Notes()

    journal_open = False  # the first referee's decisions are kept once play begins (its journal opens)

    def keep(decided: list[Decision]) -> None:
        """What the referee decided that the journal keeps; the board's signals are not replayed."""
        nonlocal journal_open
        for decision in decided:
            if isinstance(decision, PlayBegan) and not journal_open:
                decisions.opened(decision.origin)
                journal_open = True
            elif isinstance(decision, JournalLine) and journal_open:
                write_line(decisions, decision)

    def restarted(t: float) -> Referee:
        nonlocal journal_open
        try:
            resumed = rebuild(JournalContents(start, decisions.entries))
        except JournalError as error:
            raise TraceError(source, None, phrase("the game cannot go on at the restart at t={t}: {problem}",
                                                  t=format(t, "g"), problem=error.problem)) from None
        decisions.going_on(t)
        journal_open = True  # the controller went on with the game's journal
        referee = Referee(resumed.game, settings=settings, die=Die(given_only=True),
                          pending_roll=resumed.pending_roll, clock=resumed.clock,
                          clock_remaining=resumed.clock_remaining, computer=computer)
        notes.collect()
        notes.notes.append(Note(t, NoteKind.RESUMED))
        notes.follow(referee)
        keep(referee.start(t))
        return referee

    clock = rebuild(JournalContents(start, [])).clock
    referee = Referee(trace.game(), settings=settings, die=Die(given_only=True), clock=clock, computer=computer)
    notes.follow(referee)
    first_t = trace.events[0].t if trace.events else 0.0
    if not leading:
        keep(referee.start(first_t))
    for event in trace.events:
        if isinstance(event, TraceResume):
            # The controller went on from what it had decided by its last recorded event; a
            # timer still pending then (a settle, a grace) died with it.
            referee = restarted(event.t)
            continue
        if isinstance(event, Frame):
            keep(referee.frame(event.t, event.occupied))
        elif isinstance(event, TraceDecision):
            try:
                keep(referee.replay_decision(event.t, event.move, event.roll))
            except ValueError as error:
                raise TraceError(source, None, phrase("the computer's decision at t={t} ({move}): {problem}",
                                                      t=format(event.t, "g"), move=event.move,
                                                      problem=first_line(error))) from None
        elif isinstance(event, TraceEnd):
            if event.end == "resign":
                if event.player not in referee.game.players:
                    raise TraceError(source, None, phrase("the resignation at t={t}: no player {player}",
                                                          t=format(event.t, "g"), player=repr(event.player)))
                keep(referee.resign(event.t, event.player))
            else:
                keep(referee.agree_draw(event.t))
        elif isinstance(event, TracePress):
            try:
                keep(referee.press(event.t, event.button, event.roll))
            except ValueError as error:
                pressed = (phrase("the die press at t={t}: {problem}", t=format(event.t, "g"),
                                  problem=message_of(error)) if event.button == "die"
                           else phrase("the ok press at t={t}: {problem}", t=format(event.t, "g"),
                                       problem=message_of(error)))
                raise TraceError(source, None, pressed) from None
        notes.collect()
    if flush or (flush is None and contents is None):
        keep(referee.advance((trace.events[-1].t if trace.events else first_t) + FLUSH))
    notes.collect()
    return Replayed(referee, record_lines(referee.game), notes.notes, decisions.entries)


def first_line(error: BaseException) -> str:
    """An error's message, its first line only when it is no phrase (a phrase is one sentence)."""
    message = message_of(error)
    return message if isinstance(message, Phrase) else str(message).splitlines()[0] if str(message) else message


def _journal(journal, source: str, needed: bool) -> JournalContents | None:
    """The journal given, or the one next to the trace file `source`; None when there is none
    (or, unless it is `needed`, when the one found cannot be read)."""
    if isinstance(journal, JournalContents):
        return journal
    found = journal is None
    if found:
        if not str(source).endswith(TRACE_SUFFIX):
            return None
        journal = str(source)[: -len(TRACE_SUFFIX)] + SUFFIX
        if not Path(journal).is_file():
            return None
    try:
        return read_journal(journal)
    except JournalError as error:
        if found and not needed:
            return None  # only its clock and takebacks were wanted: the trace replays without them
        raise TraceError(source, None, phrase("its journal cannot be used: {problem}",
                                              problem=message_of(error))) from None


def _before_restart(contents: JournalContents, restarts: int, source: str) -> list[dict]:
    """The journal's entries before its `restarts`-th resume line: the game a segment starts from."""
    seen = 0
    for index, entry in enumerate(contents.entries):
        if entry["type"] == "resume":
            seen += 1
            if seen == restarts:
                return [e for e in contents.entries[:index] if e["type"] != "resume"]
    raise TraceError(source, None, phrase("the segment starts at restart {restarts} of its game, but its journal"
                                          " tells of {seen} restarts", restarts=restarts, seen=seen))
