"""`reedboard review JOURNAL|GAME_ID`: the computer's review of a game: after every move the first
player's chance to win, the blunders and mistakes marked with the better move, then how many of
each every player made.

A game of the archive (its ID as `reedboard games list` shows it, or a unique start of it) is
reviewed once and kept in the archive's index; a journal, a trace (replayed first) or a file of
records is reviewed as it is. Every search is limited by nodes, never by time: the same game
gives the same numbers on any machine.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .usage import UsageError
from ..language.catalogue import COMMANDS
from ..words import said

_ = COMMANDS.gettext
ngettext = COMMANDS.ngettext


def add_parser(commands) -> argparse.ArgumentParser:
    review = commands.add_parser("review", help=_("the computer's review of a game: the chance to win after every"
                                                  " move, blunders and mistakes"))
    review.add_argument("game", metavar="JOURNAL|GAME_ID",
                        help=_("a game's ID as `reedboard games list` shows it, or a journal, a trace or a file of"
                               " records"))
    review.add_argument("--nodes", type=_nodes, metavar="N",
                        help=_("nodes each search may visit (default {nodes}): more is slower and sees further").format(
                            nodes=_default_nodes()))
    review.add_argument("--json", action="store_true", help=_("print the review as JSON, as the page gets it"))
    review.add_argument("--dir", metavar="DIR", help=_("the games folder (default: [play] games_dir of the configuration)"))
    review.add_argument("--config", metavar="FILE", help=_("the configuration file"))
    review.set_defaults(run=run)
    return review


def _default_nodes() -> int:
    from ..opponent.review import REVIEW_NODES

    return REVIEW_NODES


def _nodes(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 10_000_000:
        raise argparse.ArgumentTypeError(_("a number of nodes is 1 to 10000000, not {text}").format(text=repr(text)))
    return int(text)


def _usage(message: str) -> UsageError:
    return UsageError(message if message.startswith("reedboard") else f"reedboard review: {message}")


def run(args: argparse.Namespace) -> int:
    nodes = args.nodes or _default_nodes()
    path = Path(args.game).expanduser()
    if not path.is_file() and _names_a_file(args.game):  # a file meant, not an ID: say so, not "no game"
        if path.is_dir():
            raise _usage(_("{path} is a directory, not a file").format(path=args.game))
        raise _usage(_("no such file: {path}").format(path=args.game))
    reviews = _of_file(path, nodes) if path.is_file() else [_of_archive(args, args.game, nodes)]
    if args.json:
        data = [data for _, data in reviews]
        print(json.dumps(data[0] if len(data) == 1 else data, ensure_ascii=False, indent=1))
        return 0
    for number, (game, data) in enumerate(reviews):
        if number:
            print()
        print(review_text(game, data))
    return 0


# --- where the game comes from --------------------------------------------------------------------
def _names_a_file(text: str) -> bool:
    """Whether `text` names a file rather than a game's ID: a path (a folder in it, ~ or . at its
    start) or a trace's name (an ID never ends so)."""
    return "/" in text or "\\" in text or text.startswith(("~", ".")) or text.endswith(".trace.jsonl")


def _of_archive(args: argparse.Namespace, key: str, nodes: int):
    """The review of an archived game, kept in the index (worked out here the first time)."""
    from ..archive.index import ArchiveError
    from .games_command import _archive, _resolve

    with _archive(args) as archive:
        game_id = _resolve(archive, key)
        try:
            return _kept(archive, game_id, nodes)
        except ArchiveError as error:
            raise _usage(said(error)) from None


def _kept(archive, key: str, nodes: int):
    """The start and the review of an archived game: from the index, else worked out and kept there."""
    from ..archive import reviews

    job = archive.review_job(key, nodes)
    if job.cached is None:
        archive.keep_review(job, reviews.compute(job))
    return job.start, job.cached


def _of_file(path: Path, nodes: int):
    """The reviews of a journal, a trace or a file of records, as the file's first line says."""
    from ..archive.reviews import compute, job_of, review_job
    from ..persist.journal_format import JournalError

    kind = _kind(path)
    try:
        if kind == "journal":
            from ..archive.index import INDEX_NAME, Archive, ArchiveError
            from ..persist.journal_reader import read_journal

            if (path.parent / INDEX_NAME).is_file():  # a journal of a games folder: its review is kept there
                with Archive(path.parent) as archive:
                    archive.refresh()
                    try:
                        return [_kept(archive, path.name, nodes)]
                    except ArchiveError:  # not listed there (damaged, given up): reviewed as it is
                        pass
            job = review_job(read_journal(path), nodes)
            return [(job.start, compute(job))]
        if kind == "trace":
            from ..persist.trace import TraceError, read_trace
            from ..session.replay import replay

            try:
                game = replay(read_trace(path), source=str(path)).referee.game
            except TraceError as error:
                raise _usage(said(error)) from None
            job = job_of(path.name, game, nodes)
            return [(job.start, compute(job))]
        from ..archive.records import RecordError, read_records

        try:
            records = read_records(path)
        except RecordError as error:
            raise _usage(said(error)) from None
        jobs = [job_of(path.name, record.game, nodes) for record in records]
        return [(job.start, compute(job)) for job in jobs]
    except JournalError as error:
        raise _usage(said(error)) from None


def _kind(path: Path) -> str:
    """journal, trace or records, by the file's first line."""
    try:
        with open(path, "rb") as file:
            first = file.readline(1 << 16).strip()
    except OSError as error:
        raise _usage(_("cannot read {path} ({problem})").format(path=path, problem=error.strerror or said(error))) from None
    try:
        header = json.loads(first)
    except ValueError:
        return "records"
    if isinstance(header, dict) and header.get("type") == "header":
        return "journal"
    if isinstance(header, dict) and "game" in header:
        return "trace"
    raise _usage(_("{path}: neither a journal, a trace nor a file of records").format(path=path))


# --- what is printed -------------------------------------------------------------------------------
def review_text(start, data: dict) -> str:
    """The review in lines: the start, one line per move, the result, the marks per player."""
    from ..games.base import colour_words, player_words
    from ..language import forms  # babel: only when a command prints
    from ..words import said

    first = data["first"]
    lines = [_("{first}'s chance to win after every move ({nodes} nodes a search)").format(
        first=said(player_words(first)), nodes=forms.number(data["nodes"]))]
    rows = []
    for point in data["points"]:
        if point["ply"] == 0:
            rows.append(("0.", _("start"), "", forms.percent(point["p"]), ""))
            continue
        mark = {"blunder": _("blunder"), "mistake": _("mistake")}.get(point["mark"] or "", "")
        better = "" if not point["better"] else _("better: roll the die") if point["better"] == "roll" else \
            _("better: {move}, not a roll").format(move=point["better"]) if point.get("rolled") else \
            _("better: {move}").format(move=point["better"])
        rows.append((f"{point['ply']}.", point["move"], said(colour_words(point["mover"])), forms.percent(point["p"]),
                     f"{mark}  {better}".strip()))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    for row in rows:
        cells = [row[0].rjust(widths[0]), row[1].ljust(widths[1]), row[2].ljust(widths[2]), row[3].rjust(widths[3]),
                 row[4]]
        lines.append("  ".join(cells).rstrip())
    result = data["result"]
    if result is not None:
        won = first if result == 1 else start.other(first) if result == 0 else None
        lines.append(_("result: {player} won").format(player=said(colour_words(won))) if won else _("result: a draw"))
    marked = {player: {"blunder": 0, "mistake": 0} for player in start.players}
    for point in data["points"][1:]:
        if point["mark"]:
            marked[point["mover"]][point["mark"]] += 1
    for player in _movers(start, first):
        counts = marked[player]
        lines.append(_("{player}: {blunders}, {mistakes}").format(
            player=said(player_words(player)),
            blunders=ngettext("{n} blunder", "{n} blunders", counts["blunder"]).format(n=counts["blunder"]),
            mistakes=ngettext("{n} mistake", "{n} mistakes", counts["mistake"]).format(n=counts["mistake"])))
    return "\n".join(lines)


def _movers(start, first: str) -> list[str]:
    return [first, start.other(first)]


__all__ = ["add_parser", "review_text", "run"]
