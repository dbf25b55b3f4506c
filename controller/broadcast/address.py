"""Where a broker is: `mqtt://[USER:PASSWORD@]HOST[:PORT][/PREFIX]`, or `mqtts://` for TLS."""

from __future__ import annotations

import re
import ssl
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

PORTS = {"mqtt": 1883, "mqtts": 8883}
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")  # a board's name: one topic level, no wildcards
PREFIX_LEVEL = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")


class BroadcastError(ValueError):
    """A broadcast that cannot be set up; the message is one line."""


@dataclass(frozen=True)
class BrokerAddress:
    host: str
    port: int
    prefix: str = "reedboard"
    username: str | None = None
    password: str | None = None
    tls: bool = False

    def __str__(self) -> str:  # never the password
        scheme = "mqtts" if self.tls else "mqtt"
        user = f"{self.username}@" if self.username else ""
        return f"{scheme}://{user}{self.host}:{self.port}/{self.prefix}"

    def tls_context(self) -> ssl.SSLContext | None:
        """The system's trusted certificates (a club's own CA: install it in the system's store)."""
        return ssl.create_default_context() if self.tls else None

    def topic(self, *levels: str) -> str:
        return "/".join((self.prefix, *levels))


def parse_broker_url(url: str) -> BrokerAddress:
    """The broker an URL names; BroadcastError (one line) when it is not one."""
    if not isinstance(url, str) or not url.strip():
        raise BroadcastError("the broker is an URL: mqtt://[USER:PASSWORD@]HOST[:PORT][/PREFIX]")
    text = url.strip()
    if any(ord(c) < 33 for c in text):
        raise BroadcastError(f"the broker URL {text!r} has spaces or control characters")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as error:
        raise BroadcastError(f"the broker URL {text!r}: {error}") from None
    if parts.scheme not in PORTS:
        raise BroadcastError(f"the broker URL {text!r} must start with mqtt:// or mqtts://")
    if not parts.hostname:
        raise BroadcastError(f"the broker URL {text!r} names no host")
    if "?" in text or "#" in text:
        raise BroadcastError(f"the broker URL {text!r}: no ?query or #fragment")
    if port == 0:
        raise BroadcastError(f"the broker URL {text!r}: port 0")
    levels = [level for level in parts.path.split("/") if level]
    for level in levels:
        if not PREFIX_LEVEL.match(level):
            raise BroadcastError(f"the broker URL's prefix level {level!r} must be letters, digits, '_', '.' or '-'")
    if (parts.password is not None) and not parts.username:
        raise BroadcastError(f"the broker URL {text!r} has a password but no user")
    return BrokerAddress(
        host=parts.hostname, port=port or PORTS[parts.scheme], prefix="/".join(levels) or "reedboard",
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password is not None else None,
        tls=parts.scheme == "mqtts")


def check_name(name: str) -> str:
    """A board's name as its topic level; BroadcastError when it cannot be one."""
    if not isinstance(name, str) or not NAME.match(name):
        raise BroadcastError(f"a board's name is 1 to 40 letters, digits, '_', '.' or '-' (starting with a"
                             f" letter or digit), not {name!r}")
    return name
