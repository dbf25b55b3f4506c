"""The computer's worker process ends when the board's process dies, even by kill -9 (which
lets the board say nothing): no worker, and no multiprocessing resource tracker, lives on."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

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
