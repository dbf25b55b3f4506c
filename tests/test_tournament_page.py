"""The club's tournament pages in a real browser (Debian's chromium through Playwright), in
English, German and Romanian, at a desktop's and a phone's width: the round's pairings with the
players' ratings and the results (a corrected one marked), the bye, the standings with their
tie-breaks; and the organiser's page (?token=) entering a result, the standings following.
REEDBOARD_SHOTS=DIR keeps the screenshots."""

import asyncio
import random
import threading
from pathlib import Path

import pytest

from conftest import free_port
from in_browser import DESKTOP, PHONE, expect, shot
from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.broadcast.club.app import create_club_app
from reedboard.controller.broadcast.club.tournament import Tournament

pytestmark = pytest.mark.system

TOKEN = "organiser-secret"
WORDS = {  # language: (the pairings' heading, the standings' heading, "round 3 of 5")
    "en": ("Pairings", "Tournament standings", "round 3 of 5"),
    "de": ("Paarungen", "Turniertabelle", "Runde 3 von 5"),
    "ro": ("Împerecheri", "Clasamentul turneului", "runda 3 din 5"),
}


def evening(folder: Path) -> Tournament:
    """15 players (a bye each round), two rounds played, the third paired with one result in,
    and a corrected result."""
    t = Tournament.create(folder / "night", archive=folder, name="Thursday club", game="bigballs",
                          colours=["black", "white"], rounds=5, boards=[f"table{i}" for i in range(1, 9)])
    rng = random.Random(5)
    for i, name in enumerate(["Ann Lee", "Bo Chen", "Cy Ode", "Di Pop", "Ed Mayer", "Flo Roth", "Gus Ionescu",
                              "Hana Sato", "Ida Berg", "Jon Voss", "Kai Lind", "Lia Mureșan", "Max Ott",
                              "Nia Dunn", "Oskar Weiß"]):
        t.register(name, rating=1350 + 23 * ((i * 5) % 15))
    for number in (1, 2):
        pairing = t.pair_next()
        for game in pairing["games"]:
            t.enter_result(number, game["number"], rng.choice(["1-0", "0-1", "1/2-1/2"]))
    t.correct(2, 1, "1/2-1/2", "the clock had run out for both")
    pairing = t.pair_next()
    t.enter_result(3, 2, "0-1")
    return t


class Server:
    def __init__(self, club: Club) -> None:
        import uvicorn

        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(create_club_app(club, token=TOKEN), host="127.0.0.1",
                                                    port=self.port, log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=asyncio.run, args=(self.server.serve(),), daemon=True)
        self.thread.start()
        while not self.server.started:
            self.thread.join(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def club(tmp_path):
    tournament = evening(tmp_path)
    made = Club(tmp_path, tournament=tournament)
    server = Server(made)
    yield made, f"http://127.0.0.1:{server.port}/"
    server.stop()
    tournament.close()


@pytest.mark.parametrize("lang", ["en", "de", "ro"])
def test_the_pairings_and_standings_in_three_languages_on_a_desktop_and_a_phone(browser, club, lang):
    made, url = club
    standings = made.tournament.standings()
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        context = browser.new_context(viewport=viewport, locale=lang, extra_http_headers={"Accept-Language": lang})
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(error))
        page.goto(url)
        section = page.locator("[data-role=tournament]")
        expect(section).to_be_visible()
        pairings, table, round_words = WORDS[lang]
        expect(section.locator("h3").first).to_have_text(pairings)
        expect(section.locator("h3").nth(1)).to_have_text(table)
        expect(page.locator("[data-role=t-round]")).to_have_text(round_words)
        rows = page.locator("[data-role=pairings] tbody tr")
        expect(rows).to_have_count(7)
        expect(rows.nth(1)).to_contain_text("0-1")
        expect(page.locator("[data-role=bye]")).not_to_be_empty()
        standing = page.locator("[data-role=t-standings] tbody tr")
        expect(standing).to_have_count(15)
        first = standings[0]
        expect(standing.first).to_contain_text(first["name"])
        cells = standing.first.locator("td").all_inner_texts()
        assert cells[0] == first["place"] and float(cells[3].replace(",", ".")) == first["points"]
        assert float(cells[4].replace(",", ".")) == first["buchholz"]
        assert page.locator("[data-role=organiser]").is_hidden()  # a watcher's page: no organiser's controls
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"] + 1, "wider than the screen"
        shot(page, f"tournament-{lang}-{size}")
        assert not errors, errors
        context.close()


def test_the_organisers_page_enters_a_result_and_the_standings_follow(browser, club):
    made, url = club
    context = browser.new_context(viewport=DESKTOP, locale="en")
    page = context.new_page()
    page.goto(url + f"?token={TOKEN}")
    expect(page.locator("[data-role=organiser]")).to_be_visible()
    page.locator("[data-action=pair]").click()  # round 3 is not over: said, and nothing paired
    expect(page.locator("[data-role=problem]")).to_contain_text("without a result")
    assert made.tournament.round == 3
    row = page.locator("[data-role=pairings] tbody tr").first
    row.locator("select").select_option("1-0")
    first = made.tournament.rounds[3][0]
    winner = made.tournament.players[first.first]["name"]
    expect(page.locator("[data-role=t-standings] tbody tr", has_text=winner).locator("td").nth(7)).to_have_text(
        str(sum(1 for b in made.tournament.played() if first.first in (b.first, b.second))))
    assert made.tournament.rounds[3][0].score == 2
    shot(page, "tournament-organiser")
    context.close()
