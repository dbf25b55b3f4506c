"""Each game has as many computer levels as its table (Game.computer_levels): its ladder climbs
as far as steps of 60-80 % lead it, so one game may end at level 8 while another goes on. The
level a game does not have is refused where the game is chosen (the page's new game, `reedboard
play --vs`, a match), one line each; a game's record of another version, with any game's level,
still reads; a kept computer follows the board to a game with fewer levels at that game's
strongest. Here Big Balls is given a shorter ladder of eight levels."""

import random

import pytest
from reedboard.controller.core.computer import Computer, check_level
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.games import GAMES, BigBalls, top_level
from reedboard.controller.opponent.match import parse_player, player_limits
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.web import create_app
from reedboard.controller.words import said
from starlette.testclient import TestClient

pytestmark = pytest.mark.component

SHORT = 8  # Big Balls' levels here


@pytest.fixture
def short_big_balls(monkeypatch):
    monkeypatch.setattr(BigBalls, "computer_levels", BigBalls.computer_levels[:SHORT])


def test_a_games_levels_are_its_tables_rows():
    for name, cls in GAMES.items():
        assert top_level(name) == len(cls.computer_levels) >= 8, name
    assert top_level() == max(len(cls.computer_levels) for cls in GAMES.values())


def test_a_level_beyond_a_games_ladder_is_refused_in_that_game_only(short_big_balls):
    assert top_level("bigballs") == SHORT and top_level("offboard") == 10 and top_level() == 10
    assert check_level(SHORT, "bigballs") == SHORT and check_level(10, "offboard") == 10
    with pytest.raises(ValueError) as refused:
        check_level(SHORT + 1, "bigballs")
    assert said(refused.value) == f"the computer's level is 1 to {SHORT}, not {SHORT + 1}"
    assert Computer("white", 10).level == 10  # a record's computer: any game's level reads
    with pytest.raises(ValueError):
        Computer("white", 11)
    assert parse_player("computer:10") == "computer:10"
    with pytest.raises(ValueError):
        player_limits("computer:10", game="bigballs")  # a match of Big Balls: no level 10
    assert player_limits("computer:10", game="offboard").nodes == GAMES["offboard"].computer_levels[9][0]


def new_game(client, game, level):
    return client.post("/api/new", json={"game": game, "computer": {"level": level, "plays": "white"}})


def test_the_page_is_told_a_games_levels_and_a_new_game_keeps_to_them(short_big_balls, tmp_path):
    session = PlaySession("offboard", games_dir=tmp_path / "games", settings=Settings(settle=0.15, grace=0.3),
                          rng=random.Random(7))
    with TestClient(create_app(session), base_url="http://127.0.0.1") as client:
        catalog = {entry["name"]: entry for entry in client.get("/api/catalog").json()}
        assert catalog["bigballs"]["top_level"] == SHORT and catalog["offboard"]["top_level"] == 10
        refused = new_game(client, "bigballs", SHORT + 1)
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"] == f"the computer's level is 1 to {SHORT}, not {SHORT + 1}"
        assert new_game(client, "bigballs", 11).status_code == 400  # no game has it
        assert session.kind == "offboard"  # nothing started
        started = new_game(client, "bigballs", SHORT)
        assert started.status_code == 200, started.text
        assert session.kind == "bigballs" and session.computer == Computer("white", SHORT)


def test_a_kept_computer_goes_to_a_game_with_fewer_levels_at_its_strongest(short_big_balls, tmp_path):
    session = PlaySession("offboard", games_dir=tmp_path / "games", settings=Settings(settle=0.15, grace=0.3),
                          rng=random.Random(7))
    with TestClient(create_app(session), base_url="http://127.0.0.1") as client:
        started = client.post("/api/new", json={"game": "offboard", "computer": {"level": 10, "plays": "yellow"}})
        assert started.status_code == 200, started.text
        assert client.get("/api/state").json()["computer"] == {"plays": "yellow", "level": 10}
        assert client.post("/api/new", json={"game": "bigballs"}).status_code == 200  # the computer kept
        assert client.get("/api/state").json()["computer"] == {"plays": "white", "level": SHORT}


def test_play_refuses_a_level_the_game_does_not_have_in_one_line(short_big_balls, capsys, tmp_path):
    from reedboard.controller.commands.cli import main

    argv = ["play", "bigballs", "--hal", "sim", "--games-dir", str(tmp_path), "--vs", f"computer:{SHORT + 1}"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"reedboard play: the computer's levels in Big Balls are 1 to {SHORT}, not {SHORT + 1}"], err
    assert not list(tmp_path.iterdir())  # nothing started, nothing written


def test_match_refuses_a_level_the_game_does_not_have_in_one_line(short_big_balls, capsys):
    from reedboard.controller.commands.cli import main

    assert main(["match", "bigballs", f"computer:{SHORT + 1}", "random", "--games", "1"]) == 2
    out, err = capsys.readouterr()
    assert err.strip().splitlines() == [
        f"reedboard match: the computer's levels in Big Balls are 1 to {SHORT}, not {SHORT + 1}"], err
    assert "game 1" not in out  # no game played
