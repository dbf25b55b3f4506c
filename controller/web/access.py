"""Who may change the game: the owner's token, or (without one) a page addressed to localhost.

The token comes as the X-Reedboard-Token header or ?token= in the address; the owner's page
also gets it as a cookie, which only ever gives its WebSocket a place of its own (a browser
cannot add a header to a WebSocket, but it sends the page's cookie)."""

from __future__ import annotations

import secrets

from starlette.requests import Request
from starlette.websockets import WebSocket

TOKEN_HEADER = "x-reedboard-token"
TOKEN_COOKIE = "reedboard_token"  # only ever a place among the owner's WebSockets, never a change
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "[::1]"}


def host_name(request: Request) -> str:
    host = request.headers.get("host", "")
    if host.startswith("["):
        return host.split("]")[0] + "]"
    return host.rsplit(":", 1)[0] if ":" in host else host


class Access:
    def __init__(self, token: str | None) -> None:
        self.token = token

    def _matches(self, given: str) -> bool:
        return self.token is not None and secrets.compare_digest(given.encode("utf-8"), self.token.encode("utf-8"))

    def given_token(self, connection: Request | WebSocket) -> bool:
        return self._matches(connection.headers.get(TOKEN_HEADER) or connection.query_params.get("token") or "")

    def owners_socket(self, websocket: WebSocket) -> bool:
        """A WebSocket of the owner's page: the token given, or the cookie the page got with it."""
        return self.given_token(websocket) or self._matches(websocket.cookies.get(TOKEN_COOKIE, ""))

    def may_change(self, request: Request) -> bool:
        if self.token is None:
            return host_name(request).lower() in LOCAL_HOSTS
        return self.given_token(request)
