"""A mistaken command line: the error that says so in one line (exit status 2), and the parser
that raises it, speaking the language in use. It imports nothing of reedboard but the language
room, so that every command may use it."""

from __future__ import annotations

import argparse
import sys

from ..language.catalogue import COMMANDS, N_

_ = COMMANDS.gettext

# argparse's own words (usage:, options, its errors), for the catalogue; argparse looks them up
# through its module's `_` and `ngettext`, pointed at ours in `speak_argparse`.
ARGPARSE_WORDS = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
    N_("show program's version number and exit"), N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"), N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("expected one argument"), N_("expected at most one argument"), N_("expected at least one argument"),
    N_("argument %(argument_name)s: %(message)s"), N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"), N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"), N_("ignored explicit argument %r"),
    N_("can't open '%(filename)s': %(error)s"),
)


def speak_argparse() -> None:
    """argparse's words from our catalogue, in the language in use."""
    argparse._ = COMMANDS.gettext
    argparse.ngettext = COMMANDS.ngettext

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
        raise UsageError(_("{prog}: {message} (see {command} --help)").format(
            prog=self.prog, message=message, command=self.prog))

    def parse_args(self, args=None, namespace=None):
        # What no parser took is refused by the command it was given to (`reedboard play: ...
        # (see reedboard play --help)`), not by the top parser, which argparse leaves it to.
        namespace, extras = self.parse_known_args(args, namespace)
        if extras:
            self.chosen(namespace).error(_("unrecognized arguments: %s") % " ".join(extras))
        return namespace

    def chosen(self, namespace: argparse.Namespace) -> argparse.ArgumentParser:
        """The parser of the command (and its action: `games list`) that `namespace` names."""
        parser = self
        while parser._subparsers is not None:
            commands = [a for a in parser._subparsers._group_actions if isinstance(a, argparse._SubParsersAction)]
            name = getattr(namespace, commands[0].dest, None) if commands else None
            if name not in (commands[0].choices if commands else {}):
                break
            parser = commands[0].choices[name]
        return parser

    def parse_known_args(self, args=None, namespace=None):
        # argparse cannot intermix with subcommands; a command's own parser has none, and the
        # intermixed parse calls back in here for its two passes.
        if self._intermixing or self._subparsers is not None:
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        saved = self.usage
        if saved is None:  # argparse would cut its own 7 characters, "usage: ", off the usage in any language
            self.usage = self.format_usage()[len(_("usage: ")):]
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self.usage = saved
            self._intermixing = False


def is_user_error(error: BaseException) -> bool:
    """Whether `error` is a mistake in what someone gave (one line, status 2), not a fault."""
    kinds = tuple(getattr(sys.modules[module], name) for module, name in USER_ERRORS
                  if module in sys.modules and hasattr(sys.modules[module], name))
    return isinstance(error, kinds)
