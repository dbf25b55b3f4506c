"""The maintainers' scripts as the guides give them: run from the checkout with a Python that is
not the tests' venv (reedboard not installed there), they use the checkout's own code;
`bench/ladder.py --help` says whole sentences, and its default games a step are the README's."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from readme_commands import outside_env, quick_start_commands

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[1]


def bare_python() -> str:
    """The Python the tests' venv was made from: no reedboard installed in it."""
    for name in ("python3", "python"):
        candidate = Path(sys.base_prefix) / "bin" / name
        if candidate.exists():
            return str(candidate)
    pytest.skip(f"no Python in {sys.base_prefix}/bin")


def run(*argv: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([bare_python(), *argv], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env=outside_env())


def test_the_bare_python_has_no_reedboard_of_its_own(tmp_path):
    found = run("-c", "import reedboard.controller", cwd=tmp_path)
    assert found.returncode != 0 and "No module named 'reedboard'" in found.stderr


def test_make_commands_checks_the_reference_from_the_checkout_outside_the_venv(tmp_path):
    done = run(str(ROOT / "docs" / "make_commands.py"), "--check", cwd=tmp_path)
    assert "No module named 'reedboard'" not in done.stderr
    assert done.returncode == 0, done.stderr


def test_the_ladder_helps_in_whole_sentences_outside_the_venv(tmp_path):
    done = run(str(ROOT / "bench" / "ladder.py"), "--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    description = done.stdout.split("\n\n")[1]  # after the usage: the first paragraph of the docstring
    assert description.rstrip().endswith("."), description
    assert "--games GAMES" in done.stdout and "default 40" not in done.stdout


def test_the_ladder_plays_as_many_games_a_step_as_the_readme_says():
    spec = importlib.util.spec_from_file_location("bench_ladder", ROOT / "bench" / "ladder.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"Games a step: Big Balls (\d+), Off Board (\d+), Abalone (\d+)\b", readme)
    assert said, "the README no longer says the games a step"
    assert [bench.games_a_step(name) for name in ("bigballs", "offboard", "abalone")] == [int(n) for n in said.groups()]
    assert "`.venv/bin/python bench/ladder.py --write`" in readme


def test_the_readme_says_where_the_code_comes_from_and_keeps_two_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = re.search(r"^## Quick start\n(.*?)(?=^## )", readme, re.S | re.M).group(1)
    assert "repository the board's maker gave you" in quick_start and "clone" in quick_start
    assert len(quick_start_commands()) == 2
