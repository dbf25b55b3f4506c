"""`reedboard replay TRACE`: a trace file replayed, the game record it gives (or, with
--broadcast, the game published as a board would)."""

from __future__ import annotations

import argparse
import sys

from reedboard.controller.broadcast.arguments import add_replay_broadcast_arguments


def add_parser(commands) -> argparse.ArgumentParser:
    replay = commands.add_parser("replay", help="replay a trace file: the game record it gives")
    replay.add_argument("trace", metavar="TRACE", help="a trace file (JSON Lines)")
    replay.add_argument("--events", action="store_true",
                        help="also print what the players were shown, one line each, with the time")
    replay.add_argument("--save", action="store_true",
                        help="keep the replayed game in the archive (the configuration's games folder)")
    add_replay_broadcast_arguments(replay)
    replay.set_defaults(run=run)
    return replay


def run(args: argparse.Namespace) -> int:
    if args.broadcast:
        from reedboard.controller.broadcast.replay_publish import run_replay_broadcast

        return run_replay_broadcast(args)
    from reedboard.controller.session.replay import replay
    from reedboard.controller.persist.trace import read_trace

    replayed = replay(read_trace(args.trace), source=args.trace)
    for line in replayed.record:
        print(line)
    if args.events:
        print()
        for note in replayed.notes:
            print(note)
    if args.save:
        from reedboard.controller.archive.games_command import archive_folder
        from reedboard.controller.archive.records import save_replayed

        path = save_replayed(args.trace, archive_folder(), replayed)
        print(f"reedboard: kept in the archive as {path.name.removesuffix('.jsonl')} ({path})", file=sys.stderr)
    return 0
