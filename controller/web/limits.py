"""How much of the board's computer the web view lets visitors take, and the places for watchers.

A board runs on a Raspberry Pi with 512 MB to 1 GB of memory and 1,024 open files, on a
club's Wi-Fi: every connection is an open file and every message a visitor sends is memory,
so each has a bound, and what a spectator may ask for is small. A review the computer has to
work out (a worker process's core for seconds) is the owner's: a spectator's address has a few,
then one more every review_interval (archive_api.py, allowance.py). The defaults keep the web
view well inside 1,024 open files: connections + watchers + owner_sockets + three times
backlog (connections being accepted and refused at once) + the journal and trace files.
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Limits:
    watchers: int = 64  # live WebSockets of spectators, in all
    watchers_per_address: int = 16  # of them from one address
    owner_sockets: int = 8  # live WebSockets that carry the token, beyond the watchers
    connections: int = 128  # open HTTP connections (a WebSocket counts as a watcher instead)
    connections_per_address: int = 16  # of them from one address (a browser opens up to six)
    backlog: int = 128  # connections accepted in one go
    request_timeout: float = 10.0  # s for a whole request (head and body) to arrive
    keep_alive: float = 5.0  # s an idle HTTP connection is kept open
    write_timeout: float = 10.0  # s a client may leave what it was sent unread
    head_size: int = 16384  # bytes of a request's line and headers
    body_size: int = 4096  # bytes of a POST body (the largest action is a few hundred)
    frame_size: int = 4096  # bytes of a WebSocket message from a watcher (they need send none)
    messages: int = 16  # messages a watcher may send before it is closed
    log_interval: float = 60.0  # s between two log lines about one kind of refusal
    reviews_per_address: int = 3  # reviews the computer works out for a spectator's address in a row
    review_interval: float = 300.0  # s after which the address may have one more (kept reviews are free)

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            whole = field.type == "int"
            if isinstance(value, bool) or not isinstance(value, int if whole else (int, float)) or not value > 0:
                kind = "a whole number" if whole else "a number of seconds"
                raise ValueError(f"the limit {field.name} must be {kind} above 0, not {value!r}")


class Watchers:
    """The places for live WebSockets: `watchers` for spectators (at most `watchers_per_address`
    from one address) and `owner_sockets` more for those that carry the token, so a crowd of
    spectators never keeps the owner's page from its updates."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.spectators = 0
        self.owners = 0
        self._by_address: dict[str, int] = {}

    def admit(self, address: str, owner: bool) -> str | None:
        """Take a place; the reason there is none, or None when one was taken."""
        if owner:
            if self.owners >= self.limits.owner_sockets:
                return f"all {self.limits.owner_sockets} places for the owner's pages are taken"
            self.owners += 1
            return None
        if self.spectators >= self.limits.watchers:
            return f"all {self.limits.watchers} places for watchers are taken"
        if self._by_address.get(address, 0) >= self.limits.watchers_per_address:
            return f"{address} already watches {self.limits.watchers_per_address} times"
        self.spectators += 1
        self._by_address[address] = self._by_address.get(address, 0) + 1
        return None

    def leave(self, address: str, owner: bool) -> None:
        if owner:
            self.owners -= 1
            return
        self.spectators -= 1
        left = self._by_address.get(address, 0) - 1
        if left > 0:
            self._by_address[address] = left
        else:
            self._by_address.pop(address, None)
