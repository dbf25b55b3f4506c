"""A change to the game or to the archive, as a POST route: the token first, then the body
checked against its schema (bodies.py), then the handler; an ActionError is a 4xx answer and
changes nothing."""

from __future__ import annotations

import inspect
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..session.actions import ActionError
from ..session.play_session import PlaySession

from .access import Access
from .bodies import SCHEMAS, check, read_json
from .replies import CLOSE, error
from ..language.catalogue import COMMANDS, current

_ = COMMANDS.gettext


class Changes:
    def __init__(self, access: Access, body_size: int, session: PlaySession) -> None:
        self.access, self.body_size, self.session = access, body_size, session

    def route(self, path: str, name: str, handler: Callable[[dict], object]) -> Route:
        """POST `path`: the body checked as SCHEMAS[name], handled; the answer is what the handler
        gives, or the session's snapshot (its words in the request's language) when it gives nothing."""
        async def endpoint(request: Request):
            if not self.access.may_change(request):
                return error(_('watching only: changing the game needs the token'), 403, CLOSE)
            try:
                data = check(await read_json(request, self.body_size), SCHEMAS[name])
            except ActionError as problem:
                return error(str(problem), problem.status, CLOSE)
            try:
                result = handler(data)
                if inspect.isawaitable(result):
                    result = await result
            except ActionError as problem:
                return error(str(problem), problem.status)
            # the snapshot in the request's language: the page that asked reads no other
            return JSONResponse(result if result is not None else self.session.snapshot((current(),)))
        return Route(path, endpoint, methods=["POST"])
