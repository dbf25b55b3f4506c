"""The club following the broker: subscribed to every board, each message handed to the club,
its confirmations published back, reconnecting as long as it runs. While it follows, its
retained status on PREFIX/club/status says so (its last will, or its stop, says it no longer
does): a board knows whether to wait for its confirmations."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

import aiomqtt

from ..address import BrokerAddress
from .club import LOG_EVERY, Club, log
from ..messages import club_status_message, club_status_topic, encode, pairing_message, pairing_topic

LEAVE_SECONDS = 5.0  # the most the club waits for the broker to see it leave
STOP_AGAIN_SECONDS = 0.5  # a task of the club's told to stop is told again after this, until it has
INBOX_BYTES = 16 << 20  # bytes of messages received and not yet read: more are dropped (their boards send them again)


async def follow(club: Club, address: BrokerAddress, *, identifier: str = "reedboard-club",
                 retry: tuple[float, float] = (0.5, 5.0), ready: asyncio.Event | None = None) -> None:
    """Subscribe to every board under the address's prefix and hand each message to the club,
    reconnecting as long as it runs (a persistent session: the broker keeps what comes meanwhile)."""
    delay = retry[0]
    said = False
    status = club_status_topic(address.prefix)
    will = aiomqtt.Will(status, encode(club_status_message(False)), qos=1, retain=True)
    while not _cancelled():
        try:
            async with _connected(aiomqtt.Client(address.host, address.port, username=address.username,
                                                 password=address.password, identifier=identifier,
                                                 clean_session=False, keepalive=10,
                                                 tls_context=address.tls_context(), queue_type=Inbox,
                                                 logger=MQTT_LOG, will=will)) as client:
                await client.subscribe(f"{address.prefix}/boards/+/+", qos=1)
                await client.publish(status, encode(club_status_message(True)), qos=1, retain=True)
                delay, said = retry[0], False
                club.link(True)  # and what waited to be confirmed while the club was away is
                if ready is not None:
                    ready.set()
                confirming = asyncio.create_task(_confirm(club, client, address.prefix))
                pairing = asyncio.create_task(_pairings(club, client, address.prefix))
                try:
                    async for message in client.messages:
                        club.receive(message.topic.value, message.payload)
                finally:
                    await _stopped(pairing)
                    await _stopped(confirming)
                    if _cancelled():  # stopped: no longer following, said before leaving (a lost link: the will)
                        with contextlib.suppress(Exception):
                            await asyncio.wait_for(client.publish(
                                status, encode(club_status_message(False)), qos=1, retain=True), 2.0)
        except aiomqtt.MqttError as error:
            if _cancelled():  # the client's disconnect, cancelled, says so as an MqttError
                break
            if not said:
                log.warning("reedboard club: the broker at %s: %s (trying again)", address, error)
                said = True
        club.link(False)
        await asyncio.sleep(delay)
        delay = min(delay * 2, retry[1])
    club.link(False)
    raise asyncio.CancelledError


async def _stopped(task: asyncio.Task) -> None:
    """Cancel `task` and wait until it has ended, cancelling it again while it goes on: Python
    3.11's wait_for, inside aiomqtt's publish, can swallow a cancellation that meets its result,
    and the task would then wait for the next confirmation for ever."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=STOP_AGAIN_SECONDS)
    with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):  # a lost connection's: said above
        task.result()


@contextlib.asynccontextmanager
async def _connected(client: aiomqtt.Client):
    """`client` connected; on leaving, its goodbye to the broker given at most LEAVE_SECONDS:
    aiomqtt waits for the broker's side of the goodbye without a limit, and a club that stops must
    not hang on a broker that does not answer."""
    await client.__aenter__()
    try:
        yield client
    finally:
        with contextlib.suppress(TimeoutError, aiomqtt.MqttError):
            await asyncio.wait_for(client.__aexit__(None, None, None), LEAVE_SECONDS)


def _cancelled() -> bool:
    """Whether this task was told to stop: a cancellation that aiomqtt turned into an MqttError, or
    that Python 3.11's wait_for swallowed inside it, still counts (Task.cancelling)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


class _Seldom(logging.Filter):
    """A record of a kind at most once every LOG_EVERY seconds (a flood of them is one line)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.clock, self.said = clock, {}

    def filter(self, record: logging.LogRecord) -> bool:
        now, kind = self.clock(), (record.levelno, str(record.msg)[:60])
        if now - self.said.get(kind, -LOG_EVERY) < LOG_EVERY:
            return False
        self.said[kind] = now
        return True


MQTT_LOG = logging.getLogger(f"{__name__}.mqtt")  # the club's MQTT client's own words, seldom
MQTT_LOG.addFilter(_Seldom())


class Inbox(asyncio.Queue):
    """The messages received and not yet read, at most INBOX_BYTES of them: a burst of large ones
    is dropped (aiomqtt says so) rather than kept, and their boards send them again (the club
    has not confirmed them)."""

    def __init__(self, maxsize: int = 0) -> None:
        super().__init__(maxsize)
        self.bytes = 0

    def full(self) -> bool:
        return self.bytes >= INBOX_BYTES or super().full()

    def _put(self, item) -> None:
        self.bytes += len(item.payload) if isinstance(item.payload, (bytes, bytearray)) else 0
        super()._put(item)

    def _get(self):
        item = super()._get()
        self.bytes -= len(item.payload) if isinstance(item.payload, (bytes, bytearray)) else 0
        return item


async def _confirm(club: Club, client: aiomqtt.Client, prefix: str) -> None:
    """Each board's games as far as the club has stored them, on PREFIX/club/confirmed/BOARD
    (the latest word per game: a busy club says it once for many lines)."""
    while True:
        await club.confirm_due.wait()
        club.confirm_due.clear()
        while club.confirmations:
            (board, game), message = club.confirmations.popitem()
            try:
                await client.publish(f"{prefix}/club/confirmed/{board}", encode(message), qos=1)
            except aiomqtt.MqttError:
                club.confirmations.setdefault((board, game), message)  # said again once connected
                raise


def standings_topic(prefix: str) -> str:
    """PREFIX/club/standings: the club's retained word of its tournament, for the spectators."""
    return f"{prefix}/club/standings"


async def _pairings(club: Club, client: aiomqtt.Client, prefix: str) -> None:
    """Each tournament board's game of the open round on PREFIX/club/pairing/BOARD (retained; an
    empty game when it has none), and the tournament's standings and last round for the
    spectators on PREFIX/club/standings (retained), published when they change and all again at
    each connection."""
    sent: dict[str, bytes] = {}
    club.pairings_due.set()
    while True:
        await club.pairings_due.wait()
        club.pairings_due.clear()
        if club.tournament is None:
            continue
        for board, pairing in club.tournament.board_pairings().items():
            payload = encode(pairing_message(board, pairing))
            if sent.get(board) != payload:
                await client.publish(pairing_topic(prefix, board), payload, qos=1, retain=True)
                sent[board] = payload
        payload = encode({"v": 1, **club.tournament.spectators()})
        if sent.get("") != payload:  # ("" is no board's name)
            await client.publish(standings_topic(prefix), payload, qos=1, retain=True)
            sent[""] = payload
