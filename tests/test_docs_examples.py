"""Every example in the guides, checked as a reader would use it.

The fenced blocks of README.md, docs/*.md, hardware/README.md and firmware/README.md:
- `toml`: parses; a configuration sample passes `reedboard config`'s checks, a club's boards
  file the club's, a board file the board loader's;
- `json`: parses (one value, or several one after the other);
- `sh`, `bash`, `console`: every `reedboard` command in it parses with the real command line
  (nothing is run), every `python FILE` names a file of the repository, every `python -c CODE`
  runs;
- a block of no language, or `text` (output, a synopsis, a record): its lines typed at a `$ `
  prompt, and in a block of no language its lines that start with `reedboard `, as the shell's;
- `python`: compiles, and runs in a folder of its own.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from reedboard.controller.commands.cli import build_parser
from reedboard.controller.commands.usage import UsageError

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parent.parent
GUIDES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), ROOT / "hardware" / "README.md",
          ROOT / "firmware" / "README.md"]
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)
SHELLS = {"sh", "bash", "console", "shell"}
UNMARKED = {"", "text"}  # blocks whose typed commands are found by their prompt or their first word


@dataclass(frozen=True)
class Example:
    path: Path
    line: int
    lang: str
    text: str

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def examples(*langs: str) -> list[Example]:
    found = []
    for path in GUIDES:
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            if match["lang"] in langs:
                body = textwrap.dedent(match["body"]) if match["indent"] else match["body"]
                found.append(Example(path, text.count("\n", 0, match.start()) + 1, match["lang"], body))
    return found


def ids(found):
    return [str(example) for example in found]


# --- TOML ----------------------------------------------------------------------------------------

def _kind(data: dict) -> str:
    from reedboard.controller.workshop.config import TABLES

    if set(data) <= set(TABLES):
        return "configuration"
    if set(data) == {"boards"}:
        return "boards"
    if "matrix" in data:
        return "board"
    return "toml"


@pytest.mark.parametrize("example", examples("toml"), ids=ids(examples("toml")))
def test_every_toml_example_parses_and_passes_its_checks(example, tmp_path):
    try:
        data = tomllib.loads(example.text)
    except tomllib.TOMLDecodeError as error:
        pytest.fail(f"{example}: not TOML: {error}")
    path = tmp_path / "example.toml"
    path.write_text(example.text, encoding="utf-8")
    kind = _kind(data)
    if kind == "configuration":
        from reedboard.controller.workshop.config import ConfigError, load

        try:
            load(path)
        except ConfigError as error:
            pytest.fail(f"{example}: {error}")
    elif kind == "boards":
        from reedboard.controller.commands.club_command import read_boards

        read_boards(path)
    elif kind == "board":
        from reedboard.hal.board import load_board

        load_board(str(path))


# --- JSON ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("example", examples("json"), ids=ids(examples("json")))
def test_every_json_example_parses(example):
    decoder, text, at, values = json.JSONDecoder(), example.text, 0, 0
    while text[at:].strip():
        at += len(text[at:]) - len(text[at:].lstrip())
        try:
            _, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError as error:
            pytest.fail(f"{example}: not JSON: {error}")
        values += 1
    assert values


# --- shell -----------------------------------------------------------------------------------------

def substitutions(line: str) -> list[str]:
    """The commands inside $( ... ) of a line, however deep."""
    found, start = [], line.find("$(")
    while start != -1:
        depth, at = 0, start + 1
        while at < len(line):
            depth += {"(": 1, ")": -1}.get(line[at], 0)
            if depth == 0:
                break
            at += 1
        inner = line[start + 2:at]
        found += [inner, *substitutions(inner)]
        start = line.find("$(", at)
    return found


def shell_lines(example: Example) -> list[str]:
    """The commands of a block: continuation lines joined; a console block's prompts only;
    the commands of its $( ... ) too."""
    text = example.text.replace("\\\n", " ")
    lines = text.splitlines()
    if example.lang in UNMARKED:
        typed = ("$ ", "reedboard ") if example.lang == "" else ("$ ",)
        lines = [line for line in lines if line.startswith(typed)]
    if example.lang == "console" or any(line.startswith("$ ") for line in lines):
        lines = [line[2:] for line in lines if line.startswith("$ ")]
    return [part for line in lines if line.strip() for part in (line, *substitutions(line))]


def simple_commands(line: str) -> list[list[str]]:
    """A command line cut at &&, ||, ;, | into its simple commands, without comments."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    commands, words = [], []
    for token in lexer:
        if token and set(token) <= set(";&|"):
            commands.append(words)
            words = []
        else:
            words.append(token)
    commands.append(words)
    return [words for words in commands if words]


def program(words: list[str]) -> list[str]:
    """The command itself: without variable assignments, sudo or env in front."""
    while words and (re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]) or words[0] in ("sudo", "env")):
        words = words[1:]
    return words


def reedboard_commands():
    found = []
    for example in examples(*SHELLS, *UNMARKED):
        for line in shell_lines(example):
            for words in simple_commands(line):
                words = program(words)
                if words and Path(words[0]).name == "reedboard":
                    found.append((example, words[1:]))
    return found


def python_commands():
    found = []
    for example in examples(*SHELLS, *UNMARKED):
        for line in shell_lines(example):
            for words in simple_commands(line):
                words = program(words)
                if words and re.fullmatch(r"(micro)?python(3(\.\d+)?)?", Path(words[0]).name):
                    found.append((example, words[1:]))
    return found


def test_the_guides_have_shell_examples_to_check():
    assert len(reedboard_commands()) >= 10


def test_a_block_of_no_language_gives_its_typed_commands_only():
    here = ROOT / "README.md"
    assert shell_lines(Example(here, 1, "", "reedboard club   # its page on 8080\nlistener 8883\n")) == \
        ["reedboard club   # its page on 8080"]
    assert shell_lines(Example(here, 1, "text", "$ reedboard games import club.txt\nreedboard: club.txt:14: refused\n"
                                                "reedboard show GAME [--first {black,white}]\n")) == \
        ["reedboard games import club.txt"]


@pytest.mark.parametrize("example, argv", reedboard_commands(),
                         ids=[f"{e} reedboard {' '.join(a)}" for e, a in reedboard_commands()])
def test_every_reedboard_command_of_the_guides_parses(example, argv):
    try:
        args = build_parser().parse_args(argv)
    except UsageError as error:
        pytest.fail(f"{example}: reedboard {' '.join(argv)}: {error}")
    except SystemExit as stop:  # --help, --version
        assert stop.code == 0, f"{example}: reedboard {' '.join(argv)}"
        return
    assert getattr(args, "run", None), f"{example}: reedboard {' '.join(argv)} names no command"


@pytest.mark.parametrize("example, argv", python_commands(),
                         ids=[f"{e} python {' '.join(a)[:40]}" for e, a in python_commands()])
def test_every_python_command_of_the_guides_names_what_is_there(example, argv, tmp_path):
    if argv[:1] == ["-m"]:
        module = argv[1]
        assert module in ("pytest", "venv", "pip", "mpremote") or module.startswith("reedboard."), f"{example}: {module}"
    elif argv[:1] == ["-c"]:
        done = subprocess.run([sys.executable, "-c", argv[1]], cwd=tmp_path, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, f"{example}: {done.stderr[-1000:]}"
        printed = done.stdout.strip()
        if printed.startswith("/"):  # a path the guide builds on
            assert Path(printed).exists(), f"{example}: {printed}"
    else:
        assert (ROOT / argv[0]).is_file(), f"{example}: no file {argv[0]}"


# --- Python --------------------------------------------------------------------------------------

@pytest.mark.parametrize("example", examples("python"), ids=ids(examples("python")))
def test_every_python_example_runs(example, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = compile(example.text, str(example), "exec")
    exec(code, {"__name__": "__example__"})
