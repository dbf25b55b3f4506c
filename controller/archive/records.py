"""Game records: a game as people write it down, with tag pairs as in PGN, then one move a line.

    [Game "NAME"]
    [Date "2026.11.30"]
    [Black "Ann"]
    ...
    1. MOVE {[%t 3.2] a quick start}
    2. MOVE
    1-0 REASON

`record_lines(game_record(contents))` writes a journal's game so (`reedboard games export`);
`parse_records` reads records back (several may follow one another in a file), checking every
move against the rules, and `import_records` turns them into journals, all or none.
docs/records.md describes the format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ..games import Game, MoveError, game_class, game_from_header, game_header
from ..persist.journal import write_journal
from ..persist.journal_format import (  # the journal's own checks of a header, players' names, the computer's side
    VERSION, JournalContents, JournalError, _or, check_header, extras_problem, is_count,
)
from ..persist.journal_reader import players_of, read_journal
from ..persist.journal_replay import rebuild
from ..ground.readfile import read_text
from ..persist.notation import result_line, starting_position
from ..language.catalogue import COMMANDS
from ..words import said

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")  # the last: the game is not over
RECORD_LIMIT = 16 << 20  # bytes of a file of records, as for a journal
MOVE_LINE = re.compile(r"(\d+)\.\s*(.*)")
TAG_LINE = re.compile(r"\[\s*([A-Za-z][A-Za-z0-9_]*)\s+(.*)\]")
COMMAND = re.compile(r"\[%(\w+)\s*([^\]]*)\]")  # [%t 3.2], [%clk black=590 white=600] inside a comment
_ = COMMANDS.gettext


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message names the file and the line."""

    def __init__(self, source: str | Path, line: int | None, problem: str) -> None:
        self.source, self.line, self.problem = str(source), line, problem
        where = self.source if line is None else f"{self.source}:{line}"
        super().__init__(f"{where}: {problem}")


@dataclass
class RecordedMove:
    text: str  # in the rules' notation
    t: float | None = None  # seconds from the start of play (or its last resume); None: not given
    clock: dict[str, float] | None = None  # each player's time left after the move
    comment: str | None = None


@dataclass
class GameRecord:
    """One game as a record holds it: its tags (canonical names, values as data), its moves,
    the result token and the whole result line."""

    tags: dict[str, object]
    moves: list[RecordedMove] = field(default_factory=list)
    result: str = "*"
    result_line: str = "*"
    result_t: float | None = None


# --- tags -------------------------------------------------------------------------------------
GENERAL_TAGS = ("Game", "Event", "Site", "Date", "Time", "Round", "Table")  # then the players, by colour
COUNT_TAGS = {"Round": "round", "Table": "table"}  # a tournament's round and the game's board number in it
LATER_TAGS = ("Computer", "First")  # then the game's set-up tags
LAST_TAGS = ("Clock", "Result", "Termination")


def _tag_of(key: str) -> str:
    """A game's header key as a tag: "layout" -> "Layout"."""
    return key[:1].upper() + key[1:]


def setup_keys(cls: type[Game]) -> list[str]:
    """The game's own header keys written as set-up tags ("first" is the general First tag)."""
    return [key for key in cls.header_keys if key != "first"]


def tag_names(cls: type[Game]) -> list[str]:
    """Every tag a record of this game may hold, in the order they are written."""
    colours = [_tag_of(colour) for colour in cls.players]
    return [*GENERAL_TAGS, *colours, *LATER_TAGS, *map(_tag_of, setup_keys(cls)), *LAST_TAGS]


_defaults: dict[str, dict] = {}


def _default_start(cls: type[Game]) -> dict:
    """The start header of the game's default start: a set-up tag equal to it may be left out."""
    if cls.name not in _defaults:
        _defaults[cls.name] = cls.from_header({}).start_header()
    return _defaults[cls.name]


def _value_text(value: object) -> str:
    # Text is quoted and escaped as in PGN (which is JSON's way for \" and \\); anything else is JSON.
    return json.dumps(value, ensure_ascii=False)


def _number(value: float) -> str:
    """Seconds as a record shows them: to the hundredth (a journal's sums carry float noise)."""
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")  # 12.5, 7.12, 30
    return json.dumps(value)


# --- from a journal ---------------------------------------------------------------------------
def game_record(contents: JournalContents) -> GameRecord:
    """The record of a journal's game: its tags, and the moves that stand (takebacks and
    amendments applied) with their times, clocks and comments."""
    game = rebuild(contents).game
    header = contents.header
    start = starting_position(game)
    tags: dict[str, object] = {"Game": game.name}
    if "event" in header:
        tags["Event"] = header["event"]
    if "place" in header:
        tags["Site"] = header["place"]
    started = header.get("started")
    if isinstance(started, str) and started:
        date, __, time = started.partition("T")
        tags["Date"] = date.replace("-", ".")
        if time:
            tags["Time"] = time
    for name, key in COUNT_TAGS.items():
        if key in header:
            tags[name] = str(header[key])
    players = players_of(contents)
    for colour in game.players:
        if colour in players:
            tags[_tag_of(colour)] = players[colour]
    if "computer" in header:
        tags["Computer"] = header["computer"]
    tags["First"] = start.turn
    own = start.start_header()
    default = _default_start(type(game))
    for key in setup_keys(type(game)):
        if key in own and (isinstance(own[key], str) or own[key] != default.get(key)):
            tags[_tag_of(key)] = own[key]
    if "clock" in header:
        tags["Clock"] = f"{_number(header['clock']['minutes'])}+{_number(header['clock']['increment'])}"
    outcome = game.outcome()
    result = "*" if outcome is None else outcome.result(game.players)
    tags["Result"] = result
    if outcome is not None:
        tags["Termination"] = outcome.termination.value

    stack: list[dict] = []  # the move entries that stand, in step with the game's moves
    result_t = None
    for entry in contents.entries:
        kind = entry["type"]
        if kind == "move":
            stack.append(entry)
        elif kind == "takeback":
            stack.pop()
        elif kind == "amend":
            stack[-1] = {"t": entry["t"]}
        elif kind == "result":
            result_t = entry["t"]
    moves = [RecordedMove(game.format_move(move), entry.get("t"), entry.get("clock"), entry.get("comment"))
             for move, entry in zip(game.move_stack, stack)]
    return GameRecord(tags, moves, result, result_line(game) or "*", result_t)


def record_lines(record: GameRecord) -> list[str]:
    """The record as text lines: the tags, a blank line, a move a line, the result line."""
    lines = [f"[{name} {_value_text(value)}]" for name, value in record.tags.items()]
    lines.append("")
    before = 0  # a time equal to the one before (or 0 at the start) is not written: it was not given
    for number, move in enumerate(record.moves, 1):
        lines.append(f"{number}. {move.text}{_annotation(move.t, before, move.clock, move.comment)}")
        before = move.t if move.t is not None else before
    lines.append(record.result_line + _annotation(record.result_t, before))
    return lines


def _annotation(t: float | None, before: float, clock: Mapping | None = None, comment: str | None = None) -> str:
    parts = []
    if t is not None and round(t, 2) != round(before, 2):
        parts.append(f"[%t {_number(t)}]")
    if clock:
        parts.append("[%clk " + " ".join(f"{colour}={_number(left)}" for colour, left in clock.items()) + "]")
    if comment:
        parts.append(comment)
    return f" {{{' '.join(parts)}}}" if parts else ""


def record_data(record: GameRecord) -> dict:
    """The record as JSON-ready data (`games export --format json`)."""
    return {"tags": record.tags,
            "moves": [{key: value for key, value in (("move", m.text), ("t", m.t), ("clock", m.clock),
                                                     ("comment", m.comment)) if value is not None}
                      for m in record.moves],
            "result": record.result, "result_line": record.result_line}


# --- reading records --------------------------------------------------------------------------
@dataclass
class ParsedRecord:
    """A record read and checked: the journal it makes (header and entries) and where it began."""

    line: int
    game: Game  # after every move
    header: dict
    entries: list[dict]
    started: datetime | None


def parse_records(text: str, source: str | Path = "record") -> list[ParsedRecord]:
    """Every record in `text`, each checked move by move against the rules; RecordError names
    the first problem with its line (and, for a move, the move and the reason)."""
    records: list[ParsedRecord] = []
    tags: list[tuple[int, str, str]] = []  # (line, name, value text) of the record being read
    moves: list[tuple[int, str]] = []
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if not line or line.startswith(";"):  # blank lines and ; comments (as in PGN) are skipped
            continue
        if line.startswith("["):
            if moves:
                raise RecordError(source, number, _('a tag after the moves: end the record before with its result line (1-0, 0-1, 1/2-1/2 or * for a game not over)'))
            match = TAG_LINE.fullmatch(line)
            if match is None:
                raise RecordError(source, number, _('not a tag: write [Name "value"], not {line}').format(
                    line=_brief(line)))
            tags.append((number, match.group(1), match.group(2).strip()))
        elif line.split(None, 1)[0] in RESULTS:
            if not tags:
                raise RecordError(source, number, _('a result line without a record: a record starts with its tags'))
            records.append(_record(source, tags, moves, number, line))
            tags, moves = [], []
        elif MOVE_LINE.match(line):
            if not tags:
                raise RecordError(source, number, _('a move before any tag: a record starts with [Game "NAME"]'))
            moves.append((number, line))
        else:
            raise RecordError(source, number, _('not a tag, a move (N. MOVE) or a result: {line}').format(
                line=_brief(line)))
    if tags:
        last = (moves or tags)[-1][0]
        raise RecordError(source, last, _('the record has no result line: end it with 1-0, 0-1, 1/2-1/2, or * for a game not over'))
    if not records:
        raise RecordError(source, None, _('no record in it: a record starts with tags such as [Game "NAME"]'))
    return records


def _brief(text: str, width: int = 40) -> str:
    return repr(text if len(text) <= width else text[:width - 3] + "...")


def _record(source, tags: list[tuple[int, str, str]], moves: list[tuple[int, str]], end: int,
            result_text: str) -> ParsedRecord:
    first_line = tags[0][0]
    values = _tag_values(source, tags)
    named = next((name for name in values if name.lower() == "game"), None)
    if named is None:
        raise RecordError(source, first_line, _('the record does not name its game: add [Game "NAME"]'))
    try:
        cls = game_class(values[named][1])
    except ValueError as error:
        raise RecordError(source, values[named][0], said(error)) from None
    known = {name.lower(): name for name in tag_names(cls)}
    for name, (number, __) in list(values.items()):
        if name.lower() not in known:
            raise RecordError(source, number, _('unknown tag [{name}]: a {game} record takes {tags}').format(
                name=name, game=cls.name, tags=', '.join(tag_names(cls))))
    values = {known[name.lower()]: value for name, value in values.items()}

    def tag_error(name: str, problem: str) -> RecordError:
        return RecordError(source, values[name][0], _('[{name}]: {problem}').format(name=name, problem=problem))

    def text(name: str) -> str | None:
        if name not in values:
            return None
        value = values[name][1]
        if not isinstance(value, str):
            raise tag_error(name, _('write the value in quotes, e.g. [{name} "..."]').format(name=name))
        return value

    header: dict = {"game": cls.name}
    own = {key: values[_tag_of(key)][1] for key in setup_keys(cls) if _tag_of(key) in values}
    first = text("First")
    if first is not None and "first" in cls.header_keys:
        own["first"] = first
    try:
        start = game_from_header({"game": cls.name, **own})
    except ValueError as error:
        name = next((n for n in ("First", *map(_tag_of, setup_keys(cls))) if n in values), "Game")
        raise tag_error(name, _('the set-up: {problem}').format(problem=said(error))) from None
    if first is not None and first != start.turn:
        raise tag_error("First", _('{turn} moves first in this set-up, not {first}').format(
            turn=start.turn, first=repr(first)))
    header.update(game_header(start))
    header["settings"] = {}
    started = None
    date = text("Date")
    if date is not None:
        started, header["started"] = _started(date, text("Time"), lambda p: tag_error("Date", p))
    elif "Time" in values:
        raise tag_error("Time", _('a time needs its [Date]'))
    for name, key in (("Event", "event"), ("Site", "place")):
        if (value := text(name)) is not None:
            header[key] = value
    for name, key in COUNT_TAGS.items():
        if (value := text(name)) is not None:
            if not (value.isascii() and value.isdigit() and is_count(int(value))):
                raise tag_error(name, _('a whole number from 1, not {value}').format(value=_brief(value)))
            header[key] = int(value)
    for colour in cls.players:
        if (name := text(_tag_of(colour))) is not None:
            header.setdefault("players", {})[colour] = name
            if problem := extras_problem({"players": {colour: name}}, cls.players):
                raise tag_error(_tag_of(colour), problem.removeprefix('"players": '))
    if "Computer" in values:
        header["computer"] = values["Computer"][1]
        if problem := extras_problem({"computer": header["computer"]}, cls.players):
            raise tag_error("Computer", problem.removeprefix('"computer": '))
    if (clock := text("Clock")) is not None:
        header["clock"] = _clock(clock, lambda p: tag_error("Clock", p))

    game = start.copy()
    entries: list[dict] = []
    numbers: list[int] = []
    t = 0
    for expected, (number, line) in enumerate(moves, 1):
        written, rest = MOVE_LINE.fullmatch(line).groups()
        move_text, annotation = _split_annotation(source, number, rest)
        if int(written) != expected:
            raise RecordError(source, number, _('move number {written}: this is move {expected}').format(
                written=written, expected=expected))
        try:
            move = game.parse_move(move_text)
        except MoveError as error:
            reason = said(error).removeprefix(f"{move_text!r}: ")  # the move is named once
            raise RecordError(source, number, _('move {number} {move} is refused: {reason}').format(
                number=expected, move=repr(move_text), reason=reason)) from None
        game.push(move)
        entry_t, clock, comment = _read_annotation(source, number, annotation, game.players)
        t = entry_t if entry_t is not None else t
        entry: dict = {"type": "move", "t": t, "move": game.format_move(move)}
        if clock is not None:
            entry["clock"] = clock
        if comment is not None:
            entry["comment"] = comment
        entries.append(entry)
        numbers.append(number)

    token, __, rest = result_text.partition(" ")
    rest, annotation = _split_annotation(source, end, rest)
    result_t, __, ___ = _read_annotation(source, end, annotation, game.players)
    tagged = text("Result")
    if tagged is not None and tagged != token:
        raise tag_error("Result", _('says {tagged} but the result line says {token}').format(
            tagged=tagged, token=token))
    if token != "*":
        reason = rest.split()[0] if rest.split() else text("Termination")
        if reason is None:
            raise RecordError(source, end, _('{token} and why? write the reason after it, e.g. {token} resign').format(
                token=token))
        termination = text("Termination")
        if termination is not None and termination != reason:
            raise tag_error("Termination", _('says {termination} but the result line says {reason}').format(
                termination=termination, reason=reason))
        winner = None if token == "1/2-1/2" else game.players[0 if token == "1-0" else 1]
        entries.append({"type": "result", "t": result_t if result_t is not None else t, "result": token,
                        "reason": reason, "winner": winner})
        numbers.append(end)
    elif rest:
        raise RecordError(source, end, _('* ends a game not over: nothing may follow it ({rest})').format(
            rest=_brief(rest)))
    elif "Termination" in values:
        raise tag_error("Termination", _('a game not over (*) has no termination'))

    # The journal's own checks, with the record's lines: the header's names and the result.
    contents = JournalContents({"type": "header", "version": VERSION, **header}, entries, path=Path(str(source)),
                               line_numbers=numbers)
    try:
        check_header(contents.path, contents.header)
        finished = rebuild(contents)
    except JournalError as error:
        raise RecordError(source, error.line if error.line not in (None, 1) else first_line, error.problem) from None
    if token != "*":
        line = result_line(finished.game)
        if rest and line.split()[:len(rest.split()) + 1] != [token, *rest.split()]:  # what the game adds may be left out
            raise RecordError(source, end, _('the result line says {token} {rest}, but the game gives {line}').format(
                token=token, rest=rest, line=line))
    elif game.outcome() is not None:
        raise RecordError(source, end, _('the game is over after the last move ({result}), not *').format(
            result=result_line(game)))
    return ParsedRecord(first_line, finished.game, header, entries, started)


def _tag_values(source, tags: list[tuple[int, str, str]]) -> dict[str, tuple[int, object]]:
    values: dict[str, tuple[int, object]] = {}
    seen: dict[str, str] = {}
    for number, name, raw in tags:
        if name.lower() in seen:
            raise RecordError(source, number, _('[{name}] is given twice').format(name=name))
        seen[name.lower()] = name
        try:
            value = json.loads(raw)
        except (ValueError, RecursionError):
            raise RecordError(source, number, _('[{name}]: the value must be in quotes, as in [{name} "value"], or JSON data').format(
                name=name)) from None
        values[name] = (number, value)
    return values


def _started(date: str, time: str | None, error) -> tuple[datetime, str]:
    """The journal's start time ("2026-11-30T17:20:05+01:00", or the date alone) and its datetime."""
    match = re.fullmatch(r"(\d{4})[.-](\d{2})[.-](\d{2})", date)
    if match is None:
        raise error(_('write the date as YYYY.MM.DD, not {date}').format(date=repr(date)))
    iso = "-".join(match.groups())
    if time is not None:
        iso = f"{iso}T{time}"
    try:
        when = datetime.fromisoformat(iso)
    except ValueError:
        raise error(_('not a date and time: {iso} (the time as HH:MM:SS, with its offset if known: +01:00)').format(
            iso=repr(iso))) from None
    return when, iso


def _clock(text: str, error) -> dict:
    minutes, __, increment = text.partition("+")
    try:
        values = [json.loads(part) for part in (minutes, increment or "0")]
    except ValueError:
        values = None
    if values is None or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in values):
        raise error(_('write minutes and seconds of increment, e.g. "10+5", not {text}').format(text=repr(text)))
    return {"minutes": values[0], "increment": values[1]}


def _split_annotation(source, number: int, rest: str) -> tuple[str, str | None]:
    """The move (or result) and the text of the {comment} after it, if any."""
    if "{" not in rest:
        if "}" in rest:
            raise RecordError(source, number, _('a } without its {'))
        return rest.strip(), None
    before, __, after = rest.partition("{")
    if not after.endswith("}") or "{" in after or "}" in after[:-1]:
        raise RecordError(source, number, _('a comment is one {...} at the end of the line'))
    return before.strip(), after[:-1].strip()


def _read_annotation(source, number: int, annotation: str | None, colours: Iterable[str]
                     ) -> tuple[float | None, dict | None, str | None]:
    """[%t SECONDS], [%clk COLOUR=SECONDS ...] and the comment's words."""
    if annotation is None:
        return None, None, None
    t = clock = None
    for name, body in COMMAND.findall(annotation):
        if name == "t":
            t = _seconds(source, number, body, "[%t SECONDS]")
        elif name == "clk":
            clock = {}
            for item in body.split():
                colour, __, left = item.partition("=")
                if colour not in colours:
                    raise RecordError(source, number, _('[%clk]: no colour {colour} in this game ({colours})').format(
                        colour=repr(colour), colours=_or(colours)))
                clock[colour] = _seconds(source, number, left, "[%clk COLOUR=SECONDS ...]")
        else:
            raise RecordError(source, number, _('[%{name}]: a comment knows [%t SECONDS] and [%clk COLOUR=SECONDS ...]').format(
                name=name))
    words = COMMAND.sub("", annotation).strip()
    return t, clock, (" ".join(words.split()) or None)


def _seconds(source, number: int, text: str, form: str) -> float:
    try:
        value = json.loads(text.strip())
    except ValueError:
        value = None
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value < 1e9:
        raise RecordError(source, number, _('write {form}, seconds as a number, not {text}').format(
            form=form, text=repr(text.strip())))
    return value


# --- records into the archive -----------------------------------------------------------------
def read_records(path: str | Path) -> list[ParsedRecord]:
    """Every record of a file, checked; RecordError names the file and the line of a problem."""
    try:
        text = read_text(path, RECORD_LIMIT, "record file")
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(path, None, _('cannot read the records ({problem})').format(
            problem=getattr(error, 'strerror', None) or error)) from None
    return parse_records(text, path)


def import_records(path: str | Path, games_dir: str | Path, now: datetime | None = None) -> list[Path]:
    """The records of a file as journals in games_dir, all of them or none: every record is read
    and checked before the first journal is written (and a journal written is whole)."""
    records = read_records(path)
    now = datetime.now().astimezone() if now is None else now
    written: list[Path] = []
    try:
        for record in records:
            entries = record.entries
            try:
                written.append(write_journal(games_dir, record.header, entries, record.started or now))
            except JournalError as error:
                raise RecordError(path, record.line, error.problem) from None
    except BaseException:
        for journal_path in written:  # nothing is half-imported
            journal_path.unlink(missing_ok=True)
        raise
    return written


def save_replayed(trace_path: str | Path, games_dir: str | Path, replayed=None) -> Path:
    """`reedboard replay TRACE --save`: the game a trace replays to, kept as a journal in games_dir.

    Its names, clock, event and start come from the journal next to the trace when there is one
    (a trace from another board often travels with it); otherwise it started when the trace
    was last written. `replayed`: the trace's replay, when the caller has it already (it is
    the same either way: a replay never reads the clock). TraceError for a trace that cannot be
    replayed."""
    import os

    from ..persist.game_files import SUFFIX, TRACE_SUFFIX
    from ..session.replay import replay
    from ..persist.trace import TraceError, read_trace

    trace_path = Path(trace_path)
    beside = Path(str(trace_path).removesuffix(TRACE_SUFFIX) + SUFFIX) if str(trace_path).endswith(TRACE_SUFFIX) else None
    if beside is not None and beside.is_file() and beside.parent.resolve() == Path(games_dir).resolve():
        raise TraceError(trace_path, None, _('its game is in the archive already: {name}').format(name=beside.name))
    trace = read_trace(trace_path)
    if replayed is None:
        replayed = replay(trace, source=str(trace_path))
    if not any(entry["type"] in ("move", "result") for entry in replayed.decisions):
        raise TraceError(trace_path, None, _('no move was made in it: there is no game to keep'))
    header = {**game_header(trace.game()), "settings": dict(trace.header.get("settings", {}))}
    started = None
    if beside is not None and beside.is_file():
        try:
            contents = read_journal(beside)
        except JournalError:
            contents = None
        if contents is not None:
            kept = contents.header
            header.update({key: kept[key] for key in ("clock", "computer", "event", "place", "round", "table",
                                                      "started", "settings") if key in kept})
            if players := players_of(contents):
                header["players"] = players
            try:
                started = datetime.fromisoformat(kept.get("started", ""))
            except ValueError:
                started = None
    if started is None:
        stamp = datetime.fromtimestamp(os.stat(trace_path).st_mtime).astimezone()
        header.setdefault("started", stamp.isoformat(timespec="seconds"))
        started = stamp
    try:
        return write_journal(games_dir, header, replayed.decisions, started)
    except OSError as error:
        raise JournalError(games_dir, None, _('cannot keep the game here ({problem})').format(
            problem=error.strerror or said(error))) from None


__all__ = ["GameRecord", "ParsedRecord", "RecordError", "RecordedMove", "game_record",
           "import_records", "parse_records", "read_records", "record_data", "record_lines", "save_replayed",
           "tag_names"]
