"""What the page's WebSocket sends each watcher, on the real server on 127.0.0.1 with real
WebSockets: the fixed parts of a snapshot (geometry, cell order, the games' catalogue, the
lights' colours) once, and again only when they change; the board's words in the watcher's
language only, another language's when it asks; and every other reader of the snapshot (GET
/api/state, a change's answer, the broadcast) still gets what it read before."""

import asyncio
import http.client
import json
import random
import re
import time
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from reedboard.controller.core.reconcile import Settings
from reedboard.controller.games import BigBalls
from reedboard.controller.language.catalogue import LANGUAGES
from reedboard.controller.session.play_session import PlaySession, ScriptedDie
from reedboard.controller.web.background import served
from reedboard.controller.web.limits import Limits
from reedboard.controller.web.page_messages import FIXED

from play_sessions import run

pytestmark = pytest.mark.system

FAST = Settings(settle=0.15, grace=0.3)
PATIENCE = 20.0  # s for anything awaited; generous, never a measure of speed


def port_of(url):
    return int(url.rsplit(":", 1)[1])


def ask(port, method, path, body=None, headers=None):
    """(status, parsed JSON) of one request on a new connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
    try:
        headers = {"Host": f"127.0.0.1:{port}", **(headers or {})}
        if body is not None:
            body = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def eventually(condition, what):
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def session_for(tmp_path, **kwargs):
    kwargs.setdefault("settings", FAST)
    kwargs.setdefault("die", ScriptedDie([3, 1]))
    return PlaySession(BigBalls(), games_dir=tmp_path / "games", rng=random.Random(7), **kwargs)


def watch(url, lang=None, **kwargs):
    address = url.replace("http", "ws") + "/ws" + (f"?lang={lang}" if lang else "")
    return connect(address, compression=None, proxy=None, open_timeout=PATIENCE, max_size=None, **kwargs)


def receive(ws):
    return json.loads(ws.recv(PATIENCE))


def until(ws, condition, what):
    """The watcher's messages up to the first that `condition` holds for (the board's changes
    are awaited as they come; a board that never gets there fails on the receive's timeout)."""
    got = []
    while True:
        try:
            got.append(receive(ws))
        except TimeoutError:
            raise AssertionError(f"no message showed {what}; the last: {got[-1:]}") from None
        if condition(got[-1]):
            return got


class Page:
    """What the page does with the messages (static/server.js): it keeps the fixed parts and puts
    them back into the messages that come without them."""

    def __init__(self):
        self.fixed = {}

    def whole(self, message):
        for key in FIXED:
            if key in message:
                self.fixed[key] = message[key]
            elif key in self.fixed:
                message = {**message, key: self.fixed[key]}
        return message


def state(port, lang="en"):
    status, snapshot = ask(port, "GET", "/api/state", headers={"Accept-Language": lang})
    assert status == 200
    return snapshot


def quiet_state(port, ws, page, last, lang):
    """The watcher's snapshot, put together as the page does, and GET /api/state's of the same
    number (in the watcher's language, for the games' catalogue): read when the board is still."""
    while True:
        whole = state(port, lang)
        while last["seq"] < whole["seq"]:
            last = page.whole(receive(ws))
        if last["seq"] == whole["seq"]:
            return last, whole


def click(port, cell, lang="en"):
    status, answer = ask(port, "POST", "/api/click", {"cell": cell}, headers={"Accept-Language": lang})
    assert status == 200, answer
    return answer


def press(port):
    status, answer = ask(port, "POST", "/api/press", {"button": "die"})
    assert status == 200, answer
    return answer


def playing(port):
    eventually(lambda: state(port).get("phase") in ("play", "rolled"), "the game to start")


def counted(session):
    """The referee has counted the simulated board as it stands (the next click is not a bounce)."""
    eventually(lambda: session.referee is not None
               and session.referee.reconciler.stable == frozenset(session.sim.occupied), "the board counted")


def first_move(port, session):
    """Black rolls 3 and moves the stone 3 from c1 to d1."""
    press(port)
    eventually(lambda: state(port)["die"]["value"] == 3, "the roll")
    counted(session)
    click(port, "c1")
    counted(session)
    click(port, "d1")


# --- one watcher ----------------------------------------------------------------------------------------------
def test_a_watcher_gets_the_fixed_parts_once_and_the_words_of_its_language_only(tmp_path):
    session = session_for(tmp_path)
    with served(session) as url:
        port = port_of(url)
        playing(port)
        with watch(url, "de") as ws:
            first = receive(ws)
            assert set(FIXED) <= set(first) and first["geometry"] and first["order"] and first["palette"]
            assert set(first["words"]) == {"de"}
            first_move(port, session)
            later = until(ws, lambda m: m.get("record") == ["3 c1-d1"], "the move")
            for message in later:
                assert not set(FIXED) & set(message), message.keys()
                assert set(message["words"]) == {"de"}
            page = Page()
            page.whole(first)
            shown, whole = quiet_state(port, ws, page, page.whole(later[-1]), "de")
            # the page puts together every reader's snapshot, its words in German only
            assert shown == {**whole, "words": {"de": whole["words"]["de"]}}
            assert "Weiß" in json.dumps(whole["games"], ensure_ascii=False)  # the catalogue in the page's language
            assert shown["words"]["de"]["message"] != whole["words"]["en"]["message"]


def test_the_fixed_parts_make_most_of_what_a_move_no_longer_sends(tmp_path):
    """A message after the first is smaller than the whole snapshot by the fixed parts and the
    other languages' words."""
    session = session_for(tmp_path)
    with served(session) as url:
        port = port_of(url)
        playing(port)
        with watch(url, "en") as ws:
            receive(ws)
            first_move(port, session)
            text = None
            while True:
                text = ws.recv(PATIENCE)
                if json.loads(text).get("record") == ["3 c1-d1"]:
                    break
            whole = state(port)
            fixed = sum(len(json.dumps(whole[key], separators=(",", ":"))) for key in FIXED)
            others = sum(len(json.dumps(whole["words"][lang], separators=(",", ":"))) for lang in ("de", "ro"))
            assert len(text.encode()) < len(json.dumps(whole, separators=(",", ":")).encode()) - fixed - others // 2


def test_another_language_asked_for_brings_its_words_and_catalogue_but_not_the_board(tmp_path):
    session = session_for(tmp_path)
    with served(session) as url:
        port = port_of(url)
        playing(port)
        with watch(url, "en") as ws:
            first = receive(ws)
            assert set(first["words"]) == {"en"}
            ws.send(json.dumps({"lang": "ro"}))
            again = receive(ws)
            assert again["seq"] == first["seq"] and set(again["words"]) == {"ro"}
            assert set(again) & set(FIXED) == {"games"}  # the catalogue's words changed; the board did not
            whole = state(port, "ro")
            assert again["games"] == whole["games"] != first["games"]
            assert again["words"]["ro"] == whole["words"]["ro"]
            press(port)
            rolled = until(ws, lambda m: m["die"]["value"] == 3, "the roll")
            assert all(set(m["words"]) == {"ro"} and not set(m) & set(FIXED) for m in rolled)
            ws.send(json.dumps({"lang": "ro"}))  # the language it has: nothing to send again
            ws.send(json.dumps({"lang": "de"}))
            assert set(receive(ws)["words"]) == {"de"}


def test_two_watchers_in_two_languages_each_get_their_own(tmp_path):
    session = session_for(tmp_path)
    with served(session) as url:
        port = port_of(url)
        playing(port)
        with watch(url, "de") as german, watch(url, "ro") as romanian:
            pages = {"de": (german, Page()), "ro": (romanian, Page())}
            firsts = {lang: page.whole(receive(ws)) for lang, (ws, page) in pages.items()}
            first_move(port, session)
            for lang, (ws, page) in pages.items():
                later = until(ws, lambda m: m.get("record") == ["3 c1-d1"], "the move")
                assert all(set(m["words"]) == {lang} for m in [firsts[lang], *later])
                shown, whole = quiet_state(port, ws, page, page.whole(later[-1]), lang)
                assert shown == {**whole, "words": {lang: whole["words"][lang]}}
            assert state(port)["words"]["de"]["message"] != state(port)["words"]["ro"]["message"]


def test_a_new_game_of_another_kind_brings_its_board_again(tmp_path):
    session = session_for(tmp_path)
    with served(session) as url:
        port = port_of(url)
        playing(port)
        with watch(url, "en") as ws:
            page = Page()
            page.whole(receive(ws))
            status, answer = ask(port, "POST", "/api/new", {"game": "offboard"})
            assert status == 200 and answer["game"] == "offboard"
            got = until(ws, lambda m: m["game"] == "offboard" and m.get("cells"), "the new game")
            assert any("geometry" in m and "order" in m for m in got)
            for message in got:
                shown = page.whole(message)
            assert "palette" not in got[-1] and "games" not in got[-1]  # the same as before
            shown, whole = quiet_state(port, ws, page, shown, "en")
            assert shown["geometry"] == whole["geometry"] and shown["order"] == whole["order"]
            assert set(shown["order"]) == set(shown["cells"]) and len(shown["order"]) > 28


# --- the language of a watcher ----------------------------------------------------------------------------------
def test_a_watcher_without_a_language_gets_its_requests_and_a_bad_one_is_refused(tmp_path):
    with served(session_for(tmp_path)) as url:
        playing(port_of(url))
        with watch(url, additional_headers={"Accept-Language": "ro-RO,ro;q=0.9"}) as ws:
            assert set(receive(ws)["words"]) == {"ro"}
        with watch(url) as ws:
            assert set(receive(ws)["words"]) == {"en"}
        for bad in ("xx", "de-DE", "%3Cscript%3E", "e" * 300):
            with pytest.raises(InvalidStatus) as refused:
                watch(url, bad)
            assert refused.value.response.status_code == 400
            assert "no language" in json.loads(refused.value.response.body)["error"]


def test_changes_of_language_are_not_chatter_but_anything_else_is(tmp_path):
    with served(session_for(tmp_path), limits=Limits(messages=3)) as url:
        playing(port_of(url))
        with watch(url, "en") as ws:
            receive(ws)
            for lang in ["de", "ro", "en"] * 3:
                ws.send(json.dumps({"lang": lang}))
                assert set(receive(ws)["words"]) == {lang}
            with pytest.raises(ConnectionClosed) as closed:
                for junk in ['{"lang": "xx"}', '{"lang": "en"}', "[]", '{"lang": "de", "more": 1}', "{"]:
                    ws.send(junk)
                while True:
                    receive(ws)
            assert closed.value.rcvd.code == 1008


# --- the other readers ----------------------------------------------------------------------------------------
def test_the_state_and_a_changes_answer_are_whole_snapshots(tmp_path):
    session = session_for(tmp_path)
    with served(session) as url:
        port = port_of(url)
        playing(port)
        whole = state(port, "de")
        assert set(whole["words"]) == set(LANGUAGES) and set(FIXED) <= set(whole)
        assert "Weiß" in json.dumps(whole["games"], ensure_ascii=False)
        counted(session)
        answer = click(port, "a5", lang="ro")  # a big ball lifted
        assert set(answer["words"]) == {"ro"} and set(FIXED) <= set(answer)  # the page's own, whole
        assert answer["cells"]["a5"]["sim"] == "" and answer["hand"][0]["from"] == "a5"
        assert "Negru" in json.dumps(answer["games"], ensure_ascii=False)


def test_the_broadcast_and_the_session_read_every_language(tmp_path):
    """The broadcast (controller/broadcast) and the command line read session.snapshot(): every
    language's words, the catalogue and the board, as before."""
    async def scenario(session):
        for _ in range(2000):
            snapshot = session.snapshot()
            if snapshot.get("phase") in ("play", "rolled"):
                break
            await asyncio.sleep(0.01)
        assert set(snapshot["words"]) == set(LANGUAGES) and set(FIXED) <= set(snapshot)
        assert session.snapshot() is snapshot  # built once for the snapshot published
        lean = session.publish()
        assert "words" not in lean and lean["seq"] == snapshot["seq"]
        one = session.snapshot(("ro",))
        assert set(one["words"]) == {"ro"} and one["words"]["ro"] == snapshot["words"]["ro"]
        return snapshot

    run(session_for(tmp_path), scenario)


def test_the_page_keeps_the_parts_the_server_sends_once():
    """static/server.js puts back into each snapshot the parts page_messages.py sends only when they change."""
    script = (Path(__file__).resolve().parents[1] / "controller" / "web" / "static" / "server.js").read_text("utf-8")
    listed = re.search(r"const FIXED = \[([^\]]*)\];", script)
    assert listed and tuple(json.loads(f"[{listed.group(1)}]")) == FIXED
