"""What the players should see now: the referee's state, as plain data.

The referee builds a View after every change; signals turns it into lights, the die
display and sounds; the web view shows it too. Cells are sensed cell names.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..games import Outcome


class Phase(enum.Enum):
    SETUP = "setup"  # pieces must be put where `fill` says (and taken from `empty`)
    IDENTIFY = "identify"  # numbered stones: lift and put back the stone numbered `identify`
    PLAY = "play"  # waiting for a move (with a die: for a move without it, or the die)
    ROLLED = "rolled"  # the die shows `roll`; a move for it is expected
    OVER = "over"


class NoteKind(enum.StrEnum):
    """What a note tells (a Note's `kind`); its data, by kind, is given beside each. A note is
    data: the words room writes and says it (controller/words/notes.py), in any language."""

    SETUP = "setup"  # mode (given, shuffle, identify) or prompt (a Prompt's as_data)
    READY = "ready"  # player: the set-up is done, the first to move
    ROLL = "roll"  # player, value, stones (the stones it lets move), kept (a number kept over a takeback)
    MOVE = "move"  # player, move (its notation)
    AMEND = "amend"  # old, new: a move changed for another before the next
    TAKEBACK = "takeback"  # move, roll (the number it was made with, kept)
    ILLEGAL = "illegal"  # fill, empty, pieces: the board fits no move; what to put back
    CLEAR = "clear"  # the board fits the game again
    CHOOSE = "choose"  # moves: the board fits several
    TOUCH = "touch"  # cells: a piece lifted and put back (the way to choose)
    REFUSED = "refused"  # reason (an N_-marked msgid), values, cells: a press or a lift refused
    IDENTIFY = "identify"  # player, number: the stone the set-up asks for
    IDENTIFIED = "identified"  # player, number, cell
    LOW_TIME = "low_time"  # player, seconds
    FLAG = "flag"  # player: the time ran out
    RESIGN = "resign"  # player
    DRAW = "draw"  # a draw agreed
    OVER = "over"  # result, winner, reason (the ending's key)
    HINT = "hint"  # player, move (or "roll")
    ASKED = "asked"  # player: the computer asked (a hint, its move)
    COMPUTER = "computer"  # player, move (None: it has none), roll
    LINK = "link"  # state (lost, connected), why (unplugged, silent, refused): the board's link
    COMPUTER_FAILED = "computer_failed"  # error: the computer did not answer
    RESUMED = "resumed"  # the power came back: a resumed game goes on


@dataclass(frozen=True)
class Prompt:
    """What is asked of the players now, as data: `kind` and its details (cells, player,
    number ...), never words: the words room says it (controller/words/prompts.py).

    kinds: clear (cells), fill (cells, empty), place (piece, cell), identify (player, number),
    roll (player), move (player, roll, stones, waiting), in_hand (player, cells, to),
    put_back (fill, empty, pieces), choose (moves), over (result, winner, reason),
    computer (player, move: None while it thinks, roll, words); roll, move and in_hand carry a
    `hint` (a move) and `hint_words` once one was asked for. `words` say what the hands do for
    the move (Game.move_words), where its notation names something else."""

    kind: str
    data: Mapping = field(default_factory=dict)

    def as_data(self) -> list:
        """[kind, data]: kept in a note, and made a Prompt again to be put in words."""
        return [self.kind, dict(self.data)]


@dataclass(frozen=True)
class View:
    game: str  # the game's name in the registry
    phase: Phase
    turn: str  # the player to move (one of `players`)
    cells: tuple[str, ...]  # every sensed cell, in board order
    occupied: frozenset[str]  # where pieces stand in the game's position
    roll: int | None = None  # the die's value while a stone move is expected
    rolling: bool = False  # the die animation is running
    movable: frozenset[str] = frozenset()  # cells of the pieces the die chose
    to: frozenset[str] = frozenset()  # where the piece in the hand may go
    last_move: frozenset[str] = frozenset()  # cells the last accepted move touched
    fill: frozenset[str] = frozenset()  # cells where a piece must be put
    empty: frozenset[str] = frozenset()  # cells a piece must be taken from
    choices: tuple[frozenset[str], ...] = ()  # ambiguity: each candidate move's cells
    identify: int | None = None  # identify set-up: the number of the stone being asked for
    place: frozenset[str] = frozenset()  # guided set-up: where the stone `identify` goes
    outcome: Outcome | None = None
    winner_cells: frozenset[str] = frozenset()  # the winner's pieces once over (Game.winner_cells)
    # a move shown to be carried out (the computer's) or considered (a hint):
    lift: frozenset[str] = frozenset()  # the pieces to lift
    dest: frozenset[str] = frozenset()  # where they go (a sector on the rim, for a push-off)
    take: frozenset[str] = frozenset()  # what the move captures or pushes off
    prompt: Prompt | None = None
    players: tuple[str, str] = field(default=("black", "white"))
