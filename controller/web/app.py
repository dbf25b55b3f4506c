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
    GET  /api/stats              per player and game: games, wins, draws, losses; per game: the first
                                 player's results (?player=NAME: that player's)

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
The past games come from the archive's index (controller.archive), kept in that worker thread
(its SQLite connection belongs to the thread) and brought up to date with the journals at
each question; reading the archive needs no token.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import json
import logging
import os
import re
import secrets
import sqlite3
from collections import OrderedDict
from collections.abc import Callable
from datetime import date
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from reedboard.controller.archive.index import OUTCOMES, Archive, ArchiveError, Skipped
from reedboard.controller.archive.records import game_record as record_of
from reedboard.controller.archive.records import record_lines as game_record_lines
from reedboard.controller.core.clock import ClockSettings
from reedboard.controller.core.computer import Computer
from reedboard.controller.games import GAMES, catalog, colours, names_in_words
from reedboard.controller.web.join import join_info, listen_host
from reedboard.controller.persist.game_files import SUFFIX
from reedboard.controller.persist.journal_format import NAME_LIMIT, JournalError, is_player_name
from reedboard.controller.persist.journal_replay import rebuild
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.persist.export import export_lines
from reedboard.controller.session.past_games import journal_path, past_game
from reedboard.controller.session.actions import ActionError
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.persist.notation import result_line

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
LIST_PAGE = 100  # games in one answer of /api/games, unless ?limit= says otherwise
LIST_LIMIT = 500  # ... and at most
OFFSET_LIMIT = 1_000_000
ARCHIVE_CLOSE_WAIT = 2.0  # seconds the server's end waits for the archive to be closed
LIST_PARAMETERS = ("game", "player", "since", "until", "result", "limit", "offset")
RECORD_FORMATS = ("moves", "record")
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
    kept: dict = {}  # the worker thread's own: the archive, and what was read of damaged journals

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
        """The answer work_out(*args) gives in the worker thread: JSON bytes, or a Response."""
        try:
            answer = await work.run(key, work_out, *args)
            return answer if isinstance(answer, Response) else Response(answer, media_type="application/json")
        except Busy:
            return _error("the board is busy: try again in a moment", 503, {"Retry-After": "2"})
        except ActionError as error:
            return _error(str(error), error.status)

    def replay_json(name: str) -> bytes:
        replay = past_game(games, name)  # the same dict for as long as the journal is unchanged
        kept = replays_json.get(name)
        if kept is None or kept[0] is not replay:
            kept = replays_json[name] = (replay, _json({**replay, "note": _unfoldered(replay["note"], games)}))
        replays_json.move_to_end(name)
        while len(replays_json) > REPLAYS_ENCODED:
            replays_json.popitem(last=False)
        return kept[1]

    def record_text(name: str, form: str) -> tuple[str, str]:
        path = journal_path(games, name)
        try:
            if form == "record":  # docs/records.md, as `reedboard games export` writes it
                lines, filename = game_record_lines(record_of(read_journal(path))), f"{path.stem}-record.txt"
            else:  # the moves, as `reedboard export` prints them
                lines, filename = export_lines(path), f"{path.stem}.txt"
        except JournalError as error:
            raise ActionError(str(error), 422) from None
        return filename, "\n".join(lines) + "\n"

    # --- the archive: only ever used in the worker thread ---------------------------------------------
    def archive() -> Archive | None:
        """The archive of the games folder, up to date with its journals; None before the first game."""
        found = kept.get("archive")
        if found is None:
            if not games.is_dir():  # no game yet: nothing to index, and no folder made for it
                return None
            found = kept["archive"] = Archive(games)
        found.refresh()
        return found

    @contextlib.contextmanager
    def archive_asked():
        """The archive's troubles as answers: busy (another program, `reedboard games`, holds the
        index) or an index damaged meanwhile (opened afresh at the next question: it is rebuilt)."""
        try:
            yield
        except sqlite3.OperationalError:
            raise ActionError("the archive is busy: try again in a moment", 503) from None
        except sqlite3.DatabaseError:
            with contextlib.suppress(sqlite3.Error):
                close_archive()
            raise ActionError("the archive's index is being rebuilt: try again in a moment", 503) from None
        except ArchiveError as error:
            raise ActionError(_unfoldered(str(error), games).replace(str(games), "the games folder"), 400) from None

    def games_page(filters: dict, limit: int, offset: int, live: str | None) -> Response:
        """A page of the games that match. Unfiltered, the list also holds the damaged journals
        (what can be read of them, and why the rest cannot) and the game at the board before its
        first move, each in its place."""
        with archive_asked():
            found = archive()
            if found is None:
                return Response(_json([]), media_type="application/json", headers={"X-Total-Count": "0"})
            total = found.count(**filters)
            if filters:
                listed = [_listed(row, games) for row in found.games(**filters, limit=limit, offset=offset)]
            else:
                skipped = found.skipped()
                extra = [journal_entry(s.path, s) for s in skipped]
                if live is not None and not _indexed(found, live) and live not in {s.path.name for s in skipped}:
                    extra.append(journal_entry(games / live, None))
                extra = [entry for entry in extra if entry is not None]
                listed = sorted([_listed(row, games) for row in found.games(limit=offset + limit)] + extra,
                                key=lambda entry: entry["id"], reverse=True)[offset:offset + limit]
                total += len(extra)
        return Response(_json(listed), media_type="application/json", headers={"X-Total-Count": str(total)})

    def journal_entry(path: Path, skipped: Skipped | None) -> dict | None:
        """A journal the index does not list, read once per version of the file; None when gone."""
        try:
            stat = path.stat()
        except OSError:
            return None
        version = (stat.st_size, stat.st_mtime_ns, skipped)
        read = kept.setdefault("read", {})
        entry = read.get(path.name)
        if entry is None or entry[0] != version:
            entry = read[path.name] = (version, _unindexed(path, skipped))
        if len(read) > 4 * LIST_LIMIT:  # journals repaired or gone: forget them
            read.clear()
        return dict(entry[1])

    def stats_json(player: str | None) -> bytes:
        with archive_asked():
            found = archive()
            if found is None:
                return _json({"player": player, "players": [], "games": [], "months": []})
            stats, months = found.stats(player), _months(found.games(player=player), player)
        return _json({"player": player, **stats, "months": months})

    # --- changes to the archive (they take the token, as changing a game does) -----------------------
    async def in_archive(key: tuple, change: Callable) -> dict:
        try:
            return await work.run(key, change)
        except Busy:
            raise ActionError("the board is busy: try again in a moment", 503) from None

    def archive_or_none() -> Archive:
        found = archive()
        if found is None:
            raise ActionError("there are no games yet", 404)
        return found

    async def rename_player(data: dict) -> dict:
        old, new = data["old"], data["new"]

        def change() -> dict:
            with archive_asked():
                renamed, failed = archive_or_none().rename_player(old, new)
            return {"renamed": renamed, "failed": [_unfoldered(problem, games) for problem in failed]}
        return await in_archive(("rename", old, new), change)

    async def delete_game(data: dict) -> dict:
        key = data["id"]
        live = getattr(getattr(session.referee, "journal", None), "path", None)
        if live is not None and Path(live).name.removesuffix(".jsonl") == key.removesuffix(".jsonl"):
            raise ActionError("this is the game on the board: it cannot be deleted while it is played", 409)

        def change() -> dict:
            with archive_asked():
                game = archive_or_none().delete(key)
            return {"deleted": game["id"]}
        return await in_archive(("delete", key), change)

    def close_archive() -> None:
        found = kept.pop("archive", None)
        if found is not None:
            found.close()

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
        try:
            filters = _list_filters(request)
        except ActionError as error:
            return _error(str(error), error.status)
        limit, offset = filters.pop("limit", LIST_PAGE), filters.pop("offset", 0)
        live = session.snapshot().get("journal")  # the game at the board, listed from its start
        return await beside(("list", tuple(sorted(filters.items())), limit, offset, live),
                            games_page, filters, limit, offset, live)

    async def statistics(request: Request):
        try:
            player = _parameters(request, ("player",)).get("player")
            if player is not None:
                player = _player_name(player)
        except ActionError as error:
            return _error(str(error), error.status)
        return await beside(("stats", player), stats_json, player)

    async def game_detail(request: Request):
        name = _journal_name(request.path_params["name"])
        if len(name) > NAME_LENGTH:
            return _error("no such game", 404)
        return await beside(("game", name), replay_json, name)

    async def rules(request: Request):
        game = request.path_params["game"]
        if len(game) > NAME_LENGTH:
            return _error(f"no such game: {names_in_words()}", 404)
        return await beside(("rules", game), rules_json, game)

    async def game_record(request: Request):
        name = _journal_name(request.path_params["name"])
        if len(name) > NAME_LENGTH:
            return _error("no such game", 404)
        try:
            form = _parameters(request, ("format",)).get("format", "moves")
            if form not in RECORD_FORMATS:
                raise ActionError(f"format is {' or '.join(RECORD_FORMATS)}, not {form[:40]!r}", 400)
            filename, text = await work.run(("record", name, form), record_text, name, form)
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
                with contextlib.suppress(Exception):  # a refresh still running is not waited for long
                    await asyncio.wait_for(work.run(("close",), close_archive), ARCHIVE_CLOSE_WAIT)
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
        Route("/api/archive/rename-player", action("rename-player", rename_player), methods=["POST"]),
        Route("/api/archive/delete", action("delete-game", delete_game), methods=["POST"]),
        Route("/api/new", action("new", new_game), methods=["POST"]),
        Route("/api/join", join),
        Route("/api/catalog", games_catalog),
        Route("/api/games", game_list),
        Route("/api/games/{name}", game_detail),
        Route("/api/games/{name}/record", game_record),
        Route("/api/stats", statistics),
        Route("/api/rules/{game}", rules),
        WebSocketRoute("/ws", updates),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    names = hosts if hosts is not None else names_for("127.0.0.1")
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(HostCheck, names=names, log=log)])


# --- the archive's questions -------------------------------------------------------------------------
def _parameters(request: Request, allowed: tuple[str, ...]) -> dict[str, str]:
    """The query's parameters, each at most once and each one of `allowed` (or the token)."""
    found: dict[str, str] = {}
    for key, value in request.query_params.multi_items():
        if key == "token":
            continue
        if key not in allowed:
            raise ActionError(f"{request.url.path} takes {', '.join(allowed)}, not {key[:40]!r}", 400)
        if key in found:
            raise ActionError(f"{key} is given once", 400)
        found[key] = value
    return found


def _list_filters(request: Request) -> dict:
    """GET /api/games's filters, checked: the keyword arguments of Archive.games."""
    filters: dict = {}
    for key, text in _parameters(request, LIST_PARAMETERS).items():
        if key == "game":
            if text not in GAMES:
                raise ActionError(f"no game {text[:40]!r}: {names_in_words()}", 400)
            filters[key] = text
        elif key == "player":
            filters[key] = _player_name(text)
        elif key in ("since", "until"):
            filters[key] = _day(key, text)
        elif key == "result":
            if text not in OUTCOMES:
                raise ActionError(f"result is one of {', '.join(OUTCOMES)}, not {text[:40]!r}", 400)
            filters[key] = text
        else:
            lowest, highest = (1, LIST_LIMIT) if key == "limit" else (0, OFFSET_LIMIT)
            if not re.fullmatch(r"[0-9]{1,7}", text) or not lowest <= int(text) <= highest:
                raise ActionError(f"{key} is a whole number from {lowest} to {highest}", 400)
            filters[key] = int(text)
    if "since" in filters and "until" in filters and filters["since"] > filters["until"]:
        raise ActionError(f"since ({filters['since']}) is after until ({filters['until']})", 400)
    return filters


def _player_name(text: str) -> str:
    name = text.strip()
    if not is_player_name(name):
        raise ActionError(f"a player's name is 1 to {NAME_LIMIT} printable characters", 400)
    return name


def _day(key: str, text: str) -> date:
    try:
        if len(text) == 10:  # YYYY-MM-DD, or YYYY.MM.DD as records write it
            return date.fromisoformat(text.replace(".", "-"))
    except ValueError:
        pass
    raise ActionError(f"{key} is a day, YYYY-MM-DD", 400)


def _journal_name(name: str) -> str:
    """A game named by its journal's file name or by its archive ID (the name without .jsonl)."""
    return name if name.endswith(SUFFIX) else name + SUFFIX


def _listed(row: dict, folder: Path) -> dict:
    """A game of the archive as the page lists it: the journal's name, the result line."""
    entry = {key: value for key, value in row.items() if value is not None and key not in ("line", "result")}
    if "note" in entry:
        entry["note"] = _unfoldered(entry["note"], folder)
    return {"name": row["id"] + SUFFIX, **entry, "result": row["line"]}


def _unfoldered(text: str | None, folder: Path) -> str | None:
    """A message about a journal, naming it without the board's folders (visitors read it)."""
    return text.replace(f"{folder}{os.sep}", "") if text else text


def _months(rows: list[dict], player: str | None) -> list[dict]:
    """The results month by month, oldest first: with `player`, that player's wins, draws, losses
    and unfinished games; without, the games won by someone, drawn and unfinished."""
    folded = player.casefold() if player is not None else None
    months: dict[str, dict] = {}
    for row in rows:
        if not row["day"]:
            continue
        month = row["day"][:7]
        counts = months.setdefault(month, {"month": month, "games": 0} | dict.fromkeys(
            ("wins", "draws", "losses", "unfinished") if folded else ("decided", "draws", "unfinished"), 0))
        counts["games"] += 1
        outcome = row["outcome"]
        if folded is None:
            counts["decided" if outcome == "win" else "draws" if outcome == "draw" else "unfinished"] += 1
        elif outcome != "win":
            counts["draws" if outcome == "draw" else "unfinished"] += 1
        else:
            counts["wins" if _colour_of(row, folded) == row["winner"] else "losses"] += 1
    return [months[month] for month in sorted(months)]


def _colour_of(row: dict, folded: str) -> str | None:
    """The side the player (a name, case folded) had in the game; the computer is "computer:LEVEL"."""
    for colour, name in row["players"].items():
        if name.casefold() == folded:
            return colour
    computer = row["computer"]
    if computer and f"computer:{computer.get('level')}" == folded:
        return computer.get("plays")
    return None


def _indexed(archive: Archive, name: str) -> bool:
    game_id = name.removesuffix(SUFFIX)
    try:
        return archive.resolve(game_id) == game_id
    except ArchiveError:
        return False


def _unindexed(path: Path, skipped: Skipped | None) -> dict:
    """A journal the index leaves out, as the page lists it: a damaged one (`skipped`) with why,
    and its game up to the damage when that can be read; the game at the board before its first move."""
    entry: dict = {"name": path.name, "id": path.name.removesuffix(SUFFIX)}
    if skipped is not None:
        where = path.name if skipped.line is None else f"{path.name}:{skipped.line}"
        entry["damaged"] = f"{where}: {skipped.problem}"
    try:
        contents = read_journal(path)
        game = rebuild(contents).game
    except (JournalError, OSError) as error:
        return {**entry, "error": entry.get("damaged") or _unfoldered(str(error), path.parent)}
    entry.update(game=game.name, title=game.title, started=contents.header.get("started", ""),
                 moves=len(game.move_stack), result=result_line(game))
    note = _unfoldered(contents.warning, path.parent) or entry.get("damaged")
    return {**entry, "note": note} if note else entry


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
    if plays not in colours():
        raise ActionError(f"the computer plays one of {', '.join(sorted(colours()))}", 400)
    return Computer(plays, level)


def _players(data: object) -> dict[str, str]:
    """POST /api/new's players: {COLOUR: NAME}, each name 1 to 40 printable characters."""
    if not isinstance(data, dict) or not set(data) <= set(colours()):
        raise ActionError(f"players is an object of colours ({', '.join(sorted(colours()))}) and names", 400)
    for colour, name in data.items():
        if not is_player_name(name):
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
