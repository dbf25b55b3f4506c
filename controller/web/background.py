"""The web view served from a background thread: for browser tests and the screenshot script.

    with served(session) as url:
        ...   # a browser on url; the session runs in the server's own loop and thread

The server listens on 127.0.0.1 on a free port (the socket is bound before the thread
starts, so there is no race for the port).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from ..session.play_session import PlaySession

from .app import make_server
from .limits import Limits
from .listening import tcp_listener


@contextlib.contextmanager
def served(session: PlaySession, token: str | None = None, *, games_dir: str | Path | None = None,
           timeout: float = 10.0, limits: Limits | None = None) -> Iterator[str]:
    sock = tcp_listener()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = make_server(session, "127.0.0.1", port, token, games_dir=games_dir, limits=limits)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True, name="reedboard-web")
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the web view did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout)
        sock.close()
