"""What an idle board costs the host: the serial reader's wake-ups per second and the CPU time.

Runs the fake board (the Pico firmware's own logic behind a pty) in a separate process, so its
own scanning loop is not counted, opens a SerialBoard on its port, takes frames as the referee
would, and while nothing moves (the board sends only its heartbeat) counts:

- the reader thread's wake-ups: its context switches, from /proc/self/task/TID/status;
- the reads it made of the port (through a counting wrapper around the port);
- this process's CPU time, as a percentage of one core.

Usage: python bench/serial_idle.py [--seconds N] [--game bigballs|offboard]
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import threading
import time
from pathlib import Path

import serial

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reedboard.hal.board import load_board  # noqa: E402
from reedboard.hal.mock.fakeboard import CountingPort  # noqa: E402
from reedboard.hal.serial_board import SerialBoard  # noqa: E402


def switches(thread: threading.Thread) -> int:
    """The thread's context switches so far (voluntary: it slept; involuntary: it was preempted)."""
    total = 0
    for line in Path(f"/proc/self/task/{thread.native_id}/status").read_text().splitlines():
        if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
            total += int(line.split()[1])
    return total


async def measure(port: str, game: str, seconds: float) -> dict:
    ports: list[CountingPort] = []

    def factory(*args, **kwargs) -> CountingPort:
        ports.append(CountingPort(serial.serial_for_url(*args, **kwargs)))
        return ports[-1]

    board = SerialBoard(load_board(game=game), port, serial_factory=factory)
    frames = board.frames()
    try:
        await asyncio.wait_for(frames.__anext__(), 5.0)  # in step with the board
        pump = asyncio.create_task(_drain(frames))
        reader = next(t for t in threading.enumerate() if t.name == "reedboard-serial-reader")
        await asyncio.sleep(0.5)
        woke, reads, lines = switches(reader), ports[-1].reads, board.stats.lines_ok
        cpu, wall = time.process_time(), time.monotonic()
        await asyncio.sleep(seconds)
        cpu, wall = time.process_time() - cpu, time.monotonic() - wall
        result = {"wake-ups/s": (switches(reader) - woke) / wall, "reads/s": (ports[-1].reads - reads) / wall,
                  "lines/s": (board.stats.lines_ok - lines) / wall, "cpu %": 100 * cpu / wall}
        pump.cancel()
        return result
    finally:
        board.close()


async def _drain(frames) -> None:
    async for _ in frames:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--game", default="bigballs", choices=("bigballs", "offboard"))
    args = parser.parse_args()
    fake = subprocess.Popen([sys.executable, "-m", "reedboard.controller.commands.cli", "fake-board", args.game], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        first = fake.stdout.readline()
        if not first.startswith("port: "):
            sys.exit(f"the fake board did not start: {first!r}")
        result = asyncio.run(measure(first.split()[1], args.game, args.seconds))
    finally:
        fake.stdin.write("quit\n")
        fake.stdin.close()
        fake.wait(timeout=10)
    print(f"idle {args.game} board over {args.seconds:g} s: "
          + ", ".join(f"{name} {value:.2f}" for name, value in result.items()))


if __name__ == "__main__":
    main()
