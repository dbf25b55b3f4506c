"""The web server wakes once a second when idle, and at once when told to stop.

Run on a loop on virtual time (tests/virtual_time.py): the counts are per second of the loop's
own time, the same on any machine.
"""

import asyncio

import pytest
import uvicorn
from starlette.applications import Starlette

from reedboard.controller.web.calm_server import CalmServer
from reedboard.controller.session.virtual_time import VirtualClock, run_virtual

pytestmark = pytest.mark.system


def server() -> tuple[CalmServer, list[int]]:
    calm = CalmServer(uvicorn.Config(Starlette(), host="127.0.0.1", port=0))
    ticks: list[int] = []
    real_tick = calm.on_tick

    async def on_tick(counter: int) -> bool:
        ticks.append(counter)
        return await real_tick(counter)

    calm.on_tick = on_tick
    return calm, ticks


def test_an_idle_server_ticks_once_a_second_and_keeps_its_date_header_fresh():
    calm, ticks = server()
    clock = VirtualClock()

    async def main():
        loop = asyncio.get_running_loop()
        loop.call_later(10.0, setattr, calm, "should_exit", True)
        started = clock()
        await calm.main_loop()
        return clock() - started

    calm.server_state = uvicorn.server.ServerState()
    took = run_virtual(main(), clock)
    assert 10.0 <= took < 10.5  # stopped when told, not at the next tick
    assert 10 <= len(ticks) <= 12  # uvicorn's own loop ticks 100 times in 10 s
    assert all(counter % 10 == 0 for counter in ticks)  # each tick refreshes the Date header
    assert calm.server_state.default_headers[0][0] == b"date"


def test_a_server_told_to_stop_before_its_loop_runs_stops_at_once():
    calm, ticks = server()
    calm.should_exit = True
    calm.server_state = uvicorn.server.ServerState()
    run_virtual(calm.main_loop())
    assert ticks == [0]
