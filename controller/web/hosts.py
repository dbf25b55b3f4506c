"""Which names the web view answers to, and which pages may open its WebSocket.

A web site the user visits can make the browser talk to 127.0.0.1: by a name of its own that
it points at 127.0.0.1 (DNS rebinding; the browser then sends that name as Host), or by
opening ws://127.0.0.1:8000/ws from its own page (the browser sends the page's Origin). So
every request must name the board by one of its own names in Host, and a WebSocket (or a
change) that comes with an Origin must come from a page of the same host.

The names: localhost and its addresses, the address the server was started for, the address
of the connection itself (an address of this machine, as the client reached it), and when
the server listens on all addresses, this machine's name (and name.local).
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from ..language.catalogue import COMMANDS
from .quiet_log import QuietLog

_ = COMMANDS.gettext

LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
EVERY_ADDRESS = frozenset({"0.0.0.0", "::", ""})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "ws": 80, "https": 443, "wss": 443}


def names_for(listen_host: str) -> frozenset[str]:
    """The host names a browser may use for a server listening on `listen_host`."""
    names = set(LOCAL_NAMES) | {listen_host}
    if listen_host in EVERY_ADDRESS:
        hostname = socket.gethostname()
        names |= {hostname, f"{hostname}.local", socket.getfqdn()}
    return frozenset(_clean(name) for name in names if name)


def _clean(name: str) -> str:
    return name.strip().strip("[]").rstrip(".").lower().removeprefix("::ffff:")


def split_host(value: str) -> tuple[str, int | None]:
    """A Host header's name and port: "board.local:8000" -> ("board.local", 8000)."""
    value = value.strip()
    if value.startswith("["):
        name, __, rest = value[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif value.count(":") == 1:
        name, __, port = value.partition(":")
    else:
        name, port = value, ""
    return _clean(name), int(port) if port.isdigit() else None


class HostCheck:
    """ASGI middleware: a request with a foreign Host is refused (400), and so is a WebSocket
    or a change with an Origin of another host (403)."""

    def __init__(self, app: Callable, names: Iterable[str], log: QuietLog) -> None:
        self.app = app
        self.names = frozenset(_clean(name) for name in names)
        self.log = log

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        headers = {key.decode("latin-1"): value.decode("latin-1") for key, value in scope.get("headers", [])}
        host = headers.get("host", "")
        name, port = split_host(host)
        server = scope.get("server") or ("",)
        if not name or (name not in self.names and name != _clean(str(server[0]))):
            self.log.note("host", f"refused a request for the host {host[:100]!r} (this board has other names)")
            return await _refuse(scope, receive, send, 400, _("this board is not called {host}: use the address it"
                                                              " printed").format(host=repr(host[:100])))
        origin = headers.get("origin")
        checks_origin = scope["type"] == "websocket" or scope.get("method") not in SAFE_METHODS
        if checks_origin and origin is not None and not _same_host(origin, name, port, scope):
            self.log.note("origin", f"refused a {scope['type']} request from a page of {origin[:100]!r}")
            return await _refuse(scope, receive, send, 403, _("only the board's own page may do that"))
        return await self.app(scope, receive, send)


def _same_host(origin: str, name: str, port: int | None, scope: dict) -> bool:
    try:
        parts = urlsplit(origin)
        origin_port = parts.port
    except ValueError:
        return False
    if not parts.hostname or parts.scheme not in DEFAULT_PORTS:
        return False  # "null" (a sandboxed page or a file), or no web page at all
    scheme = scope.get("scheme", "http")
    own_port = port if port is not None else DEFAULT_PORTS.get(scheme, 80)
    origin_port = origin_port if origin_port is not None else DEFAULT_PORTS[parts.scheme]
    return _clean(parts.hostname) == name and origin_port == own_port


async def _refuse(scope: dict, receive: Callable, send: Callable, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return
    await receive()  # websocket.connect
    if "websocket.http.response" in scope.get("extensions", {}):
        await send({"type": "websocket.http.response.start", "status": status, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
    else:
        await send({"type": "websocket.close", "code": 1008})
