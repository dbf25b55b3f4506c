"""The rules page's content: each game's rules in plain words, example positions, the lights.

    rules_page(name) -> {"game", "title", "players", "sections", "diagrams", "lights", "palette"}

The words and the example moves are the game's own (Game.rules()); the example positions are
played with the rules engine itself, from the game's example start, so a diagram never shows a
position the engine would not reach. A diagram's lit cells are the cells its last move
touched, shown as the board's "last" light; `arrow` goes from the cell the move left to the
cell it reached. Each diagram carries the board's geometry, drawn as the live board is.
"""

from __future__ import annotations

import functools

from reedboard.controller.games import GAMES, Game
from reedboard.controller.core.signals import BLINKING, PALETTE

__all__ = ["LIGHTS", "rules_page"]

# name, look (the colour in words and blinking or steady), what it tells you, what to do; a game
# says what a light means where these words say too little (Game.light_meanings)
LIGHTS = [
    ("fill", "blue, blinking", "A piece is missing here: the board does not match the game.",
     "Put the piece back here."),
    ("empty", "vermillion (red-orange), blinking", "A piece stands here that should not.",
     "Take it away."),
    ("choose", "white, blinking",
     "Your move fits more than one legal move; every hollow of each possible move blinks.",
     "Lift and put back a piece that belongs only to the move you meant."),
    ("place", "green, blinking", "Set-up: the die display shows a stone's number.",
     "Put that stone here."),
    ("dest", "teal, steady",
     "The computer's move or a hint: the piece goes here (onto a piece it captures, or a push-off's sector).",
     "Lift the piece the blinking vermillion shows and put it here; a piece standing here goes in the box first."),
    ("to", "bright white, steady",
     "You hold a piece that may move: it may go here (a capture lights the piece it would take).",
     "Put it down on one of them, or back where it was."),
    ("movable", "green, steady", "The piece the die chose.", "Move it."),
    ("last", "dim white, steady", "The hollows the last move touched.",
     "Nothing. To take the move back (when takebacks are allowed), put the board back as it was."),
    ("winner", "amber, steady", "Game over: the winner's pieces.", "Nothing; well played."),
    ("draw", "purple, steady", "Game over, drawn: every piece on the board.", "Nothing."),
]


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % rgb


def _diagram(cls: type[Game], ident: str, title: str, moves: list[str], caption: str) -> dict:
    position = cls.example_start()
    footprint = None
    for text in moves:
        footprint = position.footprint(position.parse_move(text))
        position.play(text)
    lights: dict[str, str] = {}
    arrow = None
    if footprint is not None:
        touched = footprint.empties | footprint.fills | footprint.captures | footprint.passes
        lights = {cell: "last" for cell in sorted(touched)}
        reached = footprint.fills | footprint.captures
        if len(footprint.empties) == 1 and len(reached) == 1:
            arrow = [next(iter(footprint.empties)), next(iter(reached))]
    return {
        "id": ident, "title": title, "caption": caption, "moves": list(moves),
        "cells": list(position.cells), "pieces": position.pieces(), "lights": lights, "arrow": arrow,
        "geometry": position.geometry(), "turn": position.turn,
    }


@functools.cache
def rules_page(game: str) -> dict:
    """The rules page of the registered game called `game`; KeyError for any other name."""
    cls = GAMES[game]
    example = cls.example_start()
    text, meanings = example.rules(), example.light_meanings()
    return {
        "game": cls.name,
        "title": cls.title,
        "players": list(cls.players),
        "sections": text["sections"],
        "diagrams": [_diagram(cls, *entry) for entry in text["diagrams"]],
        "lights": [{"name": name, "colour": _hex(PALETTE[name]) if name in PALETTE else None,
                    "blink": name in BLINKING, "look": look, "means": meanings.get(name, means), "do": do}
                   for name, look, means, do in LIGHTS],
        "palette": {name: _hex(rgb) for name, rgb in PALETTE.items()},
        "hands": example.hands_guide(),
    }
