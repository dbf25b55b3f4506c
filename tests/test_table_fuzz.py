"""The table fuzzer, small: simulated players (tests/table_players.py, written from the
recognition rules, not from the recogniser) play a few hundred whole games, and the replay of
each game's trace must give the record the players meant.

A game whose hands went where the recognition rules are silent or unclear is played but not
held against the replay (it is counted, and bench/table_fuzz.py reports it apart).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import tempfile
from pathlib import Path

import pytest

import table_players as tp
from conftest import seeds

pytestmark = pytest.mark.component

WRITTEN = {"bigballs": 150, "offboard": 80, "abalone": 80}  # seeds per game: well under a minute
GAMES = {game: seeds(count) for game, count in WRITTEN.items()}  # times --seeds

# The rarer hands each game knows: each is played, in a game the rules promise, among these seeds.
NEWER = {
    "bigballs": ("two hands at once", "set down on the way", "presses the die within the settle time"),
    "offboard": ("two hands at once", "set down on the way", "pauses with the line in the hand",
                 "a push into a full sector seen, then the ball put back", "pushed as the page's words say"),
    "abalone": ("two hands at once", "set down on the way", "pauses with the line in the hand",
                "pushed as the page's words say"),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_players_records_are_the_replays(game, tmp_path):
    found, promised, hands = [], 0, set()
    for seed in range(GAMES[game]):
        played = tp.play(game, seed)
        if not played.promised:
            continue
        promised += 1
        hands |= {hand for hand in NEWER[game] for kinds in played.kinds for kind in kinds if kind.startswith(hand)}
        wrong = tp.check(played, tmp_path)
        if wrong is not None:
            found.append(wrong)
    # most games stay where the rules promise an answer, or this test would prove little
    assert promised >= 0.7 * GAMES[game]
    if GAMES[game] >= WRITTEN[game]:  # fewer seeds (--seeds under 1) may miss a rarer hand
        assert hands == set(NEWER[game]), f"never played where the rules promise: {set(NEWER[game]) - hands}"
    if not found:
        return
    first = {}
    for wrong in found:
        first.setdefault(wrong.kind, wrong)
    report = "\n".join(w.describe(tp.shrink(w, tmp_path)[0]) for w in first.values())
    pytest.fail(f"{len(found)} of {promised} games: the replay's record is not the players':\n{report}")


def test_a_game_is_the_same_for_the_same_seed():
    for game in tp.GAMES:
        assert tp.play(game, 7).trace_text() == tp.play(game, 7).trace_text()
        assert tp.play(game, 7).trace_text() != tp.play(game, 8).trace_text()


def test_the_intended_records_follow_the_rules():
    """Each record replays move by move in the reference generators from its header."""
    for seed in range(20):
        played = tp.play("bigballs", seed)
        setup = played.header["setup"]
        pos = tp.bb.Position.setup(setup["black"], setup["white"], first=played.header["first"])
        for move in played.record[4:]:
            if tp.bb.outcome(pos) is not None:
                assert move.split()[0] in ("1-0", "0-1", "1/2-1/2")
                break
            assert move in tp.bb.legal_moves(pos), (seed, move)
            pos = tp.bb.apply(pos, move)
        played = tp.play("offboard", seed)
        pos = tp.ob.Position.setup()
        for move in played.record[2:]:
            if tp.ob.outcome(pos) is not None:
                break
            assert move in tp.ob.legal_moves(pos), (seed, move)
            pos = tp.ob.apply(pos, move)


def test_the_table_keeps_every_piece_where_the_position_has_it():
    """After every move the players check that each cell holds the piece the reference position
    has there (a ball's colour, a numbered stone), whether a push was made with every ball
    stepping or as the board's words say (the back ball kept in the hand, the pushed ball next to
    the line on to the free hole beyond, the back ball into the hole it left); a ball of the
    wrong colour is caught."""
    pushes = 0
    for game in ("offboard", "abalone"):
        for seed in range(6):
            players = tp.Players(game, seed)
            for person in players.people.values():
                person.page_push = 1.0
            played = players.play()  # checks the colours after every move
            pushes += sum("pushed as the page's words say" in kinds for kinds in played.kinds)
    assert pushes >= 10
    players = tp.Players("offboard", 0)
    board = players.table.board
    red = next(cell for cell, ball in board.items() if ball == "R")
    yellow = next(cell for cell, ball in board.items() if ball == "Y")
    board[red], board[yellow] = board[yellow], board[red]
    with pytest.raises(AssertionError):
        players.check_colours()


def test_a_disagreement_just_after_two_hands_at_once_is_named_after_them():
    played = tp.play("bigballs", 0)
    played.kinds = [["slid"], ["two hands at once: the next player lifts a piece"],
                    ["two hands at once: the next player lifts a piece"], ["touch and put back"]]
    wrong = tp.Disagreement(played, played.record[:7], 7)
    assert wrong.kind == "bigballs: after two hands at once: the next player lifts a piece; the record stops"
    wrong = tp.Disagreement(played, played.record[:5], 5)
    assert wrong.kind == "bigballs: two hands at once: the next player lifts a piece; the record stops"


def test_a_trace_keeps_to_the_contract():
    played = tp.play("offboard", 3)
    lines = played.trace_text().splitlines()
    assert json.loads(lines[0]) == {"game": "offboard"}
    times = [json.loads(line)["t"] for line in lines[1:]]
    assert times == sorted(times)
    assert any('"press"' in line for line in tp.play("bigballs", 3).trace_text().splitlines())


def test_a_wrong_intention_is_caught(tmp_path):
    """The check can fail: a record the players did not make is a disagreement, named by line."""
    played = tp.play("bigballs", 2)
    played.record = played.record[:5] + ["BB a7-a6"] + played.record[6:]
    wrong = tp.check(played, tmp_path)
    assert wrong is not None and wrong.line == 5
    assert "seed 2" in wrong.describe()


def test_the_bench_prints_the_agreement_and_leaves_no_traces_behind(tmp_path, monkeypatch, capsys):
    """bench/table_fuzz.py on a few games: the rate and the time are printed, and the traces it
    replays are gone afterwards (only the shortened first examples stay, in --out)."""
    spec = importlib.util.spec_from_file_location(
        "bench_table_fuzz", Path(__file__).resolve().parents[1] / "bench" / "table_fuzz.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    out = tmp_path / "examples"
    monkeypatch.setattr(sys, "argv", ["table_fuzz.py", "--games", "3", "--out", str(out)])
    bench.main()
    printed = capsys.readouterr().out
    assert "3 games (bigballs 1, offboard 1, abalone 1) in " in printed
    assert "the replay agreed on" in printed
    assert "the record stops (all games, promised or not): " in printed
    assert "what the hands did (all games)" in printed
    assert list(scratch.iterdir()) == []
