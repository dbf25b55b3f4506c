"""WS /ws?lang=LANG: the session's snapshot pushed on every change, its words in LANG (without
it: the language of the request, as for any other; see page_messages.py for what a message
holds). Watching needs no token, but places are counted (limits.Watchers): the owner's page has
a few of its own. A watcher says nothing but, now and then, {"lang": LANG} when its page changes
language (answered with the snapshot in it); one that sends more than a few other messages is
closed."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..session.play_session import PlaySession

from .access import Access
from .limits import Limits, Watchers
from .page_messages import PageMessages
from .quiet_log import QuietLog
from .replies import error
from ..language.catalogue import COMMANDS, LANGUAGES, current

_ = COMMANDS.gettext


def address_of(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else "unknown"


async def in_a_place(websocket: WebSocket, watchers: Watchers, access: Access, log: QuietLog, who: str,
                     serve: Callable[[WebSocket], Awaitable[None]]) -> None:
    """Serve a live socket in one of the watchers' places, given back when it ends; with none
    left, a 503 to the socket and a line in the quiet log ("refused `who` from ADDRESS")."""
    address = address_of(websocket)
    owner = access.owners_socket(websocket)
    refused = watchers.admit(address, owner)
    if refused:
        log.note("watchers", f"refused {who} from {address}: {refused}")
        await websocket.send_denial_response(error(_('{refused}: try again later').format(refused=refused), 503,
                                                   {"Retry-After": "30"}))
        return
    try:
        await serve(websocket)
    finally:
        watchers.leave(address, owner)


def language_asked(message: dict) -> str | None:
    """The language a watcher's message asks for ({"lang": LANG}), or None for anything else."""
    text = message.get("text")
    if text is None or len(text) > 64:
        return None
    try:
        asked = json.loads(text)
    except ValueError:
        return None
    lang = asked.get("lang") if isinstance(asked, dict) and len(asked) == 1 else None
    return lang if lang in LANGUAGES else None


def live_routes(session: PlaySession, access: Access, limits: Limits, log: QuietLog,
                messages: PageMessages) -> list[BaseRoute]:
    watchers = Watchers(limits)

    async def updates(websocket: WebSocket):
        lang = websocket.query_params.get("lang") or current()
        if lang not in LANGUAGES:
            await websocket.send_denial_response(error(f"no language {lang[:8]!r}: {', '.join(LANGUAGES)}", 400))
            return
        await in_a_place(websocket, watchers, access, log, "a watcher", lambda socket: watch(socket, lang))

    async def watch(websocket: WebSocket, lang: str) -> None:
        await websocket.accept()
        watcher = messages.watcher(lang)
        wake = asyncio.Event()  # a new snapshot, or another language: the sender looks again

        async def follow() -> None:
            async for __ in session.updates():
                wake.set()

        async def send() -> None:
            while True:
                await wake.wait()
                wake.clear()
                text = watcher.next_message()
                if text is not None:
                    await websocket.send_text(text)

        async def receive() -> None:
            sent = 0  # what a watcher sends beside its language does not count; this notices it leaving
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                asked = language_asked(message)
                if asked is not None and asked != watcher.lang:
                    watcher.lang = asked
                    wake.set()
                    continue
                sent += 1
                if sent > limits.messages:
                    log.note("chatty", f"closed a watcher from {address_of(websocket)}: "
                             f"it sent more than {limits.messages} messages")
                    await websocket.close(1008, "watchers send nothing but their language")
                    return

        tasks = [asyncio.create_task(follow()), asyncio.create_task(send()), asyncio.create_task(receive())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError, OSError):
                    await task

    return [WebSocketRoute("/ws", updates)]
