"""The referee's journal lines and flight-recorder inputs are one type per kind
(controller/core/decisions.py): every kind of entry the referee decides has its type, each type
is written to the journal as that kind of entry, and each recorded input reaches the recorder as
the input it is."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import get_args

import pytest

from reedboard.controller.core.decisions import (
    AmendLine, ComputerRecord, FrameRecord, HintLine, JournalLine, MoveLine, PressRecord, Recorded, ResultLine,
    RollLine, TakebackLine, record, write_line,
)
from reedboard.controller.games import BigBalls
from reedboard.controller.persist.journal import Journal
from reedboard.controller.persist.journal_format import DECISIONS, ENTRY_FIELDS

pytestmark = pytest.mark.unit


def test_every_kind_of_line_the_game_is_made_of_has_one_type():
    kinds = [line.kind for line in get_args(JournalLine)]
    assert len(kinds) == len(set(kinds)), kinds
    assert set(DECISIONS) <= set(kinds) and set(kinds) <= set(ENTRY_FIELDS)  # a hint is journaled too


def test_each_line_is_written_as_its_own_kind_of_entry(tmp_path):
    lines = [RollLine(1.0, "black", 4), MoveLine(2.0, "4 b2-b3", clock={"black": 590.0, "white": 600.0}),
             TakebackLine(3.0, "4 b2-b3"), RollLine(3.5, "black", 4, free=True), HintLine(4.0, "black", "roll"),
             MoveLine(5.0, "BB b5-b4"), AmendLine(6.0, "BB b5-b4", "BB b5-a4"), ResultLine(7.0, "1-0", "resign", "black")]
    journal = Journal.create(tmp_path, BigBalls(), {}, datetime(2026, 12, 5, tzinfo=timezone.utc))
    for line in lines:
        write_line(journal, line)
    journal.close()
    entries = [json.loads(line) for line in journal.path.read_text(encoding="utf-8").splitlines()[1:]]
    assert [entry["type"] for entry in entries] == [line.kind for line in lines]
    assert entries[0] == {"type": "roll", "t": 1.0, "player": "black", "value": 4}
    assert entries[1]["clock"] == {"black": 590.0, "white": 600.0} and entries[1]["move"] == "4 b2-b3"
    assert entries[3]["free"] is True and "free" not in entries[0]
    assert entries[6] == {"type": "amend", "t": 6.0, "old": "BB b5-b4", "new": "BB b5-a4"}
    assert entries[7] == {"type": "result", "t": 7.0, "result": "1-0", "reason": "resign", "winner": "black"}


class Recorder:
    """Keeps what it is told, as the flight recorder is told it."""

    def __init__(self) -> None:
        self.told: list[tuple] = []

    def frame(self, t, occupied):
        self.told.append(("frame", t, occupied))

    def press(self, t, button, roll=None):
        self.told.append(("press", t, button, roll))

    def computer(self, t, move, roll=None):
        self.told.append(("computer", t, move, roll))


def test_each_input_reaches_the_recorder_as_the_input_it_is():
    inputs = [FrameRecord(0.5, frozenset({"a1"})), PressRecord(1.0, "die", 3), ComputerRecord(2.0, "roll", 5)]
    assert {type(i) for i in inputs} == set(get_args(Recorded))
    recorder = Recorder()
    for decision in inputs:
        record(recorder, decision)
    assert recorder.told == [("frame", 0.5, frozenset({"a1"})), ("press", 1.0, "die", 3), ("computer", 2.0, "roll", 5)]
