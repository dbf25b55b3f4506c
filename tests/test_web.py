"""The web view over HTTP and WebSocket (Starlette's TestClient): the page, the snapshot, the
token rules, bad requests, spectators, a game played by clicks, and the past games."""

import asyncio
import json
import random
import time

import pytest
from starlette.testclient import TestClient

from reedboard.controller.games import GAMES, BigBalls, names_in_words
from reedboard.controller.persist.export import export_lines
from reedboard.controller.session.play_session import PlaySession, ScriptedDie
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.web import create_app
from reedboard.hal.interfaces import Frame

pytestmark = pytest.mark.component

LOCAL = "http://127.0.0.1"
FAST = Settings(settle=0.15, grace=0.3)


def session_for(tmp_path, game="bigballs", **kwargs):
    kwargs.setdefault("settings", FAST)
    kwargs.setdefault("rng", random.Random(7))
    kwargs.setdefault("setup", "given")  # the stones as they stand are known: play at once
    return PlaySession(game, games_dir=tmp_path / "games", **kwargs)


def client_for(session, token=None, base_url=LOCAL):
    client = TestClient(create_app(session, token=token), base_url=base_url)
    client.session = session  # the hand's clicks wait for the referee to count the board
    return client


def wait_for(client, condition, timeout=5.0, what="the condition"):
    deadline = time.monotonic() + timeout
    while True:
        snapshot = client.get("/api/state").json()
        if condition(snapshot):
            return snapshot
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; last snapshot: {json.dumps(snapshot)[:2000]}")
        time.sleep(0.02)


def playing(snapshot):
    return snapshot.get("phase") in ("play", "rolled")


def counted(session, timeout=10.0):
    """Wait until the referee has counted the simulated board as it stands (its debounce is over)."""
    deadline = time.monotonic() + timeout
    while not (session.referee is not None and session.sim is not None
               and session.referee.reconciler.stable == frozenset(session.sim.occupied)):
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the referee to count the board as it stands")
        time.sleep(0.005)


def click(client, cell, **kwargs):
    """A hand on the simulated board: the next change once the referee counted the last one (a
    change it has not counted apart from the one before is a bounce to the sensors, as it would
    be for a hand that quick)."""
    counted(client.session)
    response = client.post("/api/click", json={"cell": cell}, **kwargs)
    assert response.status_code == 200, response.text
    return response.json()


def game_state(snapshot):
    """What a bad request must not change (the sequence number may move on by itself)."""
    keep = ("phase", "turn", "record", "cells", "hand", "box", "roll", "outcome", "game", "journal")
    return {key: snapshot.get(key) for key in keep}


# --- the page and the snapshot ------------------------------------------------------------------
def test_the_page_its_files_and_the_snapshot(tmp_path):
    with client_for(session_for(tmp_path)) as client:
        page = client.get("/")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        for hook in ('data-action="die"', 'data-action="ok"', 'data-role="record"', 'data-role="die"',
                     'data-role="message"'):
            assert hook in page.text
        assert client.get("/static/app.js").status_code == 200
        assert client.get("/static/style.css").status_code == 200
        assert client.get("/static/nothing.js").status_code == 404

        snapshot = wait_for(client, playing, what="the set-up to be reached")
        assert snapshot["game"] == "bigballs" and snapshot["turn"] == "black" and snapshot["sim"]
        assert set(snapshot["cells"]) == set(BigBalls().cells)
        pieces = {cell: info["piece"] for cell, info in snapshot["cells"].items() if info["piece"]}
        assert sorted(p for p in pieces.values() if p.startswith("B")) == [f"B{n}" for n in range(1, 7)]
        assert [c for c, p in pieces.items() if p == "ball"] and len(pieces) == 18
        # the arrangement drawn by the shuffle is shown, and is the one journaled
        assert snapshot["header"][0] == "game bigballs" and snapshot["header"][1].startswith("black a1=")
        assert snapshot["journal"].endswith("-bigballs.jsonl")
        # the lights are the light frame: before a roll nothing needs pointing out
        lit = {cell: info["light"] for cell, info in snapshot["cells"].items() if info["light"]}
        assert lit == {} and snapshot["prompt"] == {"kind": "roll", "player": "black"}
        assert snapshot["die"] == {"face": "blank", "value": None, "pips": 0}
        assert snapshot["turn_light"] == "black" and snapshot["record"] == []
        assert client.get("/api/auth").json() == {"control": True, "token_required": False}


# --- who may change the game ----------------------------------------------------------------------
def test_beyond_localhost_changing_needs_the_token_and_watching_does_not(tmp_path):
    session = session_for(tmp_path)
    with client_for(session, token="s3cret", base_url="http://192.168.1.20:8000") as client:
        before = game_state(wait_for(client, playing))
        for path, body in [("/api/click", {"cell": "a1"}), ("/api/press", {"button": "die"}),
                           ("/api/resign", {"player": "black"}), ("/api/draw", {}), ("/api/new", {}),
                           ("/api/new", {"settings": {"takebacks": False}}), ("/api/take", {"index": 0})]:
            assert client.post(path, json=body).status_code == 403, path
            assert client.post(path, json=body, headers={"X-Reedboard-Token": "wrong"}).status_code == 403
        time.sleep(0.1)
        assert game_state(client.get("/api/state").json()) == before
        assert "a1" in session.sim.occupied
        assert client.get("/api/auth").json() == {"control": False, "token_required": True}
        assert client.get("/api/auth", headers={"X-Reedboard-Token": "s3cret"}).json()["control"] is True

        # watching needs no token
        assert client.get("/").status_code == 200
        with client.websocket_connect("/ws") as ws:
            assert ws.receive_json()["cells"]["a1"]["sim"] != ""
            snapshot = click(client, "a1", headers={"X-Reedboard-Token": "s3cret"})
            assert snapshot["cells"]["a1"]["sim"] == "" and snapshot["hand"][0]["from"] == "a1"
            while ws.receive_json()["cells"]["a1"]["sim"] != "":
                pass
        assert "a1" not in session.sim.occupied
        click(client, "a1", params={"token": "s3cret"})  # the token in the URL works too
        assert "a1" in session.sim.occupied


def test_without_a_token_only_requests_to_localhost_may_change_the_game(tmp_path):
    session = session_for(tmp_path)
    with client_for(session, base_url="http://attacker.example") as client:
        wait_for(client, playing)
        assert client.post("/api/click", json={"cell": "a1"}).status_code == 403
        assert "a1" in session.sim.occupied
    for base in ("http://localhost:8000", "http://127.0.0.1:8000", "http://[::1]:8000"):
        with client_for(session, base_url=base) as client:
            wait_for(client, playing)
            assert client.get("/api/auth").json()["control"] is True


# --- bad requests ------------------------------------------------------------------------------------
def test_bad_requests_get_a_4xx_and_change_nothing(tmp_path):
    session = session_for(tmp_path)
    with client_for(session) as client:
        before = game_state(wait_for(client, playing))
        occupied = set(session.sim.occupied)
        cases = [
            ("/api/click", {"cell": "z9"}, 404), ("/api/click", {"cell": "S1"}, 404),
            ("/api/click", {"cell": 7}, 400), ("/api/click", {}, 400),
            ("/api/click", {"cell": "d4"}, 409),  # an empty hollow, nothing in the hand
            ("/api/press", {"button": "shake"}, 400), ("/api/press", {}, 400),
            ("/api/resign", {"player": "green"}, 400), ("/api/resign", {}, 400),
            ("/api/select", {"index": 0}, 400), ("/api/take", {"index": 3}, 400),
            ("/api/take", {"index": True}, 400), ("/api/aside", {}, 409),
            ("/api/new", {"game": "chess"}, 400), ("/api/new", {"empty": "yes"}, 400),
            ("/api/new", {"settings": {"settle": -1}}, 400), ("/api/new", {"settings": {"colour": 1}}, 400),
            ("/api/new", {"settings": {"takebacks": "no"}}, 400), ("/api/new", {"settings": []}, 400),
        ]
        for path, body, status in cases:
            response = client.post(path, json=body)
            assert response.status_code == status, (path, body, response.text)
            assert "error" in response.json()
        assert client.post("/api/click", content=b"{not json", headers={"Content-Type": "application/json"}).status_code == 400
        assert client.post("/api/click", content=b"[1, 2]", headers={"Content-Type": "application/json"}).status_code == 400
        assert client.post("/api/click", content=b'{"cell": "a1"}', headers={"Content-Type": "text/plain"}).status_code == 415
        assert client.post("/api/draw", data={"x": "1"}).status_code == 415  # a plain form, as another site could send
        assert client.get("/api/click").status_code == 405
        assert client.get("/api/games/nothing.jsonl").status_code == 404
        assert client.get("/api/games/..%2F..%2Fetc%2Fpasswd/record").status_code == 404
        time.sleep(0.1)
        assert game_state(client.get("/api/state").json()) == before
        assert session.sim.occupied == occupied
        assert len(list((tmp_path / "games").glob("*-bigballs.jsonl"))) == 1


def test_game_actions_are_refused_when_they_cannot_apply(tmp_path):
    with client_for(session_for(tmp_path, empty=True)) as client:
        snapshot = wait_for(client, lambda s: s.get("phase") == "setup")
        assert client.post("/api/resign", json={"player": "black"}).status_code == 409  # not set up yet
        assert client.post("/api/draw", json={}).status_code == 409
        assert len(snapshot["box"]) == 18 and snapshot["hand"] == []


# --- spectators ----------------------------------------------------------------------------------------
def test_spectators_get_every_change_live(tmp_path):
    with client_for(session_for(tmp_path)) as client:
        wait_for(client, playing)
        with client.websocket_connect("/ws") as one, client.websocket_connect("/ws") as two:
            first = one.receive_json()
            assert two.receive_json()["seq"] == first["seq"]
            click(client, "a5")  # a big ball lifted ...
            click(client, "a4")  # ... and rolled down: BB a5-a4
            for ws in (one, two):
                seen = ws.receive_json()
                while seen["record"] != ["BB a5-a4"]:
                    assert seen["seq"] > first["seq"]
                    seen = ws.receive_json()
                assert seen["cells"]["a4"]["piece"] == "ball" and seen["cells"]["a5"]["piece"] == ""
                # a5 and a4 show the last move
                assert seen["cells"]["a5"]["light"] == "last" and seen["cells"]["a4"]["light"] == "last"
                assert seen["turn"] == "white"


# --- a game by clicks ------------------------------------------------------------------------------------
def test_a_big_balls_game_played_by_clicks(tmp_path):
    session = session_for(tmp_path, BigBalls(), die=ScriptedDie([3, 1]))
    with client_for(session) as client:
        wait_for(client, playing)
        client.post("/api/press", json={"button": "die"})
        snapshot = wait_for(client, lambda s: s["die"]["face"] == "value", what="the roll")
        assert snapshot["die"] == {"face": "value", "value": 3, "pips": 3} and snapshot["roll"] == 3
        assert snapshot["cells"]["c1"]["light"] == "movable"
        click(client, "c1")
        snapshot = click(client, "d1")
        assert snapshot["cells"]["d1"]["sim"] == "B3"
        snapshot = wait_for(client, lambda s: s["record"] == ["3 c1-d1"], what="black's move")
        assert snapshot["cells"]["d1"]["piece"] == "B3" and snapshot["turn"] == "white"

        client.post("/api/press", json={"button": "die"})
        wait_for(client, lambda s: s["die"]["face"] == "value" and s["roll"] == 1)
        # the wrong stone: shown as wrong after the grace time, with the die display's error
        click(client, "e3")
        click(client, "d4")
        snapshot = wait_for(client, lambda s: s["cells"]["e3"]["light"] == "fill", what="the illegal board")
        assert snapshot["cells"]["d4"]["light"] == "empty" and snapshot["die"]["face"] == "error"
        assert snapshot["prompt"] == {"kind": "put_back", "fill": ["e3"], "empty": ["d4"],
                                      "pieces": {"e3": "W6"}}
        assert snapshot["message"] == "move the white stone 6 from d4 back to e3"
        assert snapshot["cells"]["e3"]["piece"] == "W6" and snapshot["cells"]["d4"]["sim"] == "W6"
        click(client, "d4")
        click(client, "e3")
        wait_for(client, lambda s: s["cells"]["e3"]["light"] == "" and s["die"]["face"] == "value")
        # the capture: the captured stone lifted and put aside, then the capturer moved
        click(client, "d1")
        assert client.post("/api/aside", json={}).json()["box"] == ["B3"]
        click(client, "e1")
        click(client, "d1")
        snapshot = wait_for(client, lambda s: len(s["record"]) == 2, what="the capture")
        assert snapshot["record"] == ["3 c1-d1", "1 e1xd1"] and snapshot["cells"]["d1"]["piece"] == "W1"
        assert snapshot["cells"]["d1"]["sim"] == "W1"

        snapshot = client.post("/api/resign", json={"player": "black"}).json()
        assert snapshot["outcome"]["winner"] == "white" and snapshot["phase"] == "over"
        assert client.post("/api/draw", json={}).status_code == 409  # over already

        # the past game: listed, replayable move by move, downloadable as its record
        games = client.get("/api/games").json()
        assert len(games) == 1 and games[0]["moves"] == 2 and games[0]["result"] == "0-1 resign"
        name = games[0]["name"]
        replay = client.get(f"/api/games/{name}").json()
        assert replay["record"] == ["3 c1-d1", "1 e1xd1"] and len(replay["positions"]) == 3
        assert replay["positions"][0]["pieces"]["c1"] == "B3" and replay["positions"][1]["pieces"]["d1"] == "B3"
        assert replay["positions"][2]["pieces"]["d1"] == "W1" and replay["positions"][2]["last"] == ["d1", "e1"]
        assert replay["title"] == "Big Balls" and replay["geometry"] == BigBalls().geometry()
        assert games[0]["title"] == "Big Balls" and replay["positions"][2]["turn"] == "black"
        record = client.get(f"/api/games/{name}/record")
        assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
        assert record.text.splitlines() == export_lines(tmp_path / "games" / name)
        assert record.text.splitlines()[-3:] == ["3 c1-d1", "1 e1xd1", "0-1 resign"]


def test_the_guided_shuffle_set_up_by_clicks_on_an_empty_board(tmp_path):
    session = session_for(tmp_path, empty=True, setup="auto")  # an empty board: the guided shuffle
    with client_for(session) as client:
        snapshot = wait_for(client, lambda s: s.get("phase") == "setup")
        steps = 0
        while snapshot["phase"] == "setup":
            place = [c for c, info in snapshot["cells"].items() if info["light"] == "place"]
            assert len(place) == 1, snapshot["cells"]
            expected = snapshot["cells"][place[0]]["expect"]
            placed = click(client, place[0])  # the piece asked for comes from the box by itself
            assert placed["cells"][place[0]]["sim"] == expected
            steps += 1
            snapshot = wait_for(client, lambda s: s["cells"][place[0]]["light"] != "place" or s["phase"] != "setup")
        assert steps == 18 and snapshot["box"] == [] and playing(snapshot)
        header = snapshot["header"]
        for cell, info in snapshot["cells"].items():
            assert info["piece"] == info["sim"]
        assert header[1].startswith("black ") and header[2].startswith("white ")


def test_a_new_game_switches_the_simulated_board_and_keeps_the_old_one(tmp_path):
    with client_for(session_for(tmp_path)) as client:
        wait_for(client, playing)
        click(client, "a5")  # a move, so that the game is kept
        click(client, "a4")
        wait_for(client, lambda s: s["record"] == ["BB a5-a4"])
        snapshot = client.post("/api/new", json={"game": "offboard", "settings": {"takebacks": False}}).json()
        assert snapshot["game"] == "offboard" and snapshot["settings"]["takebacks"] is False
        snapshot = wait_for(client, playing)
        assert snapshot["turn"] == "red" and snapshot["score"] == {"red": 0, "yellow": 0}
        assert len(snapshot["geometry"]["sectors"]) == 12 and snapshot["cells"]["S1"]["piece"] == ""
        assert sum(1 for info in snapshot["cells"].values() if info["piece"] == "R") == 12
        snapshot = client.post("/api/new", json={"empty": True}).json()
        assert snapshot["phase"] == "setup" and len(snapshot["box"]) == 24
        assert {info["light"] for info in snapshot["cells"].values() if info.get("expect")} == {"fill"}
        names = [g["name"] for g in client.get("/api/games").json()]
        # the Big Balls game with its move is kept; the Off Board game given up unplayed is not
        assert len(names) == 1 and names[0].endswith("-bigballs.jsonl")


class StillBoard:
    """A board that is not simulated: its sensors report one frame and it shows what it is told."""

    def __init__(self, occupied):
        self.cells = BigBalls().cells
        self.occupied = frozenset(occupied)
        self.shown = []

    async def frames(self):
        yield Frame(time.monotonic(), self.occupied)
        await asyncio.Event().wait()

    def show(self, what):
        self.shown.append(what)


def test_a_real_board_takes_the_buttons_but_no_clicks(tmp_path):
    board = StillBoard(BigBalls().occupied())
    session = session_for(tmp_path, BigBalls(), backend=board, die=ScriptedDie([5]))
    with client_for(session) as client:
        snapshot = wait_for(client, playing)
        assert snapshot["sim"] is False and "hand" not in snapshot
        assert client.post("/api/click", json={"cell": "a1"}).status_code == 409
        assert client.post("/api/new", json={"game": "offboard"}).status_code == 409
        client.post("/api/press", json={"button": "die"})
        snapshot = wait_for(client, lambda s: s["die"]["face"] == "value")
        assert snapshot["die"]["value"] == 5 and board.shown[-1] == session.die_state


def test_identifying_the_stones_on_the_simulated_board(tmp_path):
    with client_for(session_for(tmp_path, setup="identify")) as client:
        snapshot = wait_for(client, lambda s: s.get("phase") == "identify", what="the identify set-up")
        assert {info["piece"] for cell, info in snapshot["cells"].items() if cell in ("a1", "e1")} <= {"B?", "W?"}
        asked = 0
        while snapshot["phase"] == "identify":
            colour, number = snapshot["message"].split(": lift stone ")[0], snapshot["message"].split()[3]
            cell = next(c for c, info in snapshot["cells"].items() if info["sim"] == f"{colour[0].upper()}{number}")
            click(client, cell)
            click(client, cell)
            asked += 1
            snapshot = wait_for(client, lambda s: s["cells"][cell]["piece"] != f"{colour[0].upper()}?")
        assert asked == 10  # the last stone of each colour needs no asking
        assert playing(snapshot)
        assert all(info["piece"] == info["sim"] for info in snapshot["cells"].values())


def test_an_unfinished_game_is_resumed_with_the_board_as_it_was(tmp_path):
    session = session_for(tmp_path, BigBalls(), die=ScriptedDie([3]))
    with client_for(session) as client:
        wait_for(client, playing)
        client.post("/api/press", json={"button": "die"})
        wait_for(client, lambda s: s["roll"] == 3)
        click(client, "c1")
        click(client, "d1")
        wait_for(client, lambda s: s["record"] == ["3 c1-d1"])
    journal = next((tmp_path / "games").glob("*-bigballs.jsonl"))
    resumed = session_for(tmp_path, resume=journal)
    with client_for(resumed) as client:
        snapshot = wait_for(client, playing)
        assert snapshot["record"] == ["3 c1-d1"] and snapshot["turn"] == "white"
        assert snapshot["cells"]["d1"] == {"piece": "B3", "light": "", "blink": False, "sim": "B3"}
        assert snapshot["journal"] == journal.name
        snapshot = client.post("/api/resign", json={"player": "white"}).json()
        assert snapshot["outcome"]["line"] == "1-0 resign"
    assert export_lines(journal)[-2:] == ["3 c1-d1", "1-0 resign"]


def test_the_catalog_lists_the_registry_and_new_games_take_start_options_with_choices(tmp_path):
    session = session_for(tmp_path)
    with client_for(session) as client:
        wait_for(client, playing)
        catalog = client.get("/api/catalog").json()
        assert [g["name"] for g in catalog] == list(GAMES)
        for entry in catalog:
            cls = GAMES[entry["name"]]
            assert entry["title"] == cls.title and entry["uses_die"] == cls.uses_die
            assert entry["setup_modes"] == [m for m in cls.setup_modes if m != "given"]
            assert [o["flag"] for o in entry["options"]] == [o.flag for o in cls.options]
        cases = [
            ({"game": "bigballs", "options": {"board": "x.toml"}}, "no start option 'board'"),
            ({"game": "bigballs", "options": {"first": 1}}, "a text of at most"),
            ({"game": "bigballs", "options": {"first": "green"}}, "--first is one of black, white"),
            # free text (a file, a set-up string) only on the command line: a visitor names no files
            ({"game": "offboard", "options": {"board": "/etc/passwd"}}, "given on the command line"),
            ({"game": "chess", "options": {"first": "white"}}, "no game 'chess'"),
            ({"options": []}, "options is an object or null"),
        ]
        for body, message in cases:
            response = client.post("/api/new", json=body)
            assert response.status_code == 400 and message in response.json()["error"], (body, response.text)
        assert client.get("/api/rules/chess").json()["error"] == f"no game 'chess': {names_in_words()}"
