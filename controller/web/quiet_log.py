"""A log that a crowd cannot fill: one line per kind of trouble per interval.

A thousand refused connections are one line, "refused ... (and 999 more like it in the last
60 s)", not a thousand. QuietLog is for the web view's own refusals; QuietFilter does the same
for the lines the server and the event loop write (an exhausted file limit can make asyncio
report the same error thousands of times a second, each with its traceback).
"""

from __future__ import annotations

import errno
import logging
import time
from collections import OrderedDict
from collections.abc import Callable

KINDS_KEPT = 256  # distinct kinds remembered by a QuietFilter (its memory stays bounded)


class _Gate:
    """Per kind: may a line pass now, and how many were held back since the last one."""

    def __init__(self, interval: float, clock: Callable[[], float]) -> None:
        self.interval = interval
        self.clock = clock
        self._kinds: OrderedDict[str, list] = OrderedDict()  # kind -> [time of its last line, held back]

    def passes(self, kind: str) -> tuple[bool, int]:
        now = self.clock()
        state = self._kinds.get(kind)
        if state is not None and now - state[0] < self.interval:
            state[1] += 1
            return False, 0
        held = state[1] if state is not None else 0
        self._kinds[kind] = [now, 0]
        self._kinds.move_to_end(kind)
        while len(self._kinds) > KINDS_KEPT:
            self._kinds.popitem(last=False)
        return True, held


class QuietLog:
    """note(kind, message): written at most once per `interval` seconds for each kind."""

    def __init__(self, logger: logging.Logger, interval: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.logger = logger
        self.interval = interval
        self._gate = _Gate(interval, clock)

    def note(self, kind: str, message: str) -> None:
        passes, held = self._gate.passes(kind)
        if passes:
            self.logger.warning(message + _held_back(held, self.interval))


class QuietFilter(logging.Filter):
    """A logging filter: a record whose message starts like one written in the last `interval`
    seconds is held back; the next one that passes says how many were."""

    def __init__(self, interval: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self._gate = _Gate(interval, clock)

    def filter(self, record: logging.LogRecord) -> bool:
        _file_limit_in_a_line(record)
        kind = f"{record.name}:{record.levelno}:{str(record.msg)[:80]}"
        passes, held = self._gate.passes(kind)
        if passes and held:
            record.msg, record.args = record.getMessage() + _held_back(held, self.interval), None
        return passes


def _file_limit_in_a_line(record: logging.LogRecord) -> None:
    """An exhausted file limit is a crowd, not a fault: asyncio stops accepting for a moment and
    goes on, so its report becomes one line, without the traceback."""
    error = record.exc_info[1] if record.exc_info else None
    if isinstance(error, OSError) and error.errno in (errno.EMFILE, errno.ENFILE):
        first = record.getMessage().splitlines()[0] if record.getMessage() else "accept"
        record.msg, record.args = f"{first}: {error.strerror} (new connections wait)", None
        record.exc_info, record.exc_text = None, None


def _held_back(count: int, interval: float) -> str:
    return f" (and {count} more like it in the last {interval:.0f} s)" if count else ""


def quieten(names: tuple[str, ...], interval: float) -> None:
    """Give each named logger a QuietFilter (once)."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, QuietFilter) for f in logger.filters):
            logger.addFilter(QuietFilter(interval))
