"""The club without a broker: lines taken once and in order, gaps filled from the retained state,
garbled messages dropped, the games written to journals, the API and the board's own page."""

import asyncio
import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.broadcast.club.app import create_club_app
from reedboard.controller.broadcast.messages import encode, game_snapshot, state_message
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.persist.export import export_lines

from club_lines import board_lines, journal_payload

pytestmark = pytest.mark.component


def state_payload(name, lines, game="g1"):
    seq = len(lines)
    return encode(state_message(name, game, seq, lines[0], lines[1:], game_snapshot(lines[0], lines[1:])))


@pytest.fixture
def club(tmp_path):
    club = Club(tmp_path / "club")
    (tmp_path / "club").mkdir()
    yield club
    club.close()


def test_lines_are_taken_once_in_order_and_written_to_a_journal(club, tmp_path):
    lines = board_lines(tmp_path, players={"white": "Ann", "black": "Bo"})
    order = list(range(1, len(lines) + 1))
    shuffled = order[:3] + order[5:8] + order[3:5] + order[2:6] + order[8:]  # early, late and repeated
    for seq in shuffled:
        club.receive("reedboard/boards/t1/journal", journal_payload("t1", seq, lines[seq - 1]))
    detail = club.detail("t1")
    assert [line["entry"] for line in detail["lines"]] == lines
    assert club.duplicates == 4
    journal = tmp_path / "club" / detail["journal"]
    assert read_journal(journal).damage is None
    assert export_lines(journal)[-1].startswith("1-0")
    assert club.standings()[0] == {"player": "Bo", "games": 1, "wins": 1, "draws": 0, "losses": 0, "points": 1.0} \
        or club.standings()[0]["points"] == 1.0


def test_a_late_club_fills_in_from_the_retained_state(club, tmp_path):
    lines = board_lines(tmp_path)
    club.receive("reedboard/boards/t1/state", state_payload("t1", lines[:10]))
    for seq in range(8, len(lines) + 1):
        club.receive("reedboard/boards/t1/journal", journal_payload("t1", seq, lines[seq - 1]))
    assert [line["entry"] for line in club.detail("t1")["lines"]] == lines
    assert club.board_snapshot("t1")["cells"]


def test_garbled_messages_are_dropped_and_nothing_taken_is_lost(club, tmp_path):
    lines = board_lines(tmp_path)
    for seq in range(1, 6):
        club.receive("reedboard/boards/t1/journal", journal_payload("t1", seq, lines[seq - 1]))
    garbage = [
        ("reedboard/boards/t1/journal", b"\xff\xfe not json"),
        ("reedboard/boards/t1/journal", b"[1, 2]"),
        ("reedboard/boards/t1/journal", encode({"game": "g1", "seq": True, "entry": {}})),
        ("reedboard/boards/t1/journal", encode({"game": "../etc", "seq": 6, "entry": {}})),
        ("reedboard/boards/t1/state", encode({"game": "g1", "seq": 99, "lines": []})),
        ("reedboard/boards/bad name/status", encode({"online": True})),
        ("reedboard/boards/t1/nonsense", encode({})),
        ("reedboard/boards/t1/status", encode({"online": "yes"})),
        ("reedboard/boards/t1/journal", b"[" * 100000),
    ]
    for topic, payload in garbage:
        club.receive(topic, payload)
    assert club.garbled == len(garbage)
    # a move the rules refuse stops the game's lines there: nothing before it is lost
    club.receive("reedboard/boards/t1/journal", journal_payload("t1", 6, {"type": "move", "t": 1.0, "move": "Z9-Z8"}))
    detail = club.detail("t1")
    assert [line["entry"] for line in detail["lines"]] == lines[:5]
    assert detail["refused"].startswith("line 6")
    assert read_journal(Path(club.games_dir) / detail["journal"]).entries == lines[1:5]


def test_a_club_started_again_goes_on_in_the_same_journal(tmp_path):
    lines = board_lines(tmp_path)
    (tmp_path / "club").mkdir()
    first = Club(tmp_path / "club")
    for seq in range(1, 11):
        first.receive("reedboard/boards/t1/journal", journal_payload("t1", seq, lines[seq - 1]))
    first.close()
    again = Club(tmp_path / "club")
    for seq in range(1, len(lines) + 1):
        again.receive("reedboard/boards/t1/journal", journal_payload("t1", seq, lines[seq - 1]))
    again.close()
    assert again.duplicates == 10
    journals = [p for p in (tmp_path / "club").glob("*.jsonl")]
    assert len(journals) == 1
    assert export_lines(journals[0])[-1].startswith("1-0")


def test_the_api_and_the_boards_own_page(club, tmp_path):
    lines = board_lines(tmp_path)
    club.receive("reedboard/boards/t1/status", encode({"online": True, "token": "x", "since": "now"}))
    club.receive("reedboard/boards/t1/state", state_payload("t1", lines))
    client = TestClient(create_club_app(club))
    boards = client.get("/api/boards").json()
    assert boards[0]["name"] == "t1" and boards[0]["online"] is True and boards[0]["result"]["winner"] == "black"
    detail = client.get("/api/boards/t1").json()
    assert detail["geometry"]["cells"] and len(detail["lines"]) == len(lines)
    assert client.get("/api/boards/nobody").status_code == 404
    assert client.get("/api/boards/..%2f..").status_code == 404
    assert client.get("/api/standings").json()[0]["points"] == 1.0
    page = client.get("/board/t1")  # led to /board/t1/, where the page's relative addresses are the board's
    assert page.status_code == 200 and str(page.url).endswith("/board/t1/") and '"static/app.js"' in page.text
    assert "<title>t1 · reedboard club</title>" in page.text and 'class="club-back"' in page.text
    assert client.get("/board/t1/api/auth").json() == {"control": False, "token_required": False}
    assert client.get("/board/t1/api/state").json()["outcome"]["winner"] == "black"
    assert client.post("/board/t1/api/click", json={"cell": "a1"}).status_code in (404, 405)
    assert client.get("/board/t1/static/app.js").status_code == 200 and client.get("/club/club.js").status_code == 200
    with client.websocket_connect("/board/t1/ws") as ws:
        assert json.loads(ws.receive_text())["game"] == "bigballs"
    with client.websocket_connect("/ws") as ws:
        assert json.loads(ws.receive_text())["boards"][0]["name"] == "t1"


def test_what_the_club_shows_it_journals_and_what_it_refuses_it_does_neither(club, tmp_path):
    lines = board_lines(tmp_path, players={"white": "Ann", "black": "Bo"})
    later = [dict(lines[0], added_later="x"), *lines[1:3], dict(lines[3], note="a key of a later version"), *lines[4:]]
    for seq, entry in enumerate(later, 1):
        club.receive("reedboard/boards/t1/journal", journal_payload("t1", seq, entry))
    detail = club.detail("t1")
    contents = read_journal(tmp_path / "club" / detail["journal"])
    assert contents.damage is None and detail["refused"] is None
    assert len(detail["lines"]) == len(lines) == 1 + len(contents.entries)  # every line shown is journaled
    assert [line["entry"] for line in detail["lines"][1:]] == contents.entries == lines[1:]
    assert club.standings()[0]["player"] == "Bo"

    long_name = [dict(lines[0], players={"white": "A" * 41, "black": "Bo"}), *lines[1:]]
    for seq, entry in enumerate(long_name, 1):
        club.receive("reedboard/boards/t2/journal", journal_payload("t2", seq, entry, game="g2"))
    detail = club.detail("t2")
    assert detail["seq"] == 0 and detail["players"] == {} and detail["journal"] is None and club.garbled == 1
    assert len(list((tmp_path / "club").glob("*.jsonl"))) == 1
    assert [row["player"] for row in club.standings()] == ["Bo", "Ann"]  # t2's game counts nowhere


def test_the_pages_updates_are_made_once_per_change_whoever_watches(club, tmp_path, monkeypatch):
    lines = board_lines(tmp_path)
    for name in ("t1", "t2", "t3"):
        club.receive(f"reedboard/boards/{name}/journal", journal_payload(name, 1, lines[0]))
    first = json.loads(club.update_since(0))
    assert first["full"] and [b["name"] for b in first["boards"]] == ["t1", "t2", "t3"]
    made = []
    summary = club.summary
    monkeypatch.setattr(club, "summary", lambda board: made.append(board.name) or summary(board))
    seen = first["version"]
    club.receive("reedboard/boards/t2/journal", journal_payload("t2", 2, lines[1]))
    updates = {club.update_since(seen) for _ in range(100)}  # a hundred watchers
    assert made == ["t2"] and len(updates) == 1
    update = json.loads(updates.pop())
    assert not update["full"] and [b["name"] for b in update["boards"]] == ["t2"] and update["boards"][0]["seq"] == 2
    assert json.loads(club.summaries_json())[1]["seq"] == 2 and made == ["t2"]


def test_watchers_from_one_address_are_limited(club):
    from starlette.websockets import WebSocketDisconnect

    from reedboard.controller.web.limits import Limits

    with TestClient(create_club_app(club, limits=Limits(watchers=10, watchers_per_address=2))) as client:
        with client.websocket_connect("/ws") as first, client.websocket_connect("/ws") as second:
            assert json.loads(first.receive_text())["full"] and json.loads(second.receive_text())["full"]
            with pytest.raises(WebSocketDisconnect) as refused:
                with client.websocket_connect("/ws") as third:
                    third.receive_text()
            assert refused.value.code == 1013


class QuietClient:
    """A stand-in for aiomqtt's client: connects at once, its messages never come, subscribing and
    publishing do nothing, leaving ends at once."""

    def __init__(self, *args, **kwargs) -> None:
        self.messages = self._never()

    async def _never(self):
        await asyncio.Event().wait()
        yield

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        pass

    async def subscribe(self, *args, **kwargs) -> None:
        pass

    async def publish(self, *args, **kwargs) -> None:
        pass


def followed_then_cancelled(tmp_path, monkeypatch, client, before_cancel=None) -> bool:
    """Follow with `client` in place of aiomqtt's, cancel once connected (after `before_cancel(club)`,
    awaited), and say whether following ended, cancelled."""
    from reedboard.controller.broadcast.address import parse_broker_url
    from reedboard.controller.broadcast.club import follow as club_follow
    from reedboard.controller.broadcast.club.club import Club

    monkeypatch.setattr(club_follow.aiomqtt, "Client", client)

    async def main():
        club = Club(tmp_path)
        ready = asyncio.Event()
        following = asyncio.create_task(club_follow.follow(club, parse_broker_url("mqtt://127.0.0.1:1"),
                                                           retry=(0.01, 0.01), ready=ready))
        await ready.wait()
        if before_cancel is not None:
            await before_cancel(club)
        following.cancel()
        done, _ = await asyncio.wait([following], timeout=30)  # a bound for a test gone wrong, not a measure
        club.close()
        return following in done and following.cancelled()

    return asyncio.run(main())


def test_following_ends_when_cancelled_even_if_the_client_says_it_as_an_mqtt_error(tmp_path, monkeypatch):
    """Cancelled while it reads, the MQTT client's disconnect may raise an MqttError in place of
    the cancellation (its own wait cut short): following must still end, not reconnect for ever."""
    import aiomqtt

    connected = []

    class Client(QuietClient):
        """Connects at once; leaving it raises an MqttError. On the first connection the messages
        never come; should following connect again, they end at once (as a broker going away)."""

        def __init__(self, *args, **kwargs) -> None:
            self.messages = self._never() if not connected else self._none()

        async def _none(self):
            return
            yield

        async def __aenter__(self):
            connected.append(1)
            if len(connected) > 3:  # following went on after its cancellation: end it (the test fails)
                raise RuntimeError("connected again after being cancelled")
            return self

        async def __aexit__(self, *exc):
            raise aiomqtt.MqttError("Disconnected during message iteration")

    assert followed_then_cancelled(tmp_path, monkeypatch, Client)
    assert len(connected) == 1


def test_following_ends_when_cancelled_even_if_the_broker_never_sees_it_leave(tmp_path, monkeypatch):
    """aiomqtt waits for the broker's side of the goodbye without a limit: a club stopping beside a
    broker that never answers must still stop, its goodbye given up after LEAVE_SECONDS."""
    from reedboard.controller.broadcast.club import follow as club_follow

    class Client(QuietClient):
        """Leaving it never ends."""

        async def __aexit__(self, *exc):
            await asyncio.Event().wait()

    monkeypatch.setattr(club_follow, "LEAVE_SECONDS", 0.05)
    assert followed_then_cancelled(tmp_path, monkeypatch, Client)


def test_following_ends_when_a_confirmation_swallows_its_cancellation(tmp_path, monkeypatch):
    """Python 3.11's wait_for, inside aiomqtt's publish, can swallow a cancellation that meets the
    broker's acknowledgement: the confirming task then goes on. Following must still end."""
    from reedboard.controller.broadcast.club import follow as club_follow

    publishing, swallowed = [], []  # an Event set as a confirmation is published; a mark once swallowed

    class Client(QuietClient):
        """A confirmation's publish, cancelled, returns as if acknowledged (the cancellation
        swallowed), once."""

        async def publish(self, topic, *args, **kwargs) -> None:
            if "/club/confirmed/" not in topic:
                return
            publishing[0].set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                if not swallowed:
                    swallowed.append(1)
                    return  # acknowledged as the cancellation came: swallowed
                raise

    async def confirming(club) -> None:
        publishing.append(asyncio.Event())
        club.confirmations[("table1", "g1")] = {"v": 1}
        club.confirm_due.set()
        await publishing[0].wait()

    monkeypatch.setattr(club_follow, "STOP_AGAIN_SECONDS", 0.05)
    assert followed_then_cancelled(tmp_path, monkeypatch, Client, confirming)
    assert swallowed == [1]
