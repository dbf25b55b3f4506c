"""Abalone (Michel Lalet and Laurent Lévi, 1987): the rules engine.

Black and White each move one straight line of one to three of their own marbles one hole:
inline, along the line (a longer line may push a shorter opposing one, over the edge if it
stands there), or broadside, sideways into free holes. The first to push six opposing
marbles off the board wins. It is played on the Off Board board's 61 holes (its rim sectors
unused); the start layouts are data (data/abalone.toml).

The position is two bitboards, one per colour, with WIDTH bits per row of holes: one kind
of move ("three marbles pushing two to the east") is found for every marble at once with a
few shifts and masks, and a move is undone by the same exclusive-or that made it.

Notation, as AbaPro writes Abalone records: an inline move is the trailing marble's hole and
the hole it moves to (A1B2; pushes and push-offs alike); a broadside move is the line's two
end holes, the first in board order, and the hole the first one moves to (C3C5D4).
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator, Mapping, Sequence
from importlib import resources
from typing import NamedTuple

from .abalone_eval import evaluation
from ..language.phrases import N_, Phrase, Phrasebook, Said, listed
from .base import (
    Footprint, Game, GameOption, GameOverError, HandStep, MoveError, Outcome, Termination, brief, colour_words,
    in_words, lift, over_words, player_words, put,
)
from .offboard_layout import DIRECTIONS, GRID
from .rules_text import rules_text

PLAYERS = ("black", "white")
LAYOUTS = ("standard", "belgian-daisy", "german-daisy")
MARBLES = 14  # each player's, at the start
WIN = 6  # marbles pushed off to win
# Abalone's own ending (the key is what records and journals have always written)
PUSHED_OFF = Termination("pushed-off", N_("by pushing six marbles off"))
NAMES = GRID.names
ROOT3_HALF = 3 ** 0.5 / 2

# --- the bitboard geometry ----------------------------------------------------------------
# Hole (row r, diagonal d) is bit r * WIDTH + d - 1. Each row's 9 bits are followed by 5
# unused ones, so a walk of up to 5 steps past an edge (three marbles, two pushed, the hole
# behind) lands on no hole of another row; past the bottom row it falls off bit 0 and past
# the top row it reaches bits never set, so the board's edge reads as "no marble there".
WIDTH = 14
POSITION = tuple(r * WIDTH + d - 1 for r, d in GRID.coords)  # cell -> bit position
CELL_AT = {position: cell for cell, position in enumerate(POSITION)}
BIT = tuple(1 << p for p in POSITION)  # cell -> its bit
HOLES = sum(BIT)
SHIFT = tuple(dr * WIDTH + dd for _, (dr, dd) in DIRECTIONS)  # direction -> bit step
OPPOSITE = tuple(SHIFT.index(-s) for s in SHIFT)
AXES = tuple(d for d, s in enumerate(SHIFT) if s > 0)  # one direction of each of the 3 lines (NE, E, NW)
_EVALUATE = evaluation(GRID, BIT, SHIFT, AXES)  # the computer opponent's judgement
SIDES = tuple(tuple(d for d in range(6) if d not in (a, OPPOSITE[a])) for a in AXES)  # broadside directions

phrase = Phrasebook("play")
phrase_n = phrase.n


def _ahead(bits: int, shift: int) -> int:
    """The bits m such that m + shift is set in `bits` (the hole `shift` ahead of m)."""
    return bits >> shift if shift > 0 else bits << -shift


def _positions(bits: int) -> Iterator[int]:
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def _holes(bits: int) -> list[str]:
    """The holes of `bits`, in board order."""
    return [NAMES[CELL_AT[p]] for p in sorted(_positions(bits))]


class AbaloneMove(NamedTuple):
    """One line of own marbles moved one hole; str() is the notation."""

    marbles: tuple[str, ...]  # inline: from the trailing marble to the lead; broadside: in board order
    direction: str  # NE, E, SE, SW, W or NW
    broadside: bool = False
    pushed: int = 0  # opposing marbles pushed (inline only)
    off: bool = False  # the farthest of them left the board

    @property
    def to(self) -> str:
        """The hole the first of `marbles` moves to."""
        return NAMES[GRID.step[GRID.direction(self.direction)][GRID.index(self.marbles[0])]]

    def __str__(self) -> str:
        if self.broadside:
            return f"{self.marbles[0]}{self.marbles[-1]}{self.to}"
        return f"{self.marbles[0]}{self.to}"

    def __repr__(self) -> str:
        return f"AbaloneMove({str(self)!r})"


# --- every move the board allows, made once ------------------------------------------------
# Inline kinds: (own marbles, opposing marbles pushed).
KINDS = ((1, 0), (2, 0), (3, 0), (2, 1), (3, 1), (3, 2))
SLOTS = 9 * WIDTH


def _inline_tables() -> tuple[tuple[tuple[AbaloneMove | None, ...], ...], ...]:
    """[direction][kind][tail's bit position] -> the move, where the board has room for it."""
    tables = []
    for d, direction in enumerate(GRID.directions):
        per_kind = []
        for own, pushed in KINDS:
            slots: list[AbaloneMove | None] = [None] * SLOTS
            for tail in range(len(GRID)):
                ray = GRID.ray[d][tail]
                if len(ray) < own - 1 + pushed + (0 if pushed else 1):
                    continue  # the line or the pushed marbles would stand off the board
                line = (tail, *ray[:own - 1])
                off = bool(pushed) and len(ray) == own - 1 + pushed
                slots[POSITION[tail]] = AbaloneMove(tuple(NAMES[c] for c in line), direction, False, pushed, off)
            per_kind.append(tuple(slots))
        tables.append(tuple(per_kind))
    return tuple(tables)


def _broadside_tables() -> tuple[tuple[tuple[tuple[AbaloneMove | None, ...], ...], ...], ...]:
    """[axis][side][length - 2][first marble's bit position] -> the move, where there is room."""
    tables = []
    for a, sides in zip(AXES, SIDES):
        per_side = []
        for d in sides:
            per_length = []
            for length in (2, 3):
                slots: list[AbaloneMove | None] = [None] * SLOTS
                for first in range(len(GRID)):
                    line = (first, *GRID.ray[a][first][:length - 1])
                    if len(line) < length or any(GRID.step[d][c] < 0 for c in line):
                        continue
                    slots[POSITION[first]] = AbaloneMove(tuple(NAMES[c] for c in line), GRID.directions[d], True)
                per_length.append(tuple(slots))
            per_side.append(tuple(per_length))
        tables.append(tuple(per_side))
    return tuple(tables)


def _effect(move: AbaloneMove) -> tuple[int, int, int]:
    """(own bits flipped, opposing bits flipped, marbles pushed off) by `move`."""
    d = GRID.direction(move.direction)
    cells = [GRID.index(name) for name in move.marbles]
    if move.broadside:
        own = 0
        for c in cells:
            own ^= BIT[c] | BIT[GRID.step[d][c]]
        return own, 0, 0
    tail = cells[0]
    ray = GRID.ray[d][tail]
    front = ray[len(cells) - 1]  # the hole the lead marble moves to
    opposing = 0
    if move.pushed:
        opposing = BIT[front]
        if not move.off:
            opposing |= BIT[ray[len(cells) - 1 + move.pushed]]
    return BIT[tail] | BIT[front], opposing, int(move.off)


# Zobrist keys: a random 64-bit number per (colour, hole), per count of marbles each player
# pushed off, and for White to move; a position's key is the exclusive-or of its parts'.
# KEY_CHANGE[move][mover]: what `move` by that colour flips in the key (the turn included).
_ZOBRIST_RNG = random.Random("abalone zobrist")
ZOBRIST = tuple({position: _ZOBRIST_RNG.getrandbits(64) for position in POSITION} for _ in PLAYERS)
ZOBRIST_OFF = tuple(tuple(_ZOBRIST_RNG.getrandbits(64) for _ in range(MARBLES + 2)) for _ in PLAYERS)
ZOBRIST_WHITE = _ZOBRIST_RNG.getrandbits(64)


def _zobrist_of(bits: int, colour: int) -> int:
    key = 0
    for position in _positions(bits):
        key ^= ZOBRIST[colour][position]
    return key


# Built by _build_tables() when the first game is made (see there).
INLINE = BROADSIDE = RANKED_INLINE = RANKED_BROADSIDE = None
EFFECT = KEY_CHANGE = MOVE_DATA = RANK = None


def _build_tables() -> None:
    """Every move the board allows, made once, with what push, pop and legal_moves read of it:
    built when the first game is made, not on import (the command line, the games' names and
    their rules need none of it). INLINE, BROADSIDE: the moves by kind and place; EFFECT[move]:
    what it flips; KEY_CHANGE[move][mover]: what it flips in the Zobrist key (the turn
    included); MOVE_DATA: the two in one look-up; RANK and RANKED_*: legal_moves' order."""
    global INLINE, BROADSIDE, EFFECT, KEY_CHANGE, MOVE_DATA, RANK, RANKED_INLINE, RANKED_BROADSIDE
    if MOVE_DATA is not None:
        return
    inline, broadside = _inline_tables(), _broadside_tables()
    effect = {move: _effect(move)
              for table in (*(t for per_kind in inline for t in per_kind),
                            *(t for per_side in broadside for per_length in per_side for t in per_length))
              for move in table if move is not None}
    key_change = {move: tuple(_zobrist_of(own, mover) ^ _zobrist_of(opposing, mover ^ 1) ^ ZOBRIST_WHITE
                              for mover in (0, 1))
                  for move, (own, opposing, _) in effect.items()}
    # legal_moves lists moves by their first marble in board order, inline before broadside, then
    # by direction (NE, E, SE, SW, W, NW), as people look for them
    rank = {move: n for n, move in enumerate(sorted(
        effect, key=lambda m: (GRID.index(m.marbles[0]), m.broadside, GRID.direction(m.direction), len(m.marbles))))}
    # INLINE and BROADSIDE with (rank, move) in each slot: legal_moves sorts these pairs by rank
    RANKED_INLINE = tuple(tuple(tuple(None if m is None else (rank[m], m) for m in table) for table in per_kind)
                          for per_kind in inline)
    RANKED_BROADSIDE = tuple(tuple(tuple(tuple(None if m is None else (rank[m], m) for m in table)
                                         for table in per_length) for per_length in per_side)
                             for per_side in broadside)
    INLINE, BROADSIDE, EFFECT, KEY_CHANGE, RANK = inline, broadside, effect, key_change, rank
    MOVE_DATA = {move: (*effect[move], key_change[move]) for move in effect}  # last: the tables are ready


# --- the start layouts ---------------------------------------------------------------------
@functools.cache
def start_layouts() -> dict[str, dict[str, tuple[str, ...]]]:
    """layout name -> {"black": holes, "white": holes}, from data/abalone.toml."""
    import tomllib  # here: importing the games reads no file
    text = resources.files(__package__).joinpath("data/abalone.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    layouts = {}
    for name in LAYOUTS:
        table = data.get(name)
        if not isinstance(table, dict) or set(table) != set(PLAYERS):
            raise ValueError(f"data/abalone.toml: [{name}] needs black = [...] and white = [...]")
        holes = [hole for player in PLAYERS for hole in table[player]]
        if (any(len(table[p]) != MARBLES for p in PLAYERS) or len(set(holes)) != len(holes)
                or not all(h in GRID for h in holes)):
            raise ValueError(f"data/abalone.toml: [{name}] needs {MARBLES} marbles each on distinct holes")
        layouts[name] = {p: tuple(table[p]) for p in PLAYERS}
    return layouts


class PositionError(ValueError):
    """A position that cannot stand on the board; the message names the problem."""


_MOVE_TEXT = re.compile(r"\s*([A-Z]\d+)\s*([A-Z]\d+)\s*(?:([A-Z]\d+)\s*)?", re.IGNORECASE)


class Abalone(Game):
    name = "abalone"
    title = "Abalone"
    players = PLAYERS
    board = "offboard"
    setup_modes = ("given",)
    options = (GameOption("layout", N_("the start layout: standard, belgian-daisy or german-daisy"
                                       " (default standard)"), choices=LAYOUTS,
                          label=N_("start layout"), choice_labels=(N_("standard"), N_("Belgian daisy"), N_("German daisy")),
                          default="standard"),)
    header_keys = ("layout",)
    endings = (PUSHED_OFF,)

    def __init__(
        self,
        layout: str | None = "standard",
        *,
        black: Sequence[str] | None = None,
        white: Sequence[str] | None = None,
        turn: str = "black",
        pushed_off: Mapping[str, int] | None = None,
    ) -> None:
        """A start layout, or a position given by each colour's holes (then layout is None),
        the player to move and the marbles each player has pushed off ({"black": 2})."""
        _build_tables()
        super().__init__()
        if black is not None or white is not None:
            layout = None
            given = {"black": black or (), "white": white or ()}
        elif layout in LAYOUTS:
            given = start_layouts()[layout]
        else:
            raise PositionError(f"unknown layout {layout!r}: choose {', '.join(LAYOUTS)}")
        self.layout = layout
        if turn not in PLAYERS:
            raise PositionError(f"the player to move is black or white, not {turn!r}")
        self._turn = PLAYERS.index(turn)
        self._bits = [0, 0]  # each colour's marbles
        for index, player in enumerate(PLAYERS):
            for hole in given[player]:
                if hole not in GRID:
                    raise PositionError(f"{player} marble on {hole!r}: no such hole")
                bit = BIT[GRID.index(hole)]
                if (self._bits[0] | self._bits[1]) & bit:
                    raise PositionError(f"hole {hole.upper()} is given twice")
                self._bits[index] |= bit
        self._off = [0, 0]  # marbles each player has pushed off
        for player, count in (pushed_off or {}).items():
            if player not in PLAYERS or isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise PositionError(f"pushed off {player}={count!r}: give black or white and a count")
            self._off[PLAYERS.index(player)] = count
        for index, player in enumerate(PLAYERS):
            if self._bits[index].bit_count() + self._off[index ^ 1] > MARBLES:
                raise PositionError(f"{player} has only {MARBLES} marbles, on the board and pushed off")
        self._key = self._zobrist()

    def __setstate__(self, state: dict) -> None:
        _build_tables()  # unpickled where no game was made yet (the computer's worker process)
        self.__dict__.update(state)

    def _zobrist(self) -> int:
        """The position's Zobrist key computed from scratch (push and pop keep it up to date)."""
        key = ZOBRIST_WHITE if self._turn else 0
        for colour in (0, 1):
            key ^= _zobrist_of(self._bits[colour], colour) ^ ZOBRIST_OFF[colour][self._off[colour]]
        return key

    # --- the position -------------------------------------------------------------
    @property
    def turn(self) -> str:
        return PLAYERS[self._turn]

    @property
    def cells(self) -> tuple[str, ...]:
        return NAMES

    def occupied(self) -> frozenset[str]:
        return frozenset(_holes(self._bits[0] | self._bits[1]))

    def marbles(self, player: str) -> list[str]:
        """The holes of `player`'s marbles, in board order."""
        return _holes(self._bits[PLAYERS.index(player)])

    def pushed_off(self, player: str) -> int:
        """How many opposing marbles `player` has pushed off."""
        return self._off[PLAYERS.index(player)]

    def piece_words(self, code: str) -> Said:
        if code == "B":
            return phrase("the black marble")
        if code == "W":
            return phrase("the white marble")
        return super().piece_words(code)

    def copy(self) -> Abalone:
        twin = Abalone.__new__(Abalone)
        twin.__dict__.update(self.__dict__)
        twin.move_stack = self.move_stack[:]
        twin._bits = self._bits[:]
        twin._off = self._off[:]
        return twin

    # --- moves --------------------------------------------------------------------
    def _decided(self) -> bool:
        """Over without looking at the moves: declared, or six pushed off."""
        return self._declared is not None or self._off[0] >= WIN or self._off[1] >= WIN

    def legal_moves(self) -> list[AbaloneMove]:
        """By first marble (board order), inline before broadside, then by direction."""
        if self._decided():
            return []
        own, opp = self._bits[self._turn], self._bits[self._turn ^ 1]
        occupied = own | opp
        empty = HOLES & ~occupied
        ranked: list[tuple[int, AbaloneMove]] = []
        add = ranked.append
        free_side = []  # [direction]: marbles with a free hole that way
        for d, s in enumerate(SHIFT):
            free = _ahead(empty, s)
            free_side.append(free)
            two = own & _ahead(own, s)
            three = two & _ahead(own, 2 * s)
            opposing2 = two & _ahead(opp, 2 * s)
            opposing3 = three & _ahead(opp, 3 * s)
            masks = (
                own & free,
                two & _ahead(empty, 2 * s),
                three & _ahead(empty, 3 * s),
                opposing2 & ~_ahead(occupied, 3 * s),
                opposing3 & ~_ahead(occupied, 4 * s),
                opposing3 & _ahead(opp, 4 * s) & ~_ahead(occupied, 5 * s),
            )
            for table, mask in zip(RANKED_INLINE[d], masks):
                while mask:  # each set bit: a line's tail
                    low = mask & -mask
                    add(table[low.bit_length() - 1])
                    mask ^= low
        for a_index, (a, sides) in enumerate(zip(AXES, SIDES)):
            s = SHIFT[a]
            pairs = own & (own >> s)
            triples = pairs & (own >> 2 * s)
            for side_index, d in enumerate(sides):
                free = free_side[d]
                two = pairs & free & (free >> s)
                tables = RANKED_BROADSIDE[a_index][side_index]
                for table, mask in ((tables[0], two), (tables[1], two & triples & (free >> 2 * s))):
                    while mask:
                        low = mask & -mask
                        add(table[low.bit_length() - 1])
                        mask ^= low
        ranked.sort()
        return [move for _, move in ranked]

    def count_legal_moves(self) -> int:
        # The masks of legal_moves, counted rather than turned into moves: perft's last ply.
        if self._decided():
            return 0
        own, opp = self._bits[self._turn], self._bits[self._turn ^ 1]
        occupied = own | opp
        empty = HOLES & ~occupied
        count = 0
        free_side = []
        for s in SHIFT:
            if s > 0:
                free = empty >> s
                two = own & (own >> s)
                three = two & (own >> 2 * s)
                count += ((own & free).bit_count() + (two & (empty >> 2 * s)).bit_count()
                          + (three & (empty >> 3 * s)).bit_count()
                          + (two & (opp >> 2 * s) & ~(occupied >> 3 * s)).bit_count())
                opposing3 = three & (opp >> 3 * s)
                if opposing3:
                    count += ((opposing3 & ~(occupied >> 4 * s)).bit_count()
                              + (opposing3 & (opp >> 4 * s) & ~(occupied >> 5 * s)).bit_count())
            else:
                s = -s
                free = empty << s
                two = own & (own << s)
                three = two & (own << 2 * s)
                count += ((own & free).bit_count() + (two & (empty << 2 * s)).bit_count()
                          + (three & (empty << 3 * s)).bit_count()
                          + (two & (opp << 2 * s) & ~(occupied << 3 * s)).bit_count())
                opposing3 = three & (opp << 3 * s)
                if opposing3:
                    count += ((opposing3 & ~(occupied << 4 * s)).bit_count()
                              + (opposing3 & (opp << 4 * s) & ~(occupied << 5 * s)).bit_count())
            free_side.append(free)
        for a, sides in zip(AXES, SIDES):
            s = SHIFT[a]
            pairs = own & (own >> s)
            if not pairs:
                continue
            triples = pairs & (own >> 2 * s)
            for d in sides:
                free = free_side[d]
                two = pairs & free & (free >> s)
                if two:
                    count += two.bit_count() + (two & triples & (free >> 2 * s)).bit_count()
        return count

    def _can_move(self) -> bool:
        own = self._bits[self._turn]
        empty = HOLES & ~(own | self._bits[self._turn ^ 1])
        # Without a single marble's step no line can move but by a push (a broadside or an
        # inline move into a free hole would let one marble step there alone).
        return any(own & _ahead(empty, s) for s in SHIFT) or self.count_legal_moves() > 0

    def push(self, move: AbaloneMove) -> None:
        own, opposing, off, key_change = MOVE_DATA[move]
        turn = self._turn
        self._bits[turn] ^= own
        self._bits[turn ^ 1] ^= opposing
        key = self._key ^ key_change[turn]
        if off:
            count = self._off[turn]
            key ^= ZOBRIST_OFF[turn][count] ^ ZOBRIST_OFF[turn][count + 1]
            self._off[turn] = count + 1
        self._key = key
        self._turn = turn ^ 1
        self.move_stack.append(move)

    def pop(self) -> AbaloneMove:
        move = self.move_stack.pop()
        own, opposing, off, key_change = MOVE_DATA[move]
        self._turn = turn = self._turn ^ 1
        self._declared = None
        self._bits[turn] ^= own
        self._bits[turn ^ 1] ^= opposing
        key = self._key ^ key_change[turn]
        if off:
            count = self._off[turn]
            key ^= ZOBRIST_OFF[turn][count] ^ ZOBRIST_OFF[turn][count - 1]
            self._off[turn] = count - 1
        self._key = key
        return move

    def near(self, cell: str) -> frozenset[str]:
        return GRID.neighbour_names(cell)

    def footprint(self, move: AbaloneMove) -> Footprint:
        if move.broadside:
            return Footprint(empties=frozenset(move.marbles),
                             fills=frozenset(NAMES[GRID.step[GRID.direction(move.direction)][GRID.index(m)]]
                                             for m in move.marbles))
        # The tail's hole empties and the hole ahead of the front-most marble fills; every hole
        # between stays occupied while the line slides through it. A marble pushed off leaves
        # its hole to the marble behind it: taken while its hole stays occupied.
        ray = GRID.ray[GRID.direction(move.direction)][GRID.index(move.marbles[0])]
        front = len(move.marbles) - 1 + move.pushed  # index in ray of the hole the front-most marble reaches
        if move.off:
            return Footprint(empties=frozenset(move.marbles[:1]), fills=frozenset(),
                             captures=frozenset({NAMES[ray[front - 1]]}),
                             passes=frozenset(NAMES[c] for c in ray[:front - 1]))
        return Footprint(empties=frozenset(move.marbles[:1]), fills=frozenset({NAMES[ray[front]]}),
                         passes=frozenset(NAMES[c] for c in ray[:front]))

    def spoken(self, move: object) -> Said:
        found = _MOVE_TEXT.fullmatch(str(move))
        if found is None:
            return str(move)
        first, second, third = found.groups()
        if third is None:  # an inline move: the trailing marble's step
            return phrase("{first} to {to}", first=first, to=second)
        # a broadside move: the line's ends, and the first one's step
        return phrase("{first} to {last} side by side, {first} to {to}", first=first, last=second, to=third)

    def hand_steps(self, move: AbaloneMove) -> tuple[HandStep, ...]:
        """Broadside: each marble one hole sideways, one after the other. Inline, a line of
        one's own: its back marble into the free hole in front of it (the board reads the whole
        line moving). A push must also leave the pushed marbles' colour where the rules put it:
        the back marble is kept in the hand, the opposing marble next to the line goes into the
        free hole beyond the pushed marbles, and the back marble into the hole it left. Pushed
        off the board: the opposing marble on the edge comes off first (the board must see its
        hole empty); when two are pushed, the one next to the line then takes its hole."""
        d = GRID.direction(move.direction)
        if move.broadside:
            steps: tuple[HandStep, ...] = ()
            for marble in move.marbles:
                steps += lift(marble), put(NAMES[GRID.step[d][GRID.index(marble)]], marble)
            return steps
        ray = GRID.ray[d][GRID.index(move.marbles[0])]
        own, back = len(move.marbles), move.marbles[0]
        front = own - 1 + move.pushed  # the ray's index of the hole the front-most marble reaches
        if not move.pushed:
            return lift(back), put(NAMES[ray[front]], back)
        nearest = NAMES[ray[own - 1]]
        if not move.off:
            pushed = (lift(nearest), put(NAMES[ray[front]], nearest))
        else:
            edge = NAMES[ray[front - 1]]
            pushed = (lift(edge), put(None, edge))
            if edge != nearest:
                pushed += (lift(nearest), put(edge, nearest))
        return lift(back), *pushed, put(nearest, back)

    def move_words(self, move: AbaloneMove) -> Said:
        """The notation names the trailing marble's step; the hands make it as hand_steps says:
        "move the line I6–G6 one hole towards F6: lift I6, put it on F6"."""
        d = GRID.direction(move.direction)
        if move.broadside:
            steps = [phrase("{hole} to {to}", hole=m, to=NAMES[GRID.step[d][GRID.index(m)]]) for m in move.marbles]
            return phrase("move {marbles} side by side one hole each: {steps}",
                          marbles=in_words(list(move.marbles)), steps=in_words(steps))
        ray = GRID.ray[d][GRID.index(move.marbles[0])]
        own = len(move.marbles)
        ahead = NAMES[ray[own - 1]]
        where = {"first": move.marbles[0], "last": move.marbles[-1], "ahead": ahead}
        if not move.pushed:
            if own == 1:
                return phrase("move {first} one hole towards {ahead}: lift {first}, put it on {ahead}", **where)
            return phrase("move the line {first}–{last} one hole towards {ahead}: lift {first}, put it on {ahead}",
                          **where)
        # a push: always a line of two or three (a single marble never pushes)
        pushed = [NAMES[c] for c in ray[own - 1:own - 1 + move.pushed]]
        white = self.turn == "black"  # the pushed marbles are the opponent's
        if len(pushed) == 1:
            marbles = (phrase("the white marble on {hole}") if white else phrase("the black marble on {hole}")).format(
                hole=pushed[0])
        else:
            marbles = (phrase("the white marbles on {holes}") if white else phrase("the black marbles on {holes}")).format(
                holes=in_words(pushed))
        where.update(marbles=marbles, off=pushed[-1])
        if not move.off:
            where["target"] = NAMES[ray[own - 1 + move.pushed]]
            text = (phrase("move the line {first}–{last} one hole towards {ahead}, pushing {marbles} one hole on: lift"
                           " {first} and keep it in your hand, move the white marble on {ahead} to {target}, then put"
                           " your marble on {ahead}") if white else
                    phrase("move the line {first}–{last} one hole towards {ahead}, pushing {marbles} one hole on: lift"
                           " {first} and keep it in your hand, move the black marble on {ahead} to {target}, then put"
                           " your marble on {ahead}"))
        elif len(pushed) == 1:
            text = (phrase("move the line {first}–{last} one hole towards {ahead}, pushing {marbles} off the board: lift"
                           " {first} and keep it in your hand, take the white marble on {ahead} off the board, then put"
                           " your marble on {ahead}") if white else
                    phrase("move the line {first}–{last} one hole towards {ahead}, pushing {marbles} off the board: lift"
                           " {first} and keep it in your hand, take the black marble on {ahead} off the board, then put"
                           " your marble on {ahead}"))
        else:
            text = (phrase("move the line {first}–{last} one hole towards {ahead}, pushing {marbles}, the one on {off}"
                           " off the board: lift {first} and keep it in your hand, take the white marble on {off} off"
                           " the board, move the white marble on {ahead} to {off}, then put your marble on {ahead}")
                    if white else
                    phrase("move the line {first}–{last} one hole towards {ahead}, pushing {marbles}, the one on {off}"
                           " off the board: lift {first} and keep it in your hand, take the black marble on {off} off"
                           " the board, move the black marble on {ahead} to {off}, then put your marble on {ahead}"))
        return text.format(**where)

    # --- notation -----------------------------------------------------------------
    def parse_move(self, text: str) -> AbaloneMove:
        written = text.strip() if isinstance(text, str) else repr(text)
        outcome = self.outcome()
        if outcome is not None:
            raise GameOverError(phrase("{written}: {reason}", written=repr(written),
                                       reason=over_words(outcome.result(PLAYERS), outcome.termination.value)))
        match = _MOVE_TEXT.fullmatch(text) if isinstance(text, str) else None
        if not match:
            raise MoveError(phrase("cannot read {written}: write an inline move as the trailing marble's hole and"
                                   " the hole it moves to (A1B2), a broadside move as the line's two end holes and"
                                   " the hole the first one moves to (C3C5D4)", written=repr(written)))
        holes = [self._hole(name, written) for name in match.groups() if name is not None]
        reason = self._inline(*holes) if len(holes) == 2 else self._broadside(*holes)
        if isinstance(reason, Phrase):
            raise MoveError(phrase("{written}: {reason}", written=repr(written), reason=reason))
        return reason

    def _hole(self, name: str, written: str) -> int:
        if name not in GRID:
            raise MoveError(phrase("{written}: {reason}", written=repr(written),
                                   reason=phrase("no hole {hole} on the board", hole=name.upper())))
        return GRID.index(name)

    def _colour(self, cell: int) -> int:
        """0 for a free hole, 1 for the mover's marble, 2 for an opposing one."""
        bit = BIT[cell]
        return 1 if self._bits[self._turn] & bit else 2 if self._bits[self._turn ^ 1] & bit else 0

    def _inline(self, tail: int, to: int) -> AbaloneMove | Phrase:
        """The inline move of the line whose trailing marble moves from `tail` to `to`, or why not."""
        player = colour_words(PLAYERS[self._turn])
        d = GRID.direction_between(tail, to)
        if d is None:
            return phrase("{to} is not next to {hole}", to=NAMES[to], hole=NAMES[tail])
        if self._colour(tail) != 1:
            return phrase("no {colour} marble on {hole}", colour=player, hole=NAMES[tail])
        ray = GRID.ray[d][tail]
        own = 1
        while own - 1 < len(ray) and self._colour(ray[own - 1]) == 1:
            own += 1
        if own > 3:
            return phrase("the line from {hole} has {n} {colour} marbles: at most three move together",
                          hole=NAMES[tail], n=own, colour=player)
        if own - 1 == len(ray):
            return phrase("{colour} would push their own marble off the board at {hole}", colour=player,
                          hole=NAMES[ray[-1] if ray else tail])
        pushed = 0
        while own - 1 + pushed < len(ray) and self._colour(ray[own - 1 + pushed]) == 2:
            pushed += 1
        if pushed >= own:
            return phrase_n("{n} marble cannot push {pushed}: a push needs more marbles than it pushes",
                            "{n} marbles cannot push {pushed}: a push needs more marbles than it pushes", own,
                            n=own, pushed=pushed)
        behind = own - 1 + pushed
        if pushed and behind < len(ray) and self._colour(ray[behind]) == 1:
            return phrase("{colour}'s own marble on {hole} blocks the push", colour=player, hole=NAMES[ray[behind]])
        move = INLINE[d][KINDS.index((own, pushed))][POSITION[tail]]
        assert move is not None and move in EFFECT
        return move

    def _broadside(self, first: int, last: int, to: int) -> AbaloneMove | Phrase:
        """The broadside move of the line from `first` to `last` whose first marble moves to `to`."""
        player = colour_words(PLAYERS[self._turn])
        if first == last:
            return phrase("{hole} is given twice: a broadside move names the line's two end holes", hole=NAMES[first])
        axis = next(((a, GRID.ray[a][first].index(last) + 2) for a in range(6) if last in GRID.ray[a][first]),
                    None)
        if axis is None:
            return phrase("{first} and {last} are not on one line", first=NAMES[first], last=NAMES[last])
        a, length = axis
        if length > 3:
            return phrase("{first} to {last} is a line of {n}: at most three marbles move together",
                          first=NAMES[first], last=NAMES[last], n=length)
        line = [first, *GRID.ray[a][first][:length - 1]]
        for cell in line:
            colour = self._colour(cell)
            if colour == 0:
                return phrase("the marbles are not one line of {colour}'s: {hole} is a free hole", colour=player,
                              hole=NAMES[cell])
            if colour != 1:
                return phrase("the marbles are not one line of {colour}'s: {hole} holds a {other} marble",
                              colour=player, hole=NAMES[cell], other=colour_words(PLAYERS[self._turn ^ 1]))
        d = GRID.direction_between(first, to)
        if d is None:
            return phrase("{to} is not next to {hole}", to=NAMES[to], hole=NAMES[first])
        if d in (a, OPPOSITE[a]):
            return phrase("{to} lies along the line: that is an inline move, written by its trailing marble and the hole"
                          " it moves to", to=NAMES[to])
        for cell in line:
            target = GRID.step[d][cell]
            if target < 0:
                return phrase("{hole} would leave the board: {colour} never moves their own marble off",
                              hole=NAMES[cell], colour=player)
            if self._colour(target):
                return phrase("{hole} is not free: a broadside move goes into free holes only, it never pushes",
                              hole=NAMES[target])
        lowest = min(line)  # the line's first hole in board order
        if first != lowest:
            move = self._broadside(lowest, max(line), GRID.step[d][lowest])
            return phrase("write the line's first hole in board order first: {move}", move=move)
        axis_index = AXES.index(a if a in AXES else OPPOSITE[a])
        move = BROADSIDE[axis_index][SIDES[axis_index].index(d)][length - 2][POSITION[first]]
        assert move is not None and move in EFFECT
        return move

    # --- the end ------------------------------------------------------------------
    def hands_guide(self) -> list[str]:
        return [
            phrase("A line of one to three marbles moves one hole along its own direction: lift the marble at the"
                   " back of the line and put it in the free hole in front of it. The board reads that as the whole"
                   " line moving (the move is written by the back marble's step: I6H6 moves the line I6–G6 towards F6)."),
            phrase("Pushing: the board cannot tell the colours apart, so the pushed marbles must move too: lift"
                   " the marble at the back of your line and keep it in your hand, move the opposing marble next to"
                   " your line to the free hole beyond the marbles you push, then put your marble in the hole it"
                   " left."),
            phrase("Pushing off the board: the same, but the opposing marble next to your line comes off the board"
                   " instead; when you push two, take the one at the edge off first and put the one next to your"
                   " line in its hole."),
            phrase("The lights show a push the same way, one marble at a time: the marble to lift blinks"
                   " vermillion, where it goes shines teal."),
            phrase("Sideways (broadside): move each marble of the line one hole, one after the other."),
            phrase("The letters and numbers on the rim name the rows and the lines: C4 is row C, line 4."),
        ]

    def light_meanings(self) -> dict[str, str]:
        return {"empty": phrase("A marble stands here that should not; or, playing the computer (or after a hint),"
                                " the marble to lift now: a move is shown one marble at a time. A push starts with the"
                                " marble at the back of the pushing line: keep it in your hand until teal shows where"
                                " it goes."),
                "dest": phrase("The computer's move or a hint: where the marble just lifted goes, or, with nothing"
                               " blinking, the marble in your hand. An opposing marble lifted with nothing teal comes"
                               " off the board."),
                "to": phrase("You hold a marble that may move: it may go here.")}

    def light_actions(self) -> dict[str, str]:
        return {"dest": phrase("Put the marble you lifted here.")}

    def ending_words(self, outcome: Outcome) -> Said:
        if outcome.termination == PUSHED_OFF:
            return phrase("{player} pushed {n} marbles off the board", player=player_words(outcome.winner), n=WIN)
        return super().ending_words(outcome)

    def rules_outcome(self) -> Outcome | None:
        for p in (self._turn ^ 1, self._turn):  # only the player who just moved can have pushed one off
            if self._off[p] >= WIN:
                return Outcome(PUSHED_OFF, PLAYERS[p])
        if not self._can_move():
            return Outcome(Termination.NO_MOVE, PLAYERS[self._turn ^ 1])
        return None

    # --- for the computer opponent (the evaluation lives in abalone_eval) -----------------------
    def evaluate(self, player: str) -> float:
        return _EVALUATE(self, player)

    def position_key(self) -> int:
        """The Zobrist key: each colour's marbles, the marbles each pushed off, the player to move."""
        return self._key

    # --- the start, in files and on the command line --------------------------------------
    @classmethod
    def from_options(cls, *, layout: str | None = None, **others) -> Abalone:
        cls.refuse_foreign_options({"layout": layout, **others})
        return cls(layout or "standard")

    def start_header(self) -> dict:
        if self.layout is None:
            raise ValueError("an Abalone game can only be recorded from a start layout")
        return {"layout": self.layout}

    @classmethod
    def from_header(cls, header: Mapping) -> Abalone:
        """Optional `layout`: standard (the default), belgian-daisy or german-daisy."""
        cls.refuse_foreign_keys(header)
        layout = header.get("layout", "standard")
        if layout not in LAYOUTS:
            raise ValueError(f'"layout" must be one of {", ".join(LAYOUTS)}, not {brief(layout)}')
        return cls(layout)

    def record_header(self) -> list[str]:
        return [f"layout {self.start_header()['layout']}"]

    def next_start(self) -> Abalone | None:
        return None if self.layout is None else Abalone(self.layout)

    # --- what a view shows ------------------------------------------------------------------
    def pieces(self) -> dict[str, str]:
        black, white = self._bits
        return {name: "B" if black & bit else "W" if white & bit else "" for name, bit in zip(NAMES, BIT)}

    def position_data(self) -> dict:
        return {"score": {player: self._off[i] for i, player in enumerate(PLAYERS)}, "waiting": None}

    def result_details(self) -> str:
        return f"{self._off[0]}-{self._off[1]}"

    def winner_cells(self, winner: str) -> frozenset[str]:
        return frozenset(self.marbles(winner))

    def geometry(self) -> dict:
        # hole "E5": row E (row index 4 from A at the bottom), diagonal 5
        cells = {name: [round(d - r / 2, 4), round(-r * ROOT3_HALF, 4)] for name, (r, d) in zip(NAMES, GRID.coords)}
        return {"shape": "hexagon", "cells": cells,
                "outline": [cells[c] for c in ("A1", "A5", "E9", "I9", "I5", "E1")],
                "goal": None, "sectors": [], "marbles": {"B": "black", "W": "white"}}

    def rules(self) -> dict:
        return rules_text("abalone")

    # --- for people ---------------------------------------------------------------
    def diagram(self) -> Said:
        """Rows I to A; B a black marble, W a white one, . a free hole; then the score."""
        pieces = self.pieces()
        lines = []
        for r in range(8, -1, -1):
            row = [name for name, (row_index, _) in zip(NAMES, GRID.coords) if row_index == r]
            marks = " " * abs(4 - r) + " ".join(pieces[name] or "." for name in row)
            lines.append(f"{row[0][0]}  {marks:<17}  {row[0]}-{row[-1]}")
        lines.append(phrase("pushed off: by black {black}, by white {white}", black=self._off[0], white=self._off[1]))
        lines.append(self.status_line())
        return listed(lines, "\n")

    def __repr__(self) -> str:
        return (f"Abalone(black {' '.join(self.marbles('black'))} / white {' '.join(self.marbles('white'))},"
                f" pushed off {self._off[0]}-{self._off[1]}, {self.turn} to move)")


