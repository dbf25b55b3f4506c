"""The embedded broker of `reedboard club` with no --broker: a Mosquitto of the club's own when
one is installed (Debian's `mosquitto`), else amqtt in the club's own loop.

With boards admitted (names and passwords: `reedboard club --boards FILE`), only they may
connect, each as its own user, writing only its own topics; the club connects as a user of its
own (`club`, a password new at each start). Without, anyone on the network may publish (a small
club on one laptop).

Mosquitto runs as docs/broadcast.md configures it (a password file, the ACL, the client id
being the user's name, payloads of at most PACKET_LIMIT bytes), in a folder of its own; it ends
with the club, even when the club is killed. amqtt's connections refuse a larger packet too.

amqtt 0.12 iterates over its table of subscriptions while it awaits (delivering a message to
each subscriber, sending retained messages to a new session): a client subscribing meanwhile
(every board subscribes to its own status when it connects) changes the table, and the
delivery ends in `RuntimeError: dictionary changed size during iteration`: that message is lost
for every subscriber. `_Subscriptions` iterates over a copy. amqtt also looks a session up by
its client id, and takes over or deletes it, before it checks the password: its checks here
(ClubAuth) keep a stranger out but not off a board's client id. Mosquitto has neither problem.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from . import mosquitto
from ..address import BrokerAddress
from ..messages import PAYLOAD_LIMIT
from ...language.catalogue import COMMANDS

_ = COMMANDS.gettext

QUIET = ("amqtt", "transitions")
CLUB_USER = "club"
KEEP_UP = 1.0  # s between looks at the club's own Mosquitto
PACKET_LIMIT = PAYLOAD_LIMIT + (64 << 10)  # bytes of one MQTT packet: a payload, its topic and headers


class EmbeddedBroker:
    """The club's own broker on host:port. `boards` (name: password) admits those boards only;
    `kind` is "auto" (Mosquitto when installed, else amqtt), "mosquitto" or "amqtt"."""

    def __init__(self, host: str = "0.0.0.0", port: int = 1883, *, boards: dict[str, str] | None = None,
                 prefix: str = "reedboard", kind: str = "auto") -> None:
        self.host, self.port, self.prefix = host, port, prefix
        self.boards = dict(boards) if boards else None
        self.kind = ("mosquitto" if mosquitto.binary() else "amqtt") if kind == "auto" else kind
        self.password = secrets.token_urlsafe(18) if self.boards else None
        self._broker = None
        self._mosquitto: mosquitto.Mosquitto | None = None
        self._folder: str | None = None

    @property
    def address(self) -> BrokerAddress:
        """Where the club connects (as its own user when boards are admitted)."""
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else self.host
        user = CLUB_USER if self.boards else None
        return BrokerAddress(host, self.port, username=user, password=self.password, prefix=self.prefix)

    async def start(self) -> None:
        """Listen (OSError, one line, when it cannot)."""
        if self.kind == "mosquitto":
            self._start_mosquitto()  # in the loop's own thread, which it ends with (a second at most)
        else:
            await self._start_amqtt()

    def _start_mosquitto(self) -> None:
        self._folder = tempfile.mkdtemp(prefix="reedboard-club-broker-")
        users = {**self.boards, CLUB_USER: self.password} if self.boards else None
        self._mosquitto = mosquitto.Mosquitto(Path(self._folder), self.port, users=users, prefix=self.prefix,
                                              host=self.host, packet_limit=PACKET_LIMIT,
                                              persistence=False, bound=True)
        try:
            self._mosquitto.start()
        except (OSError, RuntimeError) as error:
            self._mosquitto = None
            shutil.rmtree(self._folder, ignore_errors=True)
            said = str(error).strip().splitlines()[-1] if str(error).strip() else type(error).__name__
            raise OSError(_('the embedded broker (mosquitto) cannot listen on {host}:{port}: {problem}').format(
                host=self.host, port=self.port, problem=said)) from None

    async def _start_amqtt(self) -> None:
        from amqtt.broker import Broker
        from amqtt.errors import BrokerError

        for name in QUIET:
            logging.getLogger(name).setLevel(logging.WARNING)
        if self.boards:
            settings = {"boards": self.boards, "club_password": self.password, "prefix": self.prefix}
            plugins = {f"{__name__}.ClubAuth": settings, f"{__name__}.ClubTopics": settings}
        else:
            plugins = {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}}
        config = {"listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}}, "plugins": plugins}
        self._broker = _bounded(Broker)(config)
        self._broker._subscriptions = _Subscriptions(self._broker._subscriptions)
        try:
            await self._broker.start()
        except (BrokerError, OSError) as error:
            self._broker = None
            said = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise OSError(_('the embedded broker cannot listen on {host}:{port}: {problem}').format(
                host=self.host, port=self.port, problem=said)) from None

    def kill(self) -> None:
        """Gone at once (Mosquitto only: a power cut for the tests and the benchmark)."""
        if self._mosquitto is not None:
            self._mosquitto.kill()

    async def keep_up(self, every: float = KEEP_UP, say=print) -> None:
        """Start the club's own Mosquitto again whenever it has ended (until cancelled)."""
        while True:
            await asyncio.sleep(every)
            process = self._mosquitto  # None once stopped
            if process is None or (process.process is not None and process.process.poll() is None):
                continue
            code = process.process.returncode if process.process is not None else "killed"
            say(f"reedboard club: its broker (mosquitto) ended ({code}): started again")
            try:
                process.start()
            except (OSError, RuntimeError) as error:
                say(f"reedboard club: its broker cannot start again ({str(error).strip().splitlines()[-1][:160]})")

    async def stop(self, timeout: float = 5.0) -> None:
        """Stop (a shutdown that waits on a client longer than `timeout` is left to the process's end)."""
        broker, self._broker = self._broker, None
        if broker is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(broker.shutdown(), timeout)
        process, self._mosquitto = self._mosquitto, None
        if process is not None:
            await asyncio.to_thread(process.stop)
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None


def _bounded(broker_class):
    """amqtt's Broker whose connections refuse a packet larger than PACKET_LIMIT: amqtt has no
    setting for it and reads a payload whole, however large its header says it is (256 MB). The
    read of a larger packet fails before a byte of it is taken, and amqtt ends that connection."""
    from amqtt.adapters import StreamReaderAdapter, StreamWriterAdapter

    class BoundedReader(StreamReaderAdapter):
        def __init__(self, reader, writer) -> None:
            super().__init__(reader)
            self._writer = writer

        async def read(self, n: int = -1) -> bytes:
            if n > PACKET_LIMIT:
                # the connection ends here: the rest of that packet, still arriving, would
                # otherwise be read as thousands of packets of its own (a broker kept busy)
                self._writer.close()
                self.feed_eof()
                raise asyncio.IncompleteReadError(b"", n)
            return await super().read(n)

    class BoundedBroker(broker_class):
        async def stream_connected(self, reader, writer, listener_name: str) -> None:
            await self._client_connected(listener_name, BoundedReader(reader, writer), StreamWriterAdapter(writer))

    return BoundedBroker


class _Subscriptions(dict):
    """amqtt's table of subscriptions (topic filter: subscribers), iterated over a copy: the
    broker awaits inside its loops over it while other sessions subscribe."""

    def __iter__(self):
        return iter(list(super().keys()))

    def keys(self):
        return list(super().keys())

    def items(self):
        return list(super().items())

    def values(self):
        return list(super().values())


# --- amqtt's checks of admitted boards ---------------------------------------------------------------
def _plugins():
    from amqtt.contexts import Action
    from amqtt.plugins.base import BaseAuthPlugin, BaseTopicPlugin

    @dataclass
    class Settings:
        boards: dict = field(default_factory=dict)
        club_password: str = ""
        prefix: str = "reedboard"

    def own(config, user: str | None, topic: str | None) -> bool:
        """A board writes only under PREFIX/boards/USER/; the club anywhere under PREFIX/."""
        if user is None or topic is None:
            return False
        if user == CLUB_USER:
            return topic.startswith(f"{config.prefix}/")
        return topic.startswith(f"{config.prefix}/boards/{user}/")

    class ClubAuth(BaseAuthPlugin):
        """Admitted boards and the club only, each with its password; a board's client id and
        last will are its own."""

        async def authenticate(self, *, session) -> bool:
            config = self.context.config
            user, password = session.username, session.password or ""
            expected = config.club_password if user == CLUB_USER else config.boards.get(user)
            if expected is None or not hmac.compare_digest(str(password).encode(), str(expected).encode()):
                return False
            if user != CLUB_USER and session.client_id not in (user, f"reedboard-board-{user}"):
                return False
            return not session.will_flag or own(config, user, session.will_topic)

        Config = Settings

    class ClubTopics(BaseTopicPlugin):
        """Everyone admitted reads every board; a board writes only its own topics."""

        async def topic_filtering(self, *, session=None, topic=None, action=None) -> bool:
            if action == Action.PUBLISH:
                return own(self.context.config, session.username if session else None, topic)
            return True

        Config = Settings

    return ClubAuth, ClubTopics


def __getattr__(name: str):  # amqtt imports the plugins by name; amqtt itself only when used
    if name in ("ClubAuth", "ClubTopics"):
        auth, topics = _plugins()
        globals().update(ClubAuth=auth, ClubTopics=topics)
        return globals()[name]
    raise AttributeError(name)
