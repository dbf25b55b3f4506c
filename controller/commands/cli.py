"""The `reedboard` command line: the top parser assembled from the commands' own parsers, the
command named run, and a mistake in what was given said in one line (exit status 2).

Each command's module adds its parser (`add_parser`) and runs it (`run`, set as the parser's
default); it imports its heavy modules only when it runs, so that `reedboard --help` starts fast.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from .. import __version__
from . import games_command
from . import club_command
from . import (
    bringup_command, calibrate_command, config_command, doctor_command, export_command, fake_board, firmware_command,
    hardware_command, match_command, perft_command, play_command, replay_command, review_command, selftest_command,
    service, show_command,
)
from .usage import Parser, UsageError, is_user_error, speak_argparse
from ..language.catalogue import COMMANDS as WORDS, LANGUAGES, set_default
from ..language.choosing import from_environment, supported

_ = WORDS.gettext

# The commands, in the order --help lists them: what a player needs first (a game, a position,
# the games played and their reviews, a club's evening), then what a builder needs on the way from
# the drawings to a board that starts at boot, then the maintainers' checks of the engines.
COMMANDS = (play_command, show_command, replay_command, games_command, review_command, export_command, club_command,
            hardware_command, firmware_command, doctor_command, bringup_command, selftest_command, calibrate_command,
            config_command, service, fake_board,
            perft_command, match_command)


__all__ = ["COMMANDS", "build_parser", "main"]


def build_parser() -> Parser:
    parser = Parser(prog="reedboard", description=_("reedboard: the controller of a reed-switch game board."))
    parser.add_argument("--version", action="version", version=f"reedboard {__version__}",
                        help=_("show program's version number and exit"))
    parser.add_argument("--lang", choices=LANGUAGES, metavar="LANG",
                        help=_("the language of messages and help: {languages} (default: from LANG)").format(
                            languages=", ".join(LANGUAGES)))
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for module in COMMANDS:
        module.add_parser(commands)
    return parser


def chosen_language(argv: Sequence[str], environ) -> str:
    """`--lang X` before the command (read first: the help is written in it), else the environment's."""
    for i, word in enumerate(argv):
        if word == "--lang" and i + 1 < len(argv) and supported(argv[i + 1]):
            return supported(argv[i + 1])
        if word.startswith("--lang=") and supported(word[7:]):
            return supported(word[7:])
        if not word.startswith("-"):
            break
    return from_environment(environ)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    set_default(chosen_language(argv, os.environ))
    speak_argparse()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            raise UsageError(_("reedboard: choose a command (see reedboard --help)"))
        return args.run(args)
    except BrokenPipeError:  # the output went to a pipe that closed (`| head`): not an error
        sys.stdout = open(os.devnull, "w")
        return 0
    except Exception as error:
        if not isinstance(error, UsageError) and not is_user_error(error):
            raise
        from ..words import said  # a phrase handed up from below, in the language in use

        message = said(error)
        print(message if message.startswith("reedboard") else f"reedboard: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
