"""The page's languages: which it may speak, which the board prefers, and the page's catalogue.

    GET /api/languages       {"languages": [{"code", "name"}], "default": the board's [page] language or null}
    GET /api/language/LANG   the page's words in LANG: {"lang", "plural": [CLDR categories],
                             "messages": {msgid: text, or [forms] for a count}}

Every request is answered in the language its Accept-Language header asks for (the page sends
its chosen one), so a refusal reads as the page does; `Speaking` sets it for the request.
"""

from __future__ import annotations

import functools

from starlette.requests import Request
from starlette.routing import BaseRoute, Route

from ..language.catalogue import LANGUAGES, NAMES, speaking, translations
from ..language.choosing import from_accept_language
from .replies import encoded, error, json_answer


@functools.cache
def page_catalogue(lang: str) -> bytes:
    """The page's catalogue in `lang` as JSON; English is the msgids themselves (no entries)."""
    messages: dict[str, object] = {}
    source = translations("page", lang)
    for key, text in getattr(source, "_catalog", {}).items():
        if isinstance(key, tuple):  # (msgid, form index): a message with plural forms
            forms = messages.setdefault(key[0], [])
            forms.extend([""] * (key[1] + 1 - len(forms)))
            forms[key[1]] = text
        elif key:
            messages[key] = text
    return encoded({"lang": lang, "messages": messages})


def language_routes(default: "callable") -> list[BaseRoute]:
    """`default()`: the board's configured page language, or None to follow the browser."""

    async def languages(request: Request):
        return json_answer(encoded({"languages": [{"code": c, "name": NAMES[c]} for c in LANGUAGES],
                                    "default": default()}))

    async def catalogue(request: Request):
        lang = request.path_params["lang"]
        if lang not in LANGUAGES:
            return error(f"no language {lang[:8]!r}: {', '.join(LANGUAGES)}", 404)
        return json_answer(page_catalogue(lang))

    return [Route("/api/languages", languages), Route("/api/language/{lang}", catalogue)]


class Speaking:
    """ASGI middleware: each request's answer in the language its Accept-Language asks for."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        header = next((v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"accept-language"), None)
        with speaking(from_accept_language(header) or "en"):
            return await self.app(scope, receive, send)
