"""GET / (the page) and /static/ (its scripts, style and sounds): plain files, no build step.
Every address the page uses is relative to it, so the same files serve a board's page at /
and, in the club, under /board/NAME/."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from .access import TOKEN_COOKIE, Access

STATIC = Path(__file__).resolve().parent / "static"


def page_routes(access: Access) -> list[BaseRoute]:
    async def page(request: Request):
        response = FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})
        if access.given_token(request):  # the owner's page: its WebSocket gets a place of its own
            response.set_cookie(TOKEN_COOKIE, access.token, httponly=True, samesite="strict")
        return response

    return [Route("/", page), Mount("/static", StaticFiles(directory=STATIC), name="static")]
