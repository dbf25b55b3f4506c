"""Recognising moves from presence-only sensors.

Reed switches report only which cells are occupied. The Reconciler turns a stream of such
frames into moves of the game it holds, and into prompts for the players when the board
and the game disagree. It is pure: time comes in with the frames (seconds, any origin),
and nothing here reads a clock or does I/O.

How it decides, in short (the rules are numbered as in the design note):
- A cell's change counts once it has held for the debounce time; the debounced occupancy
  is the *stable* frame. The *baseline* is the occupancy of the game's position.
- Every move the player may make now is indexed by the occupancy it leaves (its result).
  A stable frame equal to a result is a candidate; a capture whose target stays occupied
  also needs its target *touched* (seen empty since the board last equalled the baseline)
  (rules 1, 2).
- Such a board with no target touched is a piece held in the hand: it is *held*, and
  stillness never turns it into a move. A swap quicker than the debounce is recorded when
  the next player starts (resolve_held: the die; or a board that only makes sense after
  that capture: a lift, a placement, a whole move) or on the ok button, if exactly one
  capture fits; several are asked, and a touch anywhere answers. The boards the next
  player's hands made meanwhile are then read again in their turn (rule 2; the rulings of
  docs/recognition.md say where that line is drawn).
- A candidate is committed at once when no other move can still grow out of the frame;
  otherwise once the board has been still for the settle time. After a commit, if the
  mover goes on and the board equals the result of another move from the previous
  position, the commit is replaced (amended); a capture needs its target touched since the
  commit (rule 3).
- A piece lifted and put back is only a touch (rule 4). A frame that fits no move and is on
  the way to none is signalled after the grace time with the cells to fill and to empty;
  nothing is accepted until the board is back on the baseline or on a legal result (rule 5).
- Several candidates for one frame are shown; lifting and replacing a piece that belongs
  to exactly one of them chooses it (rule 6). The board back on the previous position for
  the settle time takes the last move back, and the die value it was made with stays; a
  value the next player had rolled is kept for their turn (rule 7). expect() guides the
  board to a position before play or on resume (rule 8).

The decisions themselves are the ordered table of rulings.py; the modes and what waits out
the settle time are the types of recognition.py.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from ..games import Game
from .recognition import (
    AfterCommit, AmendBeside, AmendNow, AmendWhenStill, Ask, AskWhenStill, BesideWhenStill, Board, Candidate, Choosing,
    CountBeside, CountNow, CountThenReadOn, CountTwoBeside, CountWhenStill, Decision, FitsNothing, Held, Hold, KeepSignalling,
    HELD_FRAMES_KEPT, KeepWaiting, SinceSwap, SwapCounts, SwapWhenStill, TakeBackWhenStill, WaitStill, Waiting, WatchOn,
)
from .rulings import Rulings




from ..ground.settings import Settings  # noqa: E402,F401  the recogniser's settings, named here too



# --- what the reconciler reports ---------------------------------------------------------------
@dataclass(frozen=True)
class Committed:
    t: float
    move: Hashable
    kept_roll: int | None = None  # the next player had rolled before a takeback: the die shows it again


@dataclass(frozen=True)
class Amended:
    t: float
    old: Hashable
    new: Hashable


@dataclass(frozen=True)
class TakenBack:
    t: float
    move: Hashable
    roll: int | None = None  # the die value the move was made with: the player moves again with it
    kept_roll: int | None = None  # a move made with none: a value its player rolled for a later turn shows


@dataclass(frozen=True)
class Illegal:
    """The board fits no move: put pieces on `fill`, take them from `empty`."""

    t: float
    fill: frozenset[str]
    empty: frozenset[str]


@dataclass(frozen=True)
class Cleared:
    """The board is back on the position or on a legal result: guidance off."""

    t: float


@dataclass(frozen=True)
class Ambiguous:
    """Several moves fit the board; `paths[i]` are the cells to touch to choose `moves[i]`."""

    t: float
    moves: tuple[Hashable, ...]
    paths: tuple[frozenset[str], ...]


@dataclass(frozen=True)
class Touched:
    """Pieces were lifted and put back on their own cells: no move."""

    t: float
    cells: frozenset[str]


@dataclass(frozen=True)
class Progress:
    """Set-up: the board still differs from the expected position."""

    t: float
    fill: frozenset[str]
    empty: frozenset[str]


@dataclass(frozen=True)
class Reached:
    """Set-up: the board equals the expected position."""

    t: float


@dataclass(frozen=True)
class Claimed:
    """A number pressed while the mover's big ball was in the hand is the mover's after all: the
    ball went back on its hollow, so the mover rolled (R20). The die shows it for them."""

    t: float
    roll: int


Event = Committed | Amended | TakenBack | Illegal | Cleared | Ambiguous | Touched | Progress | Reached | Claimed


class Reconciler(Rulings):
    """Frames in, moves and prompts out, for one game (which it pushes moves onto)."""

    def __init__(self, game: Game, settings: Settings | None = None, *, roll: int | None = None,
                 board: Iterable[str] = ()) -> None:
        self.game = game
        self.settings = settings or Settings()
        self.roll = roll
        self.listening = True  # False: report touches and set-up only, recognise no moves
        # Counts what may have changed what it shows (stable, guidance, choices, in hand, the
        # board asked for): a frame that only starts a debounce leaves it, so a view of the
        # reconciler need not be rebuilt for it.
        self.changes = 0
        self._bit = {cell: 1 << i for i, cell in enumerate(game.cells)}
        self._names = game.cells
        # the cells next to each cell: where a hand may set a piece down on its way (rule 2)
        self._near_of = {bit: self._mask(c for c in game.near(cell) if c in self._bit)
                         for cell, bit in self._bit.items()}
        self._opened_at: dict[int, float] = {}  # bit -> when it was first seen empty since the baseline
        self._changed_at = float("-inf")  # when the stable board last changed
        self._still_since: float | None = None  # while a board still since then is read again (R23)
        self._now = float("-inf")
        self._raw = self._stable = self._mask(board)
        self._pending: dict[int, float] = {}  # bit -> since when the raw state differs from stable
        self._target: int | None = None  # set-up: the occupancy asked for
        self._guidance: tuple[int, int] | None = None  # (fill, empty) shown for an illegal board
        self._grace_at: float | None = None
        # the modes (recognition.py): what waits out the settle time, a capture held, a choice
        # by touch, the move just counted that its mover may still amend
        self._settle_at: float | None = None
        self._waiting: Waiting | None = None
        self._held: Held | None = None
        self._choosing: Choosing | None = None
        self._last: AfterCommit | None = None
        self._split_boards: list[int] = []  # the boards seen while a split of two hands waits (rule 10)
        # a move that waited out the settle time when the hands went on to a board that decided
        # nothing: the next player may be starting after it (R11)
        self._interrupted: tuple[Candidate | None, bool] = (None, False)  # and whether it was a split
        # Die values rolled for turns that takebacks undid, each player's in the order of their
        # turns: the die shows the first as soon as it is that player's turn, with no new press
        # (rule 7; a takeback is never a free re-roll).
        self.kept_rolls: dict[str, deque[int]] = {player: deque() for player in game.players}
        # A number kept from a turn a takeback undid binds no one to a stone move: its player may
        # roll a big ball instead, which drops it (no new roll either). One pressed while the
        # mover's piece was still on its way (rule 10) was their roll, and binds (R19).
        self.roll_free = False
        self._pressed_early: dict[str, int] = {}
        self._claimable: tuple[str, int] | None = None  # (player, number) pressed beside a big ball in the hand
        self._opened_since_move = 0  # cells seen empty since the last move counted or was taken back
        self._following_cache: dict[int, tuple] = {}  # id of a held capture -> (board after it, next moves)
        self._hand_cache: tuple = (None, None)
        self._new_turn()

    # --- the public face ---------------------------------------------------------------
    @property
    def stable(self) -> frozenset[str]:
        """The debounced occupancy."""
        return self._names_of(self._stable)

    @property
    def settled(self) -> bool:
        """No cell is waiting out its debounce time: the stable frame is the board as it is."""
        return not self._pending

    @property
    def at_baseline(self) -> bool:
        return self._stable == self._base and not self._pending

    @property
    def guidance(self) -> tuple[frozenset[str], frozenset[str]] | None:
        """(fill, empty) while an illegal board is signalled."""
        if self._guidance is None:
            return None
        return self._names_of(self._guidance[0]), self._names_of(self._guidance[1])

    @property
    def choosing(self) -> tuple[Hashable, ...]:
        """The moves the players are asked to choose between by touch."""
        return tuple(c.move for c in self._choosing.matches) if self._choosing else ()

    @property
    def choice_paths(self) -> tuple[frozenset[str], ...]:
        return tuple(self._names_of(c.path) for c in self._choosing.matches) if self._choosing else ()

    @property
    def held(self) -> tuple[Hashable, ...]:
        """Captures the board shows with none of their targets touched: a piece in the hand,
        or a swap quicker than the debounce. Only the next player or the ok button decides."""
        return tuple(c.move for c in self._held.captures) if self._held else ()

    @property
    def swap_shown(self) -> bool:
        """Whether the board is a held capture's board itself: a quick swap, or its piece held."""
        return self._held is not None and self._stable == self._held.captures[0].result

    @property
    def in_hand(self) -> tuple[frozenset[str], frozenset[str]] | None:
        """(lifted, destinations) when the board is the position with only pieces lifted that
        some move may start with: where those moves may put them (capture targets included)."""
        key = (self._stable, self._base, self._guidance, self._choosing is None, self._target)
        if self._hand_cache[0] != key:
            self._hand_cache = (key, self._find_in_hand())
        return self._hand_cache[1]

    def _find_in_hand(self) -> tuple[frozenset[str], frozenset[str]] | None:
        S, base = self._stable, self._base
        gone = base & ~S
        if not gone or S & ~base or self._guidance or self._choosing or self._target is not None:
            return None
        fitting = [c for c in self._candidates if not gone & ~c.may_empty]
        if not fitting:
            return None
        where = 0
        for c in fitting:
            where |= c.may_fill | c.needs
        return self._names_of(gone), self._names_of(where & ~gone)

    @property
    def expected(self) -> frozenset[str] | None:
        """The occupancy a set-up asks for, while it lasts."""
        return None if self._target is None else self._names_of(self._target)

    def feed(self, t: float, occupied: Iterable[str]) -> list[Event]:
        """A raw frame at time t: the full set of occupied cells."""
        mask = self._mask(occupied)
        events = self.advance(t)
        changed = mask ^ self._raw
        while changed:
            bit = changed & -changed
            changed ^= bit
            if (mask ^ self._stable) & bit:
                self._pending[bit] = t
            else:
                self._pending.pop(bit, None)  # bounced back before it counted
        self._raw = mask
        return events + self.advance(t)

    def advance(self, t: float) -> list[Event]:
        """Let time run to t: debounce, settle and grace deadlines that fall due fire in order."""
        if t < self._now:
            raise ValueError(f"time went backwards: {t} after {self._now}")
        events: list[Event] = []
        while True:
            due = self.next_deadline()
            if due is None or due > t:
                break
            self._now = due
            self.changes += 1
            self._fire(due, events)
        self._now = t
        return events

    def next_deadline(self) -> float | None:
        """When something will happen if no frame arrives before then, or None."""
        # asked several times for every frame: no lists built on the way
        due, grace = self._settle_at, self._grace_at
        if grace is not None and (due is None or grace < due):
            due = grace
        if self._pending:
            debounced = min(self._pending.values()) + self.settings.debounce
            if due is None or debounced < due:
                due = debounced
        return due

    def set_roll(self, t: float, roll: int | None) -> list[Event]:
        """The die was rolled (a game with a die): from now on the moves for that roll count."""
        self.roll = roll
        self.roll_free = False
        self.changes += 1
        self._last = None  # the next player has started: no more amending
        self._new_turn()
        return self._reconsider(t)

    def confirm(self, t: float) -> list[Event]:
        """The ok button: a single candidate waiting for the settle time counts now, and so
        does a held capture (rule 2)."""
        events: list[Event] = []
        self.changes += 1
        if isinstance(self._waiting, (CountWhenStill, AmendWhenStill)):
            self._do_settle(t, events)
        elif self._held:
            events += self.resolve_held(t)
        return events

    def next_player_starts(self, t: float) -> list[Event]:
        """The next player starts by pressing the die (rule 2): a move waiting out the settle
        time counts at once (R11), and so does a held capture (R2); then the die is theirs."""
        events: list[Event] = []
        self.changes += 1
        if isinstance(self._waiting, (CountWhenStill, AmendWhenStill, BesideWhenStill)):
            self._do_settle(t, events)
        if self._applies("R2"):
            events += self.resolve_held(t)
        if events and isinstance(self._waiting, (CountWhenStill, BesideWhenStill)) and self._applies("R12"):
            # the held swap counted, and the next player's own move after it waits out the settle
            # time: the press starts the turn after that one, so that move counts too (R12)
            self._do_settle(t, events)
        return events

    def mover_busy(self, t: float) -> bool:
        """Whether the mover's hand is still at work at time t: the board changed within the
        settle time, and pieces are lifted that one of this turn's moves may still put down
        (rule 10: a press now is the next player's). A board still for longer is a piece held
        while thinking, or a quick swap made (rule 2, R17)."""
        S = self._stable
        # A held board's hand is the one that first showed it: later hands may only have put it
        # back. Not once a held capture's victim was seen gone since: the mover's hand went on
        # to make that capture (rule 2).
        held = self._held
        swap = held is not None and all(c.needs & ~self._touched for c in held.captures)
        since = held.since.shown_at if swap else self._changed_at
        # With the die the mover's already and no capture held, a press can only be the next
        # player's, however long the mover holds the piece (R17)
        recent = t - since < self.settings.settle or (
            self._applies("R17") and self.roll is not None and not self._held) or (
            # nor, before the mover has rolled, while their big ball is in the hand: the ball
            # will say whose number it is (R20)
            self._applies("R20") and self.roll is None and not self._held)
        # a capture's board held that soon is the mover's stone still in the hand too
        return (S != self._base and self._waiting is None and recent
                and (self._can_grow(S, self._base, self._candidates, exclude=[]) or self.swap_shown))

    def keep_roll(self, player: str, value: int, claimable: bool = False) -> None:
        """The next player rolled while the mover's piece was still on its way (rule 10): their
        number shows as soon as it is their turn, with no new press (as a kept number, rule 7).
        `claimable`: the mover had not rolled, so the press may have been theirs: if the piece
        goes back on its hollow instead, the number is the mover's (R20)."""
        self._claimable = (player, value) if claimable else None
        self.kept_rolls[player].append(value)
        self._pressed_early[player] = value  # pressed in their turn, as it were: it binds them
        self._following_cache = {}  # their moves after this turn's are those of that number now
        self.changes += 1

    def resolve_held(self, t: float) -> list[Event]:
        """The next player starts (or ok): a board held as a piece in the hand with no capture
        target touched is the quick swap it shows: committed if exactly one capture fits,
        asked otherwise. Nothing happens when no such board is shown, or the board shows
        something else that does not start from it."""
        events: list[Event] = []
        # The board may show the next player's own swap after it already (seen since): each
        # swap counts in its turn, up to the one the press or the button answers (R12).
        while self._held and not self._pending and not self._choosing and (
                self._stable == self._held.captures[0].result or self._held.since.start_seen
                or any(self._next_player_started(self._stable, c) for c in self._held.captures)):
            self.changes += 1
            self._settle_at = self._waiting = None
            self._resolve_swap(t, events)
            if not self._applies("R12"):
                break
        return events

    def restrict(self, t: float, moves: Iterable[Hashable] | None) -> list[Event]:
        """Accept only these of this turn's moves (the computer's chosen move; none while it
        thinks): any other board is guided back like an illegal one. None lifts it. The
        restriction ends with the turn (a commit, a takeback, a roll, a sync)."""
        self.changes += 1
        self._new_turn(None if moves is None else tuple(moves))
        return self._reconsider(t)

    def undo(self, t: float) -> list[Event]:
        """Take back the last move (the player's, after the computer's answer was taken back):
        the board is guided back to the position before it, and nothing counts until it is."""
        move = self._take_back()
        self.changes += 1
        self._last = None
        self._new_turn()
        self._target = self._base
        return [self._taken_back_event(t, move)] + self._reconsider(t)

    def expect(self, t: float, occupied: Iterable[str] | None = None) -> list[Event]:
        """Guide the board to an occupancy (default: the game's position) before going on."""
        self._target = self._base if occupied is None else self._mask(occupied)
        self.changes += 1
        self._last = None
        return self._reconsider(t)

    def sync(self, t: float) -> list[Event]:
        """The game was changed outside (e.g. resigned, or a move undone by the referee)."""
        self.changes += 1
        self._last = None
        self._new_turn()
        return self._reconsider(t)

    # --- masks ---------------------------------------------------------------------------
    def _mask(self, cells: Iterable[str]) -> int:
        mask = 0
        for cell in cells:
            try:
                mask |= self._bit[cell]
            except KeyError:
                raise ValueError(f"unknown cell {cell!r} for {self.game.name}") from None
        return mask

    def _names_of(self, mask: int) -> frozenset[str]:
        return frozenset(name for name, bit in self._bit.items() if mask & bit)

    def _index(self, moves: list, base: int) -> tuple[dict[int, list[Candidate]], list[Candidate]]:
        by_result: dict[int, list[Candidate]] = {}
        candidates = []
        for move in moves:
            fp = self.game.footprint(move)
            empties, fills = self._mask(fp.empties), self._mask(fp.fills)
            captures, passes = self._mask(fp.captures), self._mask(fp.passes)
            candidate = Candidate(
                move=move, result=(base & ~empties) | fills, may_empty=empties | captures | passes,
                may_fill=fills, needs=captures, path=fills | captures | passes,
            )
            candidates.append(candidate)
            by_result.setdefault(candidate.result, []).append(candidate)
        return by_result, candidates

    def _new_turn(self, only: tuple[Hashable, ...] | None = None) -> None:
        """Index the moves allowed now (`only` these, if given), and what a takeback would look like."""
        self._base = self._mask(self.game.occupied())
        self._touched = 0
        self._opened_at = {}
        self._held = None
        self._interrupted = (None, False)
        self._following_cache = {}
        self.only = only
        over = self.game.outcome() is not None
        moves = [] if over else self._moves_for(self.roll, self.roll_free)
        if only is not None:
            moves = [move for move in moves if move in only]
        self._by_result, self._candidates = self._index(moves, self._base)
        self._turn_cells = 0  # every cell a move of this turn may empty
        for c in self._candidates:
            self._turn_cells |= c.may_empty
        # The hollows only the next player's hand opens (rule 10): those no move of this turn
        # may empty, and those of the next player's colour where the game has colours.
        colour = self.game.other(self.game.turn)[0].upper()
        self._next_players = ~self._turn_cells | self._mask(
            cell for cell, code in self.game.pieces().items() if code[:1] == colour and code != "ball")
        self._undo = None  # (baseline before the last move, the reverse of its footprint)
        if self.settings.takebacks and self.game.move_stack:
            move = self.game.pop()
            before = self._mask(self.game.occupied())
            fp = self.game.footprint(move)
            self.game.push(move)
            reverse = Candidate(
                move=move, result=before, may_empty=self._mask(fp.fills | fp.captures | fp.passes),
                may_fill=self._mask(fp.empties), needs=0, path=0,
            )
            self._undo = reverse

    # --- time ------------------------------------------------------------------------------
    def _fire(self, t: float, events: list[Event]) -> None:
        due = [bit for bit, since in self._pending.items() if since + self.settings.debounce <= t]
        if due:
            self._changed_at = t
            for bit in due:
                del self._pending[bit]
                self._stable ^= bit
            events.extend(self._on_stable(t))
        if self._settle_at is not None and self._settle_at <= t:
            self._do_settle(t, events)
        if self._grace_at is not None and self._grace_at <= t:
            self._grace_at = None
            self._show_guidance(t, events)

    def _reconsider(self, t: float) -> list[Event]:
        events: list[Event] = []
        self._settle_at = self._waiting = None
        self._grace_at = None
        events.extend(self._on_stable(t))
        return events

    # --- a new stable board ------------------------------------------------------------------------
    def _on_stable(self, t: float) -> list[Event]:
        """The stable frame changed (or the game did): the set-up, a choice by touch and the
        position itself have their say first; then the rulings, in their order, decide."""
        S, base = self._stable, self._base
        events: list[Event] = []
        waiting, due = self._waiting, self._settle_at  # what waited out the settle time, if anything
        self._settle_at = self._waiting = None

        if self._target is not None:  # set-up: only the expected occupancy counts (rule 8)
            if S == self._target:
                self._target = None
                self._guidance = None
                self._grace_at = None
                self._touched = 0
                events.append(Reached(t))
                if S != base:  # a step of a guided set-up, not yet the game's position
                    return events
            else:
                events.append(Progress(t, self._names_of(self._target & ~S), self._names_of(S & ~self._target)))
                return events

        opened = base & ~S & ~self._touched
        while opened:  # when each hollow first opened: whose hand came first (rule 10)
            bit = opened & -opened
            opened ^= bit
            self._opened_at[bit] = t
        self._touched |= base & ~S
        self._opened_since_move |= base & ~S
        if self._last is not None:
            self._last.touched |= self._last.before & ~S

        if self._choosing is not None and self._keep_choosing(t, S, events):
            return events

        if S == base:  # the position itself: a touch at most (rule 4)
            self._interrupted = (None, False)
            self._back_on_the_position(t, events)
            return events
        if not self.listening:
            return events

        if isinstance(waiting, (CountWhenStill, BesideWhenStill)):
            interrupted, beside = waiting.candidate, isinstance(waiting, BesideWhenStill)
        else:
            interrupted, beside = self._interrupted
        self._interrupted = (None, False)
        board = self._board(t, S, waiting, due, interrupted, beside)
        for ruling in self.RULINGS:
            if ruling.decide is None or not self._applies(ruling.rid):
                continue
            decision = ruling.decide(self, board)
            if decision is not None:
                self._carry_out(t, decision, events)
                if isinstance(decision, (WatchOn, FitsNothing)):
                    self._interrupted = (interrupted, beside)  # the hands went on: it may still count (R11, R16)
                break
        return events

    def _back_on_the_position(self, t: float, events: list[Event]) -> None:
        self._grace_at = None
        self._held = None
        if self._guidance is not None:
            self._guidance = None
            events.append(Cleared(t))
        if self._touched:
            events.append(Touched(t, self._names_of(self._touched)))
        self._touched = 0
        self._opened_at = {}
        if self._claimable is not None and self._applies("R20"):
            # the big ball back on its hollow: the press beside it was the mover's roll (R20)
            player, value = self._claimable
            self._claimable = None
            self.kept_rolls[player].pop()
            self._pressed_early.pop(player, None)
            self.roll, self.roll_free = value, False
            self._new_turn()
            events.append(Claimed(t, value))

    def _board(self, t: float, S: int, waiting: Waiting | None, due: float | None,
               interrupted: Candidate | None, beside: bool) -> Board:
        """The board as the rulings read it: this turn's moves whose result it is, and those
        of them with their evidence."""
        at_result = self._by_result.get(S, [])
        matches = [c for c in at_result if not c.needs & ~self._touched]
        undo = self._undo
        if matches and undo is not None and S == undo.result:
            # The board is the position before the last move and a move's result alike: when
            # the hands opened, since that move, hollows it involved and the new move does not,
            # it is the last move taken back, not a new one (R8), and no capture held (R14).
            since = self._opened_since_move
            if self._applies("R8") and any(since & undo.may_empty & ~c.may_empty for c in matches):
                matches = []
                if self._applies("R14"):
                    at_result = []
        return Board(t, S, waiting, due, interrupted, beside, at_result, matches)

    def _carry_out(self, t: float, decision: Decision, events: list[Event]) -> None:
        """Do what a ruling decided."""
        if isinstance(decision, (CountNow, Ask)) or (
                isinstance(decision, WaitStill) and isinstance(decision.then, (CountWhenStill, AskWhenStill))):
            self._held = None  # a move of the mover's, with its evidence: no capture is held
        match decision:
            case CountNow(candidate):
                self._clear_guidance(t, events)
                self._commit(t, candidate, events)
            case Ask(board, matches):
                self._clear_guidance(t, events)
                self._ask(t, board, matches, events)
            case WaitStill(then):
                self._clear_guidance(t, events)
                self._schedule(t, then)
                if isinstance(then, BesideWhenStill):
                    self._split_boards = [self._stable]
            case KeepWaiting(waiting, due):
                self._clear_guidance(t, events)
                self._waiting, self._settle_at = waiting, due
                self._split_boards = self._split_boards[-HELD_FRAMES_KEPT + 1:] + [self._stable]
            case Hold(captures):
                if self._held is None or self._held.captures != captures:
                    self._held = Held(captures, SinceSwap(shown_at=t))
                elif self._applies("R3"):
                    # back on the held board: what the hands lifted was put back, a touch (rule
                    # 4), no evidence for a capture of the next player's (R3), and nothing to read
                    # again in their turn
                    since = self._held.since
                    since.opened, since.boards, since.placed = 0, [], False
                self._clear_guidance(t, events)
            case AmendNow(candidate):
                self._clear_guidance(t, events)
                self._amend(t, candidate, events)
            case AmendBeside(candidate):
                self._clear_guidance(t, events)
                theirs = self._touched & ~(candidate.may_empty | candidate.may_fill)
                opened_at = {bit: at for bit, at in self._opened_at.items() if bit & theirs}
                self._amend(t, candidate, events)
                self._last = None  # the next player has started: no more amending
                self._touched |= theirs & self._base  # their evidence (rule 10)
                self._opened_at.update(opened_at)
                events.extend(self._on_stable(t))
            case CountBeside(candidate):
                self._clear_guidance(t, events)
                self._commit_before_next(t, candidate, events)
            case CountTwoBeside(candidate, then):
                self._clear_guidance(t, events)
                self._commit_before_next(t, candidate, events, read_on=False)
                theirs = next((c for c in self._candidates if c.move == then), None)
                if theirs is None:  # not theirs after all: their turn reads the board
                    self._read_again(t, [], events)
                else:
                    self._commit_before_next(t, theirs, events)
            case CountThenReadOn(candidate):
                self._commit(t, candidate, events)
                self._last = None
                events.extend(self._on_stable(t))
            case SwapCounts():
                self._resolve_swap(t, events)
            case WatchOn():
                self._grace_at = None
            case FitsNothing():
                if self._grace_at is None:
                    self._grace_at = t + self.settings.grace
            case KeepSignalling():
                self._show_guidance(t, events)

    # --- carrying decisions out ------------------------------------------------------------------
    def _resolve_swap(self, t: float, events: list[Event]) -> None:
        """The next player started after a held quick swap: its capture counts, or, when
        several fit, which one is asked (R5)."""
        held, self._held = self._held, None
        if held is None:
            return
        captures = held.captures
        # One of them whose victim the hands were seen to lift is no quick swap but that capture
        # made: a piece not of the next player's, or one no move of theirs on the board takes
        # (their hands may lift their own pieces only for that: R3, R18)
        S = self._stable
        seen = [c for c in captures if c.needs and not c.needs & ~self._touched
                and (not c.needs & self._next_players or not self._next_takes(S, c))]
        if len(captures) > 1 and len(seen) == 1 and self._applies("R18"):
            captures = seen
        if len(captures) > 1:
            self._ask(t, captures[0].result, captures, events, since=held.since if self._applies("R5") else None)
        else:
            self._commit_swap(t, captures[0], held.since, events)

    def _commit_swap(self, t: float, candidate: Candidate, since: SinceSwap, events: list[Event]) -> None:
        """The quick swap's capture counts, the next player having started; the board as it
        stands is then decided in their turn."""
        boards = since.boards
        if self._applies("R18") and not (self._stable ^ candidate.result) & (candidate.may_empty | candidate.may_fill):
            # The capture's hollows are as it leaves them now: where the next player's moves
            # explain a board on the way only with them so, what changed there was the mover's
            # hand finishing it (its victim lifted): the board is read so in their turn.
            boards = [self._as_the_capture_leaves(board, candidate) for board in boards]
            boards = [board for n, board in enumerate(boards) if n == 0 or board != boards[n - 1]]
        self._commit(t, candidate, events)
        self._last = None  # the next player has started: no more amending
        # What the next player's hands opened since the swap is evidence for their own
        # capture, even where the board has been filled again since (a line taken apart, R3).
        if self._applies("R3"):
            self._touched |= since.opened & self._base
        # The boards their hands made on the way are read again in their turn (they may have
        # held a capture of their own, or swapped), then the board as it stands.
        self._read_again(t, boards, events)

    def _commit_before_next(self, t: float, candidate: Candidate, events: list[Event],
                            boards: list[int] = (), read_on: bool = True) -> None:
        """The mover's move counts with the next player's hand already at work beside it (rule
        10): the hollows that hand opened are evidence for the next player's own capture, and
        the board is read in their turn: first the `boards` seen while the split waited out
        the settle time (their move may have been down already, and lifted on since), then the
        board as it stands."""
        theirs = self._touched & ~(candidate.may_empty | candidate.may_fill)
        opened_at = {bit: at for bit, at in self._opened_at.items() if bit & theirs}
        self._commit(t, candidate, events)
        self._last = None  # the next player has started: no more amending
        self._touched |= theirs & self._base
        self._opened_at.update(opened_at)
        if read_on:
            self._read_again(t, boards, events)

    def _read_again(self, t: float, boards: list[int], events: list[Event]) -> None:
        """After a commit: the boards the hands made since, in the new turn, then the board as it is."""
        current = self._stable
        for board in boards[:-1] if boards and boards[-1] == current else boards:
            self._stable = board
            events.extend(self._on_stable(t))
        self._stable = current
        # the board as it stands has been still since it last changed, before the commit that
        # reads it again: a settle time it waits for runs from then (rule 3, R23)
        outer, self._still_since = self._still_since, self._changed_at if self._applies("R23") else None
        try:
            events.extend(self._on_stable(t))
        finally:
            self._still_since = outer

    def _schedule(self, t: float, waiting: Waiting) -> None:
        self._grace_at = None
        since = t if self._still_since is None else self._still_since
        self._settle_at = max(t, since + self.settings.settle)
        self._waiting = waiting

    def _do_settle(self, t: float, events: list[Event]) -> None:
        waiting, self._waiting, self._settle_at = self._waiting, None, None
        match waiting:
            case CountWhenStill(candidate):
                self._commit(t, candidate, events)
            case AmendWhenStill(candidate):
                self._amend(t, candidate, events)
            case AskWhenStill(board, matches):
                self._ask(t, board, matches, events)
            case SwapWhenStill():
                self._resolve_swap(t, events)
            case BesideWhenStill(candidate):
                self._commit_before_next(t, candidate, events, self._split_boards)
            case TakeBackWhenStill():
                move = self._take_back()
                self._last = None
                self._new_turn()
                events.append(self._taken_back_event(t, move))

    def _moves_for(self, roll: int | None, free: bool) -> list:
        """The moves of the player to move with `roll`; with a `free` number (kept over a
        takeback) the big-ball moves too, which drop it (R19)."""
        moves = self.game.turn_moves(roll)
        if free and self._applies("R19"):
            moves = moves + [m for m in self.game.turn_moves(None) if self.game.roll_of(m) is None]
        return moves

    def _kept_roll(self, pop: bool = False) -> int | None:
        """The die value the player to move rolled for a turn a takeback undid (rule 7), while
        it can still count: not once they have no stone left to roll for."""
        kept = self.kept_rolls[self.game.turn]
        if kept and not self.game.can_roll():
            kept.clear()
        if not kept:
            return None
        return kept.popleft() if pop else kept[0]

    def _take_back(self) -> Hashable:
        """Undo the last move. No free re-roll: its player moves again with its die value, and
        a value the other player had rolled already waits for their next turn (rule 7)."""
        if self.roll is not None:  # rolled by the player to move, for a turn now undone
            self.kept_rolls[self.game.turn].appendleft(self.roll)
        move = self.game.pop()
        self.roll = self.game.roll_of(move)
        self.roll_free = False
        if self.roll is None:  # a move made with no roll: a number kept for its player shows now
            self.roll = self._kept_roll(pop=True)
            self.roll_free = self.roll is not None
        self._opened_since_move = 0
        return move

    def _taken_back_event(self, t: float, move: Hashable) -> TakenBack:
        made_with = self.game.roll_of(move)
        return TakenBack(t, move, made_with, self.roll if made_with is None else None)

    def _commit(self, t: float, candidate: Candidate, events: list[Event]) -> None:
        self._last = AfterCommit(candidate.move, self._candidates, self._base, self._touched)
        self._choosing = None
        self.game.push(candidate.move)
        self._opened_since_move = 0
        self._claimable = None  # the mover's move is down: a number pressed beside it is the next player's
        self.roll = self._kept_roll(pop=True)
        early = self._pressed_early.pop(self.game.turn, None)
        self.roll_free = self.roll is not None and early is None
        if self.roll is not None and not self._applies("R15"):
            self._last = None  # a kept number showing would end the mover's amending
        self._new_turn()
        events.append(Committed(t, candidate.move, self.roll))

    def _amend(self, t: float, candidate: Candidate, events: list[Event]) -> None:
        old = self.game.pop()
        self.game.push(candidate.move)
        self._last.move = candidate.move
        self._new_turn()
        events.append(Amended(t, old, candidate.move))

    def _ask(self, t: float, S: int, matches: list[Candidate], events: list[Event],
             since: SinceSwap | None = None) -> None:
        self._choosing = Choosing(S, matches, since, last_board=self._stable)
        events.append(Ambiguous(t, tuple(c.move for c in matches), tuple(self._names_of(c.path) for c in matches)))

    def _keep_choosing(self, t: float, S: int, events: list[Event]) -> bool:
        """While the players choose by touch: True if the frame was part of choosing."""
        choosing = self._choosing
        if choosing.of_swap:
            return self._choose_swap(t, S, events)
        if S == choosing.board:
            lifted, choosing.lifted = choosing.lifted, 0
            chosen = [c for c in choosing.matches if c.path & lifted]
            if len(chosen) == 1 and chosen[0].result != S:
                # two splits of two hands asked (rule 10): the mover's move chosen counts, and the
                # next player's beside it is read on in their turn
                self._choosing = None
                self._commit_before_next(t, chosen[0], events)
            elif len(chosen) == 1:
                self._commit(t, chosen[0], events)
            return True
        if not S & ~choosing.board:  # pieces lifted from the board: a touch in progress
            choosing.lifted |= choosing.board & ~S
            return True
        self._choosing = None  # the board went elsewhere: decide afresh
        events.append(Cleared(t))
        return False

    def _choose_swap(self, t: float, S: int, events: list[Event]) -> bool:
        """Which capture a quick swap made, asked: the next player may have gone on already,
        so the choice is a touch wherever the board stands: one piece lifted and put back, with
        nothing else changed between. A touched piece of exactly one capture's path chooses
        it; then the board is decided in the next player's turn (rules 2 and 6, R5)."""
        choosing = self._choosing
        if self._applies("R10") and S & self._base & ~choosing.board:
            # the swapping piece is back on its hollow: no swap after all (R10)
            self._choosing = None
            events.append(Cleared(t))
            return False
        choosing.since.saw(choosing.board, S)
        touch, choosing.touch = choosing.touch, None
        if touch is not None and S == touch[0]:
            chosen = [c for c in choosing.matches if c.path & touch[1]]
            if len(chosen) == 1:
                self._commit_swap(t, chosen[0], choosing.since, events)
        else:
            before = choosing.last_board
            gone = before & ~S
            if not S & ~before and gone and not gone & (gone - 1):  # one piece lifted, nothing else
                choosing.touch = (before, gone)
        if self._choosing is not None:  # this choice, or one the boards read again asked since
            self._choosing.last_board = S
        return True

    def _clear_guidance(self, t: float, events: list[Event]) -> None:
        self._grace_at = None
        if self._guidance is not None:
            self._guidance = None
            events.append(Cleared(t))

    def _show_guidance(self, t: float, events: list[Event]) -> None:
        S, base = self._stable, self._base
        guidance = (base & ~S, S & ~base)
        if guidance != self._guidance:
            self._guidance = guidance
            events.append(Illegal(t, self._names_of(guidance[0]), self._names_of(guidance[1])))
