"""Big Balls (Ingo Althöfer and Jakob Lübke, 2006): the rules engine.

28 hollows in a triangle, a1..g1 at the bottom up to a7 at the top. Each player has six
stones numbered 1-6; six neutral big balls start at the top. A turn is either a big-ball
move (one ball rolls sw or se, capturing a stone it lands on) or a roll of the die and a
step of the chosen stone nw, ne, w or e, capturing whatever stands there. A stone on a7
wins. The web view's Rules tab explains them with diagrams; the tests pin every rule down.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ..language.phrases import N_, Phrasebook, Said, listed
from .base import (
    Footprint, Game, GameOption, MoveError, Outcome, Termination, brief, colour_words, over_words, player_words,
)
from .bigballs_eval import evaluation
from .bigballs_start import DEFAULT_BALLS, DEFAULT_SETUP, shuffled_setup
from .geometry import Grid
from .rules_text import rules_text

PLAYERS = ("black", "white")
NUMBERS = range(1, 7)

GRID = Grid(
    coords=[(i, r) for r in range(1, 8) for i in range(8 - r)],
    name_of=lambda c: "abcdefg"[c[0]] + str(c[1]),
    directions=[
        ("ne", (0, 1)), ("e", (1, 0)), ("se", (1, -1)),
        ("sw", (0, -1)), ("w", (-1, 0)), ("nw", (-1, 1)),
    ],
)
NAMES = GRID.names
A7 = GRID.index("a7")
STONE_DIRECTIONS = ("nw", "ne", "w", "e")  # up or sideways, never down
BALL_DIRECTIONS = ("sw", "se")

# Big Balls' own endings (the keys are what records and journals have always written)
REACHED_A7 = Termination("a7", N_("with a stone on a7"))
BALLS_ONLY = Termination("balls-only", N_(": only big balls are left"))

# Piece codes on the board: 0 empty, 1..6 Black's stones, 7..12 White's stones, 13 a big ball.
EMPTY, BALL = 0, 13

phrase = Phrasebook("play")


def _targets(directions: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    ds = [GRID.direction(d) for d in directions]
    return tuple(
        tuple(GRID.step[d][cell] for d in ds if GRID.step[d][cell] >= 0) for cell in range(len(GRID))
    )


STONE_TARGETS = _targets(STONE_DIRECTIONS)
BALL_TARGETS = _targets(BALL_DIRECTIONS)
STONE_TARGET_COUNT = tuple(len(t) for t in STONE_TARGETS) + (0,)  # [-1] -> 0: a stone off the board


def _choice(present: int, roll: int) -> tuple[int, ...]:
    """The stone numbers a roll lets move, given a 6-bit mask of the numbers still on the board."""
    if present >> (roll - 1) & 1:
        return (roll,)
    lower = [n for n in range(roll - 1, 0, -1) if present >> (n - 1) & 1][:1]
    higher = [n for n in range(roll + 1, 7) if present >> (n - 1) & 1][:1]
    return tuple(lower + higher)


# CHOICE[mask][roll]: stones that may move; ROLLS_PER_STONE[mask][n]: for how many rolls stone n may.
CHOICE = tuple(tuple(() if roll == 0 else _choice(mask, roll) for roll in range(7)) for mask in range(64))
ROLLS_PER_STONE = tuple(
    tuple(sum(n in CHOICE[mask][roll] for roll in NUMBERS) for n in range(7)) for mask in range(64)
)
_EVALUATE = evaluation(GRID, BALL, BALL_TARGETS, ROLLS_PER_STONE)  # the computer opponent's judgement

# hollow name -> cell, as moves write it (and in upper case)
CELL = {written: cell for cell, name in enumerate(NAMES) for written in (name.upper(), name)}

# piece code -> (colour, number) of a stone
STONE_OF = (None,) + tuple(((code - 1) // 6, (code - 1) % 6 + 1) for code in range(1, BALL))

# Zobrist keys: one random 64-bit number per (hollow, piece code), one for White to move; a
# position's key is the exclusive-or of those of its pieces, updated by push and pop.
_ZOBRIST_RNG = random.Random("bigballs zobrist")
ZOBRIST = tuple(tuple(0 if code == EMPTY else _ZOBRIST_RNG.getrandbits(64) for code in range(BALL + 1))
                for _ in range(len(GRID)))
ZOBRIST_WHITE = _ZOBRIST_RNG.getrandbits(64)

# The rules page's set-up: each colour's numbers shuffled over its hollows, as at the table.
EXAMPLE_SETUP = "black=a1:3,b1:6,c1:1,a2:5,b2:2,a3:4 white=e1:2,f1:4,g1:6,e2:1,f2:3,e3:5"
ROOT3_HALF = 3 ** 0.5 / 2


class SetupError(ValueError):
    """A set-up that cannot stand on the board; the message names the problem."""


class BigBallsMove(NamedTuple):
    """A stone move (roll 1-6) or a big-ball move (roll None); str() is the notation."""

    roll: int | None
    src: str
    dst: str
    capture: bool = False

    @property
    def is_big_ball(self) -> bool:
        return self.roll is None

    def __str__(self) -> str:
        head = "BB" if self.roll is None else str(self.roll)
        return f"{head} {self.src}{'x' if self.capture else '-'}{self.dst}"

    def __repr__(self) -> str:
        return f"BigBallsMove({str(self)!r})"


def _move_table() -> dict[tuple[int, int, int, bool], BigBallsMove]:
    """Every move the board allows, made once: (roll or 0, from, to, capture) -> the move."""
    table = {}
    for cell in range(len(GRID)):
        for capture in (False, True):
            for target in BALL_TARGETS[cell]:
                table[0, cell, target, capture] = BigBallsMove(None, NAMES[cell], NAMES[target], capture)
            for roll in NUMBERS:
                for target in STONE_TARGETS[cell]:
                    table[roll, cell, target, capture] = BigBallsMove(roll, NAMES[cell], NAMES[target], capture)
    return table


# Built by _build_tables() when the first game is made (see there).
MOVES = MOVE_DATA = BALL_STEPS = STONE_STEPS = None


def _build_tables() -> None:
    """Every move the board allows, made once, with what push, pop and the move lists read of
    it: built when the first game is made, not on import (the command line, the games' names and
    their rules need none of it). MOVES: (roll or 0, from, to, capture) -> the move; MOVE_DATA:
    move -> (from, to, [piece code] -> the key's change when that piece makes the move, the
    turn included); BALL_STEPS, STONE_STEPS[roll]: [cell] -> ((target, quiet move, capture), ...)."""
    global MOVES, MOVE_DATA, BALL_STEPS, STONE_STEPS
    if MOVE_DATA is not None:
        return
    moves = _move_table()
    BALL_STEPS = tuple(tuple((t, moves[0, c, t, False], moves[0, c, t, True]) for t in BALL_TARGETS[c])
                       for c in range(len(GRID)))
    STONE_STEPS = ((),) + tuple(
        tuple(tuple((t, moves[roll, c, t, False], moves[roll, c, t, True]) for t in STONE_TARGETS[c])
              for c in range(len(GRID))) for roll in NUMBERS)
    MOVES = moves
    MOVE_DATA = {move: (src, dst, tuple(ZOBRIST[src][code] ^ ZOBRIST[dst][code] ^ ZOBRIST_WHITE
                                        for code in range(BALL + 1)))
                 for (_, src, dst, _), move in moves.items()}  # last: the tables are ready


def _move_data(move: BigBallsMove) -> tuple[int, int, tuple[int, ...]]:
    """MOVE_DATA of a move written otherwise (hollows in capitals)."""
    return MOVE_DATA[MOVES[move.roll or 0, CELL[move.src], CELL[move.dst], move.capture]]


_MOVE_TEXT = re.compile(r"\s*(bb|\d+)\s+([a-z]\d+)\s*([-x])\s*([a-z]\d+)\s*", re.IGNORECASE)


class BigBalls(Game):
    name = "bigballs"
    title = "Big Balls"
    players = PLAYERS
    uses_die = True
    board = "bigballs"
    setup_modes = ("auto", "given", "shuffle", "identify")
    options = (
        GameOption("setup", N_('the stones, e.g. "black=a1:3,b1:6,c1:1,a2:5,b2:2,a3:4 white=e1:2,f1:4,g1:6,e2:1,f2:3,'
                               'e3:5" (default: numbers 1-6 in board order)'), metavar="SETUP"),
        GameOption("first", N_("who moves first (default black)"), label=N_("first to move"),
                   choice_labels=(N_("Black"), N_("White")), choices=PLAYERS, default="black"),
    )
    header_keys = ("first", "setup", "balls")
    endings = (REACHED_A7, BALLS_ONLY)
    # the computer's levels 1..8 here (nodes, depth, temperature, natural; opponent/levels.py):
    # the die hides small differences in strength, so the steps are wide; calibrated by bench/ladder.py.
    # Levels 7 and 8 are cold and deepen until their budget is spent; level 6 ends at depth 3, well
    # inside its 8,000 nodes (a median of about 900), so it sees no further than level 7. The ladder
    # ends at 8, which already thinks about 5 s a turn on a Pi Zero 2 W: one more turn of look-ahead
    # costs 9-13 times the nodes, and twice and four times level 8's budget scored 54 % (24 games)
    # and 47 % (32 games) over the level below, no step a player could climb.
    computer_levels = (
        (300, 1, 0.27, 0.05),
        (600, 1, 0.17, 0.03),
        (1_500, 2, 0.13, 0.0),
        (3_000, 2, 0.09, 0.0),
        (6_000, 3, 0.08, 0.0),
        (8_000, 3, 0.055, 0.0),
        (5_000, 64, 0.0, 0.0),
        (100_000, 64, 0.0, 0.0),
    )
    computer_pi_seconds = {8: 5.0}  # seconds a turn on a Pi Zero 2 W
    computer_safety_seconds = {8: 25.0}
    renumbered_levels = {"0.1.0": {9: 8, 10: 8}}  # 0.1.0's levels 9 and 10 measured as strong as 8

    def setup_guide(self, mode: str, rng=None):
        if mode == "given":
            return None
        from .bigballs_setup import BigBallsSetup  # here: only a set-up needs the guide's steps

        return BigBallsSetup(self, mode, rng)  # the shuffle and the identification of stones

    def __init__(
        self,
        black: Mapping[str, int] | None = None,
        white: Mapping[str, int] | None = None,
        balls: Sequence[str] | None = None,
        first: str = "black",
    ) -> None:
        """A position: each colour's stones as {hollow: number}, the big balls' hollows."""
        _build_tables()
        super().__init__()
        if first not in PLAYERS:
            raise SetupError(phrase("first player must be black or white, not {first}", first=repr(first)))
        self.first = first
        self._turn = PLAYERS.index(first)
        self._board = [EMPTY] * len(GRID)
        self._at = [-1] * BALL  # _at[piece code] -> the stone's hollow, or -1 once taken (codes 1-12)
        self._present = [0, 0]  # 6-bit masks of the numbers on the board
        self._stones = [0, 0]
        self._balls: set[int] = set()
        self._captured: list[int] = []  # piece code taken by each move on the stack
        self._key = 0  # the Zobrist key of the pieces and the player to move

        arrangement = {"black": DEFAULT_SETUP["black"] if black is None else black,
                       "white": DEFAULT_SETUP["white"] if white is None else white}
        ball_hollows = DEFAULT_BALLS if balls is None else balls
        for colour_index, colour in enumerate(PLAYERS):
            for hollow, number in arrangement[colour].items():
                if number not in NUMBERS or isinstance(number, bool):
                    raise SetupError(phrase("{colour} stone on {hollow}: number {number} is not 1-6",
                                            colour=colour_words(colour), hollow=hollow, number=repr(number)))
                if self._at[colour_index * 6 + number] >= 0:
                    raise SetupError(phrase("{colour} stone {number} is placed twice", colour=colour_words(colour),
                                            number=number))
                if hollow == NAMES[A7]:  # reaching a7 wins: a game cannot start there
                    if NAMES[A7] in ball_hollows:
                        raise SetupError(phrase("{colour} stone {number} on a7: a big ball stands on a7 at the start, and a"
                                                " stone there would already have won; put it on another hollow",
                                                colour=colour_words(colour), number=number))
                    raise SetupError(phrase("{colour} stone {number} on a7: a stone on a7 has already won; put it on"
                                            " another hollow", colour=colour_words(colour), number=number))
                cell = self._place(hollow, colour_index * 6 + number)
                self._at[colour_index * 6 + number] = cell
                self._present[colour_index] |= 1 << (number - 1)
                self._stones[colour_index] += 1
        for hollow in ball_hollows:
            stone = self.piece_at(hollow) if hollow in NAMES else None
            if stone not in (None, "ball"):
                raise SetupError(phrase("hollow {hollow} is given twice: a big ball starts there, so {colour} stone"
                                        " {number} cannot stand there; put it on another hollow",
                                        hollow=hollow, colour=colour_words(stone[0]), number=stone[1]))
            self._balls.add(self._place(hollow, BALL))
        self._key = self._zobrist()

    def __setstate__(self, state: dict) -> None:
        _build_tables()  # unpickled where no game was made yet (the computer's worker process)
        self.__dict__.update(state)

    def _zobrist(self) -> int:
        """The position's Zobrist key computed from scratch (push and pop keep it up to date)."""
        key = ZOBRIST_WHITE if self._turn else 0
        for cell, code in enumerate(self._board):
            key ^= ZOBRIST[cell][code]
        return key

    def _place(self, hollow: str, code: int) -> int:
        try:
            cell = GRID.index(hollow)
        except ValueError:
            raise SetupError(phrase("no hollow {hollow} on the Big Balls board (a1..g1 up to a7)",
                                    hollow=repr(hollow))) from None
        if self._board[cell] != EMPTY:
            raise SetupError(phrase("hollow {hollow} is given twice", hollow=NAMES[cell]))
        self._board[cell] = code
        return cell

    # --- the position -------------------------------------------------------------
    @property
    def turn(self) -> str:
        return PLAYERS[self._turn]

    @property
    def cells(self) -> tuple[str, ...]:
        return NAMES

    def occupied(self) -> frozenset[str]:
        return frozenset(NAMES[c] for c, code in enumerate(self._board) if code)

    def piece_at(self, hollow: str) -> tuple[str, int] | str | None:
        """("black", 3) for a stone, "ball" for a big ball, None for an empty hollow."""
        code = self._board[GRID.index(hollow)]
        if code == EMPTY:
            return None
        if code == BALL:
            return "ball"
        return (PLAYERS[(code - 1) // 6], (code - 1) % 6 + 1)

    def stones(self, player: str) -> dict[str, int]:
        """{hollow: number} of the player's stones on the board, in board order."""
        colour = PLAYERS.index(player)
        placed = ((n, self._at[colour * 6 + n]) for n in NUMBERS)
        return {NAMES[c]: n for n, c in sorted(placed) if c >= 0}

    def balls(self) -> list[str]:
        return [NAMES[c] for c in sorted(self._balls)]

    def setup_lines(self) -> list[str]:
        """The set-up as written at the head of a game record: `black a1=3 b1=6 ...`."""
        lines = []
        for player in PLAYERS:
            placed = sorted((GRID.index(h), h, n) for h, n in self.stones(player).items())
            lines.append(" ".join([player] + [f"{h}={n}" for _, h, n in placed]))
        return lines

    def copy(self) -> BigBalls:
        twin = BigBalls.__new__(BigBalls)
        Game.__init__(twin)
        twin.first = self.first
        twin._turn = self._turn
        twin._board = self._board[:]
        twin._at = self._at[:]
        twin._present = self._present[:]
        twin._stones = self._stones[:]
        twin._balls = set(self._balls)
        twin._captured = self._captured[:]
        twin._key = self._key
        twin.move_stack = self.move_stack[:]
        twin._declared = self._declared
        return twin

    # --- moves --------------------------------------------------------------------
    def movable_stones(self, roll: int, player: str | None = None) -> list[int]:
        """The stone numbers `roll` lets the player move: the rolled one if it is on the
        board, else the nearest lower and the nearest higher still there."""
        if roll not in NUMBERS:
            raise ValueError(f"a die shows 1-6, not {roll!r}")
        colour = self._turn if player is None else PLAYERS.index(player)
        return list(CHOICE[self._present[colour]][roll])

    def big_ball_moves(self) -> list[BigBallsMove]:
        board, moves = self._board, []
        for ball in sorted(self._balls):
            for target, quiet, capture in BALL_STEPS[ball]:
                code = board[target]
                if code != BALL:
                    moves.append(capture if code else quiet)
        return moves

    def stone_moves(self, roll: int) -> list[BigBallsMove]:
        """The stone moves allowed after rolling `roll` (a big-ball move no longer is)."""
        if self.outcome() is not None:
            return []
        if roll not in NUMBERS:
            raise ValueError(f"a die shows 1-6, not {roll!r}")
        return self._stone_moves(roll)

    def _stone_moves(self, roll: int) -> list[BigBallsMove]:
        board, at, base, moves = self._board, self._at, self._turn * 6, []
        steps = STONE_STEPS[roll]
        for number in CHOICE[self._present[self._turn]][roll]:
            for target, quiet, capture in steps[at[base + number]]:
                moves.append(capture if board[target] else quiet)
        return moves

    def turn_moves(self, roll: int | None = None) -> list[BigBallsMove]:
        """Before a roll: the big-ball moves; after rolling `roll`: that roll's stone moves."""
        if roll is None:
            return [] if self.outcome() is not None else self.big_ball_moves()
        return self.stone_moves(roll)

    def piece_words(self, code: str) -> Said:
        if code == "ball":
            return phrase("the big ball")
        number = code[1:]
        if code[:1] == "B":
            return phrase("the black stone {number}", number=number) if number.isdigit() else phrase("a black stone")
        if code[:1] == "W":
            return phrase("the white stone {number}", number=number) if number.isdigit() else phrase("a white stone")
        return super().piece_words(code)

    def roll_of(self, move: BigBallsMove) -> int | None:
        return move.roll

    def can_roll(self) -> bool:
        """Whether the player to move has a stone to roll for."""
        return self.outcome() is None and self._stones[self._turn] > 0

    def legal_moves(self) -> list[BigBallsMove]:
        """Big-ball moves, then the stone moves of each die value 1-6 in turn (the same step
        under two values is two moves, as perft counts them)."""
        if self.outcome() is not None:
            return []
        moves = self.big_ball_moves()
        for roll in NUMBERS:
            moves.extend(self._stone_moves(roll))
        return moves

    def count_legal_moves(self) -> int:
        if self.outcome() is not None:
            return 0
        board, count = self._board, 0
        for ball in self._balls:
            for target in BALL_TARGETS[ball]:
                if board[target] != BALL:
                    count += 1
        at, base = self._at, self._turn * 6
        per_stone = ROLLS_PER_STONE[self._present[self._turn]]
        for number in NUMBERS:
            count += per_stone[number] * STONE_TARGET_COUNT[at[base + number]]
        return count

    def push(self, move: BigBallsMove) -> None:
        try:
            src, dst, key_change = MOVE_DATA[move]
        except KeyError:  # a move written otherwise (hollows in capitals)
            src, dst, key_change = _move_data(move)
        board = self._board
        piece, taken = board[src], board[dst]
        board[dst] = piece
        board[src] = EMPTY
        if piece == BALL:
            balls = self._balls
            balls.discard(src)
            balls.add(dst)
        else:
            self._at[piece] = dst
        if taken:  # take the captured piece out of the game's books (its hollow is reused)
            self._key ^= key_change[piece] ^ ZOBRIST[dst][taken]
            if taken == BALL:
                self._balls.discard(dst)
            else:
                self._at[taken] = -1
                colour, number = STONE_OF[taken]
                self._present[colour] ^= 1 << (number - 1)
                self._stones[colour] -= 1
        else:
            self._key ^= key_change[piece]
        self._captured.append(taken)
        self.move_stack.append(move)
        self._turn ^= 1

    def pop(self) -> BigBallsMove:
        move = self.move_stack.pop()
        taken = self._captured.pop()
        try:
            src, dst, key_change = MOVE_DATA[move]
        except KeyError:  # a move written otherwise (hollows in capitals)
            src, dst, key_change = _move_data(move)
        board = self._board
        piece = board[dst]
        board[src] = piece
        board[dst] = taken
        if piece == BALL:
            balls = self._balls
            balls.discard(dst)
            balls.add(src)
        else:
            self._at[piece] = src
        if taken:
            self._key ^= key_change[piece] ^ ZOBRIST[dst][taken]
            if taken == BALL:
                self._balls.add(dst)
            else:
                self._at[taken] = dst
                colour, number = STONE_OF[taken]
                self._present[colour] |= 1 << (number - 1)
                self._stones[colour] += 1
        else:
            self._key ^= key_change[piece]
        self._turn ^= 1
        self._declared = None
        return move

    def near(self, cell: str) -> frozenset[str]:
        return GRID.neighbour_names(cell)

    def footprint(self, move: BigBallsMove) -> Footprint:
        if move.capture:
            return Footprint(empties=frozenset({move.src}), fills=frozenset(), captures=frozenset({move.dst}))
        return Footprint(empties=frozenset({move.src}), fills=frozenset({move.dst}))

    def spoken(self, move: object) -> Said:
        found = _MOVE_TEXT.fullmatch(str(move))
        if found is None:
            return str(move)
        head, src, sign, dst = found.groups()
        ball, takes = head.lower() == "bb", sign.lower() == "x"
        if ball and takes:
            return phrase("big ball from {src} takes on {dst}", src=src, dst=dst)
        if ball:
            return phrase("big ball from {src} to {dst}", src=src, dst=dst)
        if takes:
            return phrase("stone {n} from {src} takes on {dst}", n=head, src=src, dst=dst)
        return phrase("stone {n} from {src} to {dst}", n=head, src=src, dst=dst)

    def light_meanings(self) -> dict[str, str]:
        return {"movable": phrase("The hollow of the stone the die chose; while the stones are identified, every stone"
                                  " whose number the board does not know yet."),
                "winner": phrase("Game over: the winner's pieces and the top hollow a7.")}

    def move_words(self, move: BigBallsMove) -> Said:
        """"move stone 3 from c1 to d1", "take white stone 5 off d1, then move stone 3 from c1 to d1"."""
        pieces = self.pieces()
        where = {"src": move.src, "dst": move.dst}
        if not move.capture:
            if move.is_big_ball:
                return phrase("move the big ball from {src} to {dst}", **where)
            return phrase("move stone {n} from {src} to {dst}", n=pieces[move.src][1:], **where)
        taken = pieces[move.dst]
        if move.is_big_ball:  # a big ball never lands on another: it takes a stone
            if taken[0] == "B":
                return phrase("take black stone {k} off {dst} (into the box), then move the big ball from {src} to"
                              " {dst}", k=taken[1:], **where)
            return phrase("take white stone {k} off {dst} (into the box), then move the big ball from {src} to"
                          " {dst}", k=taken[1:], **where)
        n = pieces[move.src][1:]
        if taken == "ball":
            return phrase("take the big ball off {dst} (into the box), then move stone {n} from {src} to {dst}",
                          n=n, **where)
        if taken[0] == "B":
            return phrase("take black stone {k} off {dst} (into the box), then move stone {n} from {src} to {dst}",
                          k=taken[1:], n=n, **where)
        return phrase("take white stone {k} off {dst} (into the box), then move stone {n} from {src} to {dst}",
                      k=taken[1:], n=n, **where)

    # --- notation -----------------------------------------------------------------
    def parse_move(self, text: str) -> BigBallsMove:
        match = _MOVE_TEXT.fullmatch(text)
        written = repr(text.strip())
        if not match:
            raise MoveError(phrase("cannot read {written}: write a stone move as ROLL FROM-TO (4 b2-b3, 6 c3xb4)"
                                   " or a big-ball move as BB FROM-TO (BB b5-b4)", written=written))
        head, src_name, mark, dst_name = match.groups()
        cells = []
        for name in (src_name, dst_name):
            if name not in GRID:
                raise MoveError(phrase("{written}: {reason}", written=written,
                                       reason=phrase("no hollow {hollow} on the board", hollow=name)))
            cells.append(GRID.index(name))
        src, dst = cells
        outcome = self.outcome()
        if outcome is not None:
            raise MoveError(phrase("{written}: {reason}", written=written,
                                   reason=over_words(outcome.result(PLAYERS), outcome.termination.value)))
        if head.lower() == "bb":
            move = self._check_big_ball(src, dst)
        else:
            move = self._check_stone(int(head), src, dst)
        written_capture = mark.lower() == "x"
        if written_capture != move.capture:
            if move.capture:
                raise MoveError(phrase("{written}: {hollow} is occupied, so this captures: write {move}",
                                       written=written, hollow=NAMES[dst], move=move))
            raise MoveError(phrase("{written}: {hollow} is empty, nothing is captured: write {move}",
                                   written=written, hollow=NAMES[dst], move=move))
        return move

    def _check_big_ball(self, src: int, dst: int) -> BigBallsMove:
        board = self._board
        if board[src] != BALL:
            raise MoveError(phrase("no big ball on {hollow}", hollow=NAMES[src]))
        if dst not in BALL_TARGETS[src]:
            raise MoveError(phrase("a big ball rolls one step sw or se; {dst} is not below {src}", dst=NAMES[dst],
                                   src=NAMES[src]))
        if board[dst] == BALL:
            raise MoveError(phrase("{hollow} holds another big ball", hollow=NAMES[dst]))
        return BigBallsMove(None, NAMES[src], NAMES[dst], board[dst] != EMPTY)

    def _check_stone(self, roll: int, src: int, dst: int) -> BigBallsMove:
        if roll not in NUMBERS:
            raise MoveError(phrase("a die shows 1-6, not {roll}", roll=roll))
        player = colour_words(PLAYERS[self._turn])
        if self._stones[self._turn] == 0:
            raise MoveError(phrase("{colour} has no stone left to roll for", colour=player))
        code = self._board[src]
        if not 0 < code < BALL or (code - 1) // 6 != self._turn:
            raise MoveError(phrase("no {colour} stone on {hollow}", colour=player, hollow=NAMES[src]))
        number = (code - 1) % 6 + 1
        allowed = self.movable_stones(roll)
        if number not in allowed:
            names = phrase("{first} or {last}", first=allowed[0], last=allowed[1]) if len(allowed) == 2 else \
                str(allowed[0])
            raise MoveError(phrase("roll {roll} lets {colour} move stone {stones}, not stone {number} on {hollow}",
                                   roll=roll, colour=player, stones=names, number=number, hollow=NAMES[src]))
        if dst not in STONE_TARGETS[src]:
            raise MoveError(phrase("a stone steps one hollow nw, ne, w or e; {dst} is not such a step from {src}",
                                   dst=NAMES[dst], src=NAMES[src]))
        return BigBallsMove(roll, NAMES[src], NAMES[dst], self._board[dst] != EMPTY)

    # --- the end ------------------------------------------------------------------
    def _any_ball_can_move(self) -> bool:
        board = self._board
        return any(board[t] != BALL for ball in self._balls for t in BALL_TARGETS[ball])

    def hands_guide(self) -> list[str]:
        return [
            phrase("Press the die (or move a big ball instead): the stone with the number rolled lights green."),
            phrase("Lift that stone and put it on one of the hollows lit white; that is the move."),
            phrase("To capture, take the stone or big ball off its hollow first (on this page: Put aside, into the box),"
                   " then put your stone there."),
            phrase("A big ball rolls one hollow down, to the left or to the right, without a roll."),
        ]

    def ending_words(self, outcome: Outcome) -> Said:
        if outcome.termination == REACHED_A7:
            return phrase("{player} reached a7", player=player_words(outcome.winner))
        if outcome.termination == BALLS_ONLY:
            return phrase("only big balls are left: a draw")
        return super().ending_words(outcome)

    def rules_outcome(self) -> Outcome | None:
        top = self._board[A7]
        if EMPTY < top < BALL:  # 1. a stone on a7 (only the mover can have put it there)
            return Outcome(REACHED_A7, PLAYERS[(top - 1) // 6])
        if self._stones[0] + self._stones[1] == 0:  # 2. only big balls left
            if self._any_ball_can_move():
                return Outcome(BALLS_ONLY, None)
            return Outcome(Termination.NO_MOVE, PLAYERS[self._turn ^ 1])
        if self._stones[self._turn] == 0 and not self._any_ball_can_move():  # 3. nothing to move
            return Outcome(Termination.NO_MOVE, PLAYERS[self._turn ^ 1])
        return None


    # --- for the computer opponent (the evaluation lives in bigballs_eval) -----------------------
    def evaluate(self, player: str) -> float:
        return _EVALUATE(self, player)

    def absurd(self, option: object) -> bool:
        """A capture of one's own stone for nothing: the move takes a stone of the player who
        makes it, and neither wins at once (a stone onto a7) nor brings the moving stone a row
        nearer to a7. That is a big ball rolled onto one's own stone, or a stone stepping
        sideways (w or e) onto its neighbour: a stone lost, and nothing gained."""
        if not isinstance(option, BigBallsMove) or not option.capture:
            return False
        taken = self._board[CELL[option.dst.lower()]]
        if taken in (EMPTY, BALL) or STONE_OF[taken][0] != self._turn:
            return False
        if option.roll is None:
            return True
        return option.dst.lower() != "a7" and option.dst[1:] == option.src[1:]

    @classmethod
    def drawn_start(cls, rng) -> BigBalls:
        return shuffled(rng)

    def position_key(self) -> int:
        """The Zobrist key (the player to move included): a Big Balls turn starts before its roll,
        so nothing else tells two positions apart."""
        return self._key

    # --- the start, in files and on the command line --------------------------------------
    @classmethod
    def from_options(cls, *, setup: str | None = None, first: str | None = None, **others) -> BigBalls:
        cls.refuse_foreign_options({"setup": setup, "first": first, **others})
        return cls(first=first or "black", **(parse_setup(setup) if setup else {}))

    def start_header(self) -> dict:
        header = {"first": self.first, "setup": {player: self.stones(player) for player in PLAYERS}}
        if sorted(self.balls()) != sorted(DEFAULT_BALLS):
            header["balls"] = self.balls()
        return header

    @classmethod
    def from_header(cls, header: Mapping) -> BigBalls:
        """`setup` ({"black": {hollow: number}, "white": {...}}; a colour left out keeps the
        default arrangement), `first`, optional `balls` (hollows)."""
        cls.refuse_foreign_keys(header)
        setup = header.get("setup", {})
        if not isinstance(setup, Mapping) or set(setup) - set(PLAYERS):
            raise ValueError('"setup" must be {"black": {"a1": 3, ...}, "white": {"e1": 2, ...}}')
        for colour, stones in setup.items():
            if not isinstance(stones, Mapping) or not all(_is_int(n) for n in stones.values()):
                raise ValueError(f'"setup" {colour}: write {{"a1": 3, ...}}, hollows and stone numbers')
        balls = header.get("balls")
        if balls is not None and not (isinstance(balls, list) and all(isinstance(b, str) for b in balls)):
            raise ValueError('"balls" must be a list of hollows, e.g. ["a7", "a6"]')
        first = header.get("first", "black")
        if first not in PLAYERS:
            raise ValueError(f"first player must be black or white, not {brief(first)}")
        return cls(black=setup.get("black"), white=setup.get("white"), balls=balls, first=first)

    def record_header(self) -> list[str]:
        return [*self.setup_lines(), f"first {self.first}"]

    # --- the die ---------------------------------------------------------------------
    def die_pieces(self, roll: int) -> list[int]:
        return self.movable_stones(roll)

    # --- what a view shows ------------------------------------------------------------------
    def pieces(self) -> dict[str, str]:
        found = {cell: "" for cell in NAMES}
        for hollow in self.balls():
            found[hollow] = "ball"
        for player in PLAYERS:
            for hollow, number in self.stones(player).items():
                found[hollow] = f"{player[0].upper()}{number}"
        return found

    def winner_cells(self, winner: str) -> frozenset[str]:
        return frozenset(self.stones(winner))

    def geometry(self) -> dict:
        # hollow "c4": column c, row 4; each row up is shifted half a pitch to the right
        cells = {name: [i + (r - 1) / 2, -(r - 1) * ROOT3_HALF]
                 for name, (i, r) in zip(NAMES, GRID.coords)}
        return {"shape": "triangle", "cells": cells, "outline": [cells[c] for c in ("a1", "g1", "a7")],
                "goal": "a7", "sectors": [], "marbles": {}}

    def rules(self) -> dict:
        return rules_text("bigballs")

    @classmethod
    def example_start(cls) -> BigBalls:
        return cls(**parse_setup(EXAMPLE_SETUP))

    # --- for people ---------------------------------------------------------------
    def diagram(self) -> Said:
        """Rows 7 to 1; B3 is Black's stone 3, W5 White's stone 5, () a big ball."""
        rows = []
        for row in range(7, 0, -1):
            cells = [c for c, (i, r) in enumerate(GRID.coords) if r == row]
            marks = [self._mark(self._board[c]) for c in cells]
            rows.append((f"{row}  " + "  " * (row - 1) + "  ".join(marks)).rstrip())
        rows.append("   " + "  ".join(f"{letter:<2}" for letter in "abcdefg").rstrip())
        rows.append(self.status_line())
        return listed(rows, "\n")

    @staticmethod
    def _mark(code: int) -> str:
        if code == EMPTY:
            return ". "
        if code == BALL:
            return "()"
        return "BW"[(code - 1) // 6] + str((code - 1) % 6 + 1)

    def __repr__(self) -> str:
        return f"BigBalls({' / '.join(self.setup_lines())}, balls {' '.join(self.balls())}, {self.turn} to move)"


def shuffled(rng: random.Random | None = None, first: str = "black") -> BigBalls:
    """A start with each colour's numbers 1-6 shuffled over its start hollows (the stones as
    they fall when players shuffle them; the guided shuffle's draw)."""
    return BigBalls(**shuffled_setup(rng), first=first)


def parse_setup(text: str) -> dict[str, dict[str, int]]:
    """`black=a1:3,b1:6,... white=e1:2,...` -> {"black": {"a1": 3, ...}, ...}.

    A colour left out keeps its default arrangement."""
    setup = {colour: dict(cells) for colour, cells in DEFAULT_SETUP.items()}
    seen = set()
    for group in text.split():
        colour, sep, body = group.partition("=")
        colour = colour.lower()
        if not sep or colour not in PLAYERS:
            raise SetupError(phrase("set-up group {group}: write black=a1:3,b1:6,... white=e1:2,...",
                                    group=repr(group)))
        if colour in seen:
            raise SetupError(phrase("set-up gives {colour} twice", colour=colour_words(colour)))
        seen.add(colour)
        stones = {}
        for item in filter(None, body.split(",")):
            hollow, sep, number = item.partition(":")
            if not sep or not number.strip().isdigit():
                raise SetupError(phrase("set-up item {item}: write HOLLOW:NUMBER, e.g. a1:3", item=repr(item)))
            if hollow.lower() in stones:
                raise SetupError(phrase("hollow {hollow} is given twice for {colour}", hollow=hollow,
                                        colour=colour_words(colour)))
            stones[hollow.lower()] = int(number)
        setup[colour] = stones
    return setup


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)

