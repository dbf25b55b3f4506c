"""The words of one catalogue in the language in use.

Four catalogues (gettext domains), one per part of the board that speaks:
  play      what the referee says at the table: prompts, notes, refusals, the games' own words
  commands  the command line: messages, help, doctor and self-test reports, the servers' answers
  page      the web page and the club's page (served to the browser as JSON)
  rules     each game's rules page

A module marks its words with `_ = PLAY.gettext` (or COMMANDS...) and `_("...")`; words kept in
a constant are marked with `N_` and looked up where they are shown. The language in use is the
process's default (the command line sets it once) unless a request or a task says otherwise
(`speaking`), so a server can answer each page in its own language.
"""

from __future__ import annotations

import contextvars
import functools
import gettext
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources

from .phrases import N_, Phrase

__all__ = ["COMMANDS", "DOMAINS", "LANGUAGES", "N_", "NAMES", "PAGE", "PLAY", "RULES", "Words", "current",
           "locale_dir", "say", "set_default", "speaking", "translations"]

LANGUAGES = ("en", "de", "ro")  # English first: the catalogues' source language
NAMES = {"en": "English", "de": "Deutsch", "ro": "Română"}  # each language in its own words
DOMAINS = ("play", "commands", "page", "rules")

_default = "en"
_speaking: contextvars.ContextVar[str | None] = contextvars.ContextVar("reedboard_language", default=None)


def locale_dir() -> str:
    return str(resources.files(__package__).joinpath("locale"))


@functools.cache
def translations(domain: str, lang: str) -> gettext.NullTranslations:
    """The compiled catalogue `domain` in `lang` (English, or a missing one: the words as written)."""
    if lang == "en" or lang not in LANGUAGES:
        return gettext.NullTranslations()
    return gettext.translation(domain, locale_dir(), languages=[lang], fallback=True)


def set_default(lang: str) -> None:
    """The language of this process wherever no request or task chose one (the command line's)."""
    global _default
    _default = lang if lang in LANGUAGES else "en"


def current() -> str:
    return _speaking.get() or _default


@contextmanager
def speaking(lang: str) -> Iterator[str]:
    """Within the block (and the tasks it starts), words come in `lang`."""
    token = _speaking.set(lang if lang in LANGUAGES else "en")
    try:
        yield _speaking.get()
    finally:
        _speaking.reset(token)


class Words:
    """One catalogue's words, looked up in the language in use at each call."""

    def __init__(self, domain: str) -> None:
        self.domain = domain

    def gettext(self, message: str) -> str:
        return translations(self.domain, current()).gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return translations(self.domain, current()).ngettext(singular, plural, n)


PLAY, COMMANDS, PAGE, RULES = (Words(domain) for domain in DOMAINS)


def say(value: object) -> object:
    """A phrase (controller/language/phrases.py) in the language in use: its msgid looked up in
    its catalogue, its data put in, said too; anything else (a cell's name, a number) as it is.
    The words room (controller/words/) says what the rooms below it hand over with this."""
    if not isinstance(value, Phrase):
        return value
    if value.domain is None:
        text = value.text
    elif value.plural is None:
        text = translations(value.domain, current()).gettext(value.text)
    else:
        text = translations(value.domain, current()).ngettext(value.text, value.plural, value.n)
    return text.format(**{key: say(item) for key, item in value.data}) if value.data else text
