"""What one address may have of something costly: a few at once, then one more every interval
(the generic cell rate algorithm: one moment per address, when its allowance is whole again).

    allowance = Allowance(3, 300.0)
    wait = allowance.take("192.168.1.23")   # 0.0: taken; else the seconds until one comes back

The clock is handed in (tests turn it by hand). Addresses whose allowance is whole again are
forgotten; at most `addresses` are remembered (a crowd of new ones pushes out the oldest).
"""

from __future__ import annotations

import time
from collections.abc import Callable

ADDRESSES = 1024  # addresses remembered at most


class Allowance:
    def __init__(self, burst: int, interval: float, clock: Callable[[], float] = time.monotonic,
                 addresses: int = ADDRESSES) -> None:
        self.burst, self.interval, self.clock, self.addresses = burst, interval, clock, addresses
        self._whole_at: dict[str, float] = {}  # address -> when all it has taken has come back

    def take(self, address: str) -> float:
        """One for `address`: 0.0 when it was taken, else the seconds until one comes back."""
        now = self.clock()
        after = max(self._whole_at.pop(address, now), now) + self.interval
        over = after - now - self.burst * self.interval
        if over > 0:
            self._whole_at[address] = after - self.interval  # as it was
            return over
        self._whole_at[address] = after
        if len(self._whole_at) > self.addresses:
            for known, whole_at in list(self._whole_at.items()):
                if whole_at <= now or len(self._whole_at) > self.addresses:
                    del self._whole_at[known]
                if len(self._whole_at) <= self.addresses // 2:
                    break
        return 0.0
