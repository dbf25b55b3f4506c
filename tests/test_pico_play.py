"""A short game of each shipped board's game refereed over the emulated Pico (pico_emulator/: the
real firmware on MicroPython's RP2040 build, wired to that board's reed matrix and LED chain) and
the same game on the simulated board: the same record, the same light frames, and the chip's
LEDs, decoded from its data pin, showing each of them. Big Balls is played on its 7x7 board with a
die that rolls what it is told, Off Board on its 61-hole board with 74 LEDs. The session is the
one `reedboard play --hal serial|sim` runs. Skipped, saying why, where the emulated Pico cannot
run."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from reedboard.controller.games import BigBalls, OffBoard
from reedboard.controller.session.play_session import PlaySession, ScriptedDie
from reedboard.hal.board import load_board
from reedboard.hal.serial_board import SerialBoard, light_payload

from pico_here import emulated_pico

pytestmark = [pytest.mark.system, pytest.mark.pico]
pe = emulated_pico()

WAIT = 120.0  # s of wall time for the chip to answer (the emulation runs at 0.2-1x real time)


@dataclass(frozen=True)
class Script:
    """A game's hands, turn by turn, and what its record and lights must then be.

    Each turn is what hands do before the board is left alone: `die` presses the die, `C>D`
    lifts the piece on C and puts it on D, `xC` takes the piece on C off the board into the box."""

    game: str
    start: object  # the game's start position (its pieces are on the board from the start)
    rolls: tuple[int, ...]
    turns: tuple[str, ...]
    moves: tuple[str, ...]  # the record's moves and takebacks, in notation, from the rules
    wrong: int  # the turn after which the board fits nothing: lit to be put right ...
    lit: dict  # ... these hollows ("fill" or "empty"); the next turn puts it right


BIG_BALLS = Script(
    "bigballs", BigBalls(), (6, 2, 5, 3),
    # Black rolls 6 and plays a3-a4; White rolls 2; Black takes the move back and plays a3-b3
    # instead; then a White stone moved that the roll does not move (an illegal board, lit to be
    # put right), put back; then White's stone 2 captures its own stone 5.
    ("die", "a3>a4", "die", "a4>a3", "a3>b3", "e1>d1", "d1>e1", "xf2 f1>f2"),
    ("6 a3-a4", "6 a3-a4", "6 a3-b3", "2 f1xf2"),
    5, {"e1": "fill", "d1": "empty"})

OFF_BOARD = Script(
    "offboard", OffBoard(), (),
    # Red's line B3 B4 pushes Yellow's ball on B5 one hole east, onto B6, taken apart from the front
    # as hands do it: B5's ball to B6, then B4's to B5, then B3's to B4. Yellow's ball on D7 jumps
    # to E9, no neighbour of it (an illegal board, lit to be put right), and goes back; Yellow
    # plays D7-E8 (north-east), takes it back, and plays H8-I8 (north-west) instead.
    ("B5>B6 B4>B5 B3>B4", "D7>E9", "E9>D7", "D7>E8", "E8>D7", "H8>I8"),
    ("B3-B4x1", "D7-E8", "D7-E8", "H8-I8"),
    1, {"D7": "fill", "E9": "empty"})


def record(folder: Path) -> list[dict]:
    """The journal's entries without their times."""
    [journal] = [p for p in folder.glob("*.jsonl") if not p.name.endswith(".trace.jsonl")]
    entries = [json.loads(line) for line in journal.read_text().splitlines()]
    return [{k: v for k, v in entry.items() if k not in ("t", "time", "at", "wall", "started", "date")}
            for entry in entries[1:]]


async def until(condition, what: str) -> None:
    """Until `condition()` holds: the hands wait for the board, never for a fixed time."""
    loop = asyncio.get_running_loop()
    end = loop.time() + WAIT
    while not condition():
        if loop.time() > end:
            raise AssertionError(f"in {WAIT:g} s, never {what}")
        await asyncio.sleep(0.01)


def quiet(session, occupied: set[str]) -> bool:
    """The referee has seen the board as the hands left it, and nothing waits to settle or roll."""
    referee = session.referee
    return referee is not None and referee.reconciler.stable == occupied and referee.next_deadline() is None


async def play(script: Script, folder: Path, pico=None) -> list:
    """The script's game on the simulated board, or over the emulated `pico`; the light frame
    after each turn, once the referee has decided it."""
    board = load_board(game=script.game)
    backend = SerialBoard(board, pico.port) if pico is not None else None
    session = PlaySession(script.game, games_dir=folder, backend=backend, die=ScriptedDie(list(script.rolls)),
                          setup="given")
    occupied = set(script.start.occupied())
    await session.start()
    frames = []
    try:
        await until(lambda: quiet(session, occupied), "the start position taken")
        for turn in script.turns:
            for hand in turn.split():
                if hand == "die":
                    if pico is not None:
                        pico.press("die", 150)
                    else:
                        session.press("die")
                    await until(lambda: session.referee.roll is not None, f"a roll after {turn!r}")
                    continue
                if hand.startswith("x"):  # off the board, set aside
                    steps = [(hand[1:], True)]
                else:
                    steps = list(zip(hand.split(">"), (True, False)))
                for cell, lift in steps:
                    (occupied.discard if lift else occupied.add)(cell)
                    if pico is not None:
                        (pico.lift if lift else pico.place)(cell)
                    else:
                        session.click(cell)
                        if hand.startswith("x"):
                            session.aside()
                    # each step seen on its own, as a hand's steps are at the table
                    await until(lambda: session.referee.reconciler.stable == occupied, f"{cell} seen in {turn!r}")
            await until(lambda: quiet(session, occupied), f"the referee done with {turn!r}")
            frames.append(session.lights)
            if pico is not None:  # the lights the referee asked for are on the chip's LEDs
                shown = await asyncio.to_thread(pico.shown, WAIT, light_payload(session.lights, board))
                assert shown is not None
    finally:
        await session.stop()
        if backend is not None:
            backend.close()
    return frames


def to_put_right(frame) -> dict:
    """The hollows a frame lights to fill or to empty."""
    return {c: light.colour for c, light in frame.cells.items() if light.colour in ("fill", "empty")}


@pytest.mark.parametrize("script", [BIG_BALLS, OFF_BOARD], ids=lambda script: script.game)
def test_a_game_over_the_emulated_pico_is_the_game_on_the_simulated_board(script, tmp_path):
    board = load_board(game=script.game)
    with ThreadPoolExecutor(1) as beside:  # the simulated board's game meanwhile, in a thread of its own
        sim = beside.submit(lambda: asyncio.run(play(script, tmp_path / "sim")))
        with pe.EmulatedPico(board, occupied=script.start.occupied()) as pico:
            pico.booted(WAIT)
            serial_frames = asyncio.run(play(script, tmp_path / "serial", pico))
        sim_frames = sim.result()
    sim_record, serial_record = record(tmp_path / "sim"), record(tmp_path / "serial")
    assert [e.get("move") for e in sim_record if e["type"] in ("move", "takeback")] == list(script.moves), sim_record
    assert serial_record == sim_record
    assert serial_frames == sim_frames
    assert to_put_right(serial_frames[script.wrong]) == script.lit, serial_frames[script.wrong]
    assert not to_put_right(serial_frames[script.wrong + 1])
