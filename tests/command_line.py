"""The `reedboard` command line for the tests: a command's own parser run in this process as
`reedboard` runs it (run_command, or run_parsed leaving the output to capsys), and the whole command line in a process of its own, as a
player or a maker types it (run_reedboard, start_reedboard)."""

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from reedboard.controller.commands.usage import Parser, UsageError

SCRIPT = Path(sys.executable).absolute().parent / "reedboard"  # the installed entry point
MODULE = [sys.executable, "-m", "reedboard.controller.commands.cli"]  # the same command through this Python


def reedboard_command(*argv, installed: bool | None = False) -> list[str]:
    """The argument list of `reedboard ARGV...`: `python -m reedboard.controller.commands.cli`; with
    installed, the entry point installed beside this Python (the test skips without one); with
    installed=None, that entry point where there is one, else python -m."""
    if installed is None:
        installed = SCRIPT.exists()
    elif installed and not SCRIPT.exists():
        pytest.skip("reedboard is not installed next to this Python")
    return [*([str(SCRIPT)] if installed else MODULE), *map(str, argv)]


def as_from_a_terminal() -> None:
    """In the started command, before it runs: Ctrl-C stops it, as at a terminal. The test runner's
    workers ignore SIGINT (their controller handles it), and a process inherits that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _before(preexec_fn):
    """What the started command does before it runs: as from a terminal, then `preexec_fn`."""
    def before() -> None:
        as_from_a_terminal()
        if preexec_fn is not None:
            preexec_fn()
    return before


def run_reedboard(*argv, installed: bool | None = False, env=None, cwd=None, input=None, timeout: float = 60,
                  preexec_fn=None) -> subprocess.CompletedProcess:
    """`reedboard ARGV...` run to its end in a process of its own, its output as text; its stdin
    is `input`, or nothing (it never waits on the test's terminal)."""
    return subprocess.run(reedboard_command(*argv, installed=installed), capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=timeout, preexec_fn=_before(preexec_fn),
                          **({"input": input} if input is not None else {"stdin": subprocess.DEVNULL}))


def start_reedboard(*argv, installed: bool | None = False, env=None, cwd=None, stdin=None,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE) -> subprocess.Popen:
    """`reedboard ARGV...` started in a process of its own, read as it speaks: its stdout a pipe of
    text lines (or a file), stderr a pipe (or subprocess.STDOUT to merge them, or a file). The
    caller ends it."""
    return subprocess.Popen(reedboard_command(*argv, installed=installed), stdin=stdin, stdout=stdout,
                            stderr=stderr, text=True, env=env, cwd=cwd, preexec_fn=as_from_a_terminal)


def run_parsed(module, argv) -> int:
    """`reedboard ARGV...` with only `module`'s command (its add_parser): its exit status, what it
    printed left for capsys (a mistaken command line: one line on stderr and 2, as cli.py does)."""
    parser = Parser(prog="reedboard")
    module.add_parser(parser.add_subparsers(dest="command", parser_class=Parser))
    try:
        args = parser.parse_args(list(map(str, argv)))
        return args.run(args)
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2


def run_command(module, argv, capsys):
    """`reedboard ARGV...` with only `module`'s command (its add_parser): (status, out, err)."""
    status = run_parsed(module, argv)
    out, err = capsys.readouterr()
    return status, out, err
