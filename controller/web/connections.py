"""Every connection to the web view, counted and timed: uvicorn's protocols with bounds.

Each open connection holds one of the board's 1,024 open files. The table admits a new HTTP
connection whenever it can: when its address, or the server, already holds as many as the
limits allow, the one that has waited longest for a request (a half-sent head, or an idle
keep-alive) is closed to make room, and only when none has waited for a while (every one is
busy, or has only just connected and not had the time to send its request) is the newcomer
turned away. So a flood of idle or half-sent connections cannot keep the owner out (their
next request's connection pushes the oldest idle one out), and a burst of new ones cannot
push out the owner's connection before its request has been read.

Once a second the table also closes, without waiting on them:
- a connection whose request has not arrived in full within `request_timeout`;
- a connection (HTTP or WebSocket) that has left what it was sent unread for `write_timeout`;
- a connection still closing (its last bytes unread) after `write_timeout`.

WebSockets are counted here for these timeouts; their number is bounded by the watchers'
places (Watchers, in the app).
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .limits import Limits
from .quiet_log import QuietLog

SWEEP_EVERY = 1.0  # s between two looks at every connection
FRESH = 0.25  # s a new connection has to send its request before another may push it out


class _Timing:
    """What the sweep needs to know of one connection's transport."""

    def __init__(self) -> None:
        self.unread_since: float | None = None  # what we sent has not shrunk since then
        self.unread = 0
        self.closing_since: float | None = None


class ConnectionTable:
    def __init__(self, limits: Limits, log: QuietLog) -> None:
        self.limits = limits
        self.log = log
        self._http: dict[GuardedHTTP, None] = {}  # oldest first
        self._http_by_address: dict[str, dict[GuardedHTTP, None]] = {}
        self._sockets: dict[GuardedWebSocket, None] = {}
        self._sweep: asyncio.TimerHandle | None = None

    # --- admission -------------------------------------------------------------------------------
    def admit(self, conn: GuardedHTTP) -> bool:
        """Make room for a new HTTP connection; False when it must be turned away."""
        same = self._http_by_address.get(conn.address, {})
        if len(same) >= self.limits.connections_per_address and not self._push_out(same, conn.address):
            self.log.note("address-full", f"refused a connection from {conn.address}: its "
                          f"{self.limits.connections_per_address} connections are all busy or new")
            return False
        if len(self._http) >= self.limits.connections and not self._push_out(self._http, None):
            self.log.note("server-full", f"refused a connection from {conn.address}: all "
                          f"{self.limits.connections} connections are busy or new")
            return False
        self._http[conn] = None
        self._http_by_address.setdefault(conn.address, {})[conn] = None
        self._start_sweeping(conn.loop)
        return True

    def _push_out(self, candidates: dict[GuardedHTTP, None], address: str | None) -> bool:
        """Close the connection among `candidates` that has waited longest for a request."""
        now = next(iter(candidates)).loop.time()
        waited = [(conn.waiting_since, n, conn) for n, conn in enumerate(candidates)
                  if conn.waiting and conn.waiting_since is not None and now - conn.waiting_since >= FRESH]
        if waited:
            conn = min(waited)[2]
            self.release(conn)
            conn.transport.abort()
            where = f"from {address}" if address else "on the server"
            self.log.note("pushed-out", f"closed an idle connection from {conn.address} to make room "
                          f"for a new one (too many {where})")
            return True
        return False

    def release(self, conn: GuardedHTTP) -> None:
        if conn not in self._http:
            return
        del self._http[conn]
        same = self._http_by_address[conn.address]
        del same[conn]
        if not same:
            del self._http_by_address[conn.address]

    def add_socket(self, conn: GuardedWebSocket) -> None:
        self._sockets[conn] = None
        self._start_sweeping(conn.loop)

    def remove_socket(self, conn: GuardedWebSocket) -> None:
        self._sockets.pop(conn, None)

    # --- timeouts --------------------------------------------------------------------------------
    def _start_sweeping(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._sweep is None:
            self._sweep = loop.call_later(SWEEP_EVERY, self.sweep, loop)

    def sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        self._sweep = None
        now = loop.time()
        for conn in list(self._http):
            if conn.waiting_since is not None and now - conn.waiting_since > self.limits.request_timeout:
                self.release(conn)
                conn.transport.abort()
                self.log.note("slow-request", f"closed a connection from {conn.address}: its request "
                              f"did not arrive within {self.limits.request_timeout:g} s")
            elif self._stalled(conn.transport, conn.timing, now):
                self.release(conn)
                conn.transport.abort()
        for conn in list(self._sockets):
            if self._stalled(conn.transport, conn.timing, now):
                self.remove_socket(conn)
                conn.transport.abort()
        if self._http or self._sockets:
            self._start_sweeping(loop)

    def _stalled(self, transport: asyncio.Transport, timing: _Timing, now: float) -> bool:
        """Has the client left what it was sent unread (or not let a closing connection close)?"""
        if transport is None:
            return False
        if transport.is_closing() and timing.closing_since is None:
            timing.closing_since = now
        unread = transport.get_write_buffer_size()
        if not unread:
            timing.unread_since = None
        elif timing.unread_since is None or unread < timing.unread:
            timing.unread_since = now  # new, or shrinking: the client reads
        timing.unread = unread
        since = [t for t in (timing.unread_since, timing.closing_since) if t is not None]
        if since and now - min(since) > self.limits.write_timeout:
            self.log.note("unread", "closed a connection that left what it was sent unread "
                          f"for {self.limits.write_timeout:g} s")
            return True
        return False


def _address(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    address = peer[0] if isinstance(peer, tuple) and peer else "unknown"
    return address.removeprefix("::ffff:")  # an IPv4 client of a dual-stack socket


class GuardedHTTP(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, admitted by the table and timed by it."""

    def __init__(self, *args: Any, table: ConnectionTable, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        self.address = "unknown"
        self.timing = _Timing()
        self.waiting_since: float | None = None  # when it began to wait for a request

    @property
    def waiting(self) -> bool:
        """Only waiting for a request: nothing is being answered."""
        return self.cycle is None or self.cycle.response_complete

    def connection_made(self, transport: asyncio.BaseTransport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.address = _address(transport)
        self.waiting_since = self.loop.time()
        if not self.table.admit(self):
            self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self.table.release(self)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            self.waiting_since = None  # the request is in: answering it takes what it takes

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.conn.their_state is h11.IDLE:
            self.waiting_since = self.loop.time()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self.table.release(self)  # from now on a WebSocket, counted as one
        self.waiting_since = None
        super().handle_websocket_upgrade(event)

    def timeout_keep_alive_handler(self) -> None:
        if self.transport.get_write_buffer_size():  # the last answer is still unread: no waiting on it
            self.transport.abort()
            return
        super().timeout_keep_alive_handler()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, timed by the table."""

    def __init__(self, *args: Any, table: ConnectionTable, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        self.timing = _Timing()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.table.add_socket(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.table.remove_socket(self)
        super().connection_lost(exc)
