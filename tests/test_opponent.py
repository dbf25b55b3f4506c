"""The computer opponent: forced wins found, legal moves only, stopping, levels, `reedboard match`."""

from __future__ import annotations

import random

import pytest

from reedboard.controller.commands import usage
from reedboard.controller.games import GAMES, BigBalls, OffBoard, top_level
from reedboard.controller.games.abalone import Abalone
from reedboard.controller.games.offboard_layout import GRID
from reedboard.controller.opponent import LEVELS, ROLL, Limits, choose, level
from reedboard.controller.opponent.match import play_one, wilson

GAME_NAMES = sorted(GAMES)


def test_a_stone_one_step_below_a7_rolls_and_wins():
    game = BigBalls(black={"b6": 1}, white={"g1": 1, "f1": 2}, balls=["d3"], first="black")
    # one stone left moves on every roll: rolling wins for sure, a big-ball move does not
    decision = choose(game, Limits(depth=2))
    assert decision.move == ROLL
    assert decision.value > 0.9
    for roll in (1, 4, 6):
        result = choose(game, Limits(depth=2), roll=roll)
        assert str(result.move) == f"{roll} b6-a7"


def test_a_big_ball_takes_the_stone_about_to_win():
    # white's lone stone on a6 reaches a7 on any roll next turn; black's stone is far, but
    # the big ball on a7 can roll onto a6 and take it
    game = BigBalls(black={"a1": 1}, white={"a6": 1}, balls=["a7", "c5"], first="black")
    result = choose(game, Limits(depth=2))
    assert str(result.move) == "BB a7xa6"


def _off_board_push_off_to_six() -> tuple[OffBoard, str]:
    """Red's two balls behind a yellow one at the edge, red at 6 less that push-off's points."""
    for cell, name in enumerate(GRID.names):
        for d in range(6):
            if GRID.step[d][cell] >= 0:
                continue
            back = (d + 3) % 6
            behind = GRID.ray[back][cell][:2]
            if len(behind) < 2:
                continue
            game = OffBoard(red=[GRID.names[c] for c in behind], yellow=[name, "E5"], sectors={})
            push_off = [m for m in game.legal_moves() if m.sector is not None]
            if len(push_off) != 1:
                continue
            points = push_off[0].points
            others = [s for s in game.sectors if s.name != push_off[0].sector]
            scored, total = {}, 0
            for sector in others:  # yellow balls in sectors: points red scored before
                if total + sector.value <= 6 - points:
                    scored[sector.name] = "yellow"
                    total += sector.value
            if total == 6 - points:
                game = OffBoard(red=[GRID.names[c] for c in behind], yellow=[name, "E5"], sectors=scored)
                return game, str(push_off[0])
    raise AssertionError("no such position on this board")


def test_the_push_off_that_reaches_six_points():
    game, winning = _off_board_push_off_to_six()
    assert game.score("red") < 6
    result = choose(game, Limits(depth=3))
    assert str(result.move) == winning
    assert result.value > 0.9


def test_the_sixth_abalone_push_off():
    # black's two marbles behind a white one on the edge; five already pushed off
    game = Abalone(black=["C3", "B2"], white=["D4", "A1", "E5", "E6"], turn="black", pushed_off={"black": 5})
    winning = [m for m in game.legal_moves() if m.off]
    assert winning, game.diagram()
    result = choose(game, Limits(depth=3))
    assert result.move in winning
    assert result.value > 0.9
    game.push(result.move)
    assert game.outcome().winner == "black"


def _random_position(name: str, rng: random.Random):
    game = GAMES[name]()
    for _ in range(rng.randrange(0, 40)):
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            break
        game.push(rng.choice(moves))
    return game


@pytest.mark.parametrize("name", GAME_NAMES)
def test_never_an_illegal_move(name):
    rng = random.Random(name)
    for _ in range(30):
        game = _random_position(name, rng)
        if game.outcome() is not None:
            continue
        before = game.move_stack[:]
        result = choose(game, Limits(depth=3, nodes=300), rng=rng)
        assert game.move_stack == before  # the caller's game is left as it was
        if game.uses_die:
            assert result.move == ROLL and game.can_roll() or result.move in game.turn_moves(None)
            roll = rng.randint(1, 6)
            if game.can_roll():
                assert choose(game, Limits(depth=2, nodes=300), roll=roll).move in game.turn_moves(roll)
        else:
            assert result.move in game.legal_moves()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_evaluation_is_bounded_and_the_same_seen_from_both_sides(name):
    rng = random.Random(f"eval {name}")
    for _ in range(30):
        game = _random_position(name, rng)
        first, second = (game.evaluate(p) for p in game.players)
        assert -0.9 <= first <= 0.9
        assert first == pytest.approx(-second)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_stop_asked_for_returns_a_legal_move_at_once(name):
    game = GAMES[name]()
    calls = 0

    def stop() -> bool:
        nonlocal calls
        calls += 1
        return calls > 3

    result = choose(game, Limits(depth=64), stop=stop)
    assert not result.completed
    assert calls == 4
    assert result.nodes <= 4 * 256
    options = game.turn_moves(None) + ([ROLL] if game.can_roll() else [])
    assert result.move in options


def test_a_clock_past_the_budget_stops_the_search():
    ticks = iter(range(10_000))
    result = choose(Abalone(), Limits(depth=64, seconds=5), clock=lambda: next(ticks))  # one second a call
    assert not result.completed and result.move in Abalone().legal_moves()


def test_the_node_limit_holds():
    result = choose(OffBoard(), Limits(depth=64, nodes=500))
    assert result.nodes <= 500 and not result.completed


def test_each_games_levels_grow():
    assert sorted(LEVELS) == list(range(1, top_level() + 1))  # up to the longest game's table
    for game in (None, "abalone", "bigballs", "offboard"):
        settings = [LEVELS[n].setting(game) for n in range(1, top_level(game) + 1)]
        # a level never looks less far than the one below; at the same depth it may look at
        # no fewer positions and picks no more loosely (a deep level's budget is what cuts it)
        assert [s.depth for s in settings] == sorted(s.depth for s in settings)
        for lower, upper in zip(settings, settings[1:]):
            if lower.depth == upper.depth:
                assert upper.nodes >= lower.nodes and upper.temperature <= lower.temperature, (lower, upper)
        assert settings[0].temperature > 0 and settings[-1].temperature == 0
        assert level(top_level(game), game).limits(game).seconds is None  # the nodes decide; time is the table's cap only
        with pytest.raises(ValueError, match=f"1 to {top_level(game)}"):
            level(top_level(game) + 1, game)


def test_wilson_interval():
    low, high = wilson(15, 20)
    assert 0.5 < low < 0.75 < high < 0.95
    assert wilson(20, 20)[1] == pytest.approx(1.0)


def test_a_match_game_is_the_same_for_the_same_seed():
    first = play_one("bigballs", ("greedy", "random"), 3, 7, 300)
    again = play_one("bigballs", ("greedy", "random"), 3, 7, 300)
    assert (first.result, first.moves) == (again.result, again.moves)
    assert first.first_colour == "white"  # odd games: the first player takes the second colour


def test_a_move_limit_makes_a_draw():
    result = play_one("offboard", ("random", "random"), 0, 1, 6)
    assert result.result == "1/2-1/2" and "no end after 6 moves" in result.reason


def _match_parser():
    parser = usage.Parser(prog="reedboard")
    commands = parser.add_subparsers()
    from reedboard.controller.commands import match_command
    match_command.add_parser(commands)
    return parser


def test_reedboard_match_bigballs_computer_3_against_random(capsys):
    args = _match_parser().parse_args("match bigballs computer:3 random --games 20 --seed 1".split())
    assert args.run(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sum(line.startswith("game ") for line in lines) == 20
    assert lines[-1].startswith("computer:3 scored ") and "95 % interval" in lines[-1]


@pytest.mark.parametrize("player", [f"computer:{top_level() + 1}", "computer:0", "computer", "smart"])
def test_a_bad_player_is_one_line(player):
    with pytest.raises(usage.UsageError, match=f"random, greedy or computer:1 .. computer:{top_level()}"):
        _match_parser().parse_args(["match", "bigballs", player, "random"])


def test_a_drawn_start_shuffles_the_stones_only_where_players_shuffle_them():
    drawn = [BigBalls.drawn_start(random.Random(seed)).stones("black") for seed in range(5)]
    assert len({tuple(sorted(d.items())) for d in drawn}) > 1
    assert all(sorted(d.values()) == [1, 2, 3, 4, 5, 6] for d in drawn)
    assert OffBoard.drawn_start(random.Random(1)).balls("red") == OffBoard().balls("red")


# --- the pruned searches give the values of plain minimax and expectimax --------------------
from reedboard.controller.opponent.search_parts import end_value, static_value  # noqa: E402


def plain_expectimax(game, depth: int, ply: int = 0) -> float:
    """A turn's value for the player to move, every branch searched."""
    ended = end_value(game, ply)
    if ended is not None:
        return ended
    if depth == 0:
        return static_value(game)
    values = []
    for move in game.turn_moves(None):
        game.push(move)
        values.append(-plain_expectimax(game, depth - 1, ply + 1))
        game.pop()
    if game.can_roll():
        faces = []
        for roll in range(1, 7):
            best = -2.0
            for move in game.turn_moves(roll):
                game.push(move)
                best = max(best, -plain_expectimax(game, depth - 1, ply + 1))
                game.pop()
            faces.append(best)
        values.append(sum(faces) / 6)
    return max(values)


def plain_minimax(game, depth: int, ply: int = 0) -> float:
    ended = end_value(game, ply)
    if ended is not None:
        return ended
    if depth == 0:
        return static_value(game)
    values = []
    for move in game.legal_moves():
        game.push(move)
        values.append(-plain_minimax(game, depth - 1, ply + 1))
        game.pop()
    return max(values)


def test_star1_pruning_gives_the_expectimax_value():
    # small positions, searched three turns deep: the chance nodes below the root prune
    positions = [BigBalls(black={"c3": 1, "a2": 2}, white={"e2": 1, "d1": 2}, balls=["a7", "b5"]),
                 BigBalls(black={"b4": 3, "e1": 5}, white={"c2": 2, "a3": 6}, balls=["c5", "d2"], first="white"),
                 BigBalls(black={"a4": 1, "d2": 4}, white={"b3": 1, "c4": 4}, balls=["a6", "c3"])]
    for game in positions:
        result = choose(game, Limits(depth=3))
        assert result.depth == 3
        assert result.value == pytest.approx(plain_expectimax(game.copy(), 3), abs=0.005)


def test_principal_variation_search_gives_the_minimax_value():
    # small positions searched by iterative deepening, the table carried from one depth to the next
    cases = [OffBoard(red=["E4", "E5", "D4"], yellow=["E6", "D5"], sectors={}),
             OffBoard(red=["A1", "B2", "C3"], yellow=["D4", "C4"], sectors={"S3": "yellow", "S2": "red"}),
             Abalone(black=["E4", "E5", "D4"], white=["E6", "E7", "D5"], turn="black", pushed_off={"black": 5})]
    for game in cases:
        result = choose(game, Limits(depth=3))
        assert result.value == pytest.approx(plain_minimax(game.copy(), 3), abs=0.005)


def test_null_windows_and_the_table_keep_the_minimax_value():
    # searched straight at one depth (no deepening to order the moves well), first in narrow
    # windows that fail high or low and fill the table with bounds, then in the full window
    from reedboard.controller.opponent.alphabeta import AlphaBeta
    from reedboard.controller.opponent.search_parts import INFINITY

    rng = random.Random("null windows")
    cases = [(_random_position(name, rng), 2) for name in ("abalone", "offboard") for _ in range(3)]
    cases.append((_random_position("offboard", random.Random(3)), 3))
    for game, depth in cases:
        if game.outcome() is not None:
            continue
        expected = plain_minimax(game.copy(), depth)
        fresh = AlphaBeta(game, Limits())
        fresh.killers, fresh.history = {}, {}
        assert fresh.search(depth, -INFINITY, INFINITY, 0) == pytest.approx(expected, abs=1e-9)
        engine = AlphaBeta(game, Limits())
        engine.killers, engine.history = {}, {}
        for low, high in ((expected - 0.3, expected - 0.2), (expected + 0.1, expected + 0.2),
                          (expected - 0.01, expected + 0.01)):
            value = engine.search(depth, low, high, 0)
            assert (value <= low) if expected <= low else (value >= high) if expected >= high else \
                value == pytest.approx(expected, abs=1e-9)
        assert engine.search(depth, -INFINITY, INFINITY, 0) == pytest.approx(expected, abs=1e-9)


def test_a_turn_with_a_die_shares_its_nodes_between_its_two_searches():
    game = BigBalls()
    before = choose(game, Limits(depth=64, nodes=1000))
    after = choose(game, Limits(depth=64, nodes=1000), roll=3)
    assert before.nodes + after.nodes <= 1000


# --- searching by nodes, move ordering -------------------------------------------------------
from reedboard.controller.opponent.match import player_limits  # noqa: E402

pytestmark = pytest.mark.component


def test_a_match_searches_by_the_levels_node_budgets_and_nodes_replaces_the_top_ones():
    top = player_limits(f"computer:{top_level('abalone')}", nodes=5000, game="abalone")
    assert (top.seconds, top.nodes) == (None, 5000)
    low = player_limits("computer:3", nodes=5000, game="bigballs")
    assert (low.seconds, low.nodes) == (None, LEVELS[3].setting("bigballs").nodes)
    assert player_limits("computer:8", nodes=5000, game="offboard") == LEVELS[8].limits("offboard")
    strongest = top_level("offboard")
    assert player_limits(f"computer:{strongest}", game="offboard") == LEVELS[strongest].limits("offboard")  # never by time
    assert player_limits("greedy", nodes=5000).depth == 1


def test_a_match_by_nodes_plays_the_same_games_whatever_the_clock(monkeypatch, capsys):
    # a clock that races ahead would cut every search at once if the clock counted
    args = _match_parser().parse_args("match offboard computer:8 greedy --games 2 --nodes 400 --max-moves 6".split())
    assert args.run(args) == 0
    first = capsys.readouterr().out
    import reedboard.controller.opponent.search_parts as search
    ticks = iter(range(0, 10**9, 100))
    monkeypatch.setattr(search.time, "monotonic", lambda: next(ticks))
    assert args.run(args) == 0
    again = capsys.readouterr().out
    assert [line for line in first.splitlines() if line.startswith("game ")] == \
        [line for line in again.splitlines() if line.startswith("game ")]


@pytest.mark.parametrize("text", ["0", "-3", "many"])
def test_a_bad_node_budget_is_one_line(text):
    with pytest.raises(usage.UsageError, match="whole number"):
        _match_parser().parse_args(["match", "abalone", "computer:8", "random", "--nodes", text])


def test_push_offs_come_first_then_pushes_then_the_killers():
    from reedboard.controller.opponent.alphabeta import AlphaBeta

    game = Abalone(black=["C3", "B2", "E4", "E3", "G5"], white=["D4", "A1", "E5", "H6"], turn="black")
    engine = AlphaBeta(game, Limits())
    engine.killers, engine.history = {}, {}
    moves = game.legal_moves()
    quiet = [m for m in moves if not m.pushed]
    engine.killers[3] = [quiet[-1]]
    ordered = engine.ordered(list(moves), None, 3)
    kinds = [2 if m.off else 1 if m.pushed else 0 for m in ordered]
    assert kinds == sorted(kinds, reverse=True) and kinds[0] == 2
    assert ordered[kinds.count(2) + kinds.count(1)] == quiet[-1]
    assert engine.ordered(list(moves), quiet[0], 3)[0] == quiet[0]  # the table's move before all


def test_an_opening_starts_each_pair_of_games_alike_and_the_pairs_apart(capsys):
    results = [play_one("abalone", ("greedy", "computer:2"), index, 5, 2, opening_plies=4) for index in range(4)]
    assert all(len(r.opening) == 4 for r in results)
    assert results[0].opening == results[1].opening != results[2].opening == results[3].opening
    assert results[0].first_colour != results[1].first_colour
    plain = play_one("abalone", ("greedy", "computer:2"), 0, 5, 2)
    assert plain.opening == ()
    args = _match_parser().parse_args("match offboard greedy random --games 2 --opening 3 --max-moves 2".split())
    assert args.run(args) == 0
    games = [line for line in capsys.readouterr().out.splitlines() if line.startswith("game ")]
    assert len(games) == 2 and all(" after " in line for line in games)
    with pytest.raises(usage.UsageError, match="0 to 40"):
        _match_parser().parse_args("match offboard greedy random --opening 41".split())


@pytest.mark.parametrize("name", ["offboard", "abalone"])
def test_a_position_met_again_scores_as_a_draw_and_the_game_so_far_is_left_as_it_was(name):
    from reedboard.controller.opponent.alphabeta import AlphaBeta
    from reedboard.controller.opponent.search_parts import INFINITY

    rng = random.Random(f"again {name}")
    game = next(g for g in (_random_position(name, rng) for _ in range(50))
                if g.outcome() is None and abs(g.evaluate(g.turn)) > 0.01)
    engine = AlphaBeta(game, Limits())
    stack, key = list(engine.game.move_stack), engine.game.position_key()
    seen = engine.positions_so_far()
    assert engine.game.move_stack == stack and engine.game.position_key() == key
    assert key in seen and len(seen) <= len(stack) + 1
    assert engine.search(0, -INFINITY, INFINITY, 1) != 0.0  # a new position: its evaluation
    engine.path = seen
    assert engine.search(0, -INFINITY, INFINITY, 1) == 0.0  # met before: a draw
    assert engine.search(2, -INFINITY, INFINITY, 1) == 0.0
