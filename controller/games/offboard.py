"""Off Board (an Abalone descendant): the rules engine.

Red and Yellow move lines of their own balls one step along the line; a longer line may
push a shorter opposing line, and a ball pushed over the rim lands in a target space
(sector) worth 1-3 points to the pusher, or, if that space is taken, waits for its owner,
who then either puts it back on any free hole (the whole move) or drops it from the game
and moves normally. Six points win. The start position and the sectors come from a
board definition (offboard_layout).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ..language.phrases import N_, Phrase, Phrasebook, Said, listed
from .base import (
    Footprint, Game, GameOption, HandStep, MoveError, Outcome, Termination, colour_words, lift, over_words,
    player_words, put,
)
from .offboard_layout import (
    DEFAULT_SOURCE, GRID, PLAYERS, Layout, LayoutError, layout_to_data, load_layout, parse_layout, sector_points,
)
from .offboard_eval import evaluation
from .rules_text import rules_text

WIN_POINTS = 6
# Off Board's own endings (the keys are what records and journals have always written)
POINTS = Termination("points", N_("on points"))
UNREACHABLE = Termination("unreachable", N_(": nobody can reach six points any more"))
NAMES = GRID.names
EMPTY = 0  # board codes: 0 empty, 1 red, 2 yellow (player index + 1)
RAYS = tuple(tuple(GRID.ray[d][cell] for d in range(6)) for cell in range(len(GRID)))
_EVALUATE = evaluation(RAYS, WIN_POINTS)  # the computer opponent's judgement
NEIGHBOURS = tuple(tuple(GRID.step[d][cell] for d in range(6) if GRID.step[d][cell] >= 0) for cell in range(len(GRID)))
# hole name -> cell, direction name -> direction, as moves write them (and in lower case)
CELL = {written: cell for cell, name in enumerate(NAMES) for written in (name.lower(), name)}
DIRECTION = {written: d for d, name in enumerate(GRID.directions) for written in (name.lower(), name)}

# Zobrist keys: random 64-bit numbers for each (hole, colour), (sector, colour), a waiting
# ball, a count of dropped balls per player and Yellow to move; a position's key is the
# exclusive-or of its parts', updated by push and pop.
_ZOBRIST_RNG = random.Random("offboard zobrist")
ZOBRIST = tuple((0, _ZOBRIST_RNG.getrandbits(64), _ZOBRIST_RNG.getrandbits(64)) for _ in range(len(GRID)))
ZOBRIST_SECTOR = tuple((0, _ZOBRIST_RNG.getrandbits(64), _ZOBRIST_RNG.getrandbits(64)) for _ in range(64))
ZOBRIST_DROPPED = tuple(tuple(0 if n == 0 else _ZOBRIST_RNG.getrandbits(64) for n in range(64)) for _ in PLAYERS)
ZOBRIST_WAITING = _ZOBRIST_RNG.getrandbits(64)
ZOBRIST_YELLOW = _ZOBRIST_RNG.getrandbits(64)
ROOT3_HALF = 3 ** 0.5 / 2

phrase = Phrasebook("play")
phrase_n = phrase.n


class OffBoardMove(NamedTuple):
    """A line move (tail, direction) or a re-placement (tail None); str() is the notation."""

    tail: str | None  # the last ball of the moving line; None for a re-placement
    to: str  # the tail's neighbour in the direction of travel, or the hole a ball is put back on
    direction: str | None = None
    balls: int = 0  # own balls moving
    pushed: int = 0  # opponent balls pushed, the one pushed off included
    sector: str | None = None  # where a ball pushed off went
    points: int = 0  # scored by it
    full: bool = False  # the sector was taken: nothing scored, the ball waits for its owner
    drops_waiting: bool = False  # the mover's waiting ball leaves the game (`*`)

    @property
    def is_replacement(self) -> bool:
        return self.tail is None

    def __str__(self) -> str:
        if self.tail is None:
            return f"+{self.to}"
        text = f"{'*' if self.drops_waiting else ''}{self.tail}-{self.to}"
        if self.pushed:
            text += f"x{self.pushed}"
        if self.sector is not None:
            text += f" {self.sector} full" if self.full else f" {self.sector}+{self.points}"
        return text

    def __repr__(self) -> str:
        return f"OffBoardMove({str(self)!r})"


class PositionError(ValueError):
    """A position that cannot stand on the board; the message names the problem."""


_LINE_TEXT = re.compile(
    r"\s*(\*)?\s*([A-Z]\d+)\s*-\s*([A-Z]\d+)(?:\s*x\s*(\d+))?"
    r"(?:\s+(S\d+)\s*(?:\+\s*(\d+)|(full)))?\s*",
    re.IGNORECASE,
)
_REPLACEMENT_TEXT = re.compile(r"\s*\+\s*([A-Z]\d+)\s*", re.IGNORECASE)


class OffBoard(Game):
    name = "offboard"
    title = "Off Board"
    players = PLAYERS
    board = "offboard"
    options = (GameOption("board", N_("a board definition file (TOML): the start position and the sectors"), label=N_("board file"),
                          metavar="FILE"),)
    header_keys = ("board", "first")
    endings = (POINTS, UNREACHABLE)
    # the computer's levels 1..12 here (nodes, depth, temperature, natural; opponent/levels.py),
    # calibrated by bench/ladder.py. Level 11 searches what the Pi searches in about 2 s, level 12
    # in about 7 s, not 10: 58,000 positions (the Pi's 10 s) scored 86 % over 11,500, a step too
    # wide, and 40,000 78 %. Deep searches hold each other off the sectors (25,000 positions drew
    # half their games with 11,500 at the 300-move cap), so near the top the steps need ever more
    # positions. bench/ladder_games.csv keeps every game tried.
    computer_levels = (
        (800, 1, 0.03, 0.04),
        (4_000, 2, 0.07, 0.04),
        (4_000, 2, 0.035, 0.02),
        (5_000, 2, 0.008, 0.0),
        (170, 64, 0.0, 0.0),
        (240, 64, 0.0, 0.0),
        (650, 64, 0.0, 0.0),
        (1_400, 64, 0.0, 0.0),
        (4_000, 64, 0.0, 0.0),
        (7_000, 64, 0.0, 0.0),
        (11_500, 64, 0.0, 0.0),  # 2 s on a Pi Zero 2 W
        (40_000, 64, 0.0, 0.0),  # 7 s on a Pi Zero 2 W
    )
    computer_pi_seconds = {11: 2.0, 12: 7.0}  # levels 11 and 12: seconds a move on a Pi Zero 2 W
    computer_safety_seconds = {11: 15.0, 12: 40.0}
    # Levels 9 and 10 (4,000 and 7,000 positions) came between in 0.3.0: the levels 9 and 10 of
    # earlier versions are today's 11 (the same search) and 12 (40,000 positions for their 58,000:
    # the strongest there is).
    renumbered_levels = {"0.1.0": {9: 11, 10: 12}, "0.2.0": {9: 11, 10: 12}}

    def __init__(
        self,
        layout: Layout | None = None,
        *,
        red: Sequence[str] | None = None,
        yellow: Sequence[str] | None = None,
        sectors: Mapping[str, str] | None = None,
        turn: str = "red",
        waiting: bool = False,
    ) -> None:
        """The layout's start position, or a position given by the balls on the holes, the
        balls in sectors ({"S5": "yellow"}), the player to move and whether a ball of theirs
        waits to be put back. A ball in a sector scored its value to the other player."""
        super().__init__()
        self.layout = load_layout() if layout is None else layout
        self.sectors = self.layout.sectors
        # _end_sector[cell][d]: the sector a ball reaches when pushed off at the end of the ray
        self._end_sector = tuple(
            tuple(self.layout.exit_sector[(RAYS[cell][d][-1] if RAYS[cell][d] else cell, d)] for d in range(6))
            for cell in range(len(GRID))
        )
        if turn not in PLAYERS:
            raise PositionError(f"the player to move is red or yellow, not {turn!r}")
        self._turn = PLAYERS.index(turn)
        self._board = [EMPTY] * len(GRID)
        self._balls: list[set[int]] = [set(), set()]
        given = {"red": self.layout.red if red is None else red,
                 "yellow": self.layout.yellow if yellow is None else yellow}
        for player_index, player in enumerate(PLAYERS):
            for hole in given[player]:
                if hole not in GRID:
                    raise PositionError(f"{player} ball on {hole!r}: no such hole")
                cell = GRID.index(hole)
                if self._board[cell]:
                    raise PositionError(f"hole {NAMES[cell]} is given twice")
                self._board[cell] = player_index + 1
                self._balls[player_index].add(cell)
        self._holder = [EMPTY] * len(self.sectors)  # colour code of the ball in each sector
        self._score = [0, 0]
        names = [s.name for s in self.sectors]
        for sector, player in (sectors or {}).items():
            if sector not in names or player not in PLAYERS:
                raise PositionError(f"sector {sector}={player}: no such sector or player")
            index = names.index(sector)
            self._holder[index] = PLAYERS.index(player) + 1
            self._score[PLAYERS.index(player) ^ 1] += self.sectors[index].value
        self._dropped = [0, 0]  # balls a player took out of the game instead of putting back
        self._waiting = bool(waiting)  # the player to move has a ball waiting to be put back
        self._waiting_before: list[bool] = []
        self._free = sum(s.value for s, code in zip(self.sectors, self._holder) if not code)  # points still to win
        self._moves: dict[int, OffBoardMove] = {}  # every line move made so far, made once (see _move)
        # [waiting][(tail * 6 + direction) * 10 + own balls - 1]: the moves into a free hole, made once
        self._steps: tuple[list, list] = ([None] * len(GRID) * 60, [None] * len(GRID) * 60)
        self._effects: dict[OffBoardMove, tuple] = {}  # move -> what it changes (see _effect)
        self._key = self._zobrist()
        if red is None and yellow is None and not sectors and not waiting and turn == "red":
            self._refuse_a_decided_start()

    def _refuse_a_decided_start(self) -> None:
        """A board definition whose game would be over before its first move is no board to play on."""
        outcome = self.rules_outcome()
        if outcome is None:
            return
        at = f"{self.layout.source}: "
        if outcome.termination == UNREACHABLE:
            total = sum(sector.value for sector in self.sectors)
            raise LayoutError(f"{at}the sectors are worth {total} points in all: no one could reach"
                              f" {WIN_POINTS} points, so every game would be drawn before it starts;"
                              " give the sectors more points")
        raise LayoutError(f"{at}the game would be over before its first move ({outcome.termination.value}):"
                          " red has no move from this start position")

    def _zobrist(self) -> int:
        """The position's Zobrist key computed from scratch (push and pop keep it up to date)."""
        key = (ZOBRIST_YELLOW if self._turn else 0) ^ (ZOBRIST_WAITING if self._waiting else 0)
        for cell, code in enumerate(self._board):
            key ^= ZOBRIST[cell][code]
        for sector, code in enumerate(self._holder):
            key ^= ZOBRIST_SECTOR[sector][code]
        for player, count in enumerate(self._dropped):
            key ^= ZOBRIST_DROPPED[player][count]
        return key

    # --- the position -------------------------------------------------------------
    @property
    def turn(self) -> str:
        return PLAYERS[self._turn]

    @property
    def cells(self) -> tuple[str, ...]:
        return NAMES + tuple(s.name for s in self.sectors)

    def occupied(self) -> frozenset[str]:
        holes = [NAMES[c] for c, code in enumerate(self._board) if code]
        return frozenset(holes + [s.name for s, code in zip(self.sectors, self._holder) if code])

    def score(self, player: str) -> int:
        return self._score[PLAYERS.index(player)]

    @property
    def waiting(self) -> str | None:
        """The player whose pushed-off ball waits to be put back (always the player to move)."""
        return self.turn if self._waiting else None

    def balls(self, player: str) -> list[str]:
        return [NAMES[c] for c in sorted(self._balls[PLAYERS.index(player)])]

    def piece_words(self, code: str) -> Said:
        if code == "R":
            return phrase("the red ball")
        if code == "Y":
            return phrase("the yellow ball")
        return super().piece_words(code)

    def sector_holder(self, sector: str) -> str | None:
        """The colour of the ball in a sector, or None."""
        for s, code in zip(self.sectors, self._holder):
            if s.name == sector:
                return PLAYERS[code - 1] if code else None
        raise ValueError(f"no sector {sector!r}")

    def __getstate__(self) -> dict:
        # the caches of moves and their effects are rebuilt as needed: a pickle (for a worker
        # process) stays small
        return {**self.__dict__, "_moves": {}, "_effects": {},
                "_steps": ([None] * len(GRID) * 60, [None] * len(GRID) * 60)}

    def copy(self) -> OffBoard:
        twin = OffBoard.__new__(OffBoard)
        twin.__dict__.update(self.__dict__)
        twin.move_stack = self.move_stack[:]
        twin._board = self._board[:]
        twin._balls = [set(b) for b in self._balls]
        twin._holder = self._holder[:]
        twin._score = self._score[:]
        twin._dropped = self._dropped[:]
        twin._waiting_before = self._waiting_before[:]
        return twin

    # --- moves --------------------------------------------------------------------
    def _line(self, tail: int, d: int) -> OffBoardMove | Phrase:
        """The line move of (tail, direction), or why it is not legal."""
        board, me = self._board, self._turn + 1
        ray = RAYS[tail][d]
        i = 0
        while i < len(ray) and board[ray[i]] == me:
            i += 1
        balls = i + 1
        if i == len(ray):
            edge = NAMES[ray[-1]] if ray else NAMES[tail]
            return phrase("the line would push {colour}'s own ball off the board at {hole}",
                          colour=colour_words(PLAYERS[self._turn]), hole=edge)
        j = i
        while j < len(ray) and board[ray[j]] not in (EMPTY, me):
            j += 1
        pushed = j - i
        if pushed and balls <= pushed:
            return phrase_n("{n} ball cannot push {pushed}: a push needs more balls than it pushes",
                            "{n} balls cannot push {pushed}: a push needs more balls than it pushes", balls,
                            n=balls, pushed=pushed)
        if j < len(ray) and board[ray[j]] == me:
            return phrase("{colour}'s own ball on {hole} blocks the push", colour=colour_words(PLAYERS[self._turn]),
                          hole=NAMES[ray[j]])
        move = OffBoardMove(NAMES[tail], NAMES[ray[0]], GRID.directions[d], balls, pushed,
                            drops_waiting=self._waiting)
        if j == len(ray):  # the front-most opponent ball leaves the board
            sector = self._end_sector[tail][d]
            full = self._holder[sector] != EMPTY
            points = 0 if full else self.sectors[sector].value
            move = move._replace(sector=self.sectors[sector].name, points=points, full=full)
        return move

    def _move(self, tail: int, d: int, balls: int, pushed: int, off: bool) -> OffBoardMove:
        """The line move of `balls` balls from `tail` in direction `d` pushing `pushed` (the
        front-most off the board when `off`): each move is made once, then looked up."""
        full = off and self._holder[self._end_sector[tail][d]] != EMPTY
        key = ((((tail * 6 + d) * 16 + balls) * 16 + pushed) * 2 + off) * 4 + full * 2 + self._waiting
        move = self._moves.get(key)
        if move is None:
            move = OffBoardMove(NAMES[tail], NAMES[RAYS[tail][d][0]], GRID.directions[d], balls, pushed,
                                drops_waiting=self._waiting)
            if off:
                sector = self._end_sector[tail][d]
                move = move._replace(sector=self.sectors[sector].name,
                                     points=0 if full else self.sectors[sector].value, full=full)
            self._moves[key] = move
        return move

    def legal_moves(self) -> list[OffBoardMove]:
        """Line moves by tail (board order) and direction, then re-placements if a ball waits."""
        if self.outcome() is not None:
            return []
        # the walk of _line, without the reasons: along each ray the own line, then what it pushes
        board, me, moves = self._board, self._turn + 1, []
        make = self._move
        steps = self._steps[self._waiting]
        for tail in sorted(self._balls[self._turn]):
            for d, ray in enumerate(RAYS[tail]):
                length, i = len(ray), 0
                while i < length and board[ray[i]] == me:
                    i += 1
                if i == length:
                    continue
                if board[ray[i]] == EMPTY:  # a line of i + 1 balls steps into a free hole
                    slot = (tail * 6 + d) * 10 + i
                    move = steps[slot]
                    if move is None:
                        move = steps[slot] = make(tail, d, i + 1, 0, False)
                    moves.append(move)
                    continue
                j = i + 1
                while j < length and board[ray[j]] not in (EMPTY, me):
                    j += 1
                if j - i <= i and (j == length or board[ray[j]] == EMPTY):
                    moves.append(make(tail, d, i + 1, j - i, j == length))
        if self._waiting:
            moves.extend(OffBoardMove(None, NAMES[c]) for c, code in enumerate(board) if not code)
        return moves

    def count_legal_moves(self) -> int:
        # The same walk as _line, without building moves: perft's last ply.
        if self.outcome() is not None:
            return 0
        board, me = self._board, self._turn + 1
        count = self._board.count(EMPTY) if self._waiting else 0
        for tail in self._balls[self._turn]:
            for ray in RAYS[tail]:
                length, i = len(ray), 0
                while i < length and board[ray[i]] == me:
                    i += 1
                if i == length:
                    continue
                if board[ray[i]] == EMPTY:
                    count += 1
                    continue
                j = i + 1
                while j < length and board[ray[j]] not in (EMPTY, me):
                    j += 1
                if j - i <= i and (j == length or board[ray[j]] == EMPTY):
                    count += 1
        return count

    def _has_legal_move(self) -> bool:
        board = self._board
        if self._waiting and EMPTY in board:
            return True
        for tail in self._balls[self._turn]:  # most often a ball can step into a free hole
            for cell in NEIGHBOURS[tail]:
                if board[cell] == EMPTY:
                    return True
        return any(not isinstance(self._line(t, d), Phrase) for t in self._balls[self._turn] for d in range(6))

    def _effect(self, move: OffBoardMove) -> tuple[int, int, int, int, tuple[int, int, int]]:
        """What `move` changes, worked out once per move: (the tail's hole or -1 for a
        re-placement, the hole the front ball (or the ball put back) lands on, the hole the
        front-most pushed ball lands on or -1, the sector it scores in or -1, and for each
        colour code the key's change by the mover's own balls and the turn)."""
        tail, to, direction, balls, pushed, _sector, _points, full, _drops = move
        if tail is None:
            cell = CELL[to]
            effect = (-1, cell, -1, -1, tuple(ZOBRIST[cell][me] ^ ZOBRIST_YELLOW for me in range(3)))
        else:
            tail, d = CELL[tail], DIRECTION[direction]
            ray = RAYS[tail][d]
            head, front = ray[balls - 1], balls - 1 + pushed
            effect = (tail, head, ray[front] if pushed and front < len(ray) else -1,
                      self._end_sector[tail][d] if pushed and front == len(ray) and not full else -1,
                      tuple(ZOBRIST[tail][me] ^ ZOBRIST[head][me] ^ ZOBRIST_YELLOW for me in range(3)))
        if len(self._effects) >= 100_000:
            self._effects.clear()
        self._effects[move] = effect
        return effect

    def push(self, move: OffBoardMove) -> None:
        tail, head, pushed_to, sector, key_change = self._effects.get(move) or self._effect(move)
        turn, board = self._turn, self._board
        me = turn + 1
        key = self._key ^ key_change[me]
        waiting = self._waiting
        if waiting:
            key ^= ZOBRIST_WAITING
        self._waiting_before.append(waiting)
        self.move_stack.append(move)
        own = self._balls[turn]
        self._turn = turn ^ 1
        if tail < 0:  # a waiting ball put back
            board[head] = me
            own.add(head)
            self._waiting = False
            self._key = key
            return
        board[tail] = EMPTY
        own.discard(tail)
        if board[head]:  # the front ball lands on an opposing one: a push
            other, them = self._balls[turn ^ 1], 3 - me
            other.discard(head)
            key ^= ZOBRIST[head][them]
            if pushed_to >= 0:
                board[pushed_to] = them
                other.add(pushed_to)
                key ^= ZOBRIST[pushed_to][them]
            elif sector >= 0:
                points = move.points
                self._holder[sector] = them
                self._score[turn] += points
                self._free -= points
                key ^= ZOBRIST_SECTOR[sector][them]
        board[head] = me
        own.add(head)
        if move.drops_waiting:
            dropped = self._dropped[turn]
            key ^= ZOBRIST_DROPPED[turn][dropped] ^ ZOBRIST_DROPPED[turn][dropped + 1]
            self._dropped[turn] = dropped + 1
        if move.full:
            self._waiting = True
            self._key = key ^ ZOBRIST_WAITING
        else:
            self._waiting = False
            self._key = key

    def pop(self) -> OffBoardMove:
        move = self.move_stack.pop()
        tail, head, pushed_to, sector, key_change = self._effects.get(move) or self._effect(move)
        self._turn = turn = self._turn ^ 1
        me = turn + 1
        key = self._key ^ key_change[me]
        if self._waiting:
            key ^= ZOBRIST_WAITING
        self._waiting = waiting = self._waiting_before.pop()
        if waiting:
            key ^= ZOBRIST_WAITING
        self._declared = None
        board = self._board
        own = self._balls[turn]
        if tail < 0:
            board[head] = EMPTY
            own.discard(head)
            self._key = key
            return move
        board[tail] = me
        own.add(tail)
        own.discard(head)
        if move.pushed:
            other, them = self._balls[turn ^ 1], 3 - me
            if pushed_to >= 0:
                board[pushed_to] = EMPTY
                other.discard(pushed_to)
                key ^= ZOBRIST[pushed_to][them]
            elif sector >= 0:
                points = move.points
                self._holder[sector] = EMPTY
                self._score[turn] -= points
                self._free += points
                key ^= ZOBRIST_SECTOR[sector][them]
            board[head] = them
            other.add(head)
            key ^= ZOBRIST[head][them]
        else:
            board[head] = EMPTY
        if move.drops_waiting:
            dropped = self._dropped[turn]
            key ^= ZOBRIST_DROPPED[turn][dropped] ^ ZOBRIST_DROPPED[turn][dropped - 1]
            self._dropped[turn] = dropped - 1
        self._key = key
        return move

    def near(self, cell: str) -> frozenset[str]:
        return GRID.neighbour_names(cell)

    def footprint(self, move: OffBoardMove) -> Footprint:
        if move.tail is None:
            return Footprint(empties=frozenset(), fills=frozenset({move.to}))
        tail, d = GRID.index(move.tail), GRID.direction(move.direction)
        ray = RAYS[tail][d]
        front = move.balls - 1 + move.pushed
        passes = {NAMES[c] for c in ray[:front]}
        captures = set()
        if front < len(ray):
            fills = {NAMES[ray[front]]}
        elif move.full:
            # The ball pushed into a full sector leaves no trace, and the ball behind it takes
            # its hole: a capture whose target stays occupied.
            fills, captures = set(), {NAMES[ray[front - 1]]}
            passes -= captures
        else:
            fills = {move.sector}
        return Footprint(
            empties=frozenset({move.tail}),
            fills=frozenset(fills),
            captures=frozenset(captures),
            passes=frozenset(passes),
        )

    def spoken(self, move: object) -> Said:
        text = str(move)
        put_back = _REPLACEMENT_TEXT.fullmatch(text)
        if put_back is not None:
            return phrase("puts the waiting ball back on {hole}", hole=put_back[1])
        line = _LINE_TEXT.fullmatch(text)
        if line is None:
            return text
        drops, tail, to, pushed, sector, points, full = line.groups()
        words = {"tail": tail, "to": to, "n": pushed, "sector": sector}
        if drops:
            if not pushed:
                return phrase("leaving the waiting ball out, {tail} to {to}", **words)
            if sector and full:
                return phrase("leaving the waiting ball out, {tail} to {to}, pushing {n}, {sector} is full", **words)
            if sector:
                return phrase_n("leaving the waiting ball out, {tail} to {to}, pushing {n}, into {sector} for"
                                " {points} point", "leaving the waiting ball out, {tail} to {to}, pushing {n}, into {sector} for"
                                                   " {points} points", int(points or 0), points=points, **words)
            return phrase("leaving the waiting ball out, {tail} to {to}, pushing {n}", **words)
        if not pushed:
            return phrase("{tail} to {to}", **words)
        if sector and full:
            return phrase("{tail} to {to}, pushing {n}, {sector} is full", **words)
        if sector:
            return phrase_n("{tail} to {to}, pushing {n}, into {sector} for {points} point",
                            "{tail} to {to}, pushing {n}, into {sector} for {points} points", int(points or 0),
                            points=points, **words)
        return phrase("{tail} to {to}, pushing {n}", **words)

    def hand_steps(self, move: OffBoardMove) -> tuple[HandStep, ...]:
        """A line of one's own: its back ball into the free hole in front of it (the board reads
        the whole line moving). A push must also leave the pushed balls' colour where the rules
        put it: the back ball is kept in the hand, the opponent's ball next to the line goes
        into the free hole beyond the pushed balls (or over the rim, into the sector there),
        and the back ball into the hole it left. A ball pushed towards a full sector goes beside
        the board for its owner; when several are pushed, the one at the rim goes first and the
        one next to the line takes its hole (the board must see the rim's hole empty)."""
        if move.tail is None:
            return (put(move.to, None),)
        ray = RAYS[GRID.index(move.tail)][GRID.direction(move.direction)]
        front = move.balls - 1 + move.pushed  # the ray's index of the hole the front ball reaches
        if not move.pushed:
            return lift(move.tail), put(NAMES[ray[front]], move.tail)
        nearest = NAMES[ray[move.balls - 1]]
        if front < len(ray):
            pushed = (lift(nearest), put(NAMES[ray[front]], nearest))
        elif not move.full:
            pushed = (lift(nearest), put(move.sector, nearest))
        else:
            edge = NAMES[ray[front - 1]]
            pushed = (lift(edge), put(None, edge))
            if edge != nearest:
                pushed += (lift(nearest), put(edge, nearest))
        return lift(move.tail), *pushed, put(nearest, move.tail)

    def move_words(self, move: OffBoardMove) -> Said:
        """The notation names the tail's step; the hands make it as hand_steps says: "move the
        line B2–B4 one hole towards B5, pushing 1 ball: lift B2 and keep it in your hand, move
        the yellow ball on B5 to B6, then put your ball on B5"."""
        steps = self.hand_steps(move)
        if move.tail is None:
            return phrase("put your waiting ball back on {hole}", hole=move.to)
        ray = RAYS[GRID.index(move.tail)][GRID.direction(move.direction)]
        own = [move.tail, *(NAMES[c] for c in ray[:move.balls - 1])]
        ahead = NAMES[ray[move.balls - 1]]
        if len(own) == 1:
            words = phrase("move {hole} one hole towards {ahead}", hole=move.tail, ahead=ahead)
        else:
            words = phrase("move the line {first}–{last} one hole towards {ahead}", first=own[0], last=own[-1],
                           ahead=ahead)
        if move.pushed:
            words += phrase_n(", pushing {n} ball", ", pushing {n} balls", move.pushed, n=move.pushed)
        if move.sector is not None and move.full:
            words += phrase(", the last one off the board ({sector} is full)", sector=move.sector)
        elif move.sector is not None:
            words += phrase(", the last one off into {sector} (+{points})", sector=move.sector, points=move.points)
        if move.drops_waiting:
            words += phrase("; your waiting ball leaves the game")
        if not move.pushed:
            return phrase("{move}: lift {hole}, put it on {to}", move=words, hole=move.tail, to=steps[1].cell)
        where = {"move": words, "hole": move.tail, "pushed": ahead, "to": steps[2].cell, "sector": move.sector,
                 "edge": steps[1].cell}
        yellow = self.turn == "red"  # the pushed balls are the opponent's
        if move.sector is None and yellow:
            text = phrase("{move}: lift {hole} and keep it in your hand, move the yellow ball on {pushed} to {to},"
                          " then put your ball on {pushed}")
        elif move.sector is None:
            text = phrase("{move}: lift {hole} and keep it in your hand, move the red ball on {pushed} to {to},"
                          " then put your ball on {pushed}")
        elif not move.full and yellow:
            text = phrase("{move}: lift {hole} and keep it in your hand, move the yellow ball on {pushed} into {sector},"
                          " then put your ball on {pushed}")
        elif not move.full:
            text = phrase("{move}: lift {hole} and keep it in your hand, move the red ball on {pushed} into {sector},"
                          " then put your ball on {pushed}")
        elif move.pushed == 1 and yellow:
            text = phrase("{move}: lift {hole} and keep it in your hand, take the yellow ball on {pushed} off the board"
                          " (it waits beside the board for Yellow), then put your ball on {pushed}")
        elif move.pushed == 1:
            text = phrase("{move}: lift {hole} and keep it in your hand, take the red ball on {pushed} off the board"
                          " (it waits beside the board for Red), then put your ball on {pushed}")
        elif yellow:
            text = phrase("{move}: lift {hole} and keep it in your hand, take the yellow ball on {edge} off the board"
                          " (it waits beside the board for Yellow), move the yellow ball on {pushed} to {edge}, then put"
                          " your ball on {pushed}")
        else:
            text = phrase("{move}: lift {hole} and keep it in your hand, take the red ball on {edge} off the board"
                          " (it waits beside the board for Red), move the red ball on {pushed} to {edge}, then put"
                          " your ball on {pushed}")
        return text.format(**where)

    # --- notation -----------------------------------------------------------------
    def parse_move(self, text: str) -> OffBoardMove:
        written = text.strip()
        outcome = self.outcome()
        if outcome is not None:
            raise MoveError(phrase("{written}: {reason}", written=repr(written),
                                   reason=over_words(outcome.result(PLAYERS), outcome.termination.value)))
        player = colour_words(PLAYERS[self._turn])

        def refused(reason: str) -> MoveError:
            return MoveError(phrase("{written}: {reason}", written=repr(written), reason=reason))

        replacement = _REPLACEMENT_TEXT.fullmatch(text)
        if replacement:
            hole = self._hole(replacement.group(1), written)
            if not self._waiting:
                raise refused(phrase("no {colour} ball is waiting to be put back", colour=player))
            if self._board[hole]:
                raise refused(phrase("{hole} is not free", hole=NAMES[hole]))
            return OffBoardMove(None, NAMES[hole])
        match = _LINE_TEXT.fullmatch(text)
        if not match:
            raise MoveError(phrase("cannot read {written}: write a line move as TAIL-NEXT (C3-D4, C3-D4x1, C7-D8x1 S5+2)"
                                   " or a re-placement as +HOLE (+E5)", written=repr(written)))
        star, tail_name, to_name, pushed, sector, points, full = match.groups()
        tail, to = self._hole(tail_name, written), self._hole(to_name, written)
        d = GRID.direction_between(tail, to)
        if d is None:
            raise refused(phrase("{to} is not next to {hole}", to=NAMES[to], hole=NAMES[tail]))
        if self._board[tail] != self._turn + 1:
            raise refused(phrase("no {colour} ball on {hole}", colour=player, hole=NAMES[tail]))
        move = self._line(tail, d)
        if isinstance(move, Phrase):
            raise refused(move)
        if star and not self._waiting:
            raise refused(phrase("`*` drops a waiting ball, but no {colour} ball is waiting", colour=player))
        if pushed is not None and int(pushed) != move.pushed:
            raise refused(phrase("this move pushes {n} ball(s), not {pushed}: it is {move}", n=move.pushed,
                                 pushed=pushed, move=move))
        if sector is not None:
            said_full = full is not None
            if move.sector is None or sector.upper() != move.sector or said_full != move.full or (
                points is not None and int(points) != move.points
            ):
                raise refused(phrase("the move pushes nothing into {sector} like that: it is {move}",
                                     sector=sector.upper(), move=move))
        return move

    def _hole(self, name: str, written: str) -> int:
        if name not in GRID:
            raise MoveError(phrase("{written}: {reason}", written=repr(written),
                                   reason=phrase("no hole {hole} on the board", hole=name.upper())))
        return GRID.index(name)

    # --- the end ------------------------------------------------------------------
    def hands_guide(self) -> list[str]:
        return [
            phrase("A line of your balls moves one hole along its own direction: lift the ball at its back and put"
                   " it down in the free hole in front of the line. The board reads that as the whole line moving."),
            phrase("Pushing: the board cannot tell the colours apart, so the pushed balls must move too: lift the"
                   " ball at the back of your line and keep it in your hand, move the opponent's ball next to your"
                   " line to the free hole beyond the balls you push, then put your ball in the hole it left."),
            phrase("Pushing over the rim: the opponent's ball next to your line goes into the trough there instead"
                   " (its points count for you). If that trough already holds a ball, the pushed ball goes beside"
                   " the board for its owner; when you push more than one, take the ball at the rim off first and"
                   " put the one next to your line in its hole."),
            phrase("The lights show a push the same way, one ball at a time: the ball to lift blinks vermillion,"
                   " where it goes shines teal."),
        ]

    def light_meanings(self) -> dict[str, str]:
        return {"empty": phrase("A ball stands here that should not; or, playing the computer (or after a hint), the"
                                " ball to lift now: a move is shown one ball at a time. A push starts with the ball at"
                                " the back of the pushing line: keep it in your hand until teal shows where it goes."),
                "dest": phrase("The computer's move or a hint: where the ball just lifted goes (a push-off's sector),"
                               " or, with nothing blinking, the ball in your hand. An opponent's ball lifted with"
                               " nothing teal goes beside the board for its owner."),
                "to": phrase("You hold a ball that may move: it may go here.")}

    def light_actions(self) -> dict[str, str]:
        return {"dest": phrase("Put the ball you lifted here (a push-off: in that sector's trough).")}

    def ending_words(self, outcome: Outcome) -> Said:
        score = "-".join(str(points) for points in self._score)
        if outcome.termination == POINTS:
            return phrase("{player} scored {points} points ({score})", player=player_words(outcome.winner),
                          points=WIN_POINTS, score=score)
        if outcome.termination == UNREACHABLE:
            return phrase("neither can reach {points} points any more ({score}): a draw", points=WIN_POINTS,
                          score=score)
        return super().ending_words(outcome)

    def rules_outcome(self) -> Outcome | None:
        for p in (self._turn ^ 1, self._turn):  # only the mover can just have scored
            if self._score[p] >= WIN_POINTS:
                return Outcome(POINTS, PLAYERS[p])
        free = self._free
        if self._score[0] + free < WIN_POINTS and self._score[1] + free < WIN_POINTS:
            return Outcome(UNREACHABLE, None)
        if not self._has_legal_move():
            return Outcome(Termination.NO_MOVE, PLAYERS[self._turn ^ 1])
        return None

    # --- for the computer opponent (the evaluation lives in offboard_eval) -----------------------
    def evaluate(self, player: str) -> float:
        return _EVALUATE(self, player)

    def position_key(self) -> int:
        """The Zobrist key: the balls on the holes and in the sectors, the waiting ball, the balls
        each player dropped and the player to move."""
        return self._key

    # --- the start, in files and on the command line --------------------------------------
    @classmethod
    def from_options(cls, *, board: str | None = None, **others) -> OffBoard:
        cls.refuse_foreign_options({"board": board, **others})
        return cls(load_layout(board))

    def start_header(self) -> dict:
        """The board goes in as data, with its source, so that resuming needs no board file."""
        if self.diagram() != OffBoard(self.layout).diagram():
            raise ValueError("an Off Board game can only be recorded from its board's start position")
        return {"board": {"source": self.layout.source, **layout_to_data(self.layout)}}

    @classmethod
    def from_header(cls, header: Mapping) -> OffBoard:
        """Optional `board`: a board file's path (relative to the working directory, like
        --board) or a board definition as data with an optional "source" (what a journal keeps)."""
        cls.refuse_foreign_keys(header)
        if header.get("first", "red") != "red":
            raise ValueError('Off Board: red always moves first, "first" can only be "red"')
        board = header.get("board")
        if board is None:
            return cls(load_layout())
        if isinstance(board, str):
            return cls(load_layout(board))
        if isinstance(board, Mapping):
            data = dict(board)
            source = data.pop("source", "the recorded board")
            if not isinstance(source, str):
                raise ValueError('"board" "source" must be a string')
            return cls(parse_layout(data, source))
        raise ValueError('"board" must be a board file\'s path or a board definition object')

    def record_header(self) -> list[str]:
        source = self.layout.source
        return ["board default" if source == DEFAULT_SOURCE else f"board {source}"]

    def next_start(self) -> OffBoard:
        return OffBoard(self.layout)

    # --- what a view shows ------------------------------------------------------------------
    def pieces(self) -> dict[str, str]:
        found = {cell: "" for cell in self.cells}
        for player_index, balls in enumerate(self._balls):
            for cell in balls:
                found[NAMES[cell]] = PLAYERS[player_index][0].upper()
        for sector, code in zip(self.sectors, self._holder):
            if code:
                found[sector.name] = PLAYERS[code - 1][0].upper()
        return found

    def position_data(self) -> dict:
        return {"score": {player: self.score(player) for player in PLAYERS}, "waiting": self.waiting}

    def result_details(self) -> str:
        return f"{self._score[0]}-{self._score[1]}"

    def winner_cells(self, winner: str) -> frozenset[str]:
        return frozenset(self.balls(winner))

    def geometry(self) -> dict:
        # hole "E5": row E (row index 4 from A at the bottom), diagonal 5; rim points continue
        # the numbering one step beyond the edge
        def xy(r: int, d: int) -> list[float]:
            return [d - r / 2, -r * ROOT3_HALF]

        cells = {name: xy(*coord) for name, coord in zip(NAMES, GRID.coords)}
        return {"shape": "hexagon", "cells": cells,
                "outline": [cells[c] for c in ("A1", "A5", "E9", "I9", "I5", "E1")], "goal": None,
                "sectors": [{"name": name, "value": value, "points": [xy(*p) for p in points]}
                            for name, value, points in sector_points(self.layout)],
                "marbles": {"R": "red", "Y": "yellow"}}

    def rules(self) -> dict:
        return rules_text("offboard")

    # --- for people ---------------------------------------------------------------
    def diagram(self) -> Said:
        """Rows I to A; R a red ball, Y a yellow one, . a free hole; then sectors and score."""
        marks = ".RY"
        lines = []
        for r in range(8, -1, -1):
            cells = [c for c, (row, _) in enumerate(GRID.coords) if row == r]
            row = " " * abs(4 - r) + " ".join(marks[self._board[c]] for c in cells)
            lines.append(f"{NAMES[cells[0]][0]}  {row:<17}  {NAMES[cells[0]]}-{NAMES[cells[-1]]}")
        sectors = " ".join(
            f"{s.name}({s.value})={marks[code] if code else '-'}" for s, code in zip(self.sectors, self._holder)
        )
        lines.append(phrase("scoring spaces: {sectors}", sectors=sectors))
        lines.append(phrase("score: red {red}, yellow {yellow}", red=self._score[0], yellow=self._score[1]))
        if self._waiting:
            lines.append(phrase("waiting: a {colour} ball, to put back (+HOLE) or drop (*MOVE)",
                                colour=colour_words(self.turn)))
        lines.append(self.status_line())
        return listed(lines, "\n")

    def __repr__(self) -> str:
        return (f"OffBoard(red {' '.join(self.balls('red'))} / yellow {' '.join(self.balls('yellow'))},"
                f" score {self._score[0]}-{self._score[1]}, {self.turn} to move)")

