"""Words belong at the edges (docs/architecture.md, the words room; tests/test_architecture.py
holds that no room below it looks a word up): the rooms below hand over phrases (a catalogue's
msgid and its data) and notes as data; the words room says a phrase in the language asked for,
its data (other phrases among them) in the same language, and an error carrying one as its
message. Every kind of note the code makes is a NoteKind, and the words room has a line and a
sentence for each.
"""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest

from reedboard.controller.core.referee import Note
from reedboard.controller.core.view import NoteKind
from reedboard.controller.games import BigBalls, MoveError
from reedboard.controller.games.base import colour_words
from reedboard.controller.language.catalogue import LANGUAGES, speaking
from reedboard.controller.language.phrases import Phrase, Phrasebook, listed
from reedboard.controller.words import said, said_all

pytestmark = pytest.mark.component

CONTROLLER = Path(__file__).resolve().parents[1] / "controller"


def test_a_refusal_is_handed_over_as_a_phrase_and_said_in_each_language():
    with pytest.raises(MoveError) as refused:
        BigBalls().parse_move("4 e1-d1")
    phrase = refused.value.args[0]
    assert isinstance(phrase, Phrase) and phrase.text == "no {colour} stone on {hollow}"
    assert phrase.values["hollow"] == "e1" and phrase.values["colour"] == colour_words("black")
    words = {}
    for lang in LANGUAGES:
        with speaking(lang):
            words[lang] = said(refused.value)
    assert words["en"] == str(refused.value) == "no black stone on e1"
    assert words["de"] == "kein Stein von Schwarz auf e1" and words["ro"] == "nicio piatră a lui Negru pe e1"


def test_a_phrase_keeps_its_data_through_joins_plurals_and_pickling():
    phrase = Phrasebook("play")
    piece = phrase("the piece")
    line = listed([phrase("{first} and {last}", first="a1", last="b2"), "c3"]) + ": " + piece
    assert str(line) == "a1 and b2, c3: the piece"
    with speaking("de"):
        assert said(line) == f"a1 und b2, c3: {said(piece)}" and said(piece) != "the piece"
    plural = Phrasebook("commands").n("{n} blunder", "{n} blunders", 2, n=2)
    assert str(plural) == "2 blunders"
    assert pickle.loads(pickle.dumps(plural)) == plural and pickle.loads(pickle.dumps(plural)).data == plural.data
    with speaking("ro"):
        assert said_all({"options": [{"label": phrase("first to move")}], "n": 3})["n"] == 3
        assert said_all({"label": phrase("first to move")})["label"] != "first to move"


# --- the kinds of note ----------------------------------------------------------------------------
def kinds_emitted() -> set[str]:
    """Every kind of note the code makes: the referee's _note and note, a set-up guide's Say, a
    Note made outside the referee, by the kind's text or its NoteKind member."""
    found = set()
    for path in CONTROLLER.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "NoteKind":
                found.add(NoteKind[node.attr].value)
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            position = {"_note": 1, "note": 1, "Note": 1, "Say": 0}.get(name)
            if position is not None and len(node.args) > position:
                arg = node.args[position]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value)
    return found


def kinds_worded(function: str) -> set[str]:
    """The kinds notes.py's `function` has words of its own for (`kind == "..."`)."""
    tree = ast.parse((CONTROLLER / "words" / "notes.py").read_text(encoding="utf-8"))
    body = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == function)
    return {node.comparators[0].value for node in ast.walk(body)
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "kind"
            and isinstance(node.comparators[0], ast.Constant)}


def test_every_kind_of_note_the_code_makes_is_listed_and_every_listed_kind_is_made():
    emitted, listed_kinds = kinds_emitted(), {kind.value for kind in NoteKind}
    assert emitted - listed_kinds == set(), f"notes of kinds NoteKind does not list: {sorted(emitted - listed_kinds)}"
    assert listed_kinds - emitted == set(), f"kinds no code makes: {sorted(listed_kinds - emitted)}"


def test_every_kind_of_note_has_its_line_and_its_sentence():
    quiet = {NoteKind.ASKED, NoteKind.TOUCH}  # the voice keeps quiet about these
    assert {kind.value for kind in NoteKind} - kinds_worded("written") == set()
    assert {kind.value for kind in NoteKind} - quiet - kinds_worded("said") == set()


def test_a_note_of_a_kind_not_listed_is_refused():
    with pytest.raises(ValueError):
        Note(0.0, "info")
    assert Note(1.0, NoteKind.MOVE, {"move": "4 b2-b3"}).kind == "move"


# --- said where the board's owner reads it --------------------------------------------------------
@pytest.mark.parametrize(("argv", "german"), [
    (["show", "bigballs", "4 e1-d1"], "kein Stein von Schwarz auf e1"),  # the game's refusal, inside the command's
    (["play", "bigballs", "--clock", "five"], "eine Uhr ist MINUTEN oder MINUTEN+SEKUNDEN"),  # the ground's, by argparse
])
def test_the_command_line_says_what_the_rooms_below_refuse_in_the_language_asked_for(argv, german, capsys):
    from reedboard.controller.commands.cli import main

    assert main(["--lang", "de", *argv]) == 2
    err = capsys.readouterr().err
    assert german in err and len(err.strip().splitlines()) == 1, err


def test_a_damaged_journal_is_named_in_the_language_asked_for(tmp_path, capsys):
    from reedboard.controller.commands.cli import main

    journal = tmp_path / "game.jsonl"
    journal.write_text('[1, 2]\n{"type": "roll"}\n', encoding="utf-8")
    assert main(["--lang", "ro", "export", str(journal)]) == 2
    err = capsys.readouterr().err
    with speaking("ro"):
        damaged = said(Phrasebook("commands")("the header line is damaged: this game cannot be restored"))
    assert damaged.startswith("linia de antet") and damaged in err and f"{journal}:1" in err, err
