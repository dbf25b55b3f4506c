"""What hal.backends says of a board (why a backend was not reached, what a board found is), in
the language in use: its Reasons carry their English words and values, looked up here in the
commands' catalogue. Light: it imports nothing of hal."""

from __future__ import annotations

from collections.abc import Iterable

from ..language.catalogue import COMMANDS

_ = COMMANDS.gettext


def in_words(names) -> str:
    """Names for a message, in the language in use: "a, b or c"."""
    names = list(names)
    if len(names) == 1:
        return names[0]
    return _("{names} or {last}").format(names=", ".join(names[:-1]), last=names[-1])


def said(reason: str) -> str:
    """A hal.backends.Reason in the language in use; any other text (a board file's problem) as it is."""
    words = getattr(reason, "words", None)
    if words is None:
        return str(reason)
    values = {key: in_words(value) if isinstance(value, (list, tuple)) else value
              for key, value in reason.values.items()}
    return _(words).format(**values)


def all_said(reasons: Iterable[str]) -> list[str]:
    """Each of `reasons` (NoBoard.tried) in the language in use."""
    return [said(reason) for reason in reasons]
