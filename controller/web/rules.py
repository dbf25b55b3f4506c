"""The rules page's content: each game's rules in plain words, example positions, the lights.

    rules_page("bigballs") -> {"game", "title", "sections", "diagrams", "lights", "palette"}

The example positions are played with the rules engines themselves (the example moves in
notation, from the start position), so a diagram never shows a position the engine would
not reach. A diagram's lit cells are the cells its last move touched, shown as the board's
"last" light; `arrow` goes from the cell the move left to the cell it reached.
"""

from __future__ import annotations

import functools

from controller.games import BigBalls, Game, OffBoard
from controller.games.bigballs import parse_setup
from controller.play import pieces, sector_shapes
from controller.signals import BLINKING, PALETTE

__all__ = ["GAME_TITLES", "LIGHTS", "rules_page"]

GAME_TITLES = {"bigballs": "Big Balls", "offboard": "Off Board"}

# A shuffled Big Balls set-up (each colour's numbers in no particular order, as at the table).
SHUFFLED = "black=a1:3,b1:6,c1:1,a2:5,b2:2,a3:4 white=e1:2,f1:4,g1:6,e2:1,f2:3,e3:5"

BIGBALLS_SECTIONS = [
    {"title": "The board and the pieces", "points": [
        "28 hollows in a triangle: seven on the bottom row (a1 to g1), one at the top (a7).",
        "Each player has six stones numbered 1 to 6. Black's stand on a1, b1, c1, a2, b2 and a3, "
        "White's on e1, f1, g1, e2, f2 and e3, the numbers shuffled over those hollows.",
        "Six big balls belong to nobody. They start at the top: a7, a6, b6, a5, b5 and c5.",
        "Black starts. The players take turns; nobody may pass.",
    ]},
    {"title": "The aim", "points": [
        "Bring one of your stones to the top hollow, a7. The first stone there wins at once.",
    ]},
    {"title": "Your turn: one of two things", "points": [
        "Roll a big ball: one big ball rolls one hollow down, to the left or to the right. It may "
        "not land on another big ball, and a big ball on the bottom row cannot move. A stone where "
        "it lands (of either colour) is captured. No die is rolled for this.",
        "Or press the die button and move a stone. The number says which stone: your stone with "
        "that number. If that stone is gone, you may move your next lower or your next higher "
        "stone still on the board. Once you have rolled, you must move a stone.",
        "A stone steps one hollow up to the left, up to the right, to the left or to the right, "
        "never down. Whatever stands where it lands is captured, even your own stone or a big "
        "ball, and leaves the game.",
    ]},
    {"title": "The end", "points": [
        "A stone on a7 wins for its owner.",
        "When no stones are left on the board, the game is drawn if a big ball can still move.",
        "A player who cannot move (no stones left and no big ball that can roll) loses.",
        "A player may resign, and the players may agree a draw, at any time.",
    ]},
    {"title": "At the board", "points": [
        "The sensors feel only whether a hollow is taken, not which stone is in it, so the board "
        "must learn the numbers at the start: as the board is (the arrangement is known), a "
        "guided shuffle (the board draws the arrangement and lights each stone's hollow while the "
        "die shows its number), or identify the stones (lift and put back each number the die "
        "asks for).",
        "The move list writes a stone move as the die value, the hollow left, - (or x for a "
        "capture) and the hollow reached: 4 b2-b3, 6 c3xb4. A big-ball move starts with BB: "
        "BB b5-b4.",
    ]},
]

OFFBOARD_SECTIONS = [
    {"title": "The board and the pieces", "points": [
        "61 holes in a hexagon, in rows A (Red's side) to I. Around the rim lie twelve scoring "
        "spaces, S1 to S12, worth 1, 2 or 3 points; each holds one ball.",
        "Red and Yellow have twelve balls each, set up as in the first picture. Red starts.",
    ]},
    {"title": "The aim", "points": [
        "Push your opponent's balls over the rim into the scoring spaces. The first to six "
        "points wins at once.",
    ]},
    {"title": "A move", "points": [
        "Move one of your balls one hole in any direction to a free hole, or move a straight line "
        "of your touching balls one hole forward along the line (never sideways). The hole in "
        "front of the line must be free. Any number of balls may move together.",
        "A push: when the line in front of yours is the opponent's and has fewer balls than yours, "
        "your line may push it one hole, if behind it there is a free hole or the rim. One of "
        "your own balls behind it blocks the push.",
        "A ball pushed over the rim rolls into the scoring space there. If the space is free, the "
        "pusher scores its value and the ball stays there until the end. Pushed off a corner, a "
        "ball rolls into the lower-valued of the two spaces.",
        "If that space is already taken, nobody scores and the ball waits beside the board for "
        "its owner. On their next turn the owner either puts it back on any free hole (that is "
        "the whole move) or leaves it out of the game and makes a normal move.",
    ]},
    {"title": "The end", "points": [
        "Six points or more win.",
        "The game is drawn when neither player can reach six points any more.",
        "A player who cannot move loses. A player may resign, and the players may agree a draw, "
        "at any time.",
    ]},
    {"title": "The move list", "points": [
        "A move is written as the last ball of the moving line, - and the hole next to it in "
        "the direction of travel: C3-D4. A push adds x and the number of balls pushed: B2-B3x1. "
        "A ball pushed off adds the space and the points: C6-B5x1 S2+2, or S2 full.",
        "A ball put back is + and the hole: +E5. A move that leaves one's waiting ball out "
        "starts with *.",
    ]},
]

# (id, title, moves from the start, caption)
BIGBALLS_DIAGRAMS = [
    ("setup", "The set-up", [],
     "Black's stones bottom left, White's bottom right, the big balls at the top. Each colour's "
     "numbers are shuffled over its six hollows."),
    ("stone-move", "A stone move", ["1 c1-c2"],
     "Black rolled 1, so stone 1 moves: it stepped from c1 up to the right, to c2."),
    ("capture", "A capture", ["1 c1-d1", "2 e1xd1"],
     "Black's stone 1 went to d1. White rolled 2, and White's stone 2 stepped left from e1 onto "
     "d1: Black's stone 1 is captured and leaves the game."),
    ("big-ball", "A big-ball move", ["4 a3-a4", "BB a5xa4"],
     "Black's stone 4 climbed to a4. Instead of rolling the die, White rolled the big ball on a5 "
     "down to the left, onto a4: Black's stone 4 is captured."),
]

OFFBOARD_DIAGRAMS = [
    ("setup", "The set-up", [],
     "Twelve balls each, and the twelve scoring spaces on the rim with their values."),
    ("line-move", "A line move", ["C3-D4"],
     "Red's line of two, C3 and D4, moved one hole forward along the line: the balls now stand "
     "on D4 and E5."),
    ("push", "A push", ["B2-B3x1"],
     "Red's line of three, B2 to B4, pushed Yellow's single ball on B5 one hole on, to B6."),
    ("push-off", "A push-off", ["B4-A4", "C6-B5x1 S2+2"],
     "Red moved a ball to the edge, on A4. Yellow's two balls, C6 and B5, pushed it over the rim: "
     "it rolled into S2, and Yellow scores 2 points."),
]

# name, look (the colour in words and blinking or steady), what it tells you, what to do
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
    ("to", "bright white, steady",
     "You hold a piece that may move: it may go here (a capture lights the piece it would take).",
     "Put it down on one of them, or back where it was."),
    ("movable", "green, steady", "Big Balls: the stone the die chose.", "Move it."),
    ("last", "dim white, steady", "The hollows the last move touched.",
     "Nothing. To take the move back (when takebacks are allowed), put the board back as it was."),
    ("winner", "amber, steady", "Game over: the winner's pieces (Big Balls: and the top hollow a7).",
     "Nothing; well played."),
    ("draw", "purple, steady", "Game over, drawn: every piece on the board.", "Nothing."),
]


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % rgb


def _start(game: str) -> Game:
    return BigBalls(**parse_setup(SHUFFLED)) if game == "bigballs" else OffBoard()


def _diagram(game: str, ident: str, title: str, moves: list[str], caption: str) -> dict:
    position = _start(game)
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
        "cells": list(position.cells), "pieces": pieces(position), "lights": lights, "arrow": arrow,
        "sectors": sector_shapes(position.layout) if isinstance(position, OffBoard) else [],
        "turn": position.turn,
    }


@functools.cache
def rules_page(game: str) -> dict:
    """The rules page of `game` ("bigballs" or "offboard"); KeyError for any other name."""
    title = GAME_TITLES[game]
    sections, diagrams = ((BIGBALLS_SECTIONS, BIGBALLS_DIAGRAMS) if game == "bigballs"
                          else (OFFBOARD_SECTIONS, OFFBOARD_DIAGRAMS))
    return {
        "game": game,
        "title": title,
        "sections": sections,
        "diagrams": [_diagram(game, *entry) for entry in diagrams],
        "lights": [{"name": name, "colour": _hex(PALETTE[name]) if name in PALETTE else None,
                    "blink": name in BLINKING, "look": look, "means": means, "do": do}
                   for name, look, means, do in LIGHTS],
        "palette": {name: _hex(rgb) for name, rgb in PALETTE.items()},
    }
