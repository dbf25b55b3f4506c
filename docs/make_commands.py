"""The command reference, docs/commands.md, written from the command line's own parser, so that
it says what `reedboard` takes and never drifts from it.

    python docs/make_commands.py           # writes docs/commands.md
    python docs/make_commands.py --check   # exit status 1 when docs/commands.md is out of date

The parser is this checkout's, whether reedboard is installed or not (any Python with reedboard's
packages, e.g. the README's .venv/bin/python).

tests/test_docs_commands.py fails when the committed file is not what this writes.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
import types
from pathlib import Path

OUT = Path(__file__).resolve().parent / "commands.md"
WIDTH = 96  # the synopsis' lines, in characters

INTRO = """\
# Command reference

Every `reedboard` command with all its arguments, as `reedboard COMMAND --help` gives them. This
page is written from the command line itself by `python docs/make_commands.py`, and a test fails
when it is out of date. What the commands are for, with examples: [players.md](players.md)
(playing), [builders.md](builders.md) (building and setting up a board),
[maintainers.md](maintainers.md) (the code, the tests, the numbers).

Options are read wherever they stand, before, between or after the positionals. A mistaken
command line gets one line of message and exit status 2.
"""


def _metavar(action: argparse.Action) -> str:
    if action.metavar is not None:
        return action.metavar if isinstance(action.metavar, str) else " ".join(action.metavar)
    if action.choices is not None and action.option_strings:  # a positional's choices are in its help
        return "{" + ",".join(map(str, action.choices)) + "}"
    return action.dest.upper()


def _shape(action: argparse.Action) -> str:
    """The argument's words: `GAME`, `[GAME]`, `MOVE ...`, `--hal {gpio,serial,sim}`, `--yes`."""
    name = _metavar(action)
    nargs = action.nargs
    if nargs == 0:
        value = ""
    elif nargs is None or nargs == 1:
        value = name
    elif nargs == "?":
        value = f"[{name}]"
    elif nargs == "*":
        value = f"[{name} ...]"
    elif nargs == "+":
        value = f"{name} [{name} ...]"
    elif isinstance(nargs, int):
        value = " ".join([name] * nargs)
    else:  # argparse.REMAINDER and the like
        value = f"{name} ..."
    if not action.option_strings:
        return value
    flag = max(action.option_strings, key=len)
    return f"{flag} {value}".strip()


def _help(action: argparse.Action, prog: str) -> str:
    text = action.help or ""
    if "%" in text:
        params = {k: v for k, v in vars(action).items() if v is not argparse.SUPPRESS}
        params["prog"] = prog
        if params.get("choices") is not None:
            params["choices"] = ", ".join(map(str, params["choices"]))
        text = text % params
    return " ".join(text.split())


def _arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in parser._actions
            if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction)) and a.help is not argparse.SUPPRESS]


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            found += [(name, helps.get(name, ""), sub) for name, sub in action.choices.items()]
    return found


def _synopsis(words: str, parser: argparse.ArgumentParser) -> str:
    parts = []
    for action in _arguments(parser):
        shape = _shape(action)
        parts.append(shape if not action.option_strings and not action.required else
                     shape if action.required else f"[{shape}]")
    for action in parser._actions:  # an optional one as its parser's --help writes it (`[ACTION ...]`)
        if isinstance(action, argparse._SubParsersAction):
            shape = parser._get_formatter()._format_args(action, action.dest)
            parts.append(shape if shape.startswith("[") else "COMMAND")
    glue = "\u00a0"  # an argument's words stay on one line
    line = " ".join([words.replace(" ", glue), *(part.replace(" ", glue) for part in parts)])
    wrapped = textwrap.wrap(line, WIDTH, subsequent_indent=" " * (len(words) + 1), break_long_words=False,
                            break_on_hyphens=False)
    return "\n".join(wrapped).replace(glue, " ")


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _section(words: str, summary: str, parser: argparse.ArgumentParser, level: int) -> list[str]:
    lines = [f"{'#' * level} `{words}`", ""]
    if summary:
        lines += [summary[0].upper() + summary[1:] + ("" if summary.endswith(".") else "."), ""]
    lines += ["```text", _synopsis(words, parser), "```", ""]
    arguments = _arguments(parser)
    if arguments:
        lines += ["| argument | what it is |", "|---|---|"]
        for action in arguments:
            flag = max(action.option_strings, key=len) if action.option_strings else None
            also = [f"`{other}`" for other in action.option_strings if other != flag]
            said = _help(action, parser.prog) + (f" (also {', '.join(also)})" if also else "")
            lines.append(f"| `{_cell(_shape(action))}` | {_cell(said.strip())} |")
        lines.append("")
    for name, help_text, sub in _subcommands(parser):
        lines += _section(f"{words} {name}", help_text, sub, level + 1)
    return lines


def reference() -> str:
    """The text of docs/commands.md."""
    from reedboard.controller.commands.cli import build_parser

    parser = build_parser()
    lines = [INTRO, "## Commands", ""]
    commands = _subcommands(parser)
    lines += [f"- [`reedboard {name}`](#reedboard-{name}): {help_text}" for name, help_text, _ in commands]
    lines.append("")
    for name, help_text, sub in commands:
        lines += _section(f"reedboard {name}", help_text, sub, 2)
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str]) -> int:
    text = reference()
    if "--check" in argv:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT} is out of date: run python docs/make_commands.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(OUT)
    return 0


def use_this_checkout() -> None:
    """reedboard imported from the checkout this file lies in (reedboard.X is its folder X, as
    pyproject.toml maps them), never from another copy; one line when a package it needs is missing."""
    package = types.ModuleType("reedboard")
    package.__path__ = [str(Path(__file__).resolve().parents[1])]
    sys.modules.setdefault("reedboard", package)
    try:
        import reedboard.controller.commands.cli  # noqa: F401
    except ModuleNotFoundError as missing:
        sys.exit(f"docs/make_commands.py: the Python module {missing.name} is missing: run it with a Python that"
                 " has reedboard's packages, e.g. .venv/bin/python docs/make_commands.py (the README's quick start"
                 " makes .venv)")


if __name__ == "__main__":
    use_this_checkout()
    sys.exit(main(sys.argv[1:]))
