"""The listeners reedboard makes itself (the club's, and the page's in the tests and the
screenshots) hand asyncio connections that send at once: Nagle's algorithm off, so a request
on a kept-alive connection is not held back waiting for the browser's delayed acknowledgement."""

import asyncio
import socket

import pytest

from reedboard.controller.web.listening import tcp_listener

pytestmark = pytest.mark.system


def accepted_nodelay(listening: socket.socket) -> int:
    """TCP_NODELAY on the connection an asyncio server accepts on `listening`."""
    async def main() -> int:
        accepted = asyncio.get_running_loop().create_future()

        class Report(asyncio.Protocol):
            def connection_made(self, transport):
                accepted.set_result(transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP,
                                                                                 socket.TCP_NODELAY))
                transport.close()

        server = await asyncio.get_running_loop().create_server(Report, sock=listening)
        _, writer = await asyncio.open_connection(*listening.getsockname()[:2])
        try:
            return await asyncio.wait_for(accepted, 10)
        finally:
            writer.close()
            server.close()
            await server.wait_closed()

    listening.bind(("127.0.0.1", 0))
    return asyncio.run(main())


def test_the_connections_a_listener_accepts_send_at_once():
    assert accepted_nodelay(tcp_listener()) != 0


def test_a_plain_stream_socket_would_not():
    """What tcp_listener guards against: the check above can fail."""
    plain = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    assert accepted_nodelay(plain) == 0
