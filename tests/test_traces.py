"""Recorded board traces replay to the game they were made from.

Each tests/traces/NAME.jsonl is what hands at the table did (made by make_traces.py) and
NAME.record the record of the moves those hands meant, from the scenario's shadow game,
not from a replay. The replay must give exactly that record; the notes say what the
players were shown on the way.
"""

import json
import re
import sys
from pathlib import Path

import pytest

from reedboard.controller.commands.cli import main
from reedboard.controller.session.replay import replay
from reedboard.controller.persist.trace import read_trace
from reedboard.controller.words.notes import written

TRACES = Path(__file__).resolve().parent / "traces"
NAMES = sorted(p.stem for p in TRACES.glob("*.jsonl"))
sys.path.insert(0, str(TRACES))
import make_traces  # noqa: E402

pytestmark = pytest.mark.component


def replayed(name: str):
    return replay(read_trace(TRACES / f"{name}.jsonl"), source=name)


def notes(name: str) -> list[tuple[float, str]]:
    done = replayed(name)
    return [(note.t, written(note.kind, note.data, done.referee.game)) for note in done.notes]


def kinds(name: str) -> list[tuple[str, dict]]:
    """What the players were shown, as data: (kind, data) of each note."""
    return [(note.kind, note.data) for note in replayed(name).notes]


def moves_shown(name: str) -> list[str]:
    return [data["move"] for kind, data in kinds(name) if kind == "move"]


def test_every_scenario_has_a_trace_and_the_traces_are_current():
    assert sorted(make_traces.SCENARIOS) == NAMES
    for name, scenario in make_traces.SCENARIOS.items():
        built = scenario()
        assert (TRACES / f"{name}.jsonl").read_text() == built.text(), name
        assert (TRACES / f"{name}.record").read_text().splitlines() == built.record(), name


@pytest.mark.parametrize("name", NAMES)
def test_a_trace_replays_to_its_record(name):
    expected = (TRACES / f"{name}.record").read_text().splitlines()
    assert replayed(name).record == expected


def test_the_replay_command_prints_the_record_and_the_events(capsys):
    path = TRACES / "bigballs-illegal.jsonl"
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == (TRACES / "bigballs-illegal.record").read_text().splitlines()
    assert main(["replay", str(path), "--events"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^\s+4\.820  illegal: move the big ball from c2 back to c4$", out, re.M)
    assert "put back: no move" not in out  # the correction is no touch to report


def test_whole_games_end_by_the_rules():
    assert replayed("bigballs-game-to-a7").record[-1] in ("1-0 a7", "0-1 a7")
    last = replayed("offboard-game-to-six").record[-1]
    assert re.fullmatch(r"(1-0|0-1) points \d+-\d+", last)
    score = [int(x) for x in last.split()[-1].split("-")]
    assert max(score) >= 6


def landing(name: str, move_note: str) -> float:
    """When the last frame before a move's commit arrived."""
    (t,) = [t for t, text in notes(name) if text == move_note]
    frames = [e.t for e in read_trace(TRACES / f"{name}.jsonl").events if hasattr(e, "occupied") and e.t < t]
    return t - frames[-1]


@pytest.mark.parametrize("name", ["bigballs-capture-victim-first", "bigballs-capture-mover-first"])
def test_a_capture_in_either_lift_order(name):
    # a1 has no free neighbour: nothing else can come of the board, the capture counts at once
    assert landing(name, "move 1 a1xa2") == pytest.approx(0.02)
    # a3 could still step to b3: the capture counts once the board has been still 0.8 s
    assert landing(name, "move 6 a3xa4") == pytest.approx(0.02 + 0.8)


def test_a_quick_swap_is_recorded_when_the_next_player_starts():
    events = notes("bigballs-quick-swap")
    (t,) = [t for t, text in events if text == "move 6 a3xa4"]
    frames = [e for e in read_trace(TRACES / "bigballs-quick-swap.jsonl").events if hasattr(e, "occupied")]
    lifted = [e.t for e in frames if "a3" not in e.occupied][0]
    white_starts = [e.t for e in frames if "b5" not in e.occupied][0]  # White lifts the big ball on b5
    white_places = [e.t for e in frames if "b4" in e.occupied][0]  # ... and puts it on b4
    # Not on stillness alone, nor on White's lift alone: Black's stone could still be in the hand
    # beside White's (rule 10). White's whole move, still for the settle time, is White's start (R16).
    assert t - lifted > 3 and t > white_starts and t == pytest.approx(white_places + 0.02 + 0.8)
    assert moves_shown("bigballs-quick-swap")[-2:] == ["6 a3xa4", "BB b5-b4"]


def test_a_stone_held_in_the_hand_then_put_back_is_no_move_and_keeps_the_roll():
    shown = kinds("bigballs-hesitate")
    assert [d["cells"] for k, d in shown if k == "touch"] == [["a3"]]
    assert [d["value"] for k, d in shown if k == "roll"] == [6]  # one roll: the same 6 moved the stone
    assert moves_shown("bigballs-hesitate")[-1] == "6 a3-b3"
    assert not any(k in ("illegal", "takeback", "amend") for k, _ in shown)


def test_the_next_player_lifting_the_piece_just_moved_is_no_amendment():
    shown = kinds("bigballs-capture-the-piece-just-moved")
    assert moves_shown("bigballs-capture-the-piece-just-moved")[-2:] == ["6 a3-b3", "BB a4xb3"]
    assert not any(k in ("amend", "illegal") for k, _ in shown)


def test_a_five_ball_line_moved_ball_by_ball_is_one_move():
    moves = [text for _, text in notes("offboard-five-ball-line") if text.startswith(("move", "amended"))]
    assert moves == ["move E1-E2", "move I9-H9"]


@pytest.mark.parametrize("name", [n for n in NAMES if n.startswith("abalone-") and "two-push-offs" not in n])
def test_abalone_moves_made_marble_by_marble_are_one_move_each(name):
    """Broadside moves made marble by marble or all at once, inline pushes made front first or
    slid, and a push-off: the move recogniser reads each as the one move the hands made,
    with nothing illegal, ambiguous or touched on the way."""
    shown = kinds(name)
    assert [k for k, _ in shown if k in ("illegal", "choose", "touch", "amend", "refused")] == []
    record = (TRACES / f"{name}.record").read_text().splitlines()
    assert moves_shown(name) == record[2:]


def test_a_swap_two_push_offs_fit_is_asked_once_and_a_touch_answers():
    shown = [k for k, _ in kinds("abalone-two-push-offs-slid-then-pushed-off")]
    assert shown.count("choose") == 1 and "illegal" not in shown and "refused" not in shown


def test_a_push_off_made_while_a_slid_one_was_held_counts_on_the_hole_it_opened():
    """White slides E6E7 (only E6 empties: held); Black answers D3D2, lifting White's marble on
    D1 first, and D1 is full again when E6E7 counts. That D1 was seen empty still counts for
    Black: D3D2 counts once the board has been still for the settle time, not held as a marble
    in Black's hand until White's next move."""
    name = "abalone-push-off-slid-then-pushed-off"
    assert moves_shown(name)[-3:] == ["E6E7", "D3D2", "E7F8"]
    assert landing(name, "move D3D2") == pytest.approx(0.02 + 0.8)


def test_an_abalone_push_off_counts_for_the_pusher():
    result = replayed("abalone-push-off-edge-first")
    assert result.referee.game.position_data()["score"] == {"black": 1, "white": 0}


def test_amendments_are_shown():
    assert (4.22, "amended: E5-E6 -> E4-E5") in [(round(t, 2), x) for t, x in notes("offboard-amend")]
    assert any(text == "amended: BB a5-a4 -> BB a5-b4" for _, text in notes("bigballs-amend"))


def test_a_takeback_through_a_held_capture_is_the_takeback():
    """Yellow takes A3-B3x1 back from the front: the first lift leaves the board of Red's
    D3-E4x1 into the full S7 (held), the second lifts a ball of Yellow's line. That is the
    takeback under way, not Red's quick swap and Yellow's start (R13)."""
    name = "offboard-takeback-through-a-held-capture"
    shown = [text for _, text in notes(name) if text.startswith(("move", "takeback", "amended"))]
    assert shown[-4:] == ["move A3-B3x1", "takeback: A3-B3x1", "move A3-B3x1", "move E4-D3"]
    assert not any(k in ("illegal", "choose") for k, _ in kinds(name))


def test_an_amendment_while_the_next_players_roll_stands_keeps_that_roll():
    """A number kept for White and shown is no start of White's: Black's move amended counts,
    and White moves with the 2 rolled before the takeback, pressing nothing (R15)."""
    name = "bigballs-amend-while-the-next-roll-stands"
    shown = [text for _, text in notes(name)]
    assert "amended: 6 a3-b3 -> 6 a3xa4" in shown
    rolls = [(d["player"], d["value"], d["kept"]) for k, d in kinds(name) if k == "roll"]
    assert rolls[-1] == ("white", 2, True)  # shown again, no press: the last roll seen
    assert moves_shown(name)[-2:] == ["2 f1xf2", "BB b5-b4"]
    assert "illegal" not in [k for k, _ in kinds(name)]


def test_touches_and_bumps_are_no_moves():
    assert [d["cells"] for k, d in kinds("offboard-touch") if k == "touch"] == [["E5"], ["A1"]]
    assert [x for _, x in notes("offboard-touch") if "no move" in x] == ["E5 put back: no move", "A1 put back: no move"]
    assert not any(k == "illegal" for k, _ in kinds("offboard-bump") + kinds("bigballs-bump"))


def test_illegal_moves_are_signalled_and_corrected():
    for name, fill, empty, text in (
            ("bigballs-illegal", ["c4"], ["c2"], "illegal: move the big ball from c2 back to c4"),
            ("offboard-illegal", ["D6"], ["D5"], "illegal: move the yellow ball from D5 back to D6")):
        shown = kinds(name)
        illegal = [i for i, (k, d) in enumerate(shown) if k == "illegal" and (d["fill"], d["empty"]) == (fill, empty)]
        cleared = [i for i, (k, _) in enumerate(shown) if k == "clear"]
        assert illegal and cleared and illegal[0] < cleared[0], shown
        assert text in [x for _, x in notes(name)]


def test_a_stone_moved_before_the_roll_is_guided_back_then_the_roll_counts():
    shown = kinds("bigballs-before-roll")
    assert shown[2][0] == "refused" and shown[3] == ("illegal", shown[3][1]) and shown[3][1]["fill"] == ["a3"]
    assert [x for _, x in notes("bigballs-before-roll")][-2:] == ["black rolls 6: stone 6", "move 6 a3-b3"]


def test_ambiguity_is_asked_and_resolved_by_touch():
    asked = [d["moves"] for k, d in kinds("offboard-ambiguous") if k == "choose"]
    assert asked == [["C3-B2x1 S4 full", "C3-C2x1 S4 full"]]
    assert moves_shown("offboard-ambiguous")[-1] == "C3-C2x1 S4 full"
    # Big Balls: a stone lifted with no victim seen is asked about once the ok button says it moved
    asked = [d["moves"] for k, d in kinds("bigballs-ambiguous") if k == "choose"]
    assert asked == [["1 a1xa2", "1 a1xb1"]] and moves_shown("bigballs-ambiguous")[0] == "1 a1xb1"


def test_a_game_resumed_after_a_power_cut_replays_whole():
    texts = [x for _, x in notes("bigballs-resume")]
    power = texts.index("power back: resuming the game")
    # the capture still settling when the power went never counted: it is made again after
    assert "move 2 f1xf2" not in texts[:power] and texts[power:].count("move 2 f1xf2") == 1
    assert texts[-1] == "move BB c5-c4"


def test_takebacks_of_one_and_two_moves():
    assert [x for _, x in notes("offboard-takeback-two") if x.startswith("takeback")] == [
        "takeback: D6-D5", "takeback: E5-E6"]
    assert [d for k, d in kinds("bigballs-takeback-one") if k == "takeback"] == [{"move": "5 f2xe2", "roll": 5}]
    # the die keeps its 5: White moves again with it and never rolls again
    assert [d["value"] for k, d in kinds("bigballs-takeback-one") if k == "roll"] == [5]


# --- bad input ----------------------------------------------------------------------------
GOOD = '{"game": "bigballs"}\n{"t": 0.0, "occupied": ["a1"]}\n'
START = '{"game": "bigballs"}\n{"t": 0.0, "occupied": %s}\n' % json.dumps(
    ["a1", "b1", "c1", "a2", "b2", "a3", "e1", "f1", "g1", "e2", "f2", "e3", "a7", "a6", "b6", "a5", "b5", "c5"])


@pytest.mark.parametrize(
    "text, message",
    [
        (GOOD + "{not json\n", ":3: "),
        (GOOD + '{"t": 1.0, "occupied": ["z9"]}\n', ":3: .*z9"),
        (GOOD + '{"t": -1.0, "occupied": ["a1"]}\n', ":3: .*(backwards|before)"),
        (START + '{"t": 1.0, "press": "die"}\n', "die press at t=1: .*needs its value"),
        ('{"game": "chess"}\n', ":1: "),
        ("", "empty|header"),
    ],
)
def test_a_bad_trace_is_named_with_its_place_and_status_2(tmp_path, capsys, text, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and str(path) in err
    assert re.search(message, err), err


@pytest.mark.parametrize("name, player, kept", [
    ("bigballs-die-while-the-ball-is-in-the-hand", "white", True),  # the ball went down: White's (rule 10)
    ("bigballs-die-while-the-ball-is-in-the-hand-put-back", "black", False),  # put back: Black's (R20)
])
def test_a_press_beside_a_big_ball_in_the_hand_is_whoever_the_ball_says(name, player, kept):
    rolls = [(d["player"], d["value"], d["kept"]) for k, d in kinds(name) if k == "roll"]
    assert rolls[-1] == (player, 3, kept)
    assert not any(k in ("illegal", "refused") for k, _ in kinds(name))
