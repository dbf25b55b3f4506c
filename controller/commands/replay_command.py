"""`reedboard replay TRACE`: a trace file replayed, the game record it gives (or, with
--broadcast, the game published as a board would)."""

from __future__ import annotations

import argparse
import sys

from .usage import UsageError
from ..language.catalogue import COMMANDS

from ..broadcast.publisher.arguments import add_replay_broadcast_arguments
from ..words import said

_ = COMMANDS.gettext


def add_parser(commands) -> argparse.ArgumentParser:
    replay = commands.add_parser("replay", help=_("replay a trace file: the game record it gives"))
    replay.add_argument("trace", metavar="TRACE", help=_("a trace file (JSON Lines)"))
    replay.add_argument("--events", action="store_true",
                        help=_("also print what the players were shown, one line each, with the time"))
    replay.add_argument("--save", action="store_true",
                        help=_("keep the replayed game in the archive (the configuration's games folder)"))
    add_replay_broadcast_arguments(replay)
    replay.set_defaults(run=run)
    return replay


def run(args: argparse.Namespace) -> int:
    if args.broadcast:
        return run_broadcast(args)
    from ..session.replay import replay
    from ..persist.trace import read_trace

    replayed = replay(read_trace(args.trace), source=args.trace)
    for line in replayed.record:
        print(line)
    if args.events:
        print()
        from ..words.notes import written

        for note in replayed.notes:
            print(f"{note.t:9.3f}  {written(note.kind, note.data, replayed.referee.game)}")
    if args.save:
        from .games_command import archive_folder
        from ..archive.records import save_replayed

        path = save_replayed(args.trace, archive_folder(), replayed)
        print(_("reedboard: kept in the archive as {name} ({path})").format(name=path.name.removesuffix(".jsonl"), path=path),
              file=sys.stderr)
    return 0


def run_broadcast(args: argparse.Namespace) -> int:
    """`reedboard replay TRACE --broadcast URL ...`: 0 when every line reached the broker."""
    if args.speed is None or not args.speed >= 0 or args.speed == float("inf"):
        raise UsageError(_("reedboard: --speed is a number, 0 or more (0: as fast as it can)"))
    import asyncio

    from ..broadcast.address import BroadcastError, parse_broker_url
    from ..broadcast.publisher.board import board_name
    from ..broadcast.publisher.replay import publish_trace
    from ..persist.journal_format import JournalError
    from ..persist.trace import TraceError, read_trace

    try:
        address = parse_broker_url(args.broadcast)
        name = board_name(args.name, address)
        trace = read_trace(args.trace)
    except (BroadcastError, TraceError) as error:
        raise UsageError(f"reedboard: {said(error)}") from None
    try:
        sent = asyncio.run(publish_trace(trace, address, name, speed=args.speed, source=args.trace))
    except (TraceError, JournalError) as error:
        raise UsageError(f"reedboard: {said(error)}") from None
    except KeyboardInterrupt:
        return 130
    return 0 if sent else 1
