"""The bodies of the page's actions: read within a size limit, and checked key by key.

Every action's body is a JSON object with known keys of known types; anything else is a 4xx
with a one-line reason, before the session is asked to do anything.

    data = await read_json(request, limit=4096)     # ActionError 413, 415 or 400
    check(data, SCHEMAS["click"])                    # ActionError 400
"""

from __future__ import annotations

import json
from collections.abc import Callable

from starlette.requests import ClientDisconnect, Request

from ..language.catalogue import COMMANDS, N_
from ..session.actions import ActionError

_ = COMMANDS.gettext


async def read_json(request: Request, limit: int) -> dict:
    """The request's JSON object ({} for an empty body), read no further than `limit` bytes."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise ActionError(_('send JSON (Content-Type: application/json)'), 415)
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise ActionError(_('the body is larger than {limit} bytes').format(limit=limit), 413)
    raw = bytearray()
    try:
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > limit:
                raise ActionError(_('the body is larger than {limit} bytes').format(limit=limit), 413)
    except ClientDisconnect:
        raise ActionError(_('the request was cut off'), 400) from None
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ActionError(_('the body is not JSON'), 400) from None
    if not isinstance(data, dict):
        raise ActionError(_('the body must be a JSON object'), 400)
    return data


# --- the kinds of values -----------------------------------------------------------------------------
def _seconds(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return float(value) not in (float("inf"), float("-inf")) and value == value
    except OverflowError:  # an integer of hundreds of digits
        return False


KINDS: dict[str, tuple[str, Callable[[object], bool]]] = {
    "text": (N_("a string"), lambda v: isinstance(v, str)),
    "index": (N_("a whole number"), lambda v: isinstance(v, int) and not isinstance(v, bool)),
    "flag": (N_("true or false"), lambda v: isinstance(v, bool)),
    "seconds": (N_("a number of seconds"), _seconds),
    "object": (N_("an object"), lambda v: isinstance(v, dict)),
    "null": ("null", lambda v: v is None),
}

# action -> key -> (required?, the kinds it may be)
SCHEMAS: dict[str, dict[str, tuple[bool, tuple[str, ...]]]] = {
    "click": {"cell": (True, ("text",))},
    "select": {"index": (True, ("index",))},
    "aside": {"index": (False, ("index", "null"))},
    "take": {"index": (True, ("index",))},
    "press": {"button": (True, ("text",))},
    "resign": {"player": (True, ("text",))},
    "draw": {},
    "new": {"game": (False, ("text", "null")), "empty": (False, ("flag", "null")),
            "settings": (False, ("object", "null")), "setup": (False, ("text", "null")),
            "clock": (False, ("object", "null")), "options": (False, ("object", "null")),
            "computer": (False, ("object", "null")), "players": (False, ("object", "null"))},
    "hint": {},
    "rename-player": {"old": (True, ("text",)), "new": (True, ("text",))},
    "delete-game": {"id": (True, ("text",))},
    "settings": {"debounce": (False, ("seconds",)), "settle": (False, ("seconds",)),
                 "grace": (False, ("seconds",)), "takebacks": (False, ("flag",))},
}


def check(data: dict, schema: dict[str, tuple[bool, tuple[str, ...]]], where: str = N_("the body")) -> dict:
    """`data` when it has only the schema's keys, the required ones, each of its kinds; else ActionError 400."""
    unknown = sorted(set(data) - set(schema))
    if unknown:
        allowed = ", ".join(schema) if schema else _("nothing")
        raise ActionError(_('{where} has no key {key} (it takes {allowed})').format(
            where=_(where), key=repr(unknown[0][:40]), allowed=allowed), 400)
    for key, (required, kinds) in schema.items():
        if key not in data:
            if required:
                raise ActionError(_('{where} needs {key}').format(where=_(where), key=repr(key)), 400)
            continue
        if not any(KINDS[kind][1](data[key]) for kind in kinds):
            said = _("{names} or {last}").format(names=", ".join(_(KINDS[k][0]) for k in kinds[:-1]),
                                                 last=_(KINDS[kinds[-1]][0])) if len(kinds) > 1 else _(KINDS[kinds[0]][0])
            raise ActionError(_('{key} is {said}').format(key=key, said=said), 400)
    return data
