"""A board's broadcast: its journal, line by line, to an MQTT broker, in order, never in the game's way.

The session's journal hook only puts each line in a queue; a task of its own sends them. A
broker that is down or slow costs the game nothing: lines wait (their text is on disk
anyway), and after reconnecting everything the broker has not acknowledged is sent again,
read back from the journal, in order. A line acknowledged twice (sent, connection lost before
the acknowledgement came) reaches the receiver twice; it drops the second by its sequence
number (the journal's line number).

On connecting, the board publishes its retained online status and waits to hear it back: a
broker whose ACL does not let it write under its name says nothing, so the echo is how the
board knows, and says so in one line.

The broker's acknowledgement says only that the broker has a line; the club confirms what it
has stored (PREFIX/club/confirmed/NAME: a game and how many of its lines). What the club has
not confirmed is sent again: after reconnecting, and when no confirmation came for a while (a
broker restarted and lost what it held, a club away). The outbox (a small file beside the
journals) keeps how far the club confirmed each journal, so that a board started again sends
what waits, old games included. It is read as a file someone may have damaged: a regular file
only (no link followed, no FIFO waited on, no device read), of a bounded size, its values
checked. One missing or unreadable is rebuilt from the journals of the last day and the club's
confirmations: every game of that day is offered again from its first line, and the club's
confirmation of what it has stored skips the rest; the board says so once.

The club says on PREFIX/club/status (retained, its last will saying offline) whether it
follows the broker: a replay waits for its confirmations only then.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import math
import os
import secrets
import stat
import sys
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import aiomqtt
from aiomqtt.exceptions import MqttConnectError

from ...persist.game_files import SUFFIX, TRACE_SUFFIX
from ...ground.readfile import JOURNAL_LIMIT, FileRefused, read_bytes
from ..address import BroadcastError, BrokerAddress, check_name, parse_broker_url
from .arguments import add_broadcast_arguments
from ...language.catalogue import COMMANDS
from ..messages import (
    board_topic, club_status_topic, decode, encode, game_snapshot, journal_message, pairing_topic, read_pairing,
    state_message, status_message,
)
from ...words import said

RETRY_FIRST, RETRY_MOST = 0.5, 10.0  # s between connection attempts, doubling
_ = COMMANDS.gettext
ngettext = COMMANDS.ngettext

REFUSED_RETRY = 30.0  # s between attempts once the broker refused the board
ECHO_WAIT = 5.0  # s to hear the board's own status back
SNAPSHOT_EVERY = 1.0  # s: the board page's snapshot goes out at most this often between journal lines
TIMEOUT = 5.0  # s for the broker to acknowledge one message
KEEPALIVE = 10  # s: a cut connection is noticed within one and a half of these
RESEND_FIRST, RESEND_MOST = 5.0, 60.0  # s without the club's confirmation before sending again, doubling
OUTBOX_EVERY = 1.0  # s: the outbox file is written at most this often (and at the stop)
OUTBOX_LIMIT = 1 << 20  # bytes of an outbox file read (an entry is ~40 bytes: 25,000 games)
REBUILD_HOURS = 24  # a missing or unreadable outbox: the games of this many hours are offered to the club again
MTIME_SLACK = 2.0  # s: a journal last written this little before the outbox's `since` is the board's broadcast
CLOCK_SLACK = 3600.0  # s: an outbox's `since` later than now by more than this is damage, not a clock set late


def board_name(name: str | None, address: BrokerAddress) -> str:
    """The name given, else the broker user's (one user per board), else this computer's name."""
    if name:
        return check_name(name)
    if address.username:
        return check_name(address.username)
    import socket
    return check_name(socket.gethostname().split(".")[0] or "board")


def attach(session, url: str | BrokerAddress, name: str | None = None, **options) -> Broadcaster:
    """Broadcast `session` (a PlaySession): every journal line it writes, and its snapshot with
    the retained state. BroadcastError (one line) for a bad URL or name. The broadcast starts by
    itself at the session's first journal line (or at `await broadcaster.start()`); `await
    broadcaster.stop()` says the board is offline (left out: the broker's last will says so)."""
    address = url if isinstance(url, BrokerAddress) else parse_broker_url(url)
    name = board_name(name, address)
    options.setdefault("outbox", Path(session.games_dir) / f".broadcast-{name}.json")
    broadcaster = Broadcaster(address, name, snapshot=session.snapshot, updates=session.updates, **options)
    session.journal_lines.append(broadcaster.line_written)
    own = {"clock": session.game_clock}  # the board's own clock, again once it has no tournament game
    broadcaster.on_pairing = lambda pairing: _seat_players(session, pairing, own)
    atexit.register(broadcaster.farewell)  # `play` ended (Ctrl-C): what waits is in the outbox, and said
    return broadcaster


def _seat_players(session, pairing: dict | None, own: dict | None = None) -> None:
    """A tournament's pairing for this board: its players' names for the games from now on, the
    tournament, round and board number for their headers while those players sit at it, the
    tournament's time control for the board's game clock (none given: the board's own), and a
    game not yet begun (no move) started again with them, so that its header names them. No
    game on the board this round (None): the next games are no tournament's, on the board's own
    clock (`own["clock"]`)."""
    from ...core.clock import ClockSettings
    from ...games import GAMES

    if pairing is None:
        if session.pairing is not None and own is not None:
            session.game_clock = own["clock"]
        session.pairing = None
        return
    if session.kind not in GAMES or set(pairing["players"]) != set(GAMES[session.kind].players):
        return
    clock = pairing.get("clock")
    if clock and clock["minutes"] > 0:  # (read_pairing checked both are whole numbers 0-600)
        session.game_clock = ClockSettings(clock["minutes"], clock["increment"])
    elif own is not None:
        session.game_clock = own["clock"]
    session.players = dict(pairing["players"])
    session.pairing = {"event": pairing.get("event"), "round": pairing["round"], "table": pairing["number"],
                       "players": dict(pairing["players"])}
    referee = session.referee
    if referee is None or not referee.game.move_stack:
        asyncio.get_running_loop().create_task(session.new_game(players=pairing["players"]))


@dataclass
class _Game:
    """One game's journal as far as the board has told it, and how far the broker has acknowledged it."""

    path: Path
    lines: list[dict] = field(default_factory=list)  # the journal's lines, the header first
    committed: dict[int, float] = field(default_factory=dict)  # line number -> when it was on disk
    told: int = 0  # lines written (the last one's number)
    acked: int = 0  # lines the broker acknowledged
    confirmed: int = 0  # lines the club confirmed it has stored
    reread: bool = False  # lines are missing in `lines`: read the journal again
    stateless: bool = False  # the rules engine refused its lines (said once)

    @property
    def id(self) -> str:
        return self.path.name.removesuffix(SUFFIX)


def _say(line: str) -> None:
    print(f"reedboard: broadcast: {line}", file=sys.stderr, flush=True)


class Broadcaster:
    """Publishes a board's journal lines and state under PREFIX/boards/NAME/ (see messages.py)."""

    def __init__(self, address: BrokerAddress, name: str, *, snapshot: Callable[[], dict] | None = None,
                 updates: Callable[[], AsyncIterator[dict]] | None = None, snapshot_every: float = SNAPSHOT_EVERY,
                 say: Callable[[str], None] = _say, identifier: str | None = None,
                 retry: tuple[float, float] = (RETRY_FIRST, RETRY_MOST), timeout: float = TIMEOUT,
                 echo_wait: float = ECHO_WAIT, refused_retry: float = REFUSED_RETRY,
                 outbox: Path | None = None, resend: tuple[float, float] = (RESEND_FIRST, RESEND_MOST),
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.address = address
        self.name = check_name(name)
        self.snapshot = snapshot
        self.updates, self.snapshot_every = updates, snapshot_every
        self._snapshot_due = False
        self._watch: asyncio.Task | None = None
        self.say = say
        self.identifier = identifier or f"reedboard-board-{self.name}"
        self.retry, self.timeout, self.echo_wait, self.refused_retry = retry, timeout, echo_wait, refused_retry
        self.state = "starting"  # then "online", "offline" (trying again) or "refused"
        self.problem: str | None = None  # the last problem said, until connected again
        self.published = 0  # journal lines the broker acknowledged
        self.connections = 0  # successful connections so far
        self._queue: asyncio.Queue = asyncio.Queue()
        self._games: dict[Path, _Game] = {}
        self._latest: _Game | None = None
        self._task: asyncio.Task | None = None
        self._idle: asyncio.Event | None = None
        self._stopping = False
        self.outbox, self.resend, self.clock = outbox, resend, clock
        self._resend_wait = resend[0]
        self._heard = clock()  # when the club last confirmed something (or the sending began)
        self._outbox_written = 0.0
        self._outbox_dirty = False
        self._outbox_unborn = False  # its folder was not there: written at the first journal line, which makes it
        self._since = time.time()
        self._known: dict[str, int] = {}  # journal name -> lines the club confirmed (games no longer followed too)
        self._write_problem: str | None = None  # the outbox could not be written (said once)
        self._farewell_said = False
        self.club_following: bool | None = None  # the club's retained status (None: none heard)
        self.refusal = asyncio.Event()  # set while the broker refuses the board
        self.pairing: dict | None = None  # a tournament's game on this board (PREFIX/club/pairing/NAME)
        self.on_pairing: Callable[[dict | None], None] | None = None  # told of each pairing heard
        if outbox is not None:
            self._read_outbox()

    def topic(self, kind: str) -> str:
        return board_topic(self.address.prefix, self.name, kind)

    # --- the session's side: never waits ------------------------------------------------------
    def line_written(self, path: Path, number: int, entry: dict) -> None:
        """The journal hook: told (path, line number, entry) of every line once it is on disk."""
        self._queue.put_nowait((Path(path), number, dict(entry), time.time()))
        if self._outbox_unborn:  # the board's first game made the folder: from now on a kill loses nothing
            self._outbox_unborn = False
            self._write_outbox()
        self._ensure_started()

    def _ensure_started(self) -> None:
        if (self._task is not None and not self._task.done()) or self._stopping:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # started with the loop: at the next line, or by start()
        self._idle = asyncio.Event()
        self._task = loop.create_task(self._run(), name=f"broadcast {self.name}")
        if self.updates is not None and self._watch is None:
            self._watch = loop.create_task(self._watch_snapshots(), name=f"broadcast {self.name} snapshots")

    async def start(self) -> None:
        """Connect now (rather than at the first journal line)."""
        self._ensure_started()

    @property
    def pending(self) -> int:
        """Journal lines written but not yet acknowledged by the broker."""
        self._take_queued()
        return sum(max(0, game.told - game.acked) for game in self._games.values())

    @property
    def unconfirmed(self) -> int:
        """Journal lines written but not yet confirmed by the club (they wait in the outbox)."""
        self._take_queued()
        return sum(max(0, game.told - game.confirmed) for game in self._games.values())

    async def confirmed(self, timeout: float | None = None) -> bool:
        """Wait until the club has confirmed every line written so far; False on timeout."""
        return await self._until_none(lambda: self.unconfirmed, timeout)

    async def flushed(self, timeout: float | None = None) -> bool:
        """Wait until the broker has acknowledged every line written so far; False on timeout."""
        return await self._until_none(lambda: self.pending, timeout)

    async def _until_none(self, count, timeout: float | None) -> bool:
        """Wait until `count()` lines are left (0), woken each time the sender goes idle."""
        async def wait() -> None:
            while count():
                self._idle.clear()
                await self._idle.wait()
        if self._task is None:
            return count() == 0
        try:
            await asyncio.wait_for(wait(), timeout)
            return True
        except asyncio.TimeoutError:
            return False

    async def stop(self, flush: float = 0.0, *, say_waiting: bool = True) -> None:
        """Stop broadcasting: after `flush` seconds at most for what is still unsent, say the board
        is offline (retained) and disconnect. What was not sent stays in the journal.

        The sender ends even when its cancellation is lost: Python 3.11's asyncio.wait_for (in
        aiomqtt's wait for an acknowledgement) returns the result, swallowing the cancellation,
        when the acknowledgement comes as the stop does. The sender looks at `_stopping` before
        each wait of its own, and is woken to look. `say_waiting` False: how many lines wait
        is not said (a replay the broker refused has said all there is)."""
        if self._task is None:
            return
        self._farewell_said = self._farewell_said or not say_waiting
        if flush > 0:
            await self.flushed(flush)
        self._stopping = True
        task, self._task = self._task, None
        watch, self._watch = self._watch, None
        self._queue.put_nowait("confirmed")  # a wake-up (it says nothing): the sender looks at `_stopping`
        for running in (watch, task):
            if running is not None:
                running.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await running
        self.farewell()

    def farewell(self) -> None:
        """The outbox written, and how many lines wait said (once; also with no loop running)."""
        self._write_outbox()
        waiting = self.unconfirmed
        if waiting and not self._farewell_said:
            self._farewell_said = True
            if self.outbox is None:  # (a replay: its journal is not kept for a next broadcast)
                self.say(ngettext("{n} journal line was not confirmed by the club",
                                  "{n} journal lines were not confirmed by the club", waiting).format(n=waiting))
                return
            self.say(ngettext("{n} journal line waits for the club's confirmation: it is sent when the board broadcasts"
                              " again", "{n} journal lines wait for the club's confirmation: they are sent when the"
                              " board broadcasts again", waiting).format(n=waiting))

    # --- the task's side -------------------------------------------------------------------------
    def _take_queued(self) -> None:
        while True:
            try:
                item = self._queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            self._take_item(item)

    def _take_item(self, item) -> None:
        if item is None:
            self._snapshot_due = True
        elif item == "confirmed":
            pass  # a wake-up: the club confirmed lines
        else:
            self._take(*item)

    async def _watch_snapshots(self) -> None:
        """The board page's snapshot (a piece lifted, a light, a note) between journal lines:
        a wake-up for the sender at most every `snapshot_every` seconds."""
        with contextlib.suppress(Exception):  # the page's snapshots are a courtesy: never the game's concern
            async for __ in self.updates():
                self._queue.put_nowait(None)
                await asyncio.sleep(self.snapshot_every)

    def _take(self, path: Path, number: int, entry: dict, committed: float) -> None:  # a journal line
        game = self._games.get(path)
        if game is None:
            game = self._games[path] = _Game(path)
            self._latest = game
        game.committed[number] = committed
        if number == len(game.lines) + 1 and not game.reread:
            game.lines.append(entry)
        else:
            game.reread = True  # a resumed journal: what came before is on disk
        game.told = max(game.told, number)
        self._forget_done()

    def _forget_done(self) -> None:
        """Games wholly confirmed, but the newest, need not be kept; the lines of one wholly
        sent are read again from its journal if the club asks for them again."""
        for path, game in list(self._games.items()):
            if game is self._latest:
                continue
            if game.confirmed >= game.told:
                self._known[path.name] = game.confirmed  # (the outbox still says so)
                del self._games[path]
            elif game.acked >= game.told and game.lines:
                game.lines, game.reread = [], True

    # --- the club's confirmations and the outbox ------------------------------------------------
    def _confirm(self, data: dict) -> None:
        """PREFIX/club/confirmed/NAME: {"game": ID, "seq": N} (or "refused": true)."""
        game_id, seq = data.get("game"), data.get("seq")
        game = next((g for g in self._games.values() if g.id == game_id), None)
        if game is None or not isinstance(seq, int) or isinstance(seq, bool):
            return
        confirmed = game.told if data.get("refused") is True else min(max(seq, 0), game.told)
        if confirmed > game.confirmed:
            game.confirmed = confirmed
            game.acked = max(game.acked, confirmed)  # what the club has is not sent (again)
            self._heard = self.clock()
            self._resend_wait = self.resend[0]
            self._outbox_dirty = True
            self._queue.put_nowait("confirmed")

    def _read_outbox(self) -> None:
        """The journals beside the outbox whose lines the club has not all confirmed: sent again.
        An outbox missing or unreadable is rebuilt (see the module's words)."""
        folder = self.outbox.parent
        now = time.time()
        try:
            data = outbox_contents(self.outbox, now)
        except FileNotFoundError:
            data, problem = None, None
        except OSError as error:
            data, problem = None, said(error) or type(error).__name__
        if data is None:
            self._rebuild(folder, now, problem)
            return
        self._known = {name: done for name, done in data["confirmed"].items() if (folder / name).exists()}
        if data["broker"] != self._broker_key():  # a first broadcast to this club: from now on
            self._outbox_dirty = True
            self._write_outbox()
            return
        self._since = data["since"]
        for path in self._journals(folder):
            done = self._known.get(path.name)
            try:
                if done is None and path.stat().st_mtime < self._since - MTIME_SLACK:
                    continue  # a game from before the board broadcast
                lines = _whole_lines(path)
            except OSError:
                continue
            done = done or 0
            if lines > done:
                game = self._games[path] = _Game(path, told=lines, acked=done, confirmed=done, reread=True)
                self._latest = game

    def _rebuild(self, folder: Path, now: float, problem: str | None) -> None:
        """No outbox (`problem` None), or one that cannot be read: every game of the last
        REBUILD_HOURS is offered to the club from its first line; the club's confirmation of
        what it has stored skips the rest (and a first broadcast finds no game, or a few)."""
        since = now - REBUILD_HOURS * 3600
        offered = 0
        for path in self._journals(folder):
            try:
                if path.stat().st_mtime < since:
                    continue
                lines = _whole_lines(path)
            except OSError:
                continue
            if lines:
                game = self._games[path] = _Game(path, told=lines, reread=True)
                self._latest = game
                offered += 1
        if problem is not None:
            self.say(_("the outbox {outbox} cannot be read ({problem}): rebuilt from the journals of the last {hours}"
                       " hours and the club's confirmations").format(outbox=self.outbox, problem=problem,
                                                                    hours=REBUILD_HOURS))
        elif offered:
            self.say(ngettext("there is no outbox {outbox}: rebuilt from the journals of the last {hours} hours and the"
                              " club's confirmations ({n} game is offered to the club again)",
                              "there is no outbox {outbox}: rebuilt from the journals of the last {hours} hours and the"
                              " club's confirmations ({n} games are offered to the club again)", offered).format(
                outbox=self.outbox, hours=REBUILD_HOURS, n=offered))
        if offered:
            self._since = since
        self._outbox_dirty = True
        self._write_outbox()

    def _journals(self, folder: Path) -> list[Path]:
        """The board's journals in its games folder, oldest first (its traces left out)."""
        try:
            found = [(path.stat().st_mtime, path) for path in folder.glob(f"*{SUFFIX}")
                     if not path.name.endswith(TRACE_SUFFIX) and path.is_file()]
        except OSError:
            return []
        return [path for __, path in sorted(found)]

    def _write_outbox(self, now: float | None = None) -> None:
        if self.outbox is None or not self._outbox_dirty:
            return
        now = self.clock() if now is None else now
        self._outbox_written, self._outbox_dirty = now, False
        self._known.update({game.path.name: game.confirmed for game in self._games.values()})
        data = {"v": 1, "broker": self._broker_key(), "since": self._since, "confirmed": self._known}
        if not self.outbox.parent.is_dir():  # no journal was written there yet
            self._outbox_dirty = self._outbox_unborn = True
            return
        temporary = self.outbox.with_name(self.outbox.name + ".tmp")
        try:
            _write_new(temporary, json.dumps(data, allow_nan=False).encode("utf-8"))
            os.replace(temporary, self.outbox)  # (a link, a FIFO in its place is replaced, not followed)
        except OSError as error:
            with contextlib.suppress(OSError):
                if stat.S_ISREG(os.lstat(temporary).st_mode):
                    os.unlink(temporary)
            problem = said(error)
            if problem != self._write_problem:
                self._write_problem = problem
                self.say(_('cannot write the outbox {outbox} ({problem}): what waits is sent again').format(
                    outbox=self.outbox, problem=said(error)))
            return
        self._write_problem = None

    def _broker_key(self) -> str:
        return f"{self.address.host}:{self.address.port}/{self.address.prefix}"

    async def _run(self) -> None:
        delay = self.retry[0]
        try:
            while not self._stopping:  # (a stop whose cancellation was swallowed ends here)
                try:
                    async with self._client() as client:
                        if not await self._announce(client):
                            self._refused(_('the broker at {address} does not let board {name} publish under {topic} (its ACL):'
                                            ' not broadcasting').format(
                                address=self.address, name=repr(self.name), topic=self.topic('#')))
                            await asyncio.sleep(self.refused_retry)
                            continue
                        self._connected()
                        delay = self.retry[0]
                        try:
                            await self._send(client)
                        except asyncio.CancelledError:  # stopped: offline, said before leaving
                            with contextlib.suppress(Exception):
                                await asyncio.wait_for(client.publish(
                                    self.topic("status"), encode(status_message(False)), qos=1, retain=True), self.timeout)
                            raise
                except aiomqtt.MqttCodeError as error:
                    if _refused_login(error):
                        self._refused(_('the broker at {address} refused board {name}: its user name or password is not'
                                        ' accepted ({code}): not broadcasting').format(
                            address=self.address, name=repr(self.name), code=error.rc))
                        await asyncio.sleep(self.refused_retry)
                        continue
                    self._offline(error)
                except (aiomqtt.MqttError, OSError) as error:
                    self._offline(error)
                except Exception as error:  # never the game's concern: said, and tried again
                    self._offline(error)
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.retry[1])
        finally:
            self.state = "offline"

    def _client(self) -> aiomqtt.Client:
        address = self.address
        will = aiomqtt.Will(self.topic("status"), encode(status_message(False)), qos=1, retain=True)
        return aiomqtt.Client(address.host, address.port, username=address.username, password=address.password,
                              identifier=self.identifier, will=will, clean_session=True, keepalive=KEEPALIVE,
                              timeout=self.timeout, tls_context=address.tls_context())

    async def _announce(self, client: aiomqtt.Client) -> bool:
        """Say the board is online and hear it back: True when the broker let it publish."""
        token = secrets.token_hex(8)
        status = self.topic("status")
        await client.subscribe(status, qos=1)
        since = datetime.now().astimezone().isoformat(timespec="seconds")
        await client.publish(status, encode(status_message(True, token, since)), qos=1, retain=True)

        async def echo() -> bool:
            async for message in client.messages:
                data = decode(message.payload)
                if data is not None and data.get("token") == token:
                    return True
            return False
        try:
            heard = await asyncio.wait_for(echo(), self.echo_wait)
        except asyncio.TimeoutError:
            heard = False
        await client.unsubscribe(status)
        return heard

    async def _send(self, client: aiomqtt.Client) -> None:
        """Send every line the club has not confirmed, oldest game first, then each game's
        state; then wait for more, sending again what stays unconfirmed too long."""
        reader = asyncio.create_task(self._read_confirmations(client))
        try:
            await self._send_lines(client)
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader

    async def _read_confirmations(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            data = decode(message.payload)
            if data is None:
                continue
            if message.topic.matches(self.confirmations):
                self._confirm(data)
            elif message.topic.matches(pairing_topic(self.address.prefix, self.name)):
                self._paired(read_pairing(data))
            elif message.topic.matches(self.club_status) and isinstance(data.get("online"), bool):
                self.club_following = data["online"]
                self._queue.put_nowait("confirmed")  # a wake-up: whoever waits for the club looks again

    def _paired(self, pairing: dict | None) -> None:
        if pairing == self.pairing:
            return
        self.pairing = pairing
        if self.on_pairing is not None:
            try:
                self.on_pairing(pairing)
            except Exception as error:  # the session's concern, never the broadcast's
                self.say(_("the tournament's pairing was not taken ({problem})").format(problem=_brief(error)))

    @property
    def confirmations(self) -> str:
        return f"{self.address.prefix}/club/confirmed/{self.name}"

    @property
    def club_status(self) -> str:
        return club_status_topic(self.address.prefix)

    def _rewind(self) -> None:
        """Send again, from the journal, every line the club has not confirmed."""
        for game in self._games.values():
            if game.confirmed < game.told:
                game.acked = min(game.acked, game.confirmed)
                game.reread = True

    async def _send_lines(self, client: aiomqtt.Client) -> None:
        await client.subscribe(self.confirmations, qos=1)
        await client.subscribe(self.club_status, qos=1)
        await client.subscribe(pairing_topic(self.address.prefix, self.name), qos=1)
        self._rewind()  # after a reconnection: what the broker had may be gone
        self._heard = self.clock()
        if self._latest is not None:
            await self._publish_state(client, self._latest)
        while True:
            if self._stopping:  # stopped, the cancellation swallowed on the way (see stop)
                raise asyncio.CancelledError
            self._take_queued()
            if self._outbox_dirty and self.clock() - self._outbox_written >= OUTBOX_EVERY:
                self._write_outbox()
            behind = [game for game in self._games.values() if game.acked < game.told]
            if not behind:
                if self._snapshot_due and self._latest is not None:
                    self._snapshot_due = False
                    await self._publish_state(client, self._latest)
                    continue
                if not self.pending:
                    self._idle.set()
                waiting = [game for game in self._games.values() if game.confirmed < game.told]
                if not waiting and not self._outbox_dirty:
                    self._take_item(await self._queue.get())
                    self._heard = self.clock()  # nothing waited for the club: its silence counts from now on
                    continue
                wait = OUTBOX_EVERY if self._outbox_dirty else self._heard + self._resend_wait - self.clock()
                try:  # (asyncio.timeout, not wait_for: a stop coming as a line comes is never lost)
                    async with asyncio.timeout(max(0.0, wait)):
                        item = await self._queue.get()
                    self._take_item(item)
                    if not waiting:
                        self._heard = self.clock()
                except TimeoutError:
                    if waiting and self.clock() - self._heard >= self._resend_wait:
                        self._rewind()  # no word from the club: the broker may have lost them
                        self._heard = self.clock()
                        self._resend_wait = min(self._resend_wait * 2, self.resend[1])
                continue
            for game in behind:
                if game.reread:
                    self._reread(game)
                while game.acked < min(game.told, len(game.lines)):
                    seq = game.acked + 1
                    message = journal_message(self.name, game.id, seq, game.lines[seq - 1], game.committed.get(seq))
                    await client.publish(self.topic("journal"), encode(message), qos=1)
                    game.acked, self.published = max(game.acked, seq), self.published + 1  # (or the club's word)
                    self._take_queued()
                await self._publish_state(client, game)
                self._snapshot_due = self._snapshot_due and game is not self._latest
                if game.acked < game.told and not game.reread:  # told of more than the journal holds yet
                    game.reread = True

    def _reread(self, game: _Game) -> None:
        """The game's lines from its journal on disk (whole lines only: a torn one is left out)."""
        try:
            data = read_bytes(game.path, JOURNAL_LIMIT, "journal")
        except OSError as error:
            self.say(_('cannot read {path} ({problem}): its lines are not sent').format(path=game.path, problem=said(error)))
            game.told = game.acked = len(game.lines)
            game.reread = False
            return
        lines = []
        for raw in data.split(b"\n")[:-1]:  # the last piece is empty, or a line not yet whole
            try:
                value = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError, RecursionError):
                break
            if not isinstance(value, dict):
                break
            lines.append(value)
        game.lines = lines
        game.told = max(game.told, len(lines))
        game.reread = False
        if game.told > len(lines):  # a line told is always whole on disk before; a damaged journal stops here
            game.told = len(lines)

    async def _publish_state(self, client: aiomqtt.Client, game: _Game) -> None:
        if not game.lines or game.acked < 1:
            return
        seq = game.acked
        snapshot = self._snapshot(game)
        header, entries = game.lines[0], game.lines[1:seq]
        try:  # the rules engine replays the game: not in the game's loop
            payload = await asyncio.to_thread(_state_payload, self.name, game, seq, header, entries, snapshot)
        except ValueError as error:  # a journal the rules engine does not accept: its lines went out
            if not game.stateless:
                self.say(_('{path}: no state to publish ({problem})').format(path=game.path, problem=said(error)))
            game.stateless = True
            return
        await client.publish(self.topic("state"), payload, qos=1, retain=True)

    def _snapshot(self, game: _Game) -> dict | None:
        if self.snapshot is None or game is not self._latest:
            return None
        try:
            snapshot = self.snapshot()
        except Exception:  # the session's snapshot is a courtesy: the journal is the state
            return None
        return snapshot if snapshot.get("journal") in (None, game.path.name) else None

    # --- saying what happens, once ---------------------------------------------------------------
    def _connected(self) -> None:
        self.connections += 1
        if self.problem is not None:
            self.say(_('connected to {address} as {name}').format(address=self.address, name=repr(self.name)))
        self.state, self.problem = "online", None
        self.refusal.clear()

    def _offline(self, error: Exception) -> None:
        self.state = "offline"
        problem = _("the broker at {address} cannot be reached ({problem}): the game goes on, its moves are sent"
                    " when the broker is back").format(address=self.address, problem=_brief(error))
        if self.problem is None:
            self.say(problem)
        self.problem = self.problem or problem

    def _refused(self, problem: str) -> None:
        self.state = "refused"
        self.refusal.set()
        if self.problem != problem:
            self.say(problem)
        self.problem = problem


def outbox_contents(path: Path, now: float | None = None) -> dict:
    """An outbox's contents, checked: {"broker": str, "since": seconds, "confirmed": {journal: lines}}.
    FileNotFoundError when there is none; another OSError (its text saying why) when it is not
    a regular file (a link is not followed), is larger than OUTBOX_LIMIT, or holds anything but
    what an outbox holds (finite, plausible numbers; plain journal names)."""
    now = time.time() if now is None else now
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        raise FileRefused("not a regular file: it is a symbolic link")
    raw = read_bytes(path, OUTBOX_LIMIT, "board's outbox")  # a regular file only, never waited on, of a bounded size
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise OSError(f"not JSON: {said(error)[:80] or type(error).__name__}") from None
    if not isinstance(data, dict):
        raise OSError("not a JSON object")
    broker, since, confirmed = data.get("broker"), data.get("since"), data.get("confirmed")
    if not isinstance(broker, str):
        raise OSError("no broker")
    if not (_is_number(since) and 0 <= since <= now + CLOCK_SLACK):
        raise OSError(f"its since is {str(since)[:40]}, not a time")
    if not isinstance(confirmed, dict):
        raise OSError("no confirmed games")
    for name, lines in confirmed.items():
        if not (_is_journal_name(name) and isinstance(lines, int) and not isinstance(lines, bool)
                and 0 <= lines < 1 << 31):
            raise OSError(f"{str(name)[:60]!r}: {str(lines)[:40]} is not a number of lines of a journal")
    return {"broker": broker, "since": float(since), "confirmed": dict(confirmed)}


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number")


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _is_journal_name(name: object) -> bool:
    return isinstance(name, str) and 0 < len(name) <= 200 and name.endswith(SUFFIX) and "/" not in name \
        and "\0" not in name and not name.startswith(".") and not name.endswith(TRACE_SUFFIX)


def _write_new(path: Path, data: bytes) -> None:
    """`data` written to a file made anew at `path` (whatever was there removed, unless a
    folder; a link put there is not followed)."""
    with contextlib.suppress(FileNotFoundError):
        if not stat.S_ISDIR(os.lstat(path).st_mode):
            os.unlink(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                 | getattr(os, "O_CLOEXEC", 0), 0o644)
    with os.fdopen(fd, "wb") as file:
        file.write(data)


def _whole_lines(path: Path) -> int:
    """The number of whole lines of a journal (a torn last line is not one)."""
    return read_bytes(path, JOURNAL_LIMIT, "journal").count(b"\n")


def _state_payload(name: str, game: _Game, seq: int, header: dict, entries: list[dict], snapshot: dict | None) -> bytes:
    if snapshot is None:
        snapshot = game_snapshot(header, entries, game.path.name)
    return encode(state_message(name, game.id, seq, header, entries, snapshot))


def _refused_login(error: aiomqtt.MqttCodeError) -> bool:
    """A CONNACK saying no to the user or password (MQTT 3.1.1 codes 4, 5; MQTT 5 0x86, 0x87, 0x8C)."""
    if not isinstance(error, MqttConnectError):
        return False
    rc = getattr(error.rc, "value", error.rc)
    return rc in (4, 5, 0x86, 0x87, 0x8C)


def _brief(error: Exception) -> str:
    text = said(error).strip().splitlines()[0] if said(error).strip() else type(error).__name__
    return text[:120]


__all__ = ["BroadcastError", "Broadcaster", "add_broadcast_arguments", "attach", "board_name"]
