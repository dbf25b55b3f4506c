"""A Pico on the master end of a pty, scripted by the test: it answers the host as the firmware
would (V with H and S, R with S), records what the host sends, and sends what the test tells it to."""

from __future__ import annotations

import os
import select
import threading
import time

from reedboard.hal.board import Board
from reedboard.hal.protocol import Line, LineSplitter, SeqCounter, decode, encode, encode_bitmap


def cells_of(board: Board, sensors) -> frozenset[str]:
    by_sensor = {address: cell for cell, address in board.sensor.items()}
    return frozenset(by_sensor[s] for s in sensors if s in by_sensor)


class FakePico:
    """A Pico on the master end of a pty: answers V with H and S, and R with S (unless told
    not to), records what the host sends, and sends what the test tells it to."""

    def __init__(self, board: Board, sensors=(), *, version: str = "1", rows: int | None = None,
                 answer_v: bool = True, answer_r: bool = True, send_s: bool = True) -> None:
        self.board = board
        self.count = board.rows * board.columns
        self.sensors = set(sensors)
        self.hello = f"{version} fake-1.0 {rows or board.rows} {board.columns} {board.led_count}"
        self.answer_v, self.answer_r, self.send_s = answer_v, answer_r, send_s
        self.master, self.slave = os.openpty()  # our slave fd stays open: the master never sees EIO
        self.path = os.ttyname(self.slave)
        self.seq = SeqCounter()
        self.received: list[Line | None] = []
        self.history: list[frozenset[int]] = []  # the sensors after each line sent
        self._cond = threading.Condition()
        self._write_lock = threading.RLock()
        self._closed = False
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()

    # what the board sends
    def write(self, data: bytes) -> None:
        with self._write_lock:
            view = memoryview(data)
            while view:
                written = os.write(self.master, view)
                view = view[written:]

    def send(self, type: str, payload: str = "") -> bytes:
        with self._write_lock:
            line = encode(type, self.seq.next(), payload)
            self.history.append(frozenset(self.sensors))
            self.write(line)
        return line

    def state(self) -> bytes:
        with self._write_lock:  # the bitmap of the state as it is when the line goes out
            return self.send("S", encode_bitmap(self.sensors, self.count))

    def change(self, *changes: str) -> bytes:
        with self._write_lock:  # the state and its line together, against an S from the thread
            for change in changes:
                index, sign = int(change[:-1]), change[-1]
                (self.sensors.add if sign == "+" else self.sensors.discard)(index)
            return self.send("C", " ".join(changes))

    def lose(self) -> None:
        """A line lost on the way: its sequence number is used, nothing arrives."""
        self.seq.next()

    def cells(self) -> frozenset[str]:
        return cells_of(self.board, self.sensors)

    # what the host sends
    def _loop(self) -> None:
        splitter = LineSplitter()
        while not self._closed:
            try:
                ready, _, _ = select.select([self.master], [], [], 0.02)
                data = os.read(self.master, 4096) if ready else b""
            except OSError:
                if self._closed:
                    return
                time.sleep(0.02)  # the host has not opened its end yet
                continue
            for raw in splitter.feed(data):
                line = decode(raw)
                with self._cond:
                    self.received.append(line)
                    self._cond.notify_all()
                if line is not None and line.type == "V" and self.answer_v:
                    self.send("H", self.hello)
                    if self.send_s:
                        self.state()
                elif line is not None and line.type == "R" and self.answer_r:
                    self.state()

    def wait_for(self, type: str, start: int = 0, timeout: float = 2.0) -> tuple[int, Line]:
        """The first line of `type` the host sent at or after position `start`."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for i in range(start, len(self.received)):
                    if self.received[i] is not None and self.received[i].type == type:
                        return i, self.received[i]
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"the host sent no {type} line within {timeout} s: {self.received}")
                self._cond.wait(left)

    def sent(self, type: str) -> list[Line]:
        with self._cond:
            return [line for line in self.received if line is not None and line.type == type]

    def unplug(self) -> None:
        self._closed = True
        self._thread.join(timeout=1)
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
