"""Hands at the table: lifts, placements, presses of a button and pauses, each at its time, so
that tests read like what players do. The one model of hands in the tests:

- `Hands(driver, occupied)` keeps the board's occupancy and a clock and sends every change as a
  raw frame to what it drives (a Reconciler's feed, a Referee's frame), a press to its press, and
  the time passing to its advance; what the driver answers is kept in `events`, every frame in
  `frames` (with no driver, the frames are all it keeps: bench/reconcile_speed.py scans them).
- With a shadow game (`game=`), `play(text, order)` carries out a legal move physically, in a
  chosen order of lifts and placements, and pushes it onto the shadow game.
- `TraceBuilder` is hands whose driver writes a trace file (`TraceLines`): every frame and press a
  line; the shadow game then knows the record the trace must replay to (tests/traces/make_traces.py).
"""

from __future__ import annotations

import json
from pathlib import Path

from reedboard.controller.games import BigBalls, OffBoard
from reedboard.controller.games.abalone import Abalone
from reedboard.controller.games.offboard_layout import GRID as HEX
from reedboard.controller.persist.notation import record_lines


class Hands:
    def __init__(self, driver=None, occupied=(), t: float = 0.0, step: float = 0.25, *, game=None,
                 think: float = 1.2):
        self.driver = driver  # has feed(t, occupied) or frame(t, occupied); advance(t); press(t, button, roll)
        self.occupied = set(occupied)
        self.t = t
        self.step = step  # seconds between one hand action and the next
        self.game = game  # the shadow game play() carries moves out on
        self.think = think  # seconds a player thinks before each move play() makes
        self.pace = lambda planned: planned  # the pause before an action, from the one planned
        self.events: list = []
        self.frames: list[tuple[float, frozenset[str]]] = []

    def _keep(self, result) -> None:
        if result:
            self.events.extend(result)

    def _send(self) -> None:
        frame = frozenset(self.occupied)
        self.frames.append((self.t, frame))
        if self.driver is not None:
            send = getattr(self.driver, "feed", None) or self.driver.frame
            self._keep(send(self.t, frame))

    # --- what hands do --------------------------------------------------------------------------
    def lift(self, *cells: str, after: float | None = None) -> Hands:
        self.t += self.pace(self.step if after is None else after)
        for cell in cells:
            assert cell in self.occupied, f"nothing to lift on {cell}"
            self.occupied.discard(cell)
        self._send()
        return self

    def place(self, *cells: str, after: float | None = None) -> Hands:
        self.t += self.pace(self.step if after is None else after)
        for cell in cells:
            assert cell not in self.occupied, f"{cell} is already occupied"
            self.occupied.add(cell)
        self._send()
        return self

    def press(self, button: str, roll: int | None = None, after: float | None = None) -> Hands:
        """A press of a button (the die's with the number it shows, where the test says it)."""
        self.t += self.pace(self.step if after is None else after)
        if self.driver is not None:
            self._keep(self.driver.press(self.t, button, roll))
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
        if self.driver is not None:
            self._keep(self.driver.advance(self.t))
        return self

    def settle(self, seconds: float = 0.1) -> Hands:
        """Let the debounce time pass after the last action."""
        return self.wait(seconds)

    def power_cut(self, off: float = 30.0) -> Hands:
        """The power goes (the driver's cut(t)); it comes back `off` seconds later (its resume(t))
        and the board is scanned again."""
        self.driver.cut(self.t)
        self.t += off
        self.driver.resume(self.t)
        self.t += 0.05
        self._send()  # the first scan after the power came back
        return self

    def names(self) -> list[str]:
        """The driver's events as short words, for readable assertions."""
        return [type(e).__name__ for e in self.events]

    # --- moves of the shadow game ---------------------------------------------------------------
    def play(self, text: str, order: str = "natural", press_die: bool = True) -> Hands:
        """Carry out a legal move of the shadow game. Big Balls stone moves press the die first.

        order: "natural"; for captures "victim-first" or "mover-first"; for Off Board and
        Abalone lines "front-first" (ball by ball from the front) or "slide" (tail off, front
        on); for Abalone broadside moves "ball-by-ball" (natural) or "lift-all" (every marble
        up, then every one down)."""
        game = self.game
        move = game.parse_move(text)
        self.wait(self.think)
        if isinstance(game, BigBalls) and move.roll is not None and press_die:
            self.press("die", move.roll)
        fp = game.footprint(move)
        if isinstance(game, Abalone):
            self._abalone(move, fp, order)
        elif isinstance(game, BigBalls):
            (src,), dst = tuple(fp.empties), move.dst
            if move.capture:
                self.capture(src, dst, victim_first=order != "mover-first")
            else:
                self.move(src, dst)
        elif move.tail is None:
            self.place(move.to)
        else:
            self._line(move, fp, order)
        game.push(move)
        assert self.occupied == set(game.occupied()), "the hands and the game disagree"
        return self

    def _line(self, move, fp, order: str) -> None:
        tail = HEX.index(move.tail)
        ray = HEX.ray[HEX.direction(move.direction)][tail]
        front = move.balls - 1 + move.pushed
        cells = [move.tail] + [HEX.names[c] for c in ray[:front]]  # every ball that moves, tail first
        off = front >= len(ray)  # the front-most ball leaves the board
        if order == "slide":
            self.lift(move.tail)
            if off:
                self.lift(cells[-1], after=0.05).place(cells[-1], after=0.05)  # the line shifts
                if fp.fills:
                    self.place(*fp.fills)
            else:
                self.place(HEX.names[ray[front]])
            return
        # front-first: each ball steps forward, starting with the front-most one
        if off:
            self.lift(cells[-1])
            if fp.fills:
                self.place(*fp.fills)
            for i in range(len(cells) - 2, -1, -1):
                self.lift(cells[i]).place(cells[i + 1], after=0.15)
        else:
            target = HEX.names[ray[front]]
            for i in range(len(cells) - 1, -1, -1):
                self.lift(cells[i]).place(target, after=0.15)
                target = cells[i]

    def _abalone(self, move, fp, order: str) -> None:
        if move.broadside:
            step = HEX.step[HEX.direction(move.direction)]
            targets = [HEX.names[step[HEX.index(m)]] for m in move.marbles]
            if order == "lift-all":
                self.lift(*move.marbles).place(*targets, after=0.4)
            else:
                for marble, target in zip(move.marbles, targets):
                    self.lift(marble).place(target, after=0.15)
            return
        ray = HEX.ray[HEX.direction(move.direction)][HEX.index(move.marbles[0])]
        front = len(move.marbles) - 1 + move.pushed  # the ray index the front-most marble reaches
        cells = [move.marbles[0]] + [HEX.names[c] for c in ray[:front]]  # every marble that moves
        if order == "slide":
            self.lift(move.marbles[0])
            if move.off:
                self.lift(cells[-1], after=0.05).place(cells[-1], after=0.05)
            else:
                self.place(HEX.names[ray[front]])
            return
        if move.off:  # the edge marble goes off the board first, then each steps up
            self.lift(cells[-1])
            for i in range(len(cells) - 2, -1, -1):
                self.lift(cells[i]).place(cells[i + 1], after=0.15)
            return
        target = HEX.names[ray[front]]
        for i in range(len(cells) - 1, -1, -1):
            self.lift(cells[i]).place(target, after=0.15)
            target = cells[i]


# --- trace files ------------------------------------------------------------------------------------
class TraceLines:
    """What a trace file holds, as hands drive it: the header, then a line for every frame and
    press. Time passing writes nothing (a trace holds what the board saw)."""

    def __init__(self, header: dict, cells) -> None:
        self.lines: list[dict] = [dict(header)]
        self.order = {cell: i for i, cell in enumerate(cells)}

    def feed(self, t: float, occupied) -> None:
        self.lines.append({"t": round(t, 3), "occupied": sorted(occupied, key=self.order.__getitem__)})

    def press(self, t: float, button: str, roll: int | None = None) -> None:
        line = {"t": round(t, 3), "press": button}
        if roll is not None:
            line["roll"] = roll
        self.lines.append(line)

    def advance(self, t: float) -> None:
        pass

    def cut(self, t: float) -> None:
        """The power goes while a line is being written."""
        self.lines.append({"torn": json.dumps({"t": round(t + 0.1, 3), "occupied": ["a1"]})[:17]})

    def resume(self, t: float) -> None:
        self.lines.append({"t": round(t, 3), "resume": True})

    def text(self) -> str:
        # a torn line (a power cut) is closed by the newline the recorder writes on resuming
        return "".join((line["torn"] if "torn" in line else json.dumps(line)) + "\n" for line in self.lines)


class TraceBuilder(Hands):
    """Hands writing a trace file of `game` (its shadow game), from its first scan on."""

    def __init__(self, game, header: dict, step: float = 0.3, think: float = 1.2):
        super().__init__(TraceLines(header, game.cells), game.occupied(), step=step, game=game, think=think)
        self._send()  # the first scan

    @classmethod
    def bigballs(cls, setup: dict | None = None, first: str = "black", **kwargs) -> TraceBuilder:
        game = BigBalls(**(setup or {}), first=first)
        stones = {colour: game.stones(colour) for colour in game.players}
        return cls(game, {"game": "bigballs", "first": first, "setup": stones}, **kwargs)

    @classmethod
    def offboard(cls, **kwargs) -> TraceBuilder:
        return cls(OffBoard(), {"game": "offboard"}, **kwargs)

    @classmethod
    def abalone(cls, layout: str = "standard", **kwargs) -> TraceBuilder:
        return cls(Abalone.from_options(layout=layout), {"game": "abalone", "layout": layout}, **kwargs)

    def record(self) -> list[str]:
        return record_lines(self.game)

    def text(self) -> str:
        return self.driver.text()

    def save(self, path: Path) -> None:
        path.write_text(self.text(), encoding="utf-8")
        path.with_suffix(".record").write_text("\n".join(self.record()) + "\n", encoding="utf-8")
