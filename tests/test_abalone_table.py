"""Abalone on the Off Board board, on every backend: the same board file, its rim sectors unused.

The referee runs live (controller.session.live) on the sim, gpio (mock pins, the matrix on the board
file's MCP23017 expanders) and serial (the firmware behind a pty) backends with
hardware/boards/offboard.toml, and hands move marbles: a broadside marble by marble, a line
slid, a push. A ball dropped into a scoring trough is no concern of Abalone's, and no light
is ever sent to a trough.
"""

import asyncio
import time

import pytest
from reedboard.controller.session import live
from reedboard.controller.games.abalone import Abalone
from reedboard.controller.core.referee import Outputs
from reedboard.hal.board import load_board
from reedboard.hal.interfaces import LightFrame
from reedboard.controller.words.prompts import describe

pytestmark = pytest.mark.component

BOARD = load_board(game=Abalone.board, cells=Abalone().cells)
START = frozenset(Abalone().occupied())
TROUGHS = frozenset(BOARD.cells) - frozenset(Abalone().cells)
WAIT = 15.0  # s at most for the board to show a change (serial runs through a pty)


@pytest.fixture
def rig_position():
    """The rigs (conftest.py) start from Abalone's board file and start position."""
    return BOARD, START


def test_the_board_file_has_troughs_that_abalone_leaves_unused():
    assert len(TROUGHS) == 12 and all(cell.startswith("S") for cell in TROUGHS)
    assert START <= frozenset(BOARD.cells)


def test_abalone_is_played_on_the_off_board_board(rig):
    shown: list[LightFrame] = []

    def lights(frame: LightFrame) -> None:
        shown.append(frame)
        rig.device.show(frame)

    referee = live.LiveReferee(Abalone(), setup="given", outputs=Outputs(lights=lights, die=rig.device.show))

    async def until(condition, what):
        deadline = time.monotonic() + WAIT
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"the board never showed {what}: {describe(referee.view().prompt, referee.game)!r}")
            await asyncio.sleep(0.01)

    async def hand(action, cell):
        getattr(rig, action)(cell)
        wanted = action == "place"
        await until(lambda: (cell in referee.state().stable) == wanted or cell in TROUGHS, f"{cell} {action}d")

    async def move(text, steps):
        count = len(referee.game.move_stack)
        for action, cell in steps:
            await hand(action, cell)
        await until(lambda: len(referee.game.move_stack) > count, f"the move {text}")
        assert str(referee.game.move_stack[-1]) == text

    async def main():
        stop = asyncio.Event()
        task = asyncio.create_task(live.run(referee, rig.device, stop=stop))
        try:
            await until(lambda: referee.view().prompt.kind == "move", "the game ready")
            await move("C3C5D3", [("lift", "C3"), ("place", "D3"), ("lift", "C4"), ("place", "D4"),
                                  ("lift", "C5"), ("place", "D5")])
            rig.place("S3")  # a ball rolled into a trough: the board senses it, Abalone does not care
            await move("I9H9", [("lift", "I9"), ("place", "G9")])
            await move("A1B2", [("lift", "A1"), ("place", "C3")])
        finally:
            stop.set()
            await asyncio.wait_for(task, 10)

    asyncio.run(main())
    assert [str(m) for m in referee.game.move_stack] == ["C3C5D3", "I9H9", "A1B2"]
    assert not [n for n in referee.notes if n.kind in ("illegal", "choose", "touch")]
    assert shown and not any(TROUGHS & set(frame.cells) for frame in shown)
