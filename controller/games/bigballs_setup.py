"""Big Balls' set-up modes: the guided shuffle, the identification of stones, and auto.

The stones carry numbers the sensors cannot read, so the board is read first:
- auto: every start hollow filled is identified, an empty board is shuffled, anything in
  between is guided to the nearer of the two first (fill the start hollows, or clear the board);
  a full board cleared before its first stone is identified is shuffled after all;
- shuffle: the arrangement is drawn, then each hollow is lit in turn (balls first, then each
  colour's stones by number) while the die shows the stone's number; the board is cleared first;
- identify: the players place their shuffled stones, then lift and put back each number the die
  asks for; the start hollows are filled first.
The guide is pure (controller.games.setup): the referee carries out the steps it answers with.
"""

from __future__ import annotations

import random

from ..language.phrases import N_
from .base import Game
from .bigballs_start import DEFAULT_BALLS, START_HOLLOWS, shuffled_setup
from .setup import Announce, Asked, Expect, Identify, Marks, Play, Replace, Say, SetupGuide, Step

START_CELLS = frozenset(DEFAULT_BALLS).union(*START_HOLLOWS.values())  # every start hollow
MODES = ("auto", "shuffle", "identify")


def _code(colour: str, number: int | None) -> str:
    return f"{colour[0].upper()}{number if number else '?'}"


class BigBallsSetup(SetupGuide):
    def __init__(self, game: Game, mode: str, rng: random.Random | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"a Big Balls set-up mode is one of {', '.join(MODES)}, not {mode!r}")
        self.game = game
        self.mode = mode
        self._chosen = mode  # as asked: "auto" reads the board to choose
        self._rng = rng
        self._reading = True  # every mode reads the board before it asks for anything
        self._target: frozenset[str] | None = None  # the board asked for while reading
        self._steps: list[tuple[str, int | None, str]] = []  # shuffle: (colour or "ball", number, hollow)
        self._step = 0  # shuffle: the step being placed
        self._identified: dict[str, dict[str, int]] = {}  # identify: colour -> {hollow: number}
        self._asking: tuple[str, int] | None = None  # identify: (colour, number) asked for

    # --- state ---------------------------------------------------------------------------
    @property
    def reading(self) -> bool:
        return self._reading

    @property
    def pieces_known(self) -> bool:
        return self.mode not in ("auto", "identify")

    @property
    def identified(self) -> dict[str, dict[str, int]]:
        """The stones told apart so far, {colour: {hollow: number}}."""
        return {colour: dict(known) for colour, known in self._identified.items()}

    # --- reactions -----------------------------------------------------------------------
    def begin(self) -> list[Step]:
        if self.mode == "shuffle":  # drawn now; its first hollow is lit once the board is clear
            return [self._draw()]
        return []

    def read(self, board: frozenset[str]) -> list[Step]:
        mode = self.mode
        if board == START_CELLS and mode in ("auto", "identify"):
            self._reading = False
            self.mode = "identify"
            return [Say("setup", {"mode": "identify"}),
                    Identify(), *self._ask_next()]
        if not board and mode in ("auto", "shuffle"):
            self._reading = False
            steps: list[Step] = []
            if mode == "auto":
                self.mode = "shuffle"
                steps.append(self._draw())
            self._step = 0
            return [*steps, self._expect_step(), Announce("shuffle")]
        if mode == "identify":
            target = START_CELLS
        elif mode == "shuffle":
            target = frozenset()
        else:  # nearer: more pieces rightly on start hollows than pieces to take away
            right = len(board & START_CELLS) - len(board - START_CELLS)
            target = START_CELLS if 2 * right >= len(START_CELLS) else frozenset()
        if target == self._target:
            return []
        self._target = target
        return [Expect(target), Announce(mode)]

    def reached(self) -> list[Step]:
        if self.mode == "shuffle":
            self._step += 1
            if self._step < len(self._steps):
                return [self._expect_step()]
        if self._reading:
            return []  # the board itself decides, once read
        if self.mode == "identify":
            return [Identify(), *self._ask_next()]
        return [Play()]

    def touched(self, cells: frozenset[str]) -> list[Step]:
        if self._asking is None:
            return []
        colour, number = self._asking
        hollows = [c for c in cells if c in START_HOLLOWS[colour] and c not in self._identified[colour]]
        if len(cells) != 1 or len(hollows) != 1:
            return [Say("refused", {"reason": N_("lift only {player}'s stone {number}, one stone at a time"),
                                    "values": {"player": colour, "number": number}, "cells": sorted(cells)},
                        refused=True)]
        self._identified[colour][hollows[0]] = number
        return [Say("identified", {"player": colour, "number": number, "cell": hollows[0]}),
                *self._ask_next()]

    def cleared(self) -> bool:
        # Chosen from a full board, and cleared before a stone was told apart: the players mean
        # to shuffle (auto: an empty board is shuffled). Once stones are known, the board is put
        # back instead.
        if self._chosen != "auto" or self.mode != "identify" or any(self._identified.values()):
            return False
        self.mode, self._reading, self._asking, self._target = "auto", True, None, None
        self._identified = {}
        return True

    # --- what is shown -------------------------------------------------------------------
    def marks(self, identifying: bool) -> Marks:
        if identifying:
            if self._asking is None:
                return Marks()
            colour, number = self._asking
            known = self._identified.get(colour, {})
            return Marks(number=number, lift=frozenset(h for h in START_HOLLOWS[colour] if h not in known))
        step = self._current_step()
        if step is None:
            return Marks()
        _, number, hollow = step
        return Marks(place=frozenset({hollow}), number=number)

    def prompt(self, identifying: bool, stable: frozenset[str], wanted: frozenset[str] | None) -> Asked | None:
        if identifying:
            if self._asking is None:
                return None
            return Asked("identify", {"player": self._asking[0], "number": self._asking[1]})
        if self._reading:
            if wanted is None:
                return Asked("reading")
            if not wanted:
                return Asked("clear", {"cells": sorted(stable)})
            return Asked("fill", {"cells": sorted(wanted - stable), "empty": sorted(stable - wanted)})
        step = self._current_step()
        if step is not None:
            colour, number, hollow = step
            piece = "ball" if number is None else f"{colour[0].upper()}{number}"
            return Asked("place", {"piece": piece, "player": colour, "number": number, "cell": hollow})
        return None

    def known_pieces(self) -> dict[str, str]:
        return {hollow: _code(colour, self._identified.get(colour, {}).get(hollow))
                for colour, hollows in START_HOLLOWS.items() for hollow in hollows}

    def table_start(self, rng: random.Random | None = None) -> dict[str, str]:
        """The stones stand as they fell, unsorted, the big balls on top (a board after a game)."""
        drawn = self._start(shuffled_setup(rng))
        placed = {hollow: "ball" for hollow in DEFAULT_BALLS}
        for colour in drawn.players:
            placed.update({hollow: _code(colour, number) for hollow, number in drawn.stones(colour).items()})
        return placed

    # --- the steps -----------------------------------------------------------------------
    def _start(self, stones: dict[str, dict[str, int]]) -> Game:
        """A start of the guided game's own kind with these stones, the same player first."""
        return type(self.game)(**stones, first=self.game.first)

    def _draw(self) -> Replace:
        self.game = self._start(shuffled_setup(self._rng))
        steps = [("ball", None, hollow) for hollow in DEFAULT_BALLS]
        for colour in self.game.players:
            by_number = {n: h for h, n in self.game.stones(colour).items()}
            steps += [(colour, n, by_number[n]) for n in sorted(by_number)]
        self._steps = steps
        return Replace(self.game)

    def _current_step(self) -> tuple[str, int | None, str] | None:
        if self.mode == "shuffle" and not self._reading and self._step < len(self._steps):
            return self._steps[self._step]
        return None

    def _expect_step(self) -> Expect:
        return Expect(frozenset(hollow for _, _, hollow in self._steps[: self._step + 1]))

    def _ask_next(self) -> list[Step]:
        for colour in self.game.players:
            known = self._identified.setdefault(colour, {})
            missing = [n for n in range(1, 7) if n not in known.values()]
            if len(missing) == 1:  # the last stone needs no asking
                last = next(h for h in START_HOLLOWS[colour] if h not in known)
                known[last] = missing[0]
                missing = []
            if missing:
                self._asking = (colour, missing[0])
                return [Say("identify", {"player": colour, "number": missing[0]})]
        self._asking = None
        self.game = self._start(self._identified)
        return [Replace(self.game), Play()]
