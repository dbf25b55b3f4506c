"""A serial board behind a cable that can be pulled: the fake board (the Pico firmware's own logic
behind a real pty) reached through a stable device name, as a Pico on /dev/ttyACM0 would be; the
name vanishes while the cable is out. The `cable` fixture is in conftest.py."""

from __future__ import annotations

import serial

from reedboard.controller.games import GAMES, BigBalls
from reedboard.hal.mock.fakeboard import FakeBoard

START = BigBalls().occupied()  # the pieces on the board when the cable is first plugged in
UNPLUGGED = "the board is unplugged: plug it in again; the game waits"


class Cable:
    """A fake board behind a device name that vanishes while the cable is out."""

    NAME = "/dev/reedboard-pico"

    def __init__(self, game: str = "bigballs") -> None:
        self.fake = FakeBoard(game, occupied=GAMES[game]().occupied()).start()
        self.plugged = True
        self.ports: list = []

    def factory(self, port: str, **kwargs):
        assert port == self.NAME
        if not self.plugged:
            raise serial.SerialException(f"[Errno 2] could not open port {port}: No such file or directory")
        self.ports.append(serial.serial_for_url(self.fake.port, **kwargs))
        return self.ports[-1]

    def pull(self) -> None:
        self.plugged = False
        self.fake.stop()

    def plug(self, occupied) -> None:
        fake = FakeBoard(self.fake.board.name)  # a Pico booting: it reads the pieces as they stand
        for cell in set(occupied):
            fake.place(cell)
        self.fake = fake.start()
        self.plugged = True

    def close(self) -> None:
        self.fake.stop()
