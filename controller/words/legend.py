"""What each light under a hollow means to the players: the one table of them.

The rules page shows it (controller.web.rules), each game putting its own words where these
say too little (Game.light_meanings), and docs/players.md, "What the lights mean", holds the
same rows: tests hold both to this table. The names are the cell colours of signals (its
PRECEDENCE), whose PALETTE gives each its colour; a look says "blinking" exactly for the
lights that blink (signals.BLINKING). Listed in the order a player reads them: what to do
first, then what is only for information.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..language.catalogue import N_

__all__ = ["LIGHT_LEGEND", "LightMeaning"]


@dataclass(frozen=True)
class LightMeaning:
    name: str  # the cell colour (a PALETTE name)
    look: str  # its colour in words, and blinking or steady (English: looked up where shown)
    means: str  # what it tells the players
    do: str  # what to do about it


LIGHT_LEGEND: tuple[LightMeaning, ...] = (
    LightMeaning("fill", N_("blue, blinking"), N_("A piece is missing here: the board does not match the game."),
                 N_("Put the piece back here.")),
    LightMeaning("empty", N_("vermillion (red-orange), blinking"),
                 N_("A piece stands here that should not; or, playing the computer (or after a hint), the piece"
                    " its move lifts, and what that move captures or pushes off."),
                 N_("Take it away (the computer's move: lift it).")),
    LightMeaning("choose", N_("white, blinking"),
                 N_("Your move fits more than one legal move; every hollow of each possible move blinks."),
                 N_("Lift and put back a piece that belongs only to the move you meant.")),
    LightMeaning("place", N_("green, blinking"), N_("Set-up: the die display shows a stone's number."),
                 N_("Put that stone here.")),
    LightMeaning("dest", N_("teal, steady"),
                 N_("The computer's move or a hint: the piece goes here (onto a piece it captures, or a push-off's"
                    " sector)."),
                 N_("Lift the piece the blinking vermillion shows and put it here; a piece standing here goes in"
                    " the box first.")),
    LightMeaning("to", N_("bright white, steady"),
                 N_("You hold a piece that may move: it may go here (a capture lights the piece it would take)."),
                 N_("Put it down on one of them, or back where it was.")),
    LightMeaning("movable", N_("green, steady"), N_("The piece the die chose."), N_("Move it.")),
    LightMeaning("last", N_("dim white, steady"), N_("The hollows the last move touched."),
                 N_("Nothing. To take the move back (when takebacks are allowed), put the board back as it was.")),
    LightMeaning("winner", N_("amber, steady"), N_("Game over: the winner's pieces."), N_("Nothing; well played.")),
    LightMeaning("draw", N_("purple, steady"), N_("Game over, drawn: every piece on the board."), N_("Nothing.")),
)
