"""The computer's review of a game (`reedboard review`, the page's GET /api/games/NAME/review):
the first player's chance to win after every move, the final point the result, the blunders
marked with the better move, the same numbers whatever the machine's speed, and a review
worked out once and then read from the archive's index.

tests/traces holds traces only (what the board reported, frame by frame; a journal's first line
is a header of type "header"): `reedboard review` replays a trace to the game it gives first.
Node budgets are kept small here: the suite stays fast, and the sanity checked does not depend
on how deep the search sees.
"""

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from reedboard.controller.archive import reviews
from reedboard.controller.archive.index import Archive
from reedboard.controller.commands.cli import main
from reedboard.controller.games import BigBalls, game_class
from reedboard.controller.opponent.review import REVIEW_VERSION, review
from reedboard.controller.persist.trace import read_trace
from reedboard.controller.session.replay import replay
from reedboard.controller.web import archive_api

from archive_games import A7_GAME, bigballs, played

pytestmark = pytest.mark.component

TRACES = sorted((Path(__file__).parent / "traces").glob("*.jsonl"))
NODES = 150


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def first_line(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8").split("\n", 1)[0])


def test_the_held_files_are_traces():
    assert TRACES and all(first_line(path).get("type") != "header" and "game" in first_line(path) for path in TRACES)


@pytest.mark.parametrize("trace", TRACES, ids=lambda path: path.stem)
def test_every_held_trace_is_reviewed_down_to_its_result(capsys, trace):
    game = replay(read_trace(trace), source=str(trace)).referee.game
    status, out, err = run(capsys, "review", str(trace), "--nodes", str(NODES), "--json")
    assert status == 0, err
    data = json.loads(out)
    points = data["points"]
    assert [point["ply"] for point in points] == list(range(len(game.move_stack) + 1))
    assert data["nodes"] == NODES and data["version"] == REVIEW_VERSION and data["first"] in game.players
    assert all(0.0 <= point["p"] <= 1.0 for point in points)
    assert all(point["loss"] >= 0 and point["mover"] in game.players for point in points[1:])
    for point in points[1:]:
        assert (point["mark"] is None) == (point["better"] is None) == (point["cells"] is None)
        assert point["mark"] in (None, "mistake", "blunder")
    outcome = game.outcome()
    if outcome is None:
        assert data["result"] is None
    else:
        expected = 0.5 if outcome.winner is None else 1.0 if outcome.winner == data["first"] else 0.0
        assert data["result"] == expected and points[-1]["p"] == expected


def test_the_lines_end_with_the_result_and_the_marks_per_player(capsys):
    trace = next(path for path in TRACES if path.stem == "bigballs-game-to-a7")
    status, out, err = run(capsys, "review", str(trace), "--nodes", str(NODES))
    lines = out.splitlines()
    assert status == 0 and err == ""
    assert lines[0] == f"Black's chance to win after every move ({NODES} nodes a search)"
    assert lines[1].split() == ["0.", "start", lines[1].split()[-1]]
    assert lines[16].split()[:5] == ["15.", "4", "a6xa7", "black", "100%"]
    assert lines[17] == "result: black won"
    assert lines[18].startswith("Black: ") and lines[19].startswith("White: ") and len(lines) == 20


def a7_review(**options):
    return review(bigballs(), A7_GAME, NODES, **options).data()


def test_the_same_game_gives_the_same_numbers_on_a_slow_machine_and_a_fast_one():
    once = a7_review()
    assert a7_review() == once

    hours = iter(range(0, 10 ** 9, 3600))  # every look at the clock an hour later: only nodes stop a search
    assert a7_review(clock=lambda: float(next(hours))) == once
    assert once["points"][-1]["p"] == 1.0 and once["result"] == 1.0


def test_a_move_that_throws_away_the_win_is_a_blunder_with_the_better_move_lit():
    # Black's stone 3 stands on a6 and the die shows 3: a6-a7 wins. White's only stone waits on c5,
    # one step from b6: moving there instead hands White the capture and the way up.
    start = BigBalls(black={"a6": 3, "g1": 1}, white={"c5": 1}, balls=["e2"], first="black")
    data = review(start, ["3 a6-b6"], 400).data()
    blunder = data["points"][1]
    assert blunder["mark"] == "blunder" and blunder["loss"] >= 0.2
    assert blunder["better"] == "3 a6-a7" and blunder["cells"] == {"from": ["a6"], "to": ["a7"]}
    assert data["points"][0]["p"] > 0.7  # before the roll: most rolls let stone 3 up to a7

    good = review(start, ["3 a6-a7"], 400).data()
    assert good["points"][1] == {"ply": 1, "move": "3 a6-a7", "mover": "black", "p": 1.0, "loss": 0.0,
                                 "mark": None, "better": None, "cells": None, "rolled": False}
    assert good["result"] == 1.0


def test_a_resignation_ends_the_graph_at_the_result(tmp_path):
    game = bigballs()
    for text in A7_GAME[:3]:
        game.play(text)
    game.resign(game.turn)  # White, to move, resigns: Black, first, wins
    data = reviews.compute(reviews.job_of("resigned", game, NODES))
    assert data["result"] == 1.0 and data["points"][-1]["p"] == 1.0 and len(data["points"]) == 4

    abalone = game_class("abalone")()
    for text in ("A1B2", "I5H5"):
        abalone.play(text)
    abalone.agree_draw()
    drawn = reviews.compute(reviews.job_of("drawn", abalone, NODES))
    assert drawn["result"] == 0.5 and drawn["points"][-1]["p"] == 0.5 and drawn["first"] == "black"


# --- kept in the archive's index ---------------------------------------------------------------------------
@pytest.fixture
def counted(monkeypatch):
    """Every review worked out, counted (worked out here, not in a worker process)."""
    made = []
    compute = reviews.compute

    def counting(job):
        made.append(job.name)
        return compute(job)

    monkeypatch.setattr(reviews, "compute", counting)
    monkeypatch.setattr(reviews, "REVIEW_NODES", NODES)
    return made


def test_an_archived_game_is_reviewed_once_and_then_read_from_the_index(club, counted, capsys):
    with Archive(club) as archive:
        archive.refresh()
        oldest = archive.games()[-1]["id"]
        first = archive.review(oldest)
        assert archive.review(oldest) == first and counted == [f"{oldest}.jsonl"]
    with Archive(club) as archive:  # kept on disk, across a rebuild of the index too
        archive.rebuild()
        assert archive.review(oldest) == first and len(counted) == 1
        assert archive.review(oldest, nodes=NODES + 1)["nodes"] == NODES + 1 and len(counted) == 2

    status, out, err = run(capsys, "review", oldest[:12], "--dir", str(club), "--json", "--nodes", str(NODES))
    assert status == 0 and json.loads(out) == first and len(counted) == 2, err
    status, out, err = run(capsys, "review", str(club / f"{oldest}.jsonl"), "--nodes", str(NODES))
    assert status == 0 and "result: black won" in out and len(counted) == 2


def test_a_review_is_worked_out_again_when_the_moves_change(tmp_path, counted):
    games = tmp_path / "games"
    path = played(games, bigballs(), A7_GAME[:4])
    with Archive(games) as archive:
        archive.refresh()
        before = archive.review(path.name)
        assert archive.review(path.name) == before and len(counted) == 1
    path.unlink()
    played(games, bigballs(), A7_GAME[:5])
    with Archive(games) as archive:
        archive.refresh()
        assert len(archive.review(path.name)["points"]) == 6 and len(counted) == 2
        assert archive.db.execute("SELECT COUNT(*) FROM reviews").fetchone()[0] == 1


@pytest.mark.parametrize("argv, words", [
    (["review", "no-such-game"], "no game 'no-such-game'"),
    (["review", "2026"], "start of several games"),
    (["review", "--nodes", "0", "x"], "a number of nodes is 1 to 10000000"),
])
def test_a_bad_game_is_one_line_and_status_2(club, capsys, argv, words):
    status, out, err = run(capsys, *argv, "--dir", str(club))
    assert status == 2 and out == "" and words in err and len(err.strip().splitlines()) == 1


def test_a_file_that_is_no_game_is_one_line_and_status_2(tmp_path, capsys):
    for text in ('{"something": 1}\n', "not a record\n", '{"type": "header", "game": "nonesuch"}\n'):
        path = tmp_path / "file.jsonl"
        path.write_text(text)
        status, out, err = run(capsys, "review", str(path))
        assert status == 2 and out == "" and len(err.strip().splitlines()) == 1 and str(path) in err, err


# --- the page's API --------------------------------------------------------------------------------------
@pytest.fixture
def page(club, tmp_path, monkeypatch, counted):
    from reedboard.controller.core.reconcile import Settings
    from reedboard.controller.session.play_session import PlaySession
    from reedboard.controller.web import create_app

    workers = []

    def in_a_thread():
        workers.append(reviews.ReviewWorker(processes=False))
        return workers[-1]

    monkeypatch.setattr(archive_api, "ReviewWorker", in_a_thread)
    session = PlaySession("bigballs", games_dir=tmp_path / "live", settings=Settings(settle=0.15, grace=0.3),
                          setup="given")
    with TestClient(create_app(session, token="t", games_dir=club), base_url="http://127.0.0.1") as client:
        yield client, workers


def test_the_page_gets_the_review_in_its_shape_and_then_from_the_index(page, counted):
    client, workers = page
    games = client.get("/api/games").json()
    oldest = games[-1]["id"]
    answer = client.get(f"/api/games/{oldest}/review")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert set(data) == {"first", "nodes", "version", "points", "result"}
    assert data["first"] == "black" and data["nodes"] == NODES and data["result"] == 1
    assert data["points"][0] == {"ply": 0, "p": data["points"][0]["p"]}
    assert all(set(point) == {"ply", "move", "mover", "p", "loss", "mark", "better", "cells", "rolled"}
               for point in data["points"][1:])
    assert [point["move"] for point in data["points"][1:]] == A7_GAME and data["points"][-1]["p"] == 1

    again = client.get(f"/api/games/{oldest}.jsonl/review")
    assert again.status_code == 200 and again.json() == data
    assert len(counted) == 1 and len(workers) == 1 and workers[0].computed == 1


def test_the_page_is_told_in_one_line_of_an_unknown_game(page, counted):
    client, _ = page
    for name in ("20000101-000000-bigballs", "x" * 300):
        answer = client.get(f"/api/games/{name}/review")
        assert answer.status_code == 404 and list(answer.json()) == ["error"] and "\n" not in answer.json()["error"]
    assert counted == []


def test_a_roll_where_a_big_ball_move_was_better_is_weighed_against_the_six_faces():
    """Before White's 14th move of the A7 game the search prefers taking Black's stone on a6 with
    the big ball from a7 to rolling; the roll's worth is the mean of the six faces' best moves."""
    from reedboard.controller.opponent.review import FACES, Searcher, _weighed

    game = bigballs()
    for move in A7_GAME[:13]:
        game.play(move)
    search = Searcher(4000, None)
    assert game.format_move(search.best(game)[0]) == "BB a7xa6"
    faces = [search.after(game, search.best(game, face)[0], "white") for face in FACES]
    assert search.rolling(game, "white") == pytest.approx(sum(faces) / 6)
    better, loss, rolled = _weighed(search, game, game.parse_move(A7_GAME[13]), "white")
    by_rolling = search.after(game, search.best(game)[0], "white") - search.rolling(game, "white")
    assert loss >= round(by_rolling, 4) - 1e-9 and 0 < loss < 1
    assert rolled == (game.format_move(better) == "BB a7xa6")
    assert [str(m) for m in game.move_stack] == A7_GAME[:13]  # the position is left as it was
