"""The board page's snapshot as the club serves it: the club's own, made from the journal lines
it took, with only those live parts of the board's snapshot that pass a schema.

A board's retained `state` carries its page's snapshot (lights, a piece lifted, notes, the
clock). Anyone who can publish as the board can put anything in it, so the club never serves
it as it came: the pieces, players, record, score and result are the club's own (from the
lines its rules engine accepted), and each live part of the board's snapshot is taken only when
it has the shape SCHEMA gives it (short plain words where the page uses a value as a name or a
class, bounded text where it shows text, finite numbers); a part that does not is left out.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping

from ...core.signals import PALETTE
from ...language.catalogue import LANGUAGES
from ...core.view import Phase

WORD = re.compile(r"[A-Za-z0-9_?.-]{0,40}\Z")  # a piece, a cell, a colour, a kind: what a page uses as a name
TEXT_LIMIT = 300  # characters of a message or a note: shown as text
NOTES_LIMIT = 50
HAND_LIMIT = 64
PHASES = frozenset(phase.value for phase in Phase)
DIE_FACES = frozenset({"off", "blank", "rolling", "value", "error"})
LIGHTS = frozenset(PALETTE) | {"", "last"}

Check = Callable[[object], bool]


def word(value: object) -> bool:
    return isinstance(value, str) and WORD.match(value) is not None


def text(value: object) -> bool:
    return isinstance(value, str) and len(value) <= TEXT_LIMIT


def number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -1 << 31 < value < 1 << 31


def boolean(value: object) -> bool:
    return isinstance(value, bool)


def optional(check: Check) -> Check:
    return lambda value: value is None or check(value)


def one_of(values: frozenset) -> Check:
    return lambda value: isinstance(value, str) and value in values


def listing(check: Check, limit: int) -> Check:
    return lambda value: isinstance(value, list) and len(value) <= limit and all(check(v) for v in value)


def record(fields: Mapping[str, Check], *, required: tuple[str, ...] = ()) -> Check:
    """An object with only these keys (each passing its check) and at least `required`."""
    def check(value: object) -> bool:
        return (isinstance(value, dict) and set(value) <= set(fields) and all(k in value for k in required)
                and all(fields[k](v) for k, v in value.items()))
    return check


def mapping(keys: Check, values: Check, limit: int = 8) -> Check:
    return lambda value: (isinstance(value, dict) and len(value) <= limit
                          and all(keys(k) and values(v) for k, v in value.items()))


CELL = record({"piece": word, "light": one_of(LIGHTS), "blink": boolean, "expect": word, "sim": word},
              required=("piece",))
NOTE = record({"t": number, "text": text, "kind": word, "n": whole, "data": lambda value: True})
NUMBERED = re.compile(r"[0-9]{1,9}\Z")  # a note's number, as a JSON object's key
WORDS = record({"message": text, "notes": mapping(lambda k: isinstance(k, str) and bool(NUMBERED.match(k)), text, NOTES_LIMIT),
                "said": mapping(lambda k: isinstance(k, str) and bool(NUMBERED.match(k)), text, NOTES_LIMIT),
                "prompt_said": text, "ending": optional(text)})
CLOCK = record({"initial": number, "increment": number, "remaining": mapping(word, number),
                "running": optional(word), "low": listing(word, 8), "low_mark": optional(number),
                "flagged": optional(word)})
SCHEMA: dict[str, Check] = {  # the live parts of a board's snapshot the club takes, each with its shape
    "phase": one_of(PHASES),
    "turn": optional(word),
    "die": record({"face": one_of(DIE_FACES), "value": optional(whole), "pips": optional(whole)}),
    "turn_light": optional(one_of(LIGHTS)),
    "roll": optional(whole),
    "message": text,
    "notes": listing(NOTE, NOTES_LIMIT),
    "words": mapping(one_of(LANGUAGES), WORDS, len(LANGUAGES)),  # the page's words in each language
    "clock": optional(CLOCK),
    "cue": record({"name": optional(word), "n": whole}),
    "error": optional(text),
    "running": boolean,
    "thinking": boolean,
    "computer": optional(record({"plays": word, "level": whole})),
    "sim": boolean,
    "hand": listing(record({"piece": word, "from": optional(word)}), HAND_LIMIT),
    "box": listing(word, HAND_LIMIT),
    "selected": optional(whole),
}
NOTE_DATA = ("t", "text", "kind", "n")  # a note's `data` is the board's own: not served


def checked_snapshot(board: object, own: dict) -> dict:
    """`own` (the club's snapshot from its journal lines) with the live parts of `board` (the
    board's snapshot) that pass SCHEMA: every cell's light, a piece lifted, the die, the clock,
    the notes. Whatever else the board sent is not served."""
    served = dict(own)
    if not isinstance(board, dict):
        return served
    for key, check in SCHEMA.items():
        if key in board and check(board[key]):
            served[key] = board[key]
    if "notes" in served and served["notes"] is not own.get("notes"):
        served["notes"] = [{k: note[k] for k in NOTE_DATA if k in note} for note in served["notes"]]
    if served.get("turn") not in (None, *own.get("players", ())):
        served["turn"] = own.get("turn")
    cells = board.get("cells")
    if isinstance(cells, dict) and isinstance(own.get("cells"), dict):
        served["cells"] = {cell: (cells[cell] if CELL(cells.get(cell)) else mine) for cell, mine in own["cells"].items()}
    return served


__all__ = ["SCHEMA", "checked_snapshot"]
