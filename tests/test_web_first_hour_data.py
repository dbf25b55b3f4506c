"""What the page is given to show a newcomer, through the web API: no made-up stone numbers in
the record while the stones are identified."""

import random
import time

from starlette.testclient import TestClient

from reedboard.controller.play import PlaySession
from reedboard.controller.reconcile import Settings
from reedboard.controller.web import create_app

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
