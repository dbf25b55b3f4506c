"""The web view of a play session: a Starlette app, served by uvicorn.

    GET  /                       the page (static HTML, JS and CSS under static/; no build step)
    GET  /api/state              the session's snapshot (JSON), its words in every language
    GET  /api/auth               {"control": may this client change the game?, "token_required": ...}
    WS   /ws?lang=LANG           the snapshot, pushed on every change, its words in LANG; the parts that
                                 stay as they are for a game only when they change (page_messages.py);
                                 the page says {"lang": LANG} when it changes language (watching needs
                                 no token)
    POST /api/click  {"cell"}    simulated board: lift the piece on the cell, or put the one in hand
    POST /api/select {"index"}   simulated board: the piece in hand to put down next
    POST /api/aside  {"index"?}  simulated board: a piece from the hand into the box
    POST /api/take   {"index"}   simulated board: a piece from the box into the hand
    POST /api/press  {"button"}  the die or the ok button
    POST /api/resign {"player"}
    POST /api/draw               a draw agreed
    POST /api/new    {"game"?, "empty"?, "settings"?, "setup"?, "clock"?, "options"?, "computer"?, "players"?}
                                 a new game; computer: null (people on both sides) or {"level": 1 to the game's strongest,
                                 "plays": COLOUR}; players: {COLOUR: NAME}
    POST /api/hint               light the best move for the player to move (journaled)
    POST /api/archive/rename-player {"old", "new"}   a player renamed in every game of the archive
    POST /api/archive/delete {"id"}                   a past game deleted (its journal and trace)
    GET  /api/join               the addresses a phone opens the page by, and a QR code of one (SVG)
    GET  /api/catalog            the registry's games: name, title, die, set-up modes, start options
    GET  /api/rules/GAME         the rules page of a game: rules, example positions, the lights
    GET  /api/games              the archive's games, newest first: ?game= &player= &since=DAY &until=DAY
                                 &result=win|draw|unfinished &limit= &offset= (the number that match in
                                 the X-Total-Count header); unfiltered, the damaged journals too
    GET  /api/games/NAME         one of them, with the position after every move (replay)
    GET  /api/games/NAME/record  its moves as a text file (download); ?format=record: its game record
                                 (docs/records.md)
    GET  /api/games/NAME/review  the computer's review of it (archive_api.py): a kept one is anyone's, one
                                 to work out the owner's (a spectator's address has a few)
    GET  /api/stats              per player and game: games, wins, draws, losses; per game: the first
                                 player's results (?player=NAME: that player's)

Changing anything takes the token when one is set (the view is served beyond localhost):
the X-Reedboard-Token header, or ?token= in the URL. Without a token the app only takes
changes addressed to localhost (a page on another site cannot use a name that resolves to
127.0.0.1 to reach it). Changes are JSON POSTs (Content-Type: application/json), which a
page on another site cannot send without the browser asking first. A bad request gets a
4xx answer and changes nothing. A change is answered with the snapshot, its words in the
language of the request.

Served to a club's Wi-Fi, anyone there can reach the page, so everything a visitor can make
the board do is bounded (limits.Limits): the WebSockets of watchers (64 by default, and a few
more places for pages that carry the token), the connections from one address and in all,
the time a request may take to arrive and an answer may lie unread (connections.py), the
size of a body (4 KiB, checked key by key: bodies.py) and of a watcher's message (4 KiB),
the names the board answers to and the pages that may open its WebSocket (hosts.py), and
the log (one line per kind of refusal a minute: quiet_log.py). What a spectator asks for
that takes a while, the past games and the rules pages, is worked out beside the referee,
never in its loop (side_work.py), and each snapshot is turned into JSON once for everyone
(once per language).
The past games come from the archive (controller.archive.answers), which answers in that worker thread
(its SQLite connection belongs to the thread) and brought up to date with the journals at
each question; reading the archive needs no token.

Each area has its own module, assembled here: page.py (the page and its files), session_api.py
(the session's snapshot and changes; new_game.py checks a new game), archive_api.py (the past
games), live_socket.py (the WebSocket); access.py says who may change the game, changes.py
turns a change into a route, replies.py how everything answers.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware

from ..session.play_session import PlaySession

from .access import Access
from .archive_api import ArchiveRoutes
from .calm_server import CalmServer
from .changes import Changes
from .connections import ConnectionTable, GuardedHTTP, GuardedWebSocket
from .hosts import HostCheck, names_for
from .languages import Speaking, language_routes
from .limits import Limits
from .live_socket import live_routes
from .page import page_routes
from .page_messages import PageMessages
from .quiet_log import QuietLog, quieten
from .replies import SnapshotJSON
from .session_api import session_routes
from .side_work import SideWork

QUIET_LOGGERS = ("uvicorn.error", "uvicorn.access", "asyncio")


def create_app(session: PlaySession, token: str | None = None, games_dir: str | Path | None = None, *,
               limits: Limits | None = None, hosts: frozenset[str] | None = None,
               log: QuietLog | None = None) -> Starlette:
    """The web view of `session`. `token`: required for every change (None: localhost only).
    `hosts`: the names the board answers to (default: localhost's); `limits`: see Limits."""
    games = Path(games_dir) if games_dir is not None else session.games_dir
    limits = limits or Limits()
    log = log or QuietLog(logging.getLogger("uvicorn.error"), limits.log_interval)
    names = hosts if hosts is not None else names_for("127.0.0.1")
    access = Access(token)
    changes = Changes(access, limits.body_size, session)
    work = SideWork()  # what spectators ask for that takes a while, beside the referee's loop
    snapshot_json = SnapshotJSON()
    past_games = ArchiveRoutes(session, games, work, access, limits)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        await session.start()
        try:
            yield
        finally:
            try:
                await session.stop()
            finally:
                await past_games.close()
                work.close()

    routes = [
        *page_routes(access),
        *session_routes(session, access, changes, work, snapshot_json, names),
        *past_games.routes(changes),
        *live_routes(session, access, limits, log, PageMessages(session)),
        *language_routes(lambda: session.page_language),
    ]
    return Starlette(routes=routes, lifespan=lifespan,
                     middleware=[Middleware(HostCheck, names=names, log=log), Middleware(Speaking)])


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
