"""What the page is given to show a newcomer, through the web API: no made-up stone numbers in
the record while the stones are identified."""

import random
import time

import pytest
from starlette.testclient import TestClient

from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.web import create_app

pytestmark = pytest.mark.component

LOCAL = "http://127.0.0.1"
FAST = Settings(settle=0.15, grace=0.3)


def state_when(client, condition, what, timeout=10.0):
    deadline = time.monotonic() + timeout
    while True:
        snap = client.get("/api/state").json()
        if condition(snap):
            return snap
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}: {snap.get('phase')}")
        time.sleep(0.02)


def test_while_the_stones_are_identified_the_record_names_no_numbers(tmp_path):
    # a board out of the box: every stone on it, their numbers not known yet
    session = PlaySession("bigballs", games_dir=tmp_path, settings=FAST, rng=random.Random(11))
    with TestClient(create_app(session), base_url=LOCAL) as client:
        snap = state_when(client, lambda s: s.get("phase") == "identify", "the stones to be identified")
        assert snap["header"] == ["game bigballs"], snap["header"]
        assert {c["piece"] for c in snap["cells"].values()} >= {"B?", "W?"}


def test_a_resigned_game_replays_from_its_trace_to_the_record_export_gives_with_times_from_its_start(tmp_path):
    from reedboard.controller.archive.records import game_record, record_lines
    from reedboard.controller.persist.game_files import trace_path
    from reedboard.controller.persist.journal_reader import read_journal
    from reedboard.controller.persist.export import export_lines
    from reedboard.controller.session.replay import replay
    from reedboard.controller.persist.trace import read_trace

    # a controller whose clock has run a long while before the game (seconds since the machine booted)
    session = PlaySession("abalone", games_dir=tmp_path, settings=FAST, clock=lambda: time.monotonic() + 50_000)
    with TestClient(create_app(session), base_url=LOCAL) as client:
        state_when(client, lambda s: s.get("prompt", {}).get("kind") == "move", "black to move")
        for hollow in ("C3", "D3"):  # black's C3 one hole up
            assert client.post("/api/click", json={"cell": hollow}).status_code == 200
            time.sleep(0.05)
        state_when(client, lambda s: s.get("record") == ["C3D3"], "the move in the record")
        assert client.post("/api/resign", json={"player": "white"}).status_code == 200
        snap = state_when(client, lambda s: s.get("phase") == "over", "the game over")
        journal = tmp_path / snap["journal"]
    exported = export_lines(journal)
    assert exported[-1].startswith("1-0 resign")
    assert replay(read_trace(trace_path(journal)), source=str(trace_path(journal))).record == exported
    record = game_record(read_journal(journal))
    assert 0 <= record.moves[0].t < 1000 and 0 <= record.result_t < 1000, (record.moves[0].t, record.result_t)
    assert "[%t 5" not in "\n".join(record_lines(record))
