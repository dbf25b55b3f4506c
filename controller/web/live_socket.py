"""WS /ws: the session's snapshot pushed on every change. Watching needs no token, but places
are counted (limits.Watchers): the owner's page has a few of its own, and a watcher that sends
more than a few messages is closed (watchers send nothing that counts)."""

from __future__ import annotations

import asyncio
import contextlib

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..session.play_session import PlaySession

from .access import Access
from .limits import Limits, Watchers
from .quiet_log import QuietLog
from .replies import SnapshotJSON, error
from ..language.catalogue import COMMANDS

_ = COMMANDS.gettext


def address_of(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else "unknown"


def live_routes(session: PlaySession, access: Access, limits: Limits, log: QuietLog,
                snapshot_json: SnapshotJSON) -> list[BaseRoute]:
    watchers = Watchers(limits)

    async def updates(websocket: WebSocket):
        address = address_of(websocket)
        owner = access.owners_socket(websocket)
        refused = watchers.admit(address, owner)
        if refused:
            log.note("watchers", f"refused a watcher from {address}: {refused}")
            await websocket.send_denial_response(error(_('{refused}: try again later').format(refused=refused), 503,
                                                                   {"Retry-After": "30"}))
            return
        try:
            await watch(websocket)
        finally:
            watchers.leave(address, owner)

    async def watch(websocket: WebSocket) -> None:
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

    return [WebSocketRoute("/ws", updates)]
