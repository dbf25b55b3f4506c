"""The game clock: one countdown per player, Fischer style (minutes + an increment per move).

Pure: time comes in as arguments (seconds, any origin), nothing here reads a clock. The
clock starts with the first committed move (the player to move next begins to think on
their time) and switches with every committed move, adding the increment to the player who
just moved. A player whose time runs out loses on time; `flag_at` says when that happens,
so the referee can make it a deadline.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..ground.settings import ClockSettings  # the clock's settings, named here too

__all__ = ["ClockSettings", "GameClock"]


class GameClock:
    def __init__(self, settings: ClockSettings, players: Sequence[str],
                 remaining: dict[str, float] | None = None) -> None:
        self.settings = settings
        self.players = tuple(players)
        self._left = {p: settings.initial for p in self.players}
        if remaining:
            self._left.update({p: float(v) for p, v in remaining.items() if p in self._left})
        self.running: str | None = None
        self._since = 0.0
        self.flagged: str | None = None

    def remaining(self, t: float) -> dict[str, float]:
        """Each player's time left at `t` (never below 0)."""
        left = dict(self._left)
        if self.running is not None:
            left[self.running] = max(0.0, left[self.running] - max(0.0, t - self._since))
        return left

    def start(self, t: float, player: str) -> None:
        """`player`'s time runs from `t` (the first move; a game resumed)."""
        self._charge(t)
        self.running, self._since = player, t

    def moved(self, t: float, mover: str, next_player: str) -> None:
        """`mover` committed a move at `t`: their increment, then `next_player`'s time runs."""
        self._charge(t)
        self._left[mover] += self.settings.increment
        self.running, self._since = next_player, t

    def switch(self, t: float, player: str) -> None:
        """The turn went to `player` without a move of the other (a takeback): no increment."""
        self._charge(t)
        self.running, self._since = player, t

    def stop(self, t: float) -> None:
        self._charge(t)
        self.running = None

    def flag_at(self) -> float | None:
        """When the running player's time runs out, or None."""
        if self.running is None or self.flagged:
            return None
        return self._since + self._left[self.running]

    def low_at(self) -> float | None:
        """When the running player's time crosses the low-time mark (None if already under)."""
        if self.running is None or self._left[self.running] <= self.settings.low_mark:
            return None
        return self._since + self._left[self.running] - self.settings.low_mark

    def flag(self, t: float) -> str:
        """The running player's time is up at `t`: they are flagged."""
        player = self.running
        self._charge(t)
        self._left[player] = 0.0
        self.flagged, self.running = player, None
        return player

    def _charge(self, t: float) -> None:
        if self.running is not None:
            self._left[self.running] = max(0.0, self._left[self.running] - max(0.0, t - self._since))
            self._since = t

    def as_dict(self, t: float) -> dict:
        """For views: settings, each player's time at `t`, who runs, who is low, who flagged."""
        left = self.remaining(t)
        mark = self.settings.low_mark
        return {
            "initial": self.settings.initial, "increment": self.settings.increment,
            "remaining": {p: round(v, 3) for p, v in left.items()}, "running": self.running,
            "low": [p for p, v in left.items() if v <= mark], "low_mark": mark, "flagged": self.flagged,
        }
