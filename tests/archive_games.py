"""Games journaled for the archive's tests: by hand (a few known games, a record typed by hand)
and at random, as at the table (rolls, moves, now and then a takeback, an amendment or a comment).
The `club` fixture (conftest.py) is a small archive made of them."""

from datetime import datetime, timedelta, timezone

from reedboard.controller.core.clock import ClockSettings
from reedboard.controller.games import BigBalls, game_class
from reedboard.controller.persist.journal import Journal

START = datetime(2026, 11, 1, 18, 0, tzinfo=timezone.utc)  # the first evening of the games by hand
EVENING = datetime(2026, 11, 28, 19, 30, tzinfo=timezone(timedelta(hours=1)))  # of the random games
COMMENTS = ("a bold start", "time trouble", "the only move")


# --- games by hand --------------------------------------------------------------------------------
def played(games_dir, game, moves, *, players=None, day=0, result=None, now=None):
    """A journal of `moves` (in notation) on `game`, then `result` ("rules", "resign", "agreed") or none."""
    journal = Journal.create(games_dir, game.copy(), {}, now or START + timedelta(days=day), players=players)
    for t, text in enumerate(moves, 1):
        game.play(text)
        journal.append_move(float(t), text)
    if result == "resign":
        game.resign(game.turn)
    elif result == "agreed":
        game.agree_draw()
    outcome = game.outcome()
    if outcome is not None:
        journal.append_result(99.0, outcome.result(game.players), outcome.termination.value, outcome.winner)
    journal.close()
    return journal.path


A7_GAME = ["5 a1xa2", "1 e3-d4", "1 b1xa2", "5 f2-e3", "5 a3-a4", "6 e2-d3", "1 a2-a3", "5 e3xd4", "4 a4xa5",
           "5 d4xc5", "1 a3-a4", "1 g1-f2", "5 a5xa6", "6 d3-d4", "4 a6xa7"]


def bigballs():
    from reedboard.controller.games.bigballs import parse_setup
    return BigBalls(**parse_setup("black=a1:5,b1:1,c1:6,a2:4,b2:2,a3:3 white=e1:3,f1:4,g1:2,e2:6,f2:5,e3:1"))


HAND = """\
[Game "bigballs"]
[Event "Club evening"]
[Date "2026.11.28"]
[Black "Ann"]
[White "Bob"]
[Setup {"black": {"a1": 5, "b1": 1, "c1": 6, "a2": 4, "b2": 2, "a3": 3}, "white": {"e1": 3, "f1": 4, "g1": 2, "e2": 6, "f2": 5, "e3": 1}}]

1. 5 a1xa2 {a bold start}
2. 1 e3-d4
3. 1 b1xa2
4. 5 f2-e3
*

[Game "abalone"]
[Date "2026-11-29"]
[White "Ann"]
1. A1B2 {[%t 12]}
2. I5H5
0-1 resign
"""


# --- random games, journaled as at the table --------------------------------------------------------
def random_journal(games_dir, name, rng, now=EVENING, max_moves=60, players=None, clock=False, extras=True):
    """A random legal game of `name` journaled in games_dir: rolls, moves, now and then a takeback,
    an amendment or a comment, and a result (by the rules, a resignation or an agreed draw) or none."""
    game = game_class(name).drawn_start(rng)
    settings = ClockSettings(10, 5) if clock else None
    colours = game.players
    journal = Journal.create(games_dir, game, {}, now, settings, players=players)
    t, left = 0.0, {colour: 600.0 for colour in colours}
    for _ in range(rng.randint(1, max_moves)):
        if game.outcome() is not None:
            break
        t = round(t + rng.uniform(0.5, 30), 2)
        options = list(game.turn_moves(None))
        if game.uses_die and game.can_roll():
            roll = rng.randint(1, 6)
            journal.append_roll(t, game.turn, roll)
            options = list(game.turn_moves(roll))
        mover = game.turn
        move = rng.choice(options)
        game.push(move)
        if clock:
            left[mover] = round(left[mover] - rng.uniform(0, 20) + 5, 2)
        comment = rng.choice(COMMENTS) if extras and rng.random() < 0.1 else None
        journal.append_move(t, game.format_move(move), dict(left) if clock else None, comment)
        if extras and game.outcome() is None and rng.random() < 0.05:
            t += 1
            journal.append_takeback(t, game.format_move(game.pop()))
        elif extras and game.outcome() is None and rng.random() < 0.05:
            old = game.pop()
            new = rng.choice([m for m in game.legal_moves()])
            game.push(new)
            t += 1
            journal.append_amend(t, game.format_move(old), game.format_move(new))
    outcome = game.outcome()
    if outcome is None and extras and rng.random() < 0.3:
        outcome = game.resign(game.turn) if rng.random() < 0.7 else game.agree_draw()
    if outcome is not None:
        journal.append_result(t + 2, outcome.result(colours), outcome.termination.value, outcome.winner)
    journal.close()
    return journal.path
