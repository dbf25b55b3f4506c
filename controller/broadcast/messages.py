"""The broadcast's topics and payloads (docs/broadcast.md is their description for others).

Under PREFIX/boards/NAME/:
  status   retained  {"online": true, "token": T, "since": ISO} / the last will {"online": false}
  journal  QoS 1     one journal line: {"board", "game", "seq", "entry", "committed"}
  state    retained  the game as its journal leaves it, and the board page's snapshot
Under PREFIX/club/:
  confirmed/NAME  QoS 1     the club's word to a board: {"game", "seq"} (its first seq lines are stored)
  status          retained  {"online": true} while the club follows the broker / its last will {"online": false}
  pairing/NAME    retained  a tournament's game on the board: {"pairing": {"event", "round", "number", "text",
                            "game", "players", "clock"}} or {"pairing": null} (no game there this round)

The journal's file name stem is the game's id and the line's number its sequence number
(the header is line 1): a receiver drops what it has already seen by (game, seq).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping, Sequence

from ..games import Game, catalog
from ..persist.journal_format import JOURNAL_KEYS, JournalContents, JournalError
from ..persist.journal_replay import rebuild
from ..persist.notation import header_lines, result_line
from ..core.signals import PALETTE
from ..session.snapshot import outcome_data
from ..core.view import Phase
from ..words import said_all

VERSION = 1
TOPICS = ("status", "journal", "state")
PAYLOAD_LIMIT = 1 << 20  # bytes of one received payload: a game's state is a few kilobytes
PALETTE_HEX = {name: "#%02x%02x%02x" % rgb for name, rgb in PALETTE.items()}


def board_topic(prefix: str, name: str, kind: str) -> str:
    return f"{prefix}/boards/{name}/{kind}"


def encode(data: Mapping) -> bytes:
    return json.dumps(data, allow_nan=False, separators=(",", ":")).encode("utf-8")


def journal_message(board: str, game_id: str, seq: int, entry: Mapping, committed: float | None = None) -> dict:
    """One journal line as sent: `committed` is the board's wall clock when it was on disk."""
    return {"v": VERSION, "board": board, "game": game_id, "seq": seq, "entry": dict(entry),
            "committed": round(time.time() if committed is None else committed, 3)}


def status_message(online: bool, token: str = "", since: str = "") -> dict:
    return {"v": VERSION, "online": True, "token": token, "since": since} if online else {"v": VERSION, "online": False}


def club_status_topic(prefix: str) -> str:
    """PREFIX/club/status: the club's retained word that it follows the broker (its last will: not)."""
    return f"{prefix}/club/status"


def club_status_message(online: bool) -> dict:
    return {"v": VERSION, "online": online}


def pairing_topic(prefix: str, name: str) -> str:
    """PREFIX/club/pairing/NAME: the club's retained word of the tournament game on board NAME."""
    return f"{prefix}/club/pairing/{name}"


def pairing_message(board: str, pairing: Mapping | None) -> dict:
    return {"v": VERSION, "board": board, "pairing": dict(pairing) if pairing is not None else None}


def read_pairing(data: Mapping, colours: Sequence[str] | None = None) -> dict | None:
    """A received pairing checked (None: no game, or not one): its players are names of 1 to 40
    printable characters by colour, its round and number counts, its text printable."""
    pairing = data.get("pairing")
    if not isinstance(pairing, dict):
        return None
    players, text = pairing.get("players"), pairing.get("text")
    if not (isinstance(players, dict) and len(players) == 2 and all(
            isinstance(c, str) and isinstance(n, str) and 0 < len(n) <= 40 and n.isprintable() and n.strip()
            for c, n in players.items())):
        return None
    if colours is not None and set(players) != set(colours):
        return None
    if not (is_seq(pairing.get("round")) and is_seq(pairing.get("number")) and isinstance(text, str)
            and 0 < len(text) <= 200 and text.isprintable()):
        return None
    clock = pairing.get("clock")
    if clock is not None and not (isinstance(clock, dict) and all(
            isinstance(clock.get(k), int) and not isinstance(clock.get(k), bool) and 0 <= clock[k] <= 600
            for k in ("minutes", "increment"))):
        clock = None
    event = pairing.get("event")
    if not (isinstance(event, str) and 0 < len(event) <= 200 and event.isprintable() and event.strip()):
        event = None
    return {"event": event, "round": pairing["round"], "number": pairing["number"], "text": text,
            "players": dict(players), "game": pairing.get("game") if isinstance(pairing.get("game"), str) else None,
            "clock": clock}


# --- a game as its journal leaves it --------------------------------------------------------------
def replayed(header: Mapping, entries: Sequence[Mapping]):
    """The journal's game (journal.Resumed); JournalError when the lines do not make one."""
    return rebuild(JournalContents(dict(header), [dict(e) for e in entries]))


def game_state(header: Mapping, entries: Sequence[Mapping]) -> dict:
    """What a spectator wants of a game: the game, players, position, record so far, score,
    clock, who is to move and the result."""
    resumed = replayed(header, entries)
    game = resumed.game
    outcome = outcome_data(game)
    return {
        "kind": game.name, "title": game.title, "colours": list(game.players),
        "players": dict(header.get("players", {})), "started": header.get("started"),
        **{key: header.get(key) for key in ("event", "round", "table")},
        "position": game.pieces(), "record": [game.format_move(m) for m in game.move_stack],
        **game.position_data(),
        "clock": {"settings": header.get("clock"), "remaining": resumed.clock_remaining},
        "to_move": None if outcome else game.turn, "roll": resumed.pending_roll,
        "result": outcome,
    }


def state_message(board: str, game_id: str, seq: int, header: Mapping, entries: Sequence[Mapping],
                  snapshot: Mapping | None) -> dict:
    """The retained state: the game so far (every journal line too, so that a receiver that
    missed some can fill them in) and the board page's snapshot."""
    lines = [dict(header), *map(dict, entries)]
    return {"v": VERSION, "board": board, "game": game_id, "seq": seq, **game_state(header, entries),
            "lines": lines, "snapshot": dict(snapshot) if snapshot is not None else None}


def game_snapshot(header: Mapping, entries: Sequence[Mapping], journal_name: str | None = None) -> dict:
    """A board page snapshot from the journal alone (a replayed game, a board that sent none):
    the pieces, record, score and result, with no lights and no notes."""
    resumed = replayed(header, entries)
    game = resumed.game
    over = game.outcome() is not None
    last = entries[-1] if entries else None
    phase = Phase.OVER if over else (Phase.ROLLED if resumed.pending_roll else Phase.PLAY)
    return {
        "game": game.name, "title": game.title, "phase": phase.value, "turn": game.turn,
        "players": list(game.players),
        "cells": {cell: {"piece": piece, "light": "", "blink": False} for cell, piece in game.pieces().items()},
        "order": list(game.cells), "geometry": game.geometry(),
        "die": {"face": "off", "value": resumed.pending_roll, "pips": None},
        "turn_light": None, "roll": resumed.pending_roll, **game.position_data(),
        "header": header_lines(game), "record": [game.format_move(m) for m in game.move_stack],
        "outcome": outcome_data(game) if over else None,
        "message": _message(game, last, over), "prompt": {"kind": "watching"}, "choices": [], "notes": [],
        "clock": None, "setup_mode": "given", "setup_modes": [], "games": _games(),
        "cue": {"name": None, "n": 0}, "journal": journal_name, "settings": dict(header.get("settings", {})),
        "sim": False, "running": not over, "error": None, "palette": PALETTE_HEX,
        "link": {"state": "connected", "why": "", "since": None, "text": ""},
    }


def _message(game: Game, last: Mapping | None, over: bool) -> str:
    if over:
        return result_line(game) or "game over"
    if last is not None and last.get("type") == "move":
        return f"{last['move']} · {game.turn} to move"
    return f"{game.turn} to move"


def _games() -> list[dict]:
    return [{key: said_all(entry[key]) for key in ("name", "title", "setup_modes", "options")} for entry in catalog()]


# --- checking what is received ----------------------------------------------------------------------
def decode(payload: bytes) -> dict | None:
    """A received payload as a JSON object, or None when it is not one (never an exception)."""
    if not isinstance(payload, (bytes, bytearray)) or len(payload) > PAYLOAD_LIMIT:
        return None
    try:
        value = json.loads(bytes(payload).decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def is_seq(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value < 1 << 31


def is_game_id(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= 100 and value.isprintable() and "/" not in value \
        and not value.startswith(".")


def is_time(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


__all__ = ["JOURNAL_KEYS", "JournalError", "TOPICS", "board_topic", "club_status_message", "club_status_topic",
           "pairing_message", "pairing_topic", "read_pairing",
           "decode", "encode", "game_snapshot", "game_state", "journal_message", "state_message", "status_message"]
