"""Every ruling of docs/recognition.md is a named branch of the recogniser, and a trace tells it.

The rulings are read from the document, not from the code. For each, a trace of hands at the
table (made from the rules by tests/traces/make_traces.py, or a simulated players' game cut by
tests/traces/cut_witnesses.py) replays to the record the hands meant, and to another record
when the recogniser leaves that ruling out: no ruling is a dead letter.
"""

import re
from pathlib import Path

import pytest

from reedboard.controller.core import reconcile, rulings
from reedboard.controller.core.rulings import Rulings
from reedboard.controller.persist.trace import read_trace
from reedboard.controller.session.replay import replay

pytestmark = pytest.mark.component

ROOT = Path(__file__).resolve().parent.parent
TRACES = Path(__file__).resolve().parent / "traces"
DOC = (ROOT / "docs" / "recognition.md").read_text(encoding="utf-8")
DOC_RULINGS = re.findall(r"^\*\*(R\d+)\. ", DOC, re.M)

# ruling -> the trace that tells it (tests/traces/NAME.jsonl)
WITNESSES = {
    "R1": "bigballs-quick-swap",
    "R2": "bigballs-ball-quick-swap-then-die",
    "R3": "bigballs-capture-beside-a-held-stone",
    "R4": "rulings/R4",
    "R5": "abalone-two-push-offs-slid-then-pushed-off",
    "R6": "rulings/R6",
    "R7": "rulings/R7",
    "R8": "rulings/R8",
    "R9": "rulings/R9",
    "R10": "bigballs-capturer-put-back-after-a-press",
    "R11": "rulings/R11",
    "R12": "bigballs-two-quick-swaps-then-die",
    "R13": "offboard-takeback-through-a-held-capture",
    "R14": "rulings/R14",
    "R15": "bigballs-amend-while-the-next-roll-stands",
    "R16": "bigballs-two-hands",
    "R17": "bigballs-die-while-the-stone-is-held-long",
    "R18": "rulings/R18",
    "R19": "bigballs-ball-instead-of-a-kept-number",
    "R20": "bigballs-die-while-the-ball-is-in-the-hand-put-back",
    "R21": "rulings/R21",
    "R22": "rulings/R22",
    "R23": "rulings/R23",
}


def record(name: str, off: frozenset[str], monkeypatch) -> list[str]:
    monkeypatch.setattr(Rulings, "rulings_off", off)
    return list(replay(read_trace(TRACES / f"{name}.jsonl"), source=name).record)


def test_the_document_names_twenty_rulings_in_order():
    assert DOC_RULINGS, "no rulings found in docs/recognition.md"
    assert sorted(DOC_RULINGS, key=lambda rid: int(rid[1:])) == [f"R{n}" for n in range(1, len(DOC_RULINGS) + 1)]


def test_the_table_holds_every_ruling_of_the_document_and_no_other():
    in_table = [r.rid for r in Rulings.RULINGS if r.rid.startswith("R")]
    assert sorted(in_table) == sorted(DOC_RULINGS)
    assert len(set(r.rid for r in Rulings.RULINGS)) == len(Rulings.RULINGS)


def test_every_ruling_has_its_branch_in_the_code():
    source = Path(reconcile.__file__).read_text(encoding="utf-8") + Path(rulings.__file__).read_text(encoding="utf-8")
    deciding = {r.rid for r in Rulings.RULINGS if r.decide is not None}
    for rid in DOC_RULINGS:
        assert rid in deciding or f'_applies("{rid}")' in source, f"{rid} has no branch of its own"


def test_the_decisions_come_in_the_table_order_and_end_with_a_board_that_fits_nothing():
    deciding = [r.rid for r in Rulings.RULINGS if r.decide is not None]
    assert deciding[0] == "rule 1" and deciding[-1] == "rule 5"
    # the mover's own moves and the held capture come before what the next player's hands do
    assert deciding.index("rule 2") < deciding.index("R1") < deciding.index("rule 10")


@pytest.mark.parametrize("rid", DOC_RULINGS)
def test_a_trace_tells_the_ruling(rid, monkeypatch):
    name = WITNESSES.get(rid)
    assert name is not None, f"{rid} has no trace that tells it"
    meant = (TRACES / f"{name}.record").read_text(encoding="utf-8").splitlines()
    assert record(name, frozenset(), monkeypatch) == meant
    assert record(name, frozenset({rid}), monkeypatch) != meant, f"{name} replays the same without {rid}"


@pytest.mark.parametrize("name", sorted(p.stem for p in (TRACES / "rulings").glob("*.jsonl")))
def test_a_cut_game_replays_to_its_record_and_tells_its_ruling(name, monkeypatch):
    rid = name.split("-")[0]
    assert rid in DOC_RULINGS
    path = f"rulings/{name}"
    meant = (TRACES / f"{path}.record").read_text(encoding="utf-8").splitlines()
    assert record(path, frozenset(), monkeypatch) == meant
    assert record(path, frozenset({rid}), monkeypatch) != meant


@pytest.mark.parametrize("name", sorted(p.stem for p in (TRACES / "games").glob("*.jsonl")))
def test_a_game_the_board_once_read_wrongly_replays_to_its_record(name, monkeypatch):
    path = f"games/{name}"
    meant = (TRACES / f"{path}.record").read_text(encoding="utf-8").splitlines()
    assert record(path, frozenset(), monkeypatch) == meant
