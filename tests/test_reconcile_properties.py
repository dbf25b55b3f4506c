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
the settle time; Big Balls captures with the victim or the mover lifted first).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from controller.games import BigBalls, OffBoard
from controller.games.offboard_layout import GRID as HEX
from controller.reconcile import Amended, Committed, Illegal, Reconciler, Settings, TakenBack

from physical import Hands

S = Settings()
RANDOM_RUNS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LEGAL_RUNS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

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
class Table:
    def __init__(self, game):
        self.shadow = game.copy()
        self.rolls = [getattr(m, "roll", None) for m in game.move_stack]  # the roll of each stacked move
        self.roll = None  # the die roll in force (Big Balls)
        self.rec = Reconciler(game, Settings(), roll=None, board=game.occupied())
        self.last_t = float("-inf")
        self.log: list = []  # every event, in order

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
                allowed = shadow.turn_moves(self.roll)
                assert e.move in allowed, f"{e.move} committed, not legal (roll {self.roll}) in\n{shadow.diagram()}"
                shadow.push(e.move)
                self.rolls.append(self.roll)
                self.roll = None
            elif isinstance(e, Amended):
                assert shadow.move_stack and shadow.move_stack[-1] == e.old, f"{e} amends no last move"
                shadow.pop()
                allowed = shadow.turn_moves(self.rolls[-1])
                assert e.new != e.old and e.new in allowed, (
                    f"{e.old} amended to {e.new}, not legal (roll {self.rolls[-1]}) in\n{shadow.diagram()}")
                shadow.push(e.new)
            elif isinstance(e, TakenBack):
                assert shadow.move_stack and shadow.move_stack[-1] == e.move, f"{e} takes back no last move"
                shadow.pop()
                self.rolls.pop()
                self.roll = None
        if any(isinstance(e, (Committed, Amended)) for e in events):
            assert rec.stable == rec.game.occupied(), "the stable board is not the position just accepted"
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
GAP = st.one_of(st.sampled_from([0.0, 0.005, 0.019, 0.02, 0.021, 0.1, 0.25]), st.floats(0, 0.9))
WAIT = st.one_of(st.sampled_from([0.02, 0.8, 0.82, 1.5, 1.52, 2.5]), st.floats(0, 2.5))
PHYSICAL = [
    st.tuples(st.just("lift"), INDEX, GAP),
    st.tuples(st.just("place"), INDEX, GAP),
    st.tuples(st.just("wait"), WAIT),
    st.tuples(st.just("bounce"), INDEX, st.floats(0.001, 0.010)),
]
LEGAL = [
    st.tuples(st.just("move"), INDEX, st.lists(st.integers(0, 99), min_size=1, max_size=10),
              st.lists(GAP, min_size=1, max_size=6), st.booleans()),
    st.tuples(st.just("roll"), st.integers(1, 6)),
]


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
        elif kind == "roll":
            if isinstance(game, BigBalls) and table.rec.at_baseline:
                table.set_roll(hands.t, step[1])
    hands.wait(S.grace + S.settle + 0.1)  # let every deadline fall due
    assert table.rec.next_deadline() is None or table.rec.next_deadline() > hands.t
    note("events: " + "; ".join(map(str, table.log)))
    return table


@pytest.mark.parametrize("with_moves", [True, False], ids=["with-legal-moves", "physical-only"])
@pytest.mark.parametrize("game_name", ["bigballs", "offboard"])
@RANDOM_RUNS
@given(data=st.data())
def test_random_hands_never_make_the_reconciler_accept_an_illegal_move(game_name, with_moves, data):
    start = data.draw(st.integers(0, 100), label="start")
    prelude = data.draw(st.lists(INDEX, max_size=12), label="prelude")
    kinds = PHYSICAL + (LEGAL if with_moves else [])
    steps = data.draw(st.lists(st.one_of(kinds), max_size=40), label="steps")
    run_random(start_position(game_name, start, prelude), steps)


# --- property 2: only legal moves, one after the other ----------------------------------------------------
def recognisable(game, moves):
    """Off Board moves whose occupancy no other move leaves (those are asked about, rule 6)."""
    if isinstance(game, BigBalls):
        return moves
    board = game.occupied()
    result = {}
    for move in moves:
        fp = game.footprint(move)
        result[move] = (board - fp.empties) | fp.fills
    counts = {}
    for r in result.values():
        counts[r] = counts.get(r, 0) + 1
    return [m for m in moves if counts[result[m]] == 1]


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
    played = []
    for choice, victim_first, pause, gaps in plan:
        hands.wait(pause)
        moves = recognisable(rec.game, rec.game.legal_moves())
        if not moves:
            break
        move = moves[choice % len(moves)]
        if isinstance(game, BigBalls):
            if move.roll is not None:
                if not rec.at_baseline:  # the die is rolled once the last move shows as accepted
                    hands.wait(max(0.0, S.settle + S.debounce + 0.001 - pause))
                table.set_roll(hands.t, move.roll)
            actions = capture_order(move, victim_first)
        else:
            actions = front_first(rec.game, move)
        played.append(move)
        do(hands, actions, gaps)
    hands.wait(S.settle + S.debounce + 0.1)
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
