"""The web view of a play session: a Starlette app, served by uvicorn.

    GET  /                       the page (static HTML, JS and CSS under static/; no build step)
    GET  /api/state              the session's snapshot (JSON)
    GET  /api/auth               {"control": may this client change the game?, "token_required": ...}
    WS   /ws                     the snapshot, pushed on every change (watching needs no token)
    POST /api/click  {"cell"}    simulated board: lift the piece on the cell, or put the one in hand
    POST /api/select {"index"}   simulated board: the piece in hand to put down next
    POST /api/aside  {"index"?}  simulated board: a piece from the hand into the box
    POST /api/take   {"index"}   simulated board: a piece from the box into the hand
    POST /api/press  {"button"}  the die or the ok button
    POST /api/resign {"player"}
    POST /api/draw               a draw agreed
    POST /api/new    {"game"?, "empty"?, "settings"?, "setup"?, "clock"?}   a new game
    GET  /api/rules/GAME         the rules page of a game: rules, example positions, the lights
    GET  /api/games              the journaled games, newest first
    GET  /api/games/NAME         one of them, with the position after every move (replay)
    GET  /api/games/NAME/record  its record as a text file (download)

Changing anything takes the token when one is set (the view is served beyond localhost):
the X-Reedboard-Token header, or ?token= in the URL. Without a token the app only takes
changes addressed to localhost (a page on another site cannot use a name that resolves to
127.0.0.1 to reach it). Changes are JSON POSTs (Content-Type: application/json), which a
page on another site cannot send without the browser asking first. A bad request gets a
4xx answer and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import math
import secrets
from collections.abc import Callable
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from controller.clock import ClockSettings
from controller.journal import JournalError, export_lines
from controller.play import ActionError, PlaySession, journal_path, past_game, past_games
from controller.reconcile import Settings

from .rules import rules_page

STATIC = Path(__file__).resolve().parent / "static"
TOKEN_HEADER = "x-reedboard-token"
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "[::1]"}
SETTING_KEYS = ("debounce", "settle", "grace", "takebacks")
SETUP_MODES = ("auto", "shuffle", "identify")
CLOCK_LIMIT = 600  # minutes of a game clock, and seconds of its increment, at most


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _host_name(request: Request) -> str:
    host = request.headers.get("host", "")
    if host.startswith("["):
        return host.split("]")[0] + "]"
    return host.rsplit(":", 1)[0] if ":" in host else host


def create_app(session: PlaySession, token: str | None = None, games_dir: str | Path | None = None) -> Starlette:
    """The web view of `session`. `token`: required for every change (None: localhost only)."""
    games = Path(games_dir) if games_dir is not None else session.games_dir

    def may_change(request: Request) -> bool:
        if token is None:
            return _host_name(request).lower() in LOCAL_HOSTS
        given = request.headers.get(TOKEN_HEADER) or request.query_params.get("token") or ""
        return secrets.compare_digest(given.encode("utf-8"), token.encode("utf-8"))

    async def json_body(request: Request) -> dict:
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            raise ActionError("send JSON (Content-Type: application/json)", 415)
        raw = await request.body()
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise ActionError("the body is not JSON", 400) from None
        if not isinstance(data, dict):
            raise ActionError("the body must be a JSON object", 400)
        return data

    def action(handler: Callable[[dict], object]) -> Callable:
        async def endpoint(request: Request):
            if not may_change(request):
                return _error("watching only: changing the game needs the token", 403)
            try:
                data = await json_body(request)
                result = handler(data)
                if inspect.isawaitable(result):
                    result = await result
            except ActionError as error:
                return _error(str(error), error.status)
            return JSONResponse(result if result is not None else session.snapshot())
        return endpoint

    def press(data: dict) -> dict:
        session.press(data.get("button"))
        return session.snapshot()

    def new_game(data: dict):
        game, empty, changes = data.get("game"), data.get("empty"), data.get("settings")
        if empty is not None and not isinstance(empty, bool):
            raise ActionError("empty is true or false", 400)
        settings = None
        if changes is not None:
            if not isinstance(changes, dict) or set(changes) - set(SETTING_KEYS):
                raise ActionError(f"settings are an object with {', '.join(SETTING_KEYS)}", 400)
            if "takebacks" in changes and not isinstance(changes["takebacks"], bool):
                raise ActionError("takebacks is true or false", 400)
            try:
                settings = Settings(**{**_settings_dict(session.settings), **changes})
            except (TypeError, ValueError) as error:
                raise ActionError(str(error), 400) from None
        setup = data.get("setup")
        if setup is not None and setup not in SETUP_MODES:
            raise ActionError(f"setup is one of {', '.join(SETUP_MODES)}", 400)
        keep_clock = {} if "clock" not in data else {"clock": _clock_settings(data["clock"])}
        return session.new_game(game, empty=empty, settings=settings, setup=setup, **keep_clock)

    async def page(request: Request):
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def state(request: Request):
        return JSONResponse(session.snapshot())

    async def auth(request: Request):
        return JSONResponse({"control": may_change(request), "token_required": token is not None})

    async def game_list(request: Request):
        return JSONResponse(past_games(games))

    async def game_detail(request: Request):
        try:
            return JSONResponse(past_game(games, request.path_params["name"]))
        except ActionError as error:
            return _error(str(error), error.status)

    async def rules(request: Request):
        game = request.path_params["game"]
        try:
            return JSONResponse(rules_page(game))
        except KeyError:
            return _error(f"no game {game!r}: bigballs or offboard", 404)

    async def game_record(request: Request):
        try:
            path = journal_path(games, request.path_params["name"])
            text = "\n".join(export_lines(path)) + "\n"
        except ActionError as error:
            return _error(str(error), error.status)
        except JournalError as error:
            return _error(str(error), 422)
        filename = path.name.removesuffix(".jsonl") + ".txt"
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    async def updates(websocket: WebSocket):
        await websocket.accept()

        async def send() -> None:
            async for snapshot in session.updates():
                await websocket.send_json(snapshot)

        async def receive() -> None:
            while True:  # watchers send nothing that counts; this notices them leaving
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return

        tasks = [asyncio.create_task(send()), asyncio.create_task(receive())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError, OSError):
                    await task

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        await session.start()
        try:
            yield
        finally:
            await session.stop()

    routes = [
        Route("/", page),
        Route("/api/state", state),
        Route("/api/auth", auth),
        Route("/api/click", action(lambda d: session.click(d.get("cell"))), methods=["POST"]),
        Route("/api/select", action(lambda d: session.select(d.get("index"))), methods=["POST"]),
        Route("/api/aside", action(lambda d: session.aside(d.get("index"))), methods=["POST"]),
        Route("/api/take", action(lambda d: session.take(d.get("index"))), methods=["POST"]),
        Route("/api/press", action(press), methods=["POST"]),
        Route("/api/resign", action(lambda d: session.resign(d.get("player"))), methods=["POST"]),
        Route("/api/draw", action(lambda d: session.draw()), methods=["POST"]),
        Route("/api/new", action(new_game), methods=["POST"]),
        Route("/api/games", game_list),
        Route("/api/games/{name}", game_detail),
        Route("/api/games/{name}/record", game_record),
        Route("/api/rules/{game}", rules),
        WebSocketRoute("/ws", updates),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _clock_settings(clock: object) -> ClockSettings | None:
    """POST /api/new's clock: null (no clock) or {"minutes": 0 < m <= 600, "increment": 0 <= s <= 600}."""
    if clock is None:
        return None
    if not isinstance(clock, dict) or set(clock) != {"minutes", "increment"}:
        raise ActionError('clock is null or {"minutes": ..., "increment": ...}', 400)
    minutes, increment = clock["minutes"], clock["increment"]
    if not _number(minutes) or not 0 < minutes <= CLOCK_LIMIT:
        raise ActionError(f"the clock's minutes are a number above 0 and at most {CLOCK_LIMIT}", 400)
    if not _number(increment) or not 0 <= increment <= CLOCK_LIMIT:
        raise ActionError(f"the clock's increment is a number of seconds from 0 to {CLOCK_LIMIT}", 400)
    return ClockSettings(minutes, increment)


def _settings_dict(settings: Settings) -> dict:
    return {key: getattr(settings, key) for key in SETTING_KEYS}


def make_server(session: PlaySession, host: str = "127.0.0.1", port: int = 8000, token: str | None = None, *,
                games_dir: str | Path | None = None, log_level: str = "warning") -> uvicorn.Server:
    """A uvicorn server for the session's web view (its lifespan starts and stops the session)."""
    config = uvicorn.Config(create_app(session, token, games_dir), host=host, port=port,
                            log_level=log_level, lifespan="on")
    return uvicorn.Server(config)


async def serve(session: PlaySession, host: str = "127.0.0.1", port: int = 8000, token: str | None = None, *,
                games_dir: str | Path | None = None, log_level: str = "warning") -> None:
    """Serve the web view until interrupted; the session runs in the same loop."""
    await make_server(session, host, port, token, games_dir=games_dir, log_level=log_level).serve()
