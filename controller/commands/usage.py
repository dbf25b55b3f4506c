"""A mistaken command line: the error that says so in one line (exit status 2), and the parser
that raises it. It imports nothing of reedboard, so that every command may use it."""

from __future__ import annotations

import argparse
import sys

# Errors that get one line and exit status 2: ValueErrors of these modules (a file or a value
# someone gave). They are looked up only once something failed, so that `reedboard --help`
# does not load the journal, the trace reader and the board loader for their exception classes.
USER_ERRORS = (("reedboard.controller.games", "SetupError"), ("reedboard.controller.games", "LayoutError"),
               ("reedboard.controller.games", "MoveError"), ("reedboard.controller.persist.trace", "TraceError"),
               ("reedboard.controller.persist.journal_format", "JournalError"), ("reedboard.hal.board", "BoardError"))


class UsageError(Exception):
    """A mistaken command line: one line of message, exit status 2."""


class Parser(argparse.ArgumentParser):
    """Options are read wherever they stand, before, between or after the positionals
    (`show GAME MOVE MOVE --option value`), as a new user writes them."""

    _intermixing = False

    def error(self, message: str) -> None:  # one line instead of argparse's usage dump
        raise UsageError(f"{self.prog}: {message} (see {self.prog.split()[0]} --help)")

    def parse_known_args(self, args=None, namespace=None):
        # argparse cannot intermix with subcommands; a command's own parser has none, and the
        # intermixed parse calls back in here for its two passes.
        if self._intermixing or self._subparsers is not None:
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False


def is_user_error(error: BaseException) -> bool:
    """Whether `error` is a mistake in what someone gave (one line, status 2), not a fault."""
    kinds = tuple(getattr(sys.modules[module], name) for module, name in USER_ERRORS
                  if module in sys.modules and hasattr(sys.modules[module], name))
    return isinstance(error, kinds)
