"""Trace files: what a board reported, as JSON Lines, for `reedboard replay` and the flight recorder.

The first line is the header: the game, its start position in the game's own keys (see
the games' `start_header`) and the referee's timing: `{"game": NAME, ..., "settings": {...}}`. Then
one event a line, `t` in seconds, never decreasing: a frame `{"t": 0.0, "occupied": [...]}`
or a button press `{"t": 2.1, "press": "die", "roll": 4}` / `{"t": 9.0, "press": "ok"}`, or,
playing the computer (the header's "computer" names its side), its decision: the move it
showed `{"t": 5.0, "computer": "4 b2-b3"}`, or its roll `{"t": 3.0, "computer": "roll", "roll": 2}`
(its chosen move changes what the board is read as: only that move counts).
A game ended by the players rather than on the board is an end line: a resignation
`{"t": 40.0, "end": "resign", "player": "white"}` or a draw agreed `{"t": 40.0, "end": "draw"}`.
A game resumed after a power cut goes on in the same trace after a marker line
`{"t": 12.5, "resume": true}`; the line cut by the power loss just before it is skipped.

Every problem is a TraceError naming the file and the line, because a trace is often
written by hand or comes from someone else's board. Only a regular file of at most
TRACE_LIMIT bytes is read, and a line nested too deeply to parse is named like any other.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from reedboard.hal.interfaces import Frame

from .. import games
from ..games import Game, header_keys, top_level
from ..ground.readfile import TRACE_LIMIT, read_bytes, read_text
from ..games import brief
from .game_files import trace_path
from ..ground.settings import Settings
from ..language.phrases import Phrasebook, message_of

phrase = Phrasebook("commands")

TRACE_KEYS = {"game", "settings", "computer"}  # and the game's own keys (its start position): see games.header_keys
SETTINGS = ("debounce", "settle", "grace")  # seconds, see the reconciler's design note
BUTTONS = ("die", "ok")
RESUME_GAP = 1.0  # s between a trace's last line and its resume marker
FRAME_KEYS = {"t", "occupied"}
PRESS_KEYS = {"t", "press", "roll"}
COMPUTER_KEYS = {"t", "computer", "roll"}
END_KEYS = {"t", "end", "player"}
ENDS = ("resign", "draw")


class TraceError(ValueError):
    """A trace that cannot be used; the message names the file and the line."""

    def __init__(self, path: str | Path, line: int | None, problem: str) -> None:
        self.path, self.line, self.problem = str(path), line, problem
        where = self.path if line is None else f"{self.path}:{line}"
        super().__init__(f"{where}: " + problem)  # a phrase stays one


@dataclass(frozen=True)
class TracePress:
    """A button press: the die (with the value it must show, or None to draw one) or ok."""

    t: float
    button: str  # "die" or "ok"
    roll: int | None = None


@dataclass(frozen=True)
class TraceDecision:
    """The computer's decision: the move it showed (in notation), or "roll" with the value rolled."""

    t: float
    move: str
    roll: int | None = None


@dataclass(frozen=True)
class TraceEnd:
    """The players ended the game: "resign" (with the player who resigned) or "draw" (agreed)."""

    t: float
    end: str
    player: str | None = None


@dataclass(frozen=True)
class TraceResume:
    """Power came back: the referee started afresh on the game it had recorded."""

    t: float


Event = Frame | TracePress | TraceDecision | TraceResume | TraceEnd


@dataclass
class Trace:
    header: dict
    events: list[Event] = field(default_factory=list)

    def game(self) -> Game:
        """A fresh game in the header's start position."""
        return game_from_header(self.header)


# --- the start of a game, shared with the journal ------------------------------------------
def game_from_header(header: Mapping) -> Game:
    """The game a trace or journal header describes, in its start position: the registry's game
    named by "game" reads its own keys (a set-up of numbered stones, a board file's path or
    definition ...); the file's own keys are left out. ValueError (SetupError, LayoutError
    included) says what is wrong."""
    return games.game_from_header(header, TRACE_KEYS)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _loads(line: str | bytes) -> object:
    """json.loads, with nesting too deep to parse a ValueError like any other bad JSON."""
    try:
        return json.loads(line)
    except RecursionError:
        raise ValueError(phrase("arrays or objects nested too deeply")) from None


def _is_number(value: object) -> bool:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer too big for a float
        return False


# --- reading -------------------------------------------------------------------------------
def read_trace(path: str | Path) -> Trace:
    """Read and check a whole trace; TraceError names the first problem and its line."""
    try:
        text = read_text(path, TRACE_LIMIT, "trace")
    except (OSError, UnicodeDecodeError) as error:
        raise TraceError(path, None, phrase("cannot read the trace ({problem})", problem=error)) from None
    lines = text.split("\n")  # not splitlines(): line numbers must match what an editor shows
    numbered = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]  # blank lines are no events
    if not numbered:
        raise TraceError(path, None, phrase("empty: a trace starts with a header line"))
    first_line, header_text = numbered[0]
    header = _json_object(path, first_line, header_text)
    with _deep_values_named(path, first_line):
        cells = _check_header(path, first_line, header)
    events: list[Event] = []
    last_t = -math.inf
    rest = numbered[1:]
    for index, (number, line) in enumerate(rest):
        if index + 1 < len(rest) and _is_cut(line) and _resumes(rest[index + 1][1]):
            continue  # the line a power cut interrupted; the resume marker after it says so
        with _deep_values_named(path, number):
            event = _event(path, number, _json_object(path, number, line), cells)
        if event.t < last_t:
            raise TraceError(path, number, phrase("time goes backwards: t {t} after {last}", t=event.t, last=last_t))
        last_t = event.t
        events.append(event)
    return Trace(header, events)


@contextmanager
def _deep_values_named(path, number: int):
    """Nesting the parser took but checking it cannot (it is shown or walked): the line is named."""
    try:
        yield
    except RecursionError:
        raise TraceError(path, number, phrase("arrays or objects nested too deeply")) from None


def _is_cut(line: str) -> bool:
    try:
        _loads(line)
    except ValueError:  # JSONDecodeError, too deep, an integer of too many digits
        return True
    return False


def _resumes(line: str) -> bool:
    try:
        return _loads(line).get("resume") is True
    except (ValueError, AttributeError):
        return False


def _json_object(path, number: int, line: str) -> dict:
    try:
        value = _loads(line)
    except json.JSONDecodeError as error:
        raise TraceError(path, number, phrase("not JSON ({problem} at column {column})", problem=error.msg,
                                              column=error.colno)) from None
    except ValueError as error:  # nested too deeply, or an integer of too many digits
        raise TraceError(path, number, phrase("not JSON that can be read ({problem})", problem=error)) from None
    if not isinstance(value, dict):
        raise TraceError(path, number, phrase("expected a JSON object {{...}}, not {kind}",
                                              kind=type(value).__name__))
    return value


def _journal_not_trace(path) -> str:
    """What to do with a game journal given where a trace belongs."""
    trace = trace_path(path)
    export, replay = f"reedboard export {path}", f"reedboard replay {trace}"
    if trace.exists():
        return phrase("this is a game journal (the moves of a game), not a trace (what the board reported): print its"
                      " record with {export}, or replay its trace: {replay}", export=export, replay=replay)
    return phrase("this is a game journal (the moves of a game), not a trace (what the board reported): print its"
                  " record with {export}", export=export)


def _check_header(path, number: int, header: dict) -> dict[str, str]:
    """Validate the header; return the game's cells by lower-case name (names are case-blind)."""
    if header.get("type") == "header" and "version" in header:  # a games journal's header line
        raise TraceError(path, None, _journal_not_trace(path))
    if "game" not in header:
        if "t" in header:
            raise TraceError(path, number, phrase('missing header: the first line must name the "game" (this line is an'
                                                  ' event)'))
        raise TraceError(path, number, phrase('missing header: the first line must name the "game"'))
    known = TRACE_KEYS | header_keys()
    unknown = set(header) - known
    if unknown:
        raise TraceError(path, number, phrase("unknown header key {key} (expected {keys})",
                                              key=brief(sorted(unknown)[0]), keys=", ".join(sorted(known))))
    settings = header.get("settings", {})
    if not isinstance(settings, dict):
        raise TraceError(path, number, phrase('"settings" must be an object, e.g. {"settle": 0.8}'))
    try:
        Settings.from_mapping(settings, SETTINGS)  # the referee's own rules
    except ValueError as error:
        raise TraceError(path, number, message_of(error)) from None
    try:
        game = game_from_header(header)
    except ValueError as error:
        raise TraceError(path, number, message_of(error)) from None
    computer = header.get("computer")
    if computer is not None and (not isinstance(computer, dict) or computer.get("plays") not in game.players
                                 or computer.get("level") not in range(1, top_level() + 1)):  # any game's: as recorded
        raise TraceError(path, number, phrase('"computer" must be {"plays": COLOUR, "level": LEVEL, "version": TEXT}'))
    return {cell.lower(): cell for cell in game.cells}


def _event(path, number: int, data: dict, cells: dict[str, str]) -> Event:
    if "t" not in data:
        raise TraceError(path, number, phrase('missing "t" (seconds)'))
    t = data["t"]
    if not _is_number(t):
        raise TraceError(path, number, phrase('"t" must be a finite number of seconds, not {value}', value=brief(t)))
    if data.get("resume") is True:
        _no_unknown_keys(path, number, data, {"t", "resume"})
        return TraceResume(float(t))
    if "occupied" in data and "press" in data:
        raise TraceError(path, number, phrase('an event is a frame ("occupied") or a press ("press"), not both'))
    if "end" in data:
        _no_unknown_keys(path, number, data, END_KEYS)
        return _end(path, number, float(t), data["end"], data.get("player"))
    if "computer" in data:
        _no_unknown_keys(path, number, data, COMPUTER_KEYS)
        return _decision(path, number, float(t), data["computer"], data.get("roll"))
    if "occupied" in data:
        _no_unknown_keys(path, number, data, FRAME_KEYS)
        return Frame(float(t), _occupied(path, number, data["occupied"], cells))
    if "press" in data:
        _no_unknown_keys(path, number, data, PRESS_KEYS)
        return _press(path, number, float(t), data["press"], data.get("roll"))
    raise TraceError(path, number, phrase('an event needs "occupied" (a frame) or "press" (a button)'))


def _no_unknown_keys(path, number: int, data: dict, allowed: set[str]) -> None:
    unknown = set(data) - allowed
    if unknown:
        raise TraceError(path, number, phrase("unknown key {key} (expected {keys})", key=brief(sorted(unknown)[0]),
                                              keys=", ".join(sorted(allowed))))


def _occupied(path, number: int, occupied: object, cells: dict[str, str]) -> frozenset[str]:
    if not isinstance(occupied, list) or not all(isinstance(c, str) for c in occupied):
        raise TraceError(path, number, phrase('"occupied" must be a list of cell names, e.g. ["a1", "b1"]'))
    names = []
    for cell in occupied:
        if cell.lower() not in cells:
            raise TraceError(path, number, phrase("unknown cell {cell} on this board", cell=brief(cell)))
        names.append(cells[cell.lower()])
    if len(set(names)) != len(names):
        twice = next(c for c in names if names.count(c) > 1)
        raise TraceError(path, number, phrase("cell {cell} is listed twice", cell=twice))
    return frozenset(names)


def _decision(path, number: int, t: float, move: object, roll: object) -> TraceDecision:
    if not isinstance(move, str) or not move.strip():
        raise TraceError(path, number, phrase('"computer" is the move it showed or "roll", not {value}',
                                              value=brief(move)))
    if (move == "roll") != (roll is not None) or (roll is not None and (not _is_int(roll) or not 1 <= roll <= 6)):
        raise TraceError(path, number, phrase('the computer\'s "roll" goes with "computer": "roll" and is 1-6, not {value}',
                                              value=brief(roll)))
    return TraceDecision(t, move, roll)


def _end(path, number: int, t: float, end: object, player: object) -> TraceEnd:
    if end not in ENDS:
        raise TraceError(path, number, phrase('"end" is "resign" or "draw", not {value}', value=brief(end)))
    if (end == "resign") != isinstance(player, str) or (isinstance(player, str) and not player):
        raise TraceError(path, number, phrase('"player" (who resigned) goes with "end": "resign" only'))
    return TraceEnd(t, end, player)


def _press(path, number: int, t: float, button: object, roll: object) -> TracePress:
    if button not in BUTTONS:
        buttons = phrase("{names} or {last}", names=", ".join(BUTTONS[:-1]), last=BUTTONS[-1])
        raise TraceError(path, number, phrase("unknown button {button} (expected {buttons})", button=brief(button),
                                              buttons=buttons))
    if roll is not None:
        if button != "die":
            raise TraceError(path, number, phrase('only the die press takes a "roll", not {button}',
                                                  button=brief(button)))
        if not _is_int(roll) or not 1 <= roll <= 6:
            raise TraceError(path, number, phrase('"roll" must be a whole number 1-6, not {value}',
                                                  value=brief(roll)))
    return TracePress(t, button, roll)


# --- writing: the flight recorder ----------------------------------------------------------
class TraceWriter:
    """Append a trace as the board reports it; every line reaches the disk before the next.

    The file must not exist yet: a recorder never overwrites a trace.
    """

    def __init__(self, path: str | Path, header: Mapping) -> None:
        self.path = Path(path)
        header = dict(header)
        self._cells = set(_check_header(self.path, 1, header).values())  # refuse what read_trace would
        self._last_t = -math.inf
        self._offset = 0.0
        self._file = open(self.path, "xb")
        self._write(header)

    @classmethod
    def resume(cls, path: str | Path, t: float) -> TraceWriter:
        """Go on with a trace after a power cut, appending (never rewriting) from time t.

        The clock may have restarted: times are shifted so that the trace's time goes on
        from its last event."""
        path = Path(path)
        try:
            data = read_bytes(path, TRACE_LIMIT, "trace")
        except OSError as error:
            raise TraceError(path, None, phrase("cannot read the trace to go on with it ({problem})",
                                                problem=error)) from None
        lines = [line for line in data.decode("utf-8", errors="replace").split("\n") if line.strip()]
        if not lines:
            raise TraceError(path, None, phrase("empty: nothing to resume"))
        header = _json_object(path, 1, lines[0])
        last_t = 0.0
        for line in lines[1:]:
            try:
                line_t = _loads(line)["t"]
            except (KeyError, TypeError, ValueError):
                continue  # the torn line
            if _is_number(line_t):
                last_t = max(last_t, float(line_t))
        writer = cls.__new__(cls)
        writer.path = path
        writer._cells = set(_check_header(path, 1, header).values())
        # The marker stands a little after the last line: the decisions that fell due in that
        # time (a debounce, a settle) were made and journaled before the power went.
        last_t += RESUME_GAP
        writer._last_t = last_t
        writer._offset = last_t - t
        writer._file = open(path, "ab")
        torn = not data.endswith(b"\n")
        writer._file.write(b"\n" if torn else b"")
        writer._write({"t": last_t, "resume": True})
        return writer

    def frame(self, t: float, occupied: Iterable[str]) -> None:
        cells = sorted(occupied)
        unknown = [c for c in cells if c not in self._cells]
        if unknown:
            raise ValueError(f"unknown cell {unknown[0]!r} on this board")
        self._write({"t": self._time(t), "occupied": cells})

    def press(self, t: float, button: str, roll: int | None = None) -> None:
        button = getattr(button, "value", button)  # hal.interfaces.Button is welcome too
        if button not in BUTTONS:
            raise ValueError(f"unknown button {button!r} (expected {' or '.join(BUTTONS)})")
        if roll is not None and (button != "die" or not _is_int(roll) or not 1 <= roll <= 6):
            raise ValueError(f"a roll is 1-6 and only with the die press, not {button} {roll!r}")
        event = {"t": self._time(t), "press": button}
        if roll is not None:
            event["roll"] = roll
        self._write(event)

    def end(self, t: float, end: str, player: str | None = None) -> None:
        """The players ended the game: "resign" (`player` resigned) or "draw" (agreed)."""
        if end not in ENDS or (end == "resign") != (player is not None):
            raise ValueError(f"an end is a resignation with its player or a draw, not {end!r} {player!r}")
        event = {"t": self._time(t), "end": end}
        if player is not None:
            event["player"] = player
        self._write(event)

    def computer(self, t: float, move: str, roll: int | None = None) -> None:
        """The computer's decision: the move it showed, or "roll" and the value rolled."""
        event = {"t": self._time(t), "computer": move}
        if roll is not None:
            event["roll"] = roll
        self._write(event)

    def _time(self, t: float) -> float:
        if _is_number(t):
            t = t + self._offset
        if not _is_number(t) or t < self._last_t:
            raise ValueError(f"t must be a finite number, not before {self._last_t}; got {t!r}")
        self._last_t = t
        return t

    def _write(self, data: dict) -> None:
        # One line, flushed and synced: a power cut loses at most the line being written.
        self._file.write((json.dumps(data) + "\n").encode("utf-8"))
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> TraceWriter:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
