"""The broadcast's command-line options, for `reedboard play` and `reedboard replay` (light: no
MQTT client is imported until a command runs)."""

from __future__ import annotations

import argparse

URL_HELP = "mqtt://[USER:PASSWORD@]HOST[:PORT][/PREFIX] (mqtts:// for TLS); see docs/broadcast.md"


def add_broadcast_arguments(parser: argparse.ArgumentParser) -> None:
    """`--broadcast URL` and `--name NAME` (`reedboard play`; config keys [broadcast] url, name)."""
    parser.add_argument("--broadcast", metavar="URL", help=f"publish the game live to an MQTT broker: {URL_HELP}")
    parser.add_argument("--name", metavar="NAME",
                        help="this board's name in the broadcast (default: the MQTT user, else the host name)")


def add_replay_broadcast_arguments(parser: argparse.ArgumentParser) -> None:
    """`--broadcast URL --name NAME --speed X` on `reedboard replay`'s parser."""
    parser.add_argument("--broadcast", metavar="URL", help=f"publish the game as a board would: {URL_HELP}")
    parser.add_argument("--name", metavar="NAME", help="the board's name in the broadcast")
    parser.add_argument("--speed", type=float, default=1.0, metavar="X",
                        help="with --broadcast: X times the recorded pace (0: as fast as it can; default 1)")
