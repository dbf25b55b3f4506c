"""Live play: the referee on a board in real time, its journal and its flight recorder.

The board's sensors and buttons are async streams (hal interfaces); the referee is driven
by them and by the clock, in one asyncio loop, so nothing fights over its state. The
referee only decides (controller.core.decisions); here its decisions are carried out: the
inputs go to the flight recorder, the lines to the journal (written behind the trace), the
lights, the die display and the buzzer to the board.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from dataclasses import asdict
from datetime import datetime
from pathlib import Path

from reedboard.hal.interfaces import Buttons, Frame, Press, Sensors

from ..core.clock import ClockSettings
from ..core.computer import Computer, Question
from ..core.decisions import (
    Changed, Decision, DieShows, JournalLine, Lights, PlayBegan, Recorded, Sound, record, write_line,
)
from ..games import Game, header_keys
from ..persist.game_files import trace_path
from ..persist.journal_format import DECISIONS, JournalContents, JournalError, game_header
from ..persist.journal_replay import rebuild
from ..persist.journal_reader import read_journal
from ..persist.journal import Journal
from ..core.reconcile import Settings
from ..persist.flight_recorder import FlightRecorder, GuardedJournal
from ..core.referee import Outputs, Referee
from ..core.rolling import Die
from .replay import replay
from ..language.catalogue import PLAY
from ..persist.trace import read_trace

TRACE_SETTINGS = ("debounce", "settle", "grace")
START_KEYS = ("game", *sorted(header_keys()))  # a header's game and its start position


def live_die() -> Die:
    """The board's die in play: unpredictable (the system's own randomness)."""
    return Die(random.SystemRandom())


class LiveReferee(Referee):
    """A referee whose decisions are carried out as it makes them: the board's signals to
    `outputs`, the inputs to the flight `recorder`, the lines to the `journal` (opened by
    `open_journal` as play begins, when there is none yet). Each may be left out. Each input
    still returns what it decided (carried out already)."""

    def __init__(self, game: Game, *, outputs: Outputs | None = None, journal=None,
                 open_journal: Callable[[PlayBegan], object] | None = None,
                 recorder: FlightRecorder | None = None, die: Die | None = None,
                 rng: random.Random | None = None, **rules) -> None:
        super().__init__(game, die=die or (Die(rng) if rng is not None else live_die()), rng=rng, **rules)
        self.outputs = outputs or Outputs()
        self.journal = journal  # None until the game is set up, unless resuming
        self.recorder = recorder
        self._open_journal = open_journal

    def carry_out(self, decisions: Iterable[Decision]) -> None:
        """Do what the referee decided, in its order (a journal line after the input that led to it)."""
        outputs = self.outputs
        for decision in decisions:
            if isinstance(decision, Recorded):
                if self.recorder is not None:
                    record(self.recorder, decision)
            elif isinstance(decision, JournalLine):
                if self.journal is not None:
                    write_line(self.journal, decision)
            elif isinstance(decision, PlayBegan):
                if self.journal is None and self._open_journal is not None:
                    self.journal = self._open_journal(decision)
            elif isinstance(decision, Lights):
                if outputs.lights:
                    outputs.lights(decision.frame)
            elif isinstance(decision, DieShows):
                if outputs.die:
                    outputs.die(decision.state)
            elif isinstance(decision, Sound):
                if outputs.buzzer:
                    outputs.buzzer(decision.cue)
            elif isinstance(decision, Changed):
                if outputs.changed:
                    outputs.changed()

    def _carried_out(self, decisions: list[Decision]) -> list[Decision]:
        self.carry_out(decisions)
        return decisions

    def start(self, t: float) -> list[Decision]:
        return self._carried_out(super().start(t))

    def frame(self, t: float, occupied: Iterable[str]) -> list[Decision]:
        return self._carried_out(super().frame(t, occupied))

    def press(self, t: float, button: str, roll: int | None = None, long: bool = False) -> list[Decision]:
        return self._carried_out(super().press(t, button, roll, long))

    def advance(self, t: float) -> list[Decision]:
        return self._carried_out(super().advance(t))

    def resign(self, t: float, player: str) -> list[Decision]:
        return self._carried_out(super().resign(t, player))

    def agree_draw(self, t: float) -> list[Decision]:
        return self._carried_out(super().agree_draw(t))

    def note(self, t: float, kind: str, **data) -> list[Decision]:
        return self._carried_out(super().note(t, kind, **data))

    def replay_decision(self, t: float, move: str, roll: int | None = None) -> list[Decision]:
        return self._carried_out(super().replay_decision(t, move, roll))

    def ask_hint(self, t: float) -> list[Decision]:
        return self._carried_out(super().ask_hint(t))

    def answer(self, t: float, question: Question, move) -> list[Decision]:
        return self._carried_out(super().answer(t, question, move))


def new_referee(
    game: Game,
    games_dir: str | Path,
    *,
    settings: Settings | None = None,
    setup: str = "given",
    outputs: Outputs | None = None,
    now: Callable[[], datetime] = lambda: datetime.now().astimezone(),
    rng: random.Random | None = None,
    clock: ClockSettings | None = None,
    players: Mapping[str, str] | None = None,
    computer: Computer | None = None,
    written: Callable[[Path, int, dict], None] | None = None,
    occasion: Mapping[str, object] | None = None,
    die: Die | None = None,
) -> LiveReferee:
    """A referee for a new game whose journal and trace go into games_dir once it is set up
    (its header names the `players`, the `computer`'s side and the tournament's game, its
    `occasion`; `written` hears every line; `die`: the board's, unless given)."""
    settings = settings or Settings()
    recorder = FlightRecorder()

    def open_journal(began: PlayBegan) -> GuardedJournal:
        # opened as play begins: the referee's clock then is the game's start, its times count from it
        journal = Journal.create(games_dir, began.game, asdict(settings), now(), clock=clock, players=players,
                                 computer=computer.header() if computer else None, occasion=occasion,
                                 written=written, origin=began.origin)
        timing = {key: getattr(settings, key) for key in TRACE_SETTINGS}
        extra = {"computer": computer.header()} if computer is not None else {}
        recorder.begin(journal.trace_path, {**game_header(began.game), "settings": timing, **extra})
        return recorder.guard(journal)  # every journal line after its cause is on the trace

    return LiveReferee(game, settings=settings, open_journal=open_journal, recorder=recorder,
                       outputs=outputs, setup=setup, rng=rng, clock=clock, computer=computer, die=die)


def resume_referee(path: str | Path, t: float, *, outputs: Outputs | None = None,
                   rng: random.Random | None = None,
                   written: Callable[[Path, int, dict], None] | None = None,
                   die: Die | None = None) -> LiveReferee:
    """A referee for an unfinished game: replayed from its journal, the board guided back to it.

    The trace goes on after a resume marker; where it is missing, a new segment starts. A
    decision the trace shows but the journal lacks (the controller died between recording
    an input and journaling what came of it) is journaled first, so the two agree again."""
    contents = read_journal(path)
    journal = Journal.resume(path, written=written, t=t)
    restarts = 1 + sum(entry["type"] == "resume" for entry in contents.entries)  # this one included
    recorder = FlightRecorder()
    trace = trace_path(path)
    if recorder.resume(trace, t, _trace_header(contents.header), restarts):
        if _journal_what_the_trace_decided(journal, contents, trace):
            contents = read_journal(path)
    resumed = rebuild(contents)
    if resumed.finished:  # the decision caught up with was the game's last
        journal.close()
        recorder.close()
        raise JournalError(path, None, PLAY.gettext("the game is over: there is nothing to resume"))
    settings = Settings(**contents.header.get("settings", {}))
    return LiveReferee(resumed.game, settings=settings, journal=recorder.guard(journal), recorder=recorder,
                       outputs=outputs, pending_roll=resumed.pending_roll, rng=rng, clock=resumed.clock,
                       clock_remaining=resumed.clock_remaining, die=die,
                       computer=Computer.from_header(contents.header.get("computer"), resumed.game.name))


def _trace_header(journal_header: dict) -> dict:
    """A trace header for the game a journal header describes (for a new trace segment)."""
    start = {key: value for key, value in journal_header.items() if key in START_KEYS}
    settings = journal_header.get("settings", {})
    if "computer" in journal_header:
        start["computer"] = journal_header["computer"]
    return {**start, "settings": {key: settings[key] for key in TRACE_SETTINGS if key in settings}}


def _journal_what_the_trace_decided(journal: Journal, contents: JournalContents, trace: Path) -> bool:
    """Journal what the trace, replayed as far as it goes, decided beyond the journal; True if anything.

    Nothing is written unless the journal's entries begin the replay's exactly: a trace that
    does not tell the journal's story is left as it is."""
    try:
        decided = replay(read_trace(trace), str(trace), journal=contents, flush=False).decisions
    except ValueError:  # a trace that cannot be replayed tells nothing more
        return False
    journaled = [entry for entry in contents.entries if entry["type"] in DECISIONS]  # not hints, renames, restarts
    if len(decided) <= len(journaled) or any(map(_differ, journaled, decided)):
        return False
    for entry in decided[len(journaled):]:
        journal.append_entry(entry)
    return True


def _differ(journaled: dict, decided: dict) -> bool:
    """Two entries that are not the same decision (their times and clocks aside)."""
    def what(entry: dict) -> dict:
        return {key: value for key, value in entry.items() if key not in ("t", "clock")}
    return what(journaled) != what(decided)


@contextlib.asynccontextmanager
async def inputs(*streams) -> AsyncIterator[asyncio.Queue]:
    """One queue fed by several async streams (frames, presses) while the block runs."""
    queue: asyncio.Queue = asyncio.Queue()

    async def pump(stream) -> None:
        async for item in stream:
            await queue.put(item)

    tasks = [asyncio.create_task(pump(stream)) for stream in streams]
    try:
        yield queue
    finally:
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def next_input(queue: asyncio.Queue, machine, clock: Callable[[], float], poll: float | None = None):
    """The next frame or press, at a time never older than what the machine (a referee, a
    guide) has decided; None after letting its timers run when its next deadline came first.

    It sleeps until the next input or the machine's next deadline, whichever comes first;
    with no deadline pending, until the next input (`poll`, if given, wakes it at least that
    often: for a machine whose deadlines may move without an input)."""
    if not queue.empty():  # a board reporting fast: no timer to set up
        return _in_time(queue.get_nowait(), machine)
    deadline = machine.next_deadline()
    timeout = None if deadline is None else max(0.0, deadline - clock())
    if poll is not None:
        timeout = poll if timeout is None else min(poll, timeout)
    try:
        item = await asyncio.wait_for(queue.get(), timeout)
    except TimeoutError:
        machine.advance(max(clock(), machine.now))
        return None
    return _in_time(item, machine)


def _in_time(item, machine):
    """An input at a time never older than what the machine has decided (None: stopped)."""
    return None if item is None else dataclasses.replace(item, t=max(item.t, machine.now))


async def _when_set(event: asyncio.Event) -> AsyncIterator[None]:
    """One item (None) once `event` is set."""
    await event.wait()
    yield None


async def _each_time_set(event: asyncio.Event) -> AsyncIterator[None]:
    """An item (None) every time `event` is set."""
    while True:
        await event.wait()
        event.clear()
        yield None


async def run(referee: LiveReferee, sensors: Sensors, buttons: Buttons | None = None, *,
              clock: Callable[[], float] = time.monotonic, stop: asyncio.Event | None = None,
              poll: float | None = None, wake: asyncio.Event | None = None) -> None:
    """Referee the game until `stop` is set: frames, presses and timers in one loop.

    Between inputs it sleeps until the referee's next deadline, or with none pending until the
    next input: an idle board costs nothing. `poll` (seconds) wakes it at least that often;
    `wake`, set, makes it look at the referee's deadlines again (changed from outside)."""
    streams = [sensors.frames()] + ([buttons.presses()] if buttons is not None else [])
    if stop is not None:
        streams.append(_when_set(stop))  # wakes the loop from its sleep when stopped
    if wake is not None:
        streams.append(_each_time_set(wake))
    async with inputs(*streams) as queue:
        referee.start(clock())
        while stop is None or not stop.is_set():
            item = await next_input(queue, referee, clock, poll)
            if isinstance(item, Frame):
                referee.frame(item.t, item.occupied)
            elif isinstance(item, Press):
                referee.press(item.t, item.button.value, long=item.long)
