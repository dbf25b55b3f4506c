"""A listening socket made here rather than by uvicorn (to know its port first, or to say
clearly why it cannot be had).

It says IPPROTO_TCP: the connections it accepts inherit that, and asyncio turns Nagle's
algorithm off only on sockets that say TCP. Without it each request after the first on a
kept-alive connection waits ~40 ms for the browser's delayed acknowledgement.
"""

from __future__ import annotations

import socket


def tcp_listener(family: int = socket.AF_INET) -> socket.socket:
    """A TCP socket to bind and listen on, whose accepted connections send at once."""
    listening = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    return listening
