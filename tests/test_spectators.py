"""The spectators through the broker (docs/broadcast.md, "Spectators"): boards publish to the
club's Mosquitto, its bridge feeds RabbitMQ, and the spectators' page (served by the club at
/spectate) reads the boards from RabbitMQ's Web MQTT listener itself, in English, German and
Romanian, in Debian's chromium; a move made at a board reaches the page; a spectator can read
and cannot publish. The club runs a tournament: its standings and the round's pairings reach the
page through the broker too (PREFIX/club/standings, retained). One RabbitMQ node for the module
(it starts in several seconds)."""

import asyncio
import contextlib
import json
import threading
import time
from pathlib import Path

import pytest

from reedboard.controller.broadcast.club import mosquitto
from reedboard.controller.broadcast.address import BrokerAddress
from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.broadcast.club.app import create_club_app
from reedboard.controller.broadcast.club.follow import follow
from reedboard.controller.broadcast.club.rabbitmq import RabbitMQ, bridged_mosquitto
from reedboard.controller.broadcast.publisher.replay import publish_trace
from reedboard.controller.broadcast.club.tournament import Tournament

from in_browser import expect
from test_broadcast_browser import shots

pytestmark = [pytest.mark.system, pytest.mark.rabbitmq, pytest.mark.mosquitto]

TIMEOUT = 15000  # ms for any one thing to show on the page
TRACES = Path(__file__).parent / "traces"
BOARDS = {  # board: (its game, the entries it plays before it waits for the test; None: to the end)
    "table1": ("bigballs-game-to-a7", None),
    "table2": ("offboard-game-to-six", 9),
    "table3": ("abalone-push-off-edge-first", None),
}
PLAYERS = {"table1": {"white": "Ann", "black": "Bo"}}
# the tournament: by rating, round 1 pairs Bo (black) with Ann (white) on table1, as table1's game
# is played, so that board's result counts; Di (black) and Cy on table2 (rank 2 takes the second colour)
ENTRANTS = (("Bo", 1800), ("Cy", 1700), ("Ann", 1600), ("Di", 1500))
TOKEN = "organiser-secret"
FEEDER = {"feeder": "feeder-secret", "table9": "table9-secret", "club": "club-secret"}  # the bridge; a board and
# a club on RabbitMQ itself


class Evening:
    """RabbitMQ, the club's Mosquitto bridged to it, the club following Mosquitto and serving its
    pages, and three boards publishing to Mosquitto (table2 stops mid-game until let go on)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.node = RabbitMQ(folder / "rabbitmq", feeders=FEEDER)
        self.broker = bridged_mosquitto(folder / "mosquitto", self.node)
        self.allowed = {name: until for name, (_, until) in BOARDS.items()}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.moved = None  # asyncio.Condition: an entry let go
        self.url = ""

    def let_go(self, name: str, entries: int) -> None:
        """Board `name` plays `entries` more journal lines."""
        async def more():
            async with self.moved:
                self.allowed[name] += entries
                self.moved.notify_all()
        asyncio.run_coroutine_threadsafe(more(), self.loop).result(5)

    @contextlib.contextmanager
    def running(self):
        import uvicorn

        web_port = mosquitto.free_port()
        ready, failed, server = threading.Event(), [], None

        async def main():
            nonlocal server
            self.loop, self.moved = asyncio.get_running_loop(), asyncio.Condition()
            night = Tournament.create(self.folder / "night", archive=self.folder / "club", name="Thursday club",
                                      game="bigballs", colours=["black", "white"], rounds=3,
                                      boards=["table1", "table2"])
            for name, rating in ENTRANTS:
                night.register(name, rating=rating)
            night.pair_next()
            club = Club(self.folder / "club", tournament=night)
            followed = asyncio.Event()
            following = asyncio.create_task(follow(club, BrokerAddress("127.0.0.1", self.broker.port), ready=followed))
            await followed.wait()
            server = uvicorn.Server(uvicorn.Config(create_club_app(club, spectators=self.node.ws_url,
                                                                   token=TOKEN), host="127.0.0.1",
                                                   port=web_port, log_level="warning", lifespan="off"))
            serving = asyncio.create_task(server.serve())
            while not server.started:
                await asyncio.sleep(0.02)

            def stepper(name):
                async def step(index, entry):
                    async with self.moved:
                        await self.moved.wait_for(lambda: self.allowed[name] is None or index < self.allowed[name])
                return step
            publishing = [asyncio.create_task(publish_trace(TRACES / f"{game}.jsonl", self.broker.url, name,
                                                            step=stepper(name), players=PLAYERS.get(name)))
                          for name, (game, _) in BOARDS.items()]
            while len([n for n in BOARDS if n in club.boards and club.summary(club.boards[n])["moves"]]) < len(BOARDS):
                await asyncio.sleep(0.05)
            ready.set()
            await serving
            for task in publishing + [following]:
                task.cancel()
            await asyncio.gather(*publishing, following, return_exceptions=True)
            club.close()
            night.close()

        def run():
            try:
                asyncio.run(main())
            except BaseException as error:  # shown by the test
                failed.append(error)
                ready.set()

        self.node.start()
        self.broker.start()
        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        try:
            assert ready.wait(60), "the club and its boards did not start"
            if failed:
                raise failed[0]
            self.url = f"http://127.0.0.1:{web_port}"
            yield self
        finally:
            if server is not None:
                server.should_exit = True
            thread.join(15)
            self.broker.stop()
            self.node.stop()


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    with Evening(tmp_path_factory.mktemp("spectators")).running() as evening:
        yield evening


def spectator(evening, **options):
    """A spectator's MQTT client over WebSockets, anonymous, connected (paho)."""
    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, transport="websockets",
                         client_id=f"spectator-{time.monotonic_ns()}", **options)
    client.ws_set_options(path="/ws")
    client.received, client.closed, client.suback = [], threading.Event(), []
    client.on_message = lambda c, u, message: client.received.append((message.topic, message.payload, message.retain))
    client.on_disconnect = lambda c, u, flags, reason, properties: client.closed.set()
    client.on_subscribe = lambda c, u, mid, reasons, properties: client.suback.append([r.value for r in reasons])
    client.connect("127.0.0.1", evening.node.ws_port)
    client.loop_start()
    return client


def wait_for(condition, what, timeout=15.0):
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_a_spectator_reads_the_boards_and_cannot_publish(evening):
    reader = spectator(evening)
    forger = spectator(evening, reconnect_on_failure=False)
    try:
        # a retained state, by its board's name (RabbitMQ sends none to a wildcard subscription)
        reader.subscribe([("reedboard/boards/table1/state", 0), ("reedboard/boards/+/journal", 0)])
        wait_for(lambda: any(t == "reedboard/boards/table1/state" for t, _, _ in reader.received), "table1's state")
        state = json.loads(next(p for t, p, _ in reader.received if t.endswith("table1/state")))
        assert state["board"] == "table1" and state["result"]["result"] == "1-0"
        assert state["players"] == PLAYERS["table1"]

        wait_for(lambda: forger.is_connected(), "the forger's connection")
        forged = forger.publish("reedboard/boards/table1/journal", b'{"v": 1, "forged": true}', qos=1)
        assert forger.closed.wait(10), "the broker kept a spectator that published"
        # no acknowledgement: the broker refused it (when its close overtakes the publish on the
        # socket, paho marks the message failed, NO_CONN, instead of unpublished)
        assert forged.rc != 0 or not forged.is_published()
        evening.let_go("table2", 1)  # a real line after the forged one: the reader sees that, never the forgery
        wait_for(lambda: any(b"table2" in p for t, p, _ in reader.received if t.endswith("/journal")), "table2's line")
        assert not any(b"forged" in payload for _, payload, _ in reader.received)
        assert reader.is_connected()
    finally:
        for client in (reader, forger):
            client.loop_stop()
            client.disconnect()


def test_a_spectator_reads_the_tournaments_standings(evening):
    reader = spectator(evening)
    try:
        reader.subscribe("reedboard/club/standings", 0)  # by name: the retained word comes
        wait_for(lambda: any(t == "reedboard/club/standings" and retained for t, _, retained in reader.received),
                 "the standings")
        said = json.loads(next(p for t, p, _ in reader.received if t == "reedboard/club/standings"))
        assert said["v"] == 1 and said["tournament"]["name"] == "Thursday club"
        assert said["tournament"]["round"] == 1 and said["tournament"]["rounds"] == 3
        assert [(g["board"], g["first"], g["second"]) for g in said["pairings"]["games"]] == [
            ("table1", "Bo", "Ann"), ("table2", "Di", "Cy")]
        assert sorted(row["name"] for row in said["standings"]) == ["Ann", "Bo", "Cy", "Di"]
        assert not any("id" in row for row in said["standings"])  # the organiser's numbers stay with the club
    finally:
        reader.loop_stop()
        reader.disconnect()


def test_a_spectator_reads_only_the_broadcast(evening):
    snoop = spectator(evening, reconnect_on_failure=False)
    try:
        wait_for(lambda: snoop.is_connected(), "the spectator's connection")
        snoop.subscribe("#", 0)  # everything on the broker: refused, the connection closed
        assert snoop.closed.wait(10), "the broker let a spectator read beyond the broadcast"
    finally:
        snoop.loop_stop()
        snoop.disconnect()


def test_rabbitmq_as_the_clubs_broker(evening, tmp_path):
    """A board and the club on RabbitMQ's MQTT listener itself: every line reaches the club, which
    confirms them (the replay waits for its confirmations)."""
    from club_lines import club_on

    url = f"mqtt://{{}}@127.0.0.1:{evening.node.mqtt_port}"

    async def main():
        async with club_on(url.format("club:club-secret"), tmp_path / "club") as club:
            taken = await publish_trace(TRACES / "bigballs-game-to-a7.jsonl", url.format("table9:table9-secret"),
                                        "table9", speed=1000, players=PLAYERS["table1"], say=said.append)
            return taken, club.summary(club.boards["table9"])

    said = []
    taken, summary = asyncio.run(main())
    assert taken, said
    assert summary["result"]["result"] == "1-0" and summary["players"] == PLAYERS["table1"]
    assert summary["seq"] == 32  # the header and every line of the game


LANGUAGES = {  # locale: (the link's words when connected, table2's "to move", table1's result)
    "en-GB": ("broker connected", "to move", "1-0"),
    "de-DE": ("Broker verbunden", "ist am Zug", "1-0"),
    "ro-RO": (None, None, "1-0"),
}


def test_the_spectators_page_in_three_languages(browser, evening, tmp_path):
    from reedboard.controller.web.languages import page_catalogue

    for locale, (linked, to_move, result) in LANGUAGES.items():
        lang = locale[:2]
        catalogue = json.loads(page_catalogue(lang))["messages"] if lang != "en" else {}
        linked = linked or catalogue["broker connected"]
        to_move = to_move or catalogue["{player} to move"].replace("{player}", "").strip()
        context = browser.new_context(viewport={"width": 1300, "height": 900}, locale=locale)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(error))
        page.goto(f"{evening.url}/spectate")
        expect(page.locator("[data-role=link]")).to_have_text(linked, timeout=TIMEOUT)
        cards = page.locator("[data-board]")
        expect(cards).to_have_count(3, timeout=TIMEOUT)
        for name in BOARDS:
            expect(page.locator(f'[data-board="{name}"] svg .pc').first).to_be_visible(timeout=TIMEOUT)
        expect(page.locator('[data-board="table1"] .players')).to_contain_text("Ann")
        expect(page.locator('[data-board="table1"] .result')).to_contain_text(result)
        expect(page.locator('[data-board="table2"] .to-move')).to_contain_text(to_move)
        assert page.evaluate("document.documentElement.lang") == lang
        page.screenshot(path=str(shots(tmp_path) / f"spectate-{lang}.png"))
        assert not errors, errors
        context.close()


def test_a_move_at_a_board_reaches_the_page(browser, evening, tmp_path):
    context = browser.new_context(viewport={"width": 900, "height": 900})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.goto(f"{evening.url}/spectate?board=table2")
    card = page.locator('[data-board="table2"]')
    expect(card).to_have_count(1, timeout=TIMEOUT)
    expect(page.locator("[data-board]")).to_have_count(1)  # only the board asked for
    expect(card.locator("svg .pc").first).to_be_visible(timeout=TIMEOUT)
    before = int(card.get_attribute("data-seq"))
    moves = int(card.get_attribute("data-moves"))
    expect(page.locator("[data-role=record] li")).to_have_count(moves)
    evening.let_go("table2", 3)  # at the board: a roll and a move at least
    expect(card).not_to_have_attribute("data-seq", str(before), timeout=TIMEOUT)
    page.wait_for_function(f"Number(document.querySelector('[data-board=table2]').dataset.moves) > {moves}",
                           timeout=TIMEOUT)
    expect(page.locator("[data-role=record] li")).to_have_count(int(card.get_attribute("data-moves")))
    page.screenshot(path=str(shots(tmp_path) / "spectate-one-board.png"))
    assert not errors, errors
    context.close()


def test_the_tournament_on_the_spectators_page(browser, evening, tmp_path):
    """The club's tournament below the boards, in each language, at a desk's and a phone's width: its
    name and round, the round's games (table1's result counted from the board's own game) and the
    standings; a result the organiser enters reaches the open page."""
    import urllib.request

    from reedboard.controller.web.languages import page_catalogue

    for locale, width in (("en-GB", 1300), ("de-DE", 390), ("ro-RO", 1300), ("en-GB", 390)):
        lang = locale[:2]
        catalogue = json.loads(page_catalogue(lang))["messages"] if lang != "en" else {}
        words = lambda text: catalogue.get(text) or text  # noqa: E731
        context = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(error))
        page.goto(f"{evening.url}/spectate")
        section = page.locator("[data-role=tournament]")
        expect(section).to_be_visible(timeout=TIMEOUT)
        expect(section.locator("[data-role=t-name]")).to_have_text("Thursday club")
        expect(section.locator("[data-role=t-round]")).to_have_text(
            words("round {round} of {rounds}").format(round=1, rounds=3))
        expect(section.locator("h3")).to_have_text([words("Pairings"), words("Tournament standings")])
        games = section.locator("[data-role=pairings] tbody tr")
        expect(games).to_have_count(2)
        expect(games.nth(0).locator("td")).to_have_text(["1 · table1", "Bo", "1-0", "Ann"], timeout=TIMEOUT)
        expect(games.nth(1).locator("td").nth(0)).to_have_text("2 · table2")
        standings = section.locator("[data-role=t-standings] tbody tr")
        expect(standings).to_have_count(4)
        expect(standings.nth(0).locator("td").nth(1)).to_have_text("Bo")  # won on table1
        expect(standings.nth(0).locator("td").nth(2)).to_have_text("1")
        expect(page.locator("[data-board]")).to_have_count(3)  # the boards' cards as before
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing wider than a phone
        section.scroll_into_view_if_needed()
        page.screenshot(path=str(shots(tmp_path) / f"spectate-tournament-{lang}-{width}.png"), full_page=True)
        assert not errors, errors
        if width == 390 and lang == "en":  # the organiser enters table2's result: the open page follows
            request = urllib.request.Request(
                f"{evening.url}/api/tournament/result", method="POST",
                data=json.dumps({"round": 1, "number": 2, "result": "1/2-1/2"}).encode(),
                headers={"Content-Type": "application/json", "X-Reedboard-Token": TOKEN})
            with urllib.request.urlopen(request, timeout=10) as answer:
                assert answer.status == 200
            expect(games.nth(1).locator(".result")).to_have_text("1/2-1/2", timeout=TIMEOUT)
            expect(section.locator("[data-role=t-standings] tbody tr td:nth-child(3)")).to_have_text(
                ["1", "0.5", "0.5", "0"])
        context.close()
