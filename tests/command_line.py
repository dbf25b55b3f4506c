"""A command's own parser, run as `reedboard` runs it, for the commands' tests."""

import sys

from reedboard.controller.commands.usage import Parser, UsageError


def run_command(module, argv, capsys):
    """`reedboard ARGV...` with only `module`'s command (its add_parser): (status, out, err)."""
    parser = Parser(prog="reedboard")
    module.add_parser(parser.add_subparsers(dest="command", parser_class=Parser))
    try:
        args = parser.parse_args(argv)
        status = args.run(args)
    except UsageError as error:
        print(error, file=sys.stderr)
        status = 2
    out, err = capsys.readouterr()
    return status, out, err
