"""What reading the files someone names costs: at the size limits, and when the file is trouble.

Usage: python bench/file_limits.py [--skip-full]

1. A realistic trace and journal just under their size limits (controller/ground/readfile.py): the time
   to read and check each (read_trace, read_journal) and the process's peak memory. This is
   what the limits are chosen by: a Raspberry Pi must be able to read the largest file it
   accepts.
2. Each command that reads a named file, given trouble: a FIFO, /dev/zero, a sparse file of
   270 MB, nesting 100,000 deep. For each: the exit status, the time, the peak memory of the
   process, and the last line it wrote (a hang is cut off after 10 s). The command runs with
   its address space capped at 1 GiB, as a small board's memory would cap it.

Every command runs in its own process, so that its peak memory (from wait4) is its own.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reedboard.controller.games import BigBalls, OffBoard  # noqa: E402
from reedboard.controller.persist.journal_format import game_header  # noqa: E402
from reedboard.controller.ground.readfile import JOURNAL_LIMIT, MiB, TRACE_LIMIT  # noqa: E402

HANG = 10.0  # s after which a command counts as hanging
MEMORY = 1 << 30  # the address space each command may have


def run(argv: list[str], code: str | None = None) -> tuple[str, float, int, str]:
    """Exit status (or "hangs"), seconds, peak RSS in MiB, last line of output."""
    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    command = [sys.executable, "-c", code, *argv] if code else [sys.executable, "-m", "reedboard.controller.commands.cli", *argv]
    with tempfile.TemporaryFile() as out:
        started = time.monotonic()
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT, preexec_fn=cap)
        status: str | None = None
        while status is None:
            pid, wait_status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                process.returncode = os.waitstatus_to_exitcode(wait_status)
                status = str(process.returncode)
            elif time.monotonic() - started > HANG:
                process.send_signal(signal.SIGKILL)
                pid, wait_status, usage = os.wait4(process.pid, 0)
                process.returncode = os.waitstatus_to_exitcode(wait_status)
                status = "hangs"
            else:
                time.sleep(0.01)
        seconds = time.monotonic() - started
        out.seek(0)
        lines = out.read().decode("utf-8", "replace").strip().splitlines()
    return status, seconds, usage.ru_maxrss // 1024, (lines[-1] if lines else "")[:110]


def full_files(folder: Path) -> None:
    start = sorted(BigBalls().occupied())
    trace = folder / "full.trace.jsonl"
    with open(trace, "w") as file:
        file.write(json.dumps({**game_header(BigBalls()), "settings": {}}) + "\n")
        t, size, n = 0.0, 0, 0
        while True:
            line = json.dumps({"t": round(t, 3), "occupied": start if n % 2 == 0 else start[1:]}) + "\n"
            if size + len(line) > TRACE_LIMIT - 1024:
                break
            file.write(line)
            size, t, n = size + len(line), t + 0.05, n + 1
    journal = folder / "20240501-123000-offboard.jsonl"
    header = {"type": "header", "version": 1, **game_header(OffBoard()), "settings": {},
              "started": "2024-05-01T12:30:00"}
    there, back = {"type": "move", "t": 0.0, "move": "C3-D3"}, {"type": "takeback", "t": 0.0, "move": "C3-D3"}
    with open(journal, "w") as file:
        first = json.dumps(header) + "\n"
        file.write(first)
        size, n = len(first), 0
        while True:
            entry = dict(there if n % 2 == 0 else back, t=float(n))
            line = json.dumps(entry) + "\n"
            if size + len(line) > JOURNAL_LIMIT - 1024:
                break
            file.write(line)
            size, n = size + len(line), n + 1
    print(f"1. files just under the limits (trace {TRACE_LIMIT // MiB} MiB, journal {JOURNAL_LIMIT // MiB} MiB)")
    reader = ("import sys; from controller.persist.trace import read_trace; from controller.persist.journal_reader import read_journal;"
              " print(len((read_trace if sys.argv[1] == 'trace' else read_journal)(sys.argv[2]).__dict__))")
    for kind, path in (("trace", trace), ("journal", journal)):
        status, seconds, rss, line = run([kind, str(path)], reader)
        print(f"   {kind:8} {path.stat().st_size / MiB:5.1f} MiB: exit {status}, {seconds:5.2f} s, peak {rss} MiB"
              + ("" if status == "0" else f" | {line}"))


def troubles(folder: Path) -> None:
    fifo = folder / "fifo.jsonl"
    os.mkfifo(fifo)
    files = {"fifo": {"json": fifo, "toml": fifo}, "/dev/zero": {"json": "/dev/zero", "toml": "/dev/zero"}}
    big = {}
    for kind in ("json", "toml"):
        big[kind] = folder / f"big.{kind}"
        big[kind].touch()
        os.truncate(big[kind], 270 * 10 ** 6)
    files["270 MB"] = big
    deep = {"json": folder / "deep.jsonl", "toml": folder / "deep.toml"}
    deep["json"].write_text("[" * 100_000 + "]" * 100_000 + "\n")
    deep["toml"].write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    files["deep"] = deep
    commands = {
        "replay": (["replay", "FILE"], "json"),
        "export": (["export", "FILE"], "json"),
        "perft --board": (["perft", "offboard", "1", "--board", "FILE"], "toml"),
        "play --config": (["play", "bigballs", "--hal", "sim", "--listen", "127.0.0.1:1", "--games-dir",
                           str(folder / "games"), "--config", "FILE"], "toml"),
        "doctor --board": (["doctor", "--hal", "sim", "--board", "FILE"], "toml"),
    }
    print("2. commands given trouble (exit status, time, peak memory, last line)")
    for name, (argv, kind) in commands.items():
        for trouble, paths in files.items():
            path = str(paths[kind])
            status, seconds, rss, line = run([path if a == "FILE" else a for a in argv])
            line = line.replace(str(folder) + "/", "")
            print(f"   {name:15} {trouble:9} exit {status:5} {seconds:5.2f} s {rss:4} MiB | {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-full", action="store_true", help="leave out the files at the limits")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if not args.skip_full:
            full_files(Path(folder))
        troubles(Path(folder))


if __name__ == "__main__":
    main()
