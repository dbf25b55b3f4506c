"""The archive in the web view: past games found by player, game, days and result, replayed,
downloaded as records and as pictures, and the statistics; read by spectators without a token.

The API through Starlette's TestClient, then the page in a real browser (Playwright driving
/usr/bin/chromium, as tests/test_web_browser.py does), over a small archive of journals made by
hand (tests/test_archive_index.py's club): Ann beats Bob at Big Balls, Bob beats Ann by
resignation, an unfinished game, an Abalone draw between Cleo and Ann, and a game given up
before its first move.
"""

import contextlib
import os
import random
import xml.etree.ElementTree as ET

import pytest
from starlette.testclient import TestClient

from reedboard.controller.archive.index import Archive
from reedboard.controller.archive.records import game_record, parse_records, record_lines
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.web import create_app

from archive_games import A7_GAME, bigballs, played

pytestmark = pytest.mark.system

LOCAL = "http://127.0.0.1"
FAST = Settings(settle=0.15, grace=0.3)
TOKEN = "s3cret-token"


def session_for(tmp_path):
    """A Big Balls session journaling elsewhere: the page's archive is the club's folder alone."""
    return PlaySession("bigballs", games_dir=tmp_path / "live", settings=FAST, rng=random.Random(7), setup="given")


@pytest.fixture
def client(club, tmp_path):
    with TestClient(create_app(session_for(tmp_path), token=TOKEN, games_dir=club), base_url=LOCAL) as client:
        yield client


def listed(client, query=""):
    response = client.get(f"/api/games{query}")
    assert response.status_code == 200, response.text
    return response.json(), int(response.headers["x-total-count"])


def shown(games):
    return [f"{g['game']}/{g['outcome']}/{g['moves']}" for g in games]


# --- the list -----------------------------------------------------------------------------------------
def test_the_archive_is_listed_newest_first_without_the_game_given_up(client, club):
    games, total = listed(client)
    assert shown(games) == ["abalone/draw/2", "bigballs/unfinished/2", "bigballs/win/3", "bigballs/win/15"]
    assert total == 4
    oldest = games[-1]
    assert oldest["players"] == {"black": "Ann", "white": "Bob"} and oldest["result"] == "1-0 a7"
    assert oldest["name"] == oldest["id"] + ".jsonl" and (club / oldest["name"]).is_file()
    assert oldest["day"] == "2026-11-01" and oldest["first"] == "black" and oldest["title"] == "Big Balls"
    assert games[1]["result"] is None and "note" not in games[1]  # unfinished: no result line yet


@pytest.mark.parametrize("query, expected", [
    ("?game=abalone", ["abalone/draw/2"]),
    ("?player=ANN", ["abalone/draw/2", "bigballs/unfinished/2", "bigballs/win/3", "bigballs/win/15"]),
    ("?player=%20Cleo%20", ["abalone/draw/2"]),
    ("?player=nobody", []),
    ("?result=win", ["bigballs/win/3", "bigballs/win/15"]),
    ("?result=draw", ["abalone/draw/2"]),
    ("?result=unfinished", ["bigballs/unfinished/2"]),
    ("?since=2026-11-02&until=2026-11-03", ["bigballs/unfinished/2", "bigballs/win/3"]),
    ("?since=2026.11.04", ["abalone/draw/2"]),
    ("?until=2026-11-01", ["bigballs/win/15"]),
    ("?player=Bob&result=win&game=bigballs", ["bigballs/win/3", "bigballs/win/15"]),
])
def test_the_list_is_filtered(client, query, expected):
    games, total = listed(client, query)
    assert shown(games) == expected and total == len(expected)


def test_the_list_comes_a_page_at_a_time_with_the_number_that_match(client):
    assert [shown(listed(client, f"?limit=2&offset={offset}")[0]) for offset in (0, 2, 4)] == [
        ["abalone/draw/2", "bigballs/unfinished/2"], ["bigballs/win/3", "bigballs/win/15"], []]
    games, total = listed(client, "?player=ann&limit=1&offset=1")
    assert shown(games) == ["bigballs/unfinished/2"] and total == 4


@pytest.mark.parametrize("query, says", [
    ("?game=chess", "no game 'chess'"),
    ("?result=lost", "result is one of win, draw, unfinished"),
    ("?since=yesterday", "since is a day, YYYY-MM-DD"),
    ("?until=2026-13-01", "until is a day"),
    ("?since=2026-11-05&until=2026-11-01", "since (2026-11-05) is after until (2026-11-01)"),
    ("?limit=0", "limit is a whole number from 1 to 500"),
    ("?limit=501", "limit is a whole number"),
    ("?limit=ten", "limit is a whole number"),
    ("?offset=-1", "offset is a whole number from 0"),
    ("?offset=99999999999", "offset is a whole number"),
    ("?player=", "a player's name is 1 to 40 printable characters"),
    ("?player=" + "x" * 41, "a player's name is 1 to 40"),
    ("?player=Ann%0Abob", "printable"),
    ("?sort=moves", "/api/games takes game, player, since, until, result, limit, offset, not 'sort'"),
    ("?game=bigballs&game=abalone", "game is given once"),
])
def test_bad_parameters_get_a_400_with_one_line(client, query, says):
    response = client.get(f"/api/games{query}")
    assert response.status_code == 400
    error = response.json()["error"]
    assert says in error and "\n" not in error


def test_a_damaged_journal_is_listed_with_its_file_and_line_and_left_out_of_searches(client, club):
    victim = sorted(club.glob("*-bigballs.jsonl"))[0]  # Ann's win at a7
    lines = victim.read_text().splitlines()
    lines[3] = '{"type": "move", "t": 3.0, "move": "6 g7-a1"}'
    victim.write_text("\n".join(lines) + "\n")
    (club / "20261201-000000-offboard.jsonl").write_text("not a journal\n")
    games, total = listed(client)
    assert total == 5
    by_name = {g["name"]: g for g in games}
    assert by_name[victim.name]["damaged"].startswith(f"{victim.name}:4: ")
    assert by_name[victim.name]["moves"] == 2 and by_name[victim.name]["game"] == "bigballs"
    unreadable = by_name["20261201-000000-offboard.jsonl"]
    assert unreadable["error"].startswith("20261201-000000-offboard.jsonl:1: ")
    assert str(club) not in str(games)  # the board's folders are not shown to visitors
    assert shown(listed(client, "?result=win")[0]) == ["bigballs/win/3"]  # the rest of the archive is searched
    assert client.get(f"/api/games/{victim.name}").json()["record"] == A7_GAME[:2]  # replayed up to the damage


def test_the_list_follows_the_journals(client, club):
    assert listed(client)[1] == 4
    played(club, bigballs(), A7_GAME[:1], players={"black": "Dan"}, day=9)
    games, total = listed(client, "?player=dan")
    assert total == 1 and games[0]["players"] == {"black": "Dan"} and games[0]["day"] == "2026-11-10"
    (club / games[0]["name"]).unlink()
    assert listed(client, "?player=dan") == ([], 0)


def test_no_games_folder_yet_lists_nothing(tmp_path):
    with TestClient(create_app(session_for(tmp_path), games_dir=tmp_path / "none"), base_url=LOCAL) as client:
        assert listed(client) == ([], 0)
        assert client.get("/api/stats").json() == {"player": None, "players": [], "games": [], "months": []}
    assert not (tmp_path / "none").exists()


# --- one game: replay and downloads ---------------------------------------------------------------------
def test_a_game_is_replayed_and_downloaded_as_its_record(client, club):
    oldest = listed(client)[0][-1]
    for key in (oldest["name"], oldest["id"]):
        replay = client.get(f"/api/games/{key}").json()
        assert replay["record"] == A7_GAME and len(replay["positions"]) == len(A7_GAME) + 1
    record = client.get(f"/api/games/{oldest['id']}/record?format=record")
    assert record.status_code == 200
    assert record.headers["content-disposition"] == f'attachment; filename="{oldest["id"]}-record.txt"'
    journal = read_journal(club / oldest["name"])
    assert record.text.splitlines() == record_lines(game_record(journal))
    assert record.text.splitlines()[:3] == ['[Game "bigballs"]', '[Date "2026.11.01"]', '[Time "18:00:00+00:00"]']
    assert '[Black "Ann"]' in record.text and record.text.splitlines()[-1].startswith("1-0 a7")
    (parsed,) = parse_records(record.text)  # the record reads back: every move checked by the rules
    assert [entry["move"] for entry in parsed.entries if entry["type"] == "move"] == A7_GAME
    moves = client.get(f"/api/games/{oldest['name']}/record")  # the moves only, as `reedboard export` prints
    assert moves.text.splitlines()[-2:] == [A7_GAME[-1], "1-0 a7"] and "[Game" not in moves.text
    assert client.get(f"/api/games/{oldest['name']}/record?format=pgn").status_code == 400
    assert client.get("/api/games/20991231-000000-bigballs/record?format=record").status_code == 404


# --- statistics -------------------------------------------------------------------------------------------
def test_the_statistics_are_the_archives(client, club):
    played(club, bigballs(), A7_GAME, players={"black": "Ann", "white": "Dan"}, day=35)  # December: Ann wins
    with Archive(club) as archive:
        archive.refresh()
        expected, ann = archive.stats(), archive.stats("ann")
    stats = client.get("/api/stats").json()
    assert stats.pop("months") == [
        {"month": "2026-11", "games": 4, "decided": 2, "draws": 1, "unfinished": 1},
        {"month": "2026-12", "games": 1, "decided": 1, "draws": 0, "unfinished": 0}]
    assert stats == {"player": None, **expected}
    big = next(g for g in stats["games"] if g["game"] == "bigballs")
    assert big["first"] == {"wins": 3, "draws": 0, "losses": 0} and big["colours"] == {"black": 3, "white": 0}
    stats = client.get("/api/stats?player=ann").json()
    assert stats.pop("months") == [  # her results: the games of every side she played
        {"month": "2026-11", "games": 4, "wins": 1, "draws": 1, "losses": 1, "unfinished": 1},
        {"month": "2026-12", "games": 1, "wins": 1, "draws": 0, "losses": 0, "unfinished": 0}]
    assert stats == {"player": "ann", **ann} and {e["player"] for e in ann["players"]} == {"Ann"}
    assert client.get("/api/stats?player=Bob").json()["months"] == [
        {"month": "2026-11", "games": 3, "wins": 1, "draws": 0, "losses": 1, "unfinished": 1}]


@pytest.mark.parametrize("query", ["?player=", "?player=" + "y" * 41, "?who=Ann", "?player=Ann&player=Bob"])
def test_bad_statistics_parameters_get_a_400(client, query):
    response = client.get(f"/api/stats{query}")
    assert response.status_code == 400 and "\n" not in response.json()["error"]


# --- read-only for spectators ------------------------------------------------------------------------------
def test_spectators_read_the_archive_without_the_token_and_change_nothing(client, club):
    assert client.get("/api/games?player=ann").status_code == 200
    before = sorted(path.name for path in club.iterdir())  # the journals and the index made of them
    assert client.get("/api/stats").status_code == 200
    name = listed(client)[0][0]["name"]
    assert client.get(f"/api/games/{name}").status_code == 200
    assert client.get(f"/api/games/{name}/record?format=record").status_code == 200
    assert client.post("/api/new", json={}).status_code == 403  # changing a game still takes the token
    for method in ("post", "put", "delete"):
        assert getattr(client, method)("/api/games").status_code == 405
        assert getattr(client, method)(f"/api/games/{name}").status_code == 405
    assert sorted(path.name for path in club.iterdir()) == before


# --- renaming and deleting: the token beyond localhost ----------------------------------------------------
def test_renaming_a_player_and_deleting_a_game_take_the_token_and_change_the_journals(club, tmp_path):
    app = create_app(session_for(tmp_path), token=TOKEN, games_dir=club)
    with TestClient(app, base_url="http://192.168.1.20:8000") as client:
        assert client.post("/api/archive/rename-player", json={"old": "Ann", "new": "Anna"}).status_code == 403
        name = listed(client, "?player=cleo")[0][0]["name"]
        assert client.post("/api/archive/delete", json={"id": name}).status_code == 403
        owner = {"X-Reedboard-Token": TOKEN}
        renamed = client.post("/api/archive/rename-player", json={"old": "ann", "new": "Anna"}, headers=owner)
        assert renamed.status_code == 200 and renamed.json() == {"renamed": 4, "failed": []}
        assert listed(client, "?player=ann")[1] == 0 and listed(client, "?player=anna")[1] == 4
        assert client.post("/api/archive/delete", json={"id": name}, headers=owner).json() == {
            "deleted": name.removesuffix(".jsonl")}
        assert listed(client, "?player=cleo")[1] == 0
        assert not (club / name).exists()
        for body, words in [({"old": "Nobody", "new": "X"}, "no game has a player called"),
                            ({"old": "Bob", "new": " "}, "a name is 1 to 40"),
                            ({"old": "Bob"}, "needs 'new'")]:
            refused = client.post("/api/archive/rename-player", json=body, headers=owner)
            assert refused.status_code == 400 and words in refused.json()["error"], refused.text
        gone = client.post("/api/archive/delete", json={"id": name}, headers=owner)
        assert gone.status_code == 400 and "no game" in gone.json()["error"] and str(club) not in gone.text
    # a rebuilt index keeps the new name: it is in the journals
    (club / "archive-index.sqlite3").unlink()
    with Archive(club) as rebuilt:
        rebuilt.refresh()
        names = {name for game in rebuilt.games() for name in game["players"].values()}
    assert "Anna" in names and "Ann" not in names


# --- the page, in a browser ---------------------------------------------------------------------------------
try:  # the browser and a page on it, as the other browser tests have them
    from in_browser import TIMEOUT, expect
except pytest.skip.Exception as why:  # no chromium or no Playwright: the API tests above still run
    needs_browser = pytest.mark.skip(reason=str(why))
else:
    needs_browser = pytest.mark.usefixtures("browser")

SHOTS = os.environ.get("REEDBOARD_SHOTS")  # a folder to keep screenshots of the page in, to look at it


@pytest.fixture
def archive_page(open_page, club, tmp_path):
    """The page on the club's archive, its past games shown: open(viewport=None) -> page."""
    from reedboard.controller.web.background import served

    with contextlib.ExitStack() as stack:
        def open_archive(viewport=None):
            url = stack.enter_context(served(session_for(tmp_path), games_dir=club))
            page = open_page(url, viewport=viewport)
            page.click('[data-tab="games"]')
            expect(page.locator('[data-role="games"] tr[data-game]')).to_have_count(4, timeout=TIMEOUT)
            return page
        yield open_archive


def pieces_after(plies):
    """Every hollow's piece ("" for none) after the first `plies` moves of Ann's win, by the rules engine."""
    game = bigballs()
    for move in A7_GAME[:plies]:
        game.play(move)
    return {cell: game.pieces().get(cell) or "" for cell in game.cells}


def shown_pieces(board):
    return board.locator("[data-cell]").evaluate_all(
        "cells => Object.fromEntries(cells.map((c) => [c.dataset.cell, c.dataset.piece]))")


def rows(page):
    return page.locator('[data-role="games"] tr[data-game]').evaluate_all(
        "rows => rows.map((r) => r.dataset.outcome + '/' + r.children[3].textContent)")


@needs_browser
def test_past_games_are_searched_replayed_and_downloaded_in_the_page(archive_page, club):
    page = archive_page()
    assert rows(page) == ["draw/2", "unfinished/2", "win/3", "win/15"]
    expect(page.locator('[data-role="games-count"]')).to_have_text("1–4 of 4 games")
    form = page.locator('[data-role="games-search"]')
    # by player (any case) and result
    form.locator('input[name="player"]').fill("bob")
    form.locator('select[name="result"]').select_option("win")
    page.click('[data-action="search"]')
    expect(page.locator('[data-role="games-count"]')).to_have_text("1–2 of 2 games", timeout=TIMEOUT)
    assert rows(page) == ["win/3", "win/15"]
    # by game and days
    page.click('[data-action="search-clear"]')
    expect(page.locator('[data-role="games-count"]')).to_have_text("1–4 of 4 games", timeout=TIMEOUT)
    form.locator('select[name="game"]').select_option("bigballs")
    form.locator('input[name="since"]').fill("2026-11-02")
    form.locator('input[name="until"]').fill("2026-11-03")
    page.click('[data-action="search"]')
    expect(page.locator('[data-role="games-count"]')).to_have_text("1–2 of 2 games", timeout=TIMEOUT)
    assert rows(page) == ["unfinished/2", "win/3"]
    # nothing found, then everything again
    form.locator('input[name="player"]').fill("Zoe")
    page.click('[data-action="search"]')
    expect(page.locator('[data-role="games"] .empty-note')).to_have_text("no game matches the search",
                                                                            timeout=TIMEOUT)
    page.click('[data-action="search-clear"]')
    expect(page.locator('[data-role="games"] tr[data-game]')).to_have_count(4, timeout=TIMEOUT)

    # Ann's win at a7, replayed move by move
    oldest = page.locator('[data-role="games"] tr[data-game]').last
    expect(oldest).to_contain_text("Ann")
    name = oldest.get_attribute("data-game")
    oldest.locator("[data-open]").click()
    replay = page.locator("#replay-board")
    expect(page.locator('[data-role="replay-record"] > li')).to_have_count(len(A7_GAME), timeout=TIMEOUT)
    expect(page.locator('[data-role="replay-ply"]')).to_have_text(f"move {len(A7_GAME)} of {len(A7_GAME)}")
    assert shown_pieces(replay) == pieces_after(len(A7_GAME))
    page.click('[data-replay="prev"]')  # before "4 a6xa7": the big ball still on a7
    expect(replay.locator('[data-cell="a7"]')).to_have_attribute("data-piece", "ball")
    assert shown_pieces(replay) == pieces_after(len(A7_GAME) - 1)
    page.click('[data-replay="first"]')
    expect(page.locator('[data-role="replay-ply"]')).to_have_text(f"move 0 of {len(A7_GAME)}")
    assert shown_pieces(replay) == pieces_after(0)

    # its record (docs/records.md), downloaded
    with page.expect_download() as done:
        page.click('[data-role="replay-record-download"]')
    download = done.value
    assert download.suggested_filename == name.removesuffix(".jsonl") + "-record.txt"
    text = open(download.path(), encoding="utf-8").read()
    assert text.splitlines() == record_lines(game_record(read_journal(club / name)))
    assert '[Black "Ann"]' in text and text.splitlines()[-1].startswith("1-0 a7")

    # a picture of the position shown (after the first move), as SVG
    page.click('[data-replay="next"]')
    expect(page.locator('[data-role="replay-ply"]')).to_have_text(f"move 1 of {len(A7_GAME)}")
    assert shown_pieces(replay) == pieces_after(1)  # "5 a1xa2"
    with page.expect_download() as done:
        page.click('[data-role="replay-picture"][data-kind="svg"]')
    picture = done.value
    assert picture.suggested_filename == name.removesuffix(".jsonl") + "-move-1.svg"
    svg = ET.parse(picture.path()).getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg" and svg.get("viewBox")
    cells = {g.get("data-cell"): g for g in svg.iter("{http://www.w3.org/2000/svg}g") if g.get("data-cell")}
    assert {cell: g.get("data-piece") for cell, g in cells.items()} == pieces_after(1)
    assert "fill: url(" in ET.tostring(svg, encoding="unicode")  # the look travels with the file
    assert svg.find("{http://www.w3.org/2000/svg}defs") is not None
    with page.expect_download() as done:
        page.click('[data-role="replay-picture"][data-kind="png"]')
    with open(done.value.path(), "rb") as file:
        assert file.read(8) == b"\x89PNG\r\n\x1a\n"
    if SHOTS:
        picture.save_as(f"{SHOTS}/position.svg")
        done.value.save_as(f"{SHOTS}/position.png")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/archive-replay.png", full_page=True)
    assert not page.errors


@needs_browser
def test_the_owner_renames_a_player_and_deletes_a_game_in_the_page(archive_page, club):
    page = archive_page()  # on this computer: the page may change the archive
    rename = page.locator('[data-role="rename-player"]')
    rename.locator('input[name="old"]').fill("Cleo")
    rename.locator('input[name="new"]').fill("Cleopatra")
    rename.locator('[data-action="rename-player"]').click()
    expect(page.locator('[data-role="games"] tr[data-outcome="draw"] .who').first).to_have_text(
        "Cleopatra", timeout=TIMEOUT)
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator('[data-role="games"] tr[data-outcome="draw"] [data-delete]').click()
    expect(page.locator('[data-role="games"] tr[data-game]')).to_have_count(3, timeout=TIMEOUT)
    assert len(list(club.glob("*.jsonl"))) == 4  # three listed, and the game given up before its first move
    assert not page.errors


@needs_browser
def test_the_statistics_card_draws_each_players_results_as_bars(archive_page):
    page = archive_page()
    card = page.locator('[data-role="stats"]')
    players = card.locator("tr[data-stats-player]")
    expect(players).to_have_count(4, timeout=TIMEOUT)
    assert players.evaluate_all("rows => rows.map((r) => r.dataset.statsPlayer + '/' + r.dataset.statsGame)") == [
        "Ann/abalone", "Ann/bigballs", "Bob/bigballs", "Cleo/abalone"]
    ann = card.locator('tr[data-stats-player="Ann"][data-stats-game="bigballs"]')
    expect(ann.locator(".stats-counts")).to_have_text("1–0–1")
    # a bar of a win, a loss and an unfinished game: three equal thirds
    parts = ann.locator("svg.bar rect").evaluate_all(
        "rects => rects.map((r) => [r.dataset.part, Number(r.getAttribute('width')).toFixed(1)])")
    assert parts == [["wins", "33.3"], ["losses", "33.3"], ["unfinished", "33.3"]]
    # per game: the first player won both finished Big Balls games; black won them
    big = card.locator('[data-stats-game="bigballs"].stats-game')
    expect(big).to_contain_text("3 games")
    first = big.locator('[data-stats="first"] svg.bar rect')
    assert first.evaluate_all("rects => rects.map((r) => [r.dataset.part, r.getAttribute('width')])") == [
        ["wins", "100.00"]]
    assert big.locator('[data-stats="colours"] rect[data-part="black"]').get_attribute("width") == "100.00"
    drawn = card.locator('[data-stats-game="abalone"].stats-game [data-stats="first"] rect')
    assert drawn.evaluate_all("rects => rects.map((r) => r.dataset.part)") == ["draws"]
    # the results by month: all four in November, two of them won, one drawn, one unfinished
    november = card.locator('[data-month="2026-11"]')
    expect(november.locator(".month-count")).to_have_text("4")
    assert november.locator("rect").evaluate_all("rects => rects.map((r) => [r.dataset.part, r.dataset.count])") == [
        ["decided", "2"], ["draws", "1"], ["unfinished", "1"]]
    # the search's player narrows the statistics to that player's
    page.locator('[data-role="games-search"] input[name="player"]').fill("cleo")
    page.click('[data-action="search"]')
    expect(card).to_have_attribute("data-player", "cleo", timeout=TIMEOUT)
    expect(players).to_have_count(1)
    expect(card.locator(".stats-game")).to_have_count(1)
    assert november.locator("rect").evaluate_all("rects => rects.map((r) => [r.dataset.part, r.dataset.count])") == [
        ["draws", "1"]]  # Cleo's one game, a draw
    # the players' names are offered to the search
    assert page.locator('[data-role="archive-players"] option').evaluate_all(
        "options => options.map((o) => o.value)") == ["Ann", "Bob", "Cleo"]
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/archive-stats.png", full_page=True)
    assert not page.errors


@needs_browser
def test_the_archive_fits_a_phone(archive_page):
    page = archive_page(viewport={"width": 390, "height": 844})
    expect(page.locator('[data-role="stats"] tr[data-stats-player]')).to_have_count(4, timeout=TIMEOUT)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/archive-phone.png", full_page=True)
    assert not page.errors
