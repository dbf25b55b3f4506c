"""The contract every board backend keeps, as checks on a rig (tests/rigs.py): the referee never
asks which backend it has, so each must behave the same; the registry entry says what the
backend can do, and its board is found back from the entry (registry.backend_of).

test_hal_contract runs these on every backend the registry holds; test_toy_backend runs them
again on a backend registered by the test itself."""

import asyncio
import importlib
import time
import tomllib

import pytest

from reedboard.hal import registry
from reedboard.hal.board import load_board
from reedboard.hal.interfaces import Button, Cue, DieFace, DieState, Light, LightFrame
from reedboard.hal.leds import capped, chain

from rigs import BOARD, RIGS, START


def _named(where: str):
    module, name = where.split(":")
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("name", list(registry.BACKENDS))
def test_each_entry_names_what_it_opens_its_table_and_what_it_can(name):
    backend = registry.BACKENDS[name]
    assert backend.name == name and backend.what
    assert callable(_named(backend.opener)) and isinstance(_named(backend.device), type)
    assert backend.can <= set(registry.CAPABILITIES)
    table = backend.table
    if table is None:
        return
    board = load_board(game="bigballs")  # read now: with every backend registered now
    assert board.settings_of(name) == board.settings[name]  # read by the loader, through the entry
    table.read({}, {}, board)  # a board file without the table: the backend's defaults, no error
    if table.writer is not None:  # what a calibrated board file says reads back the same
        written = table.write(board.settings[name])
        data = {section: tomllib.loads("\n".join(lines)) for section, lines in written.items()}
        assert table.section in written and table.read(data[table.section], data, board) == board.settings[name]


def test_the_board_is_found_back_from_its_entry(rig):
    backend = registry.backend_of(rig.device)
    assert backend is not None and isinstance(rig.device, _named(backend.device))
    assert registry.device_can(rig.device, registry.HANDS) == (registry.HANDS in backend.can)


async def next_frame(stream, timeout=3.0):
    return await asyncio.wait_for(stream.__anext__(), timeout)


def test_the_board_senses_its_cells(rig):
    assert tuple(rig.device.cells) == BOARD.cells


def test_frames_report_the_pieces_and_every_change(rig):
    async def run():
        stream = rig.device.frames()
        try:
            first = await next_frame(stream)
            rig.lift("a5")
            lifted = await next_frame(stream)
            rig.place("a4")
            placed = await next_frame(stream)
        finally:
            await stream.aclose()
        return first, lifted, placed

    first, lifted, placed = asyncio.run(run())
    assert first.occupied == START
    assert lifted.occupied == START - {"a5"}
    assert placed.occupied == (START - {"a5"}) | {"a4"}
    assert first.t <= lifted.t <= placed.t


def test_the_die_button_arrives_as_a_press(rig):
    async def run():
        stream = rig.device.presses()
        try:
            waiting = asyncio.ensure_future(stream.__anext__())
            await asyncio.sleep(0.2)  # the stream is listening
            await asyncio.get_running_loop().run_in_executor(None, rig.press_die)
            return await asyncio.wait_for(waiting, 3.0)
        finally:
            await stream.aclose()

    press = asyncio.run(run())
    assert press.button is Button.DIE and not press.long


def test_a_light_frame_reaches_the_leds_within_the_current_budget(rig):
    frame = LightFrame({"a1": Light("movable"), "b2": Light("last"), "a7": Light("winner")}, die_pips=5, turn="white")
    expected = capped(chain(frame, BOARD)[0], BOARD.budget_ma)
    rig.device.show(frame)
    rig.device.show(DieState(DieFace.VALUE, 5))
    rig.device.play(Cue.MOVE)
    deadline = time.monotonic() + 3
    while rig.leds() != expected and time.monotonic() < deadline:
        time.sleep(0.02)
    assert rig.leds() == expected
    assert expected[BOARD.led["a1"]] != (0, 0, 0) and expected[BOARD.led["c1"]] == (0, 0, 0)


def test_the_address_level_reports_switches_and_lights_leds_by_index(rig):
    if not registry.device_can(rig.device, registry.ADDRESSES):
        pytest.skip("the backend has no address level (registry.ADDRESSES)")
    from reedboard.hal.addresses import LedFrame
    from reedboard.hal.colours import PALETTE

    addresses = rig.device.addresses  # what the self-test and the calibration run on
    at = {cell: BOARD.sensor[cell] for cell in BOARD.cells}

    async def run():
        stream = addresses.switches()
        try:
            first = await next_frame(stream)
            rig.lift("a5")
            lifted = await next_frame(stream)
        finally:
            await stream.aclose()
        return first, lifted

    first, lifted = asyncio.run(run())
    assert first.closed == {at[c] for c in START}
    assert lifted.closed == {at[c] for c in START - {"a5"}}
    pip = BOARD.die_pips[3]  # an LED under no hollow: only the address level can light it alone
    addresses.show_leds(*LedFrame({pip: Light("place")}).chain(BOARD.led_count))
    expected = [PALETTE["place"] if i == pip else (0, 0, 0) for i in range(BOARD.led_count)]
    deadline = time.monotonic() + 10
    while rig.leds() != expected and time.monotonic() < deadline:
        time.sleep(0.02)
    assert rig.leds() == expected
