"""One game journaled at the board, replayed move by move for a page.

    past_game(games_dir, name)    -> the record and the position after every move
    journal_path(games_dir, name) -> the journal called name (NoSuchGame for anything else)

Reading a journal replays every move through the rules engine, which takes a while for a long
game, so the replays worked out are kept per journal, keyed by its name, size and time of last
change: a journal that grows (the game being played) is read again, the others are not. The
functions may be called from any thread; callers must not change what they return.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path

from ..games import Game
from ..persist.game_files import SUFFIX, TRACE_SUFFIX
from ..persist.journal_format import JournalError
from ..persist.journal_replay import rebuild
from ..persist.journal_reader import read_journal
from ..persist.notation import header_lines, record_lines, result_line, starting_position
from ..session.snapshot import position_data
from ..language.catalogue import COMMANDS
from .problems import NoSuchGame, UnreadableGame
from ..words import said

_ = COMMANDS.gettext

__all__ = ["journal_path", "past_game", "position_of"]

REPLAYS_KEPT = 8  # whole replays kept (a long game's is a few hundred kB)

Key = tuple[str, int, int]  # a journal's name, size and time of last change (ns)

_lock = threading.Lock()
_replays: OrderedDict[Path, tuple[Key, dict]] = OrderedDict()  # journal -> its replay, least recent first


def position_of(game: Game) -> dict:
    """What a page draws of a position: the pieces, the player to move, and what the game adds
    (its score, a waiting piece)."""
    return {"pieces": game.pieces(), **position_data(game)}


def _journals(games_dir: Path) -> list[tuple[Path, Key]]:
    """The journals in games_dir (not their traces), each with its key."""
    if not games_dir.is_dir():
        return []
    found = []
    for path in games_dir.glob(f"*{SUFFIX}"):
        if path.name.endswith(TRACE_SUFFIX):
            continue
        try:
            stat = path.stat()
        except OSError:  # removed meanwhile
            continue
        found.append((path, (path.name, stat.st_size, stat.st_mtime_ns)))
    return found


def _find(games_dir: Path, name: str) -> tuple[Path, Key]:
    """The journal called name in games_dir, with its key: only a name the folder lists."""
    for path, key in _journals(games_dir):
        if path.name == name:
            return path, key
    raise NoSuchGame(_("no game {name}").format(name=repr(name)))


def journal_path(games_dir: str | Path, name: str) -> Path:
    """The journal called `name` in games_dir; NoSuchGame for anything else."""
    return _find(Path(games_dir), name)[0]


def past_game(games_dir: str | Path, name: str) -> dict:
    """One journaled game for replaying: its record and the position after every move."""
    path, key = _find(Path(games_dir), name)
    with _lock:
        kept = _replays.get(path)
        if kept is not None and kept[0] == key:
            _replays.move_to_end(path)
            return kept[1]
    replay = _replay(path)
    with _lock:
        _replays[path] = (key, replay)
        _replays.move_to_end(path)
        while len(_replays) > REPLAYS_KEPT:
            _replays.popitem(last=False)
    return replay


def _replay(path: Path) -> dict:
    try:
        contents = read_journal(path)
        game = rebuild(contents).game
    except JournalError as error:
        raise UnreadableGame(said(error)) from None
    replay = starting_position(game)
    positions = [{**position_of(replay), "last": []}]
    for move in game.move_stack:
        replay.push(move)
        positions.append({**position_of(replay), "last": sorted(replay.last_move_cells())})
    return {
        "name": path.name, "game": game.name, "title": game.title, "started": contents.header.get("started", ""),
        "header": header_lines(game), "record": [game.format_move(m) for m in game.move_stack],
        "result": result_line(game), "lines": record_lines(game), "positions": positions,
        "cells": list(game.cells), "players": list(game.players), "geometry": replay.geometry(),
        "note": contents.warning,
    }
