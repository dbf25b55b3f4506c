"""`reedboard club` stops on SIGTERM, watchers connected or not, and its own broker with it."""

import asyncio
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest

from reedboard.controller.broadcast.club import mosquitto

pytestmark = pytest.mark.system

CLUB = [sys.executable, "-c", "import sys; from reedboard.controller.commands.cli import main; sys.exit(main())", "club"]


def test_the_club_stops_on_sigterm_with_watchers(tmp_path):
    websockets = pytest.importorskip("websockets")
    web, mqtt = mosquitto.free_port(), mosquitto.free_port()
    club = subprocess.Popen(CLUB + ["--listen", f"127.0.0.1:{web}", "--mqtt", f"127.0.0.1:{mqtt}",
                                    "--games", str(tmp_path / "club")], stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    async def watch():
        for _ in range(600):
            try:
                if httpx2.get(f"http://127.0.0.1:{web}/api/club").json()["connected"]:
                    break
            except httpx2.HTTPError:
                pass
            await asyncio.sleep(0.05)
        sockets = [await websockets.connect(f"ws://127.0.0.1:{web}/ws") for _ in range(5)]
        for socket in sockets:
            await socket.recv()
        spawned = [int(child) for task in Path(f"/proc/{club.pid}/task").iterdir()
                   for child in (task / "children").read_text().split()]
        club.send_signal(signal.SIGTERM)
        ended = await asyncio.to_thread(club.wait, 60)  # a guard: it ends in a few seconds
        for socket in sockets:
            await socket.close()
        return ended, spawned
    try:
        code, spawned = asyncio.run(watch())
        assert code in (0, -signal.SIGTERM)  # ended by the signal, after its shutdown
        for pid in spawned:  # its own broker (Mosquitto) ended with it
            for _ in range(100):
                if not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split()[2]:
                    break
                time.sleep(0.1)
            else:
                raise AssertionError(f"process {pid} outlived the club")
    finally:
        if club.poll() is None:
            club.kill()
            club.wait()
        club.stdout.close()
        club.stderr.close()
