"""The organiser's actions from the command line (docs/tournament.md, docs/commands.md): `reedboard
club pair|result|correct|register|withdraw|finish|standings` on a running club's API, with its
token. Each does what the page's button does; a refusal is the club's one line and exit 1; no
token, a club that is not there, a number that is none: one line, never a traceback."""

import asyncio
import threading

import pytest

from command_line import run_command
from conftest import free_port
from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.broadcast.club.app import create_club_app
from reedboard.controller.broadcast.club.tournament import Tournament
from reedboard.controller.commands import club_command

pytestmark = pytest.mark.system

TOKEN = "organiser-secret"


@pytest.fixture
def club(tmp_path):
    import uvicorn

    night = Tournament.create(tmp_path / "night", archive=tmp_path, name="Thursday club", game="abalone",
                              colours=["black", "white"], rounds=3, boards=["table1", "table2"])
    for name, rating in (("Ann Lee", 1700), ("Bo Chen", 1600), ("Cy Ode", 1500), ("Di Pop", 1400)):
        night.register(name, rating=rating)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_club_app(Club(tmp_path, tournament=night), token=TOKEN),
                                           host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=asyncio.run, args=(server.serve(),), daemon=True)
    thread.start()
    while not server.started:
        thread.join(0.02)
    yield night, f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)
    night.close()


def club_says(capsys, *argv):
    return run_command(club_command, ["club", *argv], capsys)


def test_the_organiser_pairs_enters_corrects_and_reads_the_standings_from_the_command_line(club, capsys):
    night, url = club
    status, out, err = club_says(capsys, "pair", "--club", url, "--token", TOKEN)
    assert status == 0, err
    lines = out.splitlines()
    assert lines == [f"round 1, board {g['number']} ({g['board']}): {g['first']} - {g['second']}"
                     for g in night.pairing_rows(1)]
    assert lines[0] == "round 1, board 1 (table1): Ann Lee - Cy Ode"
    assert club_says(capsys, "result", "1", "1", "1-0", "--club", url, "--token", TOKEN)[0] == 0
    assert club_says(capsys, "result", "1", "2", "1/2-1/2", "--club", url, "--token", TOKEN)[0] == 0
    status, out, err = club_says(capsys, "correct", "1", "2", "0-1", "Di Pop's flag fell first", "--club", url,
                                 "--token", TOKEN)
    assert status == 0, err
    assert night.corrections[-1]["reason"] == "Di Pop's flag fell first" and night.rounds[1][1].score == 0
    status, out, err = club_says(capsys, "standings", "--club", url)
    assert status == 0, err
    rows = out.splitlines()[1:]
    assert [row.split()[0] for row in rows] == ["1-2", "1-2", "3-4", "3-4"]
    assert {" ".join(row.split()[1:3]) for row in rows[:2]} == {"Ann Lee", "Bo Chen"}


def test_refusals_and_bad_input_are_one_line(club, capsys, monkeypatch):
    night, url = club
    monkeypatch.delenv("REEDBOARD_CLUB_TOKEN", raising=False)
    status, out, err = club_says(capsys, "pair", "--club", url)
    assert status == 2 and "token" in err and len(err.strip().splitlines()) == 1
    status, out, err = club_says(capsys, "pair", "--club", url, "--token", "guessed")
    assert status == 1 and "refused (403)" in err and len(err.strip().splitlines()) == 1
    status, out, err = club_says(capsys, "result", "2", "1", "1-0", "--club", url, "--token", TOKEN)
    assert status == 1 and "refused (404): round 2 has no game 1" in err
    monkeypatch.setenv("REEDBOARD_CLUB_TOKEN", TOKEN)
    status, out, err = club_says(capsys, "withdraw", "Zed", "--club", url)
    assert status == 1 and "'Zed'" in err
    status, out, err = club_says(capsys, "result", "one", "1", "1-0", "--club", url)
    assert status == 2 and "one" in err and "Traceback" not in err
    status, out, err = club_says(capsys, "standings", "--club", f"http://127.0.0.1:{free_port()}")
    assert status == 1 and "no club answers" in err and len(err.strip().splitlines()) == 1
    assert [e["type"] for e in night.events] == ["tournament", "player", "player", "player", "player"]
