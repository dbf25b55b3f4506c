"""The reconciler under random hands: properties that must hold whatever the players do.

Hands at the table (tests/physical.py) lift and place pieces, wait, make switches bounce and
carry out legal moves in random orders. A Table drives the Reconciler deadline by deadline
(so every event is checked the moment it is made) and keeps a shadow game of its own:

- nothing raises;
- every Committed or Amended move was legal in the position it was made from (for Big Balls
  a stone move also matches the roll that was set), judged by the shadow game before the
  move is applied to it (Committed: push; Amended: pop and push; TakenBack: pop);
- the reconciler's game always equals the shadow (diagram, move stack, die roll);
- right after a Committed or Amended event the stable board is the game's occupancy;
- event times never go backwards, and no event is later than the clock that made it.

And for hands that only play legal moves, with pauses longer than the settle time between
moves, the moves come out as exactly those Committed events, in order, with no Illegal
event (Off Board lines moved ball by ball front-first, pauses within a move shorter than
the settle time; Big Balls captures with the victim or the mover lifted first). Two cases
found this way are kept as plain tests at the end: the next player's move passing through a
board that another move of the previous player would have left is no amendment.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from reedboard.controller.games import BigBalls, OffBoard
from reedboard.controller.games.offboard_layout import GRID as HEX
from reedboard.controller.core.reconcile import Amended, Committed, Illegal, Reconciler, Settings, TakenBack

from conftest import seeds
from physical import Hands

pytestmark = pytest.mark.unit

S = Settings()
RANDOM_RUNS = settings(max_examples=seeds(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
LEGAL_RUNS = settings(max_examples=seeds(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --- where runs start (then a few random engine moves on top) ---------------------------------------
BIGBALLS_STARTS = {
    "start": lambda: BigBalls(),
    "white first": lambda: BigBalls(first="white"),
    "two captures": lambda: BigBalls(black={"b2": 1}, white={"b3": 1, "g1": 2}, balls=["a3"]),
    "one capture": lambda: BigBalls(black={"c3": 1}, white={"c4": 1, "g1": 2}, balls=[]),
    "crowded": lambda: BigBalls(
        black={"c3": 1, "b4": 2, "d2": 3, "a4": 4, "c2": 5, "b3": 6},
        white={"d3": 1, "c4": 2, "e2": 3, "a5": 4, "b2": 5, "d1": 6},
        balls=["a7", "a6", "b5", "c5"],
    ),
}
OFFBOARD_STARTS = {
    "start": lambda: OffBoard(),
    "long line": lambda: OffBoard(red=["E1", "E2", "E3", "E4", "E5"], yellow=["A1"]),
    "full sectors": lambda: OffBoard(red=["C3", "B2", "C2"], yellow=["A1", "C1", "E5"],
                                     sectors={"S1": "red", "S11": "red"}),
    "waiting ball": lambda: OffBoard(red=["E5", "E6", "E7", "D5"], yellow=["E8", "E9", "A1", "A2"],
                                     sectors={"S5": "yellow", "S1": "red"}, waiting=True),
    "at the rim": lambda: OffBoard(red=["E5", "E6", "E7", "F6", "F7", "D4", "D5"],
                                   yellow=["E8", "E9", "F8", "F9", "D6", "C7", "A1"]),
}
GAMES = {"bigballs": BIGBALLS_STARTS, "offboard": OFFBOARD_STARTS}


def start_position(game_name: str, start: int, prelude: list[int]):
    """A start position, then a few engine moves chosen by the indices in `prelude`."""
    starts = GAMES[game_name]
    name = sorted(starts)[start % len(starts)]
    game = starts[name]()
    for choice in prelude:
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[choice % len(moves)])
    note(f"start {name!r} after {[str(m) for m in game.move_stack]}:\n{game.diagram()}")
    return game


def board_order(game, cells) -> list[str]:
    index = {c: i for i, c in enumerate(game.cells)}
    return sorted(cells, key=index.__getitem__)


# --- the table: a reconciler driven deadline by deadline, checked against a shadow game ---------------
def next_move_under_way(game, board: frozenset, roll) -> bool:
    """Whether the board is the player to move's move under way from the position: the next
    player's hand at work beside the mover's, whose move has just counted (rule 10)."""
    occupied = game.occupied()
    gone, added = occupied - board, board - occupied
    for move in game.turn_moves(roll):
        fp = game.footprint(move)
        if gone <= fp.empties | fp.captures | fp.passes and added <= fp.fills:
            return True
    return False


class Table:
    def __init__(self, game):
        self.shadow = game.copy()
        self.rolls = [getattr(m, "roll", None) for m in game.move_stack]  # the roll of each stacked move
        self.roll = None  # the die roll in force (Big Balls)
        self.rec = Reconciler(game, Settings(), roll=None, board=game.occupied())
        self.last_t = float("-inf")
        self.log: list = []  # every event, in order
        self.swaps: set = set()  # the captures a quick swap may be, before the latest events
        self.kept: dict[str, list[int]] = {}  # player -> die values rolled for turns takebacks undid, in turn order

    # Hands call these two.
    def feed(self, t, occupied):
        self._run_to(t)
        events = self.rec.feed(t, occupied)
        self._check(events, t)
        return events

    def advance(self, t):
        return self._run_to(t)

    def set_roll(self, t, roll):
        self._run_to(t)
        assert self.rec.at_baseline
        self.roll = roll
        events = self.rec.set_roll(t, roll)
        self._check(events, t)
        return events

    def _run_to(self, t):
        """Fire the deadlines up to t one at a time, so each event is checked when it happens."""
        events = []
        for _ in range(10_000):
            due = self.rec.next_deadline()
            if due is None or due > t:
                break
            fired = self.rec.advance(due)
            self._check(fired, due)
            events += fired
        else:
            raise AssertionError(f"deadlines do not stop before {t}")
        fired = self.rec.advance(t)
        self._check(fired, t)
        return events + fired

    def _check(self, events, now):
        shadow, rec = self.shadow, self.rec
        for e in events:
            assert self.last_t <= e.t <= now, f"{e} out of time order (last {self.last_t}, clock {now})"
            self.last_t = e.t
            self.log.append(e)
            if isinstance(e, Committed):
                if isinstance(shadow, BigBalls):
                    assert e.move.roll == self.roll, f"{e.move} committed with the die showing {self.roll}"
                allowed = shadow.turn_moves(self.roll)
                assert e.move in allowed, f"{e.move} committed, not legal (roll {self.roll}) in\n{shadow.diagram()}"
                shadow.push(e.move)
                self.rolls.append(self.roll)
                # a die value kept over a takeback shows again as soon as it is its player's turn (rule 7)
                queue = self.kept.setdefault(shadow.turn, [])
                self.roll = queue.pop(0) if queue and shadow.can_roll() else None
                if not shadow.can_roll():
                    queue.clear()
                assert e.kept_roll == self.roll, f"{e} does not show the kept roll {self.roll}"
            elif isinstance(e, Amended):
                assert shadow.move_stack and shadow.move_stack[-1] == e.old, f"{e} amends no last move"
                shadow.pop()
                allowed = shadow.turn_moves(self.rolls[-1])
                assert e.new != e.old and e.new in allowed, (
                    f"{e.old} amended to {e.new}, not legal (roll {self.rolls[-1]}) in\n{shadow.diagram()}")
                shadow.push(e.new)
            elif isinstance(e, TakenBack):
                assert shadow.move_stack and shadow.move_stack[-1] == e.move, f"{e} takes back no last move"
                if self.roll is not None:  # the player to move had rolled: that roll is kept too
                    self.kept.setdefault(shadow.turn, []).insert(0, self.roll)
                shadow.pop()
                self.roll = self.rolls.pop()  # no free re-roll: the move's die value stays (rule 7)
                assert e.roll == self.roll, f"{e} does not keep the roll {self.roll}"
                if self.roll is None:  # made with none: a value its player rolled for a later turn shows
                    queue = self.kept.setdefault(shadow.turn, [])
                    self.roll = queue.pop(0) if queue and shadow.can_roll() else None
                    if not shadow.can_roll():
                        queue.clear()
                assert e.kept_roll == (self.roll if e.roll is None else None), f"{e} shows no kept roll {self.roll}"
        if any(isinstance(e, (Committed, Amended)) for e in events):
            # A quick swap (a capture shown with no target touched) is recorded when the next
            # player starts: the board then already shows their start, pieces lifted or put
            # down beyond the position (rule 2). Any other move is the board as it stands.
            swap = any(isinstance(e, Committed) and e.move in self.swaps for e in events)
            assert (swap or rec.stable == rec.game.occupied() or rec.stable < rec.game.occupied()
                    or next_move_under_way(rec.game, rec.stable, rec.roll)), (
                "the stable board is not the position just accepted")
        self.swaps = set(rec.held) | set(rec.choosing)
        assert rec.game.move_stack == shadow.move_stack
        assert rec.game.diagram() == shadow.diagram()
        assert rec.roll == self.roll


# --- carrying out a legal move by hand ------------------------------------------------------------------
def from_footprint(game, move, keys: list[int], with_passes: bool) -> list[tuple[str, str]]:
    """The lifts and placements of a move's footprint in a random order a hand can follow:
    a placement needs a piece in the hand, a capture cell is placed after it is lifted."""
    fp = game.footprint(move)
    actions = [("lift", c) for c in board_order(game, fp.empties)]
    actions += [a for c in board_order(game, fp.captures) for a in (("lift", c), ("place", c))]
    actions += [("place", c) for c in board_order(game, fp.fills)]
    if with_passes:  # the balls of a sliding line lifted and put back one by one
        actions += [a for c in board_order(game, fp.passes) for a in (("lift", c), ("place", c))]
    key = {a: (keys[i % len(keys)], i) for i, a in enumerate(actions)}
    hand = max(0, len(fp.fills) - len(fp.empties))  # an Off Board ball waiting to be put back
    lifted, order, left = set(), [], list(actions)
    while left:
        ready = [a for a in left if a[0] == "lift"
                 or (hand > 0 and (a[1] in lifted or a[1] not in fp.captures | fp.passes))]
        action = min(ready, key=key.__getitem__)
        left.remove(action)
        order.append(action)
        if action[0] == "lift":
            hand += 1
            lifted.add(action[1])
        else:
            hand -= 1
    return order


def front_first(game, move) -> list[tuple[str, str]]:
    """Off Board: every ball steps forward, the front-most first (a ball pushed off goes first)."""
    if move.tail is None:
        return [("place", move.to)]
    fp = game.footprint(move)
    tail = HEX.index(move.tail)
    ray = HEX.ray[HEX.direction(move.direction)][tail]
    front = move.balls - 1 + move.pushed
    cells = [move.tail] + [HEX.names[c] for c in ray[:front]]  # every ball that moves, tail first
    actions = []
    if front >= len(ray):  # the front-most ball leaves the board
        actions += [("lift", cells[-1])] + [("place", c) for c in sorted(fp.fills)]
        for i in range(len(cells) - 2, -1, -1):
            actions += [("lift", cells[i]), ("place", cells[i + 1])]
    else:
        target = HEX.names[ray[front]]
        for i in range(len(cells) - 1, -1, -1):
            actions += [("lift", cells[i]), ("place", target)]
            target = cells[i]
    return actions


def capture_order(move, victim_first: bool) -> list[tuple[str, str]]:
    """Big Balls: a capture with the victim or the mover lifted first; a plain step."""
    if not move.capture:
        return [("lift", move.src), ("place", move.dst)]
    if victim_first:
        return [("lift", move.dst), ("lift", move.src), ("place", move.dst)]
    return [("lift", move.src), ("lift", move.dst), ("place", move.dst)]


def do(hands, actions, gaps) -> None:
    for i, (kind, cell) in enumerate(actions):
        gap = gaps[i % len(gaps)]
        if kind == "lift" and cell in hands.occupied:
            hands.lift(cell, after=gap)
        elif kind == "place" and cell not in hands.occupied:
            hands.place(cell, after=gap)


# --- property 1: random hands ------------------------------------------------------------------------------
INDEX = st.integers(0, 10_000)
KEYS = st.lists(st.integers(0, 99), min_size=1, max_size=10)  # the order of a hand's actions
GAP = st.one_of(st.sampled_from([0.0, 0.005, 0.019, 0.02, 0.021, 0.1, 0.25]), st.floats(0, 0.9))
GAPS = st.lists(GAP, min_size=1, max_size=6)
WAIT = st.one_of(st.sampled_from([0.02, 0.8, 0.82, 1.5, 1.52, 2.5]), st.floats(0, 2.5))
LIFT = st.tuples(st.just("lift"), INDEX, GAP)  # a random occupied cell
PLACE = st.tuples(st.just("place"), INDEX, GAP)  # a random empty cell (Off Board sectors too)
PAUSE = st.tuples(st.just("wait"), WAIT)
BOUNCE = st.tuples(st.just("bounce"), INDEX, st.floats(0.001, 0.010))  # a switch toggled for 1-10 ms
MOVE = st.tuples(st.just("move"), INDEX, KEYS, GAPS, st.booleans())  # a legal move by hand
TIDY = st.tuples(st.just("tidy"), st.booleans(), KEYS, GAPS)  # back to the position (or the one before)
ROLL = st.tuples(st.just("roll"), st.integers(1, 6))  # Big Balls: the die, when the board is on the position
STEPS = {
    "physical-only": st.one_of(LIFT, PLACE, PAUSE, BOUNCE, LIFT, PLACE, PAUSE),
    "with-legal-moves": st.one_of(LIFT, PLACE, PAUSE, BOUNCE, MOVE, MOVE, MOVE, PAUSE, TIDY, ROLL),
}


def perform_legal_move(table, hands, choice, keys, gaps, with_passes) -> None:
    """A legal move of the reconciler's position, carried out from its footprint."""
    rec = table.rec
    game = rec.game
    if isinstance(game, BigBalls) and rec.at_baseline and rec.roll is None:
        moves = game.legal_moves()  # the die may still be rolled for a stone move
    else:
        moves = game.turn_moves(rec.roll)
    if not moves:
        return
    move = moves[choice % len(moves)]
    if isinstance(game, BigBalls) and move.roll is not None and rec.roll is None:
        table.set_roll(hands.t, move.roll)
    do(hands, from_footprint(game, move, keys, with_passes), gaps)


def tidy(table, hands, before: bool, keys, gaps) -> None:
    """Make the board the game's position, as the lights ask, or the position before the
    last move (a takeback), lifting and placing in a random order."""
    game = table.shadow.copy()
    if before and game.move_stack:
        game.pop()
    target = game.occupied()
    actions = [("lift", c) for c in board_order(game, hands.occupied - target)]
    actions += [("place", c) for c in board_order(game, target - hands.occupied)]
    order = sorted(range(len(actions)), key=lambda i: (keys[i % len(keys)], i))
    do(hands, [actions[i] for i in order], gaps)


def run_random(game, steps) -> Table:
    table = Table(game)
    hands = Hands(table, game.occupied())
    for step in steps:
        kind = step[0]
        if kind == "lift":
            full = board_order(game, hands.occupied)
            if full:
                hands.lift(full[step[1] % len(full)], after=step[2])
        elif kind == "place":
            free = [c for c in game.cells if c not in hands.occupied]
            if free:
                hands.place(free[step[1] % len(free)], after=step[2])
        elif kind == "wait":
            hands.wait(step[1])
        elif kind == "bounce":
            hands.bounce(game.cells[step[1] % len(game.cells)], width=step[2])
        elif kind == "move":
            perform_legal_move(table, hands, *step[1:])
        elif kind == "tidy":
            tidy(table, hands, *step[1:])
        elif kind == "roll":
            if isinstance(game, BigBalls) and table.rec.at_baseline:
                table.set_roll(hands.t, step[1])
    hands.wait(S.grace + S.settle + 0.1)  # let every deadline fall due
    due = table.rec.next_deadline()
    assert due is None or due > hands.t
    note("events: " + "; ".join(map(str, table.log)))
    for kind in sorted({type(e).__name__ for e in table.log}):
        event(kind)
    return table


@pytest.mark.parametrize("with_moves", ["with-legal-moves", "physical-only"])
@pytest.mark.parametrize("game_name", ["bigballs", "offboard"])
@RANDOM_RUNS
@given(data=st.data())
def test_random_hands_never_make_the_reconciler_accept_an_illegal_move(game_name, with_moves, data):
    start = data.draw(st.integers(0, 100), label="start")
    prelude = data.draw(st.lists(INDEX, max_size=12), label="prelude")
    steps = data.draw(st.lists(STEPS[with_moves], min_size=3, max_size=60), label="steps")
    run_random(start_position(game_name, start, prelude), steps)


# --- property 2: only legal moves, one after the other ----------------------------------------------------
def result_of(game, move) -> frozenset[str]:
    fp = game.footprint(move)
    return (game.occupied() - fp.empties) | fp.fills


def recognisable(game, moves):
    """Big Balls: all. Off Board: the moves whose occupancy no other move leaves (two push-offs
    into full sectors from one tail leave the same board; those are asked about, rule 6)."""
    if isinstance(game, BigBalls):
        return moves
    results = [result_of(game, m) for m in moves]
    counts = Counter(results)
    return [m for m, r in zip(moves, results) if counts[r] == 1]


PLAN = st.lists(
    st.tuples(
        INDEX,  # which move
        st.booleans(),  # Big Balls captures: the victim lifted first
        st.floats(S.settle + 0.001, 2.5),  # the pause before the move
        st.lists(st.floats(S.debounce + 0.03, S.settle - 0.05), min_size=1, max_size=8),  # pauses within it
    ),
    min_size=1, max_size=8,
)


def play_legal_moves(game, plan) -> tuple[Table, list]:
    table = Table(game)
    rec = table.rec
    hands = Hands(table, game.occupied())
    intended = game.copy()  # the game the hands play (the reconciler may lag by the settle time)
    played = []
    for choice, victim_first, pause, gaps in plan:
        moves = recognisable(intended, intended.legal_moves())
        while moves:
            move = moves[choice % len(moves)]
            if isinstance(game, BigBalls):
                orders = [capture_order(move, victim_first), capture_order(move, not victim_first)]
            else:
                orders = [front_first(intended, move)]
            if orders:
                actions = orders[0]
                break
            moves.remove(move)
        else:
            break
        hands.wait(pause)
        if isinstance(game, BigBalls) and move.roll is not None:
            if not rec.at_baseline:  # the die is rolled once the last move shows as accepted
                hands.wait(max(0.0, S.settle + S.debounce + 0.001 - pause))
            table.set_roll(hands.t, move.roll)
        played.append(move)
        intended.push(move)
        do(hands, actions, gaps)
    hands.wait(S.grace + S.settle + 0.1)
    note("played: " + ", ".join(map(str, played)))
    note("events: " + "; ".join(map(str, table.log)))
    return table, played


@pytest.mark.parametrize("game_name", ["bigballs", "offboard"])
@LEGAL_RUNS
@given(start=st.integers(0, 100), prelude=st.lists(INDEX, max_size=12), plan=PLAN)
def test_legal_moves_played_by_hand_are_committed_exactly(game_name, start, prelude, plan):
    game = start_position(game_name, start, prelude)
    before = list(game.move_stack)
    table, played = play_legal_moves(game, plan)
    log = table.log
    assert [e.move for e in log if isinstance(e, Committed)] == played
    assert [e for e in log if isinstance(e, (Illegal, Amended, TakenBack))] == []
    assert table.rec.game.move_stack == before + played


# --- property 3: a piece held in the hand and put back ------------------------------------------------
# One piece at a time, each seen back before the next is lifted: two pieces lifted and one
# put back on the other's hollow (or a put-back and the next lift within one debounce time)
# is, to the sensors, exactly a capture with its target touched.
HOLDS = st.lists(st.tuples(INDEX, st.floats(0.0, 12.0), st.floats(S.debounce + 0.005, 2.0)), min_size=1, max_size=4)


@pytest.mark.parametrize("game_name", ["bigballs", "offboard"])
@LEGAL_RUNS
@given(start=st.integers(0, 100), prelude=st.lists(INDEX, max_size=12), roll=st.integers(1, 6), holds=HOLDS)
def test_a_piece_held_and_put_back_is_never_a_move(game_name, start, prelude, roll, holds):
    game = start_position(game_name, start, prelude)
    if game.outcome() is not None:
        return
    table = Table(game)
    hands = Hands(table, game.occupied())
    if isinstance(game, BigBalls) and game.can_roll():
        table.set_roll(hands.t, roll)
    rolled = table.rec.roll
    movers = sorted({c for m in game.turn_moves(rolled) for c in game.footprint(m).empties})
    if not movers:
        return
    for pick, held_for, pause in holds:  # lift a piece that may move, think, put it back
        cell = movers[pick % len(movers)]
        hands.lift(cell, after=pause).wait(held_for).place(cell)
    hands.wait(S.grace + S.settle + 0.1)
    note("events: " + "; ".join(map(str, table.log)))
    assert [e for e in table.log if isinstance(e, (Committed, Amended, TakenBack))] == []
    assert table.rec.roll == rolled and table.rec.game.move_stack == game.move_stack


def test_the_next_player_moving_on_the_ball_just_moved_is_no_amendment():
    game = BigBalls(black={"b2": 1}, white={"b3": 1, "g1": 2}, balls=["a3"])  # ball a3 may take b2
    table = Table(game)
    hands = Hands(table, game.occupied(), step=0.5)
    hands.lift("a3").place("a2").wait(1.0)  # Black: BB a3-a2, committed at once
    hands.lift("a2").place("a1").wait(S.grace + S.settle)  # White rolls that ball on: BB a2-a1
    # Not an amendment to BB a3xb2 (the same board, but b2 was never touched) then an illegal state.
    assert [str(e.move) for e in table.log if isinstance(e, Committed)] == ["BB a3-a2", "BB a2-a1"]
    assert [e for e in table.log if isinstance(e, (Amended, Illegal))] == []


def test_the_next_players_push_moved_ball_by_ball_is_no_amendment():
    game = OffBoard(red=["B3", "C3", "C4", "D4"], yellow=["D6", "D7", "D8", "I9"])
    table = Table(game)
    hands = Hands(table, game.occupied(), step=0.5)
    hands.lift("C4").place("D5").lift("B3").place("C4").wait(1.0)  # Red: B3-C4, committed at once
    # Yellow: D8-D7x2 front-first; after two steps the board is what Red's B3-C3 would have left.
    for src, dst in [("D4", "D3"), ("D5", "D4"), ("D6", "D5"), ("D7", "D6"), ("D8", "D7")]:
        hands.lift(src).place(dst)
    hands.wait(S.grace + S.settle)
    # Not an amendment to B3-C3 as D4 is refilled (Yellow's push is still growing).
    assert [str(e.move) for e in table.log if isinstance(e, Committed)] == ["B3-C4", "D8-D7x2"]
    assert [e for e in table.log if isinstance(e, (Amended, Illegal))] == []
