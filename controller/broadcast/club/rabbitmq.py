"""RabbitMQ for the spectators, as docs/broadcast.md sets it up: MQTT and MQTT over WebSockets
(Web MQTT), the spectators read-only, run on this computer as an ordinary process (the tests, the
bench, an organiser who wants one without touching the system's RabbitMQ).

    RabbitMQ(folder, feeders={"feeder": PASSWORD})   a node on 127.0.0.1: its MQTT listener (.url),
                         its Web MQTT listener (.ws_url), its files in `folder`; anyone connecting
                         without a user is the read-only spectator, the feeders write under PREFIX
    node.join(other)     rabbitmqctl join_cluster: the two nodes are one broker
    bridge_text(node, ...)     Mosquitto's bridge (`connection ...`) that feeds the boards' topics to it
    bridged_mosquitto(folder, node, ...)   a Mosquitto (mosquitto.py) with that bridge, for the boards and the club

Debian 12's `rabbitmq-server` package (3.10) has both plugins; the node is started from
/usr/lib/rabbitmq/bin (the /usr/sbin wrapper would switch to the system's rabbitmq user), with
its own Erlang port mapper (epmd) on a port of its own, ended with it.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from . import mosquitto
from .mosquitto import ends_with_parent, free_port

BIN = Path("/usr/lib/rabbitmq/bin")
PLUGINS = ("rabbitmq_mqtt", "rabbitmq_web_mqtt")
SPECTATOR = "spectator"  # the user of every connection that gives none: it reads the broadcast, it writes nothing
WS_PATH = "/ws"  # the Web MQTT endpoint's path (RabbitMQ's default)
START_TIMEOUT = 60.0  # s for a node to listen (it starts in a few seconds; a loaded machine takes longer)


class RabbitMQMissing(FileNotFoundError):
    pass


def binary(name: str = "rabbitmq-server") -> str | None:
    """Debian's RabbitMQ script `name` (rabbitmq-server, rabbitmqctl), else one on PATH; None without."""
    if (BIN / name).exists():
        return str(BIN / name)
    return shutil.which(name)


def epmd_binary() -> str | None:
    return shutil.which("epmd") or next((str(p) for p in sorted(Path("/usr/lib/erlang").glob("erts-*/bin/epmd"))), None)


def password_hash(password: str) -> str:
    """A password as RabbitMQ keeps it (rabbit_password_hashing_sha256): a 4-byte salt, then the
    SHA-256 of the salt and the password, in base64."""
    salt = secrets.token_bytes(4)
    return base64.b64encode(salt + hashlib.sha256(salt + password.encode("utf-8")).digest()).decode("ascii")


def routing_prefix(prefix: str) -> str:
    """The topic PREFIX as RabbitMQ's topic permissions see it: MQTT's `/` is the routing key's `.`."""
    return re.escape(prefix.replace("/", "."))


def definitions(feeders: dict[str, str], spectator_password: str, prefix: str = "reedboard",
                admin: tuple[str, str] | None = None) -> dict:
    """The users and what each may do (loaded by the node at its start, as `rabbitmqctl
    import_definitions` would): the spectator subscribes to the broadcast and publishes nothing
    (no write on the exchange, and a topic permission that writes nothing); a feeder publishes
    anything under PREFIX."""
    queues = r"^mqtt-subscription-.*"  # each MQTT subscriber's own queue
    exchange = r"^amq\.topic$"  # the MQTT plugin's exchange, where every publication goes
    under = rf"^{routing_prefix(prefix)}\."
    users = [{"name": SPECTATOR, "password_hash": password_hash(spectator_password),
              "hashing_algorithm": "rabbit_password_hashing_sha256", "tags": []}]
    permissions = [{"user": SPECTATOR, "vhost": "/", "configure": queues, "write": queues,
                    "read": rf"{exchange}|{queues}"}]
    topics = [{"user": SPECTATOR, "vhost": "/", "exchange": "amq.topic", "write": "^$", "read": under}]
    for name, password in feeders.items():
        users.append({"name": name, "password_hash": password_hash(password),
                      "hashing_algorithm": "rabbit_password_hashing_sha256", "tags": []})
        permissions.append({"user": name, "vhost": "/", "configure": queues, "write": rf"{exchange}|{queues}",
                            "read": rf"{exchange}|{queues}"})
        topics.append({"user": name, "vhost": "/", "exchange": "amq.topic", "write": under, "read": under})
    if admin is not None:  # the node's own user for rabbitmqctl's sake: nothing over MQTT
        users.append({"name": admin[0], "password_hash": password_hash(admin[1]),
                      "hashing_algorithm": "rabbit_password_hashing_sha256", "tags": ["administrator"]})
    return {"users": users, "vhosts": [{"name": "/"}], "permissions": permissions, "topic_permissions": topics}


def config_text(mqtt_port: int, ws_port: int, *, host: str = "127.0.0.1", definitions_file: Path | None = None,
                spectator_password: str = SPECTATOR, admin: tuple[str, str] | None = None) -> str:
    """rabbitmq.conf: MQTT and Web MQTT on `host`, no AMQP listener, anonymous MQTT as the spectator."""
    lines = [
        "listeners.tcp = none",  # MQTT only: no AMQP 0-9-1 port
        f"mqtt.listeners.tcp.default = {host}:{mqtt_port}",
        f"web_mqtt.tcp.ip = {host}",
        f"web_mqtt.tcp.port = {ws_port}",
        "mqtt.allow_anonymous = true",  # a spectator's page gives no user: it is the spectator
        f"mqtt.default_user = {SPECTATOR}",
        f"mqtt.default_pass = {spectator_password}",
        "mqtt.vhost = /",
        "mqtt.exchange = amq.topic",
        "log.console = false",
        "log.file.level = warning",
        "disk_free_limit.absolute = 50MB",
    ]
    if admin is not None:  # instead of guest/guest
        lines += [f"default_user = {admin[0]}", f"default_pass = {admin[1]}"]
    if definitions_file is not None:
        lines.append(f"load_definitions = {definitions_file}")
    return "\n".join(lines) + "\n"


class Epmd:
    """Erlang's port mapper on a port of its own (the nodes of one cluster share one), ended by stop()."""

    def __init__(self, port: int | None = None, bound: bool = False) -> None:
        self.port = port or free_port()
        self.bound = bound
        self.process: subprocess.Popen | None = None

    def start(self) -> Epmd:
        command = epmd_binary()
        if command is None:
            raise RabbitMQMissing("no epmd (apt-get install rabbitmq-server)")
        self.process = subprocess.Popen([command, "-port", str(self.port)], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, preexec_fn=ends_with_parent if self.bound else None)
        _wait_listening("127.0.0.1", self.port, 10.0, self.process, "epmd")
        return self

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_listening(host: str, port: int, timeout: float, process: subprocess.Popen, what: str,
                    log: Path | None = None) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            said = _tail(log) if log is not None else ""
            raise RuntimeError(f"{what} stopped at once{': ' + said if said else ''}")
        with contextlib.suppress(OSError):
            socket.create_connection((host, port), timeout=0.2).close()
            return
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} does not listen on {port}")
        time.sleep(0.05)


def mqtt_accepts(host: str, port: int, user: str | None = None, password: str | None = None) -> bool:
    """Whether the MQTT listener at host:port takes a connection (anonymous, or as `user`): an MQTT
    3.1.1 CONNECT, answered by a CONNACK that accepts it."""
    def text(value: str) -> bytes:
        data = value.encode("utf-8")
        return len(data).to_bytes(2, "big") + data

    flags = 0x02 | (0xC0 if user is not None else 0)  # a clean session, and a user and password
    body = text("MQTT") + bytes([4, flags]) + (10).to_bytes(2, "big") + text(f"probe-{secrets.token_hex(4)}")
    if user is not None:
        body += text(user) + text(password or "")
    length, size = b"", len(body)
    while True:  # the remaining length, 7 bits a byte
        size, digit = size >> 7, size & 0x7F
        length += bytes([digit | (0x80 if size else 0)])
        if not size:
            break
    try:
        with socket.create_connection((host, port), timeout=2) as probe:
            probe.sendall(b"\x10" + length + body + b"\xe0\x00")  # CONNECT, then DISCONNECT
            answer = probe.recv(4)
    except OSError:
        return False
    return len(answer) == 4 and answer[0] == 0x20 and answer[3] == 0


def _tail(path: Path, size: int = 600) -> str:
    try:
        return path.read_text("utf-8", "replace")[-size:].strip()
    except OSError:
        return ""


class RabbitMQ:
    """A RabbitMQ node on `host`: MQTT on .mqtt_port, Web MQTT on .ws_port (ws://HOST:PORT/ws), its
    database and log in `folder`/NAME, its Erlang cookie in `folder` (the nodes of one folder can
    form a cluster). Anonymous connections are the read-only spectator; `feeders` (name: password)
    publish under PREFIX."""

    def __init__(self, folder: Path, *, name: str = "reedboard", feeders: dict[str, str] | None = None,
                 prefix: str = "reedboard", host: str = "127.0.0.1", mqtt_port: int | None = None,
                 ws_port: int | None = None, epmd: Epmd | None = None, bound: bool = False) -> None:
        self.folder = Path(folder)
        self.home = self.folder / name
        self.home.mkdir(parents=True, exist_ok=True)
        self.name = name
        self.node = f"{name}@localhost"
        self.host = host
        self.mqtt_port = mqtt_port or free_port()
        self.ws_port = ws_port or free_port()
        self.dist_port = free_port()
        self.feeders = dict(feeders or {})
        self.prefix = prefix
        self.bound = bound  # it ends when the thread that started it ends
        self._own_epmd = epmd is None
        self.epmd = epmd or Epmd(bound=bound)
        self._cookie()
        # the same in every node of the folder: a node that joins a cluster loads its definitions
        # again, into the cluster's users
        admin = ("reedboard-admin", self._secret("admin"))
        spectator_password = self._secret("spectator")
        definitions_file = self.home / "definitions.json"
        definitions_file.write_text(json.dumps(definitions(self.feeders, spectator_password, prefix, admin)), "utf-8")
        definitions_file.chmod(0o600)
        self.config = self.home / "rabbitmq.conf"
        self.config.write_text(config_text(self.mqtt_port, self.ws_port, host=host, definitions_file=definitions_file,
                                           spectator_password=spectator_password, admin=admin), "utf-8")
        self.config.chmod(0o600)
        (self.home / "enabled_plugins").write_text(f"[{','.join(PLUGINS)}].\n", "utf-8")
        self.process: subprocess.Popen | None = None

    def _cookie(self) -> None:
        """The Erlang cookie the nodes and rabbitmqctl share ($HOME/.erlang.cookie, HOME being `folder`)."""
        cookie = self.folder / ".erlang.cookie"
        if not cookie.exists():
            cookie.write_text(secrets.token_hex(16).upper(), "ascii")
            cookie.chmod(0o400)

    def _secret(self, what: str) -> str:
        path = self.folder / f".{what}-password"
        if not path.exists():
            path.write_text(secrets.token_hex(12), "ascii")
            path.chmod(0o600)
        return path.read_text("ascii").strip()

    def environment(self) -> dict[str, str]:
        environment = {key: value for key, value in os.environ.items() if not key.startswith(("RABBITMQ_", "ERL_"))}
        environment.update({
            "HOME": str(self.folder),  # the Erlang cookie
            "RABBITMQ_NODENAME": self.node,
            "RABBITMQ_USE_LONGNAME": "false",
            "RABBITMQ_DIST_PORT": str(self.dist_port),
            "ERL_EPMD_PORT": str(self.epmd.port),
            "ERL_EPMD_ADDRESS": "127.0.0.1",
            "RABBITMQ_CONFIG_FILE": str(self.config),
            "RABBITMQ_ADVANCED_CONFIG_FILE": str(self.home / "advanced.config"),
            "RABBITMQ_CONF_ENV_FILE": str(self.home / "rabbitmq-env.conf"),
            "RABBITMQ_ENABLED_PLUGINS_FILE": str(self.home / "enabled_plugins"),
            "RABBITMQ_MNESIA_BASE": str(self.home / "mnesia"),
            "RABBITMQ_LOG_BASE": str(self.home / "log"),
            "RABBITMQ_PID_FILE": str(self.home / "node.pid"),
        })
        return environment

    def start(self, timeout: float = START_TIMEOUT) -> RabbitMQ:
        command = binary()
        if command is None or binary("rabbitmqctl") is None:
            raise RabbitMQMissing("no rabbitmq-server (apt-get install rabbitmq-server)")
        if self._own_epmd and self.epmd.process is None:
            self.epmd.start()
        with open(self.home / "server.log", "ab") as log:
            self.process = subprocess.Popen([command], stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                            env=self.environment(), cwd=self.home, start_new_session=True,
                                            preexec_fn=ends_with_parent if self.bound else None)
        try:
            probe = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
            _wait_listening(probe, self.ws_port, timeout, self.process, "rabbitmq-server", self.home / "server.log")
            _wait_listening(probe, self.mqtt_port, timeout, self.process, "rabbitmq-server", self.home / "server.log")
            self._wait_users(probe, timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _wait_users(self, host: str, timeout: float) -> None:
        """The listeners open before the users are loaded: until the spectator (and the last
        feeder) may connect."""
        last = list(self.feeders.items())[-1:]
        deadline = time.monotonic() + timeout
        while not (mqtt_accepts(host, self.mqtt_port) and all(mqtt_accepts(host, self.mqtt_port, *u) for u in last)):
            if self.process is None or self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"rabbitmq-server does not let its users in: {_tail(self.home / 'server.log')}")
            time.sleep(0.1)

    def ctl(self, *arguments: str, timeout: float = 60.0) -> str:
        """rabbitmqctl on this node; RuntimeError with what it said when it fails."""
        environment = self.environment()
        port = str(free_port())  # the command's own distribution port (its default range may be taken)
        environment.update({"RABBITMQ_CTL_DIST_PORT_MIN": port, "RABBITMQ_CTL_DIST_PORT_MAX": port})
        done = subprocess.run([binary("rabbitmqctl"), "-n", self.node, *arguments], env=environment,
                              capture_output=True, text=True, timeout=timeout, cwd=self.home)
        if done.returncode != 0:
            raise RuntimeError(f"rabbitmqctl {' '.join(arguments)}: {(done.stderr or done.stdout).strip()[-400:]}")
        return done.stdout

    def join(self, other: RabbitMQ) -> None:
        """This node joins `other`'s cluster (rabbitmqctl stop_app, join_cluster, start_app): its
        users and permissions become the cluster's; its listeners come back on their ports."""
        self.ctl("stop_app")
        self.ctl("join_cluster", other.node)
        self.ctl("start_app")
        _wait_listening("127.0.0.1", self.ws_port, START_TIMEOUT, self.process, "rabbitmq-server")
        _wait_listening("127.0.0.1", self.mqtt_port, START_TIMEOUT, self.process, "rabbitmq-server")
        self._wait_users("127.0.0.1", START_TIMEOUT)

    def pid(self) -> int | None:
        """The Erlang VM's process id (its CPU is the broker's), once it has written it."""
        with contextlib.suppress(OSError, ValueError):
            return int((self.home / "node.pid").read_text().strip())
        return None

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.send_signal(signal.SIGTERM)  # the script stops the node, which closes its connections
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if self._own_epmd:
            self.epmd.stop()

    @property
    def url(self) -> str:
        """MQTT (a board's or the club's --broadcast/--broker, with a feeder's user in it)."""
        return f"mqtt://127.0.0.1:{self.mqtt_port}"

    @property
    def ws_url(self) -> str:
        """MQTT over WebSockets: what the spectators' page connects to."""
        return f"ws://127.0.0.1:{self.ws_port}{WS_PATH}"

    def __enter__(self) -> RabbitMQ:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()


def bridge_text(host: str, port: int, user: str, password: str, *, prefix: str = "reedboard",
                name: str = "spectators") -> str:
    """Mosquitto's bridge to RabbitMQ: every board's topics (status, journal, state; the retained
    ones stay retained) and the club's tournament standings go out to it as they come, QoS 1.
    MQTT 3.1.1 without Mosquitto's private
    bridge flag (RabbitMQ refuses it), and no notification topic (the feeder writes only the
    broadcast)."""
    return (f"\nconnection {name}\n"
            f"address {host}:{port}\n"
            f"bridge_protocol_version mqttv311\n"
            f"try_private false\n"
            f"notifications false\n"
            f"cleansession true\n"
            f"remote_clientid reedboard-bridge-{name}\n"
            f"remote_username {user}\n"
            f"remote_password {password}\n"
            f"restart_timeout 1 10\n"
            f"topic {prefix}/boards/# out 1\n"
            f"topic {prefix}/club/standings out 1\n")


def bridged_mosquitto(folder: Path, node: RabbitMQ, feeder: str = "feeder", **options) -> mosquitto.Mosquitto:
    """A Mosquitto (the club's broker, as mosquitto.py runs it) that feeds the boards' topics to `node`."""
    broker = mosquitto.Mosquitto(folder, **options)
    with open(broker.config, "a", encoding="utf-8") as config:
        config.write(bridge_text("127.0.0.1", node.mqtt_port, feeder, node.feeders[feeder], prefix=node.prefix))
    return broker
