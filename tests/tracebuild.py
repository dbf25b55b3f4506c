"""Build trace files the way hands at the table make them.

A TraceBuilder keeps a shadow game and the board's occupancy and a clock. play() carries
out a legal move physically (in a chosen order of lifts and placements) and records every
raw frame; the shadow game then knows the record the trace must replay to. Scenarios that
go wrong on purpose (a bump, an illegal move, a takeback) use lift/place/wait directly and
say what the shadow game should do.
"""

from __future__ import annotations

import json
from pathlib import Path

from reedboard.controller.games import BigBalls, OffBoard
from reedboard.controller.games.abalone import Abalone
from reedboard.controller.games.offboard_layout import GRID as HEX
from reedboard.controller.persist.notation import record_lines


class TraceBuilder:
    def __init__(self, game, header: dict, step: float = 0.3, think: float = 1.2):
        self.game = game
        self.header = header
        self.step = step  # s between one hand action and the next within a move
        self.think = think  # s between moves
        self.t = 0.0
        self.occupied = set(game.occupied())
        self.lines: list[dict] = [dict(header)]
        self._frame()

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

    # --- hands ---------------------------------------------------------------------------
    def _frame(self) -> None:
        self.lines.append({"t": round(self.t, 3), "occupied": sorted(self.occupied, key=self.game.cells.index)})

    def wait(self, seconds: float) -> TraceBuilder:
        self.t += seconds
        return self

    def lift(self, *cells: str, after: float | None = None) -> TraceBuilder:
        self.t += self.step if after is None else after
        for cell in cells:
            assert cell in self.occupied, f"nothing to lift on {cell}"
            self.occupied.remove(cell)
        self._frame()
        return self

    def place(self, *cells: str, after: float | None = None) -> TraceBuilder:
        self.t += self.step if after is None else after
        for cell in cells:
            assert cell not in self.occupied, f"{cell} is occupied already"
            self.occupied.add(cell)
        self._frame()
        return self

    def press(self, button: str, roll: int | None = None, after: float | None = None) -> TraceBuilder:
        self.t += self.step if after is None else after
        line = {"t": round(self.t, 3), "press": button}
        if roll is not None:
            line["roll"] = roll
        self.lines.append(line)
        return self

    def power_cut(self, off: float = 30.0) -> TraceBuilder:
        """The power goes while a line is being written; it comes back `off` seconds later."""
        self.lines.append({"torn": json.dumps({"t": round(self.t + 0.1, 3), "occupied": ["a1"]})[:17]})
        self.t += off
        self.lines.append({"t": round(self.t, 3), "resume": True})
        self.t += 0.05
        self._frame()  # the first scan after the power came back
        return self

    # --- moves ---------------------------------------------------------------------------
    def play(self, text: str, order: str = "natural", press_die: bool = True) -> TraceBuilder:
        """Carry out a legal move. Big Balls stone moves press the die first.

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
            if move.capture and order == "mover-first":
                self.lift(src).lift(dst).place(dst)
            elif move.capture:
                self.lift(dst).lift(src).place(dst)
            else:
                self.lift(src).place(dst)
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

    # --- output ----------------------------------------------------------------------------
    def record(self) -> list[str]:
        return record_lines(self.game)

    def text(self) -> str:
        # a torn line (a power cut) is closed by the newline the recorder writes on resuming
        return "".join((line["torn"] if "torn" in line else json.dumps(line)) + "\n" for line in self.lines)

    def save(self, path: Path) -> None:
        path.write_text(self.text(), encoding="utf-8")
        path.with_suffix(".record").write_text("\n".join(self.record()) + "\n", encoding="utf-8")
