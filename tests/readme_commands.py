"""The commands of the README's quick start, as a newcomer copies them, and the first of them run
in a copy of the checkout (conftest's `quick_start_controller`: the quick-start test serves from
it, the installed-package tests run the package it installed)."""

import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INSTALL = 900  # seconds an install may take at most (it downloads what the venv lacks)


def quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Quick start\n(.*?)(?=^## )", readme, re.S | re.M).group(1)
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def outside_env() -> dict:
    """The environment of a newcomer's shell: no venv of the tests' around."""
    return {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}


def checkout(base: Path) -> Path:
    """A copy of what a clone holds for the two commands (the package's folders and its project files)."""
    tree = base / "clone"
    for name in ("controller", "hal", "hardware", "firmware"):
        shutil.copytree(ROOT / name, tree / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tree / name)
    return tree


def install(command: str, tree: Path) -> str:
    """Everything of a quick-start command but its last step (which runs what was installed); that step."""
    steps, _, last = command.rpartition(" && ")
    done = subprocess.run(steps, shell=True, cwd=tree, capture_output=True, text=True, timeout=INSTALL,
                          env=outside_env())
    assert done.returncode == 0, done.stderr[-2000:]
    return last
