"""The session's API: its snapshot, who may change it, the changes the page makes to the game,
and what the page asks for beside (the games' catalog, their rules pages, the join card).

    GET  /api/state, /api/auth, /api/catalog, /api/join, /api/rules/GAME
    POST /api/click, select, aside, take, press, resign, draw, hint, new

/api/state gives the snapshot with its words in every language; a change is answered with it in
the request's language only (the page's).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from ..games import catalog, top_level
from ..language.catalogue import COMMANDS, LANGUAGES, current
from ..opponent.ratings import level_ratings
from ..session.actions import ActionError
from ..session.play_session import PlaySession

from .access import Access
from .changes import Changes
from .join import join_info, listen_host
from .new_game import start_new_game
from .replies import NAME_LENGTH, SnapshotJSON, beside, encoded, error, games_in_words, json_answer
from .rules import rules_page
from .side_work import SideWork
from ..words import said_all

_ = COMMANDS.gettext


def with_levels(games: list[dict]) -> list[dict]:
    """The catalog with each game's computer levels and their ratings (the ladder's, measured
    by bench/ladder.py): [{"level", "rating", "low", "high"}], and its strongest level
    (`top_level`: its levels are 1 to it), for the new-game dialog."""
    for entry in games:
        entry["top_level"] = top_level(entry["name"])
        try:
            rows = level_ratings(entry["name"])
        except KeyError:  # a game the ladder has not measured
            rows = []
        entry["levels"] = [{"level": n, "rating": round(r), "low": round(lo), "high": round(hi)} for n, r, lo, hi in rows]
    return games


@functools.cache
def _rules_json(game: str, lang: str) -> bytes:
    return encoded(rules_page(game, lang))


def rules_json(game: str, lang: str) -> bytes:
    try:
        return _rules_json(game, lang)
    except KeyError:
        raise ActionError(_('no game {name}: {games}').format(name=repr(game[:40]), games=games_in_words()), 404) from None


def session_routes(session: PlaySession, access: Access, changes: Changes, work: SideWork,
                   snapshot_json: SnapshotJSON, names: frozenset[str]) -> list[BaseRoute]:
    """The routes of the session's API; `names`: the names the board answers to (the join card's)."""

    def changing(act: Callable[[dict], object]) -> Callable[[dict], Awaitable[None]]:
        """A change to the game: answered with the snapshot (changes.py), not what `act` returns."""
        async def handler(data: dict) -> None:
            done = act(data)
            if inspect.isawaitable(done):
                await done
        return handler

    async def state(request: Request):
        asked = current()  # the request's language first: the games' catalogue is in it
        languages = (asked, *(lang for lang in LANGUAGES if lang != asked))
        return json_answer(snapshot_json(session.snapshot(languages)).encode("utf-8"))

    async def auth(request: Request):
        return JSONResponse({"control": access.may_change(request), "token_required": access.token is not None})

    async def games_catalog(request: Request):
        return json_answer(encoded(with_levels(said_all(catalog()))))

    async def join(request: Request):
        # the port the page was reached on is the one listened on; names says where (hosts.py)
        port = (request.scope.get("server") or ("", 0))[1] or 80
        return await beside(work, ("join", port), lambda: encoded(join_info(listen_host(names), port)))

    async def rules(request: Request):
        game = request.path_params["game"]
        if len(game) > NAME_LENGTH:
            return error(_('no such game: {games}').format(games=games_in_words()), 404)
        lang = current()  # the request's (languages.Speaking): the worker thread has its own context
        return await beside(work, ("rules", game, lang), rules_json, game, lang)

    return [
        Route("/api/state", state),
        Route("/api/auth", auth),
        changes.route("/api/click", "click", changing(lambda d: session.click(d["cell"]))),
        changes.route("/api/select", "select", changing(lambda d: session.select(d["index"]))),
        changes.route("/api/aside", "aside", changing(lambda d: session.aside(d.get("index")))),
        changes.route("/api/take", "take", changing(lambda d: session.take(d["index"]))),
        changes.route("/api/press", "press", changing(lambda d: session.press(d["button"]))),
        changes.route("/api/resign", "resign", changing(lambda d: session.resign(d["player"]))),
        changes.route("/api/draw", "draw", changing(lambda d: session.draw())),
        changes.route("/api/hint", "hint", changing(lambda d: session.hint())),
        changes.route("/api/new", "new", changing(lambda d: start_new_game(session, d))),
        Route("/api/join", join),
        Route("/api/catalog", games_catalog),
        Route("/api/rules/{game}", rules),
    ]
