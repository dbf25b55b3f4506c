"""What boards send a club: a trace's game as the journal lines a board writes and the payloads
that carry them, and a hostile board whose retained state and players' names are HTML."""

import asyncio
import contextlib
from datetime import datetime, timezone
from pathlib import Path

from reedboard.controller.broadcast.address import parse_broker_url
from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.broadcast.club.follow import follow
from reedboard.controller.broadcast.messages import encode, game_snapshot, journal_message, state_message
from reedboard.controller.persist.journal import Journal
from reedboard.controller.persist.trace import read_trace
from reedboard.controller.session.replay import replay

TRACES = Path(__file__).parent / "traces"
NOW = datetime(2026, 11, 30, 19, 0, tzinfo=timezone.utc)


def board_lines(tmp_path: Path, trace: str = "bigballs-game-to-a7", players=None) -> list[dict]:
    """The journal lines a board writes for the trace's game, the header first."""
    played = read_trace(TRACES / f"{trace}.jsonl")
    lines = []
    journal = Journal.create(tmp_path / "board", played.game(), {}, NOW, players=players,
                             written=lambda path, number, entry: lines.append(entry))
    for entry in replay(played, source=trace).decisions:
        journal.append_entry(entry)
    journal.close()
    return lines


def journal_payload(name, seq, entry, game="g1"):
    return encode(journal_message(name, game, seq, entry))



HTML = "<img src=x onerror=window.__pwned=1>"


def hostile_snapshot(lines: list[dict]) -> dict:
    snapshot = game_snapshot(lines[0], lines[1:])
    first = next(iter(snapshot["cells"]))
    snapshot.update({
        "players": [HTML, HTML], "score": {HTML: HTML}, "turn": HTML, "title": HTML, "message": HTML,
        "header": [HTML, HTML], "record": [HTML], "journal": HTML, "error": HTML, "games": [{"name": HTML}],
        "outcome": {"line": HTML, "winner": HTML}, "palette": {"red": "red;background:url(x)", HTML: HTML},
        "notes": [{"t": HTML, "text": HTML, "kind": HTML, "n": 1}], "sim": True, "selected": 0,
        "hand": [{"piece": "W1", "from": HTML}], "box": [HTML], "geometry": {"cells": {HTML: [0, 0]}},
        "link": {"state": HTML, "text": HTML}, "prompt": {"kind": HTML},
    })
    snapshot["cells"][first] = {"piece": HTML, "light": HTML, "blink": False, "sim": HTML}
    return snapshot


def fed_club(folder: Path) -> Club:
    """A club that took a whole game from board t1 (its players' names HTML) and its hostile state."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = board_lines(folder.parent, players={"white": HTML, "black": "Bo"})
    club = Club(folder)
    for seq, entry in enumerate(lines, 1):
        club.receive("reedboard/boards/t1/journal", encode(journal_message("t1", "g1", seq, entry)))
    state = state_message("t1", "g1", len(lines), lines[0], lines[1:], hostile_snapshot(lines))
    club.receive("reedboard/boards/t1/state", encode(state))
    return club


@contextlib.asynccontextmanager
async def club_on(url: str, folder: Path, identifier: str = "club"):
    """A club following the broker at `url` (its journals in `folder`), ended with the block."""
    club = Club(folder)
    ready = asyncio.Event()
    task = asyncio.create_task(follow(club, parse_broker_url(url), identifier=identifier, retry=(0.05, 0.2),
                                      ready=ready))
    await ready.wait()
    try:
        yield club
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        club.close()
