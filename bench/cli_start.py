"""How long `reedboard --help` takes to start, and what it loads.

Usage: python bench/cli_start.py [--runs N] [--root DIR]

Runs, in fresh interpreters, `import reedboard.controller.commands.cli` and `python -m reedboard.controller.commands.cli --help`
N times each and prints the median wall time, the import time of controller.commands.cli as
`python -X importtime` reports it (its cumulative microseconds), and which of the modules the
command line needs only once something failed (the journal, the trace reader, the board
loader) the import pulled in. `--root` measures another checkout of reedboard (its tree goes
first on the module path), for a figure before and after a change. Prints; never asserts.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HEAVY = ("reedboard.controller.persist.journal", "reedboard.controller.persist.trace", "reedboard.controller.persist.notation", "reedboard.controller.core.reconcile", "reedboard.hal.board")


def _env(root: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(root)}


def _wall(args: list[str], root: Path, runs: int) -> float:
    """The median wall time of running `python ARGS` in a fresh interpreter, in ms."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, *args], cwd=root, env=_env(root), check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _import_time(root: Path, runs: int) -> float:
    """The median cumulative import time of controller.commands.cli (-X importtime), in ms."""
    found = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import reedboard.controller.commands.cli"], cwd=root,
                              env=_env(root), check=True, capture_output=True, text=True)
        line = next(line for line in done.stderr.splitlines() if re.search(r"\|\s*reedboard\.controller\.commands\.cli$", line))
        found.append(int(line.split("|")[1]) / 1000)
    return statistics.median(found)


def _loaded(root: Path) -> list[str]:
    code = f"import sys, reedboard.controller.commands.cli; print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], cwd=root, env=_env(root), check=True,
                          capture_output=True, text=True)
    return done.stdout.split()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    args = parser.parse_args()
    root = args.root.resolve()
    baseline = _wall(["-c", "pass"], root, args.runs)
    print(f"reedboard at {root}, median of {args.runs} runs")
    print(f"  python -c pass:                     {baseline:7.1f} ms")
    print(f"  python -c 'import reedboard.controller.commands.cli':  {_wall(['-c', 'import reedboard.controller.commands.cli'], root, args.runs):7.1f} ms")
    print(f"  python -m reedboard.controller.commands.cli --help:    {_wall(['-m', 'reedboard.controller.commands.cli', '--help'], root, args.runs):7.1f} ms")
    print(f"  -X importtime, controller.commands.cli:      {_import_time(root, args.runs):7.1f} ms (cumulative)")
    loaded = _loaded(root)
    print(f"  loaded only for their errors:       {', '.join(loaded) if loaded else 'none'}")


if __name__ == "__main__":
    main()
