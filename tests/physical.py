"""Hands at the table: physical sequences of lifts and placements, with times.

A Hands object keeps the board's occupancy and a clock, and sends every change as a raw
frame to whatever it drives (a Reconciler, a Referee), so tests read like what players do.
"""

from __future__ import annotations


class Hands:
    def __init__(self, driver, occupied, t: float = 0.0, step: float = 0.25):
        self.driver = driver  # has feed(t, occupied) or frame(t, occupied)
        self.occupied = set(occupied)
        self.t = t
        self.step = step  # seconds between one hand action and the next
        self.events: list = []
        self.frames: list[tuple[float, frozenset[str]]] = []

    def _send(self) -> None:
        frame = frozenset(self.occupied)
        self.frames.append((self.t, frame))
        send = getattr(self.driver, "feed", None) or self.driver.frame
        result = send(self.t, frame)
        if result:
            self.events.extend(result)

    def lift(self, *cells: str, after: float | None = None) -> Hands:
        self.t += self.step if after is None else after
        for cell in cells:
            assert cell in self.occupied, f"nothing to lift on {cell}"
            self.occupied.discard(cell)
        self._send()
        return self

    def place(self, *cells: str, after: float | None = None) -> Hands:
        self.t += self.step if after is None else after
        for cell in cells:
            assert cell not in self.occupied, f"{cell} is already occupied"
            self.occupied.add(cell)
        self._send()
        return self

    def move(self, src: str, dst: str, after: float | None = None) -> Hands:
        """Lift a piece and put it down elsewhere (dst must be empty)."""
        return self.lift(src, after=after).place(dst)

    def capture(self, src: str, dst: str, victim_first: bool = True) -> Hands:
        """Big Balls: the piece on src takes the one on dst, in either lift order."""
        if victim_first:
            return self.lift(dst).lift(src).place(dst)
        return self.lift(src).lift(dst).place(dst)

    def bounce(self, cell: str, width: float = 0.003) -> Hands:
        """A reed switch chattering for a few milliseconds as a magnet passes."""
        present = cell in self.occupied
        self.t += 0.01
        self.occupied.symmetric_difference_update({cell})
        self._send()
        self.t += width
        self.occupied.symmetric_difference_update({cell})
        self._send()
        assert (cell in self.occupied) == present
        return self

    def wait(self, seconds: float) -> Hands:
        self.t += seconds
        advance = getattr(self.driver, "advance")
        result = advance(self.t)
        if result:
            self.events.extend(result)
        return self

    def settle(self, seconds: float = 0.1) -> Hands:
        """Let the debounce time pass after the last action."""
        return self.wait(seconds)

    def names(self) -> list[str]:
        """The reconciler's events as short words, for readable assertions."""
        return [type(e).__name__ for e in self.events]
