"""`reedboard games ...`: the archive of games played at the board, imported or replayed.

    games list [--game G] [--player NAME] [--since DATE] [--until DATE] [--result win|draw|unfinished] [--limit N]
    games show ID                      headers, record and a diagram of the final position
    games export ID|--all [--format record|json] [--out FILE]
    games import FILE                  records typed by hand, checked move by move, all or none
    games reindex                      build the index again from the journals
    games rename-player OLD NEW        in every game, kept in the journals
    games delete ID [--yes]            the journal and its trace
    games stats [--player NAME]

Each takes --dir DIR (the games folder; default: the configuration's [play] games_dir) and
--config FILE. Damaged journals are named on standard error, with their line, and skipped.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from datetime import date
from pathlib import Path

from .usage import UsageError

RESULTS = ("win", "draw", "unfinished")
FORMATS = ("record", "json")


def add_parser(commands) -> argparse.ArgumentParser:
    """`reedboard games SUBCOMMAND ...` on the command line's subcommands."""
    from ..games import GAMES, game_name

    parser = commands.add_parser("games", help="the archive of games: list, show, export, import, rename, delete, stats")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    parser.set_defaults(run=_no_action)

    def action(name: str, help_text: str, run) -> argparse.ArgumentParser:
        sub = actions.add_parser(name, help=help_text)
        sub.add_argument("--dir", metavar="DIR", help="the games folder (default: [play] games_dir of the configuration)")
        sub.add_argument("--config", metavar="FILE", help="the configuration file")
        sub.set_defaults(run=run)
        return sub

    listing = action("list", "list the games, newest first", run_list)
    listing.add_argument("--game", type=game_name, choices=sorted(GAMES), help="only this game")
    listing.add_argument("--player", metavar="NAME", help="only games this player played (any case)")
    listing.add_argument("--since", type=_day, metavar="DATE", help="only games from this day on (YYYY-MM-DD)")
    listing.add_argument("--until", type=_day, metavar="DATE", help="only games up to this day (YYYY-MM-DD)")
    listing.add_argument("--result", choices=RESULTS, help="win (someone won), draw or unfinished")
    listing.add_argument("--limit", type=_count, metavar="N", help="at most N games")

    show = action("show", "show a game: its headers, its record and the final position", run_show)
    show.add_argument("id", metavar="ID", help="the game's ID as `games list` shows it (or a unique start of it)")

    export = action("export", "write games as records (or JSON)", run_export)
    export.add_argument("id", metavar="ID", nargs="?", help="the game's ID")
    export.add_argument("--all", action="store_true", help="every game of the archive")
    export.add_argument("--format", choices=FORMATS, default="record", help="record (default) or json")
    export.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")

    importing = action("import", "add the games of a file of records, every move checked", run_import)
    importing.add_argument("file", metavar="FILE", help="a file of one or more records (docs/records.md)")

    action("reindex", "build the archive's index again from the journals", run_reindex)

    rename = action("rename-player", "rename a player in every game", run_rename)
    rename.add_argument("old", metavar="OLD", help="the player's name now")
    rename.add_argument("new", metavar="NEW", help="the name to give them")

    delete = action("delete", "delete a game: its journal and its trace", run_delete)
    delete.add_argument("id", metavar="ID", help="the game's ID as `games list` shows it (or a unique start of it)")
    delete.add_argument("--yes", action="store_true", help="do not ask")

    stats = action("stats", "games, wins, draws and losses per player and game", run_stats)
    stats.add_argument("--player", metavar="NAME", help="only this player's games")
    return parser


# --- argument types -------------------------------------------------------------------------
def _day(text: str) -> date:
    try:
        return date.fromisoformat(text.replace(".", "-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a day is YYYY-MM-DD, not {text!r}") from None


def _count(text: str) -> int:
    if not text.isdigit() or int(text) == 0:
        raise argparse.ArgumentTypeError(f"a number of games is 1 or more, not {text!r}")
    return int(text)


def _usage(message: str) -> Exception:
    return UsageError(message if message.startswith("reedboard") else f"reedboard: {message}")


def _no_action(args: argparse.Namespace) -> int:
    raise _usage("reedboard games: choose list, show, export, import, reindex, rename-player, delete or stats"
                 " (see reedboard games --help)")


def games_dir(args: argparse.Namespace) -> Path:
    """--dir, else the configuration's games folder, else the default one."""
    return archive_folder(args.dir, args.config)


def archive_folder(folder: str | Path | None = None, config: str | Path | None = None) -> Path:
    """The games folder: `folder` when given, else [play] games_dir of the configuration file
    (`config`, or the default one), else the default folder. UsageError for a bad configuration."""
    from ..persist.game_files import default_games_dir

    if folder:
        return Path(folder).expanduser()
    from .config import ConfigError, load

    try:
        configured = load(config)["play.games_dir"]
    except ConfigError as error:
        raise _usage(str(error)) from None
    return Path(configured) if configured else default_games_dir()


def _archive(args: argparse.Namespace, jobs: int | None = None, report: bool = True, refresh: bool = True):
    """The archive of the games folder, brought up to date; the damaged journals named on stderr."""
    import os

    from ..archive.index import Archive

    folder = games_dir(args)
    if folder.exists() and not folder.is_dir():
        raise _usage(f"{folder} is not a folder: --dir names the games folder")
    try:
        archive = Archive(folder, jobs=jobs or os.cpu_count() or 1)
        skipped = archive.refresh() if refresh else []
    except OSError as error:
        raise _usage(f"cannot read the games in {folder} ({error.strerror or error})") from None
    except sqlite3.Error as error:  # another reedboard holding the index too long, say
        raise _usage(f"the archive's index in {folder} cannot be used now ({error}); try again") from None
    if report:
        for problem in skipped:
            print(f"reedboard: skipped {problem}", file=sys.stderr)
    return archive


def _resolve(archive, key: str) -> str:
    from ..archive.index import ArchiveError

    try:
        return archive.resolve(key)
    except ArchiveError as error:
        raise _usage(str(error)) from None


# --- the actions ----------------------------------------------------------------------------
def run_list(args: argparse.Namespace) -> int:
    if args.since and args.until and args.since > args.until:
        raise _usage(f"reedboard games list: --since {args.since} is after --until {args.until}")
    with _archive(args) as archive:
        found = archive.games(game=args.game, player=args.player, since=args.since, until=args.until,
                              result=args.result, limit=args.limit)
        if not found:
            print(f"no games in {archive.games_dir}" + (" that match" if _filtered(args) else ""))
            return 0
        rows = [(g["id"], g["game"], _when(g["started"]), players_text(g), str(g["moves"]), g["line"] or "*")
                for g in found]
        print(_columns([("ID", "game", "started", "players", "moves", "result"), *rows]))
    return 0


def _filtered(args: argparse.Namespace) -> bool:
    return any(getattr(args, key) is not None for key in ("game", "player", "since", "until", "result"))


def _when(started: str) -> str:
    return started[:16].replace("T", " ") if started else "?"


def players_text(game: dict) -> str:
    """`Ann (black) - Bob (white)`; a side without a name is the computer's (with its level) or ?."""
    computer = game.get("computer") or {}
    sides = []
    for colour in game["colours"]:
        name = game["players"].get(colour)
        if name is None:
            name = f"computer:{computer['level']}" if computer.get("plays") == colour else "?"
        sides.append(f"{name} ({colour})")
    return " - ".join(sides)


def _columns(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows)


def run_show(args: argparse.Namespace) -> int:
    from ..persist.journal_format import JournalError
    from ..persist.journal_replay import rebuild
    from ..persist.journal_reader import read_journal

    with _archive(args) as archive:
        path = archive.journal(_resolve(archive, args.id))
        try:
            contents = read_journal(path)
        except JournalError as error:
            raise _usage(str(error)) from None
        from ..archive.records import game_record, record_lines

        print(f"game {path.name.removesuffix('.jsonl')}  ({path})")
        print("\n".join(record_lines(game_record(contents))))
        print()
        print(rebuild(contents).game.diagram())
    return 0


def run_export(args: argparse.Namespace) -> int:
    from ..persist.journal_format import JournalError
    from ..persist.journal_reader import read_journal
    from ..archive.records import game_record, record_data, record_lines

    if args.all == (args.id is not None):
        raise _usage("reedboard games export: give a game's ID or --all, one of them")
    with _archive(args) as archive:
        ids = [g["id"] for g in reversed(archive.games())] if args.all else [_resolve(archive, args.id)]
        records = []
        for game_id in ids:
            try:
                records.append((game_id, game_record(read_journal(archive.journal(game_id)))))
            except JournalError as error:  # changed since the index read it
                print(f"reedboard: skipped {error}", file=sys.stderr)
    if args.format == "json":
        data = [{"id": game_id, **record_data(record)} for game_id, record in records]
        text = json.dumps(data if args.all else data[0], indent=1, ensure_ascii=False) + "\n"
    else:
        text = "\n".join("\n".join(record_lines(record)) + "\n" for _, record in records)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.out).write_text(text, encoding="utf-8")
    except OSError as error:
        raise _usage(f"cannot write {args.out} ({error.strerror or error}); choose another --out") from None
    print(f"{len(records)} game{'s' if len(records) != 1 else ''} written to {args.out}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    from ..persist.journal_format import JournalError
    from ..archive.records import RecordError, import_records

    folder = games_dir(args)
    try:
        written = import_records(args.file, folder)
    except (RecordError, JournalError) as error:
        raise _usage(f"{error}; nothing was imported") from None
    except OSError as error:
        raise _usage(f"cannot write the games in {folder} ({error.strerror or error}); nothing was imported") from None
    with _archive(args, report=False):
        pass  # the new games are in the index from now on
    print(f"imported {len(written)} game{'s' if len(written) != 1 else ''} into {folder}:")
    for path in written:
        print(f"  {path.name.removesuffix('.jsonl')}")
    return 0


def run_reindex(args: argparse.Namespace) -> int:
    import time

    started = time.monotonic()
    with _archive(args, refresh=False) as archive:
        skipped = archive.rebuild()
        for problem in skipped:
            print(f"reedboard: skipped {problem}", file=sys.stderr)
        count = len(archive.games())
        folder = archive.games_dir
    print(f"indexed {count} game{'s' if count != 1 else ''} in {folder}"
          f" ({len(skipped)} damaged journal{'s' if len(skipped) != 1 else ''} skipped)"
          f" in {time.monotonic() - started:.1f} s")
    return 0


def run_rename(args: argparse.Namespace) -> int:
    from ..archive.index import ArchiveError

    with _archive(args) as archive:
        try:
            renamed, failed = archive.rename_player(args.old, args.new)
        except ArchiveError as error:
            raise _usage(f"reedboard games rename-player: {error}") from None
    for problem in failed:
        print(f"reedboard: not renamed in {problem}", file=sys.stderr)
    print(f"renamed {args.old} to {args.new.strip()} in {renamed} game{'s' if renamed != 1 else ''}")
    return 1 if failed else 0


def run_delete(args: argparse.Namespace) -> int:
    from ..archive.index import ArchiveError

    with _archive(args) as archive:
        game_id = _resolve(archive, args.id)
        game = archive.game(game_id)
        what = f"{game_id}: {game['title']}, {players_text(game)}, {game['moves']} moves, {game['line'] or '*'}"
        if not args.yes:
            if not sys.stdin.isatty():
                raise _usage(f"reedboard games delete: deleting {game_id} needs an answer: run it at a terminal,"
                             " or add --yes")
            answer = input(f"delete {what}? [y/N] ").strip().casefold()
            if answer not in ("y", "yes"):
                print("nothing deleted")
                return 1
        try:
            archive.delete(game_id)
        except ArchiveError as error:
            raise _usage(f"reedboard games delete: {error}") from None
    print(f"deleted {what}")
    return 0


def run_stats(args: argparse.Namespace) -> int:
    with _archive(args) as archive:
        stats = archive.stats(args.player)
    print(stats_text(stats))
    return 0


def stats_text(stats: dict) -> str:
    """The statistics as two tables: per player and game, then per game."""
    if not stats["games"]:
        return "no games"
    parts = []
    if stats["players"]:
        rows = [("player", "game", "games", "wins", "draws", "losses", "unfinished")]
        rows += [(e["player"], e["game"], *(str(e[k]) for k in ("games", "wins", "draws", "losses", "unfinished")))
                 for e in stats["players"]]
        parts.append(_columns(rows))
    rows = [("game", "games", "finished", "first player w/d/l", "wins by colour", "draws", "average moves")]
    for e in stats["games"]:
        first = e["first"]
        colours = " ".join(f"{colour} {wins}" for colour, wins in e["colours"].items())
        rows.append((e["game"], str(e["games"]), str(e["finished"]),
                     f"{first['wins']}/{first['draws']}/{first['losses']}", colours, str(e["draws"]),
                     "-" if e["average_moves"] is None else f"{e['average_moves']:g}"))
    parts.append(_columns(rows))
    return "\n\n".join(parts)
