"""The rules page's content: each game's rules in plain words, example positions, the lights.

    rules_page(name, lang) -> {"game", "title", "players", "sections", "diagrams", "lights", "palette"}

in `lang`: the rules' words from the "rules" catalogue, the lights' and the hands' from "play".

The words and the example moves are the game's own (Game.rules()); the example positions are
played with the rules engine itself, from the game's example start, so a diagram never shows a
position the engine would not reach. A diagram's lit cells are the cells its last move
touched, shown as the board's "last" light; `arrow` goes from the cell the move left to the
cell it reached. Each diagram carries the board's geometry, drawn as the live board is.
"""

from __future__ import annotations

import functools

from ..games import GAMES, Game
from ..language.catalogue import PLAY, RULES, speaking
from ..core.signals import BLINKING, PALETTE
from ..words import said_all
from ..words.legend import LIGHT_LEGEND

__all__ = ["rules_page"]


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
        "id": ident, "title": RULES.gettext(title), "caption": RULES.gettext(caption), "moves": list(moves),
        "cells": list(position.cells), "pieces": position.pieces(), "lights": lights, "arrow": arrow,
        "geometry": position.geometry(), "turn": position.turn,
    }


@functools.cache
def rules_page(game: str, lang: str = "en") -> dict:
    """The rules page of the registered game called `game` in `lang`; KeyError for any other name."""
    cls = GAMES[game]
    with speaking(lang):
        return _page(cls)


def _shows(cls: type[Game], light: str) -> bool:
    """Whether the board can show `light` in this game: green steady marks the stones the die
    chose (or, identifying the stones, those not told apart yet), green blinking the hollow of a
    guided shuffle's next stone; every game shows the others."""
    if light == "movable":
        return cls.uses_die or "identify" in cls.setup_modes
    if light == "place":
        return "shuffle" in cls.setup_modes
    return True


def _page(cls: type[Game]) -> dict:
    example = cls.example_start()
    text, meanings, actions = example.rules(), said_all(example.light_meanings()), said_all(example.light_actions())
    _ = PLAY.gettext
    return {
        "game": cls.name,
        "title": cls.title,
        "players": list(cls.players),
        "sections": [{"title": RULES.gettext(s["title"]), "points": [RULES.gettext(p) for p in s["points"]]}
                     for s in text["sections"]],
        "diagrams": [_diagram(cls, *entry) for entry in text["diagrams"]],
        # the board's legend (words.legend): the lights this game shows, in its own words
        # where it has them
        "lights": [{"name": light.name, "colour": _hex(PALETTE[light.name]) if light.name in PALETTE else None,
                    "blink": light.name in BLINKING, "look": _(light.look),
                    "means": meanings.get(light.name) or _(light.means), "do": actions.get(light.name) or _(light.do)}
                   for light in LIGHT_LEGEND if _shows(cls, light.name)],
        "palette": {name: _hex(rgb) for name, rgb in PALETTE.items()},
        "hands": said_all(example.hands_guide()),
    }
