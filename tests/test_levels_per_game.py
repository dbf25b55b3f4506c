"""Each game has as many computer levels as its table (Game.computer_levels): its ladder climbs
as far as steps of 60-80 % lead it, so one game may end at level 8 while another goes on. The
level a game does not have is refused where the game is chosen (the page's new game, `reedboard
play --vs`, a match), one line each; a game's record of another version, with any game's level,
still reads; a kept computer follows the board to a game with fewer levels at that game's
strongest. Big Balls' ladder ends at level 8, Off Board's at 12 and Abalone's at 13: the tests
read the counts from the tables."""

import random

import pytest
from reedboard.controller import __version__
from reedboard.controller.core.computer import Computer, check_level
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.games import GAMES, top_level
from reedboard.controller.opponent.levels import level, pi_seconds
from reedboard.controller.opponent.match import parse_player, player_limits
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.web import create_app
from reedboard.controller.words import said
from starlette.testclient import TestClient

pytestmark = pytest.mark.component

SHORT = top_level("bigballs")  # the game with the fewest levels
OFF = top_level("offboard")


def test_a_games_levels_are_its_tables_rows():
    for name, cls in GAMES.items():
        assert top_level(name) == len(cls.computer_levels) >= 8, name
    assert top_level() == max(len(cls.computer_levels) for cls in GAMES.values())


def test_a_level_beyond_a_games_ladder_is_refused_in_that_game_only():
    assert SHORT < OFF < top_level() == top_level("abalone")
    assert check_level(SHORT, "bigballs") == SHORT and check_level(OFF, "offboard") == OFF
    with pytest.raises(ValueError) as refused:
        check_level(SHORT + 1, "bigballs")
    assert said(refused.value) == f"the computer's level is 1 to {SHORT}, not {SHORT + 1}"
    assert Computer("white", top_level()).level == top_level()  # a record's computer: any game's level reads
    with pytest.raises(ValueError):
        Computer("white", top_level() + 1)
    assert parse_player(f"computer:{OFF}") == f"computer:{OFF}"
    with pytest.raises(ValueError):
        player_limits(f"computer:{OFF}", game="bigballs")  # a match of Big Balls: no such level
    assert player_limits(f"computer:{OFF}", game="offboard").nodes == GAMES["offboard"].computer_levels[OFF - 1][0]


def new_game(client, game, level):
    return client.post("/api/new", json={"game": game, "computer": {"level": level, "plays": "white"}})


def test_the_page_is_told_a_games_levels_and_a_new_game_keeps_to_them(tmp_path):
    session = PlaySession("offboard", games_dir=tmp_path / "games", settings=Settings(settle=0.15, grace=0.3),
                          rng=random.Random(7))
    with TestClient(create_app(session), base_url="http://127.0.0.1") as client:
        catalog = {entry["name"]: entry for entry in client.get("/api/catalog").json()}
        assert {name: entry["top_level"] for name, entry in catalog.items()} == {
            name: len(cls.computer_levels) for name, cls in GAMES.items()}
        refused = new_game(client, "bigballs", SHORT + 1)
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"] == f"the computer's level is 1 to {SHORT}, not {SHORT + 1}"
        assert new_game(client, "bigballs", top_level() + 1).status_code == 400  # no game has it
        assert session.kind == "offboard"  # nothing started
        started = new_game(client, "bigballs", SHORT)
        assert started.status_code == 200, started.text
        assert session.kind == "bigballs" and session.computer == Computer("white", SHORT)


def test_a_kept_computer_goes_to_a_game_with_fewer_levels_at_its_strongest(tmp_path):
    session = PlaySession("offboard", games_dir=tmp_path / "games", settings=Settings(settle=0.15, grace=0.3),
                          rng=random.Random(7))
    with TestClient(create_app(session), base_url="http://127.0.0.1") as client:
        started = client.post("/api/new", json={"game": "offboard", "computer": {"level": OFF, "plays": "yellow"}})
        assert started.status_code == 200, started.text
        assert client.get("/api/state").json()["computer"] == {"plays": "yellow", "level": OFF}
        assert client.post("/api/new", json={"game": "bigballs"}).status_code == 200  # the computer kept
        assert client.get("/api/state").json()["computer"] == {"plays": "white", "level": SHORT}


def test_play_refuses_a_level_the_game_does_not_have_in_one_line(capsys, tmp_path):
    from reedboard.controller.commands.cli import main

    argv = ["play", "bigballs", "--hal", "sim", "--games-dir", str(tmp_path), "--vs", f"computer:{SHORT + 1}"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"reedboard play: the computer's levels in Big Balls are 1 to {SHORT}, not {SHORT + 1}"], err
    assert not list(tmp_path.iterdir())  # nothing started, nothing written


def test_match_refuses_a_level_the_game_does_not_have_in_one_line(capsys):
    from reedboard.controller.commands.cli import main

    assert main(["match", "bigballs", f"computer:{SHORT + 1}", "random", "--games", "1"]) == 2
    out, err = capsys.readouterr()
    assert err.strip().splitlines() == [
        f"reedboard match: the computer's levels in Big Balls are 1 to {SHORT}, not {SHORT + 1}"], err
    assert "game 1" not in out  # no game played


def test_a_levels_safety_cap_lets_a_pi_finish_its_search():
    """Time is only a safety cap at the table: on a Pi Zero 2 W a level's budget must fit well
    inside it, or a slow board would play a weaker level than the one chosen. A cold level's time
    there grows with its node budget from the game's own Pi levels (Game.computer_pi_seconds: their
    budgets are what the Pi searches in those seconds); the caps never shrink as the levels climb."""
    for name in GAMES:
        levels = [level(n, name) for n in range(1, top_level(name) + 1)]
        caps = [chosen.safety_seconds(name) for chosen in levels]
        assert caps == sorted(caps), name
        pi = pi_seconds(name)
        assert pi and max(pi) == top_level(name), name  # the strongest level is the Pi's longest wait
        rate = max(levels[n - 1].setting(name).nodes / seconds for n, seconds in pi.items())  # nodes a second there
        for chosen, cap in zip(levels, caps):
            setting = chosen.setting(name)
            if setting.temperature == 0:
                assert cap >= 2.5 * setting.nodes / rate, (name, chosen.number, cap)


@pytest.mark.parametrize("game, version, recorded, today", [
    ("abalone", "0.1.0", 10, 13), ("abalone", "0.1.0", 9, 11), ("abalone", "0.1.0", 8, 8), ("abalone", "0.2.0", 12, 12),
    ("offboard", "0.1.0", 9, 11), ("offboard", "0.2.0", 9, 11), ("offboard", "0.2.0", 10, 12), ("offboard", "0.2.0", 8, 8),
    ("bigballs", "0.1.0", 10, 8), ("bigballs", "0.1.0", 9, 8), ("bigballs", "0.1.0", 3, 3), ("bigballs", "0.2.0", 8, 8)])
def test_a_level_recorded_before_the_ladder_grew_is_the_level_that_plays_as_it_did(game, version, recorded, today):
    """0.1.0 had ten levels in every game: its Abalone 9 and 10 (9,000 and 45,000 nodes) are today's
    11 and 13, its Big Balls 9 and 10 (measured as strong as 8) today's 8. Off Board's levels 9 and
    10 came between in 0.3.0: the 9 and 10 of 0.1.0 and 0.2.0 are today's 11 (11,500 nodes) and 12
    (its strongest, for their 58,000)."""
    header = {"plays": "white" if game != "offboard" else "yellow", "level": recorded, "version": version}
    assert Computer.from_header(header, game) == Computer(header["plays"], today)
    if (game, recorded) not in STRONGER_THEN:  # the same search as then
        assert GAMES[game].computer_levels[today - 1][0] == OLD_NODES[version][game][recorded - 1]
    now = {**header, "version": __version__}
    assert Computer.from_header(now, game).level == recorded  # today's records: as they say


OLD_NODES = {  # each version's node budgets, game by game, level by level
    "0.1.0": {
        "abalone": (12_000, 12_000, 12_000, 15_000, 15_000, 20_000, 20_000, 350, 9_000, 45_000),
        "offboard": (800, 4_000, 4_000, 5_000, 170, 240, 650, 1_400, 11_500, 58_000),
        "bigballs": (300, 600, 1_500, 3_000, 6_000, 8_000, 5_000, 100_000, 200_000, 400_000),
    },
    "0.2.0": {
        "abalone": (12_000, 12_000, 12_000, 15_000, 15_000, 20_000, 20_000, 350, 1_000, 2_500, 9_000, 20_000, 45_000),
        "offboard": (800, 4_000, 4_000, 5_000, 170, 240, 650, 1_400, 11_500, 58_000),
        "bigballs": (300, 600, 1_500, 3_000, 6_000, 8_000, 5_000, 100_000),
    },
}
# Levels that play on at a level that is not the same search: Big Balls' 9 and 10 measured as strong
# as 8, Off Board's 58,000 nodes at its strongest today (40,000).
STRONGER_THEN = {("bigballs", 9), ("bigballs", 10), ("offboard", 10)}


def test_an_old_game_against_the_computer_resumes_and_is_rated_at_the_level_it_played(tmp_path):
    from archive_games import START
    from reedboard.controller.archive.index import Archive
    from reedboard.controller.games.abalone import Abalone
    from reedboard.controller.persist.journal import Journal
    from reedboard.controller.session.live import resume_referee

    paths = []
    for version, finished in (("0.1.0", True), (__version__, True), ("0.1.0", False)):
        journal = Journal.create(tmp_path, Abalone(), {}, START, players={"black": "Ann"},
                                 computer={"plays": "white", "level": 10, "version": version})
        journal.append_move(1.0, "A1B2")
        if finished:
            journal.append_result(2.0, "0-1", "resign", "white")
        journal.close()
        paths.append(journal.path)
    with Archive(tmp_path) as archive:
        archive.refresh()
        assert sorted(archive.against_computer("abalone")) == [(10, 0.0), (13, 0.0)]
        assert sorted(row["id"] for row in archive.games(player="computer:13")) == sorted([paths[0].stem, paths[2].stem])
    resumed = resume_referee(paths[2], 10.0)
    assert resumed.computer == Computer("white", 13)  # 45,000 nodes, as it played before
    resumed.journal.close()
