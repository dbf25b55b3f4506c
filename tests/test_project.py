"""The project's own promises: the README quick start, CI, and standing alone."""

from pathlib import Path

import pytest

from readme_commands import ROOT, quick_start_commands

pytestmark = pytest.mark.unit


def test_readme_quick_start_has_exactly_two_commands():
    commands = quick_start_commands()
    assert len(commands) == 2 and all("\n" not in c for c in commands)
    run, test = commands
    assert "reedboard" in run and "pytest" in test


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert quick_start_commands()[1] in ci.splitlines()


def test_nothing_reads_the_shared_reference_folder():
    offenders = []
    for path in ROOT.rglob("*"):
        if path == Path(__file__).resolve() or any(part.startswith(".") for part in path.relative_to(ROOT).parts):
            continue
        if path.is_file() and path.suffix in {".py", ".toml", ".cfg", ".sh", ""}:
            if "shared/" in path.read_text(encoding="utf-8", errors="replace").replace("\\", "/"):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
