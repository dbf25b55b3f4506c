"""The trace board: a trace file's frames and presses, as a board's sensors and buttons."""

import asyncio
from pathlib import Path

import pytest

from reedboard.controller.games import BigBalls
from reedboard.controller.session.trace_board import TraceSource
from reedboard.hal.interfaces import Button

pytestmark = pytest.mark.unit

TRACES = Path(__file__).resolve().parent / "traces"


def test_a_trace_source_gives_the_recorded_frames_and_presses():
    async def run():
        source = TraceSource(str(TRACES / "bigballs-before-roll.jsonl"), speed=None)
        presses = source.presses()
        frames = [frame async for frame in source.frames()]
        press = await asyncio.wait_for(presses.__anext__(), 1)
        return source, frames, press

    source, frames, press = asyncio.run(run())
    assert source.cells == BigBalls().cells
    assert frames[0].occupied == BigBalls().occupied() and len(frames) == 7
    assert press.button is Button.DIE and press.t == 2.1
