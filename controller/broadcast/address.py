"""Where a broker is: `mqtt://[USER:PASSWORD@]HOST[:PORT][/PREFIX]`, or `mqtts://` for TLS."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from ..language.catalogue import COMMANDS
from ..words import said

if TYPE_CHECKING:  # named in annotations only: ssl loads when a club asks for TLS
    import ssl

_ = COMMANDS.gettext

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
        import ssl  # here, not on import: the command line's options read this module

        return ssl.create_default_context() if self.tls else None

    def topic(self, *levels: str) -> str:
        return "/".join((self.prefix, *levels))


def parse_broker_url(url: str) -> BrokerAddress:
    """The broker an URL names; BroadcastError (one line) when it is not one."""
    if not isinstance(url, str) or not url.strip():
        raise BroadcastError(_('the broker is an URL: mqtt://[USER:PASSWORD@]HOST[:PORT][/PREFIX]'))
    text = url.strip()
    if any(ord(c) < 33 for c in text):
        raise BroadcastError(_('the broker URL {text} has spaces or control characters').format(text=repr(text)))
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as error:
        raise BroadcastError(_('the broker URL {text}: {problem}').format(text=repr(text), problem=said(error))) from None
    if parts.scheme not in PORTS:
        raise BroadcastError(_('the broker URL {text} must start with mqtt:// or mqtts://').format(text=repr(text)))
    if not parts.hostname:
        raise BroadcastError(_('the broker URL {text} names no host').format(text=repr(text)))
    if "?" in text or "#" in text:
        raise BroadcastError(_('the broker URL {text}: no ?query or #fragment').format(text=repr(text)))
    if port == 0:
        raise BroadcastError(_('the broker URL {text}: port 0').format(text=repr(text)))
    levels = [level for level in parts.path.split("/") if level]
    for level in levels:
        if not PREFIX_LEVEL.match(level):
            raise BroadcastError(_("the broker URL's prefix level {level} must be letters, digits, '_', '.' or '-'").format(level=repr(level)))
    if (parts.password is not None) and not parts.username:
        raise BroadcastError(_('the broker URL {text} has a password but no user').format(text=repr(text)))
    return BrokerAddress(
        host=parts.hostname, port=port or PORTS[parts.scheme], prefix="/".join(levels) or "reedboard",
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password is not None else None,
        tls=parts.scheme == "mqtts")


def check_name(name: str) -> str:
    """A board's name as its topic level; BroadcastError when it cannot be one."""
    if not isinstance(name, str) or not NAME.match(name):
        raise BroadcastError(_("a board's name is 1 to 40 letters, digits, '_', '.' or '-' (starting with a letter or digit), not {name}").format(name=repr(name)))
    return name
