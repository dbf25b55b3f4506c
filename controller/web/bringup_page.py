"""The bring-up page: a board at the bench, seen and worked from a phone (`reedboard bringup`).

    GET  /                     the page (static/bringup.html, bringup.js, bringup.css; i18n.js shared)
    GET  /api/bench            the board as drawn (hollows, where, their switches and LEDs) and its state
    GET  /api/hollow/NAME      the one-hollow test's guidance for a hollow (or `any`), in the request's language
    GET  /api/auth             {"control": may this page start things and press the buttons?}
    WS   /ws                   the state, pushed on every change (several changes may make one message)
    POST /api/start {"flow"}   the self-test or the calibration ("selftest", "calibration"); one at a time
    POST /api/stop             the running guide stopped
    POST /api/press {"button"} the board's ok or die button
    POST /api/magnet {"cell"}  the simulated board: a magnet put in the hollow, or taken out
    POST /api/reset            the one-hollow test's counts from zero
    GET  /api/languages, /api/language/LANG   the page's words (languages.py)

The page sits below the workshop: it knows the bench (workshop/bringup.py) only by the
`Bench` protocol here. Who may change anything, the names the board answers to, the size of a
body and the number of connections are the play page's (access.py, hosts.py, bodies.py,
connections.py); a refused or malformed request gets a 4xx with {"error": "..."}.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import logging
from collections.abc import AsyncIterator, Callable
from typing import Protocol

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..language.catalogue import COMMANDS
from ..session.actions import ActionError
from .access import TOKEN_COOKIE, Access
from .bodies import check, read_json
from .calm_server import CalmServer
from .connections import ConnectionTable, GuardedHTTP, GuardedWebSocket
from .hosts import HostCheck, names_for
from .languages import Speaking, language_routes
from .limits import Limits, Watchers
from .live_socket import in_a_place
from .page import STATIC
from .quiet_log import QuietLog, quieten
from .replies import CLOSE, encoded, error, json_answer

_ = COMMANDS.gettext

QUIET_LOGGERS = ("uvicorn.error", "uvicorn.access", "asyncio")

SCHEMAS = {  # action -> key -> (required?, kinds): bodies.check
    "start": {"flow": (True, ("text",))},
    "stop": {},
    "press": {"button": (True, ("text",))},
    "magnet": {"cell": (True, ("text",))},
    "reset": {},
}


class Bench(Protocol):
    """What the page asks of the bench (workshop/bringup.py)."""

    def describe(self) -> dict: ...

    def state(self) -> dict: ...

    def updates(self) -> AsyncIterator[int]: ...

    def guidance(self, name: str) -> dict | None: ...

    def start_flow(self, kind: str) -> None: ...

    async def stop_flow(self) -> None: ...

    def press(self, button: str) -> None: ...

    def magnet(self, cell: str) -> None: ...

    def reset_counts(self) -> None: ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


def bringup_app(bench: Bench, token: str | None = None, *, hosts: frozenset[str] | None = None,
                limits: Limits | None = None, log: QuietLog | None = None) -> Starlette:
    """The bring-up page of `bench`; its lifespan starts and stops the bench. `token`: required
    for every change (None: only a page addressed to localhost may change anything)."""
    limits = limits or Limits()
    log = log or QuietLog(logging.getLogger("uvicorn.error"), limits.log_interval)
    access = Access(token)
    watchers = Watchers(limits)
    described = encoded(bench.describe())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        await bench.start()
        try:
            yield
        finally:
            await bench.stop()

    async def page(request: Request):
        response = FileResponse(STATIC / "bringup.html", headers={"Cache-Control": "no-cache"})
        if access.given_token(request):  # the owner's page: its WebSocket gets a place of its own
            response.set_cookie(TOKEN_COOKIE, access.token, httponly=True, samesite="strict")
        return response

    def state_json() -> str:
        return encoded({"state": bench.state()}).decode("utf-8")

    async def board(request: Request):
        return json_answer(b'{"board":' + described + b',"state":' + encoded(bench.state()) + b"}")

    async def hollow(request: Request):
        name = request.path_params["name"][:40]
        words = bench.guidance(name)
        if words is None:
            return error(_("no hollow {name} on this board").format(name=repr(name)), 404)
        return JSONResponse(words)

    async def auth(request: Request):
        return JSONResponse({"control": access.may_change(request), "token_required": token is not None})

    def change(name: str, handler: Callable[[dict], object]) -> Route:
        async def endpoint(request: Request):
            if not access.may_change(request):
                return error(_("watching only: this needs the token printed with the page's address"), 403, CLOSE)
            try:
                data = check(await read_json(request, limits.body_size), SCHEMAS[name])
            except ActionError as problem:
                return error(str(problem), problem.status, CLOSE)
            try:
                result = handler(data)
                if inspect.isawaitable(result):
                    await result
            except ActionError as problem:
                return error(str(problem), problem.status)
            return json_answer(state_json().encode("utf-8"))
        return Route(f"/api/{name}", endpoint, methods=["POST"])

    async def updates(websocket: WebSocket):
        await in_a_place(websocket, watchers, access, log, "a bring-up page", follow)

    async def follow(websocket: WebSocket) -> None:
        await websocket.accept()

        async def send() -> None:
            async for __ in bench.updates():
                await websocket.send_text(state_json())

        async def receive() -> None:  # the page sends nothing: this notices it leaving
            sent = 0
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                sent += 1
                if sent > limits.messages:
                    await websocket.close(1008, "the bring-up page sends nothing")
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

    routes = [
        Route("/", page),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/bench", board),
        Route("/api/hollow/{name}", hollow),
        Route("/api/auth", auth),
        change("start", lambda data: bench.start_flow(data["flow"])),
        change("stop", lambda data: bench.stop_flow()),
        change("press", lambda data: bench.press(data["button"])),
        change("magnet", lambda data: bench.magnet(data["cell"])),
        change("reset", lambda data: bench.reset_counts()),
        WebSocketRoute("/ws", updates),
        *language_routes(lambda: None),
    ]
    names = hosts if hosts is not None else names_for("127.0.0.1")
    return Starlette(routes=routes, lifespan=lifespan,
                     middleware=[Middleware(HostCheck, names=names, log=log), Middleware(Speaking)])


def bringup_server(bench: Bench, host: str, port: int, token: str | None = None, *,
                   limits: Limits | None = None, log_level: str = "warning") -> uvicorn.Server:
    """A uvicorn server for the bring-up page on host:port, every connection bounded as the play
    page's are (serve it with the socket bound first: `server.serve(sockets=[...])`)."""
    limits = limits or Limits()
    log = QuietLog(logging.getLogger("uvicorn.error"), limits.log_interval)
    app = bringup_app(bench, token, hosts=names_for(host), limits=limits, log=log)
    table = ConnectionTable(limits, log)
    config = uvicorn.Config(
        app, host=host, port=port, log_level=log_level, lifespan="on",
        http=functools.partial(GuardedHTTP, table=table), ws=functools.partial(GuardedWebSocket, table=table),
        ws_max_size=limits.frame_size, ws_per_message_deflate=False,
        timeout_keep_alive=limits.keep_alive, h11_max_incomplete_event_size=limits.head_size,
        backlog=limits.backlog, proxy_headers=False)
    quieten(QUIET_LOGGERS, limits.log_interval)
    return CalmServer(config)
