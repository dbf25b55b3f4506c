"""Hands that follow a trace on a rig's board (tests/rigs.py) while the referee runs live
(controller.session.live): frame by frame, each change waited for until the board has seen it.

A change that the trace undoes within the debounce time (a flicker, a switch knocked but never
open long enough) is not made: on these boards it is never seen either. Where the players paused
in the trace for at least the settle time, the hands wait until the referee has nothing left to
decide; shorter pauses are not waited out."""

import asyncio
import time
from pathlib import Path

from reedboard.controller.core.reconcile import Settings
from reedboard.controller.core.referee import Outputs
from reedboard.controller.core.view import Phase
from reedboard.controller.persist.notation import record_lines
from reedboard.controller.persist.trace import TracePress, read_trace
from reedboard.controller.session import live
from reedboard.controller.session.play_session import ScriptedDie
from reedboard.hal.board import load_board
from reedboard.hal.interfaces import Frame
from reedboard.controller.words.prompts import describe

TRACES = Path(__file__).resolve().parent / "traces"
SETTINGS = Settings()
WAIT = 20.0  # s at most for the board to show a change (serial runs through a pty)


def hand_steps(trace):
    """What the hands do, in order: ("frame", occupied, pause_after) or ("press", button, roll).
    A frame the trace leaves again within the debounce time is dropped."""
    events = trace.events
    steps = []
    for i, event in enumerate(events):
        following = next((e.t for e in events[i + 1:]), None)
        if isinstance(event, Frame):
            if following is not None and following - event.t < SETTINGS.debounce:
                continue
            pause = float("inf") if following is None else following - event.t
            steps.append(("frame", event.occupied, pause))
        elif isinstance(event, TracePress):
            steps.append(("press", event.button, event.roll))
    return steps


def play_on(backend, name: str) -> list[str]:
    trace = read_trace(TRACES / f"{name}.jsonl")
    game = trace.game()
    board = load_board(game=game.board, cells=game.cells)
    start = frozenset(game.occupied())
    rig = backend(board, start)
    rolls = [e.roll for e in trace.events if isinstance(e, TracePress) and e.roll is not None]
    referee = live.LiveReferee(game, settings=SETTINGS, die=ScriptedDie(rolls),
                               outputs=Outputs(lights=rig.device.show, die=rig.device.show))

    async def until(condition, what):
        deadline = time.monotonic() + WAIT
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"{name}: the board never showed {what}: {describe(referee.view().prompt, referee.game)!r}")
            await asyncio.sleep(0.005)

    async def hands():
        await until(lambda: referee.reconciler.stable == start and referee.phase is not Phase.SETUP, "the start")
        occupied = set(start)
        for kind, what, extra in hand_steps(trace):
            if kind == "press":
                notes = referee.notes_total
                rig.press_die() if what == "die" else referee.press(referee.now, "ok")
                await until(lambda: referee.notes_total > notes, f"the {what} button pressed")
                continue
            for cell in occupied - what:
                rig.lift(cell)
            for cell in what - occupied:
                rig.place(cell)
            occupied = set(what)
            await until(lambda: referee.reconciler.stable == what and referee.reconciler.settled, "the hands' change")
            if extra >= SETTINGS.settle:  # the players paused: whatever the pause decides is decided
                await until(lambda: referee.next_deadline() is None or referee.phase is Phase.OVER,
                            "the board decided")

    async def main():
        stop = asyncio.Event()
        task = asyncio.create_task(live.run(referee, rig.device, rig.device, stop=stop, poll=0.01))
        try:
            await hands()
        finally:
            stop.set()
            await asyncio.gather(task, return_exceptions=True)

    try:
        asyncio.run(main())
    finally:
        rig.close()
    return record_lines(referee.game)
