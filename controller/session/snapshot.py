"""Publishing a play session: the snapshot a page draws, built on change, pushed to every reader.

A snapshot is JSON-ready and whole (never a difference): the game's geometry and pieces, the
lights exactly as the board was told to show them, the die, the prompt as data and in words,
the notes, the clock, the record, and on a simulated table the hand and the box.

What a snapshot says in words (`words`, and the games' catalogue) differs by language, so it is
not built with the rest on every change: each language's words are put together only when a
reader asks for that language, once per published snapshot, and a snapshot is handed out with
the words of the languages asked for.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import asdict

from ..games import GAMES, Game, catalog
from ..language.catalogue import LANGUAGES, speaking
from ..persist.notation import header_lines, result_line
from ..core.signals import PALETTE
from ..core.view import Phase
from .. import words
from ..words import notes as note_words, prompts

NOTES_SHOWN = 12  # the newest notes in a snapshot
PALETTE_HEX = {name: "#%02x%02x%02x" % rgb for name, rgb in PALETTE.items()}


# --- positions as plain data ------------------------------------------------------------------------
def position_data(game: Game) -> dict:
    """The parts of a position a page draws besides the pieces: turn, score, waiting piece."""
    return {"turn": game.turn, **game.position_data()}


def outcome_data(game: Game) -> dict | None:
    outcome = game.outcome()
    if outcome is None:
        return None
    return {"result": outcome.result(game.players), "reason": outcome.termination.value,
            "winner": outcome.winner, "line": result_line(game), "words": words.said(game.ending_words(outcome))}


def games_data() -> list[dict]:
    """Every registered game for the new-game dialog: name, title, players, set-up modes, start options."""
    return [{key: words.said_all(entry[key]) for key in ("name", "title", "players", "setup_modes", "options")}
            for entry in catalog()]


_CATALOGUES: dict[tuple, list[dict]] = {}


def games_in(lang: str) -> list[dict]:
    """games_data() with the start options' words in `lang`; the same list while the registry
    stays the same (a reader may tell it unchanged by its identity)."""
    key = (lang, tuple(GAMES.values()))
    made = _CATALOGUES.get(key)
    if made is None:
        if len(_CATALOGUES) >= 4 * len(LANGUAGES):  # a registry changed (tests add games)
            _CATALOGUES.clear()
        with speaking(lang):
            made = _CATALOGUES[key] = games_data()
    return made


def chosen_modes(game: Game) -> list[str]:
    """The set-up modes a player may choose for a new game of this kind ("given" is for replays)."""
    return [mode for mode in game.setup_modes if mode != "given"]


# --- the session's snapshot --------------------------------------------------------------------------
class Geometry:
    """game.geometry(), worked out once per game object (it does not change with the position)."""

    def __init__(self) -> None:
        self._of: tuple = (None, None)

    def __call__(self, game: Game) -> dict:
        if self._of[0] is not game:
            self._of = (game, game.geometry())
        return self._of[1]


_HEADER: list = [None, None, None]  # the game, its first move, its header lines


def start_header(game: Game) -> list[str]:
    """header_lines(game), kept while the game and its first move stay the same objects: it is
    worked out by taking every move back, on every change, and a game's start never moves."""
    first = game.move_stack[0] if game.move_stack else None
    if _HEADER[0] is not game or _HEADER[1] is not first or first is None:
        _HEADER[:] = [game, first, header_lines(game)]
    return list(_HEADER[2])


def session_snapshot(session, geometry: Callable[[Game], dict]) -> dict:
    """What the page shows of `session` (controller.session.play_session.PlaySession), as JSON-ready
    data, but for what is said in words (`said`: the words and the games' catalogue)."""
    referee = session.referee
    if referee is None:
        return {"game": session.kind, "phase": "starting", "sim": session.table is not None,
                "prompt": {"kind": "starting"}, "link": session.link_data()}
    game = referee.game
    state = referee.state()
    view = state.view
    frame, table = session.lights, session.table
    physical = table.cells_data() if table is not None else None
    cells = {}
    for cell in game.cells:
        light = frame.cells.get(cell)
        entry = {"piece": state.pieces.get(cell, ""), "light": light.colour if light else "",
                 "blink": bool(light and light.blink)}
        if cell in state.expected:
            entry["expect"] = state.expected[cell]
        if physical is not None:
            entry["sim"] = physical.get(cell, "")
        cells[cell] = entry
    snapshot = {
        "game": game.name,
        "title": game.title,
        "phase": view.phase.value,
        "turn": game.turn,
        "players": list(game.players),
        "cells": cells,
        "order": list(game.cells),
        "geometry": geometry(game),
        "die": {"face": session.die_state.face.value, "value": session.die_state.value, "pips": frame.die_pips},
        "turn_light": frame.turn,
        "roll": referee.roll,
        **position_data(game),
        # the set-up's stone numbers are not in the record until the board has told them
        "header": start_header(game) if referee.stones_known else start_header(game)[:1],
        "record": [game.format_move(m) for m in game.move_stack],
        "outcome": outcome_data(game) if view.phase is Phase.OVER else None,
        "message": prompts.describe(view.prompt, game),
        "prompt": {"kind": view.prompt.kind, **view.prompt.data} if view.prompt else {"kind": "starting"},
        "choices": list(state.choices),
        "notes": notes_data(referee, session.t0),
        "clock": referee.clock_state(session.now()),
        "setup_mode": referee.setup_mode,
        "setup_modes": chosen_modes(game),
        "cue": {"name": session.cue, "n": session.cues},
        "journal": referee.journal.path.name if getattr(referee.journal, "path", None) else None,
        "settings": asdict(session.settings),
        "sim": table is not None,
        "running": session.running,
        "error": session.error,
        "palette": PALETTE_HEX,
        "link": session.link_data(),
        "computer": ({"plays": referee.computer.plays, "level": referee.computer.level}
                     if referee.computer is not None else None),
        "thinking": session.thinking,
        "names": {colour: name for colour, name in session.players.items() if colour in game.players},
        "occasion": getattr(session, "occasion", None),
    }
    if table is not None:
        snapshot.update(table.data())
    return snapshot


def said(session, snapshot: dict, lang: str) -> dict:
    """What `snapshot`, the session's as it stands, says in `lang`: the games' catalogue
    (`games`) and, once a game is under way, the page's words (`words`, see words_in)."""
    referee = session.referee
    if referee is None or snapshot.get("phase") == "starting":
        return {"games": games_in(lang)}
    return {"games": games_in(lang), "words": words_in(lang, referee, referee.game, snapshot["notes"],
                                                       Phase(snapshot["phase"]), snapshot["link"])}


def words_in(lang: str, referee, game: Game, notes: list[dict], phase: Phase, link: dict | None = None) -> dict:
    """What the page reads and says in `lang`: the prompt as a line (`message`), each note as a
    line (`notes`, by its number n) and as a spoken sentence (`said`), the set-up prompt said
    when it comes up (`prompt_said`), how the game ended (`ending`), and the banner while the
    board's link is lost (`link`, "" while the board is there)."""
    with speaking(lang):
        prompt = referee.prompt()
        outcome = game.outcome() if phase is Phase.OVER else None
        return {
            "message": prompts.describe(prompt, game),
            "notes": {n["n"]: _note_words(n, lang, game)[0] for n in notes},
            "said": {n["n"]: _note_words(n, lang, game)[1] for n in notes},
            "prompt_said": note_words.prompt_said(prompt, game) if prompt.kind in note_words.SPOKEN_PROMPTS else "",
            "ending": words.said(game.ending_words(outcome)) if outcome is not None else None,
            "link": note_words.link(link) if link and link.get("state") == "lost" else "",
        }


# A note's words never change once it is made, but a snapshot is built on every frame a hand
# changes: each note is put into words once per language (keyed by its data, which the cache
# holds, so the key cannot be reused), not on every build.
_NOTE_WORDS: dict[tuple[int, str], tuple[dict, str, str]] = {}


def _note_words(note: dict, lang: str, game: Game) -> tuple[str, str]:
    """(the note as a line, as a spoken sentence) in `lang`, whose words are in use."""
    data = note["data"]
    kept = _NOTE_WORDS.get((id(data), lang))
    if kept is None or kept[0] is not data:
        if len(_NOTE_WORDS) >= 8 * NOTES_SHOWN * len(LANGUAGES):
            _NOTE_WORDS.clear()
        kept = (data, note_words.written(note["kind"], data, game),
                note_words.said(note["kind"], data, game.spoken, game.ending_said, game))
        _NOTE_WORDS[(id(data), lang)] = kept
    return kept[1], kept[2]


def notes_data(referee, t0: float) -> list[dict]:
    """The newest notes first, each with its number in the game (n), kind and data."""
    first = max(0, referee.notes_total - NOTES_SHOWN)
    return [{"t": round(n.t - t0, 3), "text": note_words.written(n.kind, n.data, referee.game), "kind": n.kind,
             "n": first + i + 1, "data": n.data}
            for i, n in enumerate(list(referee.notes)[-NOTES_SHOWN:])][::-1]


class Publisher:
    """Snapshots built by `build` when marked dirty (at most once per loop turn), published with
    a sequence number only when something in them changed; readers wait for the next one.

    What a published snapshot says in a language (`say(snapshot, lang)`: see `said`) is worked
    out when a reader first asks for that language, and kept until the next one is published:
    a language nobody reads costs nothing. It is worked out from the session as it stands, which is
    the snapshot's own state: any change marks the publisher dirty, and a dirty publisher
    publishes before it answers."""

    def __init__(self, build: Callable[[], dict], say: Callable[[dict, str], dict]) -> None:
        self._build = build
        self._say = say
        self.seq = 0
        self._body: dict | None = None
        self._published: dict | None = None
        self._said: dict[str, dict] = {}  # lang -> what the published snapshot says in it
        self._made: dict[tuple[str, ...], dict] = {}  # languages -> the published snapshot in them
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self._flush_pending = False

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Publish in `loop` from now on (marks are flushed there)."""
        self._loop = loop
        self._changed = asyncio.Event()

    def forget(self) -> None:
        """The next build publishes whatever it finds (a new game)."""
        self._body = None

    def dirty(self) -> None:
        if self._flush_pending or self._loop is None:
            return
        self._flush_pending = True
        self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_pending = False
        self.publish()

    def publish(self) -> dict:
        """Build the snapshot now; publish it (to `updates`) if anything changed. Returns it,
        without its words (`snapshot` gives them)."""
        body = self._build()
        if body != self._body or self._published is None:
            self._body = body
            self.seq += 1
            self._published = {**body, "seq": self.seq}
            self._said, self._made = {}, {}
            if self._changed is not None:
                event, self._changed = self._changed, asyncio.Event()
                event.set()
        return self._published

    def latest(self) -> dict:
        """The latest snapshot without its words (built now if there is none yet, or a change waits)."""
        return self._published if self._published is not None and not self._flush_pending else self.publish()

    def snapshot(self, languages: tuple[str, ...] = LANGUAGES) -> dict:
        """The latest snapshot with its words in `languages` (`words`: {lang: ...}) and the games'
        catalogue in the first of them (none given: neither); the same dict for the same
        languages until the next."""
        published = self.latest()
        if not languages:
            return published
        made = self._made.get(languages)
        if made is None:
            first = self._said_in(languages[0])
            made = {**published, "games": first["games"]}
            if "words" in first:
                made["words"] = {lang: self._said_in(lang)["words"] for lang in languages}
            self._made[languages] = made
        return made

    def _said_in(self, lang: str) -> dict:
        kept = self._said.get(lang)
        if kept is None:
            kept = self._said[lang] = self._say(self._published, lang)
        return kept

    async def updates(self) -> AsyncIterator[dict]:
        """Every published snapshot from now on (without its words), starting with the current one.

        A slow reader skips to the newest: snapshots are whole, never differences."""
        seen = None
        while True:
            if self._published is None or self._flush_pending:
                self.publish()
            if self.seq != seen:
                seen = self.seq
                yield self._published
                continue
            await self._changed.wait()
