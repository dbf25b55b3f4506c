"""How the web view answers: JSON as the page reads it, errors as {"error": "..."}, and what
is worked out beside the referee turned into an answer."""

from __future__ import annotations

import json
from collections.abc import Callable

from starlette.responses import JSONResponse, Response

from ..games import GAMES
from ..language.catalogue import COMMANDS
from ..session.actions import ActionError

from .side_work import Busy, SideWork

CLOSE = {"Connection": "close"}  # the rest of a refused body is not read: the connection goes
NAME_LENGTH = 200  # characters of a game's or a journal's name in an address, at most

_ = COMMANDS.gettext


def in_words(names, last: str = "or") -> str:
    """Names for a message, in the language of the request: "a, b or c" (or "a, b and c")."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    if last == "and":
        return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])
    return _("{names} or {last}").format(names=", ".join(names[:-1]), last=names[-1])


def games_in_words() -> str:
    """The games' names for a message: each registered name, joined by "or"."""
    return in_words(sorted(GAMES))


def error(message: str, status: int, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def encoded(data: object) -> bytes:
    """JSON as the page gets it (Starlette's JSONResponse writes the same)."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


def json_answer(body: bytes, headers: dict | None = None) -> Response:
    return Response(body, media_type="application/json", headers=headers)


def busy() -> JSONResponse:
    return error(_('the board is busy: try again in a moment'), 503, {"Retry-After": "2"})


async def beside(work: SideWork, key: tuple, work_out: Callable, *args) -> Response:
    """The answer work_out(*args) gives in the worker thread: JSON bytes, or a Response."""
    try:
        answer = await work.run(key, work_out, *args)
        return answer if isinstance(answer, Response) else json_answer(answer)
    except Busy:
        return busy()
    except ActionError as problem:
        return error(str(problem), problem.status)


class SnapshotJSON:
    """Each published snapshot turned into JSON once for every GET /api/state (what the watchers
    are sent is encoded in page_messages.py)."""

    def __init__(self) -> None:
        self._snapshot: dict | None = None
        self._text = ""

    def __call__(self, snapshot: dict) -> str:
        if snapshot is not self._snapshot:
            self._snapshot, self._text = snapshot, encoded(snapshot).decode("utf-8")
        return self._text
