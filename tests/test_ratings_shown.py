"""The ladder's ratings where a family meets them: each level's rating in the new-game dialog's
catalog, and the people's own rating from their finished games against the computer in the
archive, with the level to try next (GET api/rating)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from starlette.testclient import TestClient

from reedboard.controller.archive.index import Archive
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.games import BigBalls
from reedboard.controller.opponent.ratings import level_ratings, player_rating, suggested_level
from reedboard.controller.persist.journal import Journal
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.web import create_app

from archive_games import START, bigballs

pytestmark = pytest.mark.component

LOCAL = "http://127.0.0.1"


def against_computer(games_dir, day: int, level: int, people_win: bool, name: str = "Ann") -> None:
    """A finished Big Balls game: Ann plays black against the computer (white) at `level`; the
    loser resigns."""
    game = bigballs()
    journal = Journal.create(games_dir, game.copy(), {}, START + timedelta(days=day), players={"black": name},
                             computer={"plays": "white", "level": level, "version": "0.1"})
    loser = "white" if people_win else "black"
    game.resign(loser)
    outcome = game.outcome()
    journal.append_result(1.0, outcome.result(game.players), outcome.termination.value, outcome.winner)
    journal.close()


@pytest.fixture()
def family(tmp_path):
    """Ann's games: she beats level 2 three times out of four, and loses twice at level 4;
    Bob's one game, won at level 2."""
    games = tmp_path / "games"
    games.mkdir()
    for day, (level, won) in enumerate([(2, True), (2, True), (2, False), (2, True), (4, False), (4, False)]):
        against_computer(games, day, level, won)
    against_computer(games, 9, 2, True, name="Bob")
    return games


def test_the_archive_gives_each_players_results_against_the_levels(family):
    with Archive(family) as archive:
        archive.refresh()
        ann = archive.against_computer("bigballs", "ann")
        everyone = archive.against_computer("bigballs")
    assert sorted(ann) == [(2, 0.0), (2, 1.0), (2, 1.0), (2, 1.0), (4, 0.0), (4, 0.0)]
    assert len(everyone) == 7 and archive_games_of_bob(everyone, ann) == [(2, 1.0)]


def archive_games_of_bob(everyone, ann):
    rest = list(everyone)
    for result in ann:
        rest.remove(result)
    return rest


def test_the_page_is_told_each_levels_rating_and_a_players_own(family, tmp_path):
    session = PlaySession(BigBalls(), games_dir=tmp_path / "live", settings=Settings(settle=0.05))
    with TestClient(create_app(session, games_dir=family), base_url=LOCAL) as client:
        catalog = client.get("/api/catalog").json()
        levels = next(g for g in catalog if g["name"] == "bigballs")["levels"]
        assert [(row["level"], row["rating"]) for row in levels] == \
            [(n, round(rating)) for n, rating, *_ in level_ratings("bigballs")]
        assert levels[0]["rating"] == 800 and all(row["low"] <= row["rating"] <= row["high"] for row in levels)
        ann = client.get("/api/rating", params={"game": "bigballs", "player": "Ann"}).json()
        board = client.get("/api/rating", params={"game": "bigballs"}).json()
        nobody = client.get("/api/rating", params={"game": "bigballs", "player": "Cleo"}).json()
        unknown = client.get("/api/rating", params={"game": "chess"})
    expected, low, high = player_rating("bigballs", [(2, 1.0)] * 3 + [(2, 0.0)] + [(4, 0.0)] * 2)
    assert ann["games"] == 6 and ann["rating"] == round(expected) and ann["low"] < ann["rating"] < ann["high"]
    assert ann["suggested"] == suggested_level("bigballs", expected)
    assert board["games"] == 7 and board["rating"] > ann["rating"]  # Bob's win counts for the board
    assert nobody == {"game": "bigballs", "player": "Cleo", "games": 0}
    assert unknown.status_code == 404 and "bigballs" in unknown.json()["error"]


def test_a_player_who_wins_more_is_rated_higher_and_sent_further_up():
    strong, *_ = player_rating("bigballs", [(3, 1.0)] * 5)
    weak, *_ = player_rating("bigballs", [(3, 0.0)] * 5)
    assert strong > weak
    assert suggested_level("bigballs", strong) >= suggested_level("bigballs", weak)
