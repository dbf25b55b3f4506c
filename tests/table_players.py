"""Simulated players at the table: whole games of Big Balls, Off Board and Abalone, played with
hands on a board of presence-only switches, written as a trace together with the record the
players meant.

Written from the recognition rules (shared design note "Recognising moves from presence-only
sensors", rules 1-10 and the trace contract, with the rulings of docs/recognition.md) and from
the games' rules, not from the recogniser: legality and notation come from the independent
reference generators (tests/reference_*.py).

People here behave as people do, not as a recogniser would like: they never press OK, do not
wait for lights, move with the roll they already have, capture in either lift order or in one
quick swap, slide lines or take them apart, hold pieces while thinking, touch pieces, make an
illegal move and fix it, take moves back before and after the next player's roll, amend a move
by moving on, and start their own turn before the last move has settled. Fewer of them also
start their turn while the other still puts the last piece down (two hands at once: a lift, a
whole move, or the die), set a piece down for a moment on its way, take a whole line in the
hand and put it down ball by ball with pauses, lift the ball off first when pushing it towards
a full sector (and its owner puts it back a few seconds later), press the die the moment the
other's move lands, and push as the board's words say (the back ball in the hand, the pushed
ball next to the line on, the back ball into its hole). After every move the pieces on the
table, cell by cell, must be the position's.

Only hand sequences the rules promise to be recognised as the intended record are played as
"promised". Where a sequence falls where the text is silent or unclear (see `Game.unclear`),
the game still plays on, but says so, so that a check can leave it out or report it apart.
Everything is deterministic by seed.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

import reference_abalone as ab
import reference_bigballs as bb
import reference_offboard as ob

DEBOUNCE = 0.020  # s, the defaults of the recognition rules
SETTLE = 0.8
GRACE = 1.5

GAMES = ("bigballs", "offboard", "abalone")
OFF = None  # a relocation's destination off the board (a captured piece, set aside)


# ---------------------------------------------------------------------------------------------
# Moves as hands see them: relocations of pieces, from a cell to a cell (or off the board, or
# from the hand onto the board). Every game's move is written this way; the rest is generic.


@dataclass(frozen=True)
class Shape:
    """What a legal move does to the switches: its result, the cells that must have been seen
    empty (a captured piece whose cell stays occupied, rule 2), and every cell it involves."""

    move: object  # the game's own move value
    text: str  # its notation
    relocations: tuple  # ((source or None for the hand, destination or OFF), ...)
    result: frozenset
    evidence: frozenset
    cells: frozenset


def shape_of(occupied: frozenset, move, text: str, relocations) -> Shape:
    sources = {s for s, _ in relocations if s is not None}
    targets = {d for _, d in relocations if d is not OFF}
    result = frozenset((occupied - sources) | targets)
    evidence = frozenset(s for s, d in relocations if s is not None and d is OFF and s in result)
    return Shape(move, text, tuple(relocations), result, evidence, frozenset(sources | targets))


def matches(shape: Shape, frame: frozenset, touched: frozenset) -> bool:
    """Rule 2's candidate: the board equals the result and the evidence holds."""
    return shape.result == frame and shape.evidence <= touched


def plausible_on_the_way(shape: Shape, before: frozenset, frame: frozenset) -> bool:
    """Whether `frame` could be a state on the way to `shape` from `before` (generous: every
    cell that differs is one the move involves). Used to keep promises conservative."""
    return (frame ^ before) <= shape.cells


# ---------------------------------------------------------------------------------------------
# The three games, each behind the same small interface.


class BigBalls:
    name = "bigballs"
    ORDER_BLACK = ("a1", "b1", "c1", "a2", "b2", "a3")
    ORDER_WHITE = ("e1", "f1", "g1", "e2", "f2", "e3")

    def __init__(self, rng: random.Random) -> None:
        black = dict(zip(self.ORDER_BLACK, rng.sample(range(1, 7), 6)))
        white = dict(zip(self.ORDER_WHITE, rng.sample(range(1, 7), 6)))
        self.first = "black" if rng.random() < 0.8 else "white"
        self.setup = {"black": black, "white": white}
        self.start = bb.Position.setup(black, white, first=self.first)

    def header(self) -> dict:
        return {"game": "bigballs", "first": self.first, "setup": self.setup}

    def record_header(self) -> list[str]:
        b = " ".join(f"{h}={self.setup['black'][h]}" for h in self.ORDER_BLACK)
        w = " ".join(f"{h}={self.setup['white'][h]}" for h in self.ORDER_WHITE)
        return ["game bigballs", f"black {b}", f"white {w}", f"first {self.first}"]

    @staticmethod
    def pieces(pos) -> dict:
        return dict(pos.board)

    @staticmethod
    def turn(pos) -> str:
        return pos.turn

    @staticmethod
    def owns(pos, player: str, piece: str) -> bool:
        return piece == bb.BALL or piece[0] == bb.PREFIX[player]

    def shapes(self, pos, roll: int | None) -> list[Shape]:
        if bb.outcome(pos) is not None:
            return []
        texts = bb.stone_moves(pos, roll) if roll else bb.big_ball_moves(pos)
        occupied = pos.occupied()
        found = []
        for text in sorted(texts):
            path = text.split(" ")[1]
            src, dst = path.split("x" if "x" in path else "-")
            relocations = ((dst, OFF), (src, dst)) if dst in pos.board else ((src, dst),)
            found.append(shape_of(occupied, text, text, relocations))
        return found

    @staticmethod
    def apply(pos, shape: Shape):
        return bb.apply(pos, shape.move)

    @staticmethod
    def neighbours(cell: str) -> list[str]:
        return [n for n in (bb.neighbour(cell, d) for d in bb.DIRECTIONS) if n is not None]

    @staticmethod
    def as_the_page_says(pos, shape: Shape) -> Shape | None:
        return None  # nothing is pushed in Big Balls

    @staticmethod
    def result_line(pos) -> str | None:
        end = bb.outcome(pos)
        if end is None:
            return None
        reason, winner = end
        score = {"black": "1-0", "white": "0-1", None: "1/2-1/2"}[winner]
        return f"{score} {reason}"


class OffBoard:
    name = "offboard"

    def __init__(self, rng: random.Random) -> None:
        self.start = ob.Position.setup()

    def header(self) -> dict:
        return {"game": "offboard"}

    def record_header(self) -> list[str]:
        return ["game offboard", "board default"]

    @staticmethod
    def pieces(pos) -> dict:
        found = dict(pos.board)
        found.update({s: c for s, c in pos.sectors.items() if c})
        return found

    @staticmethod
    def turn(pos) -> str:
        return pos.turn

    @staticmethod
    def owns(pos, player: str, piece: str) -> bool:
        return piece == ob.COLOUR[player]

    def shapes(self, pos, roll=None) -> list[Shape]:
        if ob.outcome(pos) is not None:
            return []
        occupied = pos.occupied()
        found = []
        for text in ob.legal_moves(pos):
            if text.startswith("+"):
                found.append(shape_of(occupied, text, text, ((None, text[1:]),)))
                continue
            tail, rest = text.lstrip("*").split("-", 1)
            to = rest.split("x")[0].split(" ")[0]
            direction = next(d for d in ob.DIRECTIONS if ob.step(tail, d) == to)
            cells, _, _, _ = ob._line(pos, tail, direction)
            relocations = []
            for cell in cells:
                target = ob.step(cell, direction)
                if target is None:  # pushed off the rim: into its sector, or aside when it is full
                    sector = pos.rim.exit_sector[(cell, direction)]
                    target = sector if pos.sectors[sector] is None else OFF
                relocations.append((cell, target))
            found.append(shape_of(occupied, text, text, tuple(relocations)))
        return found

    @staticmethod
    def apply(pos, shape: Shape):
        return ob.apply(pos, shape.move)

    @staticmethod
    def neighbours(cell: str) -> list[str]:
        return [n for n in (ob.step(cell, d) for d in ob.DIRECTIONS) if n is not None]

    @staticmethod
    def as_the_page_says(pos, shape: Shape) -> Shape | None:
        """A push made as the board's words put it: the opponent's ball next to the line goes to
        the free hole beyond the pushed balls (over the rim: into the sector there, or aside for
        its owner when the sector is full; two or more pushed towards a full sector: the ball at
        the edge comes off first and the one next to the line takes its hole), and the line's
        back ball is put in the hole it left. Relocations in the words' order, the back ball's
        last. None if `shape` pushes nothing."""
        text = shape.move
        if text.startswith("+") or "x" not in text:
            return None
        tail, rest = text.lstrip("*").split("-", 1)
        to = rest.split("x")[0].split(" ")[0]
        direction = next(d for d in ob.DIRECTIONS if ob.step(tail, d) == to)
        cells, n, _, front = ob._line(pos, tail, direction)
        nearest, edge = cells[n], cells[-1]
        if front is not None:
            theirs = ((nearest, front),)
        elif pos.sectors[sector := pos.rim.exit_sector[(edge, direction)]] is None:
            theirs = ((nearest, sector),)
        else:
            theirs = ((nearest, OFF),) if edge == nearest else ((edge, OFF), (nearest, edge))
        return shape_of(pos.occupied(), text, text, theirs + ((tail, nearest),))

    @staticmethod
    def result_line(pos) -> str | None:
        end = ob.outcome(pos)
        if end is None:
            return None
        reason, winner = end
        score = {"red": "1-0", "yellow": "0-1", None: "1/2-1/2"}[winner]
        return f"{score} {reason} {pos.scores['red']}-{pos.scores['yellow']}"


class Abalone:
    name = "abalone"
    LAYOUTS = ("standard", "belgian-daisy", "belgian-daisy", "german-daisy", "german-daisy")

    def __init__(self, rng: random.Random) -> None:
        self.layout = rng.choice(self.LAYOUTS)
        self.start = ab.start(self.layout)

    def header(self) -> dict:
        return {"game": "abalone", "layout": self.layout}

    def record_header(self) -> list[str]:
        return ["game abalone", f"layout {self.layout}"]

    @staticmethod
    def pieces(pos) -> dict:
        return dict(pos.board)

    @staticmethod
    def turn(pos) -> str:
        return pos.turn

    @staticmethod
    def owns(pos, player: str, piece: str) -> bool:
        return piece == ab.COLOUR[player]

    def shapes(self, pos, roll=None) -> list[Shape]:
        occupied = frozenset(pos.board)
        found = []
        for move in ab.moves(pos):
            line, direction = move
            relocations = []
            if ab.along(line, direction):
                lead = next(h for h in line if ab.step(h, direction) not in line)
                hole = ab.step(lead, direction)
                while hole is not None and pos.board.get(hole) not in (None, ab.COLOUR[pos.turn]):
                    target = ab.step(hole, direction)
                    relocations.append((hole, target if target is not None else OFF))
                    hole = target
            relocations.extend((h, ab.step(h, direction)) for h in sorted(line, key=ab.coords))
            found.append(shape_of(occupied, move, ab.notation(move), tuple(relocations)))
        found.sort(key=lambda s: s.text)
        return found

    @staticmethod
    def apply(pos, shape: Shape):
        return ab.apply(pos, shape.move)

    @staticmethod
    def neighbours(cell: str) -> list[str]:
        return [n for n in (ab.step(cell, d) for d in ab.DIRECTIONS) if n is not None]

    @staticmethod
    def as_the_page_says(pos, shape: Shape) -> Shape | None:
        """A push made as the board's words put it: the opposing marble next to the line goes to
        the free hole beyond the pushed marbles, or off the board (two pushed off: the marble at
        the edge comes off first and the one next to the line takes its hole), and the line's
        last marble is put in the hole it left. Relocations in the words' order, the last
        marble's last. None if `shape` pushes nothing."""
        line, direction = shape.move
        if not ab.along(line, direction):
            return None
        lead = next(h for h in line if ab.step(h, direction) not in line)
        run = []
        hole = ab.step(lead, direction)
        while hole is not None and pos.board.get(hole) not in (None, ab.COLOUR[pos.turn]):
            run.append(hole)
            hole = ab.step(hole, direction)
        if not run:
            return None
        trail = next(h for h in line if ab.step(h, ab.opposite(direction)) not in line)
        beyond = ab.step(run[-1], direction)
        if beyond is not None:
            theirs = ((run[0], beyond),)
        else:
            theirs = ((run[0], OFF),) if len(run) == 1 else ((run[-1], OFF), (run[0], run[-1]))
        return shape_of(frozenset(pos.board), shape.move, shape.text, theirs + ((trail, run[0]),))

    @staticmethod
    def result_line(pos) -> str | None:
        if not any(n >= ab.WIN for n in pos.off.values()) and ab.moves(pos):
            return None
        mover = ab.other(pos.turn)
        if pos.off[mover] >= ab.WIN:
            reason, winner = "pushed-off", mover
        else:
            reason, winner = "no-move", mover
        score = {"black": "1-0", "white": "0-1"}[winner]
        return f"{score} {reason} {pos.off['black']}-{pos.off['white']}"


ADAPTERS = {"bigballs": BigBalls, "offboard": OffBoard, "abalone": Abalone}


# ---------------------------------------------------------------------------------------------
# The table: the pieces on the switches, what the hands hold, the clock and the trace.


class Table:
    def __init__(self, pieces: dict, rng: random.Random) -> None:
        self.board = dict(pieces)  # cell -> piece
        self.hand: dict = {}  # key -> piece held (or set aside)
        self.rng = rng
        self.t = 0.0
        self.events: list[dict] = [{"t": 0.0, "occupied": sorted(self.board)}]
        self.baseline = frozenset(self.board)
        self.touched: set = set()  # seen empty since the board last equalled the baseline
        self.since_commit: set = set()  # seen empty since the last commit
        self.watchers: list = []  # called with each steady frame

    def occupied(self) -> frozenset:
        return frozenset(self.board)

    def _frame(self, steady: bool = True) -> None:
        self.events.append({"t": round(self.t, 4), "occupied": sorted(self.board)})
        if steady:
            self._steady()

    def _steady(self) -> None:
        now = self.occupied()
        if now == self.baseline:
            self.touched.clear()
        for watch in list(self.watchers):
            watch(self, now)

    def commit(self, occupied: frozenset) -> None:
        """The players' understanding: the referee has taken a move (or an undo) now."""
        self.baseline = occupied
        self.since_commit = set()
        if self.occupied() == occupied:
            self.touched.clear()

    def wait(self, seconds: float) -> None:
        self.t += seconds

    def lift(self, cell: str, key) -> None:
        self.hand[key] = self.board.pop(cell)
        self.touched.add(cell)
        self.since_commit.add(cell)
        self._frame()

    def place(self, cell: str, key) -> None:
        assert cell not in self.board, cell
        self.board[cell] = self.hand.pop(key)
        self._frame()

    def press(self, roll: int) -> None:
        self.events.append({"t": round(self.t, 4), "press": "die", "roll": roll})

    def slide(self, relocations, flicker: list, stagger: float) -> None:
        """Every piece of the move at once, in one motion: a cell that is left and filled again
        at the same moment never opens (or flickers open for a few ms, under the debounce)."""
        moving = {s: self.board[s] for s, _ in relocations if s is not None}
        for s in moving:
            del self.board[s]
        arrivals = {d: moving[s] if s is not None else self.hand.pop(("hand", d))
                    for s, d in relocations if d is not OFF}
        for s, d in relocations:
            if d is OFF:
                self.hand[s] = moving[s]  # beside the board
        opened = [s for s in moving if s not in arrivals]
        for cell in opened:
            self.touched.add(cell)
            self.since_commit.add(cell)
        if stagger > 0:  # the cells left open a few ms before the others close
            self._frame(steady=False)
            self.t += stagger
        self.board.update(arrivals)
        self._frame(steady=False)
        for cell in flicker:  # one switch lets go for 2-6 ms as a piece replaces another
            self.t += 0.001
            piece = self.board.pop(cell)
            self._frame(steady=False)
            self.t += self.rng.uniform(0.002, 0.006)
            self.board[cell] = piece
            self._frame(steady=False)
        self._steady()


# ---------------------------------------------------------------------------------------------
# People.


@dataclass
class Personality:
    speed: float  # scale of the hand steps (0.1-0.6 s each)
    slide: float  # moves a line or a capture in one motion
    flicker: float  # ... letting a switch flicker as it does
    touch: float  # touches a piece and puts it back before moving
    hold: float  # holds a piece while thinking (1-5 s) and puts it back
    hesitate: float  # holds the first piece of the move while thinking, then goes on
    illegal: float  # puts a piece wrong, then fixes it
    takeback: float
    amend: float  # stops half-way through a move made in steps, then goes on
    early: float  # starts own turn before the last move has settled
    press_first: float  # Big Balls: rolls rather than moves a big ball
    # Hands fewer people have (drawn by `hands`, on their own random numbers, so that a game in
    # which none of them happens is played exactly as without them):
    two_hands: float = 0.0  # starts own turn while the other still puts the last piece down (rule 10)
    set_down: float = 0.0  # sets a piece down for a moment on a hollow on its way (rule 2)
    pauses: float = 0.0  # takes a whole line in hand, puts it down ball by ball, pausing (rules 2-3)
    seen_push: float = 0.0  # Off Board: lifts the ball off into a full sector first; its owner puts it back
    quick_press: float = 0.0  # Big Balls: presses the die as soon as the other's move lands (rule 2)
    page_push: float = 0.0  # pushes as the board's words say: the pushed balls on, then the back ball

    def hands(self, rng: random.Random) -> None:
        def q(share: float, top: float) -> float:
            return rng.uniform(top / 4, top) if rng.random() < share else 0.0

        self.two_hands = q(0.1, 0.25)
        self.set_down = q(0.08, 0.3)
        self.pauses = q(0.08, 0.3)
        self.seen_push = q(0.15, 1.0)
        self.quick_press = q(0.1, 0.4)
        self.page_push = q(0.1, 0.6)

    @classmethod
    def draw(cls, rng: random.Random) -> Personality:
        def p(top: float) -> float:
            return rng.choice((0.0, rng.uniform(0, top), rng.uniform(0, top)))

        return cls(
            speed=rng.uniform(0.6, 1.0),
            slide=p(0.7),
            flicker=rng.uniform(0, 1),
            touch=p(0.25),
            hold=p(0.2),
            hesitate=p(0.25),
            illegal=p(0.15),
            takeback=p(0.12),
            amend=p(0.3),
            early=p(0.8),
            press_first=rng.uniform(0.4, 0.9),
        )


@dataclass
class Move:
    """One move of the record as the players made it."""

    before: object  # the position it was made from
    shape: Shape
    roll: int | None
    kinds: set  # what the hands did
    held: bool = False  # left as a piece in the hand (no evidence touched): commits when the next player starts
    aside: dict = field(default_factory=dict)  # cell -> piece taken off the board by it


def part_of(n: Shape, after: frozenset, board: frozenset, first: Shape) -> bool:
    """Rule 10: whether the board is `after` (the board the move `first` left) with part of the
    move n made beside it: n's pieces lifted, some put down where n puts them, none of first's
    hollows touched."""
    gone, added = after - board, board - after
    return (bool(gone) and not (gone | added) & first.cells and gone <= n.cells and added <= n.cells
            and added <= n.result and len(added) <= len(gone))


class KeptRolls:
    """Rule 7 and R4: the numbers kept over takebacks, each player's in the order of their turns;
    the first of a player's shows as soon as it is their turn."""

    def __init__(self) -> None:
        self.queues: dict[str, list[int]] = {}

    def get(self, player: str) -> int | None:
        queue = self.queues.get(player)
        return queue[0] if queue else None

    def __contains__(self, player: str) -> bool:
        return bool(self.queues.get(player))

    def __bool__(self) -> bool:
        return any(self.queues.values())

    def __len__(self) -> int:
        return sum(1 for queue in self.queues.values() if queue)

    def pop(self, player: str, default=None) -> int | None:
        queue = self.queues.get(player)
        return queue.pop(0) if queue else default

    def first(self, player: str, roll: int) -> None:
        """A number for the player's next turn, before any kept for later turns."""
        self.queues.setdefault(player, []).insert(0, roll)

    def drop(self, player: str) -> None:
        self.queues.pop(player, None)


@dataclass
class Game:
    seed: int
    game: str
    header: dict
    events: list
    record: list  # the record the players meant
    kinds: list  # per move line of the record: what the hands did (sorted), for the diagnosis
    unclear: list  # where the recognition rules do not say what must happen (then the game is no promise)
    checkpoints: list  # (events so far, record so far) at quiet moments, for shrinking a failing game

    @property
    def promised(self) -> bool:
        return not self.unclear

    def trace_text(self, events: list | None = None) -> str:
        lines = [json.dumps(self.header)] + [json.dumps(e) for e in (self.events if events is None else events)]
        return "\n".join(lines) + "\n"

    def write(self, path: Path, events: list | None = None) -> Path:
        path = Path(path)
        path.write_text(self.trace_text(events), encoding="utf-8")
        return path


def reversed_relocations(relocations) -> tuple:
    """A move's relocations undone: pieces go back, captured ones come back from beside the board."""
    back = []
    for s, d in relocations:
        back.append((None if d is OFF else d, OFF if s is None else s))
    return tuple(back)


def key_of(relocation) -> object:
    s, d = relocation
    return s if s is not None else ("hand", d)


class Players:
    """Two people playing one game at the table; `play()` gives the Game."""

    MAX_MOVES = {"bigballs": 40, "offboard": 36, "abalone": 30}

    def __init__(self, game: str, seed: int, max_moves: int | None = None, explore: bool = False) -> None:
        self.rng = random.Random(f"{game}:{seed}")
        self.explore = explore  # also hands the rules make no promise about (they mark the game unclear)
        self.seed = seed
        self.name = game
        self.adapter = ADAPTERS[game](self.rng)
        self.pos = self.adapter.start
        players = ("red", "yellow") if game == "offboard" else ("black", "white")
        self.people = {p: Personality.draw(self.rng) for p in players}
        self.chance = random.Random(f"{game}:{seed}:hands")  # the rarer hands' own random numbers
        for person in self.people.values():
            person.hands(self.chance)
        self.table = Table(self.adapter.pieces(self.pos), self.rng)
        self.history: list[Move] = []
        self.kept = KeptRolls()  # the numbers kept over takebacks (rule 7, R4)
        self.unclear: list[str] = []
        self.checkpoints: list = []
        self.cap = self.rng.randint(3, max_moves or self.MAX_MOVES[game])
        if random.Random(f"{game}:{seed}:length").random() < 0.1:
            self.cap *= 4  # now and then a long game, played to its end more often
        self.takeback_later: list | None = None  # [moves still to come, moves to take back then]
        self.holes = set(self.HOLES[game])
        self.known: dict = {}  # the legal moves of the positions met, by (id, roll)
        self.pending: dict | None = None  # the next player's move begun while the last was put down
        self.put_back_next: Move | None = None  # a push into a full sector whose ball its owner puts back

    # -- what the rules say about a board ---------------------------------------------------------

    def shapes(self, pos, roll) -> list[Shape]:
        key = (id(pos), roll)  # positions are never changed once made; the entry keeps pos alive
        if key not in self.known:
            self.known[key] = (pos, self.adapter.shapes(pos, roll))
        return self.known[key][1]

    def ended(self, pos) -> str | None:
        """The result line if the game is over in this position."""
        key = ("end", id(pos))
        if key not in self.known:
            self.known[key] = (pos, self.adapter.result_line(pos))
        return self.known[key][1]

    def occ(self, pos) -> frozenset:
        return frozenset(self.adapter.pieces(pos))

    def at_once(self, shapes: list[Shape], shape: Shape, before: frozenset) -> bool:
        """Rule 3: no other candidate can still grow out of this result (judged generously)."""
        return not any(plausible_on_the_way(s, before, shape.result) for s in shapes if s.text != shape.text)

    def held_allowed(self, shapes: list[Shape], shape: Shape) -> bool:
        """Rule 2: a capture left as a piece in the hand is committed later only when exactly one
        capture explains that board."""
        return bool(shape.evidence) and sum(s.result == shape.result for s in shapes) == 1

    def note(self, text: str) -> None:
        if text not in self.unclear:
            self.unclear.append(text)

    def uses(self, chance: float) -> bool:
        """Whether a person does one of the rarer hands now (drawn on the rarer hands' numbers)."""
        return chance > 0 and self.chance.random() < chance

    def after(self, pos, shape: Shape):
        key = ("after", id(pos), shape.text)
        if key not in self.known:
            self.known[key] = (pos, self.adapter.apply(pos, shape))
        return self.known[key][1]

    def check_colours(self) -> None:
        """The pieces on the table, cell by cell, are the position's (colours in Off Board and
        Abalone, numbered stones and big balls in Big Balls), however the hands moved them."""
        want = self.adapter.pieces(self.pos)
        assert self.table.board == want, (self.seed, sorted(set(self.table.board.items()) ^ set(want.items())))

    # -- hands ------------------------------------------------------------------------------------

    def step(self, person: Personality) -> None:
        self.table.wait(self.rng.uniform(0.1, 0.6) * person.speed)

    def apart(self, relocations, person: Personality, hesitate: bool, occupied=None) -> list:
        """A random order in which hands can make these relocations one piece at a time: a piece
        is put down only where the cell is free, and captured pieces go beside the board."""
        occupied = set(self.table.occupied() if occupied is None else occupied)
        todo = list(relocations)
        lifted = {key_of(r) for r in todo if r[0] is None}
        placed: set = set()
        actions: list = []
        first = True
        while len(placed) < len(todo):
            lifts = [r for r in todo if r[0] is not None and key_of(r) not in lifted]
            places = [r for r in todo if key_of(r) in lifted and key_of(r) not in placed
                      and (r[1] is OFF or r[1] not in occupied)]
            if places and (not lifts or self.rng.random() < 0.6):
                r = self.rng.choice(places)
                placed.add(key_of(r))
                if r[1] is not OFF:
                    actions.append(("place", r[1], key_of(r)))
                    occupied.add(r[1])
            else:
                r = self.rng.choice(lifts)
                lifted.add(key_of(r))
                occupied.discard(r[0])
                actions.append(("lift", r[0], key_of(r)))
                if first and hesitate:
                    actions.append(("wait", self.rng.uniform(1.0, 5.0)))
                first = False
        return actions

    def run(self, actions: list, person: Personality, pause_at=None, looks_held=None, hook=None) -> set:
        """Carry the actions out with the hands' timing; `pause_at` (shapes) lets the person stop
        for a while where the board shows another legal move's result (an amendment follows);
        `hook(n, action, when)` looks at the board just "before" and "after" each action."""
        kinds = set()
        for n, action in enumerate(actions):
            what = action[0]
            if what == "wait":
                self.table.wait(action[1])
                continue
            self.step(person)
            if hook is not None:
                hook(n, action, "before")
            if what == "press":
                self.table.press(action[1])
            elif what == "lift":
                self.table.lift(action[1], action[2])
            elif what == "place":
                self.table.place(action[1], action[2])
            elif what == "slide":
                self.table.slide(action[1], action[2], action[3])
            if hook is not None:
                hook(n, action, "after")
            if looks_held and n < len(actions) - 1:
                now = self.table.occupied()
                if any(s.result == now and not s.evidence <= self.table.touched for s in looks_held):
                    kinds.add("passes through a held capture's board on the way")
            if pause_at and what == "place" and n < len(actions) - 1 and self.rng.random() < person.amend:
                now = self.table.occupied()
                shorter = [s for s in pause_at if matches(s, now, frozenset(self.table.touched))]
                # a move that ends the game ends it at once (the rules' "wins at once"): nobody
                # amends it, so nobody stops there meaning to go on
                if shorter and not any(self.ended(self.after(self.pos, s)) for s in shorter):
                    self.table.wait(self.rng.uniform(SETTLE + 0.2, 2.2))
                    self.table.commit(now)
                    kinds.add("amend")
        return kinds

    # -- watching for boards the rules leave open -------------------------------------------------

    def watch_amend(self, previous: Move, replacing: Shape | None = None):
        """While the next player moves: a board that equals another result of the last move's
        position (with its evidence since the commit) could be read as an amendment (rule 3);
        not the board of a re-placement after a push whose ball was seen leaving (`replacing`):
        that is the next player's (rule 2)."""
        others = [s for s in self.shapes(previous.before, previous.roll) if s.text != previous.shape.text]

        def watch(table: Table, now: frozenset) -> None:
            if replacing is not None and now == replacing.result:
                return
            if any(s.result == now and s.evidence <= table.since_commit for s in others):
                self.note("next player's board equals another result of the last move's position (amend or start?)")

        return watch

    def watch_amend_over_held(self, mine: Move, opened: frozenset):
        """After the other player's quick swap, while this player starts: a board that is this
        player's own last move changed into another from its position, with its evidence seen
        since it counted, is that amendment (R7: the mover going on beats a capture nobody saw)."""
        others = [s for s in self.shapes(mine.before, mine.roll) if s.text != mine.shape.text]

        def watch(table: Table, now: frozenset) -> None:
            if any(s.result == now and s.evidence <= opened | table.since_commit for s in others):
                self.note("after a quick swap the board is also the mover's own move before it amended (R7)")

        return watch

    def watch_takeback(self, current: list[Shape], previous: Move, amending: bool = False):
        """While a move is taken back (or moved on, `amending`): a board that is a legal move's
        result could be read as that move."""
        others = [] if amending else [s for s in self.shapes(previous.before, previous.roll)
                                      if s.text != previous.shape.text]

        back = self.occ(previous.before)
        involved = previous.shape.cells

        def watch(table: Table, now: frozenset) -> None:
            fits = [s for s in current if matches(s, now, frozenset(table.touched))]
            if fits and not amending and now == back:
                # Back on the position before the last move, which is a legal move's result too
                # (R8): the takeback when the hands opened a hollow the last move involved and
                # the new move does not.
                if not all(table.since_commit & involved - s.cells for s in fits):
                    self.note("a takeback ends on a legal move's result with nothing to tell them apart (R8)")
            elif fits:
                self.note("a takeback passes through a legal move's result on the way")
            # A board on the way that is a capture held by the player to move is the takeback
            # under way, not a quick swap (R13): nothing to note.
            if any(s.result == now and s.evidence <= table.since_commit for s in others):
                # read as an amendment, then undone all the same: the record does not change
                self.carried.setdefault(self.adapter.turn(previous.before), set()).add(
                    "moves again after a takeback that passed through another result")

        return watch

    # -- a turn -----------------------------------------------------------------------------------

    HOLES = {"bigballs": bb.HOLLOWS, "offboard": ob.HOLES, "abalone": ab.HOLES}

    def choose(self, shapes: list[Shape]) -> Shape:
        """Players like captures and pushes, and walk towards the other side's pieces."""
        player = self.adapter.turn(self.pos)
        board = self.table.board
        theirs = [c for c, piece in board.items()
                  if c in self.holes and not self.adapter.owns(self.pos, player, piece)]
        near = self.nearness(theirs) if self.name != "bigballs" and theirs else None
        occupied = frozenset(board)
        weights = []
        for s in shapes:
            pushed = any(c in theirs for c, _ in s.relocations if c is not None)
            off = any(d is OFF or str(d)[0] == "S" for _, d in s.relocations)  # off the board, or into a sector
            weight = 1 + 12 * bool(s.evidence) + 6 * pushed + 6 * off
            if near and not pushed:
                gained = [near[c] for c in s.result - occupied if c in near]
                left = [near[c] for c in occupied - s.result if c in near]
                weight += 3 * bool(gained and left and min(gained) < min(left))
            weights.append(weight)
        return self.rng.choices(shapes, weights)[0]

    def nearness(self, theirs: list[str]) -> dict:
        """Every hole's distance (in steps) to the nearest of the other side's pieces."""
        rows = "ABCDEFGHI"
        at = {h: (rows.index(h[0]), int(h[1:])) for h in self.holes}
        found = {}
        for h in self.holes:
            r1, c1 = at[h]
            found[h] = min(max(abs(r1 - r2), abs(c1 - c2), abs(r1 - r2 - c1 + c2))
                           for r2, c2 in (at[t] for t in theirs))
        return found

    def own_cells(self, player: str) -> list[str]:
        holes = set(self.HOLES[self.name])
        return sorted(c for c, piece in self.table.board.items()
                      if c in holes and self.adapter.owns(self.pos, player, piece))

    def plan_turn(self, player: str, person: Personality, previous: Move | None,
                  rolled: int | None = None, press_now: bool = False) -> dict:
        """The player's move and how the hands make it. Big Balls: `rolled`, a number the player
        pressed for already; `press_now`, the player presses the die before anything else."""
        pos, rng = self.pos, self.rng
        kinds: set = set()
        roll = self.kept.get(player)
        press = False
        if self.name == "bigballs":
            if rolled is not None:
                roll = rolled
            elif roll is not None:
                kinds.add("moves with a kept roll")
            elif press_now:
                roll, press = rng.randint(1, 6), True
            else:
                balls = self.shapes(pos, None)
                want = bool(pos.stones(player)) and (not balls or rng.random() < person.press_first)
                if want and self.kept and balls:
                    want = False  # the other player's roll is kept: a big-ball move asks nothing of the die
                if want and self.kept:
                    self.note("a press while the other player's roll is kept")
                if want:
                    roll, press = rng.randint(1, 6), True
        if roll is not None and rolled is None and self.name == "bigballs" and not pos.stones(player):
            self.kept.drop(player)  # no stone left to roll for: the number kept is dropped (R4)
            roll = None
        shapes = self.shapes(pos, roll)
        if not shapes:
            self.note("no legal move for the roll kept")
            roll, press = None, False
            shapes = self.shapes(pos, None)
        shape = self.choose(shapes)
        special = None  # one of the rarer hands, for the whole move
        if self.name == "offboard" and self.uses(person.seen_push):
            full = [s for s in shapes if any(d is OFF for _, d in s.relocations)]
            if full:  # a push into a full sector, its ball lifted off first (rule 2's evidence)
                shape, special = self.chance.choice(full), "seen push"
        if special is None and self.name != "bigballs" and self.uses(person.page_push):
            page = self.adapter.as_the_page_says(pos, shape)
            if page is not None:
                shape, special = page, "page"
                kinds.add("pushed as the page's words say")
        after = self.adapter.apply(pos, shape)
        final = self.ended(after) is not None or len(self.history) + 1 >= self.cap

        before: list = []
        if press and not press_now and rng.random() < person.illegal:
            before += self.stone_before_roll(player, kinds, previous)
        if press:
            before.append(("press", roll))
        if rng.random() < person.touch:
            cell = rng.choice(self.own_cells(player))
            before += [("lift", cell, "touch"), ("place", cell, "touch")]
            kinds.add("touch and put back")
        if rng.random() < person.hold:
            board = self.table.board
            sources = sorted({c for s in shapes for c, _ in s.relocations
                              if c is not None and self.adapter.owns(pos, player, board[c])})
            if sources:
                cell = rng.choice(sources)
                before += [("lift", cell, "hold"), ("wait", rng.uniform(1.0, 5.0)), ("place", cell, "hold")]
                kinds.add("holds a piece while thinking, puts it back")

        moving = [r for r in shape.relocations if r[0] is not None]
        slide = bool(moving) and rng.random() < person.slide and special is None
        if slide and shape.evidence and (final or not self.held_allowed(shapes, shape)):
            slide = False
        if slide:
            both = sorted({s for s, _ in moving} & {d for _, d in shape.relocations})
            flicker = [c for c in both if rng.random() < person.flicker * 0.5]
            stagger = rng.choice((0.0, rng.uniform(0.002, 0.015)))
            actions = [("slide", shape.relocations, flicker, stagger)]
            kinds.add("quick swap" if shape.evidence else "slid")
            if flicker:
                kinds.add("switch flickers under the debounce")
        else:
            hesitate = rng.random() < person.hesitate
            actions = self.apart(shape.relocations, person, hesitate)
            if hesitate:
                kinds.add("holds the first piece while thinking")
            if len(moving) > 1:
                kinds.add("taken apart")
            if special == "page":
                actions = self.as_the_words_go(shape)
            elif special == "seen push":
                actions = self.pushed_ball_first(shape, person)
                kinds.discard("holds the first piece while thinking")
                kinds.add("a push into a full sector seen, then the ball put back")
            elif special is None and self.uses(person.pauses) and (paused := self.line_in_hand(shape)):
                actions, special = paused, "pauses"
                kinds.discard("holds the first piece while thinking")
                kinds.add("pauses with the line in the hand")
            elif special is None and self.uses(person.set_down) and (set_down := self.set_down(shape, actions)):
                actions, special = set_down, "set down"
                kinds.add("set down on the way")
            elif rng.random() < person.illegal:
                actions = self.wrong_then_right(actions, shapes, shape, previous, kinds)
        if shape.evidence and not slide:
            kinds.add("capture, lifted in turn")
        return {"roll": roll, "press": press, "shape": shape, "shapes": shapes, "before": before,
                "actions": actions, "kinds": kinds, "held": slide and bool(shape.evidence), "slide": slide,
                "final": final, "after": after, "special": special}

    @staticmethod
    def as_the_words_go(shape: Shape) -> list:
        """A push as the board's words say it, in their order: the back ball of the line lifted
        and kept in the hand, the pushed balls moved one by one (one off the board goes aside),
        then the back ball put in the hole the ball next to the line left."""
        *theirs, (tail, hole) = shape.relocations
        actions = [("lift", tail, tail)]
        for s, d in theirs:
            actions.append(("lift", s, s))
            if d is not OFF:
                actions.append(("place", d, s))
        return actions + [("place", hole, tail)]

    def pushed_ball_first(self, shape: Shape, person: Personality) -> list:
        """Off Board: the ball pushed towards a full sector lifted off the board first (its hole
        seen empty), then the pusher's line moves in, slid in one motion or ball by ball."""
        gone = next(s for s, d in shape.relocations if d is OFF)
        rest = tuple(r for r in shape.relocations if r[1] is not OFF)
        if self.chance.random() < 0.5:
            return [("lift", gone, gone), ("slide", rest, [], 0.0)]
        return [("lift", gone, gone)] + self.apart(rest, person, False, self.table.occupied() - {gone})

    def line_in_hand(self, shape: Shape) -> list | None:
        """Off Board and Abalone: the pusher and every ball of the line lifted, the whole line in
        the hand; then the front ball put down, a pause of 1-2 s, the next, a pause, ..., the last
        (a pushed ball over the rim goes aside, or into its sector). None if the move is no line
        of two or more balls moving along itself."""
        if self.name == "bigballs" or len(shape.relocations) < 2 or any(s is None for s, _ in shape.relocations):
            return None
        sources = {s for s, _ in shape.relocations}
        fronts = [r for r in shape.relocations if r[1] is OFF or r[1] not in sources]
        if len(fronts) != 1:
            return None  # a broadside step: no line
        chain = fronts
        while len(chain) < len(shape.relocations):
            behind = [r for r in shape.relocations if r[1] == chain[-1][0]]
            if len(behind) != 1:
                return None
            chain.append(behind[0])
        actions = [("lift", s, s) for s, _ in reversed(chain)]
        down = [r for r in chain if r[1] is not OFF]
        for n, (s, d) in enumerate(down):
            if n:
                actions.append(("wait", self.chance.uniform(1.0, 2.0)))
            actions.append(("place", d, s, "pause" if n < len(down) - 1 else None))
        return actions

    def set_down(self, shape: Shape, actions: list) -> list | None:
        """A piece set down for a moment (about half a second, always within the settle time: R16)
        on a free hollow on its way, next to where it goes (Big Balls: a capturer, lifted with its
        victim, set down by the victim's hollow), then put where it belongs. None where there is
        no such hollow."""
        if self.name == "bigballs" and not shape.evidence:
            return None
        occupied = set(self.table.occupied())
        options = []
        for n, action in enumerate(actions):
            if action[0] == "lift":
                occupied.discard(action[1])
            elif action[0] == "place":
                cell, key = action[1], action[2]
                if cell in self.holes and not isinstance(key, tuple):
                    near = [c for c in self.adapter.neighbours(cell)
                            if c not in occupied and c not in shape.cells]
                    passed = [c for c in near if c in self.adapter.neighbours(key)]
                    if passed or near:
                        options.append((n, passed or near))
                occupied.add(cell)
        if not options:
            return None
        n, near = self.chance.choice(options)
        key = actions[n][2]
        way = self.chance.choice(sorted(near))
        return actions[:n] + [("place", way, key, "set down"), ("wait", self.chance.uniform(0.05, 0.15)),
                              ("lift", way, key)] + actions[n:]

    def on_the_way(self, shape: Shape, shapes: list[Shape], previous: Move | None, kinds: set):
        """While a piece is set down on the way, or the hands pause with balls in them: a board
        that is another move's result may be taken for it (rules 1 and 3: at once, or after the
        settle time) and then amended into the move meant (rule 3), which the rules promise only
        for a plain move, and only when the board shown leaves the next player nothing to put
        back; a pause on the position before the last move is a takeback (rule 7)."""
        def hook(n: int, action: tuple, when: str) -> None:
            if when != "after" or len(action) < 4 or action[3] is None:
                return
            now = self.table.occupied()
            touched = frozenset(self.table.touched)
            shown = [s for s in shapes if s.text != shape.text and matches(s, now, touched)]
            if shown and (shape.evidence or any(s.evidence for s in shown)):
                self.note("a board on the way shows another move, and one of the two is a capture (amended?)")
            elif shown:
                kinds.add("amended: a board on the way showed another move")
            if action[3] == "pause" and previous is not None and now == self.occ(previous.before):
                self.note("a pause on the way shows the position before the last move (a takeback?)")

        return hook

    def stone_before_roll(self, player: str, kinds: set, previous: Move | None = None) -> list:
        """Big Balls: a stone moved before the roll (rule 5), then put back; not where the board
        it leaves is another move of a held capture's player and part of this one (rule 10)."""
        options = []
        board = self.table.occupied()
        for number, cell in sorted(self.pos.stones(player).items()):
            for direction in bb.STONE_DIRECTIONS:
                target = bb.neighbour(cell, direction)
                if target is not None and target not in self.pos.board and target not in board:
                    wrong = (board - {cell}) | {target}
                    if previous is not None and previous.held and self.after_another(previous, wrong):
                        continue
                    options.append((cell, target))
        if not options:
            return []
        cell, target = self.rng.choice(options)
        late = self.rng.random() < 0.5
        pause = self.rng.uniform(1.8, 3.5) if late else self.rng.uniform(0.05, 0.8)
        kinds.add("stone moved before the roll, put back " + ("after the grace" if late else "within the grace"))
        return [("lift", cell, "early"), ("place", target, "early"), ("wait", pause),
                ("lift", target, "early"), ("place", cell, "early")]

    def wrong_then_right(self, actions: list, shapes: list[Shape], shape: Shape, previous, kinds: set) -> list:
        """The last piece put down on a wrong free hole first (an illegal state), then moved to
        where it belongs, within the grace time or after it (rule 5)."""
        places = [i for i, a in enumerate(actions) if a[0] == "place"]
        if not places:
            return actions
        last = places[-1]
        cell, key = actions[last][1], actions[last][2]
        others = list(shapes)
        if previous is not None:
            others += [s for s in self.shapes(previous.before, previous.roll) if s.text != previous.shape.text]
        earlier = {self.occ(m.before) for m in self.history}
        free = [h for h in self.HOLES[self.name] if h not in shape.result and h != cell]
        self.rng.shuffle(free)
        for wrong in free[:12]:
            board = (shape.result - {cell}) | {wrong}
            if any(s.result == board for s in others) or board in earlier:
                continue  # that would be a move, an amendment or a takeback
            if any(len(board ^ s.result) == 1 for s in shapes if s.evidence):
                continue  # that would be a held capture and the next player's lift or placement (rule 2)
            if self.two_moves_explain(shapes, board, part=True):
                continue  # a legal move and (part of) the next player's: never signalled as illegal (rule 10)
            if previous is not None and previous.held and self.after_another(previous, board):
                continue  # the held move not yet counted: another of its moves and part of this one (rule 10)
            late = self.rng.random() < 0.5
            pause = self.rng.uniform(1.8, 3.2) if late else self.rng.uniform(0.05, 0.8)
            kinds.add("illegal state put right " + ("after the grace" if late else "within the grace"))
            return actions[:last] + [("place", wrong, key), ("wait", pause), ("lift", wrong, key),
                                     ("place", cell, key)] + actions[last + 1:]
        return actions

    def answer_if_asked(self, plan: dict, shape: Shape, previous: Move | None, kinds: set) -> None:
        """Rule 6: where several moves fit the board the hands leave, each with its victim seen
        (after a held capture, every hollow these hands opened since counts as seen: R3), the
        board asks; the player lifts and puts back a piece of their move that no other of them
        moved."""
        table = self.table
        board = table.occupied()
        seen = frozenset(table.since_commit if previous is not None and previous.held else table.touched)
        fits = [s for s in plan["shapes"] if s.result == board and s.evidence <= seen]
        if len(fits) < 2 or shape not in fits:
            return
        others = set().union(*(s.cells for s in fits if s is not shape))
        mine = sorted((shape.cells & board) - others)
        if not mine:
            self.note("several moves fit the board and no piece tells the one made apart")
            return
        cell = self.chance.choice(mine)
        # the question comes once the board has been still for the settle time; after a quick
        # swap of the other player's, which counts only then (R16), their move waits as long again
        table.wait(SETTLE * (2 if previous is not None and previous.held else 1) + self.chance.uniform(0.3, 0.8))
        table.lift(cell, ("answer", cell))
        table.wait(self.chance.uniform(0.3, 0.6))
        table.place(cell, ("answer", cell))
        kinds.add("asked which move was made, answers with a touch")

    def after_another(self, previous: Move, board: frozenset) -> bool:
        """Whether the board is another move from the position before a held move (which counts
        only when the next player starts, rule 2) followed by (part of) a move of this player's."""
        rolls = [None, *range(1, 7)] if self.name == "bigballs" else [None]
        for other in self.shapes(previous.before, previous.roll):
            if other.text == previous.shape.text:
                continue
            after = self.adapter.apply(previous.before, other)
            now = self.occ(after)
            if any(n.result == board or part_of(n, now, board, other) for roll in rolls for n in self.shapes(after, roll)):
                return True
        return False

    def two_moves_explain(self, shapes: list[Shape], board: frozenset, part: bool = False) -> bool:
        """Rule 10: whether the board is one of these moves followed by a whole move of the next
        player's (with no roll: a big-ball move in Big Balls), or, with `part`, by part of one
        (their pieces lifted, some put down where that move puts them)."""
        before = self.table.occupied()
        for s in shapes:
            if not (board ^ before) & s.cells or not (board ^ before) - s.cells:
                continue  # the board is not this move with another hand beside it
            after = self.adapter.apply(self.pos, s)
            now = self.occ(after)
            if any(n.result == board or (part and part_of(n, now, board, s)) for n in self.shapes(after, None)):
                return True
        return False

    def first_board(self, plan: dict, press: bool = True) -> frozenset | None:
        """The board after the first thing the hands change in this plan (None: a press first,
        unless `press` is False: then the first change after it)."""
        occupied = set(self.table.occupied())
        for action in plan["before"] + plan["actions"]:
            if action[0] == "press" and press:
                return None
            if action[0] == "lift":
                return frozenset(occupied - {action[1]})
            if action[0] == "place":
                return frozenset(occupied | {action[1]})
            if action[0] == "slide":
                relocations = action[1]
                sources = {s for s, _ in relocations if s is not None}
                targets = {d for _, d in relocations if d is not OFF}
                return frozenset((occupied - sources) | targets)
        return None

    def starts_after_held(self, previous: Move, plan: dict, press: bool = True) -> str | None:
        """Rule 2: what of this plan's first action makes it the next player starting after a held
        capture (a press, or a change that only makes sense after that capture); None if it could
        still be the capturer's own doing. A press within the settle time of the held board is no
        start (`press` False): the number is kept for the next player, and their first change
        is what starts them (R17)."""
        first = self.first_board(plan, press)
        if first is None:
            return "the die"
        before = self.occ(previous.before)
        if any(plausible_on_the_way(s, before, first) for s in self.shapes(previous.before, previous.roll)):
            return None
        if len(self.history) >= 2 and first != self.occ(self.history[-2].before) \
                and (first ^ before) <= self.history[-2].shape.cells:
            return None  # on the way back to before the last move counted: a takeback under way (R13)
        opening = next(a for a in plan["before"] + plan["actions"] if a[0] not in ("press", "wait"))
        if opening[0] == "slide":
            return "a whole move in one motion"
        if opening[0] == "lift" and opening[2] in ("touch", "hold"):
            return "a piece lifted and put back"
        return "a placement" if len(first) > len(previous.shape.result) else "a lift"

    def piece_in_hand_set_down(self, previous: Move, plan: dict) -> bool:
        """Whether this move, after two quick swaps in turn (the second begun beside the first with
        a lift or a swap of its own: hollows only emptied), puts a piece where the first swap's
        piece could have gone as a plain move. That piece may still have been in its player's
        hand (rule 10), not swapped (rule 2), and the placement read as it set down: the rules
        do not say which."""
        if len(self.history) < 2 or "quick swap" not in previous.kinds or not any(
                k.startswith(("starts after a held capture with a lift",
                              "starts after a held capture with a whole move in one motion"))
                for k in previous.kinds):
            return False
        first = self.history[-2]
        if "quick swap" not in first.kinds:
            return False
        before = self.occ(first.before)
        emptied = before - first.shape.result
        filled = plan["shape"].result - frozenset(self.table.occupied())
        return any(before - s.result == emptied and s.result - before and s.result - before <= filled
                   for s in self.shapes(first.before, first.roll) if s.text != first.shape.text)

    TWO_HANDS = {
        "lift": "two hands at once: the next player lifts a piece",
        "whole": "two hands at once: the next player makes a whole move",
        "press": "two hands at once: the next player presses the die",
    }

    def two_hands(self, plan: dict) -> dict | None:
        """Rule 10: the next player does not wait for the mover's hand to leave the board. They lift
        the first piece of their own move, or make a whole move, or (Big Balls) press the die,
        after the mover's first change and before the mover's last placement. Their move needs
        none of the mover's cells (two hands do not reach for one piece). Returns what they began
        (the mover's actions with theirs in among them), or None."""
        after, shape = plan["after"], plan["shape"]
        nxt = self.adapter.turn(after)
        person = self.people[nxt]
        if (plan["slide"] or plan["final"] or plan["special"] or self.kept or self.takeback_later
                or self.last == "held" or any(k.startswith("illegal") for k in plan["kinds"])):
            return None
        actions = plan["actions"]
        places = [n for n, a in enumerate(actions) if a[0] == "place"]
        if not places or places[-1] == 0 or not self.uses(person.two_hands):
            return None
        ways = ["lift", "whole"] + (["press"] if self.name == "bigballs" and after.stones(nxt) else [])
        way = self.chance.choice(ways)
        theirs, roll, begun, rest = None, None, [], []
        if way == "press":
            roll = self.chance.randint(1, 6)
            begun = [("press", roll)]
        else:
            options = [s for s in self.shapes(after, None)
                       if not s.text.startswith("+") and not s.cells & shape.cells]
            if not options:
                return None
            theirs = self.chance.choice(options)
            hands = self.apart(theirs.relocations, person, hesitate=False)
            begun, rest = (hands[:1], hands[1:]) if way == "lift" else (hands, [])
        slots = sorted(self.chance.randint(1, places[-1]) for _ in begun)
        merged, first, k = [], None, 0
        for n, action in enumerate(actions):
            while k < len(begun) and slots[k] == n:
                first = len(merged) if first is None else first
                merged.append(begun[k])
                k += 1
            merged.append(action)
        plan["actions"] = merged
        return {"way": way, "kind": self.TWO_HANDS[way], "first": first, "shape": theirs, "roll": roll,
                "rest": rest, "player": nxt, "before": self.pos, "mover roll": plan["roll"], "meant": shape}

    def readings(self, both: dict, frame: frozenset, touched: frozenset) -> set:
        """What the board can be taken for, from the position before the mover's move: one move of
        the mover (its evidence seen), or a move of the mover followed by a whole move of the next
        player (its evidence seen). The mover's move may be a capture nobody saw (a quick swap),
        unless a capture leaving the same board was seen. A number pressed while the mover had
        none could be the mover's own roll. Tuples of shapes."""
        before, nxt = both["before"], both["player"]
        rolls = [both["mover roll"]]
        if both["roll"] is not None and both["mover roll"] is None:
            rolls.append(both["roll"])
        found = set()
        for roll in rolls:
            mine = self.shapes(before, roll)
            seen = {m.result for m in mine if m.evidence <= touched}
            for m in mine:
                if m.result == frame:
                    if m.evidence <= touched:
                        found.add((m,))
                    continue
                if len(m.result ^ frame) > 8 or (m.result in seen and not m.evidence <= touched):
                    continue
                after = self.after(before, m)
                pieces = self.adapter.pieces(after)
                if not all(self.adapter.owns(after, nxt, pieces[c]) for c in m.result - frame):
                    continue  # the next player's move empties only cells of their own pieces
                if self.ended(after) is not None:
                    continue
                for n in self.shapes(after, both["roll"]):
                    if n.result == frame and n.evidence <= touched:
                        found.add((m, n))
        return found

    def watch_two_hands(self, both: dict):
        """Every board from the mover's first change until both moves are down, with its time."""
        both["frames"] = []

        def watch(table: Table, now: frozenset) -> None:
            both["frames"].append((table.t, now, frozenset(table.touched)))

        return watch

    def two_hands_start(self, both: dict):
        """Marks where the next player's hands come in (their first change, or the press)."""
        def hook(n: int, action: tuple, when: str) -> None:
            if n == both["first"] and when == "before":
                both["first frame"] = len(both["frames"])
                both["first t"] = self.table.t

        return hook

    def two_hands_end(self, both: dict) -> None:
        """Both moves on the board (after a press: the mover's). Rule 10 promises the two moves
        where the board reads one way only:
        - a press is the next player's roll, kept for their turn, while the mover's hand is at
          work: the board changed within the settle time (R17); where the mover had not rolled,
          their big ball going down as their move makes it so (R20);
        - while the mover's part of the board is another move of the mover, the next player's
          hand must not act on it, nor may it rest for the settle time (R11, rule 3);
        - while the mover's part looks like a capture held in the hand (a quick swap), the next
          player's lifts wait, but a placement of theirs, or a board with one left still for the
          settle time, is their start and the swap counts (R16);
        - no board on the way may be a move of the mover, alone or followed by one of the next
          player's, that the move meant cannot grow out of;
        - the last board is the two moves meant, or the same two big-ball moves the other way
          round (the one whose first hollow opened first is the mover's)."""
        self.table.watchers.remove(both["watch"])
        frames, first = both["frames"], both["first frame"]
        before, meant, theirs = both["before"], both["meant"], both["shape"]
        base = self.occ(before)
        cells = theirs.cells if theirs is not None else frozenset()
        if both["way"] == "press":
            t0, board0, touched0 = frames[first - 1]
            if both["mover roll"] is None and any(
                    s.evidence and s.result == board0 and not s.evidence <= touched0
                    for s in self.shapes(before, None)):
                # the mover's big ball in the hand looks like a quick swap: the press is the next
                # player starting after it (R2), not a number kept beside it (R20)
                self.note("two hands at once: the die pressed beside a big ball that looks like a quick swap (R2)")
            looks_held = any(s.evidence and s.result == board0 and not s.evidence <= touched0
                             for s in self.shapes(before, both["mover roll"]))
            if both["first t"] - frames[first - 1][0] >= SETTLE - 0.1 and looks_held:
                # a board held still that long, looking like a capture nobody saw, is a quick swap
                # made: the press is the next player starting (R17). A piece in the hand that no
                # capture's board looks like is still the mover's, however long it is held: the
                # press is the next player's number, or the mover's roll where the mover had not
                # rolled and puts the ball back (R17, R20)
                self.note("two hands at once: the die pressed on a board held still for the settle time (R17)")
        mover = self.shapes(before, both["mover roll"])
        for i in range(first - 1, len(frames) - 1):
            t, board, touched = frames[i]
            mine = board ^ ((board ^ base) & cells)
            if mine == meant.result:
                break
            change = (frames[i + 1][1] ^ board) & cells
            by_next = i == first - 1 or bool(change)
            placing = bool(change & frames[i + 1][1])
            placed = bool((board - base) & cells)
            lasting = frames[i + 1][0] - t >= SETTLE - 0.1
            shown = [s for s in mover if s.text != meant.text and s.result == mine]
            if any(s.evidence <= touched for s in shown):
                if by_next or lasting:
                    self.note("two hands at once on a board that is another move of the mover (R11)")
            elif shown and (placing or (lasting and placed)):
                self.note("two hands at once: the next player's hand beside a piece in the hand that looks like"
                          " a quick swap starts them (R16)")
        for t, board, touched in frames[first:-1]:
            if any(r[0].text != meant.text and not plausible_on_the_way(meant, base, r[0].result)
                   for r in self.readings(both, board, touched)):
                self.note("two hands at once: a board on the way can be read another way too (rule 10)")
        meant_texts = (meant.text,) if theirs is None else (meant.text, theirs.text)
        known = {meant_texts, meant_texts[::-1]}
        readings = self.readings(both, frames[-1][1], frames[-1][2])
        got = {tuple(s.text for s in r) for r in readings}
        if meant_texts not in got:
            self.note("two hands at once: the board is not read as the two moves meant")
        elif got - known:
            self.note("two hands at once: the board can be read another way too (rule 10)")
            self.answer_two_hands(both, [r for r in readings if tuple(s.text for s in r) not in known])

    def answer_two_hands(self, both: dict, others: list) -> None:
        """Rule 10: where two splits fit, the board asks (rule 6); the mover lifts and puts back a
        piece of their move that no other reading's move of theirs involves."""
        meant, board = both["meant"], self.table.occupied()
        theirs = set().union(*(r[0].cells for r in others if r[0].text != both["meant"].text))
        mine = sorted((meant.cells & board) - theirs)
        if not theirs or not mine:
            return
        cell = self.chance.choice(mine)
        self.table.wait(SETTLE + self.chance.uniform(0.3, 0.8))
        self.table.lift(cell, ("answer", cell))
        self.table.wait(self.chance.uniform(0.3, 0.6))
        self.table.place(cell, ("answer", cell))

    def turn(self) -> None:
        rng, table = self.rng, self.table
        player = self.adapter.turn(self.pos)
        person = self.people[player]
        previous = self.history[-1] if self.history else None
        kinds = set(self.carried.pop(player, set()))
        waited = 0.0  # how long the board stood before this player's hands began
        quick = False  # Big Balls: presses the die as soon as the last move lands
        both, self.pending = self.pending, None
        if both is not None:  # this player began while the last move was still being put down
            kinds.add(both["kind"])
            if both["way"] == "press":
                table.wait(rng.uniform(0.2, 1.0))
                plan = self.plan_turn(player, person, previous, rolled=both["roll"])
            else:
                after = self.adapter.apply(self.pos, both["shape"])
                final = self.ended(after) is not None or len(self.history) + 1 >= self.cap
                plan = {"roll": None, "press": False, "shape": both["shape"],
                        "shapes": self.shapes(self.pos, None), "before": [], "actions": both["rest"],
                        "kinds": set(), "held": False, "slide": False, "final": final, "after": after,
                        "special": "two hands"}
        elif self.put_back_next is not None and previous is self.put_back_next and self.pos.waiting:
            # the pushed ball's owner lets the board stand, then puts the ball back on a free hole
            self.put_back_next = None
            table.wait(self.chance.uniform(2.5, 3.5))
            shapes = self.shapes(self.pos, None)
            shape = self.chance.choice([s for s in shapes if s.text.startswith("+")])
            after = self.adapter.apply(self.pos, shape)
            final = self.ended(after) is not None or len(self.history) + 1 >= self.cap
            cell = shape.relocations[0][1]
            plan = {"roll": None, "press": False, "shape": shape, "shapes": shapes, "before": [],
                    "actions": [("place", cell, ("hand", cell))],
                    "kinds": {"a push into a full sector seen, then the ball put back"}, "held": False,
                    "slide": False, "final": final, "after": after, "special": "put back"}
        elif (self.name == "bigballs" and previous is not None and self.last in ("at-once", "settle", "held")
              and not self.kept and self.pos.stones(player)
              and not any(k.startswith("amend") for k in previous.kinds) and self.uses(person.quick_press)):
            # A press while a move waits out the settle time is the next player starting: the move
            # counts at once (rules 2 and 10); on a quick swap's board, that soon, it is their
            # number kept, and their first change is their start (R17)
            waited, quick = self.chance.uniform(0.1, 0.7), True
            table.wait(waited)
            kinds.add("presses the die within the settle time")
            previous.kinds.add("the next player presses the die within the settle time")
            plan = self.plan_turn(player, person, previous, press_now=True)
        else:
            if previous is None or self.last == "settled":
                table.wait(rng.uniform(0.95, 3.0))
            elif self.last == "held":
                waited = rng.uniform(0.3, 3.0)
                table.wait(waited)
            elif self.last == "at-once" and rng.random() < person.early:
                table.wait(rng.uniform(0.05, 0.7))
                kinds.add("starts before the last move settled")
            elif self.last == "settle" and self.explore and rng.random() < person.early * 0.5:
                table.wait(rng.uniform(0.05, 0.7))
                kinds.add("starts before a move that waits for the settle time has settled")
                previous.kinds.add("the next player starts before it settled (it waits for the settle time)")
                self.note("the next player starts before a move that waits for the settle time has settled")
            else:
                table.wait(rng.uniform(0.95, 3.0))
            plan = self.plan_turn(player, person, previous)
        if self.last == "held":
            press = waited >= SETTLE  # a press sooner is the next player's number kept, no start (R17)
            for _ in range(12):
                start = self.starts_after_held(previous, plan, press)
                if start is not None:
                    break
                plan = self.plan_turn(player, person, previous, press_now=quick)
            if start is None:
                self.note("after a held capture the next player's first change could still be the capturer's")
                start = "an unclear change"
            if self.piece_in_hand_set_down(previous, plan):
                self.note("two quick swaps in turn, the second begun beside the first, then a piece put"
                          " where the first swap's piece could have gone")
            if player in self.kept:
                start += " (their roll kept over a takeback)"
            previous.kinds.add(f"held, then the next player starts with {start}")
            kinds.add(f"starts after a held capture with {start}")
            opened = frozenset(table.since_commit)  # since the move before the held capture counted
            table.commit(previous.shape.result)
        kinds |= plan["kinds"]
        shape = plan["shape"]

        # a re-placement after a push whose ball was seen leaving is the next player's (rule 2)
        replacing = previous is not None and shape.text.startswith("+") and bool(previous.shape.evidence) \
            and not previous.held
        watchers = [self.watch_amend(previous, shape if replacing else None)] if previous is not None else []
        if self.last == "held" and len(self.history) >= 2:
            watchers.append(self.watch_amend_over_held(self.history[-2], opened))
        table.watchers.extend(watchers)
        self.run(plan["before"], person)
        if self.name == "offboard":
            for s, d in shape.relocations:
                if s is None:  # the waiting ball, put back from the hand
                    table.hand[("hand", d)] = ob.COLOUR[player]
        others = [s for s in plan["shapes"] if s.text != shape.text]
        pause_at = None if (plan["slide"] or shape.evidence or plan["special"]) else others
        looks_held = [s for s in others if s.evidence]
        hook = None
        begun = self.two_hands(plan)
        if begun is not None:
            kinds.add(begun["kind"])
            begun["watch"] = self.watch_two_hands(begun)
            table.watchers.append(begun["watch"])
            hook = self.two_hands_start(begun)
        elif plan["special"] in ("pauses", "set down"):
            hook = self.on_the_way(shape, plan["shapes"], previous, kinds)
        kinds |= self.run(plan["actions"], person, pause_at=pause_at, looks_held=looks_held, hook=hook)
        for watch in watchers:
            table.watchers.remove(watch)
        if both is not None and both["way"] == "lift":
            self.two_hands_end(both)
        if begun is not None and begun["way"] != "lift":
            self.two_hands_end(begun)
        board = shape.result
        if begun is not None and begun["way"] == "whole":
            board = begun["shape"].result
        elif begun is not None and begun["way"] == "lift":
            board = shape.result - {plan["actions"][begun["first"]][1]}
        assert table.occupied() == board, (self.seed, shape.text, sorted(table.occupied() ^ board))
        if begun is None and both is None and not plan["held"]:
            self.answer_if_asked(plan, shape, previous, kinds)

        move = Move(self.pos, shape, plan["roll"], kinds, held=plan["held"])
        for s, d in shape.relocations:
            if d is OFF:
                move.aside[s] = table.hand.pop(s)
        table.hand = {k: v for k, v in table.hand.items() if not (isinstance(k, tuple) and k[0] == "hand")}
        if plan["roll"] is not None:
            self.kept.pop(player, None)
        self.history.append(move)
        self.pos = plan["after"]
        if begun is not None:
            # the mover's move counts as the next player's hands go on (rule 10); then theirs
            table.commit(shape.result)
            table.since_commit = {a[1] for a in plan["actions"] if a[0] == "lift" and a[1] not in shape.cells}
            self.pending = begun
            self.last = "two hands"
            return
        self.check_colours()
        if plan["special"] == "seen push":
            self.put_back_next = move
        if move.held:
            self.last = "held"
        else:
            table.commit(shape.result)
            self.last = "at-once" if self.at_once(plan["shapes"], shape, self.occ(move.before)) else "settle"
            if any(k.startswith("amend") for k in kinds):
                self.last = "settle"  # how soon an amendment is taken the rules do not say: let it settle
        if plan["final"]:
            return
        if self.name == "bigballs" and not move.held and rng.random() < person.amend:
            self.amend_bigballs(move, plan["shapes"], person)
        if self.takeback_later and not move.held:
            self.takeback_later[0] -= 1
            if self.takeback_later[0] == 0:
                count = self.takeback_later[1]
                self.takeback_later = None
                self.take_back(count, after_roll=False)
        elif not move.held and len(self.history) >= 1 and rng.random() < person.takeback:
            variant = rng.choice(("one", "one after the roll", "several"))
            nxt = self.adapter.turn(self.pos)
            if variant == "one after the roll" and (self.name != "bigballs" or not self.pos.stones(nxt)):
                variant = "one"
            if variant == "several":
                count = rng.choice((2, 2, 3))
                self.takeback_later = [count - 1, count]  # once the replies are on the board
            else:
                self.take_back(1, after_roll=variant == "one after the roll")

    def amend_bigballs(self, move: Move, shapes: list[Shape], person: Personality) -> None:
        """Big Balls: the move settles, then the mover moves the piece on to where another legal
        move from the same hollow would have put it (rule 3's amendment)."""
        if move.shape.evidence or len(move.shape.relocations) != 1:
            return
        src, dst = move.shape.relocations[0]
        options = [s for s in shapes if s is not move.shape and s.relocations[-1][0] == src
                   and self.ended(self.adapter.apply(move.before, s)) is None]  # a won game is not amended
        if not options:
            return
        new = self.rng.choice(options)
        if self.adapter.turn(self.pos) in self.kept:
            # The kept number showing is no start of the next player's: the amendment counts,
            # and the number stays theirs (R15).
            move.kinds.add("amended while the next player's roll is kept")
        self.table.wait(self.rng.uniform(SETTLE + 0.15, 2.0))
        # the piece now on `dst` goes on to the new target; a piece there is captured
        relocations = tuple((dst if s == src else s, d) for s, d in new.relocations)
        current = self.shapes(self.pos, self.kept.get(self.adapter.turn(self.pos)))
        watch = self.watch_takeback(current, move, amending=True)
        self.table.watchers.append(watch)
        self.run(self.apart(relocations, person, hesitate=False), person)
        self.table.watchers.remove(watch)
        assert self.table.occupied() == new.result
        amended = Move(move.before, new, move.roll, set(move.kinds) | {"amended by moving on"})
        for s, d in new.relocations:
            if d is OFF:
                amended.aside[s] = self.table.hand.pop(s)
        self.history[-1] = amended
        self.pos = self.adapter.apply(move.before, new)
        self.table.commit(new.result)
        self.check_colours()
        self.last = "settle"  # how soon an amendment is taken the rules do not say: let it settle

    def take_back(self, count: int, after_roll: bool) -> None:
        """Rule 7: the last `count` moves undone by putting the pieces back, each standing for the
        settle time; the rolls of undone stone moves are kept, and so is a roll the next player
        had already made."""
        rng, table = self.rng, self.table
        table.wait(rng.uniform(SETTLE + 0.15, 2.0))
        label = {1: "one move", 2: "two moves", 3: "three moves"}[count]
        nxt = self.adapter.turn(self.pos)
        if after_roll and nxt in self.kept:
            after_roll = False  # they rolled already (their roll was kept over an earlier takeback)
        if after_roll:
            roll = rng.randint(1, 6)
            self.step(self.people[nxt])
            table.press(roll)
            self.kept.first(nxt, roll)
            label += " after the next player's roll"
            self.carried.setdefault(nxt, set()).add("roll kept over a takeback")
            table.wait(rng.uniform(0.3, 1.5))
        for _ in range(count):
            move = self.history[-1]
            mover = self.adapter.turn(move.before)
            current = self.shapes(self.pos, self.kept.get(self.adapter.turn(self.pos)))
            watch = self.watch_takeback(current, move)
            table.watchers.append(watch)
            for cell, piece in move.aside.items():
                table.hand[("hand", cell)] = piece
            self.run(self.apart(reversed_relocations(move.shape.relocations), self.people[mover], False),
                     self.people[mover])
            table.watchers.remove(watch)
            table.hand = {k: v for k, v in table.hand.items() if not (isinstance(k, tuple) and k[0] == "hand")}
            for s, d in move.shape.relocations:
                if s is None:
                    table.hand.pop(d, None)  # the re-placed ball waits in the hand again
            before = self.occ(move.before)
            assert table.occupied() == before
            table.wait(rng.uniform(SETTLE + 0.15, 2.5))
            table.commit(before)
            self.history.pop()
            self.pos = move.before
            self.check_colours()
            if move.roll is not None:
                # the number of the turn taken back shows first; one kept for a later turn of
                # theirs waits behind it (R4)
                self.kept.first(mover, move.roll)
            self.carried.setdefault(mover, set()).add(f"moves again after a takeback of {label}")
            if count > 1 and move.roll is not None and len(self.kept) == 2:
                self.carried[mover].add("two rolls kept over a takeback")
        mover = self.adapter.turn(self.pos)
        if move.roll is None and mover in self.kept:
            # the number rolled for a later turn of theirs shows at once (R4)
            self.carried.setdefault(mover, set()).add("a number rolled for a later turn shows at once")
        self.last = "settled"

    def play(self) -> Game:
        self.last = "settled"
        self.carried: dict = {}
        while self.ended(self.pos) is None and len(self.history) < self.cap:
            if self.last != "held" and self.pending is None:
                self.checkpoints.append((len(self.table.events), self.record(final=False)))
            self.turn()
        if self.last == "held":  # no one starts after it: it never commits (the players see that)
            self.note("a held capture at the end")
        return Game(self.seed, self.name, self.adapter.header(), self.table.events, self.record(final=True),
                    [sorted(m.kinds) for m in self.history], self.unclear, self.checkpoints)

    def record(self, final: bool) -> list[str]:
        lines = self.adapter.record_header() + [m.shape.text for m in self.history]
        end = self.adapter.result_line(self.pos) if final else None
        return lines + ([end] if end else [])


def play(game: str, seed: int, max_moves: int | None = None, explore: bool = False) -> Game:
    """One whole game, deterministic by seed."""
    return Players(game, seed, max_moves, explore).play()


# ---------------------------------------------------------------------------------------------
# Replaying a game and saying what went wrong.

# The most telling of what the hands did, first: a disagreement is named after the first of
# these found on the move where the records part (or the move before it, when the record goes
# on too long); two hands at once on the move before count too ("after two hands at once").
TELLING = (
    "held, then the next player starts with",
    "starts after a held capture with",
    "two hands at once: the next player makes a whole move",
    "two hands at once: the next player lifts a piece",
    "two hands at once: the next player presses the die",
    "after two hands at once",
    "the next player presses the die within the settle time",
    "presses the die within the settle time",
    "the next player starts before it settled",
    "two rolls kept over a takeback",
    "roll kept over a takeback",
    "moves again after a takeback of three moves",
    "moves again after a takeback of two moves",
    "moves again after a takeback of one move after the next player's roll",
    "moves again after a takeback of one move",
    "moves with a kept roll",
    "amended while the next player's roll is kept",
    "amended by moving on",
    "amended: a board on the way showed another move",
    "a push into a full sector seen, then the ball put back",
    "pauses with the line in the hand",
    "set down on the way",
    "amend",
    "passes through a held capture's board on the way",
    "stone moved before the roll",
    "illegal state put right after the grace",
    "illegal state put right within the grace",
    "pushed as the page's words say",
    "starts before the last move settled",
    "starts before a move that waits for the settle time has settled",
    "switch flickers under the debounce",
    "quick swap",
    "holds the first piece while thinking",
    "holds a piece while thinking, puts it back",
    "touch and put back",
    "capture, lifted in turn",
    "taken apart",
    "slid",
)


@dataclass
class Disagreement:
    game: Game
    got: list
    line: int  # the first line of the records that differs (0-based)

    @property
    def symptom(self) -> str:
        want, got = self.game.record, self.got
        if self.line >= len(got):
            return "the record stops"
        if self.line >= len(want):
            return "a move too many"
        return "another move recorded"

    @property
    def behaviour(self) -> str:
        move = min(self.line - self.header_lines, len(self.game.kinds) - 1)
        kinds = list(self.game.kinds[move]) if move >= 0 else []
        if move >= 1:
            kinds += [f"after {k}" for k in self.game.kinds[move - 1] if k.startswith("two hands at once")]
        for tag in TELLING:
            for t in kinds:
                if t.startswith(tag):
                    return t
        return "a plain move"

    @property
    def header_lines(self) -> int:
        return len(ADAPTERS[self.game.game](random.Random(0)).record_header())

    @property
    def kind(self) -> str:
        return f"{self.game.game}: {self.behaviour}; {self.symptom}"

    def describe(self, path: Path | None = None) -> str:
        want, got = self.game.record, self.got
        text = (f"{self.kind}\n  seed {self.game.seed}, game {self.game.game}, record line {self.line + 1}:"
                f" replay gave {got[self.line:self.line + 2]!r}, the players meant {want[self.line:self.line + 2]!r}")
        move = self.line - self.header_lines
        if 0 <= move < len(self.game.kinds):
            text += f"\n  the hands on that move: {', '.join(self.game.kinds[move]) or 'nothing special'}"
        if path is not None:
            text += f"\n  trace: {path}"
        return text


def replayed_record(trace_path: Path) -> list[str]:
    from reedboard.controller.session.replay import replay
    from reedboard.controller.persist.trace import read_trace

    return list(replay(read_trace(trace_path)).record)


def first_difference(a: list, b: list) -> int | None:
    for n, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return n
    return None if len(a) == len(b) else min(len(a), len(b))


def check(game: Game, folder: Path) -> Disagreement | None:
    """Replay the game's trace; a Disagreement when the record is not the one meant."""
    path = game.write(Path(folder) / f"{game.game}-{game.seed}.jsonl")
    got = replayed_record(path)
    line = first_difference(got, game.record)
    return None if line is None else Disagreement(game, got, line)


def shrink(found: Disagreement, folder: Path) -> tuple[Path, Disagreement]:
    """The shortest start of the game (cut where the board was quiet) that still disagrees in
    the same way; its trace is written to `folder`."""
    game = found.game
    for count, record in game.checkpoints:
        if len(record) <= found.line:
            continue
        part = Game(game.seed, game.game, game.header, game.events[:count], record, game.kinds, game.unclear, [])
        path = part.write(Path(folder) / f"{game.game}-{game.seed}-short.jsonl")
        got = replayed_record(path)
        line = first_difference(got, record)
        if line is not None:
            smaller = Disagreement(part, got, line)
            if smaller.kind == found.kind:
                return path, smaller
    path = game.write(Path(folder) / f"{game.game}-{game.seed}.jsonl")
    return path, found
