"""A club night's tournament without a broker: the Swiss pairing keeps its rules round after round
(no rematch, no second bye, colours within 2 and never three alike in a row), a round robin
meets everyone once, the standings equal a plain recomputation from the results, a correction is
journaled beside the result it changes, a result comes once, the journal replays to the same
tournament (a torn last line left out), the ratings reach the club's archive once, and the
exports (CSV, TRF) say what happened."""

import csv
import io
import itertools
import random

import pytest

from reedboard.controller.broadcast.club.tournament import Tournament, TournamentError, berger_round
from reedboard.controller.broadcast.club.tournament.exports import games_csv, standings_csv, trf
from reedboard.controller.broadcast.club.tournament.ratings import read_archive
from tournament_checks import check_rules, plain_standings

pytestmark = pytest.mark.unit

COLOURS = ["black", "white"]
BOARDS = [f"table{i}" for i in range(1, 9)]


def swiss(tmp_path, players=16, rounds=5, boards=BOARDS):
    t = Tournament.create(tmp_path / "night", name="Thursday club", game="bigballs", colours=COLOURS,
                          rounds=rounds, boards=boards)
    rng = random.Random(players)
    for i in range(players):
        t.register(f"Player {i + 1}", rating=1200 + rng.randrange(800))
    return t


def play_round(t, rng):
    pairing = t.pair_next()
    for game in pairing["games"]:
        t.enter_result(pairing["round"], game["number"], rng.choice(["1-0", "0-1", "1/2-1/2"]))
    return pairing


def test_a_sixteen_player_swiss_of_five_rounds_keeps_the_rules_and_its_standings_are_the_plain_ones(tmp_path):
    t = swiss(tmp_path)
    rng = random.Random(7)
    for __ in range(5):
        pairing = play_round(t, rng)
        assert len(pairing["games"]) == 8 and pairing["bye"] is None
    met, __ = check_rules(t)
    assert len(met) == 40
    points, buchholz, sb, direct = plain_standings(t)
    rows = t.standings()
    assert {r["name"]: (r["points"], r["buchholz"], r["sonneborn_berger"], r["direct"]) for r in rows} == {
        p: (points[p], buchholz[p], sb[p], direct[p]) for p in points}
    keys = [(-points[r["name"]], -buchholz[r["name"]], -sb[r["name"]], -direct[r["name"]]) for r in rows]
    assert keys == sorted(keys)
    with pytest.raises(TournamentError, match="all 5 rounds"):
        t.pair_next()


def test_round_one_pairs_the_upper_half_against_the_lower_with_colours_alternating(tmp_path):
    t = swiss(tmp_path)
    ranks = t.ranks()
    pairing = t.pair_next()
    pairs = [(ranks[g["first"]], ranks[g["second"]]) for g in pairing["games"]]
    assert sorted(tuple(sorted(p)) for p in pairs) == [(i, i + 8) for i in range(1, 9)]
    for first, second in pairs:  # the odd ranks of the upper half take the first colour
        higher = min(first, second)
        assert (first == higher) == (higher % 2 == 1)


def test_an_odd_field_gives_the_bye_to_the_lowest_score_and_never_twice_with_a_late_entry_and_a_withdrawal(tmp_path):
    t = swiss(tmp_path, players=7, rounds=6)
    rng = random.Random(3)
    for number in range(1, 7):
        if number == 3:
            t.register("Late Lou", rating=1500)  # plays from round 3, with 0 points for rounds 1-2
        if number == 4:
            t.withdraw("Player 2")
        before = {e.id: e.points for e in t.entrants(number)}
        pairing = play_round(t, rng)
        if pairing["bye"] is not None and number <= 4:  # (later, rematches leave fewer ways: round 6's goes up)
            assert before[pairing["bye"]] == min(points for pid, points in before.items()
                                                 if pid not in {b for b in t.byes.values() if b != pairing["bye"]})
    __, byes = check_rules(t)
    assert len(byes) == len(set(byes)) == 5  # rounds 1, 2 (7 players), 4, 5, 6 (7 again): 8 in round 3
    lou = t.player("Late Lou")["id"]
    assert all(lou not in (g["first"], g["second"]) for e in t.events if e["type"] == "pairing" and e["round"] < 3
               for g in e["games"])
    points, *__ = plain_standings(t)
    assert {r["name"]: r["points"] for r in t.standings()} == points


@pytest.mark.parametrize("players", [4, 5, 6, 9, 10])
def test_a_round_robin_by_the_berger_tables_meets_everyone_once_with_colours_balanced(players):
    n = players + players % 2
    seen = set()
    firsts = {p: 0 for p in range(1, n + 1)}
    for number in range(1, n):
        games = berger_round(players, number)
        assert len(games) == n // 2
        assert sorted(p for g in games for p in g) == list(range(1, n + 1))
        for a, b in games:
            assert frozenset((a, b)) not in seen
            seen.add(frozenset((a, b)))
            firsts[a] += 1
    assert len(seen) == n * (n - 1) // 2
    assert all(abs(2 * k - (n - 1)) <= 1 for k in firsts.values())


def test_berger_round_one_and_two_for_six_are_the_tables(tmp_path):
    assert sorted(berger_round(6, 1)) == [(1, 6), (2, 5), (3, 4)]
    assert sorted(berger_round(6, 2)) == [(1, 2), (5, 3), (6, 4)]


def test_a_round_robin_tournament_gives_the_round_off_in_turn(tmp_path):
    t = Tournament.create(tmp_path / "rr", name="Small group", game="abalone", colours=COLOURS, system="roundrobin",
                          boards=["a", "b"])
    for name in ("Ann", "Bo", "Cy", "Di", "Ed"):
        t.register(name)
    rng = random.Random(1)
    for __ in range(t.planned_rounds):
        play_round(t, rng)
    pairs = [frozenset((g["first"], g["second"])) for e in t.events if e["type"] == "pairing" for g in e["games"]]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, map(frozenset, itertools.combinations(range(1, 6), 2))))
    assert sorted(t.byes.values()) == [1, 2, 3, 4, 5]
    with pytest.raises(TournamentError):
        t.register("Too Late")


def test_a_result_counts_once_and_a_correction_is_journaled_with_its_reason(tmp_path):
    t = swiss(tmp_path, players=4, rounds=3, boards=["t1", "t2"])
    pairing = t.pair_next()
    game = pairing["games"][0]
    names = {COLOURS[0]: t.players[game["first"]]["name"], COLOURS[1]: t.players[game["second"]]["name"]}
    assert t.take_board_result("t1", "g-1", names, "black")["score"] == 2
    assert t.take_board_result("t1", "g-1", names, "black") is None  # the same game again
    assert t.take_board_result("t1", "g-2", names, "white") is None  # another game on the board: the first stands
    assert t.take_board_result("t2", "g-3", names, "white") is None  # not the players paired there
    with pytest.raises(TournamentError, match="correct it"):
        t.enter_result(1, 1, "0-1")
    with pytest.raises(TournamentError, match="says why"):
        t.correct(1, 1, "0-1", "  ")
    t.correct(1, 1, "1/2-1/2", "the players agreed a draw before the last move")
    assert [e["type"] for e in t.events].count("result") == 1
    assert t.corrections == [{"round": 1, "number": 1, "board": "t1", "before": "1-0", "after": "1/2-1/2",
                              "reason": "the players agreed a draw before the last move", "at": t.events[-1]["at"]}]
    again = Tournament(tmp_path / "night")
    assert again.standings() == t.standings()
    assert again.corrections == t.corrections
    assert again.take_board_result("t1", "g-1", names, "black") is None


def test_a_torn_last_line_is_left_out_and_the_tournament_goes_on(tmp_path):
    t = swiss(tmp_path, players=4, rounds=2, boards=["t1", "t2"])
    t.pair_next()
    t.close()
    with open(t.path, "ab") as file:
        file.write(b'{"type": "result", "round": 1, "numb')
    again = Tournament(tmp_path / "night")
    assert "torn" in again.warning
    assert again.round == 1 and len(again.unfinished()) == 2
    again.enter_result(1, 1, "1-0")
    assert Tournament(tmp_path / "night").rounds[1][0].score == 2


def test_the_ratings_reach_the_archive_once_and_a_known_player_keeps_theirs(tmp_path):
    t = swiss(tmp_path, players=4, rounds=1, boards=["t1", "t2"])
    play_round(t, random.Random(2))
    now = {row["name"]: row["rating"] for row in t.standings()}
    t.finish()
    archive = read_archive(tmp_path)
    assert len(archive["counted"]) == 1 and set(archive["players"]) == set(now)
    assert {row["name"]: row["rating"] for row in t.standings()} == now  # counted once, not twice
    nxt = Tournament.create(tmp_path / "next", name="Next week", game="bigballs", colours=COLOURS, rounds=1,
                            boards=["t1"])
    assert nxt.register("Player 1")["rating"] == now["Player 1"]
    assert nxt.register("Newcomer")["rating"] is None
    with pytest.raises(TournamentError, match="over"):
        t.pair_next()


def test_the_exports_say_the_games_the_standings_and_the_trf(tmp_path):
    t = swiss(tmp_path, players=5, rounds=2, boards=["t1", "t2"])
    rng = random.Random(4)
    play_round(t, rng)
    play_round(t, rng)
    games = list(csv.DictReader(io.StringIO(games_csv(t))))
    assert len(games) == 6 and sum(g["result"] == "bye" for g in games) == 2
    table = list(csv.DictReader(io.StringIO(standings_csv(t))))
    assert [r["name"] for r in table] == [r["name"] for r in t.standings()]
    lines = trf(t).splitlines()
    assert lines[0] == "012 Thursday club" and "XXR 2" in lines
    players = [line for line in lines if line.startswith("001")]
    assert len(players) == 5
    ranks = t.ranks()
    for line in players:
        rank = int(line[4:8])
        pid = next(p for p, r in ranks.items() if r == rank)
        assert line[14:47].strip() == t.players[pid]["name"]
        assert float(line[80:84]) == next(r["points"] for r in t.standings() if r["id"] == pid)
        cells = [line[91 + 10 * k: 99 + 10 * k] for k in range(2)]
        for cell in cells:
            assert cell[5] in "wb-" and cell[7] in "10=U"
