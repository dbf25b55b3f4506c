"""The club's side: every board's broadcast received, kept in order, once, and written to journals.

A journal line is taken only in its place: one already taken (a board sending again what
the broker had not acknowledged) is dropped by its sequence number, one that comes early
waits for those before it, which the board's retained state (it carries every line of its
game) fills in when they were missed (a club started late, a club that was offline). Every
line is checked by the rules engine before it is kept; a garbled one is dropped and counted.

Each game received is written as a journal of its own in the club's games folder (the
archive lists them); club-index.json there maps each board's game to its journal, so that a
club started again goes on with the same files.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ...core.clock import ClockSettings
from ...games import game_from_header
from ...games import header_keys
from ...persist.journal_format import (
    ENTRY_FIELDS, JOURNAL_KEYS, OPTIONAL_FIELDS, JournalError,
)
from ...persist.journal_reader import read_journal
from ...persist.journal import Journal
from ...persist.journal_format import check_entry, check_header
from ..address import NAME
from ..messages import decode, game_snapshot, game_state, is_game_id, is_seq, is_time
from .snapshot_check import checked_snapshot
from ...language.phrases import Phrase, Phrasebook, message_of
from ...words import said

INDEX = "club-index.json"
WAITING_LIMIT = 1000  # lines kept waiting for a missing one, per game
WAITING_BYTES_GAME = 1 << 20  # bytes of lines waiting for a missing one, per game (a line is ~100)
WAITING_BYTES = 32 << 20  # and in all: a line not held now is sent again by its board (it is not confirmed)
JOURNAL_PAYLOAD_LIMIT = 64 << 10  # bytes of one journal line's message (a header with a layout is a few kB)
OPEN_JOURNALS = 64  # journals kept open at once; an idle one is closed, and opened again for its next line
BOARDS_LIMIT = 5000  # boards followed at once
GAMES_PER_BOARD = 200  # games the club starts for one board while it runs
LOG_EVERY = 10.0  # s: one log line per kind of problem at most this often (with the count of those not said)
LINES_LIMIT = 2000  # lines of one game (a real game has a few hundred; each is checked by replaying the game)
GAMES_KEPT = 50  # games of one board kept in memory (all stay in the journals)
log = logging.getLogger(__name__)
phrase = Phrasebook("commands")  # a game refused: said in the club's log, and to each reader of the API


@dataclass
class ClubGame:
    board: str
    id: str
    lines: list[dict] = field(default_factory=list)  # the journal's lines in order, the header first
    received: list[float] = field(default_factory=list)  # when each was taken (the club's clock)
    committed: list[float | None] = field(default_factory=list)  # when the board had it on disk
    waiting: dict[int, tuple[dict, float | None, int]] = field(default_factory=dict)  # seq -> line come early, size
    waiting_bytes: int = 0
    idle_lines: int | None = None  # its journal was closed while idle: the lines it has
    state: dict | None = None  # messages.game_state of the lines taken
    journal: Journal | None = None
    journal_name: str | None = None
    refused: Phrase | None = None  # why the game's lines are no longer taken: said where it is read
    stalled: bool = False  # the last line could not be written: it is taken when sent again

    @property
    def seq(self) -> int:
        return len(self.lines)


@dataclass
class ClubBoard:
    name: str
    online: bool | None = None
    since: str | None = None
    games: dict[str, ClubGame] = field(default_factory=dict)  # by id, oldest first
    current: str | None = None  # the game of its latest state or line
    snapshot: dict | None = None  # the board page's snapshot of its latest state
    snapshot_seq: int = 0  # the club's own count: a page follows it (a board's restarts count again)
    updated: float = 0.0
    started: int = 0  # games the club started for it


class Club:
    """What every board sent, as the club's page and API show it."""

    def __init__(self, games_dir: str | Path, *, prefix: str = "reedboard",
                 clock: Callable[[], float] = time.time, admitted: set[str] | None = None,
                 tournament=None) -> None:
        self.games_dir = Path(games_dir)
        self.tournament = tournament  # a tournament.Tournament the boards' results go to (None: a free evening)
        self.pairings_due = asyncio.Event()  # set when a board's pairing changed (the follower publishes it)
        self._tournament_json: tuple[int, bytes] | None = None
        self.admitted = admitted  # the boards that count in the standings (None: every board)
        self.prefix = prefix
        self.clock = clock
        self.boards: dict[str, ClubBoard] = {}
        self.duplicates = 0  # lines dropped as already taken
        self.garbled = 0  # messages dropped as not what docs/broadcast.md says
        self.connected = False
        self.confirmations: dict[tuple[str, str], dict] = {}  # (board, game): what to confirm to the board
        self.confirm_due = asyncio.Event()  # set when there is something to confirm to a board
        self.version = 0  # counts changes: the page's WebSocket waits for the next
        self.board_versions: dict[str, int] = {}  # each board's last change (a version)
        self._summaries: dict[str, tuple[int, bytes]] = {}  # each board's summary, encoded at its version
        self._standings: tuple[int, bytes] | None = None
        self._updates: dict[int, str] = {}  # the page's update since a version, at this version
        self._changed = asyncio.Event()
        self._index: dict[str, dict] = self._read_index()
        self.waiting_bytes = 0  # of lines come early, in all games
        self._open: collections.OrderedDict[tuple[str, str], ClubGame] = collections.OrderedDict()
        self._said: dict[str, tuple[float, int]] = {}  # kind of problem: when last said, how many not said since
        if tournament is not None:
            self.catch_up()

    # --- what comes in ----------------------------------------------------------------------------
    def receive(self, topic: str, payload: bytes) -> None:
        """One MQTT message under PREFIX/boards/NAME/KIND; anything else is dropped and counted."""
        head = f"{self.prefix}/boards/"
        rest = topic[len(head):].split("/") if topic.startswith(head) else []
        if len(rest) == 2 and rest[1] == "journal" and len(payload) > JOURNAL_PAYLOAD_LIMIT:  # not even decoded
            rest = []
        data = decode(payload) if len(rest) == 2 and NAME.match(rest[0]) else None
        if data is None:
            if payload or len(rest) != 2:  # an empty retained payload clears a topic: nothing to say
                self.garbled += 1
            return
        name, kind = rest
        handler = {"status": self._status, "journal": self._journal, "state": self._state}.get(kind)
        board = self._board(name)
        if board is None:
            self.garbled += 1
            self._say("boards", "reedboard club: more than %d boards: board %s is not followed", BOARDS_LIMIT, name)
            return
        if handler is None or not handler(board, data):
            self.garbled += 1
            return
        self._change(name)

    def _board(self, name: str) -> ClubBoard | None:
        board = self.boards.get(name)
        if board is None:
            if len(self.boards) >= BOARDS_LIMIT:
                return None
            board = self.boards[name] = ClubBoard(name)
        return board

    def _say(self, kind: str, message: str, *args) -> None:
        """A log line, at most one of a kind every LOG_EVERY seconds (a flood is said in one line)."""
        now = self.clock()
        last, unsaid = self._said.get(kind, (None, 0))
        if last is not None and now - last < LOG_EVERY:
            self._said[kind] = (last, unsaid + 1)
            return
        self._said[kind] = (now, 0)
        log.warning(message + (f" (and {unsaid} more like it)" if unsaid else ""), *args)

    def _status(self, board: ClubBoard, data: dict) -> bool:
        online = data.get("online")
        if not isinstance(online, bool):
            return False
        board.online = online
        since = data.get("since")
        board.since = since if online and isinstance(since, str) else board.since
        return True

    def _journal(self, board: ClubBoard, data: dict) -> bool:
        game_id, seq, entry = data.get("game"), data.get("seq"), data.get("entry")
        if not (is_game_id(game_id) and is_seq(seq) and seq <= LINES_LIMIT and isinstance(entry, dict)):
            return False
        committed = data.get("committed") if is_time(data.get("committed")) else None
        self._offer(board, game_id, seq, entry, committed, len(json.dumps(entry)))
        self._confirm_game(board, board.games.get(game_id))
        return True

    def _confirm_game(self, board: ClubBoard, game: ClubGame | None) -> None:
        """Tell the board how many lines of the game the club has stored (or that it refuses it)."""
        if game is None:
            return
        message = {"v": 1, "game": game.id, "seq": game.seq}
        if game.refused is not None:
            message["refused"] = True
        self.confirmations[(board.name, game.id)] = message
        self.confirm_due.set()

    def _state(self, board: ClubBoard, data: dict) -> bool:
        game_id, seq, lines = data.get("game"), data.get("seq"), data.get("lines")
        if not (is_game_id(game_id) and is_seq(seq) and seq <= LINES_LIMIT and isinstance(lines, list)
                and len(lines) >= seq):
            return False
        game = self._game(board, game_id)
        if game is None:
            return True
        for number in range(game.seq + 1, seq + 1):  # the lines missed, from the state
            if isinstance(lines[number - 1], dict):
                self._offer(board, game_id, number, lines[number - 1], None, 0)
        snapshot = data.get("snapshot")
        if game.seq >= seq and game.lines and game.refused is None:  # served only as the club's lines have it
            own = game_snapshot(game.lines[0], game.lines[1:], game.journal_name)
            board.snapshot = checked_snapshot(snapshot, own)
            board.snapshot_seq += 1
        board.current = game_id
        board.updated = self.clock()
        self._confirm_game(board, game)
        return True

    def _game(self, board: ClubBoard, game_id: str) -> ClubGame | None:
        """The board's game (None: the board started more than GAMES_PER_BOARD games)."""
        game = board.games.get(game_id)
        if game is None:
            if board.started >= GAMES_PER_BOARD and f"{board.name}/{game_id}" not in self._index:
                self._say("games", "reedboard club: board %s started more than %d games: game %s is not followed",
                          board.name, GAMES_PER_BOARD, game_id)
                return None
            board.started += 1
            game = board.games[game_id] = ClubGame(board.name, game_id)
            self._restore(game)
            while len(board.games) > GAMES_KEPT:
                old = board.games.pop(next(iter(board.games)))
                self._drop_waiting(old)
                self._close(old)
        return game

    def _offer(self, board: ClubBoard, game_id: str, seq: int, entry: dict, committed: float | None,
               size: int) -> None:
        game = self._game(board, game_id)
        if game is None:
            return
        if seq <= game.seq:
            self.duplicates += 1
            return
        if game.refused is not None:
            return
        if seq > game.seq + 1:  # held while it fits: one not held is sent again by its board
            if seq not in game.waiting and len(game.waiting) < WAITING_LIMIT \
                    and game.waiting_bytes + size <= WAITING_BYTES_GAME and self.waiting_bytes + size <= WAITING_BYTES:
                game.waiting[seq] = (entry, committed, size)
                game.waiting_bytes += size
                self.waiting_bytes += size
            return
        game.stalled = False
        self._take(board, game, entry, committed)
        while game.refused is None and not game.stalled and game.seq + 1 in game.waiting:
            entry, committed, size = game.waiting.pop(game.seq + 1)
            game.waiting_bytes -= size
            self.waiting_bytes -= size
            self._take(board, game, entry, committed)
        if game.refused is not None:
            self._drop_waiting(game)
        for stale in [s for s in game.waiting if s <= game.seq]:
            size = game.waiting.pop(stale)[2]
            game.waiting_bytes -= size
            self.waiting_bytes -= size

    def _drop_waiting(self, game: ClubGame) -> None:
        self.waiting_bytes -= game.waiting_bytes
        game.waiting, game.waiting_bytes = {}, 0

    def _take(self, board: ClubBoard, game: ClubGame, entry: dict, committed: float | None) -> None:
        """The next line of `game`, checked once (as the journal reads it, then by the rules
        engine): what passes is both shown and written to its journal, what does not neither."""
        if not game.lines and entry.get("type") != "header":
            game.refused = phrase("its first line is not a header")
            return
        try:
            entry = journal_line(game.seq + 1, entry)
            header = entry if not game.lines else game.lines[0]
            state = game_state(header, [*game.lines[1:], entry] if game.lines else [])
        except (JournalError, ValueError, KeyError, TypeError) as error:
            problem = message_of(error)
            if not isinstance(problem, Phrase):  # the rules engine's or Python's words on a line it cannot use
                problem = str(problem).splitlines()[0] if str(problem) else phrase("not a journal line")
            game.refused = phrase("line {number}: {problem}", number=game.seq + 1, problem=problem)
            self._say("refused", "reedboard club: board %s, game %s: %s", board.name, game.id, said(game.refused)[:200])
            self.garbled += 1
            return
        try:
            self._write(game, entry)
        except (OSError, ValueError) as error:  # the club's disk: not taken, so not confirmed; the board sends it again
            self._say("disk", "reedboard club: board %s, game %s: not written (%s)", board.name, game.id, error)
            game.stalled = True
            return
        game.lines.append(entry)
        game.received.append(self.clock())
        game.committed.append(committed)
        game.state = state
        board.current = game.id
        board.updated = self.clock()
        if entry["type"] == "result" or (entry["type"] == "players" and state["result"]):
            self._finished(board.name, game)

    # --- the tournament ---------------------------------------------------------------------------------
    def _finished(self, board: str, game: ClubGame) -> None:
        """A board's game has its result: the tournament's, when it is the game paired on that board
        (taken once: the tournament drops a game it has already taken)."""
        state = game.state
        if self.tournament is None or not state or not state["result"]:
            return
        if self.admitted is not None and board not in self.admitted:
            return
        if len(state["record"]) < len(state["colours"]):
            return  # a result counts after the game's moves: each player moved at least once
        if self.tournament.take_board_result(board, game.id, state["players"], state["result"]["winner"]) is not None:
            self.tournament_changed()

    def tournament_changed(self) -> None:
        """The tournament changed (a result, the organiser): the page and the boards' pairings follow."""
        self.pairings_due.set()
        self._change()

    def catch_up(self) -> None:
        """The results of the games the club had stored before it was started again, each offered
        to the tournament (which takes only those it has not): a club killed between storing a
        game's result and the tournament's line loses nothing."""
        for key in list(self._index):
            name, __, game_id = key.partition("/")
            if name in self.boards and game_id in self.boards[name].games:
                continue
            path = self.games_dir / self._index[key]["journal"]
            try:
                contents = read_journal(path)
                state = game_state(contents.header, contents.entries)
            except (OSError, JournalError, ValueError, KeyError, TypeError):
                continue
            if state["result"]:
                game = ClubGame(name, game_id, state=state)
                self._finished(name, game)

    def tournament_json(self) -> bytes:
        if self.tournament is None:
            return b'{"tournament":null}'
        if self._tournament_json is None or self._tournament_json[0] != len(self.tournament.events):
            self._tournament_json = (len(self.tournament.events), encode_json(self.tournament.summary()))
        return self._tournament_json[1]

    # --- the club's journals --------------------------------------------------------------------------
    def _write(self, game: ClubGame, entry: dict) -> None:
        kind = entry["type"]
        if kind == "header":
            if game.journal is not None or game.journal_name is not None:
                return
            started = _started(entry.get("started"))
            clock = entry.get("clock")
            game.journal = Journal.create(
                self.games_dir, game_from_header(entry, JOURNAL_KEYS), entry.get("settings", {}), started,
                ClockSettings(clock["minutes"], clock["increment"]) if clock else None,
                players=entry.get("players"), computer=entry.get("computer"),
                occasion={key: entry[key] for key in ("event", "place", "round", "table") if key in entry})
            game.journal_name = game.journal.path.name
            self._opened(game)
            self._index[f"{game.board}/{game.id}"] = {"journal": game.journal_name, "skipped": []}
            self._write_index()
            return
        journal = self._opened(game)
        if journal is None:
            return
        if kind == "result":
            journal.append_entry(entry)
            self._close(game)
            game.idle_lines = None
        elif kind != "resume":
            journal.append_entry(entry)
        else:  # a board's `resume` line (its restart) tells nothing about the game: its number is kept
            known = self._index.get(f"{game.board}/{game.id}")
            if known is not None:
                known["skipped"].append(game.seq + 1)
                self._write_index()

    def _restore(self, game: ClubGame) -> None:
        """A game the club had begun before it was started again: its journal's lines taken again
        (their sequence numbers are the board's, which a resume line on the board shifts: the
        board's state fills in whatever differs)."""
        known = self._index.get(f"{game.board}/{game.id}")
        if known is None:
            return
        game.journal_name = known["journal"]
        path = self.games_dir / known["journal"]
        try:
            contents = read_journal(path)
        except JournalError:
            return
        # the club's own resume lines (it was started again) are not the board's
        lines = [contents.header, *(e for e in contents.entries if e["type"] != "resume")]
        for seq in sorted(known["skipped"]):  # the board's lines the club did not write, in their places
            lines.insert(seq - 1, {"type": "resume", "resumed": ""})
        game.lines = lines
        game.received = [0.0] * len(game.lines)
        game.committed = [None] * len(game.lines)
        game.state = game_state(contents.header, contents.entries)
        if contents.damage is not None:
            game.refused = contents.damage.problem
        if game.state["result"] is None and contents.damage is None:
            with contextlib.suppress(OSError, JournalError, ValueError):
                game.journal = Journal.resume(path)
                self._opened(game)
        elif game.state["result"] is not None:
            self._finished(game.board, game)

    # --- open journals: at most OPEN_JOURNALS ------------------------------------------------------------
    def _opened(self, game: ClubGame) -> Journal | None:
        """The game's journal, open (opened again when it was closed while idle); the journal
        open longest without a line is closed when more than OPEN_JOURNALS are."""
        if game.journal is None and game.idle_lines is not None and game.journal_name is not None:
            game.journal = Journal(self.games_dir / game.journal_name,
                                   open(self.games_dir / game.journal_name, "ab"), game.idle_lines)
            game.idle_lines = None
        if game.journal is None:
            return None
        key = (game.board, game.id)
        self._open[key] = game
        self._open.move_to_end(key)
        while len(self._open) > OPEN_JOURNALS:
            _, idle = self._open.popitem(last=False)
            lines = idle.journal.lines if idle.journal is not None else None
            self._close(idle)
            idle.idle_lines = lines
        return game.journal

    def _close(self, game: ClubGame) -> None:
        self._open.pop((game.board, game.id), None)
        if game.journal is not None:
            game.journal.close()
            game.journal = None

    def _read_index(self) -> dict[str, str]:
        try:
            data = json.loads((self.games_dir / INDEX).read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {key: {"journal": value["journal"], "skipped": [n for n in value.get("skipped", []) if is_seq(n)]}
                for key, value in data.items()
                if isinstance(value, dict) and isinstance(value.get("journal"), str) and "/" not in value["journal"]
                and isinstance(value.get("skipped", []), list)}

    def _write_index(self) -> None:
        path = self.games_dir / INDEX
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(self._index, indent=1), "utf-8")
        os.replace(temporary, path)

    def close(self) -> None:
        for board in self.boards.values():
            for game in board.games.values():
                self._close(game)

    @property
    def open_journals(self) -> int:
        return len(self._open)

    # --- what goes out ----------------------------------------------------------------------------------
    def link(self, connected: bool) -> None:
        """The follower's word: connected to the broker (what waited is confirmed now), or not."""
        self.connected = connected
        self._change()
        if connected:
            self.confirm_due.set()

    def _change(self, board: str | None = None) -> None:
        self.version += 1
        if board is not None:
            self.board_versions[board] = self.version
        self._updates.clear()
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    # --- encoded once per change, whoever watches ------------------------------------------------------
    def summary_json(self, name: str) -> bytes:
        version = self.board_versions.get(name, 0)
        cached = self._summaries.get(name)
        if cached is None or cached[0] != version:
            cached = self._summaries[name] = (version, encode_json(self.summary(self.boards[name])))
        return cached[1]

    def summaries_json(self) -> bytes:
        return b"[" + b",".join(self.summary_json(name) for name in sorted(self.boards)) + b"]"

    def standings_json(self) -> bytes:
        if self._standings is None or self._standings[0] != self.version:
            self._standings = (self.version, encode_json(self.standings()))
        return self._standings[1]

    def update_since(self, since: int) -> str:
        """The page's update for a watcher that has everything up to version `since` (0: nothing):
        the boards changed since (all of them for 0), the standings, the link. Made once per
        version and `since`, whatever the number of watchers."""
        message = self._updates.get(since)
        if message is None:
            names = sorted(self.boards) if since == 0 else sorted(
                name for name, version in self.board_versions.items() if version > since)
            message = (b'{"full":' + (b"true" if since == 0 else b"false") + b',"version":'
                       + str(self.version).encode() + b',"boards":['
                       + b",".join(self.summary_json(name) for name in names) + b'],"standings":'
                       + self.standings_json() + b',"tournament":' + self.tournament_json()
                       + b',"connected":' + (b"true" if self.connected else b"false") + b"}").decode("utf-8")
            if len(self._updates) < 64:
                self._updates[since] = message
        return message

    async def changed(self) -> None:
        """Wait for the next change."""
        await self._changed.wait()

    def summaries(self) -> list[dict]:
        return [self.summary(board) for board in sorted(self.boards.values(), key=lambda b: b.name)]

    def summary(self, board: ClubBoard) -> dict:
        game = board.games.get(board.current) if board.current else None
        state = game.state if game is not None else None
        record = state["record"] if state else []
        return {
            "name": board.name, "online": board.online, "since": board.since,
            "game": game.id if game else None, "seq": game.seq if game else 0,
            "kind": state["kind"] if state else None, "title": state["title"] if state else None,
            "colours": state["colours"] if state else [], "players": state["players"] if state else {},
            **{key: state.get(key) if state else None for key in ("event", "round", "table")},
            "score": state.get("score") if state else None, "to_move": state["to_move"] if state else None,
            "roll": state["roll"] if state else None, "moves": len(record),
            "last_move": record[-1] if record else None, "result": state["result"] if state else None,
            "position": state["position"] if state else {}, "updated": board.updated,
            "received": game.received[-1] if game and game.received else None,
            "committed": game.committed[-1] if game and game.committed else None,
        }

    def detail(self, name: str) -> dict | None:
        board = self.boards.get(name)
        if board is None:
            return None
        game = board.games.get(board.current) if board.current else None
        summary = self.summary(board)
        geometry = None
        if game is not None and game.lines:
            with contextlib.suppress(ValueError):
                geometry = game_from_header(game.lines[0], JOURNAL_KEYS).geometry()
        return {**summary, "geometry": geometry,
                "record": game.state["record"] if game and game.state else [],
                "clock": game.state["clock"] if game and game.state else None,
                "lines": [{"seq": n, "entry": entry, "received": game.received[n - 1],
                           "committed": game.committed[n - 1]} for n, entry in enumerate(game.lines, 1)]
                if game else [],
                "journal": game.journal_name if game else None, "refused": game.refused if game else None,
                "games": [{"game": g.id, "seq": g.seq, "journal": g.journal_name,
                           "result": g.state["result"] if g.state else None} for g in board.games.values()]}

    def board_snapshot(self, name: str) -> dict | None:
        """The board page's snapshot of the board's current game (None: none received yet)."""
        board = self.boards.get(name)
        if board is None or board.snapshot is None:
            return None
        return {**board.snapshot, "seq": board.snapshot_seq}

    def standings(self) -> list[dict]:
        """The evening's players: games finished, wins, draws, losses and points (a win 1, a draw ½)."""
        table: dict[str, dict] = {}
        for board in self.boards.values():
            if self.admitted is not None and board.name not in self.admitted:
                continue
            for game in board.games.values():
                state = game.state
                if not state or not state["result"] or len(state["record"]) < len(state["colours"]):
                    continue  # a result counts after the game's moves: each player moved at least once
                winner = state["result"]["winner"]
                for colour in state["colours"]:
                    who = state["players"].get(colour) or f"{board.name} {colour}"
                    row = table.setdefault(who, {"player": who, "games": 0, "wins": 0, "draws": 0, "losses": 0,
                                                 "points": 0.0})
                    row["games"] += 1
                    if winner is None:
                        row["draws"] += 1
                        row["points"] += 0.5
                    elif winner == colour:
                        row["wins"] += 1
                        row["points"] += 1
                    else:
                        row["losses"] += 1
        return sorted(table.values(), key=lambda r: (-r["points"], -r["wins"], r["player"]))


def encode_json(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


def journal_line(number: int, entry: dict) -> dict:
    """A received journal line as the club keeps it: the keys the journal knows for its type
    (a later version's added keys left out, as docs/broadcast.md says a reader does), checked as
    the journal checks a line it reads (JournalError). The one check of what is shown and written."""
    kind = entry.get("type")
    if kind == "header":
        known = JOURNAL_KEYS | header_keys()
    else:
        known = {"type", *ENTRY_FIELDS.get(kind, ()), *OPTIONAL_FIELDS.get(kind, ())}
    line = {key: value for key, value in entry.items() if key in known}
    if kind == "header":
        check_header(None, line)
    else:
        check_entry(None, number, line)
    return line


def _started(text: object) -> datetime:
    if isinstance(text, str):
        with contextlib.suppress(ValueError):
            return datetime.fromisoformat(text)
    return datetime.now().astimezone()
