"""What every test shares.

No test may depend on a fixed port being free: the README's `reedboard play` may be serving on
127.0.0.1:8000 while the tests run, and a club's page on 8080. So, in the tests, a port counts
as taken unless the system handed it out (a socket bound to port 0 first, as `free_port()`
does): listening anywhere else fails the test that tried, even where the code catches the error.
"""

from __future__ import annotations

import errno
import socket

import pytest

_bind = socket.socket.bind
_handed_out: set[int] = set()  # ports the system chose for a socket of this process
_fixed: list[object] = []  # addresses a test tried to listen on without the system choosing


def _inet(sock: socket.socket, address: object) -> bool:
    return sock.family in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple) and len(address) >= 2


def _bind_only_where_the_system_chose(self: socket.socket, address, /) -> None:
    if _inet(self, address) and address[1] and address[1] not in _handed_out:
        _fixed.append(address)
        raise OSError(errno.EADDRINUSE, f"a fixed port in a test ({address[0]}:{address[1]}): let the system"
                                        " choose one (bind to port 0)")
    _bind(self, address)
    if _inet(self, address):
        _handed_out.add(self.getsockname()[1])


socket.socket.bind = _bind_only_where_the_system_chose


@pytest.fixture(autouse=True)
def no_fixed_ports():
    """Fails the test that tried to listen on a fixed port, whatever became of the error."""
    before = len(_fixed)
    yield
    tried = _fixed[before:]
    if tried:
        pytest.fail(f"the test tried to listen on a fixed port: {tried}", pytrace=False)


def free_port(host: str = "127.0.0.1") -> int:
    """A port the system chose and nobody listens on now."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


@pytest.fixture
def rig_position():
    """The board file and the pieces a rig starts from: Big Balls' (a test module may say another)."""
    from rigs import BOARD, START

    return BOARD, START


@pytest.fixture(params=["sim", "gpio", "serial"])
def rig(request, rig_position):
    """A board under test hands (tests/rigs.py), once on each backend."""
    from rigs import RIGS

    rig = RIGS[request.param](*rig_position)
    yield rig
    rig.close()
