"""The flight recorder: every game's raw frames and button presses, kept as a trace file.

Frames arrive from the first moment; the trace's header (the game and its set-up) is only
known once the set-up is done, so what comes before is held and written then.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from .trace import TraceWriter


class FlightRecorder:
    def __init__(self) -> None:
        self._writer: TraceWriter | None = None
        self._held: list[tuple] = []

    @property
    def path(self) -> Path | None:
        return None if self._writer is None else self._writer.path

    def begin(self, path: str | Path, header: Mapping) -> None:
        """Start the trace file and write what was held."""
        self._writer = TraceWriter(path, header)
        held, self._held = self._held, []
        for kind, args in held:
            getattr(self._writer, kind)(*args)

    def resume(self, path: str | Path, t: float) -> None:
        """Go on with the trace of a game resumed after a power cut."""
        self._writer = TraceWriter.resume(path, t)
        held, self._held = self._held, []
        for kind, args in held:
            getattr(self._writer, kind)(*args)

    def frame(self, t: float, occupied: Iterable[str]) -> None:
        self._record("frame", (t, frozenset(occupied)))

    def press(self, t: float, button: str, roll: int | None = None) -> None:
        self._record("press", (t, button, roll))

    def _record(self, kind: str, args: tuple) -> None:
        if self._writer is None:
            self._held.append((kind, args))
        else:
            getattr(self._writer, kind)(*args)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
