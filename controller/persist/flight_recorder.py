"""The flight recorder: every game's raw frames and button presses, kept as a trace file.

Frames arrive from the first moment; the trace's header (the game and its set-up) is only
known once the set-up is done, so what comes before is held and written then.

The disk never holds up the board's loop for a frame: lines are handed to a background
thread that writes them in batches and syncs each batch. What must not be lost is guarded
another way: the journal is written through the recorder (`guard`), and each journal line
waits until the trace holds, synced, what led to it: the frame or the press, or for a
decision that time alone made (a settle, the game clock) a frame at that moment repeating
the board as it was. So a crash never leaves the journal ahead of its trace; the
trace may be ahead by the input being decided, which resuming the game catches up
(controller.session.live).
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from .trace import TraceWriter
from .game_files import sync_directory
from ..language.phrases import Phrasebook

phrase = Phrasebook("commands")


class _Lines:
    """Appends lines to an open file from a background thread, one write and one sync per batch."""

    def __init__(self, file) -> None:
        self._file = file
        self._ready = threading.Condition()
        self._batch: list[bytes] = []
        self._handed = 0  # lines handed over so far
        self._synced = 0  # of those, the ones on disk
        self._closing = False
        self._error: OSError | None = None
        self._thread = threading.Thread(target=self._run, name="flight recorder", daemon=True)
        self._thread.start()

    def put(self, line: bytes) -> None:
        with self._ready:
            self._raise()
            self._batch.append(line)
            self._handed += 1
            self._ready.notify_all()

    def sync(self) -> None:
        """Wait until every line handed over so far is on disk."""
        with self._ready:
            wanted = self._handed
            while self._synced < wanted and self._error is None:
                self._ready.wait()
            self._raise()

    def close(self) -> None:
        with self._ready:
            self._closing = True
            self._ready.notify_all()
        self._thread.join()
        self._file.close()
        self._raise()

    def _raise(self) -> None:
        if self._error is not None:
            raise OSError(phrase("the trace cannot be written: {problem}", problem=self._error)) from self._error

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._batch and not self._closing:
                    self._ready.wait()
                if not self._batch:
                    return
                batch, self._batch = self._batch, []
            try:
                self._file.write(b"".join(batch))
                self._file.flush()
                os.fsync(self._file.fileno())
            except OSError as error:
                with self._ready:
                    self._error = error
                    self._ready.notify_all()
                return
            with self._ready:
                self._synced += len(batch)
                self._ready.notify_all()


class _Trace(TraceWriter):
    """A TraceWriter (the format, its checks, resuming) whose lines go to a background writer."""

    _lines: _Lines | None = None

    def _write(self, data: dict) -> None:
        if self._lines is None:  # started on the first line: resuming may have written a newline first
            self._lines = _Lines(self._file)
        self._lines.put((json.dumps(data) + "\n").encode("utf-8"))

    def sync(self) -> None:
        if self._lines is not None:
            self._lines.sync()

    def close(self) -> None:
        if self._lines is not None:
            self._lines.close()
        else:
            self._file.close()


HEADER_READ = 1 << 20  # bytes: a header line is a few kB even with a game's board definition in it


def _readable_header(path: Path) -> bool:
    """Whether the trace file starts with a whole header line (else nothing in it can be used)."""
    try:
        with open(path, "rb") as file:
            first = file.readline(HEADER_READ)
        header = json.loads(first)
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(header, dict) and "game" in header and first.endswith(b"\n")


class FlightRecorder:
    def __init__(self) -> None:
        self._writer: _Trace | None = None
        self._held: list[Callable[[_Trace], None]] = []  # what came before the trace opened
        self._board: frozenset[str] | None = None  # the last frame: what a time mark repeats
        self._last_t = -math.inf  # of the last event recorded, on the referee's clock
        self._waiting: list[tuple[float, Callable[[], None]]] = []  # journal lines and their times
        self._releasing = False  # a release is scheduled on the event loop

    @property
    def path(self) -> Path | None:
        return None if self._writer is None else self._writer.path

    def begin(self, path: str | Path, header: Mapping) -> None:
        """Start the trace file and write what was held."""
        self._start(_Trace(path, header))

    def resume(self, path: str | Path, t: float, header: Mapping, restarts: int) -> bool:
        """Go on with the trace of a game resumed after a power cut, from time t; True when
        it went on in the trace there was, False when a new segment was started.

        A segment stands where the trace was missing (or unreadable from its first line): the
        header, then a resume marker for each of the game's `restarts` so far (its journal's
        resume lines, this one included), so that a replay knows where in the journal the
        segment starts."""
        path = Path(path)
        going_on = path.exists() and _readable_header(path)
        if not going_on:
            self._begin_segment(path, header, restarts)
        self._start(_Trace.resume(path, t))
        self._writer.sync()  # the marker is on disk before play goes on
        return going_on

    @staticmethod
    def _begin_segment(path: Path, header: Mapping, restarts: int) -> None:
        partial = path.with_name(path.name + ".part")
        partial.unlink(missing_ok=True)  # left by a power cut while a segment was being started
        TraceWriter(partial, header).close()  # the header, checked as every trace's is
        with open(partial, "ab") as file:
            file.write(b"".join((json.dumps({"t": 0.0, "resume": True}) + "\n").encode("utf-8")
                                for _ in range(restarts - 1)))
            file.flush()
            os.fsync(file.fileno())
        os.replace(partial, path)  # only ever over a file with no whole header line: it held nothing
        sync_directory(path.parent)

    def _start(self, writer: _Trace) -> None:
        self._writer = writer
        held, self._held = self._held, []
        for write in held:
            write(self._writer)

    def frame(self, t: float, occupied: Iterable[str]) -> None:
        self.release()  # what earlier inputs and timers decided is journaled before this frame
        self._board = frozenset(occupied)
        board = self._board
        self._record(t, lambda writer: writer.frame(t, board))

    def press(self, t: float, button: str, roll: int | None = None) -> None:
        # The referee tells of a press after acting on it: what it decided waits until now.
        self._record(t, lambda writer: writer.press(t, button, roll))
        self.release()

    def end(self, t: float, end: str, player: str | None = None) -> None:
        """The players ended the game (a resignation, a draw agreed): told after the referee acted on it."""
        self._record(t, lambda writer: writer.end(t, end, player))
        self.release()

    def computer(self, t: float, move: str, roll: int | None = None) -> None:
        # Told after the referee acted on it, as a press is.
        self._record(t, lambda writer: writer.computer(t, move, roll))
        self.release()

    def _record(self, t: float, write: Callable[[_Trace], None]) -> None:
        self._last_t = max(self._last_t, t)
        if self._writer is None:
            self._held.append(write)
        else:
            write(self._writer)

    def mark(self, t: float) -> None:
        """Time reached t with nothing new on the board: a frame repeating it, so that a replay
        lets time run exactly as far (a decision time alone made is then in the trace)."""
        if self._writer is not None and self._board is not None and t > self._last_t:
            board = self._board
            self._record(t, lambda writer: writer.frame(t, board))

    def sync(self) -> None:
        """Wait until everything recorded so far is on disk."""
        if self._writer is not None:
            self._writer.sync()

    # --- the journal, written behind the trace -------------------------------------------------
    def guard(self, journal) -> GuardedJournal:
        """The journal as the referee should write it: each line after what led to it is on the trace."""
        return GuardedJournal(journal, self)

    def hold(self, t: float, write: Callable[[], None]) -> None:
        """A journal line decided at t: `write` is called once the trace holds what led to it."""
        self._waiting.append((t, write))
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # driven step by step (tests): each line at once
            self.release()
            return
        # In the board's loop a press is recorded only after the referee acted on it: the line
        # waits for the end of this step (or the next frame or press, whichever comes first).
        if not self._releasing:
            self._releasing = True
            loop.call_soon(self.release)

    def release(self) -> None:
        """Write the journal lines held: the trace first marks how far time went, and is synced."""
        self._releasing = False
        if not self._waiting:
            return
        waiting, self._waiting = self._waiting, []
        for t, __ in waiting:
            self.mark(t)
        self.sync()
        for __, write in waiting:
            write()

    def close(self) -> None:
        self.release()
        if self._writer is not None:
            self._writer.close()


class GuardedJournal:
    """A journal (controller.persist.journal.Journal) whose lines wait until the trace holds their cause."""

    def __init__(self, journal, recorder: FlightRecorder) -> None:
        self._journal = journal
        self._recorder = recorder

    @property
    def path(self) -> Path:
        return self._journal.path

    @property
    def trace_path(self) -> Path:
        return self._journal.trace_path

    @property
    def origin(self) -> float:
        """The game's start on the controller's clock (the trace's): the journal's times count from it."""
        return self._journal.origin

    def append_roll(self, t: float, player: str, value: int, free: bool = False) -> None:
        self._recorder.hold(t, lambda: self._journal.append_roll(t, player, value, free))

    def append_move(self, t: float, move_text: str, clock: Mapping[str, float] | None = None) -> None:
        self._recorder.hold(t, lambda: self._journal.append_move(t, move_text, clock=clock))

    def append_takeback(self, t: float, move_text: str) -> None:
        self._recorder.hold(t, lambda: self._journal.append_takeback(t, move_text))

    def append_amend(self, t: float, old_text: str, new_text: str) -> None:
        self._recorder.hold(t, lambda: self._journal.append_amend(t, old_text, new_text))

    def append_result(self, t: float, result: str, reason: str, winner: str | None) -> None:
        self._recorder.hold(t, lambda: self._journal.append_result(t, result, reason, winner))

    def append_hint(self, t: float, player: str, move_text: str) -> None:
        self._recorder.hold(t, lambda: self._journal.append_hint(t, player, move_text))

    def close(self) -> None:
        self._recorder.release()
        self._journal.close()
