"""A short game of Big Balls refereed over the emulated Pico (pico_emulator/: the real firmware on
MicroPython's RP2040 build) and the same game on the simulated board: the same record, the same
light frames, and the chip's LEDs, decoded from its data pin, showing each of them. The session
is the one `reedboard play --hal serial|sim` runs, with a die that rolls what it is told. Skipped,
saying why, where the emulated Pico cannot run."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from reedboard.controller.games import BigBalls
from reedboard.controller.session.play_session import PlaySession, ScriptedDie
from reedboard.hal.board import load_board
from reedboard.hal.serial_board import SerialBoard, light_payload

from pico_here import emulated_pico

pytestmark = pytest.mark.pico
pe = emulated_pico()

WAIT = 120.0
SETTLE_S = 1.8  # after each hand: more than the referee's settle time (0.8 s) and a roll's animation (0.6 s)
SERIAL_SETTLE_S = 2.5  # ... and the emulated board's own delays (it runs at 0.2-1x real time)
ROLLS = [6, 2, 5, 3]
# (what the hands do, the cells): Black rolls 6 and plays a3-a4; White rolls 2; Black takes the
# move back and plays a3-b3 instead; then a White stone moved that the roll does not move (an
# illegal board, lit to be put right), put back; then White's stone 2 captures its own stone 5.
GAME = [("press", "die"), ("move", "a3 a4"), ("press", "die"), ("move", "a4 a3"), ("move", "a3 b3"),
        ("move", "e1 d1"), ("move", "d1 e1"), ("capture", "f1 f2")]


def record(folder: Path) -> list[dict]:
    """The journal's entries without their times."""
    [journal] = [p for p in folder.glob("*.jsonl") if not p.name.endswith(".trace.jsonl")]
    entries = [json.loads(line) for line in journal.read_text().splitlines()]
    return [{k: v for k, v in entry.items() if k not in ("t", "time", "at", "wall", "started", "date")}
            for entry in entries[1:]]


async def play(folder: Path, pico=None) -> list:
    board = load_board(game="bigballs")
    backend = SerialBoard(board, pico.port) if pico is not None else None
    session = PlaySession("bigballs", games_dir=folder, backend=backend, die=ScriptedDie(list(ROLLS)), setup="given")
    await session.start()
    frames = []
    try:
        if pico is not None:  # the board answers and its start position is taken
            for _ in range(int(WAIT / 0.1)):
                if backend.addresses.in_step:
                    break
                await asyncio.sleep(0.1)
        await asyncio.sleep(SETTLE_S)
        for what, cells in GAME:
            if what == "press":
                if pico is not None:
                    pico.press(cells, 150)
                else:
                    session.press(cells)
            else:
                source, target = cells.split()
                if what == "capture":  # the captured stone off the board first, set aside
                    if pico is not None:
                        pico.lift(target)
                    else:
                        session.click(target)
                        session.aside()
                    await asyncio.sleep(0.3)
                for cell, lift in ((source, True), (target, False)):
                    if pico is not None:
                        (pico.lift if lift else pico.place)(cell)
                    else:
                        session.click(cell)
                    await asyncio.sleep(0.3)
            await asyncio.sleep(SETTLE_S if pico is None else SERIAL_SETTLE_S)
            frames.append(session.lights)
            if pico is not None:  # the lights the referee asked for are on the chip's LEDs
                shown = await asyncio.to_thread(pico.shown, WAIT, light_payload(session.lights, board))
                assert shown is not None
    finally:
        await session.stop()
        if backend is not None:
            backend.close()
    return frames


def test_a_game_over_the_emulated_pico_is_the_game_on_the_simulated_board(tmp_path):
    board = load_board(game="bigballs")
    with ThreadPoolExecutor(1) as beside:  # the simulated board's game meanwhile, in a thread of its own
        sim = beside.submit(lambda: asyncio.run(play(tmp_path / "sim")))
        with pe.EmulatedPico(board, occupied=BigBalls().occupied()) as pico:
            pico.booted(WAIT)
            serial_frames = asyncio.run(play(tmp_path / "serial", pico))
        sim_frames = sim.result()
    sim_record, serial_record = record(tmp_path / "sim"), record(tmp_path / "serial")
    assert [e.get("move") for e in sim_record if e["type"] in ("move", "takeback")] == [
        "6 a3-a4", "6 a3-a4", "6 a3-b3", "2 f1xf2"], sim_record
    assert serial_record == sim_record
    assert serial_frames == sim_frames
    illegal = serial_frames[-3]  # the White stone moved out of turn: its hollow to fill, the other to empty
    assert {c: light.colour for c, light in illegal.cells.items() if light.colour in ("fill", "empty")} == {
        "e1": "fill", "d1": "empty"}, illegal
    assert not [c for c, light in serial_frames[-2].cells.items() if light.colour in ("fill", "empty")]
