"""How long `reedboard --help` takes to start, and what it loads.

Usage: python bench/cli_start.py [--runs N] [--root DIR]

Runs, in fresh interpreters, `import reedboard.controller.commands.cli` and `python -m reedboard.controller.commands.cli --help`
N times each and prints the median wall time (and --help's against a bare Python start), the
import time of controller.commands.cli as `python -X importtime` reports it (its cumulative
microseconds), and which of the modules `--help` does not need the import pulled in (the
journal, the trace reader, the board loader, the games' move tables, asyncio). `--root`
measures another checkout of reedboard, for a figure before and after a change: its folders go
first on the module path as the package `reedboard`, ahead of the installed one. Bytecode is
written to a folder of its own and read from there, as an installed package's is (pip compiles
it), whatever PYTHONDONTWRITEBYTECODE says. Prints; never asserts.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HEAVY = ("reedboard.controller.persist.journal", "reedboard.controller.persist.trace",
         "reedboard.controller.persist.notation", "reedboard.controller.core.reconcile", "reedboard.hal.board",
         "reedboard.controller.games.bigballs_tables", "reedboard.controller.games.abalone_tables", "asyncio")
FOLDERS = ("controller", "hal", "hardware", "firmware")  # the package's folders in a checkout
_path: dict[Path, str] = {}  # checkout -> the folder that holds it as the package reedboard


def package_folder(root: Path) -> str:
    """A folder whose `reedboard` is the checkout at `root`: its folders linked as the installed
    package lays them out (a checkout has no reedboard/ of its own)."""
    folder = Path(tempfile.mkdtemp(prefix="reedboard-cli-start-"))
    (folder / "reedboard").mkdir()
    for name in FOLDERS:
        (folder / "reedboard" / name).symlink_to(root / name)
    return str(folder)


def _env(root: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPATH": _path[root], "PYTHONPYCACHEPREFIX": str(Path(_path[root]) / "bytecode")}


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
    _path[root] = package_folder(root)
    try:
        where = subprocess.run([sys.executable, "-c", "import reedboard.controller as c; print(c.__file__)"], cwd=root,
                               env=_env(root), check=True, capture_output=True, text=True).stdout.strip()
        _wall(["-m", "reedboard.controller.commands.cli", "--help"], root, 1)  # its bytecode written
        baseline = _wall(["-c", "pass"], root, args.runs)
        imported = _wall(["-c", "import reedboard.controller.commands.cli"], root, args.runs)
        helped = _wall(["-m", "reedboard.controller.commands.cli", "--help"], root, args.runs)
        print(f"reedboard at {root} ({where}), median of {args.runs} runs")
        print(f"  python -c pass:                                        {baseline:7.1f} ms")
        print(f"  python -c 'import reedboard.controller.commands.cli':  {imported:7.1f} ms")
        print(f"  python -m reedboard.controller.commands.cli --help:    {helped:7.1f} ms"
              f" ({helped / baseline:.1f}x python -c pass)")
        print(f"  -X importtime, controller.commands.cli:                {_import_time(root, args.runs):7.1f} ms"
              " (cumulative)")
        loaded = _loaded(root)
        print(f"  loaded though --help needs none of them:  {', '.join(loaded) if loaded else 'none'}")
    finally:
        shutil.rmtree(_path[root], ignore_errors=True)  # the links only, never what they point at


if __name__ == "__main__":
    main()
