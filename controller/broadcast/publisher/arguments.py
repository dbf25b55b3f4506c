"""The broadcast's command-line options, for `reedboard play` and `reedboard replay` (light: no
MQTT client is imported until a command runs)."""

from __future__ import annotations

import argparse

from ...language.catalogue import COMMANDS

_ = COMMANDS.gettext
URL = "mqtt://[USER:PASSWORD@]HOST[:PORT][/PREFIX]"


def add_broadcast_arguments(parser: argparse.ArgumentParser) -> None:
    """`--broadcast URL` and `--name NAME` (`reedboard play`; config keys [broadcast] url, name)."""
    parser.add_argument("--broadcast", metavar="URL", help=_(
        "publish the game live to an MQTT broker: {url} (mqtts:// for TLS); see docs/broadcast.md").format(url=URL))
    parser.add_argument("--name", metavar="NAME",
                        help=_("this board's name in the broadcast (default: the MQTT user, else the host name)"))


def add_replay_broadcast_arguments(parser: argparse.ArgumentParser) -> None:
    """`--broadcast URL --name NAME --speed X` on `reedboard replay`'s parser."""
    parser.add_argument("--broadcast", metavar="URL", help=_(
        "publish the game as a board would: {url} (mqtts:// for TLS); see docs/broadcast.md").format(url=URL))
    parser.add_argument("--name", metavar="NAME", help=_("the board's name in the broadcast"))
    parser.add_argument("--speed", type=float, default=1.0, metavar="X",
                        help=_("with --broadcast: X times the recorded pace (0: as fast as it can; default 1)"))
