"""The web page's server side and its pure script, without a browser: the rules page's JSON
(its example positions are the engines' own), the new-game request's set-up and clock, the
page's modules and their addresses, and speech.js's choice of what to say, run under node (the
sentences themselves come in the snapshots, from the board's catalogue)."""

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
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.core.signals import BLINKING, PALETTE
from reedboard.controller.web import create_app

pytestmark = pytest.mark.system

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


# the lights each game shows: Off Board and Abalone have no die (nothing "movable") and no
# numbered stones to set up one by one (nothing to "place")
GAME_LIGHTS = {"bigballs": LIGHT_NAMES, "offboard": [n for n in LIGHT_NAMES if n not in ("place", "movable")],
               "abalone": [n for n in LIGHT_NAMES if n not in ("place", "movable")]}


@pytest.mark.parametrize("name", ["bigballs", "offboard", "abalone"])
def test_the_rules_page_names_every_light_of_its_game_with_its_colour(client, name):
    page = client.get(f"/api/rules/{name}").json()
    lights = {light["name"]: light for light in page["lights"]}
    assert list(lights) == GAME_LIGHTS[name]
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
def run_speech(script: str):
    """Run `script` under node with speech.js's exports as `speech`; its JSON output."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node to run speech.js")
    program = f"const speech = require({json.dumps(str(SPEECH_JS))});\n{script}"
    done = subprocess.run([node, "-e", program], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def snapshot(journal, notes, prompt_said=""):
    """A snapshot as the page gets it: its notes (n: their words), each said in every language
    (`words[lang].said`), and the set-up prompt said ("" when none is said)."""
    listed = [{"t": n, "n": n, "kind": "move", "data": {}, "text": f"note {n}"} for n in sorted(notes, reverse=True)]
    words = {lang: {"message": "", "notes": {str(n): f"{lang} line {n}" for n in notes},
                    "said": {str(n): said if lang == "en" else f"{lang}: {said}" for n, said in notes.items()},
                    "prompt_said": prompt_said and (prompt_said if lang == "en" else f"{lang}: {prompt_said}"),
                    "ending": None} for lang in ("en", "de", "ro")}
    return {"journal": journal, "notes": listed, "words": words}


def test_speech_says_what_is_new_in_the_snapshots_words():
    first = snapshot("g1", {1: "Black rolled 4.", 2: "Black: stone 4 from b2 to b3."})
    later = snapshot("g1", {1: "Black rolled 4.", 2: "Black: stone 4 from b2 to b3.", 3: "White rolled 2.",
                            4: "White: big ball from b5 to b4."})
    renewed = snapshot("g2", {1: "Set-up done. Black to move."}, prompt_said="Put the white stone 2 on e1.")
    moved_on = snapshot("g2", {1: "Set-up done. Black to move."}, prompt_said="Put a big ball on a7.")
    backlog = snapshot("g2", {n: f"Red: move {n}." for n in range(1, 8)}, prompt_said="Put a big ball on a7.")
    silent = snapshot("g2", {n: "" for n in range(1, 9)}, prompt_said="Put a big ball on a7.")
    old_board = {"journal": "g2", "notes": [{"t": 1, "n": 9, "text": "a board without words"}]}
    said = run_speech(f"""
        const s = {json.dumps([first, later, renewed, moved_on, backlog, silent, old_board])};
        const a = speech.announcements(null, s[0], "en");
        const same = speech.announcements(a.heard, s[0], "en");
        const b = speech.announcements(same.heard, s[1], "de");
        const c = speech.announcements(b.heard, s[2], "ro");
        const again = speech.announcements(c.heard, s[2], "en");  // another language: no new prompt
        const d = speech.announcements(again.heard, s[3], "en");
        const e = speech.announcements(d.heard, s[4], "en");
        const f = speech.announcements(e.heard, s[5], "en");
        const g = speech.announcements(f.heard, s[6], "de");
        console.log(JSON.stringify({{langs: speech.SPEECH_LANGS, most: speech.MOST_AT_ONCE, a: a.say, same: same.say,
                                     b: b.say, c: c.say, again: again.say, d: d.say, e: e.say, f: f.say, g: g.say}}));""")
    assert said["langs"] == {"en": "en-GB", "de": "de-DE", "ro": "ro-RO"}
    assert said["a"] == [] and said["same"] == []  # nothing on loading; nothing twice
    assert said["b"] == ["de: White rolled 2.", "de: White: big ball from b5 to b4."]  # the newer notes, in order
    # a new game: all its notes, then its set-up prompt, in the page's language
    assert said["c"] == ["ro: Set-up done. Black to move.", "ro: Put the white stone 2 on e1."]
    assert said["again"] == []
    assert said["d"] == ["Put a big ball on a7."]  # the prompt changed
    assert said["e"] == ["Red: move 5.", "Red: move 6.", "Red: move 7."]  # after a gap, only the newest few
    assert len(said["e"]) == said["most"]
    assert said["f"] == []  # a note with nothing to say is not said
    assert said["g"] == []  # an old board's snapshot brings no words to say


def test_speech_js_keeps_no_sentences_of_its_own():
    """The sentences come in the snapshots, from the board's catalogue; speech.js chooses which."""
    text = SPEECH_JS.read_text("utf-8")
    for words in ("rolled", "Weiß", "würfelt", "Negrul", "mută", "Voice on", "stone"):
        assert words not in text, words
