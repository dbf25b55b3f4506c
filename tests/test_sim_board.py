"""The simulated board."""

import asyncio
from pathlib import Path

import pytest

from reedboard.controller.games import BigBalls
from reedboard.hal.board import load_board
from reedboard.hal.interfaces import Button, Cue, DieFace, DieState, Light, LightFrame
from reedboard.hal.sim import SimBoard

pytestmark = pytest.mark.unit

TRACES = Path(__file__).resolve().parent / "traces"


def test_hands_lights_and_die_of_the_simulated_board():
    sim = SimBoard(load_board(game="bigballs"), BigBalls().occupied())
    assert sim.occupied == set(BigBalls().occupied())
    sim.lift("a5")
    sim.place("a4")
    with pytest.raises(ValueError, match="nothing to lift"):
        sim.lift("d4")
    with pytest.raises(ValueError, match="no cell"):
        sim.place("z9")
    sim.show(LightFrame({"a4": Light("last")}, 3, "white"))
    sim.show(DieState(DieFace.VALUE, 3))
    sim.play(Cue.MOVE)
    assert sim.lit("last") == {"a4"} and sim.die.value == 3 and sim.cues == [Cue.MOVE]
    with pytest.raises(TypeError):
        sim.show("green")


def test_the_simulated_board_streams_frames_and_presses():
    async def run():
        sim = SimBoard(load_board(game="bigballs"), ["a1"])
        frames, presses = sim.frames(), sim.presses()
        first = await frames.__anext__()
        sim.place("b1")
        second = await asyncio.wait_for(frames.__anext__(), 1)
        waiting = asyncio.ensure_future(presses.__anext__())
        await asyncio.sleep(0)
        sim.press("die", long=True)
        press = await asyncio.wait_for(waiting, 1)
        return first, second, press

    first, second, press = asyncio.run(run())
    assert first.occupied == {"a1"} and second.occupied == {"a1", "b1"} and second.t >= first.t
    assert press.button is Button.DIE and press.long


def test_a_simulated_board_needs_only_its_cells():
    # a game on hollows no shipped board has exactly (the simulated table, the crash fuzz)
    from types import SimpleNamespace

    sim = SimBoard(SimpleNamespace(cells=("x1", "x2", "x3")), ["x2"])
    assert sim.cells == ("x1", "x2", "x3") and sim.occupied == {"x2"}
    sim.place("x3")
    sim.show(LightFrame({"x1": Light("place", blink=True)}))
    assert sim.occupied == {"x2", "x3"} and sim.lit("place") == {"x1"}
    assert sim.addresses.closed == {1, 2} and sim.addresses.lit() == {0}
