"""The words of a game's moves and endings are the game's own (Game.spoken, Game.voice): the
snapshot brings them, and speech.js says only what it is given."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from reedboard.controller.games import GAMES
from reedboard.controller.games.base import LANGUAGES, SHARED_ENDINGS
from reedboard.controller.session.snapshot import moves_named

SPEECH_JS = Path(__file__).resolve().parents[1] / "controller" / "web" / "static" / "speech.js"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_words_its_endings_and_moves_in_every_language(name):
    game = GAMES[name]()
    voice = game.voice([str(game.legal_moves()[0])])
    # a win by any of the game's own endings or a shared one is said with its reason
    assert set(voice["endings"]) == {end.value for end in (*game.endings, *SHARED_ENDINGS)}
    for key, words in voice["endings"].items():
        assert set(words) == set(LANGUAGES) and all(words.values()), (name, key)
        assert len(set(words.values())) == len(LANGUAGES), (name, key)  # each language its own words
    (said,) = voice["moves"].values()
    assert set(said) == set(LANGUAGES) and len(set(said.values())) == len(LANGUAGES), said
    # a game's own endings are keyed apart from the shared ones
    assert not {end.value for end in game.endings} & {end.value for end in SHARED_ENDINGS}


def test_a_game_says_a_notation_it_cannot_read_as_written():
    for cls in GAMES.values():
        assert cls().spoken("roll", "de") == "roll"


def test_the_moves_the_notes_name_are_gathered_once():
    notes = [{"kind": "choose", "data": {"moves": ["4 b2-b3", "4 b2-c2"]}},
             {"kind": "amend", "data": {"old": "4 b2-b3", "new": "4 b2-c2"}},
             {"kind": "computer", "data": {"move": None}}, {"kind": "hint", "data": {"move": "roll"}},
             {"kind": "clear", "data": {}}, {"kind": "info"}]
    assert moves_named(notes) == ["4 b2-b3", "4 b2-c2", "roll"]


def test_speech_says_the_games_words_and_nothing_of_its_own():
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node to run speech.js")
    game = GAMES["abalone"]() if "abalone" in GAMES else next(iter(GAMES.values()))()
    move = str(game.legal_moves()[0])
    end = game.endings[0]
    winner = game.players[0]
    notes = [{"kind": "move", "data": {"player": winner, "move": move}},
             {"kind": "over", "data": {"result": "1-0", "winner": winner, "reason": end.value}}]
    words = game.voice(moves_named(notes))
    script = f"""
        const speech = require({json.dumps(str(SPEECH_JS))});
        const notes = {json.dumps(notes)}, words = {json.dumps(words)};
        const out = {{}};
        for (const lang of {json.dumps(list(LANGUAGES))}) {{
          out[lang] = {{given: notes.map((n) => speech.phrase(n, lang, words)),
                        bare: notes.map((n) => speech.phrase(n, lang))}};
        }}
        console.log(JSON.stringify(out));"""
    done = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    for lang in LANGUAGES:
        (moved, over), (moved_bare, over_bare) = said[lang]["given"], said[lang]["bare"]
        assert game.spoken(move, lang) in moved and move in moved_bare  # without words: as written
        assert end.words(lang).lstrip(": ") in over and over_bare != over  # the win with its reason
