"""Serial bytes per second between the Pico firmware and the host, at the heartbeat rate.

Runs the firmware's own logic on this computer behind a pty (the fake board), greets it as
the host does, and counts what arrives while the board is idle (heartbeats only) and while
pieces move (a change a second), and what a light frame costs on the way back.

Usage: python bench/serial_rate.py [--seconds N]
"""

from __future__ import annotations

import argparse
import time

import serial

from reedboard.controller.games import GAMES
from reedboard.hal.mock.fakeboard import FakeBoard
from reedboard.hal.interfaces import Light, LightFrame
from reedboard.hal.protocol import encode
from reedboard.hal.serial_board import light_payload


def count(port: serial.Serial, seconds: float, during=None) -> tuple[int, int]:
    received = lines = 0
    end = time.monotonic() + seconds
    next_move = time.monotonic() + 0.5
    while time.monotonic() < end:
        data = port.read(port.in_waiting or 1)
        received += len(data)
        lines += data.count(b"\n")
        if during and time.monotonic() >= next_move:
            during()
            next_move += 1.0
    return received, lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    for game, cell in (("bigballs", "a5"), ("offboard", "C3")):
        with FakeBoard(game, occupied=GAMES[game]().occupied()) as fake:
            port = serial.Serial(fake.port, timeout=0.05)
            port.write(encode("V", 0, "1"))
            time.sleep(0.3)
            port.reset_input_buffer()
            idle, idle_lines = count(port, args.seconds)
            moves = iter(range(10_000))
            busy, busy_lines = count(port, args.seconds,
                                     lambda: (fake.lift if next(moves) % 2 == 0 else fake.place)(cell))
            frame = LightFrame({c: Light("movable") for c in fake.board.cells})
            light_line = len(encode("L", 0, light_payload(frame, fake.board)))
            port.close()
        print(f"{game:9s} idle (heartbeat): {idle / args.seconds:7.1f} bytes/s, {idle_lines / args.seconds:4.1f} lines/s"
              f" | a change a second: {busy / args.seconds:7.1f} bytes/s"
              f" | one light frame: {light_line} bytes")


if __name__ == "__main__":
    main()
