"""What the referee and the games say, in English, German and Romanian: every kind of note (a
line and a spoken sentence) and of prompt, a move refused at the table and typed in notation,
the games' words for moves, hands and endings, each in the language asked for, with the cells,
the notation and the numbers as given and the players named in that language; and no module
of the core, the games or the session keeps words of its own per language."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from reedboard.controller.words import notes as note_words, prompts
from reedboard.controller.core.rolling import ROLL_ANIMATION, Die
from reedboard.controller.core.view import Prompt
from reedboard.controller.games import GAMES, BigBalls, MoveError, OffBoard, Outcome, Termination
from reedboard.controller.games.abalone import Abalone
from reedboard.controller.language.catalogue import LANGUAGES, speaking
from reedboard.controller.session.actions import ActionError
from reedboard.controller.session.hand_table import HandTable
import reedboard.controller.words as words_room

from referee_table import set_up

pytestmark = pytest.mark.component

CONTROLLER = Path(__file__).resolve().parents[1] / "controller"
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
# the players as each language names them
NAMES = {
    "en": {"black": "Black", "white": "White", "red": "Red", "yellow": "Yellow"},
    "de": {"black": "Schwarz", "white": "Weiß", "red": "Rot", "yellow": "Gelb"},
    "ro": {"black": "Negru", "white": "Alb", "red": "Roșu", "yellow": "Galben"},
}

# (kind, data, what the words must keep as given): a note of every kind the referee makes
NOTES = [
    ("setup", {"mode": "identify"}, []),
    ("setup", {"mode": "shuffle"}, []),
    ("setup", {"mode": "given"}, []),
    ("setup", {"prompt": ["fill", {"cells": ["a1", "b1"], "empty": ["d4"]}]}, ["a1", "b1", "d4"]),
    ("ready", {"player": "black"}, []),
    ("roll", {"player": "white", "value": 4, "stones": [4]}, ["4"]),
    ("roll", {"player": "black", "value": 3, "stones": [2, 5]}, ["3", "2", "5"]),
    ("roll", {"player": "black", "value": 6, "stones": [6], "kept": True}, ["6"]),
    ("move", {"player": "black", "move": "4 b2-b3"}, ["4", "b2", "b3"]),
    ("amend", {"old": "4 b2-b3", "new": "4 b2-c2"}, ["b3", "c2"]),
    ("takeback", {"move": "4 b2-b3", "roll": 4}, ["b2", "b3", "4"]),
    ("takeback", {"move": "BB b5-b4"}, ["b5", "b4"]),
    ("illegal", {"fill": ["c1"], "empty": ["d1"], "pieces": {"c1": "B3"}}, ["c1", "d1", "3"]),
    ("illegal", {"fill": ["a1", "b1"], "empty": ["e4", "f4"], "pieces": {}}, ["a1", "b1", "e4", "f4"]),
    ("clear", {}, []),
    ("choose", {"moves": ["4 b2-b3", "4 b2-c2"]}, ["b3", "c2"]),
    ("refused", {"reason": "the die already shows {roll}: move a stone for it", "values": {"roll": 5}}, ["5"]),
    ("refused", {"reason": "lift only {player}'s stone {number}, one stone at a time",
                 "values": {"player": "white", "number": 2}, "cells": ["g1"]}, ["g1", "2"]),
    ("identify", {"player": "white", "number": 5}, ["5"]),
    ("identified", {"player": "black", "number": 3, "cell": "b2"}, ["3", "b2"]),
    ("identified", {"player": "white", "number": 1, "cell": "f1"}, ["1", "f1"]),
    ("low_time", {"player": "white", "seconds": 25}, ["25"]),
    ("low_time", {"player": "black", "seconds": 1}, []),
    ("flag", {"player": "black"}, []),
    ("resign", {"player": "white"}, []),
    ("draw", {}, []),
    ("over", {"result": "1-0", "winner": "black", "reason": "a7"}, []),
    ("over", {"result": "1/2-1/2", "winner": None, "reason": "balls-only"}, []),
    ("hint", {"player": "white", "move": "roll"}, []),
    ("hint", {"player": "black", "move": "BB a5-a4"}, ["a5", "a4"]),
    ("computer", {"player": "white", "move": "6 c3xb4"}, ["c3", "b4"]),
    ("computer", {"player": "white", "move": None}, []),
    ("link", {"state": "lost", "why": "unplugged"}, []),
    ("link", {"state": "lost", "why": "silent"}, []),
    ("link", {"state": "connected", "why": ""}, []),
    ("computer_failed", {"error": "worker gone"}, ["worker gone"]),
]
QUIET_WORDS = {"asked", "touch"}  # notes the voice keeps quiet about

# (prompt, game, what the words must keep as given): a prompt of every kind the referee asks
PROMPTS = [
    (Prompt("reading"), None, []),
    (Prompt("clear", {"cells": ["a7", "c1"]}), None, ["a7", "c1"]),
    (Prompt("fill", {"cells": ["a1", "b1"], "empty": ["d4"]}), None, ["a1", "b1", "d4"]),
    (Prompt("setup", {"fill": [], "empty": []}), None, []),
    (Prompt("place", {"piece": "ball", "cell": "a6"}), BigBalls(), ["a6"]),
    (Prompt("place", {"piece": "W4", "cell": "f2"}), BigBalls(), ["4", "f2"]),
    (Prompt("identify", {"player": "black", "number": 6}), None, ["6"]),
    (Prompt("roll", {"player": "white"}), None, []),
    (Prompt("move", {"player": "black", "roll": 5, "stones": [4, 6], "waiting": False}), None, ["4", "6"]),
    (Prompt("move", {"player": "red", "roll": None, "stones": None, "waiting": True}), None, []),
    (Prompt("move", {"player": "yellow", "roll": None, "stones": None, "waiting": False}), None, []),
    (Prompt("in_hand", {"player": "black", "cells": ["c1"], "to": ["c2", "d1"]}), None, ["c1", "c2", "d1"]),
    (Prompt("in_hand", {"player": "black", "cells": ["c1"], "to": []}), None, ["c1"]),
    (Prompt("put_back", {"fill": ["c1"], "empty": ["c2"], "pieces": {"c1": "B3"}}), BigBalls(), ["c1", "c2", "3"]),
    (Prompt("put_back", {"fill": ["E5"], "empty": [], "pieces": {"E5": "R"}}), OffBoard(), ["E5"]),
    (Prompt("put_back", {"fill": [], "empty": ["a4", "b4"], "pieces": {}}), None, ["a4", "b4"]),
    (Prompt("choose", {"moves": ["C3-D4", "C3-C4"]}), None, ["C3-D4", "C3-C4"]),
    (Prompt("computer", {"player": "white", "move": "6 c3xb4", "words": None}), None, ["6 c3xb4"]),
    (Prompt("computer", {"player": "white", "move": None}), None, []),
    (Prompt("over", {"result": "1-0", "winner": "red", "how": "on points"}), None, ["1-0"]),
    (Prompt("over", {"result": "1/2-1/2", "winner": None, "how": ""}), None, ["1/2-1/2"]),
]


def in_english(render):
    with speaking("en"):
        return render()


def names_the_players_as_english_does(text: str, english: str, data: dict, lang: str) -> bool:
    """Each player of the data that the English words name (as a player: "Black", "black rolls
    4", not "black stone 3") is named in `lang` too (case aside: a line may start lower)."""
    players = [data[key] for key in ("player", "winner") if data.get(key) in NAMES[lang]]
    named = [p for p in players
             if re.search(rf"\b{p}\b(?! (stone|marble|ball))", english, re.IGNORECASE)]
    return all(NAMES[lang][p].lower() in text.lower() for p in named)


def keeps_what_english_keeps(text: str, english: str, kept: list[str]) -> bool:
    """The cells, notation and numbers the English words give are in the translation too."""
    return all(word in text for word in kept if word in english)


# --- the notes ------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize(("kind", "data", "kept"), NOTES, ids=[f"{n[0]}-{i}" for i, n in enumerate(NOTES)])
def test_a_note_is_written_and_said_in_the_language_asked_for(kind, data, kept, lang):
    game = BigBalls()

    def line():
        return note_words.written(kind, data, game)

    def sentence():
        return note_words.said(kind, data, game.spoken, game.ending_said, game)

    with speaking(lang):
        written, said = line(), sentence()
    assert all(word in in_english(line) for word in kept), in_english(line)  # the line gives them all
    for text, english in ((written, in_english(line)), (said, in_english(sentence))):
        assert text.strip(), (kind, data)
        assert text != english, f"{kind} in {lang} is the English {english!r}"
        assert keeps_what_english_keeps(text, english, kept), (text, english, kept)
        assert names_the_players_as_english_does(text, english, data, lang), (text, english)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_player_is_named_in_each_language_inside_a_line_and_at_its_head(lang):
    with speaking(lang):
        for colour, name in NAMES[lang].items():
            assert prompts.player(colour) == name
            assert prompts.colour(colour).lower() == name.lower()


# --- the prompts ----------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize(("prompt", "game", "kept"), PROMPTS, ids=[f"{p[0].kind}-{i}" for i, p in enumerate(PROMPTS)])
def test_a_prompt_is_put_in_words_in_the_language_asked_for(prompt, game, kept, lang):
    with speaking(lang):
        text = prompts.describe(prompt, game)
    english = in_english(lambda: prompts.describe(prompt, game))
    assert text.strip() and text != english, (prompt, text)
    assert all(word in text for word in kept), (text, kept)
    assert names_the_players_as_english_does(text, english, prompt.data, lang), (text, english)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_set_up_steps_are_said_in_the_language_asked_for(lang):
    game = BigBalls()
    for prompt in (Prompt("clear", {"cells": ["a1"]}), Prompt("fill", {"cells": ["a1"]}),
                   Prompt("place", {"piece": "ball", "cell": "a6"}), Prompt("place", {"piece": "B2", "cell": "b1"})):
        with speaking(lang):
            said = note_words.prompt_said(prompt, game)
        assert said and said != in_english(lambda: note_words.prompt_said(prompt, game)), prompt


# --- at the table ---------------------------------------------------------------------------------
def test_a_refused_roll_and_a_wrong_board_read_in_german_and_romanian():
    referee, hands, board = set_up(BigBalls(), die=Die(random.Random(1)))
    referee.press(hands.t + 0.1, "die", 3)
    referee.press(hands.t + 0.2, "die", 4)  # the die already shows 3
    hands.wait(ROLL_ANIMATION + 0.2)
    hands.move("c1", "d2").settle(3.0)  # stone 3 may not go there: the board is put back
    by_kind = {note.kind: note for note in referee.notes}
    refused, illegal = by_kind["refused"], by_kind["illegal"]
    said = {}
    for lang in LANGUAGES:
        with speaking(lang):
            said[lang] = (note_words.written("refused", refused.data, referee.game),
                          note_words.written("illegal", illegal.data, referee.game),
                          prompts.describe(referee.prompt(), referee.game))
    assert said["en"][0] == "the die cannot roll now: the die already shows 3: move a stone for it"
    assert said["de"][0] == "jetzt kann nicht gewürfelt werden: der Würfel zeigt schon eine 3: zieh einen Stein dafür"
    assert said["ro"][0] == "acum nu se poate da cu zarul: zarul arată deja 3: mută o piatră pentru el"
    assert said["en"][1] == "illegal: move the black stone 3 from d2 back to c1"
    assert said["de"][1] == "regelwidrig: zieh den schwarzen Stein 3 von d2 zurück nach c1"
    assert said["ro"][1] == "nelegal: mută piatra neagră 3 de pe d2 înapoi pe c1"
    assert said["de"][2] == "zieh den schwarzen Stein 3 von d2 zurück nach c1"
    assert said["ro"][2] == "mută piatra neagră 3 de pe d2 înapoi pe c1"


@pytest.mark.parametrize(("game", "written", "english", "german", "romanian"), [
    (BigBalls(), "4 e1-d1", "no black stone on e1", "kein Stein von Schwarz auf e1", "nicio piatră a lui Negru pe e1"),
    (BigBalls(), "BB a7-a1", "a big ball rolls one step sw or se; a1 is not below a7",
     "eine große Kugel rollt eine Mulde nach links unten oder rechts unten; a1 liegt nicht unter a7",
     "o bilă mare se rostogolește cu o gropiță în jos spre stânga sau spre dreapta; a1 nu este sub a7"),
    (BigBalls(), "hello", "cannot read 'hello'", "'hello' ist nicht lesbar", "nu pot citi 'hello'"),
    (OffBoard(), "Z9-A1", "no hole Z9 on the board", "keine Mulde Z9 auf dem Brett", "pe tablă nu există gropița Z9"),
    (Abalone(), "A1B3B2", "A1 and B3 are not on one line", "A1 und B3 liegen nicht auf einer Linie", "A1 și B3 nu sunt pe aceeași linie"),
])
def test_a_move_typed_wrongly_is_refused_in_the_language_asked_for(game, written, english, german, romanian):
    for lang, expected in (("en", english), ("de", german), ("ro", romanian)):
        with pytest.raises(MoveError) as refused:
            game.parse_move(written)
        with speaking(lang):  # the game hands over its reason; the words room says it
            said_now = words_room.said(refused.value)
        assert expected in said_now, (lang, said_now)


def test_a_refusal_on_the_page_reads_in_german_and_romanian():
    table = HandTable(BigBalls())
    said = {}
    for lang in LANGUAGES:
        with speaking(lang), pytest.raises(ActionError) as refused:
            table.aside()
        said[lang] = str(refused.value)
    assert said["en"] == "nothing in the hand to put aside"
    assert said["de"] != said["en"] and said["ro"] != said["en"] and all(said.values())


# --- the games' own words -------------------------------------------------------------------------
@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_games_moves_hands_and_endings_are_in_the_language_asked_for(name, lang):
    game = GAMES[name]()
    move = game.legal_moves()[0]
    written = game.format_move(move)
    winner = game.players[0]
    outcome = Outcome(game.endings[0], winner)
    resigned = Outcome(Termination.RESIGN, winner)

    def words():  # what the game hands over, said by the words room
        return tuple(map(words_room.said, (game.spoken(move), game.spoken(written), game.move_words(move),
                                game.ending_words(outcome), game.ending_words(resigned),
                                game.ending_said(game.endings[0].value), " ".join(map(words_room.said, game.hands_guide())),
                                " ".join(map(words_room.said, game.light_meanings().values())))))

    with speaking(lang):
        said = words()
    english = in_english(words)
    for text, in_en in zip(said, english):
        if in_en:
            assert text and text != in_en, (name, lang, in_en, text)
    cells = [cell for cell in game.cells if cell in written]
    assert cells and all(cell in said[0] for cell in cells), (written, said[0])
    assert said[0] == said[1]  # a move and its notation are said alike
    assert NAMES[lang][winner] in said[3] and NAMES[lang][game.players[1]] in said[4]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_kind_of_move_is_said_as_a_whole_phrase(lang):
    said = {
        "stone": "4 b2-b3", "stone captures": "6 c3xb4", "big ball": "BB b5-b4", "big ball captures": "BB b5xb4",
        "line": "C3-D4", "push": "C3-D4x1", "push off": "C7-D8x1 S5+2", "push off, one point": "C7-D8x1 S5+1",
        "push off, full": "C7-D8x1 S5 full", "drop and move": "*C3-D4", "put back": "+E5",
        "inline": "A1B2", "broadside": "C3C5D4",
    }
    games = {"stone": BigBalls, "big": BigBalls, "line": OffBoard, "push": OffBoard, "drop": OffBoard,
             "put": OffBoard, "inline": Abalone, "broadside": Abalone}
    with speaking(lang):
        for what, notation in said.items():
            game = games[what.split()[0].rstrip(",")]()
            words = words_room.said(game.spoken(notation))
            cells = [part for part in notation.replace("-", " ").replace("x", " ").replace("*", " ").replace("+", " ").split()
                     if part[:1].isalpha() and part[1:].isdigit()]
            assert all(cell in words for cell in cells), (what, notation, words)
            assert words != notation, (what, words)
    with speaking(lang):
        assert words_room.said(BigBalls().spoken("roll")) == "roll"  # what a game cannot read is said as written


def test_romanian_counts_say_de_from_twenty():
    with speaking("ro"):
        assert note_words.said("low_time", {"player": "black", "seconds": 1}) == "Negru: mai are 1 secundă."
        assert note_words.said("low_time", {"player": "black", "seconds": 2}) == "Negru: mai are 2 secunde."
        assert note_words.said("low_time", {"player": "black", "seconds": 20}) == "Negru: mai are 20 de secunde."
    with speaking("de"):
        assert note_words.said("low_time", {"player": "white", "seconds": 1}) == "Weiß: noch 1 Sekunde."


# --- no words of its own per language -------------------------------------------------------------
def per_language_tables(path: Path) -> list[int]:
    """Lines of `path` where a dict is keyed by two or more of the languages' codes."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict):
            keys = {key.value for key in node.keys if isinstance(key, ast.Constant) and isinstance(key.value, str)}
            if len(keys & set(LANGUAGES)) >= 2:
                found.append(node.lineno)
    return found


def test_no_module_of_the_core_the_games_or_the_session_keeps_words_per_language():
    found = {f"{path.relative_to(CONTROLLER)}:{line}"
             for room in ("core", "games", "session") for path in sorted((CONTROLLER / room).rglob("*.py"))
             for line in per_language_tables(path)}
    assert not found, f"words per language belong in the play catalogue: {sorted(found)}"


def test_a_table_of_words_per_language_would_be_found(tmp_path):
    module = tmp_path / "words.py"
    module.write_text('SAID = {"en": "to", "de": "nach", "ro": "la"}\n', encoding="utf-8")
    assert per_language_tables(module) == [1]
