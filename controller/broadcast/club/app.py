"""The club's page and API (Starlette), read-only: every board at a glance, and each board's own page.

    GET /                          the club's page: every board, the standings
    GET /api/boards                every board: players, score, last move, position, result ...
    GET /api/boards/NAME           one board: its game's geometry, record and journal lines
    GET /api/standings             the evening's players by points
    GET /api/club                  the club's link to the broker, lines dropped as duplicates or garbled
    WS  /ws                        {"full", "version", "boards", "standings", "connected"} at every change:
                                   every board first ("full": true), then the boards changed since
    GET /api/tournament            the tournament: its settings, players, rounds' pairings and results,
                                   standings (with ratings) and corrections
    POST /api/tournament/ACTION    the organiser's (the club's token): new, register, withdraw, pair,
                                   result, correct, finish (docs/tournament.md)
    GET /api/tournament/export/F   games.csv, standings.csv or tournament.trf (FIDE TRF16)
    GET /board/NAME/               the board's own page (controller/web's), watching only
                                   (/board/NAME leads there)
    GET /board/NAME/static/...     its scripts and style, controller/web/static as they are
    WS  /board/NAME/ws             that page's snapshots, as the board's own server sends them
    GET /board/NAME/api/...        what that page asks for: auth (never control), catalog, rules, state
    GET /spectate                  the spectators' page: the boards read from the broker over MQTT over
                                   WebSockets, not from this server (?broker=ws://..., ?board=NAME)
    GET /spectate/config           what that page asks first: the broker's WebSocket address (`spectators`,
                                   or null: the page's own host), the topics' prefix, the boards' names

Every address the board's page uses is relative to it, so under /board/NAME/ it asks this
board's place here; the page comes with the board's name in its title and a link back to the club.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...games import catalog
from ...web.access import Access
from ...web.limits import Limits, Watchers
from ...language.catalogue import current
from ...web.languages import Speaking, language_routes
from ...web.rules import rules_page
from ..address import NAME
from .club import Club
from .organiser import EXPORTS, organise
from .tournament import TournamentError
from ...session.actions import ActionError
from ...web.bodies import read_json
from ...language.catalogue import COMMANDS
from ...words import said_all
from ...words import said

HERE = Path(__file__).parent / "static"
BOARD_PAGE = Path(__file__).parents[2] / "web" / "static"
_ = COMMANDS.gettext

PUSH_EVERY = 0.2  # s: at most five pushes a second to each page, however busy the boards
LIMITS = Limits(watchers=200, watchers_per_address=16)  # WebSockets at once, and from one address
BODY_LIMIT = 16384  # bytes of an organiser's action (a new tournament's boards and name are the most)


def _json(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


@functools.cache
def _rules_json(game: str, lang: str) -> bytes:
    return _json(rules_page(game, lang))


BOARD_TITLE = "<title>reedboard</title>"
BOARD_HEADER = '<header class="top">'


@functools.cache
def _board_page_text() -> str:
    return (BOARD_PAGE / "index.html").read_text("utf-8")


def _board_page(name: str) -> str:
    """The board's page, titled with the board's name, a link back to the club first in its header."""
    shown = html.escape(name)
    back = '<a class="club-back" href="/" style="margin-right:.6em;color:inherit">&larr; club</a>'
    return (_board_page_text().replace(BOARD_TITLE, f"<title>{shown} · reedboard club</title>", 1)
            .replace(BOARD_HEADER, BOARD_HEADER + back, 1))


def create_club_app(club: Club, *, lifespan=None, limits: Limits = LIMITS, spectators: str | None = None,
                    token: str | None = None) -> Starlette:
    places = Watchers(limits)
    access = Access(token)  # the organiser's actions on the tournament

    def board_name(request) -> str | None:
        name = request.path_params["name"]
        return name if NAME.match(name) else None

    async def page(request: Request):
        return FileResponse(HERE / "club.html", headers={"Cache-Control": "no-cache"})

    async def boards(request: Request):
        return Response(club.summaries_json(), media_type="application/json")

    async def board(request: Request):
        name = board_name(request)
        detail = club.detail(name) if name else None
        if detail is None:
            return _error(_('no such board'), 404)
        return Response(_json({**detail, "refused": said_all(detail["refused"])}),  # in the reader's language
                        media_type="application/json")

    async def standings(request: Request):
        return Response(club.standings_json(), media_type="application/json")

    async def status(request: Request):
        return JSONResponse({"connected": club.connected, "boards": len(club.boards),
                             "duplicates": club.duplicates, "garbled": club.garbled})

    async def board_page(request: Request):
        name = board_name(request)
        if name is None:
            return _error(_('no such board'), 404)
        return HTMLResponse(_board_page(name), headers={"Cache-Control": "no-cache"})

    async def to_board_page(request: Request):  # the page's addresses are relative to /board/NAME/
        if board_name(request) is None:
            return _error(_('no such board'), 404)
        return RedirectResponse(f"{request.path_params['name']}/")

    async def board_auth(request: Request):
        return JSONResponse({"control": False, "token_required": False})

    async def board_state(request: Request):
        name = board_name(request)
        snapshot = club.board_snapshot(name) if name else None
        if snapshot is None:
            return _error(_('no such board, or nothing received from it yet'), 404)
        return Response(_json(snapshot), media_type="application/json")

    async def board_catalog(request: Request):
        return Response(_json(said_all(catalog())), media_type="application/json")

    async def board_rules(request: Request):
        try:
            return Response(_rules_json(request.path_params["game"][:40], current()), media_type="application/json")
        except KeyError:
            return _error(_('no such game'), 404)

    async def board_games(request: Request):  # the club's archive is the place for past games
        return Response(b"[]", media_type="application/json")

    async def no_game(request: Request):
        return _error(_('no such game'), 404)

    async def watch(websocket: WebSocket, send_one) -> None:
        address = websocket.client.host if websocket.client else "?"
        refused = places.admit(address, owner=False)
        if refused is not None:
            await websocket.close(1013, refused[:120])
            return
        await websocket.accept()

        async def send() -> None:
            sent = None
            while True:
                if club.version != sent:
                    sent = club.version
                    await send_one()
                await club.changed()
                await asyncio.sleep(PUSH_EVERY)

        async def receive() -> None:
            while (await websocket.receive())["type"] != "websocket.disconnect":
                pass  # watchers send nothing that counts

        tasks = [asyncio.create_task(send()), asyncio.create_task(receive())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            places.leave(address, owner=False)
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError, OSError):
                    await task

    async def club_updates(websocket: WebSocket):
        seen = {"version": 0}

        async def send_one() -> None:  # what changed since this watcher's last update, encoded once for all
            version = club.version
            await websocket.send_text(club.update_since(seen["version"]))
            seen["version"] = version
        await watch(websocket, send_one)

    async def board_updates(websocket: WebSocket):
        name = websocket.path_params["name"]
        if not NAME.match(name):
            await websocket.close(1008, "no such board")
            return
        last = {"seq": None}

        async def send_one() -> None:
            snapshot = club.board_snapshot(name)
            if snapshot is not None and snapshot["seq"] != last["seq"]:
                last["seq"] = snapshot["seq"]
                await websocket.send_text(_json(snapshot).decode("utf-8"))
        await watch(websocket, send_one)

    async def spectate(request: Request):
        return FileResponse(HERE / "spectate.html", headers={"Cache-Control": "no-cache"})

    async def spectate_config(request: Request):
        return JSONResponse({"broker": spectators, "prefix": club.prefix, "boards": sorted(club.boards)})

    async def tournament(request: Request):
        return Response(club.tournament_json(), media_type="application/json")

    async def organiser(request: Request):
        if not access.may_change(request):
            return _error(_("only the organiser (the club's token) may do this"), 403)
        try:
            body = await read_json(request, limit=BODY_LIMIT)
            done = organise(club, request.path_params["action"][:40], body)
        except ActionError as error:  # too large, not JSON, not an object
            return _error(said(error), error.status)
        except TournamentError as error:
            return _error(said(error), error.status)
        except OSError as error:  # the tournament's journal could not be written: nothing was done
            return _error(_("the tournament's journal cannot be written ({problem}): nothing was done").format(
                problem=said(error)[:120]), 503)
        return Response(_json(done), media_type="application/json")

    async def export(request: Request):
        chosen = EXPORTS.get(request.path_params["file"])
        if chosen is None or club.tournament is None or club.tournament.settings is None:
            return _error(_("no such export"), 404)
        maker, kind = chosen
        return Response(maker(club.tournament), media_type=f"{kind}; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{request.path_params["file"]}"'})

    async def club_words(request: Request):  # the board page's i18n.js, for the club's own page
        return FileResponse(BOARD_PAGE / "i18n.js", media_type="text/javascript")

    routes = [
        Route("/", page),
        Route("/api/boards", boards),
        Route("/api/boards/{name}", board),
        Route("/api/standings", standings),
        Route("/api/club", status),
        Route("/api/tournament", tournament),
        Route("/api/tournament/export/{file}", export),
        Route("/api/tournament/{action}", organiser, methods=["POST"]),
        *language_routes(lambda: None),  # the club's page in its visitors' languages
        Route("/club/i18n.js", club_words),
        Route("/spectate", spectate),
        Route("/spectate/config", spectate_config),
        WebSocketRoute("/ws", club_updates),
        Route("/board/{name}", to_board_page),
        Route("/board/{name}/", board_page),
        Route("/board/{name}/api/auth", board_auth),
        Route("/board/{name}/api/state", board_state),
        Route("/board/{name}/api/catalog", board_catalog),
        Route("/board/{name}/api/rules/{game}", board_rules),
        *(Route(f"/board/{{name}}{route.path}", route.endpoint) for route in language_routes(lambda: None)),
        Route("/board/{name}/api/games", board_games),
        Route("/board/{name}/api/games/{game:path}", no_game),
        WebSocketRoute("/board/{name}/ws", board_updates),
        Mount("/board/{name}/static", StaticFiles(directory=BOARD_PAGE), name="board-static"),
        Mount("/club", StaticFiles(directory=HERE), name="club"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(Speaking)])
