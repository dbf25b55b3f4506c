"""A phrase said in the language in use: its msgid looked up in its catalogue, its data put in.

The rooms below hand over phrases (controller/language/phrases.py) and errors carrying one (a
game's MoveError, a journal's problem); `say` and `said` turn either into the words of the
language in use (controller/language/catalogue.py's `current`, or `speaking(lang)` around the
call).
"""

from __future__ import annotations

from ..language.catalogue import say
from ..language.phrases import Phrase

__all__ = ["said", "said_all", "say"]


def said(value: object) -> str:
    """`say` as text: a phrase, an error carrying one as its message, or anything as str() has it."""
    if isinstance(value, BaseException) and len(value.args) == 1 and isinstance(value.args[0], Phrase):
        value = value.args[0]
    return str(say(value))


def said_all(value: object) -> object:
    """JSON-ready data (dicts, lists) with every phrase in it said: a game's catalogue entry, a
    record's problems."""
    if isinstance(value, dict):
        return {key: said_all(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(said_all(item) for item in value)
    return say(value)
