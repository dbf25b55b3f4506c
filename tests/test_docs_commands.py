"""docs/commands.md is the command line's own reference: written from the parser by
docs/make_commands.py, it must be what that writes now."""

import runpy
from pathlib import Path

import pytest

from reedboard.controller.commands.cli import build_parser

pytestmark = pytest.mark.component

ROOT = Path(__file__).resolve().parent.parent


def test_the_command_reference_is_current():
    made = runpy.run_path(str(ROOT / "docs" / "make_commands.py"))["reference"]()
    committed = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    assert committed == made, "docs/commands.md is out of date: run python docs/make_commands.py"


def test_the_reference_names_every_command_and_option():
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    parser = build_parser()
    (commands,) = [a for a in parser._actions if a.dest == "command"]
    for name, sub in commands.choices.items():
        assert f"## `reedboard {name}`" in text
        for action in sub._actions:
            for flag in action.option_strings:
                if flag.startswith("--") and flag != "--help":
                    assert f"`{flag}" in text, (name, flag)
