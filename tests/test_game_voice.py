"""The words the page's voice says are the board's: a game words its moves and endings
(Game.spoken, Game.ending_said) in the language in use, the notes are said with them, and each
snapshot brings the sentences in every language (`words[lang].said`), which speech.js says as
they come, choosing only which."""

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages import pofile
from starlette.testclient import TestClient

from reedboard.controller.words import notes as note_words
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.games import GAMES
from reedboard.controller.games.base import SHARED_ENDINGS
from reedboard.controller.language.catalogue import LANGUAGES, locale_dir, speaking
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.web import create_app
import reedboard.controller.words as words_room

pytestmark = pytest.mark.system

SPEECH_JS = Path(__file__).resolve().parents[1] / "controller" / "web" / "static" / "speech.js"


def play_catalogue_complete(lang: str) -> bool:
    """Whether the board's "play" catalogue has every word in `lang` (English always has)."""
    if lang == "en":
        return True
    with (Path(locale_dir()) / lang / "LC_MESSAGES" / "play.po").open("rb") as f:
        po = pofile.read_po(f, locale=lang)
    return all(all(m.string) if isinstance(m.string, tuple) else m.string for m in po if m.id)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_words_its_endings_and_moves_in_every_language(name):
    game = GAMES[name]()
    move = game.legal_moves()[0]
    keys = [end.value for end in (*game.endings, *SHARED_ENDINGS)]
    said = {}
    for lang in LANGUAGES:
        with speaking(lang):
            said[lang] = {"move": words_room.said(game.spoken(move)),
                          "endings": {key: words_room.said(game.ending_said(key)) for key in keys}}
        assert said[lang]["move"] and all(said[lang]["endings"].values()), (name, lang, said[lang])
    # a game's own endings are keyed apart from the shared ones
    assert not {end.value for end in game.endings} & {end.value for end in SHARED_ENDINGS}
    if all(play_catalogue_complete(lang) for lang in LANGUAGES):  # each language its own words
        assert len({said[lang]["move"] for lang in LANGUAGES}) == len(LANGUAGES), said
        for key in keys:
            assert len({said[lang]["endings"][key] for lang in LANGUAGES}) == len(LANGUAGES), (name, key)


def test_a_game_says_a_notation_it_cannot_read_as_written():
    for cls in GAMES.values():
        for lang in LANGUAGES:
            with speaking(lang):
                assert words_room.said(cls().spoken("roll")) == "roll"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_note_is_said_in_the_games_words(lang):
    game = GAMES["abalone"]() if "abalone" in GAMES else next(iter(GAMES.values()))()
    move = str(game.legal_moves()[0])
    end = game.endings[0]
    winner = game.players[0]
    with speaking(lang):
        moved = note_words.said("move", {"player": winner, "move": move}, game.spoken, game.ending_said, game)
        over = note_words.said("over", {"result": "1-0", "winner": winner, "reason": end.value},
                               game.spoken, game.ending_said, game)
        bare = note_words.said("over", {"result": "1-0", "winner": winner, "reason": end.value})
        assert words_room.said(game.spoken(move)) in moved  # the move in the game's words
        assert words_room.said(game.ending_said(end.value)).lstrip(": ") in over and bare != over  # the win with its reason


def test_each_snapshot_brings_every_note_said_in_every_language_and_the_page_says_them(tmp_path):
    session = PlaySession("bigballs", games_dir=tmp_path / "games", settings=Settings(settle=0.15, grace=0.3),
                          rng=random.Random(7))
    with TestClient(create_app(session), base_url="http://127.0.0.1") as client:
        client.post("/api/press", json={"button": "die"})
        snap = client.get("/api/state").json()
    notes = snap["notes"]
    assert notes and set(snap["words"]) == set(LANGUAGES)
    for lang in LANGUAGES:
        words = snap["words"][lang]
        assert set(words["said"]) == {str(n["n"]) for n in notes}, lang
        assert set(words["notes"]) == {str(n["n"]) for n in notes}, lang
        assert any(words["said"].values()) and "prompt_said" in words
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node to run speech.js")
    # the page, loaded before the newest note, says it in the language chosen, as the snapshot words it
    newest = max(n["n"] for n in notes)
    before = {**snap, "notes": [n for n in notes if n["n"] < newest]}
    script = f"""
        const speech = require({json.dumps(str(SPEECH_JS))});
        const before = {json.dumps(before)}, now = {json.dumps(snap)};
        const out = {{}};
        for (const lang of {json.dumps(list(LANGUAGES))}) {{
          const first = speech.announcements(null, before, lang);
          out[lang] = speech.announcements(first.heard, now, lang).say;
        }}
        console.log(JSON.stringify(out));"""
    done = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    for lang in LANGUAGES:
        expected = snap["words"][lang]["said"][str(newest)]
        assert said[lang] == ([expected] if expected else []), lang
