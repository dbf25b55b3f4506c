"""Mosquitto as docs/broadcast.md configures it, run on this computer (the tests and the benchmark).

    config_text(...)   the configuration: a listener, a password file, the ACL
    acl_text(prefix)   every user reads everything under PREFIX; a board writes only PREFIX/boards/USER/#
    Mosquitto(folder, port, users=...)   a broker process on 127.0.0.1, its files in `folder`
"""

from __future__ import annotations

import contextlib
import getpass
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

SBIN = Path("/usr/sbin/mosquitto")
QUEUED_BYTES = 32 << 20  # bytes a client's messages may queue at the broker (the club away or slow): more are dropped
INFLIGHT_BYTES = 16 << 20  # bytes of a client's messages sent and not yet acknowledged


def binary() -> str | None:
    """Debian's mosquitto (apt-get install mosquitto), or the one on PATH; None without one."""
    return shutil.which("mosquitto") or (str(SBIN) if SBIN.exists() else None)


def acl_text(prefix: str = "reedboard") -> str:
    """`pattern` lines hold for every user (%u: the user's name): everyone reads the broadcast,
    each board writes only under its own name."""
    return (f"# everyone (the club, spectators, the boards) reads every board\n"
            f"pattern read {prefix}/#\n"
            f"# a board writes only its own topics: its user name is its board name\n"
            f"pattern write {prefix}/boards/%u/#\n"
            f"# the club confirms to each board what it has stored\n"
            f"user club\n"
            f"topic write {prefix}/club/#\n")


def config_text(port: int, *, host: str = "127.0.0.1", folder: Path | None = None, password_file: Path | None = None,
                acl_file: Path | None = None, certfile: Path | None = None, keyfile: Path | None = None,
                tls_port: int | None = None, user: str | None = None, packet_limit: int | None = None) -> str:
    lines = ["per_listener_settings false", f"listener {port} {host}"]
    if user is not None:  # the user it runs as (started as root, it would become "mosquitto")
        lines.append(f"user {user}")
    if tls_port is not None:
        lines += [f"listener {tls_port} {host}", f"certfile {certfile}", f"keyfile {keyfile}"]
    if password_file is not None:  # a client's id is its user's name: nobody takes another's connection or session
        lines += ["allow_anonymous false", f"password_file {password_file}", "use_username_as_clientid true"]
    else:
        lines += ["allow_anonymous true"]
    if acl_file is not None:
        lines.append(f"acl_file {acl_file}")
    if folder is not None:
        lines += ["persistence true", f"persistence_location {folder}/"]
    if packet_limit is not None:  # a larger publication is refused by the broker, never handed on
        lines.append(f"max_packet_size {packet_limit}")
    lines += ["max_queued_messages 100000", f"max_queued_bytes {QUEUED_BYTES}", "max_inflight_messages 100",
              f"max_inflight_bytes {INFLIGHT_BYTES}", "log_dest stderr", "log_type error", "log_type warning"]
    return "\n".join(lines) + "\n"


def write_password_file(path: Path, users: dict[str, str]) -> Path:
    """A Mosquitto password file of `users` (name: password), hashed by mosquitto_passwd."""
    path.write_text("".join(f"{name}:{password}\n" for name, password in users.items()), "utf-8")
    path.chmod(0o600)
    subprocess.run([shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd", "-U", str(path)],
                   check=True, capture_output=True)
    return path


def ends_with_parent() -> None:
    """In a child before it runs: the kernel ends it when the thread that started it ends, and so
    when its parent dies, however (Linux; elsewhere nothing)."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Mosquitto:
    """A Mosquitto process on 127.0.0.1:`port`; `users` (name: password) turns on the password
    file and the ACL (as docs/broadcast.md), else anyone may publish anything."""

    def __init__(self, folder: Path, port: int | None = None, *, users: dict[str, str] | None = None,
                 prefix: str = "reedboard", host: str = "127.0.0.1", acl_extra: str | None = None,
                 packet_limit: int | None = None, persistence: bool = True, bound: bool = False) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.host = host
        self.bound = bound  # it ends when the thread that started it ends (the club's own broker)
        password_file = acl_file = None
        if users:
            password_file = write_password_file(self.folder / "passwords", users)
            acl_file = self.folder / "acl"
            acl_file.write_text(acl_text(prefix) + (acl_extra or ""), "utf-8")
        self.config = self.folder / "mosquitto.conf"
        self.config.write_text(config_text(self.port, host=host, folder=self.folder if persistence else None,
                                           password_file=password_file, acl_file=acl_file, user=getpass.getuser(),
                                           packet_limit=packet_limit), "utf-8")
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 10.0) -> Mosquitto:
        command = binary()
        if command is None:
            raise FileNotFoundError("no mosquitto (apt-get install mosquitto)")
        with open(self.folder / "mosquitto.log", "ab") as log:
            self.process = subprocess.Popen([command, "-c", str(self.config)], stdout=subprocess.DEVNULL,
                                            stderr=log, preexec_fn=ends_with_parent if self.bound else None)
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto stopped at once: {(self.folder / 'mosquitto.log').read_text()[-500:]}")
            try:
                probe = "127.0.0.1" if self.host in ("0.0.0.0", "") else "::1" if self.host == "::" else self.host
                socket.create_connection((probe, self.port), timeout=0.2).close()
                return self
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"mosquitto does not listen on {self.port}") from None
                time.sleep(0.05)

    def kill(self) -> None:
        """Gone at once, as in a power cut (what it had not saved is lost)."""
        self._end(signal.SIGKILL)

    def stop(self) -> None:
        self._end(signal.SIGTERM)

    def _end(self, how: int) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.send_signal(how)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def __enter__(self) -> Mosquitto:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.stop()
