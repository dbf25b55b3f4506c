"""The referee and its parts (the set-up driver, the die policy, the computer's seat, what it
shows): none reaches into another's private state, none is handed the referee, every input
returns what it decided, and the view reads the referee's state without changing it."""

import ast
from pathlib import Path

import pytest

from reedboard.controller.core.decisions import Changed, JournalLine
from reedboard.controller.games import GAMES

from referee_table import set_up, started

pytestmark = pytest.mark.component  # the parts' source, and a live referee at a table

CORE = Path(__file__).resolve().parent.parent / "controller" / "core"
PARTS = ("referee", "setting_up", "rolling", "computer_turn", "showing", "view", "decisions", "computer")
BACK_REFERENCES = {"referee", "host", "owner", "parent"}


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def reaches(core: Path = CORE) -> list[str]:
    """Every place a module of the referee's parts reads or writes another object's private
    name (`x._name` where x is not self or cls), is handed the referee, or is built as a mixin."""
    found = []
    for part in PARTS:
        path = core / f"{part}.py"
        tree = ast.parse(path.read_text("utf-8"), str(path))
        for node in ast.walk(tree):
            where = f"{part}.py:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Attribute) and private(node.attr) and not (
                    isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(f"{where} reaches into {ast.unparse(node)}")
            elif isinstance(node, ast.Call) and any(
                    isinstance(arg, ast.Name) and arg.id == "self"
                    for arg in [*node.args, *(k.value for k in node.keywords)]):
                found.append(f"{where} hands itself to {ast.unparse(node.func)}")
            elif isinstance(node, ast.arg) and node.arg in BACK_REFERENCES:
                found.append(f"{where} is handed the {node.arg}")
            elif isinstance(node, ast.ClassDef) and node.name == "Referee" and node.bases:
                found.append(f"{where} the referee is built of {', '.join(map(ast.unparse, node.bases))}")
    return found


def test_no_part_of_the_referee_reaches_into_another_s_private_state():
    assert reaches() == []


def test_the_check_finds_a_reach_a_back_reference_and_a_mixin(tmp_path):
    for part in PARTS:
        (tmp_path / f"{part}.py").write_text("", "utf-8")
    (tmp_path / "showing.py").write_text(
        "class Showing:\n    def __init__(self, referee):\n        self._r = referee\n"
        "    def shown(self):\n        return self._r._shown_move()\n", "utf-8")
    (tmp_path / "referee.py").write_text(
        "class Referee(SettingUp):\n    def __init__(self):\n        self._showing = Showing(self)\n", "utf-8")
    found = reaches(tmp_path)
    assert [f.split(" ", 1)[1] for f in found] == [
        "the referee is built of SettingUp", "hands itself to Showing", "is handed the referee",
        "reaches into self._r._shown_move"], found


def test_asking_for_a_hint_and_the_answer_return_what_they_decided():
    referee, hands, board = set_up(GAMES["offboard"]())
    assert referee.can_hint()
    asked = referee.ask_hint(hands.t)
    assert any(isinstance(d, Changed) for d in asked) and referee.notes[-1].kind == "asked"
    question = referee.question()
    assert question is not None and question.hint
    move = referee.game.turn_moves()[0]
    answered = referee.answer(hands.t, question, move)
    hint = [d for d in answered if isinstance(d, JournalLine)]
    assert [(d.kind, d.player, d.move) for d in hint] == [("hint", referee.game.turn, referee.game.format_move(move))]
    assert referee.hint_shown() == move and referee.shown_move() == move
    assert referee.answer(hands.t, question, move) == []  # asked once, answered once


def test_no_hint_is_asked_for_while_the_board_is_set_up():
    referee, hands, board = started(GAMES["offboard"]())
    assert not referee.can_hint()
    total = referee.notes_total
    assert referee.ask_hint(hands.t) == [] and referee.notes_total == total and referee.question() is None
