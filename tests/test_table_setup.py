"""The first game on a real board: the set-up starts from what is on the board, on every backend.

A board straight out of the box, or after the last game, holds its pieces: Big Balls then
identifies the stones; an empty board gets the guided shuffle; anything in between is guided
to one of the two first, in words that say what to do. The referee runs live (controller.session.live)
on the sim, gpio (mock pins) and serial (firmware behind a pty) backends of the hal contract
tests, and hands lift and place pieces on each.
"""

import asyncio
import time

import pytest

from reedboard.controller.session import live

from reedboard.controller.words import prompts
from reedboard.controller.games import BigBalls
from reedboard.controller.games.bigballs_setup import START_CELLS
from reedboard.controller.core.referee import Outputs, Referee
from reedboard.controller.core.view import Phase
from reedboard.controller.words.prompts import describe

from rigs import SimRig

pytestmark = pytest.mark.component

WAIT = 15.0  # s at most for the board to show a change (serial runs through a pty)
SECRET = {"black": {"a1": 4, "b1": 2, "c1": 6, "a2": 1, "b2": 3, "a3": 5},
          "white": {"e1": 5, "f1": 1, "g1": 3, "e2": 6, "f2": 2, "e3": 4}}


class Table:
    """A referee refereeing live on a rig's board; hands act on the rig and wait for the board."""

    def __init__(self, rig, setup="auto"):
        self.rig = rig
        self.referee = live.LiveReferee(BigBalls(), setup=setup, outputs=Outputs(lights=rig.device.show, die=rig.device.show))
        self.seen: list = []  # (view, board) as it went, to check what was asked on the way

    async def until(self, condition, what):
        deadline = time.monotonic() + WAIT
        while not condition():
            self.seen.append((self.referee.view(), self.referee.reconciler.stable))
            if time.monotonic() > deadline:
                raise AssertionError(f"the board never showed {what}: {describe(self.referee.view().prompt, self.referee.game)!r}")
            await asyncio.sleep(0.01)
        self.seen.append((self.referee.view(), self.referee.reconciler.stable))

    async def lift(self, cell):
        self.rig.lift(cell)
        await self.until(lambda: cell not in self.referee.reconciler.stable, f"{cell} lifted")

    async def place(self, cell):
        self.rig.place(cell)
        await self.until(lambda: cell in self.referee.reconciler.stable, f"{cell} placed")

    def prompt(self):
        return self.referee.view().prompt


def run(rig, scenario, setup="auto"):
    async def main():
        table = Table(rig, setup)
        stop = asyncio.Event()
        task = asyncio.create_task(live.run(table.referee, rig.device, stop=stop, poll=0.01))
        try:
            await table.until(lambda: not table.referee.reading or table.prompt().kind != "reading", "itself read")
            await scenario(table)
        finally:
            stop.set()
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        for view, board in table.seen:  # never a piece asked for on a hollow that holds one
            assert not (view.place | view.fill) & board, (describe(view.prompt, table.referee.game), sorted(board))
        return table
    return asyncio.run(main())


async def identify_all(table):
    """Lift and put back each stone the die asks for, from the secret arrangement."""
    referee = table.referee
    while referee.phase is Phase.IDENTIFY:
        prompt = table.prompt()
        assert prompt.kind == "identify" and referee.view().identify == prompt.data["number"]
        colour, number = prompt.data["player"], prompt.data["number"]
        (hollow,) = [h for h, n in SECRET[colour].items() if n == number]
        await table.lift(hollow)
        await table.place(hollow)
        await table.until(lambda: table.prompt() != prompt, f"{colour} stone {number} taken")


def test_a_full_board_is_identified_stone_by_stone(rig):
    async def scenario(table):
        await table.until(lambda: table.referee.phase is Phase.IDENTIFY, "the identification")
        view = table.referee.view()
        assert view.prompt.kind == "identify" and view.prompt.data == {"player": "black", "number": 1}
        assert describe(view.prompt, table.referee.game) == "Black: lift stone 1 and put it back" and not view.empty and not view.fill
        await identify_all(table)
        assert table.referee.phase is Phase.PLAY

    table = run(rig, scenario)
    assert table.referee.game.stones("black") == SECRET["black"]
    assert table.referee.game.stones("white") == SECRET["white"]
    assert not any(v.prompt.kind in ("clear", "place") for v, _ in table.seen)


def test_a_full_board_cleared_before_a_stone_is_identified_gets_the_guided_shuffle(rig):
    """Auto: a full board is identified, an empty one shuffled. Players who clear the board while
    it asks for the first stone mean to shuffle: the board follows them (as if it had started
    empty), and the shuffle's first step asks for a piece on the empty board."""
    async def scenario(table):
        await table.until(lambda: table.referee.phase is Phase.IDENTIFY, "the identification")
        for cell in sorted(START_CELLS):
            await table.lift(cell)
        await table.until(lambda: table.prompt().kind == "place", "the guided shuffle")
        assert table.referee.phase is Phase.SETUP and table.prompt().data["cell"] == "a7"

    run(rig, scenario)


def test_a_board_cleared_after_a_stone_was_identified_is_put_back_not_shuffled(rig):
    """Once a stone is told apart, the identification goes on: the board cleared is no new choice."""
    async def scenario(table):
        await table.until(lambda: table.referee.phase is Phase.IDENTIFY, "the identification")
        await table.lift("c1")  # Black's stone 1 (see SECRET: c1 holds a 6, but the players say 1)
        await table.place("c1")
        await table.until(lambda: table.prompt().data.get("number") == 2, "the next stone asked for")
        for cell in sorted(START_CELLS):
            await table.lift(cell)
        assert table.referee.reconciler.settled and not table.referee.reconciler.stable  # read as empty
        assert table.referee.phase is Phase.IDENTIFY
        assert table.prompt().kind == "identify" and table.prompt().data == {"player": "black", "number": 2}

    run(rig, scenario)


def test_an_empty_board_gets_the_guided_shuffle(rig):
    for cell in START_CELLS:
        rig.lift(cell)

    async def scenario(table):
        await table.until(lambda: table.prompt().kind == "place", "the guided shuffle")
        first = table.prompt()
        assert first.data["cell"] == "a7" and first.data["piece"] == "ball"
        while table.referee.phase is Phase.SETUP:
            prompt = table.prompt()
            assert prompt.kind == "place" and prompt.data["cell"] not in table.referee.reconciler.stable
            await table.place(prompt.data["cell"])
            await table.until(lambda: table.prompt() != prompt, "the next step")
        assert table.referee.phase is Phase.PLAY

    table = run(rig, scenario)
    assert len(table.referee.game.stones("black")) == 6 and table.referee.game.occupied() == START_CELLS


def test_a_board_in_between_is_guided_to_a_full_start_then_identified(rig):
    rig.lift("b2")
    rig.lift("f1")
    rig.lift("a7")
    rig.place("d4")  # a piece left where no piece starts

    async def scenario(table):
        await table.until(lambda: table.prompt().kind == "fill", "what to do first")
        view = table.referee.view()
        assert view.prompt.data == {"cells": ["a7", "b2", "f1"], "empty": ["d4"]}
        assert view.fill == {"a7", "b2", "f1"} and view.empty == {"d4"} and view.phase is Phase.SETUP
        assert describe(table.referee.view().prompt, table.referee.game) == (
            "fill the start hollows: put a piece on a7, b2 and f1; take the piece off d4")
        await table.lift("d4")
        for cell in ("a7", "b2", "f1"):
            await table.place(cell)
        await table.until(lambda: table.referee.phase is Phase.IDENTIFY, "the identification")
        await identify_all(table)

    table = run(rig, scenario)
    assert table.referee.game.stones("white") == SECRET["white"]


def test_a_board_mostly_cleared_is_guided_to_empty_then_shuffled(rig):
    keep = {"a1", "e3", "c5"}
    for cell in START_CELLS - keep:
        rig.lift(cell)

    async def scenario(table):
        await table.until(lambda: table.prompt().kind == "clear", "what to do first")
        view = table.referee.view()
        assert view.prompt.data == {"cells": sorted(keep)} and view.empty == keep and not view.fill
        assert describe(view.prompt, table.referee.game) == "clear the board: take the pieces off a1, c5 and e3"
        for cell in sorted(keep):
            await table.lift(cell)
        await table.until(lambda: table.prompt().kind == "place", "the guided shuffle")

    run(rig, scenario)


@pytest.mark.parametrize("mode, kind", [("identify", "fill"), ("shuffle", "clear")])
def test_a_chosen_mode_first_asks_for_the_board_it_needs(mode, kind):
    rig = SimRig()
    rig.lift("a1")

    async def scenario(table):
        await table.until(lambda: table.prompt().kind == kind, f"the {mode} set-up asking first")
        assert table.referee.setup_mode == mode

    run(rig, scenario, setup=mode)


def test_stones_are_unknown_until_identified():
    referee = Referee(BigBalls(), setup="auto")
    referee.start(0.0)
    assert referee.view().prompt.kind == "reading" and not referee.stones_known
    referee.frame(0.0, START_CELLS)
    referee.advance(0.1)
    assert referee.phase is Phase.IDENTIFY and not referee.stones_known
    assert prompts.describe(referee.view().prompt) == "Black: lift stone 1 and put it back"
