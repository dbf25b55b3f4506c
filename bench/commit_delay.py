"""The commit delay on every backend: from a hand's last touch of the board to the move counted.

Usage: python bench/commit_delay.py [--backends sim,gpio,serial,pico] [--rounds N] [--pico-rounds N]
       [--seed S]

The same moves on each backend: Big Balls from its start, a run of big-ball moves, each of which
counts once its debounce is over (no longer move can grow out of it). A hand lifts the ball, waits
until the referee has seen it go and a moment more, and puts it down one hollow lower. The delay
is from putting it down to the referee deciding the move, with the referee running live
(controller.session.live.run) on the real clock, as at the table, the board showing its lights.

- sim: the simulated board (hal.sim): its frames come at once.
- gpio: the gpio backend scanning the mock matrix (hal.mock.matrix) on gpiozero's mock pins.
- serial: the serial backend on a pty to the fake board (hal.mock.fakeboard: the firmware's own
  logic, on this computer).
- pico: the serial backend on the emulated Pico running MicroPython and the firmware
  (pico_emulator/; left out, saying why, without node, rp2040js and MicroPython's Pico build).
  The emulation runs slower than real time, so the delay is taken in two parts and added: on
  the chip, from the magnets moving to the line leaving it (emulated time); on this computer,
  from the line arriving to the decision.

Goal: a median of at most 22 ms and a worst of at most 30 ms on every backend. The machine's
load adds to the host's part (a busy machine shows in the worst, less in the 95th percentile):
run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import serial

from reedboard.controller.core.decisions import JournalLine
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.core.referee import Outputs
from reedboard.controller.core.view import Phase
from reedboard.controller.games import BigBalls
from reedboard.controller.session import live
from reedboard.hal.board import load_board

from reconcile_speed import nothing_grows_out_of  # the same moves the reconciler's bench measures

ROOT = Path(__file__).resolve().parent.parent
BACKENDS = ("sim", "gpio", "serial", "pico")
GOAL_MEDIAN, GOAL_WORST = 0.022, 0.030  # s
HELD = (0.03, 0.08)  # s the ball stays in the hand once the board has seen it go
PAUSE = (0.05, 0.15)  # s between a move counted and the next one begun
WAIT = 60.0  # s of wall time for the board to see anything (the emulated Pico is slow)


# --- the moves ------------------------------------------------------------------------------------
def ball_moves(seed: int) -> list[tuple[str, str, str]]:
    """(move, from, to) of big-ball moves from Big Balls' start onto free hollows, each one that
    nothing can grow out of, chosen with `seed` until there are none left."""
    game, rng, moves = BigBalls(), random.Random(seed), []
    while True:
        options = game.turn_moves(None)
        quick = [m for m in options if not game.footprint(m).captures
                 and not game.footprint(m).fills & game.occupied() and nothing_grows_out_of(game, m, options)]
        if not quick:
            return moves
        move = rng.choice(quick)
        fp = game.footprint(move)
        moves.append((str(move), *fp.empties, *fp.fills))
        game.push(move)


# --- the referee, timed -----------------------------------------------------------------------------
class TimedReferee(live.LiveReferee):
    """A live referee that notes when (time.monotonic) it decided each move."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.counted: list[tuple[float, str]] = []  # (when, the move)
        self.moved = asyncio.Event()

    def carry_out(self, decisions) -> None:
        now = time.monotonic()
        decisions = list(decisions)
        for decision in decisions:
            if isinstance(decision, JournalLine) and decision.kind == "move":
                self.counted.append((now, str(decision.fields[0])))
                self.moved.set()
        super().carry_out(decisions)


# --- the backends -----------------------------------------------------------------------------------
class SimRig:
    """The simulated board: a hand's change is a frame at once."""

    def __init__(self, board, start) -> None:
        from reedboard.hal.sim import SimBoard

        self.device = SimBoard(board, start)

    def lift(self, cell: str) -> float:
        t = time.monotonic()
        self.device.lift(cell)
        return t

    def place(self, cell: str) -> float:
        t = time.monotonic()
        self.device.place(cell)
        return t

    def delay(self, placed: float, decided: float) -> float:
        return decided - placed

    def close(self) -> None:
        self.device.close()


class GpioRig(SimRig):
    """The gpio backend on gpiozero's mock pins, scanning the mock matrix."""

    def __init__(self, board, start) -> None:
        from gpiozero.pins.mock import MockFactory

        from reedboard.hal.gpio_board import GpioBoard
        from reedboard.hal.mock.matrix import Circuit, FakeStrip, MatrixPins

        factory = MockFactory()
        pins = board.settings_of("gpio")
        self.board = board
        self.matrix = MatrixPins(factory, pins.rows, pins.columns, Circuit(board.rows, board.columns, board.diodes))
        for cell in start:
            self.matrix.place(board.sensor[cell])
        self.device = GpioBoard(board, pin_factory=factory, strip=FakeStrip(board.led_count), bounce_time=None)

    def lift(self, cell: str) -> float:
        t = time.monotonic()
        self.matrix.lift(self.board.sensor[cell])
        return t

    def place(self, cell: str) -> float:
        t = time.monotonic()
        self.matrix.place(self.board.sensor[cell])
        return t


class SerialRig(SimRig):
    """The serial backend on a pty to the fake board (the firmware's logic on this computer)."""

    def __init__(self, board, start) -> None:
        from reedboard.hal.mock.fakeboard import FakeBoard
        from reedboard.hal.serial_board import SerialBoard

        self.fake = FakeBoard(board.name, occupied=start).start()
        self.device = SerialBoard(board, self.fake.port)

    def lift(self, cell: str) -> float:
        t = time.monotonic()
        self.fake.lift(cell)
        return t

    def place(self, cell: str) -> float:
        t = time.monotonic()
        self.fake.place(cell)
        return t

    def close(self) -> None:
        self.device.close()
        self.fake.stop()


class HeardPort:
    """A pyserial port that notes when (time.monotonic) each piece it reads arrived."""

    def __init__(self, port) -> None:
        self._port = port
        self.stream = bytearray()
        self.arrivals: list[tuple[int, float]] = []  # (bytes read so far, when)

    def read(self, size: int = 1) -> bytes:
        data = self._port.read(size)
        if data:
            self.stream += data
            self.arrivals.append((len(self.stream), time.monotonic()))
        return data

    def arrived(self, line: bytes) -> float:
        """When the last byte of the last copy of `line` arrived."""
        end = self.stream.rfind(line) + len(line)
        return next(when for upto, when in self.arrivals if upto >= end)

    def __getattr__(self, name: str):
        return getattr(self._port, name)


class PicoRig:
    """The serial backend on the emulated Pico: the chip's part of the delay in emulated time,
    the host's part in real time."""

    def __init__(self, board, start, emulator) -> None:
        from reedboard.hal.serial_board import SerialBoard

        self.board = board
        self.pico = emulator.EmulatedPico(board, occupied=start).start()
        self.pico.booted(WAIT)
        self.ports: list[HeardPort] = []

        def factory(*args, **kwargs) -> HeardPort:
            self.ports.append(HeardPort(serial.serial_for_url(*args, **kwargs)))
            return self.ports[-1]

        self.device = SerialBoard(board, self.pico.port, serial_factory=factory)
        self.chip_parts: list[float] = []

    def lift(self, cell: str) -> int:
        mark = self.pico.mark()
        self.pico.lift(cell)
        return mark

    def place(self, cell: str) -> tuple[int, int]:
        mark = self.pico.mark()
        self.pico.place(cell)
        return mark, self.board.sensor[cell]

    def delay(self, placed: tuple[int, int], decided: float) -> float:
        mark, sensor = placed
        moved = self.pico.wait(lambda e: e["ev"] == "occ", WAIT, mark)
        sent = self.pico.wait(lambda e: e["ev"] == "tx" and e["line"].startswith("C ")
                              and f"{sensor}+" in e["line"].split("*")[0].split()[2:], WAIT, mark)
        chip = (sent["t"] - moved["t"]) / 1000
        self.chip_parts.append(chip)
        return chip + decided - self.ports[-1].arrived(sent["line"].encode() + b"\n")

    def close(self) -> None:
        self.device.close()
        self.pico.close()


def emulator_module():
    spec = importlib.util.spec_from_file_location("reedboard_pico_emulator", ROOT / "pico_emulator" / "emulator.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the hands ----------------------------------------------------------------------------------------
async def until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"commit_delay: the board never showed {what}")
        await asyncio.sleep(0.005)


async def play(rig, moves, rng: random.Random) -> list[float]:
    """Run the referee live on the rig's board, make the moves by hand; each move's delay."""
    game = BigBalls()
    start = frozenset(game.occupied())
    referee = TimedReferee(game, settings=Settings(), rng=random.Random(rng.random()),
                           outputs=Outputs(lights=rig.device.show, die=rig.device.show))
    stop = asyncio.Event()
    task = asyncio.create_task(live.run(referee, rig.device, rig.device, stop=stop))
    delays = []
    try:
        await until(lambda: referee.reconciler.stable == start and referee.phase is not Phase.SETUP,
                    "the start position")
        for move, src, dst in moves:
            rig.lift(src)
            await until(lambda: src not in referee.reconciler.stable, f"{src} lifted")
            await asyncio.sleep(rng.uniform(*HELD))
            before = len(referee.counted)
            referee.moved.clear()
            placed = rig.place(dst)
            while len(referee.counted) == before:
                try:
                    await asyncio.wait_for(referee.moved.wait(), WAIT)
                except TimeoutError:
                    raise SystemExit(f"commit_delay: {move} was never counted: {referee.view().prompt!r}") from None
                referee.moved.clear()
            decided, counted = referee.counted[before]
            if counted != move:
                raise SystemExit(f"commit_delay: {counted} counted where {move} was made")
            delays.append(rig.delay(placed, decided))
            await asyncio.sleep(rng.uniform(*PAUSE))
    finally:
        stop.set()
        await asyncio.gather(task, return_exceptions=True)
    return delays


def measure(make: Callable[[], object], moves, rounds: int, seed: int) -> tuple[list[float], list]:
    delays, rigs = [], []
    for k in range(rounds):
        rig = make()
        rigs.append(rig)
        try:
            delays += asyncio.run(play(rig, moves, random.Random(f"{seed}/{k}")))
        finally:
            rig.close()
    return delays, rigs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default=",".join(BACKENDS), help="which of %(default)s")
    parser.add_argument("--rounds", type=int, default=3, help="games of the moves on each backend (default %(default)s)")
    parser.add_argument("--pico-rounds", type=int, default=1,
                        help="... on the emulated Pico, which is slow to start (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    chosen = args.backends.split(",")
    unknown = [b for b in chosen if b not in BACKENDS]
    if unknown:
        print(f"commit_delay: no backend {unknown[0]!r} (choose among {', '.join(BACKENDS)})", file=sys.stderr)
        return 2
    board = load_board(game="bigballs")
    start = frozenset(BigBalls().occupied())
    moves = ball_moves(args.seed)
    print(f"commit delay on Big Balls: {len(moves)} big-ball moves a game, from the ball put down to the move"
          f" counted; goal: median <= {GOAL_MEDIAN * 1000:.0f} ms, worst <= {GOAL_WORST * 1000:.0f} ms")
    makers = {"sim": lambda: SimRig(board, start), "gpio": lambda: GpioRig(board, start),
              "serial": lambda: SerialRig(board, start)}
    if "pico" in chosen:
        pe = emulator_module()
        try:
            pe.check_available()
            makers["pico"] = lambda: PicoRig(board, start, pe)
        except pe.Unavailable as why:
            print(f"pico: left out: no emulated Pico here ({why})")
    missed = False
    for name in chosen:
        if name not in makers:
            continue
        delays, rigs = measure(makers[name], moves, args.pico_rounds if name == "pico" else args.rounds, args.seed)
        median, worst = statistics.median(delays), max(delays)
        met = median <= GOAL_MEDIAN and worst <= GOAL_WORST
        missed |= not met
        extra = ""
        if name == "pico":
            chip = [t for rig in rigs for t in rig.chip_parts]
            extra = f"; on the chip {statistics.median(chip) * 1000:.1f} ms median, {max(chip) * 1000:.1f} worst"
        ninety_fifth = sorted(delays)[max(0, -(-len(delays) * 95 // 100) - 1)]
        print(f"{name}: median {median * 1000:.1f} ms, worst {worst * 1000:.1f} ms"
              f" ({len(delays)} moves, 95 % within {ninety_fifth * 1000:.1f}{extra}; goal {'met' if met else 'MISSED'})")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
