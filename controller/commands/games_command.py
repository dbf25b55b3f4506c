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
import sys
from datetime import date
from pathlib import Path

from .usage import UsageError
from ..language.catalogue import COMMANDS, PLAY
from ..words import said

_ = COMMANDS.gettext
ngettext = COMMANDS.ngettext

RESULTS = ("win", "draw", "unfinished")
FORMATS = ("record", "json")


def add_parser(commands) -> argparse.ArgumentParser:
    """`reedboard games SUBCOMMAND ...` on the command line's subcommands."""
    from ..games import GAMES, game_name

    parser = commands.add_parser("games", help=_("the archive of games: list, show, export, import, rename, delete, stats"))
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    parser.set_defaults(run=_no_action)

    def action(name: str, help_text: str, run) -> argparse.ArgumentParser:
        sub = actions.add_parser(name, help=help_text)
        sub.add_argument("--dir", metavar="DIR", help=_("the games folder (default: [play] games_dir of the configuration)"))
        sub.add_argument("--config", metavar="FILE", help=_("the configuration file"))
        sub.set_defaults(run=run)
        return sub

    listing = action("list", _("list the games, newest first"), run_list)
    listing.add_argument("--game", type=game_name, choices=sorted(GAMES), help=_("only this game"))
    listing.add_argument("--player", metavar="NAME", help=_("only games this player played (any case)"))
    listing.add_argument("--since", type=_day, metavar="DATE", help=_("only games from this day on (YYYY-MM-DD)"))
    listing.add_argument("--until", type=_day, metavar="DATE", help=_("only games up to this day (YYYY-MM-DD)"))
    listing.add_argument("--result", choices=RESULTS, help=_("win (someone won), draw or unfinished"))
    listing.add_argument("--limit", type=_count, metavar="N", help=_("at most N games"))

    show = action("show", _("show a game: its headers, its record and the final position"), run_show)
    show.add_argument("id", metavar="ID", help=_("the game's ID as `games list` shows it (or a unique start of it)"))

    export = action("export", _("write games as records (or JSON)"), run_export)
    export.add_argument("id", metavar="ID", nargs="?", help=_("the game's ID"))
    export.add_argument("--all", action="store_true", help=_("every game of the archive"))
    export.add_argument("--format", choices=FORMATS, default="record", help=_("record (default) or json"))
    export.add_argument("--out", metavar="FILE", help=_("write to FILE instead of standard output"))

    importing = action("import", _("add the games of a file of records, every move checked"), run_import)
    importing.add_argument("file", metavar="FILE", help=_("a file of one or more records (docs/records.md)"))

    action("reindex", _("build the archive's index again from the journals"), run_reindex)

    rename = action("rename-player", _("rename a player in every game"), run_rename)
    rename.add_argument("old", metavar="OLD", help=_("the player's name now"))
    rename.add_argument("new", metavar="NEW", help=_("the name to give them"))

    delete = action("delete", _("delete a game: its journal and its trace"), run_delete)
    delete.add_argument("id", metavar="ID", help=_("the game's ID as `games list` shows it (or a unique start of it)"))
    delete.add_argument("--yes", action="store_true", help=_("do not ask"))

    stats = action("stats", _("games, wins, draws and losses per player and game"), run_stats)
    stats.add_argument("--player", metavar="NAME", help=_("only this player's games"))
    return parser


# --- argument types -------------------------------------------------------------------------
def _day(text: str) -> date:
    try:
        return date.fromisoformat(text.replace(".", "-"))
    except ValueError:
        raise argparse.ArgumentTypeError(_("a day is YYYY-MM-DD, not {text}").format(text=repr(text))) from None


def _count(text: str) -> int:
    if not text.isdigit() or int(text) == 0:
        raise argparse.ArgumentTypeError(_("a number of games is 1 or more, not {text}").format(text=repr(text)))
    return int(text)


def _usage(message: str) -> Exception:
    return UsageError(message if message.startswith("reedboard") else f"reedboard: {message}")


def _no_action(args: argparse.Namespace) -> int:
    raise _usage(_("reedboard games: choose list, show, export, import, reindex, rename-player, delete or stats"
                   " (see reedboard games --help)"))


def games_dir(args: argparse.Namespace) -> Path:
    """--dir, else the configuration's games folder, else the default one."""
    return archive_folder(args.dir, args.config)


def archive_folder(folder: str | Path | None = None, config: str | Path | None = None) -> Path:
    """The games folder: `folder` when given, else [play] games_dir of the configuration file
    (`config`, or the default one), else the default folder. UsageError for a bad configuration."""
    from ..persist.game_files import default_games_dir

    if folder:
        return Path(folder).expanduser()
    from ..workshop.config import ConfigError, load

    try:
        configured = load(config)["play.games_dir"]
    except ConfigError as error:
        raise _usage(said(error)) from None
    return Path(configured) if configured else default_games_dir()


def _archive(args: argparse.Namespace, jobs: int | None = None, report: bool = True, refresh: bool = True):
    """The archive of the games folder, brought up to date; the damaged journals named on stderr."""
    import os
    import sqlite3

    from ..archive.index import Archive
    from ..archive.queries import skipped_words

    folder = games_dir(args)
    if folder.exists() and not folder.is_dir():
        raise _usage(_("{folder} is not a folder: --dir names the games folder").format(folder=folder))
    try:
        archive = Archive(folder, jobs=jobs or os.cpu_count() or 1)
        skipped = archive.refresh() if refresh else []
    except OSError as error:
        raise _usage(_("cannot read the games in {folder} ({problem})").format(
            folder=folder, problem=error.strerror or said(error))) from None
    except sqlite3.Error as error:  # another reedboard holding the index too long, say
        raise _usage(_("the archive's index in {folder} cannot be used now ({problem}); try again").format(
            folder=folder, problem=said(error))) from None
    if report:
        for problem in skipped:
            print(_("reedboard: skipped {problem}").format(problem=said(skipped_words(problem))), file=sys.stderr)
    return archive


def _resolve(archive, key: str) -> str:
    from ..archive.index import ArchiveError

    try:
        return archive.resolve(key)
    except ArchiveError as error:
        raise _usage(said(error)) from None


# --- the actions ----------------------------------------------------------------------------
def run_list(args: argparse.Namespace) -> int:
    from ..language import forms  # babel: only when a command prints
    if args.since and args.until and args.since > args.until:
        raise _usage(_("reedboard games list: --since {since} is after --until {until}").format(
            since=args.since, until=args.until))
    with _archive(args) as archive:
        found = archive.games(game=args.game, player=args.player, since=args.since, until=args.until,
                              result=args.result, limit=args.limit)
        if not found:
            if _filtered(args):
                print(_("no games in {folder} that match").format(folder=archive.games_dir))
            else:
                print(_("no games in {folder}").format(folder=archive.games_dir))
            return 0
        rows = [(g["id"], g["game"], _when(g["started"]), players_text(g), forms.number(g["moves"]), g["line"] or "*")
                for g in found]
        print(_columns([(_("ID"), _("game"), _("started"), _("players"), _("moves"), _("result")), *rows]))
    return 0


def _filtered(args: argparse.Namespace) -> bool:
    return any(getattr(args, key) is not None for key in ("game", "player", "since", "until", "result"))


def _when(started: str) -> str:
    """The day and the time of the day a game started, as the language writes the day."""
    from ..language import forms  # babel: only when a command prints
    if not started:
        return "?"
    from datetime import datetime

    try:
        moment = datetime.fromisoformat(started)
    except ValueError:
        return started[:16].replace("T", " ")
    return f"{forms.date(moment)} {moment:%H:%M}"


def players_text(game: dict) -> str:
    """`Ann (black) - Bob (white)`; a side without a name is the computer's (with its level) or ?."""
    computer = game.get("computer") or {}
    sides = []
    for colour in game["colours"]:
        name = game["players"].get(colour)
        if name is None:
            name = f"computer:{computer['level']}" if computer.get("plays") == colour else "?"
        sides.append(f"{name} ({PLAY.gettext(colour)})")
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
            raise _usage(said(error)) from None
        from ..archive.records import game_record, record_lines

        print(_("game {id}  ({path})").format(id=path.name.removesuffix(".jsonl"), path=path))
        print("\n".join(record_lines(game_record(contents))))
        print()
        print(said(rebuild(contents).game.diagram()))
    return 0


def run_export(args: argparse.Namespace) -> int:
    from ..persist.journal_format import JournalError
    from ..persist.journal_reader import read_journal
    from ..archive.records import game_record, record_data, record_lines

    if args.all == (args.id is not None):
        raise _usage(_("reedboard games export: give a game's ID or --all, one of them"))
    with _archive(args) as archive:
        ids = [g["id"] for g in reversed(archive.games())] if args.all else [_resolve(archive, args.id)]
        records = []
        for game_id in ids:
            try:
                records.append((game_id, game_record(read_journal(archive.journal(game_id)))))
            except JournalError as error:  # changed since the index read it
                print(_("reedboard: skipped {problem}").format(problem=said(error)), file=sys.stderr)
    if args.format == "json":
        data = [{"id": game_id, **record_data(record)} for game_id, record in records]
        text = json.dumps(data if args.all else data[0], indent=1, ensure_ascii=False) + "\n"
    else:
        text = "\n".join("\n".join(record_lines(record)) + "\n" for __, record in records)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.out).write_text(text, encoding="utf-8")
    except OSError as error:
        raise _usage(_("cannot write {path} ({problem}); choose another --out").format(
            path=args.out, problem=error.strerror or said(error))) from None
    print(ngettext("{n} game written to {path}", "{n} games written to {path}", len(records)).format(
        n=len(records), path=args.out))
    return 0


def run_import(args: argparse.Namespace) -> int:
    from ..persist.journal_format import JournalError
    from ..archive.records import RecordError, import_records

    folder = games_dir(args)
    try:
        written = import_records(args.file, folder)
    except (RecordError, JournalError) as error:
        raise _usage(_("{problem}; nothing was imported").format(problem=said(error))) from None
    except OSError as error:
        raise _usage(_("cannot write the games in {folder} ({problem}); nothing was imported").format(
            folder=folder, problem=error.strerror or said(error))) from None
    with _archive(args, report=False):
        pass  # the new games are in the index from now on
    print(ngettext("imported {n} game into {folder}:", "imported {n} games into {folder}:", len(written)).format(
        n=len(written), folder=folder))
    for path in written:
        print(f"  {path.name.removesuffix('.jsonl')}")
    return 0


def run_reindex(args: argparse.Namespace) -> int:
    from ..language import forms  # babel: only when a command prints
    import time

    from ..archive.queries import skipped_words

    started = time.monotonic()
    with _archive(args, refresh=False) as archive:
        skipped = archive.rebuild()
        for problem in skipped:
            print(_("reedboard: skipped {problem}").format(problem=said(skipped_words(problem))), file=sys.stderr)
        count = len(archive.games())
        folder = archive.games_dir
    damaged = ngettext("{n} damaged journal skipped", "{n} damaged journals skipped", len(skipped)).format(
        n=len(skipped))
    print(ngettext("indexed {n} game in {folder} ({damaged}) in {seconds} s",
                   "indexed {n} games in {folder} ({damaged}) in {seconds} s", count).format(
        n=count, folder=folder, damaged=damaged, seconds=forms.number(time.monotonic() - started, 1)))
    return 0


def run_rename(args: argparse.Namespace) -> int:
    from ..archive.index import ArchiveError

    with _archive(args) as archive:
        try:
            renamed, failed = archive.rename_player(args.old, args.new)
        except ArchiveError as error:
            raise _usage(f"reedboard games rename-player: {said(error)}") from None
    for problem in failed:
        print(_("reedboard: not renamed in {problem}").format(problem=problem), file=sys.stderr)
    print(ngettext("renamed {old} to {new} in {n} game", "renamed {old} to {new} in {n} games", renamed).format(
        old=args.old, new=args.new.strip(), n=renamed))
    return 1 if failed else 0


def run_delete(args: argparse.Namespace) -> int:
    from ..archive.index import ArchiveError

    with _archive(args) as archive:
        game_id = _resolve(archive, args.id)
        game = archive.game(game_id)
        what = ngettext("{id}: {title}, {players}, {n} move, {result}", "{id}: {title}, {players}, {n} moves, {result}",
                        game["moves"]).format(id=game_id, title=game["title"], players=players_text(game),
                                              n=game["moves"], result=game["line"] or "*")
        if not args.yes:
            if not sys.stdin.isatty():
                raise _usage(_("reedboard games delete: deleting {id} needs an answer: run it at a terminal,"
                               " or add --yes").format(id=game_id))
            # TRANSLATORS: y and yes are always understood as well as the language's own words
            answer = input(_("delete {game}? [y/N] ").format(game=what)).strip().casefold()
            if answer not in ("y", "yes", *_("y|yes").split("|")):
                print(_("nothing deleted"))
                return 1
        try:
            archive.delete(game_id)
        except ArchiveError as error:
            raise _usage(f"reedboard games delete: {said(error)}") from None
    print(_("deleted {game}").format(game=what))
    return 0


def run_stats(args: argparse.Namespace) -> int:
    with _archive(args) as archive:
        stats = archive.stats(args.player)
    print(stats_text(stats))
    return 0


def stats_text(stats: dict) -> str:
    """The statistics as two tables: per player and game, then per game."""
    from ..language import forms  # babel: only when a command prints
    if not stats["games"]:
        return _("no games")
    parts = []
    if stats["players"]:
        rows = [(_("player"), _("game"), _("games"), _("wins"), _("draws"), _("losses"), _("unfinished"))]
        rows += [(e["player"], e["game"], *(str(e[k]) for k in ("games", "wins", "draws", "losses", "unfinished")))
                 for e in stats["players"]]
        parts.append(_columns(rows))
    rows = [(_("game"), _("games"), _("finished"), _("first player w/d/l"), _("wins by colour"), _("draws"),
             _("average moves"))]
    for e in stats["games"]:
        first = e["first"]
        colours = " ".join(f"{PLAY.gettext(colour)} {wins}" for colour, wins in e["colours"].items())
        rows.append((e["game"], str(e["games"]), str(e["finished"]),
                     f"{first['wins']}/{first['draws']}/{first['losses']}", colours, str(e["draws"]),
                     "-" if e["average_moves"] is None else forms.number(e["average_moves"])))
    parts.append(_columns(rows))
    return "\n\n".join(parts)
