"""What the recogniser keeps between frames, and what it decides, as types.

The recogniser (reconcile.py) is in one of a few modes: waiting for hands, a capture held
(a piece in the hand or a quick swap, rule 2), choosing between moves by touch (rule 6), a
move just counted that its mover may still amend (rule 3). A board that may still grow waits
out the settle time with one thing to do then. Each ruling (rulings.py) returns one decision
for a board, or nothing; the recogniser carries it out. Rules and rulings are named as in
docs/recognition.md.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

# How far a board after a capture shows the next player started.
UNDER_WAY, MADE = 1, 2
HELD_FRAMES_KEPT = 64  # boards kept from a held quick swap to its commit (a hand makes a few a move)


@dataclass(frozen=True)
class Candidate:
    """One legal move, as the hollows see it."""

    move: Hashable
    result: int  # occupancy mask after the move
    may_empty: int  # cells that are, or may be for a while, empty during the move
    may_fill: int  # cells the move fills
    needs: int  # capture cells: evidence that they were touched
    path: int  # cells occupied after the move that belong to it (for choosing by touch)


# --- modes ---------------------------------------------------------------------------------------
@dataclass
class SinceSwap:
    """What the hands did since a held quick swap was first shown (rule 2)."""

    opened: int = 0  # cells seen empty since: evidence for the next player's own capture (R3)
    boards: list[int] = field(default_factory=list)  # the boards since, read again in the next turn
    start_seen: bool = False  # a board looked like the next player's start
    placed: bool = False  # a piece was put down since
    shown_at: float = float("-inf")  # when the held board was first shown

    def saw(self, shown: int, board: int) -> None:
        self.opened |= shown & ~board
        self.placed |= bool(board & ~(self.boards[-1] if self.boards else shown))
        self.boards = self.boards[-HELD_FRAMES_KEPT + 1:] + [board]


@dataclass
class Held:
    """Captures the board shows with no target seen touched: a piece in the hand, or a swap
    quicker than the debounce. Only the next player or the ok button decides (rule 2)."""

    captures: list[Candidate]
    since: SinceSwap


@dataclass
class Choosing:
    """The players are asked which of `matches` was made, by a touch (rule 6). For a quick
    swap's captures the next player may have gone on already: a touch anywhere answers (R5)."""

    board: int  # the board the choice is about
    matches: list[Candidate]
    since: SinceSwap | None = None  # a quick swap's choice: the hands since the swap (R5)
    lifted: int = 0  # pieces lifted from the board so far (a touch under way)
    touch: tuple[int, int] | None = None  # swap choice: (board before, the piece lifted) of a touch
    last_board: int = 0  # swap choice: the board as last seen

    @property
    def of_swap(self) -> bool:
        return self.since is not None


@dataclass
class AfterCommit:
    """A move just counted: until the next player starts, its mover may amend it (rule 3)."""

    move: Hashable
    candidates: list[Candidate]  # the moves from the position before it
    before: int  # the board before it
    touched: int  # hollows of that board seen empty since


# --- what waits out the settle time ------------------------------------------------------------------
@dataclass(frozen=True)
class CountWhenStill:
    """A move whose board may still grow into a longer one (rule 3)."""

    candidate: Candidate


@dataclass(frozen=True)
class AmendWhenStill:
    """The mover's amendment, where the board may still be something else (rule 3)."""

    candidate: Candidate


@dataclass(frozen=True)
class AskWhenStill:
    """Several moves fit a board that may still grow (rule 6)."""

    board: int
    matches: list[Candidate]


@dataclass(frozen=True)
class SwapWhenStill:
    """The next player's whole move beside a held capture that the mover's hand might still
    explain: the capture counts when the board stays still (R16)."""


@dataclass(frozen=True)
class BesideWhenStill:
    """The mover's move with the next player's beside it, where another move of the mover's
    might still be in the hand (rule 10, R16)."""

    candidate: Candidate


@dataclass(frozen=True)
class TakeBackWhenStill:
    """The board is the position before the last move (rule 7)."""


Waiting = CountWhenStill | AmendWhenStill | AskWhenStill | SwapWhenStill | BesideWhenStill | TakeBackWhenStill


# --- decisions -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CountNow:
    """The move counts."""

    candidate: Candidate


@dataclass(frozen=True)
class CountThenReadOn:
    """The waiting move counts, and the board is read again in the next player's turn (R11)."""

    candidate: Candidate


@dataclass(frozen=True)
class CountBeside:
    """The mover's move counts, the next player's hand at work beside it (rule 10)."""

    candidate: Candidate


@dataclass(frozen=True)
class CountTwoBeside:
    """The mover's move and the next player's, made beside it, count in turn; the board is read
    in the turn after them, the mover's hands already at their next move (R21)."""

    candidate: Candidate
    then: Hashable  # the next player's move


@dataclass(frozen=True)
class AmendNow:
    """The last move is replaced by another from the same position (rule 3)."""

    candidate: Candidate


@dataclass(frozen=True)
class AmendBeside:
    """The last move is replaced by another from the same position, whose mover's hands began
    before the next player's hand at work beside it; the board is read in the next turn (R22)."""

    candidate: Candidate


@dataclass(frozen=True)
class Ask:
    """The players are asked which move was made (rule 6)."""

    board: int
    matches: list[Candidate]


@dataclass(frozen=True)
class WaitStill:
    """Nothing counts until the board has been still for the settle time, then `then` does."""

    then: Waiting


@dataclass(frozen=True)
class KeepWaiting:
    """The same thing waits as before this board, and keeps its time."""

    waiting: Waiting
    due: float


@dataclass(frozen=True)
class Hold:
    """A capture nobody saw the victim of: held for the next player or the ok button (rule 2)."""

    captures: list[Candidate]


@dataclass(frozen=True)
class SwapCounts:
    """The next player started after a held capture: it counts, or which one is asked (R1)."""


@dataclass(frozen=True)
class WatchOn:
    """A hand at work on the way to something legal: nothing counts yet, nothing is signalled."""


@dataclass(frozen=True)
class FitsNothing:
    """A board no move explains: signalled after the grace time (rule 5)."""


@dataclass(frozen=True)
class KeepSignalling:
    """A board signalled already: the lights follow it (rule 5)."""


Decision = (CountNow | CountThenReadOn | CountBeside | CountTwoBeside | AmendNow | AmendBeside | Ask | WaitStill | KeepWaiting | Hold
            | SwapCounts | WatchOn | FitsNothing | KeepSignalling)


@dataclass(frozen=True)
class Board:
    """A stable board, as the rulings read it."""

    t: float
    S: int  # the occupancy
    waiting: Waiting | None  # what waited out the settle time before this board
    due: float | None  # when it would have been due
    interrupted: Candidate | None  # a move that waited when the hands went on, deciding nothing since
    beside: bool  # that move waited as the mover's, with the next player's beside it (rule 10)
    at_result: list[Candidate]  # this turn's moves whose result the board is
    matches: list[Candidate]  # those with their evidence seen


@dataclass(frozen=True)
class Ruling:
    """A named rule or ruling of docs/recognition.md. `decide` rules on a board where it is one
    of the recogniser's ordered decisions; where it is None, the ruling refines one of them (its
    check is named with its id where it applies)."""

    rid: str
    title: str
    decide: Callable | None = None
