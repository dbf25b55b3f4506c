"""The web page's server side and its pure script, without a browser: the rules page's JSON
(its example positions are the engines' own), the new-game request's set-up and clock, the
page's modules and their addresses, and the spoken phrases of speech.js, run under node."""

import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from reedboard.controller.games import BigBalls, OffBoard
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.session.snapshot import moves_named
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.core.signals import BLINKING, PALETTE
from reedboard.controller.web import create_app

LOCAL = "http://127.0.0.1"
SPEECH_JS = Path(__file__).resolve().parents[1] / "controller" / "web" / "static" / "speech.js"
LIGHT_NAMES = ["fill", "empty", "choose", "place", "dest", "to", "movable", "last", "winner", "draw"]


@pytest.fixture
def client(tmp_path):
    session = PlaySession("bigballs", games_dir=tmp_path / "games", settings=Settings(settle=0.15, grace=0.3),
                          rng=random.Random(7))
    with TestClient(create_app(session), base_url=LOCAL) as client:
        client.session = session
        yield client


# --- the rules page ------------------------------------------------------------------------------
def start_from(setup_diagram: dict) -> BigBalls:
    """The Big Balls position the set-up diagram shows (its stones' numbers, its big balls)."""
    shown = setup_diagram["pieces"]
    colours = {"B": "black", "W": "white"}
    arrangement = {colour: {} for colour in colours.values()}
    for cell, piece in shown.items():
        if piece[:1] in colours:
            arrangement[colours[piece[0]]][cell] = int(piece[1:])
    return BigBalls(**arrangement, balls=[cell for cell, piece in shown.items() if piece == "ball"])


def touched(game, move) -> set[str]:
    footprint = game.footprint(move)
    return set(footprint.empties | footprint.fills | footprint.captures | footprint.passes)


@pytest.mark.parametrize("name", ["bigballs", "offboard"])
def test_each_rules_diagram_is_the_engines_position_after_its_moves(client, name):
    page = client.get(f"/api/rules/{name}").json()
    assert page["game"] == name and page["title"] == {"bigballs": "Big Balls", "offboard": "Off Board"}[name]
    assert page["sections"] and all(section["title"] and section["points"] for section in page["sections"])
    diagrams = {d["id"]: d for d in page["diagrams"]}
    expected_ids = (["setup", "stone-move", "capture", "big-ball"] if name == "bigballs"
                    else ["setup", "line-move", "push", "push-off"])
    assert list(diagrams) == expected_ids
    start = start_from(diagrams["setup"]) if name == "bigballs" else OffBoard()
    assert diagrams["setup"]["pieces"] == start.pieces() and diagrams["setup"]["moves"] == []
    for diagram in page["diagrams"]:
        assert diagram["title"] and diagram["caption"]
        game = start.copy()
        lit = set()
        for text in diagram["moves"]:
            move = game.parse_move(text)  # a MoveError here: the example is not a legal move
            lit = touched(game, move)
            game.push(move)
        assert diagram["pieces"] == game.pieces(), diagram["id"]
        assert diagram["cells"] == list(game.cells)
        assert set(diagram["lights"]) == lit and set(diagram["lights"].values()) <= {"last"}
        assert diagram["geometry"] == game.geometry()
        assert len(diagram["geometry"]["sectors"]) == (12 if name == "offboard" else 0)
        if diagram["moves"]:
            assert diagram["arrow"] and set(diagram["arrow"]) <= lit
    # each diagram shows what its title says
    if name == "bigballs":
        assert diagrams["stone-move"]["moves"][-1][0].isdigit()
        assert "x" in diagrams["capture"]["moves"][-1] and diagrams["capture"]["moves"][-1][0].isdigit()
        assert diagrams["big-ball"]["moves"][-1].startswith("BB ")
        assert sum(p.startswith("B") for p in diagrams["capture"]["pieces"].values()) == 5
    else:
        assert "x" not in diagrams["line-move"]["moves"][-1] and diagrams["line-move"]["moves"][-1].count("-") == 1
        assert "x1" in diagrams["push"]["moves"][-1] and " S" not in diagrams["push"]["moves"][-1]
        pushed_off = diagrams["push-off"]
        sector = pushed_off["arrow"][1]
        assert sector.startswith("S") and pushed_off["pieces"][sector] == "R"
        assert f"{sector}+" in pushed_off["moves"][-1]


@pytest.mark.parametrize("name", ["bigballs", "offboard"])
def test_the_rules_page_names_every_light_with_its_colour(client, name):
    page = client.get(f"/api/rules/{name}").json()
    lights = {light["name"]: light for light in page["lights"]}
    assert list(lights) == LIGHT_NAMES
    for light_name, light in lights.items():
        assert light["means"] and light["do"] and light["look"]
        assert light["blink"] is (light_name in BLINKING)
        if light_name in PALETTE:
            assert light["colour"] == "#%02x%02x%02x" % PALETTE[light_name]
    assert "blinking" in lights["fill"]["look"] and "steady" in lights["to"]["look"]
    assert page["palette"]["fill"] == "#%02x%02x%02x" % PALETTE["fill"]


def test_the_rules_of_an_unknown_game_are_not_found(client):
    response = client.get("/api/rules/chess")
    assert response.status_code == 404 and "chess" in response.json()["error"]
    assert client.get("/api/rules/").status_code == 404


# --- the new-game request: set-up mode and game clock ------------------------------------------------
@pytest.mark.parametrize("body", [
    {"setup": "random"}, {"setup": 3}, {"setup": ["auto"]}, {"setup": "given"},
    {"clock": "10"}, {"clock": 10}, {"clock": []}, {"clock": {}},
    {"clock": {"minutes": 10}}, {"clock": {"increment": 5}},
    {"clock": {"minutes": 0, "increment": 0}}, {"clock": {"minutes": -1, "increment": 0}},
    {"clock": {"minutes": 601, "increment": 0}}, {"clock": {"minutes": True, "increment": 0}},
    {"clock": {"minutes": "10", "increment": 0}}, {"clock": {"minutes": 10, "increment": -1}},
    {"clock": {"minutes": 10, "increment": 601}}, {"clock": {"minutes": 10, "increment": None}},
    {"clock": {"minutes": 10, "increment": 0, "delay": 2}},
])
def test_a_new_game_with_a_bad_set_up_or_clock_is_refused(client, body):
    calls = []
    client.session.new_game = lambda *args, **kwargs: calls.append((args, kwargs))
    response = client.post("/api/new", json=body)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error and "\n" not in error
    assert calls == []


def test_a_clock_of_infinite_minutes_is_refused(client):
    calls = []
    client.session.new_game = lambda *args, **kwargs: calls.append((args, kwargs))
    for raw in (b'{"clock": {"minutes": Infinity, "increment": 0}}', b'{"clock": {"minutes": NaN, "increment": 0}}'):
        response = client.post("/api/new", content=raw, headers={"Content-Type": "application/json"})
        assert response.status_code == 400
    assert calls == []


def test_a_new_game_passes_the_set_up_mode_and_the_clock_on(client):
    calls = []

    async def new_game(game=None, **kwargs):
        calls.append((game, kwargs))
        return client.session.snapshot()

    client.session.new_game = new_game
    sent = {"game": "bigballs", "setup": "identify", "clock": {"minutes": 5, "increment": 2.5},
            "settings": {"takebacks": False}}
    assert client.post("/api/new", json=sent).status_code == 200
    game, kwargs = calls[-1]
    assert game == "bigballs" and kwargs["setup"] == "identify" and kwargs["settings"].takebacks is False
    clock = kwargs["clock"]
    assert (clock.minutes, clock.increment) == (5, 2.5)

    assert client.post("/api/new", json={"clock": None, "setup": "shuffle"}).status_code == 200
    assert calls[-1][1]["clock"] is None and calls[-1][1]["setup"] == "shuffle"
    # no clock in the request: the current choice stays (the session's own default)
    assert client.post("/api/new", json={"setup": "auto"}).status_code == 200
    assert "clock" not in calls[-1][1] and calls[-1][1]["setup"] == "auto"
    assert client.post("/api/new", json={}).status_code == 200
    assert calls[-1][1]["setup"] is None


# --- the page's modules and the addresses they use ------------------------------------------------
STATIC = SPEECH_JS.parent
FROM_THE_ROOT = re.compile(r"""(?:["'`(}]|=\s*)/(?:api|ws|static)\b""")  # "/api/..", `${host}/ws`, src="/static/.."
COMMENT = re.compile(r"(^|\s)//\s.*$")


def test_every_address_the_page_uses_is_relative_to_it():
    """The same files serve a board's page at / and, in the club, under /board/NAME/."""
    for path in [STATIC / "index.html", *STATIC.glob("*.js")]:
        text = path.read_text("utf-8")
        assert not [line for line in text.splitlines() if FROM_THE_ROOT.search(COMMENT.sub("", line))], path.name


def test_the_page_loads_its_modules_and_each_import_is_there(client):
    page = client.get("/").text
    classic = re.findall(r'<script src="([^"]+)"', page)  # speech.js: its globals, before the modules
    modules = re.findall(r'<script type="module" src="([^"]+)"', page)
    assert classic == ["static/speech.js"] and "static/app.js" in modules
    for module in modules:  # a module is run only when it comes as JavaScript
        answer = client.get(f"/{module}")
        assert answer.status_code == 200 and answer.headers["content-type"].split(";")[0] in (
            "text/javascript", "application/javascript"), module
    for path in STATIC.glob("*.js"):
        for target in re.findall(r'^import .* from "([^"]+)";$', path.read_text("utf-8"), re.M):
            assert target.startswith("./") and (STATIC / target[2:]).is_file(), (path.name, target)


def test_the_page_asks_for_every_module_it_imports_at_once(client):
    """Each module the page's scripts import, at any depth, is preloaded by the page (and no
    other), so the browser asks for them together rather than one import after another."""
    page = client.get("/").text
    preloaded = set(re.findall(r'<link rel="modulepreload" href="static/([^"]+)">', page))
    entries = [src.removeprefix("static/") for src in re.findall(r'<script type="module" src="([^"]+)"', page)]
    reached, todo = set(), list(entries)
    while todo:
        module = todo.pop()
        for target in re.findall(r'^import .* from "\./([^"]+)";$', (STATIC / module).read_text("utf-8"), re.M):
            if target not in reached:
                reached.add(target)
                todo.append(target)
    assert preloaded == reached - set(entries)


# --- speech.js under node ---------------------------------------------------------------------------------
NOTES = {  # a name for each example -> the note
    "setup": {"kind": "setup", "data": {"mode": "shuffle"}},
    "ready": {"kind": "ready", "data": {"player": "black"}},
    "roll": {"kind": "roll", "data": {"player": "black", "value": 4, "stones": [4]}},
    "roll-gone": {"kind": "roll", "data": {"player": "white", "value": 4, "stones": [3, 5]}},
    "stone-move": {"kind": "move", "data": {"player": "black", "move": "4 b2-b3"}},
    "big-ball-capture": {"kind": "move", "data": {"player": "white", "move": "BB a5xa4"}},
    "push-off": {"kind": "move", "data": {"player": "yellow", "move": "C6-B5x1 S2+2"}},
    "put-back": {"kind": "move", "data": {"player": "red", "move": "+E5"}},
    "amend": {"kind": "amend", "data": {"old": "4 b2-b3", "new": "4 b2-c2"}},
    "takeback": {"kind": "takeback", "data": {"move": "6 c3xb4", "roll": 6}},
    "illegal": {"kind": "illegal", "data": {"fill": ["e3"], "empty": ["d4"]}},
    "choose": {"kind": "choose", "data": {"moves": ["4 b2-b3", "4 b2-c2"]}},
    "refused": {"kind": "refused", "data": {"reason": "no roll now"}},
    "identified": {"kind": "identified", "data": {"player": "white", "number": 3, "cell": "f1"}},
    "over": {"kind": "over", "data": {"result": "1-0", "winner": "black", "reason": "a7"}},
    "over-drawn": {"kind": "over", "data": {"result": "1/2-1/2", "winner": None, "reason": "agreed"}},
    "clear": {"kind": "clear", "data": {}},
    "identify": {"kind": "identify", "data": {"player": "black", "number": 5}},
    "low-time": {"kind": "low_time", "data": {"player": "white", "seconds": 28}},
    "flag": {"kind": "flag", "data": {"player": "yellow"}},
    "resign": {"kind": "resign", "data": {"player": "red"}},
    "draw": {"kind": "draw", "data": {}},
    "link-lost": {"kind": "link", "data": {"state": "lost", "why": "unplugged"}},
    "link-back": {"kind": "link", "data": {"state": "connected", "why": ""}},
    "touch": {"kind": "touch", "data": {"cells": ["a1"]}},
    "info": {"kind": "info", "data": {}},
    "computer": {"kind": "computer", "data": {"player": "white", "move": "4 b2-b3"}},
    "computer-rolls": {"kind": "computer", "data": {"player": "white", "move": None}},
    "hint": {"kind": "hint", "data": {"player": "black", "move": "BB a5xa4"}},
}
QUIET = {"touch", "info"}  # nothing worth saying
PROMPTS = [
    {"kind": "clear", "cells": ["d4"]}, {"kind": "fill", "cells": ["a1"], "empty": []},
    {"kind": "place", "piece": "B4", "cell": "a2"}, {"kind": "place", "piece": "ball", "cell": "a7"},
    {"kind": "identify", "player": "black", "number": 4},
    {"kind": "roll", "player": "black"}, {"kind": "put_back", "fill": ["e3"], "empty": []},
]
PLAYER_WORDS = {
    "en": {"black": "Black", "white": "White", "yellow": "Yellow", "red": "Red"},
    "de": {"black": "Schwarz", "white": "Weiß", "yellow": "Gelb", "red": "Rot"},
    "ro": {"black": "Negrul", "white": "Albul", "yellow": "Galbenul", "red": "Roșul"},
}


def games_words(notes) -> dict:
    """The games' words for `notes` as snapshots bring them: each move in the words of the game
    whose notation it is (a game says another game's notation as written), every ending."""
    words = {"moves": {}, "endings": {}}
    for game in (BigBalls(), OffBoard()):
        voice = game.voice(moves_named(notes))
        words["moves"].update({move: said for move, said in voice["moves"].items() if said["en"] != move})
        words["endings"].update(voice["endings"])
    return words


def run_speech(script: str):
    """Run `script` under node with speech.js's exports as `speech`; its JSON output."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node to run speech.js")
    program = f"const speech = require({json.dumps(str(SPEECH_JS))});\n{script}"
    done = subprocess.run([node, "-e", program], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def said():
    return run_speech(f"""
        const notes = {json.dumps(NOTES)}, prompts = {json.dumps(PROMPTS)};
        const words = {json.dumps(games_words(list(NOTES.values())))};
        const out = {{kinds: speech.NOTE_KINDS, langs: speech.SPEECH_LANGS, notes: {{}}, prompts: {{}}}};
        for (const lang of ["en", "de", "ro"]) {{
          out.notes[lang] = Object.fromEntries(Object.entries(notes).map(([name, n]) => [name, speech.phrase(n, lang, words)]));
          out.prompts[lang] = prompts.map((p) => speech.promptPhrase(p, lang));
        }}
        console.log(JSON.stringify(out));""")


def test_speech_has_a_phrase_for_every_note_kind_in_three_languages(said):
    assert said["langs"] == {"en": "en-GB", "de": "de-DE", "ro": "ro-RO"}
    assert set(said["kinds"]) == {note["kind"] for note in NOTES.values()}
    for lang in ("en", "de", "ro"):
        texts = said["notes"][lang]
        for name, note in NOTES.items():
            if note["kind"] in QUIET:
                assert texts[name] == "", (lang, name)
                continue
            assert texts[name], (lang, name)
            for word in ("undefined", "null", "NaN", "[object", "${"):
                assert word not in texts[name], (lang, name, texts[name])
        words = PLAYER_WORDS[lang]
        assert words["black"] in texts["ready"] and "4" in texts["roll"]
        assert "3" in texts["roll-gone"] and "5" in texts["roll-gone"] and words["white"] in texts["roll-gone"]
        assert "b2" in texts["stone-move"] and "b3" in texts["stone-move"] and "-" not in texts["stone-move"]
        assert "a5" in texts["big-ball-capture"] and "a4" in texts["big-ball-capture"]
        assert words["yellow"] in texts["push-off"] and "S2" in texts["push-off"] and "2" in texts["push-off"]
        assert "E5" in texts["put-back"] and words["red"] in texts["put-back"]
        assert "c2" in texts["amend"] and "b3" in texts["amend"]
        assert "c3" in texts["takeback"] and "b4" in texts["takeback"] and "6" in texts["takeback"]
        assert "e3" in texts["illegal"] and "d4" in texts["illegal"]
        assert "b3" in texts["choose"] and "c2" in texts["choose"]
        assert "3" in texts["identified"] and "f1" in texts["identified"]
        assert words["black"] in texts["over"] and "a7" in texts["over"]
        assert texts["over-drawn"] != texts["over"]
        assert words["black"] in texts["identify"] and "5" in texts["identify"]
        assert words["white"] in texts["low-time"] and "28" in texts["low-time"]
        assert "b2" in texts["computer"] and "b3" in texts["computer"] and texts["computer-rolls"] != texts["computer"]
        assert words["black"] in texts["hint"] and "a5" in texts["hint"]
        assert words["yellow"] in texts["flag"] and words["red"] in texts["resign"]
    # three languages, three different sentences
    for name, note in NOTES.items():
        if note["kind"] not in QUIET:
            assert len({said["notes"][lang][name] for lang in ("en", "de", "ro")}) == 3, name
    assert said["notes"]["ro"]["low-time"].endswith("28 de secunde.")


def test_speech_says_the_set_up_prompts_and_leaves_the_rest_to_the_notes(said):
    for lang in ("en", "de", "ro"):
        clear, fill, place_stone, place_ball, identify, roll, put_back = said["prompts"][lang]
        assert clear and fill and "a2" in place_stone and "4" in place_stone and "a7" in place_ball
        assert identify == roll == put_back == ""  # their notes say them
    assert "black stone 4" in said["prompts"]["en"][2] and "schwarzen Stein 4" in said["prompts"]["de"][2]
    assert "piatra neagră 4" in said["prompts"]["ro"][2]


def test_speech_announces_only_what_is_new():
    words = games_words([{"data": {"move": "BB b5-b4"}}])
    result = run_speech(f"const words = {json.dumps(words)};" + """
        const note = (n, kind, data, text) => ({t: n, n, kind, data, text: text || "ignored"});
        const first = {journal: "g1", notes: [note(2, "move", {player: "black", move: "4 b2-b3"}),
                                             note(1, "roll", {player: "black", value: 4, stones: [4]})],
                       prompt: {kind: "move", player: "white"}};
        const a = speech.announcements(null, first, "en");
        const same = speech.announcements(a.heard, first, "en");
        // the text says one thing, the kind and data another: the data is what is said
        const later = {journal: "g1", notes: [note(4, "move", {player: "white", move: "BB b5-b4"}, "4 b2-b3 by black"),
                                             note(3, "roll", {player: "white", value: 2, stones: [2]}), ...first.notes],
                       prompt: {kind: "roll", player: "black"}, speech: words};
        const b = speech.announcements(same.heard, later, "de");
        const renewed = {journal: "g2", notes: [note(1, "ready", {player: "black"})],
                         prompt: {kind: "place", piece: "W2", cell: "e1"}};
        const c = speech.announcements(b.heard, renewed, "ro");
        const again = speech.announcements(c.heard, renewed, "ro");
        const backlog = {journal: "g2", notes: [2, 3, 4, 5, 6, 7].reverse().map((n) =>
            note(n, "move", {player: "red", move: `C${n % 7 + 1}-D${n % 7 + 2}`})), prompt: null};
        const d = speech.announcements(again.heard, backlog, "en");
        const unnumbered = speech.announcements(d.heard, {journal: "g2", notes: [{t: 1, text: "old server"}]}, "en");
        console.log(JSON.stringify({a: a.say, same: same.say, b: b.say, c: c.say, again: again.say,
                                    d: d.say, unnumbered: unnumbered.say}));""")
    assert result["a"] == [] and result["same"] == []  # nothing on loading; nothing twice
    assert result["b"] == ["Weiß würfelt 2: Stein 2 zieht.", "Weiß: große Kugel von b5 nach b4."]
    assert result["c"] == ["Așezarea e gata. Mută Negrul.", "Pune piatra albă 2 pe e1."]  # a new game's notes
    assert result["again"] == []
    assert len(result["d"]) == 3 and "C1" in result["d"][-1]  # after a gap only the newest few, oldest first
    assert result["unnumbered"] == []
