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
    POST /api/new    {"game"?, "empty"?, "settings"?, "setup"?, "clock"?, "options"?, "computer"?, "players"?}
                                 a new game; computer: null (people on both sides) or {"level": 1-8,
                                 "plays": COLOUR}; players: {COLOUR: NAME}
    POST /api/hint               light the best move for the player to move (journaled)
    GET  /api/join               the addresses a phone opens the page by, and a QR code of one (SVG)
    GET  /api/catalog            the registry's games: name, title, die, set-up modes, start options
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

Served to a club's Wi-Fi, anyone there can reach the page, so everything a visitor can make
the board do is bounded (limits.Limits): the WebSockets of watchers (64 by default, and a few
more places for pages that carry the token), the connections from one address and in all,
the time a request may take to arrive and an answer may lie unread (connections.py), the
size of a body (4 KiB, checked key by key: bodies.py) and of a watcher's message (4 KiB),
the names the board answers to and the pages that may open its WebSocket (hosts.py), and
the log (one line per kind of refusal a minute: quiet_log.py). What a spectator asks for
that takes a while, the past games and the rules pages, is worked out beside the referee,
never in its loop (side_work.py), and each snapshot is turned into JSON once for everyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from reedboard.controller.clock import ClockSettings
from reedboard.controller.computer import Computer
from reedboard.controller.games import GAMES, catalog, names_in_words
from reedboard.controller.join import join_info, listen_host
from reedboard.controller.journal import NAME_LIMIT, JournalError, export_lines
from reedboard.controller.past_games import journal_path, past_game, past_games
from reedboard.controller.play import ActionError, PlaySession
from reedboard.controller.reconcile import Settings

from .bodies import KINDS, SCHEMAS, check, read_json
from .calm_server import CalmServer
from .connections import ConnectionTable, GuardedHTTP, GuardedWebSocket
from .hosts import HostCheck, names_for
from .limits import Limits, Watchers
from .quiet_log import QuietLog, quieten
from .rules import rules_page
from .side_work import Busy, SideWork

STATIC = Path(__file__).resolve().parent / "static"
TOKEN_HEADER = "x-reedboard-token"
TOKEN_COOKIE = "reedboard_token"  # only ever a place among the owner's WebSockets, never a change
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "[::1]"}
SETTING_KEYS = ("debounce", "settle", "grace", "takebacks")
CLOCK_LIMIT = 600  # minutes of a game clock, and seconds of its increment, at most
NAME_LENGTH = 200  # characters of a journal's name, at most
REPLAYS_ENCODED = 8  # past games kept as JSON, ready to send
CLOSE = {"Connection": "close"}  # the rest of a refused body is not read: the connection goes
QUIET_LOGGERS = ("uvicorn.error", "uvicorn.access", "asyncio")


def _error(message: str, status: int, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def _json(data: object) -> bytes:
    """JSON as the page gets it (Starlette's JSONResponse writes the same)."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


class _SnapshotJSON:
    """Each published snapshot turned into JSON once, for every watcher and every GET."""

    def __init__(self) -> None:
        self._snapshot: dict | None = None
        self._text = ""

    def __call__(self, snapshot: dict) -> str:
        if snapshot is not self._snapshot:
            self._snapshot, self._text = snapshot, _json(snapshot).decode("utf-8")
        return self._text


@functools.cache
def _rules_json(game: str) -> bytes:
    return _json(rules_page(game))


def _host_name(request: Request) -> str:
    host = request.headers.get("host", "")
    if host.startswith("["):
        return host.split("]")[0] + "]"
    return host.rsplit(":", 1)[0] if ":" in host else host


def create_app(session: PlaySession, token: str | None = None, games_dir: str | Path | None = None, *,
               limits: Limits | None = None, hosts: frozenset[str] | None = None,
               log: QuietLog | None = None) -> Starlette:
    """The web view of `session`. `token`: required for every change (None: localhost only).
    `hosts`: the names the board answers to (default: localhost's); `limits`: see Limits."""
    games = Path(games_dir) if games_dir is not None else session.games_dir
    limits = limits or Limits()
    log = log or QuietLog(logging.getLogger("uvicorn.error"), limits.log_interval)
    watchers = Watchers(limits)
    work = SideWork()
    snapshot_json = _SnapshotJSON()
    replays_json: OrderedDict[str, tuple[dict, bytes]] = OrderedDict()  # only the worker thread uses it

    def given_token(connection: Request | WebSocket) -> bool:
        given = connection.headers.get(TOKEN_HEADER) or connection.query_params.get("token") or ""
        return token is not None and secrets.compare_digest(given.encode("utf-8"), token.encode("utf-8"))

    def owners_socket(websocket: WebSocket) -> bool:
        """A WebSocket of the owner's page: the token given, or the cookie the page got with it
        (a browser cannot add a header to a WebSocket, but it sends the page's cookie)."""
        cookie = websocket.cookies.get(TOKEN_COOKIE, "")
        return given_token(websocket) or (
            token is not None and secrets.compare_digest(cookie.encode("utf-8"), token.encode("utf-8")))

    def may_change(request: Request) -> bool:
        if token is None:
            return _host_name(request).lower() in LOCAL_HOSTS
        return given_token(request)

    def action(name: str, handler: Callable[[dict], object]) -> Callable:
        async def endpoint(request: Request):
            if not may_change(request):
                return _error("watching only: changing the game needs the token", 403, CLOSE)
            try:
                data = check(await read_json(request, limits.body_size), SCHEMAS[name])
            except ActionError as error:
                return _error(str(error), error.status, CLOSE)
            try:
                result = handler(data)
                if inspect.isawaitable(result):
                    result = await result
            except ActionError as error:
                return _error(str(error), error.status)
            return JSONResponse(result if result is not None else session.snapshot())
        return endpoint

    def press(data: dict) -> dict:
        session.press(data["button"])
        return session.snapshot()

    def new_game(data: dict):
        game, empty, changes = data.get("game"), data.get("empty"), data.get("settings")
        settings = None
        if changes is not None:
            check(changes, SCHEMAS["settings"], "settings")
            try:  # the settings' own rules (a settle time of 0 would stop the referee)
                settings = Settings(**{**_settings_dict(session.settings), **changes})
            except (TypeError, ValueError, OverflowError) as error:
                raise ActionError(f"settings: {error}", 400) from None
        setup = data.get("setup")
        modes = _setup_modes()
        if setup is not None and setup not in modes:
            raise ActionError(f"setup is one of {', '.join(modes)}", 400)
        keep_clock = {} if "clock" not in data else {"clock": _clock_settings(data["clock"])}
        if "computer" in data:
            keep_clock["computer"] = _computer(data["computer"])
        if data.get("players") is not None:
            keep_clock["players"] = _players(data["players"])
        options = data.get("options")
        if options:  # the game's start options: the session starts from that game's start
            game = _game_from_options(game or session.kind, options)
        return session.new_game(game, empty=empty, settings=settings, setup=setup, **keep_clock)

    async def page(request: Request):
        response = FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})
        if given_token(request):  # the owner's page: its WebSocket gets a place of its own
            response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict")
        return response

    async def state(request: Request):
        return Response(snapshot_json(session.snapshot()), media_type="application/json")

    async def auth(request: Request):
        return JSONResponse({"control": may_change(request), "token_required": token is not None})

    # --- asked for by spectators, worked out beside the referee -------------------------------------
    async def beside(key: tuple, work_out: Callable, *args) -> Response:
        try:
            return Response(await work.run(key, work_out, *args), media_type="application/json")
        except Busy:
            return _error("the board is busy: try again in a moment", 503, {"Retry-After": "2"})
        except ActionError as error:
            return _error(str(error), error.status)

    def replay_json(name: str) -> bytes:
        replay = past_game(games, name)  # the same dict for as long as the journal is unchanged
        kept = replays_json.get(name)
        if kept is None or kept[0] is not replay:
            kept = replays_json[name] = (replay, _json(replay))
        replays_json.move_to_end(name)
        while len(replays_json) > REPLAYS_ENCODED:
            replays_json.popitem(last=False)
        return kept[1]

    def record_text(name: str) -> tuple[str, str]:
        path = journal_path(games, name)
        try:
            text = "\n".join(export_lines(path)) + "\n"
        except JournalError as error:
            raise ActionError(str(error), 422) from None
        return path.name.removesuffix(".jsonl") + ".txt", text

    def rules_json(game: str) -> bytes:
        try:
            return _rules_json(game)
        except KeyError:
            raise ActionError(f"no game {game[:40]!r}: {names_in_words()}", 404) from None

    async def join(request: Request):
        # the port the page was reached on is the one listened on; names says where (hosts.py)
        port = (request.scope.get("server") or ("", 0))[1] or 80
        return await beside(("join", port), lambda: _json(join_info(listen_host(names), port)))

    async def games_catalog(request: Request):
        return Response(_json(catalog()), media_type="application/json")

    async def game_list(request: Request):
        return await beside(("list",), lambda: _json(past_games(games)))

    async def game_detail(request: Request):
        name = request.path_params["name"]
        if len(name) > NAME_LENGTH:
            return _error("no such game", 404)
        return await beside(("game", name), replay_json, name)

    async def rules(request: Request):
        game = request.path_params["game"]
        if len(game) > NAME_LENGTH:
            return _error(f"no such game: {names_in_words()}", 404)
        return await beside(("rules", game), rules_json, game)

    async def game_record(request: Request):
        name = request.path_params["name"]
        if len(name) > NAME_LENGTH:
            return _error("no such game", 404)
        try:
            filename, text = await work.run(("record", name), record_text, name)
        except Busy:
            return _error("the board is busy: try again in a moment", 503, {"Retry-After": "2"})
        except ActionError as error:
            return _error(str(error), error.status)
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    # --- the live snapshot ----------------------------------------------------------------------------
    async def updates(websocket: WebSocket):
        address = websocket.client.host if websocket.client else "unknown"
        owner = owners_socket(websocket)
        refused = watchers.admit(address, owner)
        if refused:
            log.note("watchers", f"refused a watcher from {address}: {refused}")
            await websocket.send_denial_response(_error(f"{refused}: try again later", 503, {"Retry-After": "30"}))
            return
        try:
            await _watch(websocket)
        finally:
            watchers.leave(address, owner)

    async def _watch(websocket: WebSocket) -> None:
        await websocket.accept()

        async def send() -> None:
            async for snapshot in session.updates():
                await websocket.send_text(snapshot_json(snapshot))

        async def receive() -> None:
            sent = 0  # watchers send nothing that counts; this notices them leaving
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                sent += 1
                if sent > limits.messages:
                    log.note("chatty", f"closed a watcher from {address_of(websocket)}: "
                             f"it sent more than {limits.messages} messages")
                    await websocket.close(1008, "watchers send nothing")
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
            try:
                await session.stop()
            finally:
                work.close()

    routes = [
        Route("/", page),
        Route("/api/state", state),
        Route("/api/auth", auth),
        Route("/api/click", action("click", lambda d: session.click(d["cell"])), methods=["POST"]),
        Route("/api/select", action("select", lambda d: session.select(d["index"])), methods=["POST"]),
        Route("/api/aside", action("aside", lambda d: session.aside(d.get("index"))), methods=["POST"]),
        Route("/api/take", action("take", lambda d: session.take(d["index"])), methods=["POST"]),
        Route("/api/press", action("press", press), methods=["POST"]),
        Route("/api/resign", action("resign", lambda d: session.resign(d["player"])), methods=["POST"]),
        Route("/api/draw", action("draw", lambda d: session.draw()), methods=["POST"]),
        Route("/api/hint", action("hint", lambda d: session.hint()), methods=["POST"]),
        Route("/api/new", action("new", new_game), methods=["POST"]),
        Route("/api/join", join),
        Route("/api/catalog", games_catalog),
        Route("/api/games", game_list),
        Route("/api/games/{name}", game_detail),
        Route("/api/games/{name}/record", game_record),
        Route("/api/rules/{game}", rules),
        WebSocketRoute("/ws", updates),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    names = hosts if hosts is not None else names_for("127.0.0.1")
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(HostCheck, names=names, log=log)])


def address_of(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else "unknown"


def _number(value: object) -> bool:
    return KINDS["seconds"][1](value)


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


def _computer(data: object) -> Computer | None:
    """POST /api/new's computer: null, or {"level": 1-8, "plays": a colour of some game}."""
    if data is None:
        return None
    if not isinstance(data, dict) or set(data) != {"level", "plays"}:
        raise ActionError('computer is null or {"level": 1-8, "plays": COLOUR}', 400)
    level, plays = data["level"], data["plays"]
    if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 8:
        raise ActionError("the computer's level is a whole number from 1 to 8", 400)
    colours = {p for cls in GAMES.values() for p in cls.players}
    if plays not in colours:
        raise ActionError(f"the computer plays one of {', '.join(sorted(colours))}", 400)
    return Computer(plays, level)


def _players(data: object) -> dict[str, str]:
    """POST /api/new's players: {COLOUR: NAME}, each name 1 to 40 printable characters."""
    colours = {p for cls in GAMES.values() for p in cls.players}
    if not isinstance(data, dict) or not set(data) <= colours:
        raise ActionError(f"players is an object of colours ({', '.join(sorted(colours))}) and names", 400)
    for colour, name in data.items():
        if not isinstance(name, str) or not 0 < len(name.strip()) <= NAME_LIMIT or not name.isprintable():
            raise ActionError(f"the name of {colour} is 1 to {NAME_LIMIT} printable characters", 400)
    return {colour: name.strip() for colour, name in data.items()}


def _setup_modes() -> list[str]:
    """The set-up modes a new game of some registered game may choose."""
    return sorted({mode for cls in GAMES.values() for mode in cls.setup_modes if mode != "given"})


OPTION_LENGTH = 200  # characters of a start option's value, at most


def _game_from_options(name: object, options: dict):
    """POST /api/new's "options": the game's start options ({flag: text}); the game in its start."""
    if not isinstance(name, str) or name not in GAMES:
        raise ActionError(f"no game {str(name)[:40]!r}: {names_in_words()}", 400)
    cls = GAMES[name]
    own = {option.flag: option for option in cls.options}
    for flag, value in options.items():
        if flag not in own:
            raise ActionError(f"{name} has no start option {flag[:40]!r}"
                              f" ({', '.join(own) if own else 'it takes none'})", 400)
        if not isinstance(value, str) or len(value) > OPTION_LENGTH:
            raise ActionError(f"the start option {flag} is a text of at most {OPTION_LENGTH} characters", 400)
        if own[flag].choices is None:  # a file or a set-up string: only from the command line
            raise ActionError(f"the start option {flag} is given on the command line, not here", 400)
    try:
        return cls.from_options(**options)
    except ValueError as error:
        raise ActionError(str(error), 400) from None


def _settings_dict(settings: Settings) -> dict:
    return {key: getattr(settings, key) for key in SETTING_KEYS}


def make_server(session: PlaySession, host: str = "127.0.0.1", port: int = 8000, token: str | None = None, *,
                games_dir: str | Path | None = None, log_level: str = "warning",
                limits: Limits | None = None) -> uvicorn.Server:
    """A uvicorn server for the session's web view (its lifespan starts and stops the session),
    with every connection bounded as `limits` say."""
    limits = limits or Limits()
    log = QuietLog(logging.getLogger("uvicorn.error"), limits.log_interval)
    app = create_app(session, token, games_dir, limits=limits, hosts=names_for(host), log=log)
    table = ConnectionTable(limits, log)
    config = uvicorn.Config(
        app, host=host, port=port, log_level=log_level, lifespan="on",
        http=functools.partial(GuardedHTTP, table=table), ws=functools.partial(GuardedWebSocket, table=table),
        ws_max_size=limits.frame_size, ws_per_message_deflate=False,  # no inflating a small frame into a big one
        timeout_keep_alive=limits.keep_alive, h11_max_incomplete_event_size=limits.head_size,
        backlog=limits.backlog, proxy_headers=False)  # the board is reached directly: the address is the peer's
    quieten(QUIET_LOGGERS, limits.log_interval)
    return CalmServer(config)


async def serve(session: PlaySession, host: str = "127.0.0.1", port: int = 8000, token: str | None = None, *,
                games_dir: str | Path | None = None, log_level: str = "warning", limits: Limits | None = None) -> None:
    """Serve the web view until interrupted; the session runs in the same loop."""
    await make_server(session, host, port, token, games_dir=games_dir, log_level=log_level, limits=limits).serve()
