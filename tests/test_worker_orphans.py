"""The worker processes the board starts end when the board's process dies, even by kill -9
(which lets the board say nothing): the computer's, the one a game's review is worked out in,
and multiprocessing's resource tracker; none lives on, and none works on for nobody."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from archive_games import played
from command_line import start_reedboard
from conftest import free_port
from polling import until
from reedboard.controller.games import game_class

pytestmark = pytest.mark.system

BOARD = """
import sys, time
from reedboard.controller.opponent.worker import Thinker
thinker = Thinker(1.0)
thinker.warm_up()
thinker._pool().submit(int).result()
print("ready", flush=True)
time.sleep(600)
"""


def children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(child) for child in (task / "children").read_text().split()}
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_the_worker_ends_when_the_board_is_killed():
    board = subprocess.Popen([sys.executable, "-c", BOARD], stdout=subprocess.PIPE)
    try:
        assert board.stdout.readline().strip() == b"ready"
        spawned = children(board.pid)
        assert spawned  # the worker (and the resource tracker)
        os.kill(board.pid, signal.SIGKILL)
        board.wait()
        for _ in range(200):  # each looks at its parent every half second
            if not any(alive(pid) for pid in spawned):
                break
            time.sleep(0.1)
        assert not [pid for pid in spawned if alive(pid)]
    finally:
        if board.poll() is None:
            board.kill()
        board.stdout.close()


CONFIG = '[play]\nsettle = 0.15\ngrace = 0.3\n[board]\nbackend = "sim"\n'
CYCLE = ["C3D3", "G5F5", "D3C3", "F5G5"]  # Abalone: a marble each stepped out and back
WAIT = 60.0  # s at most for anything awaited (a loaded machine)


def spawned_workers(pid: int) -> set[int]:
    """The spawned worker processes among `pid`'s children (not the resource tracker)."""
    found = set()
    for child in children(pid):
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.add(child)
        except OSError:
            pass
    return found


def cpu_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def long_game(games: Path, plies: int) -> Path:
    """An Abalone game of `plies` moves, drawn by agreement: its journal written at once (the
    journal's own writer syncs every line)."""
    path = played(games, game_class("abalone")(), CYCLE, result="agreed")
    header, *moves, result = path.read_text("utf-8").splitlines()
    moves = [json.dumps({"type": "move", "t": float(t), "move": CYCLE[t % len(CYCLE)]}) for t in range(plies)]
    path.write_text("\n".join([header, *moves, result]) + "\n", "utf-8")
    return path


def test_no_worker_outlives_reedboard_play_killed_while_it_reviews(tmp_path):
    """`reedboard play` against the computer, asked for the review of a long game (minutes of
    searching), is killed with SIGKILL: its review worker, its computer's worker and the
    resource tracker all end, the review unfinished."""
    games = tmp_path / "games"
    long = long_game(games, 800)
    config = tmp_path / "config.toml"
    config.write_text(CONFIG, "utf-8")
    port, log = free_port(), tmp_path / "play.log"
    env = dict(os.environ, LANGUAGE="en", XDG_CONFIG_HOME=str(tmp_path / "xdg-config"),
               XDG_DATA_HOME=str(tmp_path / "xdg-data"))
    with open(log, "wb") as output:
        board = start_reedboard("play", "abalone", "--vs", "computer:1", "--config", config, "--games-dir", games,
                                "--listen", f"127.0.0.1:{port}", installed=None,
                                stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT, env=env)
    try:
        def up():
            if board.poll() is not None:
                raise AssertionError(f"reedboard play ended: {log.read_text()[-2000:]}")
            return f"web view: http://127.0.0.1:{port}/" in log.read_text("utf-8", "replace")
        until(up, "the board's web view")

        def answering():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/auth", timeout=WAIT):
                    return True
            except OSError:
                return False
        until(answering, "the board's web view to answer")
        computers = until(lambda: spawned_workers(board.pid), "the computer's worker")

        answers = []

        def ask():  # answered never: the board is killed first
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/{long.name}/review",
                                            timeout=WAIT) as answer:
                    answers.append(answer.read())
            except OSError as error:
                answers.append(error)
        threading.Thread(target=ask, daemon=True).start()

        def reviewing():  # past its start (0.15 s of processor): at the review
            assert not answers, answers
            return [pid for pid in spawned_workers(board.pid) - computers if cpu_ticks(pid) > 20]
        until(reviewing, "the review worker at work")
        spawned = children(board.pid)
        assert len(spawned) >= 3  # the two workers and the resource tracker
        os.kill(board.pid, signal.SIGKILL)
        board.wait()
        until(lambda: not any(alive(pid) for pid in spawned), "every worker's end", timeout=20)
    finally:
        if board.poll() is None:
            board.kill()
            board.wait()
