"""Words said where they are shown, in the language of whoever reads them (docs/architecture.md,
the words room): a damaged journal in the archive's list, a trace the replay cannot use, a game
the club refuses. Each was English before in another language (a phrase formatted as text, a
sentence written in English); tests/english_leaks.py finds such English in what the page and
the command line show, and the last tests here hold the page and the command line to it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from archive_games import A7_GAME, bigballs, played
from club_lines import board_lines, journal_payload
from english_leaks import leaks
from reedboard.controller.broadcast.club.app import create_club_app
from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.commands.cli import main
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.language.catalogue import speaking
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.web import create_app
from reedboard.controller.words import said

pytestmark = pytest.mark.component

LOCAL = "http://127.0.0.1"
TRACES = Path(__file__).resolve().parent / "traces"


def page_for(tmp_path: Path, games: Path) -> TestClient:
    session = PlaySession("bigballs", games_dir=tmp_path / "live", settings=Settings(settle=0.15, grace=0.3),
                          rng=random.Random(7), setup="given")
    return TestClient(create_app(session, token="s3cret", games_dir=games), base_url=LOCAL)


def damaged_journal(games: Path) -> Path:
    """Ann's win at a7, its fourth line a move the rules refuse: read up to the line before it."""
    path = played(games, bigballs(), A7_GAME[:6], players={"black": "Ann", "white": "Bob"})
    lines = path.read_text().splitlines()
    lines[3] = '{"type": "move", "t": 3.0, "move": "6 g7-a1"}'
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_damaged_journal_in_the_archives_list_is_said_in_the_language_asked_for(tmp_path):
    games = tmp_path / "games"
    victim = damaged_journal(games)
    problem = read_journal(victim).damage.problem
    with speaking("de"):
        why = said(problem)
    assert why != str(problem)  # there is German to say
    with page_for(tmp_path, games) as page:
        listed = page.get("/api/games", headers={"Accept-Language": "de"})
        english = page.get("/api/games", headers={"Accept-Language": "en"}).json()
        detail = page.get(f"/api/games/{victim.name}", headers={"Accept-Language": "de"})
    entry = {g["name"]: g for g in listed.json()}[victim.name]
    assert entry["damaged"] == f"{victim.name}:4: {why}"
    assert {g["name"]: g for g in english}[victim.name]["damaged"] == f"{victim.name}:4: {problem}"
    assert str(games) not in listed.text and leaks(listed.text, "de") == []
    assert why in detail.json()["note"] and leaks(detail.text, "de") == [], detail.json()["note"]


def trace_file(tmp_path: Path, *lines: str) -> Path:
    start = (TRACES / "bigballs-ambiguous.jsonl").read_text().splitlines()
    path = tmp_path / "game.trace.jsonl"
    path.write_text("\n".join([start[0], *lines]) + "\n")
    return path


@pytest.mark.parametrize(("lang", "lines", "says"), [
    ("de", ['{"t": 0.0, "occupied": []}', '{"t": 1.3, "end": "resign", "player": "green"}'],
     "die Aufgabe bei t=1.3: kein Spieler 'green'"),
    ("ro", ['{"t": 0.0, "resume": true}', '{"t": 0.5, "occupied": []}'],
     "un segment de înregistrare a tablei (începe la o repornire a partidei) se redă doar cu jurnalul său"),
])
def test_a_trace_the_replay_cannot_use_is_said_in_the_language_asked_for(tmp_path, capsys, lang, lines, says):
    trace = trace_file(tmp_path, *lines)
    assert main(["--lang", lang, "replay", str(trace)]) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1 and leaks(err, lang) == [], err


def test_a_game_the_club_refuses_is_said_in_its_readers_language_and_in_the_clubs_in_its_log(tmp_path, caplog):
    (tmp_path / "club").mkdir()
    club = Club(tmp_path / "club")
    lines = board_lines(tmp_path)
    try:
        for seq in range(1, 6):
            club.receive("reedboard/boards/t1/journal", journal_payload("t1", seq, lines[seq - 1]))
        with speaking("de"):  # the club's own language, as `reedboard club --lang de` sets it
            club.receive("reedboard/boards/t1/journal",
                         journal_payload("t1", 6, {"type": "move", "t": 1.0, "move": "Z9-Z8"}))
        assert "Zeile 6: " in caplog.text
        with TestClient(create_club_app(club), base_url=LOCAL) as page:
            by_language = {lang: page.get("/api/boards/t1", headers={"Accept-Language": lang}).json()["refused"]
                           for lang in ("de", "ro", "en")}
    finally:
        club.close()
    assert by_language["de"].startswith("Zeile 6: ") and by_language["ro"].startswith("linia 6: ")
    assert by_language["en"].startswith("line 6: ") and leaks(by_language["de"], "de") == []


# --- the guard: no English sentence of the catalogues where the page or the command line speaks German
def shown(message: dict, lang: str) -> dict:
    """What the board's page shows of a snapshot (static/live.js, boardWords): the words in its
    language in place of the English lines a snapshot also carries for a page without them."""
    if lang not in (message.get("words") or {}):
        return message
    kept = {key: value for key, value in message.items() if key not in ("message", "words")}
    kept["notes"] = [{k: v for k, v in note.items() if k != "text"} for note in message.get("notes", [])]
    return {**kept, "said": message["words"][lang]}


def test_the_finder_finds_a_phrase_left_english_and_not_its_german():
    text = "game.jsonl:1: the header line is damaged: this game cannot be restored"
    assert "the header line is damaged: this game cannot be restored" in leaks(text, "de")
    with speaking("de"):
        from reedboard.controller.language.phrases import Phrasebook
        german_text = said(Phrasebook("commands")("the header line is damaged: this game cannot be restored"))
    assert leaks(german_text, "de") == [] and leaks("Ann, Bob: 1-0", "de") == []


def test_the_page_in_german_shows_no_english_sentence(tmp_path):
    games = tmp_path / "games"
    damaged_journal(games)
    with page_for(tmp_path, games) as page:
        with page.websocket_connect("/ws", headers={"Accept-Language": "de"}) as socket:
            first = json.loads(socket.receive_text())
        answers = [page.get(path, headers={"Accept-Language": "de"}).text
                   for path in ("/api/catalog", "/api/games", "/api/stats")]
    assert first.get("words") and leaks(json.dumps(shown(first, "de"), ensure_ascii=False), "de") == []
    for answer in answers:
        assert leaks(answer, "de") == [], answer[:300]


@pytest.mark.parametrize("argv", [
    ["show", "bigballs", "4 e1-d1"],
    ["export", "{damaged}"],
    ["games", "list", "--dir", "{games}"],
])
def test_the_command_line_in_german_says_no_english_sentence(tmp_path, capsys, argv):
    games = tmp_path / "games"
    damaged = damaged_journal(games)
    (games / "20261201-000000-offboard.jsonl").write_text("not a journal\n")
    main(["--lang", "de", *(arg.format(damaged=damaged, games=games) for arg in argv)])
    out, err = capsys.readouterr()
    assert out or err
    assert leaks(out + err, "de") == [], out + err
