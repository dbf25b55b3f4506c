"""The computer's reviews on a board served to a club's Wi-Fi (docs/players.md, "The review";
controller/web/archive_api.py): a review kept is anyone's, one to work out is the owner's and a
spectator's address has only a few; a request whose client went away stops its review and
keeps nothing; the game that goes on is reviewed a move at a time; a review worker that dies
is replaced and every request still waiting is answered; and what the archive's index keeps
is checked before it is used (its size before it is read, then its shape), a bad row worked
out again and replaced, in the page and in `reedboard review` alike.

Against the real server (uvicorn on a port the system chose) with a real worker process; the
worker is watched through /proc only to know when it works and whether it lives.
"""

import asyncio
import http.client
import json
import os
import random
import sqlite3
import threading
import tracemalloc
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from archive_games import A7_GAME, bigballs, played
from polling import until
from reedboard.controller.archive import reviews
from reedboard.controller.archive.index import INDEX_NAME, Archive
from reedboard.controller.commands.cli import main
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.games import game_class
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.web.allowance import Allowance
from reedboard.controller.web.background import served
from reedboard.controller.web.limits import Limits

pytestmark = pytest.mark.system

TOKEN = "s3cret-token"
OWNER = {"X-Reedboard-Token": TOKEN}
NODES = 150  # small searches: quick reviews
CYCLE = ["C3D3", "G5F5", "D3C3", "F5G5"]  # Abalone: a marble each stepped out and back, as long as it takes
WAIT = 60.0  # s at most for anything awaited (a loaded machine); met, the test goes on at once


def abalone():
    return game_class("abalone")()


def session_for(tmp_path):
    return PlaySession("bigballs", games_dir=tmp_path / "live", settings=Settings(settle=0.15, grace=0.3),
                       rng=random.Random(7), setup="given")


@pytest.fixture
def board(tmp_path):
    """serve(limits=None) -> the URL of the real server over tmp_path/games, with the token."""
    stack = []

    def serve(limits=None):
        context = served(session_for(tmp_path), TOKEN, games_dir=tmp_path / "games", limits=limits, timeout=WAIT)
        stack.append(context)
        return context.__enter__()
    yield serve
    for context in reversed(stack):
        context.__exit__(None, None, None)


def ask(url, path, headers=None):
    """(status, JSON answer, headers) of GET url/api/games/NAME/review."""
    request = urllib.request.Request(f"{url}/api/games/{path.name}/review", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as answer:
            return answer.status, json.load(answer), answer.headers
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"null"), refused.headers


def kept_rows(games: Path, path: Path) -> list[tuple[str, int]]:
    """The index's reviews of the journal: (digest, size of its data)."""
    with sqlite3.connect(games / INDEX_NAME) as db:
        return db.execute("SELECT digest, length(CAST(data AS BLOB)) FROM reviews WHERE name = ?",
                          (path.name,)).fetchall()


def plant(games: Path, path: Path, data: str, nodes: int = NODES) -> None:
    """The index's review of the journal at `nodes`, its data replaced by `data`."""
    with Archive(games) as archive:
        archive.refresh()
        job = archive.review_job(path.name, nodes)
        with archive.db:
            archive.db.execute("INSERT OR REPLACE INTO reviews VALUES (?, ?, ?, ?)",
                               (job.name, job.digest, job.game_digest, data))


def review_of(path: Path, nodes: int = NODES) -> dict:
    with Archive(path.parent) as archive:
        archive.refresh()
        return reviews.compute(archive.review_job(path.name, nodes))


# --- the worker process, seen through /proc -----------------------------------------------------------------
def children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found |= {int(child) for child in (task / "children").read_text().split()}
        except OSError:
            pass
    return found


def workers(pid: int) -> set[int]:
    """The spawned worker processes among `pid`'s children (not multiprocessing's tracker)."""
    found = set()
    for child in children(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command:
            found.add(child)
    return found


def stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def alive(pid: int) -> bool:
    fields = stat(pid)
    return fields is not None and fields[0] != "Z"


def working(pid: int) -> bool:
    """Is the worker's main thread on the processor (or waiting for it), not waiting for work?"""
    fields = stat(pid)
    return fields is not None and fields[0] == "R"


def cpu_ticks(pid: int) -> int:
    fields = stat(pid)
    return int(fields[11]) + int(fields[12]) if fields else 0


def new_worker(before: set[int]) -> int:
    (worker,) = until(lambda: workers(os.getpid()) - before, "the review worker")
    return worker


# --- spectators and the owner -------------------------------------------------------------------------------
def test_a_spectators_address_has_a_few_reviews_worked_out_and_every_kept_one(board, tmp_path, monkeypatch):
    monkeypatch.setattr(reviews, "REVIEW_NODES", NODES)
    games = tmp_path / "games"
    paths = [played(games, bigballs(), A7_GAME[:n], day=n) for n in (2, 3, 4)]
    url = board(Limits(reviews_per_address=2, review_interval=3600.0))
    for path in paths[:2]:
        status, data, _ = ask(url, path)  # a spectator: no token
        assert status == 200 and data == review_of(path)
    status, refused, headers = ask(url, paths[2])
    assert status == 429 and int(headers["Retry-After"]) > 0
    assert "try again in" in refused["error"] and "\n" not in refused["error"]
    assert kept_rows(games, paths[2]) == []  # nothing worked out for the refused one
    status, data, _ = ask(url, paths[2], OWNER)  # the owner's page: always
    assert status == 200 and data == review_of(paths[2])
    for path in paths:  # once kept, a review is anyone's
        status, data, _ = ask(url, path)
        assert status == 200 and data == review_of(path)


def test_an_address_has_its_allowance_back_one_at_a_time():
    now = [0.0]
    allowance = Allowance(2, 300.0, clock=lambda: now[0])
    assert [allowance.take("a"), allowance.take("a")] == [0.0, 0.0]
    assert allowance.take("a") == 300.0 and allowance.take("b") == 0.0  # another address has its own
    now[0] = 299.0
    assert allowance.take("a") == 1.0
    now[0] = 300.0
    assert allowance.take("a") == 0.0 and allowance.take("a") == 300.0
    now[0] = 1000.0  # long after: whole again, and no more than whole
    assert [allowance.take("a") for _ in range(3)] == [0.0, 0.0, 300.0]


def test_a_review_nobody_waits_for_any_more_is_stopped_and_kept_for_nobody(board, tmp_path):
    """A spectator asks for a long game's review and goes away: the worker stops it (it lives
    on, for the next), and nothing of it is kept. Were it worked out to the end, the owner's
    next review, which waits behind it for the one worker, would find it kept."""
    games = tmp_path / "games"
    short = played(games, bigballs(), A7_GAME[:2], day=0)
    long = played(games, abalone(), CYCLE * 50, day=1, result="agreed")  # at 4,000 nodes: many seconds
    after = played(games, bigballs(), A7_GAME[:3], day=2)
    url = board()
    before = workers(os.getpid())
    assert ask(url, short, OWNER)[0] == 200
    worker = new_worker(before)
    until(lambda: not working(worker), "the worker waiting for work")
    host, port = url.removeprefix("http://").split(":")
    spectator = http.client.HTTPConnection(host, int(port), timeout=WAIT)
    spectator.request("GET", f"/api/games/{long.name}/review")
    until(lambda: working(worker), "the worker working out the long review")
    spectator.close()  # gone, without waiting for the answer
    status, data, _ = ask(url, after, OWNER)
    assert status == 200 and len(data["points"]) == 4
    assert kept_rows(games, long) == []
    assert alive(worker) and workers(os.getpid()) - before == {worker}  # stopped, not killed


def test_the_game_that_goes_on_is_reviewed_a_move_at_a_time(board, tmp_path, monkeypatch):
    """After two more moves only those two are searched: the review kept of the first six moves
    is taken as it is (here marked, so that a review worked out anew would show)."""
    monkeypatch.setattr(reviews, "REVIEW_NODES", NODES)
    games = tmp_path / "games"
    path = played(games, bigballs(), A7_GAME[:6])  # unfinished: it goes on
    url = board()
    status, first, _ = ask(url, path, OWNER)
    assert status == 200 and len(first["points"]) == 7 and first["result"] is None
    first["points"][1]["p"] = 0.4321
    plant(games, path, json.dumps(first))
    path.unlink()
    assert played(games, bigballs(), A7_GAME[:8]) == path  # two moves more, the same journal
    status, second, _ = ask(url, path, OWNER)
    whole = review_of(path)
    assert status == 200 and second["points"][1]["p"] == 0.4321  # kept, not searched again
    assert second["points"][2:] == whole["points"][2:] and second["points"][0] == whole["points"][0]
    assert len(kept_rows(games, path)) == 1  # the review of the first six moves replaced


def test_a_review_kept_of_the_first_moves_gives_the_numbers_of_the_whole_game():
    game = bigballs()
    for move in A7_GAME[:9]:
        game.play(move)
    earlier = reviews.compute(reviews.job_of("g", game, NODES))
    for move in A7_GAME[9:12]:
        game.play(move)
    game.resign(game.turn)  # and then it ended otherwise than by its rules
    job = reviews.job_of("g", game, NODES)
    whole = reviews.compute(job)
    job.earlier = earlier
    assert reviews.valid(earlier, job, earlier=True) and reviews.compute(job) == whole
    earlier["points"][3]["mover"] = "white"  # not who made that move: the whole game is searched
    assert reviews.compute(job) == whole


def test_a_review_asked_for_twice_goes_on_for_the_one_still_waiting():
    game = bigballs()
    for move in A7_GAME[:6]:
        game.play(move)
    job = reviews.job_of("g", game, NODES)
    worker = reviews.ReviewWorker(processes=False)

    async def one_leaves():
        leaving, staying = (asyncio.ensure_future(worker.review(job)) for _ in range(2))
        await asyncio.sleep(0)
        leaving.cancel()
        return await asyncio.wait_for(staying, WAIT)
    try:
        assert asyncio.run(one_leaves()) == reviews.compute(job) and worker.computed == 1
    finally:
        worker.close()


# --- the worker dies --------------------------------------------------------------------------------------
def test_a_worker_killed_under_waiting_requests_is_replaced_and_each_is_answered(board, tmp_path, monkeypatch):
    monkeypatch.setattr(reviews, "REVIEW_NODES", 1000)
    games = tmp_path / "games"
    path = played(games, abalone(), CYCLE * 3, day=1, result="agreed")  # 0.3 s of a processor's time
    other = played(games, bigballs(), A7_GAME[:3], day=2)
    url = board()
    before = workers(os.getpid())
    answers = []
    asking = [threading.Thread(target=lambda: answers.append(ask(url, path, OWNER))) for _ in range(2)]
    for thread in asking:
        thread.start()
    worker = new_worker(before)
    start = cpu_ticks(worker)
    # past its start (0.15 s of processor), at the review
    until(lambda: working(worker) and cpu_ticks(worker) > start + 20, "the worker working on the review")
    os.kill(worker, 9)
    for thread in asking:
        thread.join(WAIT)
    assert [status for status, _, _ in answers] == [200, 200], answers  # asked again of a new worker
    assert answers[0][1] == answers[1][1] and len(answers[0][1]["points"]) == len(CYCLE) * 3 + 1
    (replaced,) = workers(os.getpid()) - before
    assert replaced != worker and not alive(worker)
    os.kill(replaced, 9)  # dead while waiting for work: the next review starts another
    until(lambda: not alive(replaced), "the worker's end")
    status, data, _ = ask(url, other, OWNER)
    assert status == 200 and len(data["points"]) == 4
    assert answers[0][1] == review_of(path, 1000)  # the numbers of a review worked out here


# --- what the index keeps --------------------------------------------------------------------------------
BAD_ROWS = {
    "not JSON": lambda good: "{not json",
    "another shape": lambda good: json.dumps({"points": good["points"]}),
    "another game's points": lambda good: json.dumps({**good, "points": good["points"][:-1]}),
    "a point of another shape": lambda good: json.dumps(
        {**good, "points": [good["points"][0], {"ply": 1, "p": "most"}, *good["points"][2:]]}),
    "a chance above 1": lambda good: json.dumps(
        {**good, "points": [{"ply": 0, "p": 7}, *good["points"][1:]]}),
    "too big for its moves": lambda good: json.dumps(good) + " " * 100_000,
    "a number": lambda good: 12,
}


@pytest.mark.parametrize("kind", BAD_ROWS)
def test_a_bad_row_of_the_index_is_worked_out_again_and_replaced(board, tmp_path, monkeypatch, kind):
    monkeypatch.setattr(reviews, "REVIEW_NODES", NODES)
    games = tmp_path / "games"
    path = played(games, bigballs(), A7_GAME[:4], day=1)
    good = review_of(path)
    plant(games, path, BAD_ROWS[kind](good))
    url = board()
    status, data, _ = ask(url, path, OWNER)
    assert status == 200 and data == good
    ((_, size),) = kept_rows(games, path)
    assert size == len(json.dumps(good, ensure_ascii=False, separators=(",", ":")).encode())


@pytest.mark.parametrize("kind", ["not JSON", "another shape", "a point of another shape"])
def test_reedboard_review_works_a_bad_row_out_again(tmp_path, capsys, kind):
    games = tmp_path / "games"
    path = played(games, bigballs(), A7_GAME, day=1)
    good = review_of(path)
    plant(games, path, BAD_ROWS[kind](good))
    status = main(["review", path.stem, "--dir", str(games), "--nodes", str(NODES), "--json"])
    out, err = capsys.readouterr()
    assert status == 0 and json.loads(out) == good, err
    assert main(["review", path.stem, "--dir", str(games), "--nodes", str(NODES)]) == 0
    assert "result: black won" in capsys.readouterr().out
    ((_, size),) = kept_rows(games, path)
    assert size < reviews.size_limit(len(A7_GAME))


def test_a_huge_row_is_never_read_into_memory(tmp_path):
    games = tmp_path / "games"
    path = played(games, bigballs(), A7_GAME[:4], day=1)
    plant(games, path, json.dumps({"points": []}) + " " * 48_000_000)
    with Archive(games) as archive:
        archive.refresh()
        tracemalloc.start()
        try:
            job = archive.review_job(path.name, NODES)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert job.cached is None and peak < 4_000_000
        assert archive.review(path.name, NODES) == review_of(path)
    assert kept_rows(games, path)[0][1] < reviews.size_limit(4)
