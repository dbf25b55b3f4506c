"""The organiser's API refuses what it cannot do, in one line in the asker's language, with a 4xx
(docs/tournament.md): a request that is not the organiser's, a body that is not JSON, too large
or of the wrong keys, an action there is not, a player or game there is not, a result for a
game that has one (a finished round's), a correction without its reason. Nothing refused
changes the tournament's journal."""

import json

import pytest
from starlette.testclient import TestClient

from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.broadcast.club.app import BODY_LIMIT, create_club_app
from reedboard.controller.broadcast.club.tournament import Tournament

pytestmark = pytest.mark.component

TOKEN = "organiser-secret"


@pytest.fixture
def api(tmp_path):
    """A Swiss of four players on two boards, round 1 played, round 2 paired."""
    night = Tournament.create(tmp_path / "night", archive=tmp_path, name="Thursday club", game="abalone",
                              colours=["black", "white"], rounds=3, boards=["table1", "table2"])
    for name in ("Ann Lee", "Bo Chen", "Cy Ode", "Di Pop"):
        night.register(name, rating=1500)
    night.pair_next()
    night.enter_result(1, 1, "1-0")
    night.enter_result(1, 2, "0-1")
    night.pair_next()
    club = Club(tmp_path, tournament=night)
    with TestClient(create_club_app(club, token=TOKEN)) as client:
        yield client, night
    night.close()


def post(client, action, body=None, *, token=TOKEN, raw=None, lang="en", content_type="application/json"):
    headers = {"Content-Type": content_type, "Accept-Language": lang}
    if token is not None:
        headers["X-Reedboard-Token"] = token
    data = raw if raw is not None else json.dumps(body or {}).encode()
    return client.post(f"/api/tournament/{action}", content=data, headers=headers)


def refused(answer, status: int) -> str:
    assert answer.status_code == status, (answer.status_code, answer.text)
    said = answer.json()["error"]
    assert said and "\n" not in said and "Traceback" not in said
    return said


def test_hostile_and_bad_requests_get_a_4xx_and_change_nothing(api):
    client, night = api
    journal = night.path.read_bytes()
    assert "organiser" in refused(post(client, "pair", token=None), 403)
    assert "organiser" in refused(post(client, "pair", token="guessed"), 403)
    assert "JSON" in refused(post(client, "register", raw=b'{"name": "Eve'), 400)
    assert "JSON" in refused(post(client, "register", raw=b'["Eve"]'), 400)
    assert "JSON" in refused(post(client, "register", raw=b"name=Eve", content_type="text/plain"), 415)
    assert str(BODY_LIMIT) in refused(post(client, "register", {"name": "x" * (BODY_LIMIT + 1)}), 413)
    assert "'explode'" in refused(post(client, "explode"), 404)
    assert "'admin'" in refused(post(client, "register", {"name": "Eve", "admin": True}), 400)
    assert "rating" in refused(post(client, "register", {"name": "Eve", "rating": "2800"}), 400)
    assert "'name'" in refused(post(client, "register", {}), 400)
    assert "round" in refused(post(client, "result", {"round": True, "number": 1, "result": "1-0"}), 400)
    assert "boards" in refused(post(client, "new", {"name": "x", "game": "abalone", "boards": ["a/#"]}), 400)
    assert night.path.read_bytes() == journal


def test_what_the_tournament_cannot_do_is_refused_saying_why(api):
    client, night = api
    journal = night.path.read_bytes()
    assert "'Zed'" in refused(post(client, "withdraw", {"player": "Zed"}), 404)
    assert "no game 9" in refused(post(client, "result", {"round": 2, "number": 9, "result": "1-0"}), 404)
    # round 1 is finished: its results stand, and only a correction with its reason changes one
    assert "correct it" in refused(post(client, "result", {"round": 1, "number": 1, "result": "0-1"}), 409)
    assert "why" in refused(post(client, "correct", {"round": 1, "number": 1, "result": "0-1", "reason": " "}), 400)
    assert "'2-0'" in refused(post(client, "result", {"round": 2, "number": 1, "result": "2-0"}), 400)
    assert "without a result" in refused(post(client, "pair"), 409)
    assert "registered already" in refused(post(client, "register", {"name": "ann lee"}), 409)
    assert night.path.read_bytes() == journal
    answer = post(client, "correct", {"round": 1, "number": 1, "result": "0-1", "reason": "the wrong box was ticked"})
    assert answer.status_code == 200
    assert night.corrections[-1]["before"] == "1-0" and night.corrections[-1]["after"] == "0-1"
    kinds = [json.loads(line)["type"] for line in night.path.read_text().splitlines()]
    assert kinds.count("result") == 2 and kinds[-1] == "correction"  # the result it corrects stays


@pytest.mark.parametrize("lang, words", [
    ("de", ("nur der Turnierleiter", "ist schon angemeldet", "keine Aktion", "hat ihr Ergebnis")),
    ("ro", ("doar organizatorul", "este deja înscris", "nu există acțiunea", "are rezultatul")),
])
def test_the_refusals_speak_the_askers_language(api, lang, words):
    client, __ = api
    token, registered, action, has_result = words
    assert token in refused(post(client, "pair", token=None, lang=lang), 403)
    assert registered in refused(post(client, "register", {"name": "Bo Chen"}, lang=lang), 409)
    assert action in refused(post(client, "explode", lang=lang), 404)
    assert has_result in refused(post(client, "result", {"round": 1, "number": 2, "result": "1-0"}, lang=lang), 409)
