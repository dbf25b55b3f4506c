"""What an idle controller costs: CPU % of one core over an idle spell, one page open.

Starts `reedboard play GAME --hal sim` on a free loopback port in a subprocess (the code found
on PYTHONPATH, so another checkout can be measured the same way), opens one WebSocket page
connection (/ws), reads the first snapshot, then lets everything sit still and reads the
process's own CPU time (utime + stime from /proc/PID/stat) before and after.

    python bench/idle_cpu.py [--seconds 30] [--game bigballs] [--bare]

`--bare` measures a bare uvicorn serving one WebSocket instead: what the web server alone costs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import websockets

TICKS = os.sysconf("SC_CLK_TCK")

BARE = textwrap.dedent("""
    import sys, uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute

    async def ws(websocket):
        await websocket.accept()
        await websocket.send_text("{}")
        while (await websocket.receive())["type"] != "websocket.disconnect":
            pass

    uvicorn.run(Starlette(routes=[WebSocketRoute("/ws", ws)]), host="127.0.0.1", port=int(sys.argv[1]),
                log_level="warning")
""")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """The process's user and system time so far (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14 and 15)


async def wait_listening(port: int, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the controller exited with status {process.returncode}")
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        await asyncio.sleep(0.1)
    raise SystemExit(f"nothing listens on port {port} after {timeout:.0f} s")


async def idle(port: int, pid: int, seconds: float) -> tuple[float, int]:
    """CPU seconds the process used over `seconds` with one page open, and the snapshots it sent."""
    received = 0
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws") as page:
        await page.recv()
        await asyncio.sleep(2.0)  # the start's work (set-up, first snapshots) is over

        async def read() -> None:
            nonlocal received
            async for _ in page:
                received += 1

        reader = asyncio.create_task(read())
        before = cpu_seconds(pid)
        await asyncio.sleep(seconds)
        used = cpu_seconds(pid) - before
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader
    return used, received


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--game", default="bigballs")
    parser.add_argument("--bare", action="store_true", help="a bare uvicorn with one WebSocket instead")
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp, "config.toml")
        config.write_text("")
        if args.bare:
            command = [sys.executable, "-c", BARE, str(port)]
        else:
            command = [sys.executable, "-c", "import sys; from controller.commands.cli import main; sys.exit(main())",
                       "play", args.game, "--hal", "sim", "--listen", f"127.0.0.1:{port}",
                       "--games-dir", str(Path(tmp, "games")), "--config", str(config)]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            asyncio.run(wait_listening(port, process))
            used, received = asyncio.run(idle(port, process.pid, args.seconds))
        finally:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(10)
            if process.poll() is None:
                process.kill()
    what = "bare uvicorn, one WebSocket" if args.bare else f"reedboard play {args.game} --hal sim, one page open"
    print(f"{what}: {used:.2f} s of CPU in {args.seconds:.0f} s idle = {100 * used / args.seconds:.3f} % of a core"
          f" ({received} snapshots pushed; /proc resolution {1 / TICKS * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
