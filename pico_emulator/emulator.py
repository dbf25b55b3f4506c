"""An emulated Raspberry Pi Pico running MicroPython and the reedboard firmware, behind a pty.

pico.mjs (node and npm's rp2040js, installed by `npm ci` in this folder) runs the official
MicroPython build for the Pico with the boot ROM, both read from the folder `pico` of the shared folder beside
the repository (or PICO_FILES). This module lays the firmware on a littlefs image as `reedboard
firmware install` lays it out (board.json included), starts the chip with a game's pieces on the
reed matrix, and bridges its USB serial to a pty that the host opens like /dev/ttyACM0.

The port the host is given (`EmulatedPico.port`) is a link to the pty. When the chip resets
(machine.reset()), the link vanishes with the old pty, as /dev/ttyACM0 does, and comes back on
a new pty once the new chip's USB is up.

Nothing of the controller needs this at run time; the tests and the bench use it, and

    python pico_emulator/emulator.py GAME [--board FILE] [--empty] [--blank]

serves an emulated board to try, like `reedboard fake-board` (lift CELL, place CELL, press
die|ok [long], stats, quit on standard input).
"""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FIRMWARE = ROOT / "firmware"
UF2_NAME = "RPI_PICO-20241129-v1.24.1.uf2"
BOOTROM_NAME = "bootrom-B1.bin"
FS_BLOCKS = 352  # MicroPython 1.24's RPI_PICO filesystem: 352 blocks of 4096 bytes
PRESS_MS = 150
LONG_PRESS_MS = 1300
OUT_LIMIT = 1 << 16  # bytes for the host that nobody reads; past that they are dropped, as a Pico would


class Unavailable(RuntimeError):
    """What the emulated Pico needs and is not here (the message says what)."""


class EmulatorError(RuntimeError):
    """The emulated Pico did not do what was asked in time."""


def files_folder() -> Path:
    return Path(os.environ.get("PICO_FILES") or ROOT.parent / "shared" / "pico")


def check_available() -> tuple[Path, Path, str]:
    """(UF2, boot ROM, node): what the emulated Pico runs on; Unavailable says what is missing."""
    folder = files_folder()
    uf2, bootrom = folder / UF2_NAME, folder / BOOTROM_NAME
    for path in (uf2, bootrom):
        if not path.is_file():
            raise Unavailable(f"no {path.name} in {folder} (MicroPython's Pico build and the RP2040 boot ROM)")
    node = shutil.which("node")
    if node is None:
        raise Unavailable("no node on PATH")
    if not (HERE / "node_modules" / "rp2040js").is_dir():
        raise Unavailable(f"rp2040js is not installed: run `npm ci` in {HERE}")
    try:
        import littlefs  # noqa: F401
    except ImportError:
        raise Unavailable("littlefs-python is not installed (pip install -e '.[dev]')") from None
    return uf2, bootrom, node


def filesystem(files: dict[str, bytes]) -> bytes:
    """A littlefs image as MicroPython's RPI_PICO build mounts it, holding `files` (folders made)."""
    from littlefs import LittleFS

    fs = LittleFS(block_size=4096, block_count=FS_BLOCKS, prog_size=256, read_size=32, lookahead_size=32,
                  disk_version=0x00020000)
    made = set()
    for name, data in files.items():
        parts = name.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folder = "/".join(parts[:i])
            if folder not in made:
                fs.mkdir(folder)
                made.add(folder)
        with fs.open(name, "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)


def installed_files(board, firmware: Path = FIRMWARE) -> dict[str, bytes]:
    """The Pico's files after `reedboard firmware install --board` this board: the firmware and board.json."""
    from reedboard.controller.commands.firmware_command import FIRMWARE_FILES, board_config

    files = {name: (firmware / name).read_bytes() for name in FIRMWARE_FILES}
    files["board.json"] = json.dumps(board_config(board)).encode()
    return files


def check_files(firmware: Path = FIRMWARE) -> dict[str, bytes]:
    """The firmware's own checks (firmware/tests/run_micropython.py) under /fw, with nothing at boot."""
    files = {f"fw/{p.name}": p.read_bytes() for p in sorted(firmware.iterdir()) if p.suffix in (".py", ".json")}
    files["fw/tests/run_micropython.py"] = (firmware / "tests" / "run_micropython.py").read_bytes()
    for p in sorted((firmware / "tests" / "fakes").glob("*.py")):
        files[f"fw/tests/fakes/{p.name}"] = p.read_bytes()
    return files


class EmulatedPico:
    """The chip with a board wired to it. `with EmulatedPico(board, occupied=cells) as pico:` then
    open `pico.port`. `board` is a hal.board.Board; `files` replaces what is in the filesystem
    (default: the firmware installed for this board; {} for a blank MicroPython)."""

    def __init__(self, board, *, occupied: Iterable[str] = (), files: dict[str, bytes] | None = None,
                 fast: bool = False, node_args: Iterable[str] = ()):
        self.board = board
        self.files = installed_files(board) if files is None else files
        self.magnets = {board.sensor[c] for c in occupied}
        self.fast = fast
        self.dark: set[int] = set()  # LEDs broken with break_led()
        self.node_args = list(node_args)
        self.events: list[dict] = []
        self.noise: list[str] = []  # what node said that is not a report
        self.to_host = bytearray()  # every byte the Pico sent (the last OUT_LIMIT)
        self._changed = threading.Condition()
        self._stop = threading.Event()
        self._work = Path(tempfile.mkdtemp(prefix="reedboard-pico-"))
        self.port = str(self._work / "ttyACM")
        self._master = self._slave = -1
        self._pty_lock = threading.Lock()
        self._node: subprocess.Popen | None = None
        self._threads: list[threading.Thread] = []

    # -- starting and stopping ---------------------------------------------------------------

    def start(self) -> EmulatedPico:
        uf2, bootrom, node = check_available()
        image = self._work / "fs.img"
        image.write_bytes(filesystem(self.files))
        pins = self.pins()
        ctl_read, ctl_write = os.pipe()
        command = [node, str(HERE / "pico.mjs"), "--uf2", str(uf2), "--bootrom", str(bootrom), "--fs", str(image),
                   "--rows", ",".join(map(str, pins["rows"])), "--cols", ",".join(map(str, pins["columns"])),
                   "--die", str(pins["die_button"]), "--ok", str(pins["ok_button"]), "--led", str(pins["leds"]),
                   "--buzzer", str(pins["buzzer"]), "--occ", ",".join(map(str, sorted(self.magnets)))]
        command += ["--ctl-fd", str(ctl_read)] + (["--fast"] if self.fast else []) + self.node_args
        self._node = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      bufsize=0, pass_fds=(ctl_read,))
        os.close(ctl_read)
        self._ctl = os.fdopen(ctl_write, "w", buffering=1)
        self._plug()
        for target in (self._bridge, self._reports):
            thread = threading.Thread(target=target, daemon=True, name=f"pico {target.__name__}")
            thread.start()
            self._threads.append(thread)
        return self

    def close(self) -> None:
        if self._node is None:
            return
        try:
            self.control("quit")
            self._node.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            self._node.kill()  # our own child, by its handle
            self._node.wait(timeout=5)
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=2)
        self._unplug()
        try:
            self._ctl.close()
        except OSError:
            pass
        self._node = None
        shutil.rmtree(self._work, ignore_errors=True)

    def __enter__(self) -> EmulatedPico:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def pins(self) -> dict:
        from reedboard.controller.commands.firmware_command import board_config

        if "board.json" in self.files:
            return json.loads(self.files["board.json"])["pins"]
        return board_config(self.board)["pins"]

    # -- the port ----------------------------------------------------------------------------

    def _plug(self) -> None:
        with self._pty_lock:
            self._master, self._slave = os.openpty()
            tty.setraw(self._slave)  # bytes as sent: no echo, no newline translation
            os.set_blocking(self._master, False)
            link = Path(self.port)
            link.unlink(missing_ok=True)
            link.symlink_to(os.ttyname(self._slave))

    def _unplug(self) -> None:
        with self._pty_lock:
            Path(self.port).unlink(missing_ok=True)
            for fd in (self._master, self._slave):
                if fd >= 0:
                    os.close(fd)
            self._master = self._slave = -1

    def _bridge(self) -> None:
        out = self._node.stdout.fileno()
        into = self._node.stdin
        pending = bytearray()
        while not self._stop.is_set():
            master = self._master
            fds = [out] + ([master] if master >= 0 else [])
            try:
                ready, _, _ = select.select(fds, [], [], 0.05)
            except (OSError, ValueError):
                continue  # the pty was replaced meanwhile
            if out in ready:
                data = os.read(out, 65536)
                if not data:
                    return
                self.to_host += data
                del self.to_host[:-OUT_LIMIT]
                if master >= 0:
                    pending += data
                    del pending[:-OUT_LIMIT]
            if master >= 0 and master in ready:
                try:
                    data = os.read(master, 65536)
                except OSError:
                    data = b""
                if data:
                    try:
                        into.write(data)
                    except (BrokenPipeError, ValueError):
                        return
            with self._pty_lock:
                if self._master < 0:
                    pending.clear()
                while pending and self._master >= 0:
                    try:
                        n = os.write(self._master, pending)
                    except OSError:
                        break
                    del pending[:n]

    def _reports(self) -> None:
        for raw in self._node.stderr:
            text = raw.decode(errors="replace").rstrip("\n")
            if not text.startswith("@"):
                self.noise.append(text)
                continue
            event = json.loads(text[1:])
            if event["ev"] == "reset":
                self._unplug()  # the port vanishes with the reset ...
            elif event["ev"] == "usb" and self._master < 0:
                self._plug()  # ... and comes back once the new chip's USB is up
            with self._changed:
                self.events.append(event)
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    # -- what it did -------------------------------------------------------------------------

    def wait(self, predicate: Callable[[dict], bool], timeout: float, since: int = 0) -> dict:
        """The first event from index `since` on that satisfies predicate, waiting up to `timeout`
        seconds of wall time (the emulation runs at a fraction of real time: be generous)."""
        end = time.monotonic() + timeout
        with self._changed:
            while True:
                for event in self.events[since:]:
                    if predicate(event):
                        return event
                since = len(self.events)
                left = end - time.monotonic()
                if left <= 0 or self._node is None or self._node.poll() is not None:
                    raise EmulatorError(f"the emulated Pico: nothing as expected in {timeout:g} s"
                                        + (f"; node said: {self.noise[-3:]}" if self.noise else ""))
                self._changed.wait(min(left, 0.5))

    def kind(self, ev: str, since: int = 0) -> list[dict]:
        with self._changed:
            return [e for e in self.events[since:] if e["ev"] == ev]

    def mark(self) -> int:
        """An index into events: what happens from now on."""
        with self._changed:
            return len(self.events)

    def lines(self, since: int = 0) -> list[str]:
        """The board's protocol lines (as sent, without the newline) from event index `since`."""
        return [e["line"] for e in self.kind("tx", since)]

    def shown(self, timeout: float = 120.0, payload: str | None = None) -> dict | None:
        """Wait until the LEDs show a light frame: `payload` (an L line's "COLOURS BLINK"), by
        default the host's last L line; blinking LEDs may be lit or dark, broken LEDs are dark.
        That frame (None when the host sent no L line)."""
        since = 0
        if payload is None:
            sent = [i for i, e in enumerate(self.events) if e["ev"] == "rx" and e["line"].startswith("L ")]
            if not sent:
                return None
            since = sent[-1]
            payload = " ".join(self.events[since]["line"].split("*")[0].split()[2:])
        hexes = payload.split()[0]
        colours = [hexes[i:i + 6].lower() for i in range(0, len(hexes), 6)]

        seen = [c if i not in self.dark else "000000" for i, c in enumerate(colours)]

        def matches(event: dict) -> bool:
            pixels = event.get("pixels")
            return (event["ev"] == "leds" and len(pixels) == len(seen)
                    and all(p == c or p == "000000" for p, c in zip(pixels, seen))
                    and (any(p == c != "000000" for p, c in zip(pixels, seen)) or all(c == "000000" for c in seen)))
        with self._changed:
            frames = [i for i, e in enumerate(self.events) if e["ev"] == "leds"]
        if frames and matches(self.events[frames[-1]]):
            return self.events[frames[-1]]  # on the LEDs now
        return self.wait(matches, timeout, max(since, frames[-1] if frames else 0))

    def booted(self, timeout: float = 120.0) -> dict:
        """Wait for the firmware's hello (its first H line); that event."""
        return self.wait(lambda e: e["ev"] == "tx" and e["line"].startswith("H "), timeout)

    def usb_up(self, since: int = 0, timeout: float = 120.0) -> dict:
        return self.wait(lambda e: e["ev"] == "usb", timeout, since)

    def stats(self, timeout: float = 60.0) -> dict:
        """Scans since the last stats, the longest gap between two (emulated ms), and more."""
        since = self.mark()
        self.control("stats")
        return self.wait(lambda e: e["ev"] == "stats", timeout, since)

    # -- doing things to the board -------------------------------------------------------------

    def control(self, line: str) -> None:
        self._ctl.write(line + "\n")

    def set_magnets(self, sensors: Iterable[int]) -> None:
        self.magnets = set(sensors)
        self.control("occ " + ",".join(map(str, sorted(self.magnets))))

    def lift(self, cell: str) -> None:
        self.set_magnets(self.magnets - {self.board.sensor[cell]})

    def place(self, cell: str) -> None:
        self.set_magnets(self.magnets | {self.board.sensor[cell]})

    def press(self, button: str, ms: int = PRESS_MS) -> None:
        self.control(f"hold {button} {ms}")  # timed in emulated time

    def break_led(self, index: int) -> None:
        """LED `index` of the chain never lights (it still passes the data on)."""
        self.dark.add(index)
        self.control(f"dark {index}")

    def stick_switch(self, sensor: int) -> None:
        """The reed switch of `sensor` is stuck closed."""
        self.control(f"stuck {sensor}")

    def cut_row(self, row: int) -> None:
        """Matrix row `row`'s wire is cut: none of its switches reaches the Pico's pin."""
        self.control(f"cut {row}")

    def break_chain(self, after: int) -> None:
        """The LED chain's data wire is broken after LED `after`: every LED past it stays dark."""
        for index in range(after + 1, self.board.led_count):
            self.break_led(index)

    def mend(self) -> None:
        """Every planted fault mended: no LED broken, no switch stuck, no row cut."""
        self.dark.clear()
        for line in ("dark", "stuck", "cut"):
            self.control(line)

    def type(self, data: bytes) -> None:
        """Bytes into the Pico's USB serial as if the host had sent them (beside the host's own)."""
        self.control("usb " + data.hex())

    def reset(self) -> None:
        """Ctrl-C to stop main.py, then machine.reset() at the REPL: the chip restarts from its
        flash, and its port vanishes and comes back."""
        self.to_host.clear()
        self.type(b"\x03\x03")
        end = time.monotonic() + 60
        while b">>> " not in self.to_host:
            if time.monotonic() > end:
                raise EmulatorError("the emulated Pico: no REPL prompt after Ctrl-C")
            time.sleep(0.05)
        self.type(b"import machine; machine.reset()\r")

    def pulse(self, sensor: int, ms: int, after: int = 0) -> None:
        """The switch of `sensor` changes for `ms` emulated milliseconds, `after` ms from now,
        then changes back."""
        self.control(f"pulse {sensor} {ms} {after}")


# -- an emulated board to try by hand ------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="An emulated Pico running the firmware, behind a pty")
    parser.add_argument("game")
    parser.add_argument("--board", help="a board file (default: the game's shipped board)")
    parser.add_argument("--empty", action="store_true", help="no pieces at the start")
    parser.add_argument("--blank", action="store_true", help="a fresh MicroPython, no firmware (to try `firmware install`)")
    args = parser.parse_args(argv)
    from reedboard.controller.games import GAMES
    from reedboard.hal.board import BoardError, load_board

    if args.game not in GAMES:
        print(f"emulator: no game {args.game!r} ({', '.join(sorted(GAMES))})", file=sys.stderr)
        return 2
    rules = GAMES[args.game]
    try:
        board = load_board(args.board, game=None if args.board else rules.board)
    except (BoardError, OSError) as error:
        print(f"emulator: {error}", file=sys.stderr)
        return 2
    try:
        pico = EmulatedPico(board, occupied=() if args.empty else rules().occupied(),
                            files={} if args.blank else None).start()
    except Unavailable as error:
        print(f"emulator: {error}", file=sys.stderr)
        return 1
    by_name = {c.lower(): c for c in board.cells}
    print(f"port: {pico.port}", flush=True)
    try:
        if args.blank:
            pico.usb_up()
        else:
            pico.booted()
        print("ready (lift CELL, place CELL, press die|ok [long], stats, quit)", flush=True)
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words == ["quit"]:
                break
            if words[0] in ("lift", "place") and len(words) == 2 and words[1].lower() in by_name:
                getattr(pico, words[0])(by_name[words[1].lower()])
            elif words[0] == "press" and words[1:2] in (["die"], ["ok"]) and words[2:] in ([], ["long"]):
                pico.press(words[1], LONG_PRESS_MS if words[2:] else PRESS_MS)
            elif words == ["stats"]:
                s = pico.stats()
                print(f"{s['t'] / 1000:.1f} s emulated, {s['scans_per_s']} scans/s, longest gap between scans"
                      f" {s['longest_gap_ms']} ms", flush=True)
            else:
                print(f"not understood: {line.strip()!r} (lift CELL, place CELL, press die|ok [long], stats, quit)",
                      flush=True)
    except EmulatorError as error:
        print(f"emulator: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    finally:
        pico.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
