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


def N_(message: str) -> str:
    """Marks words kept in a constant for the catalogue; they are looked up where shown."""
    return message


class Words:
    """One catalogue's words, looked up in the language in use at each call."""

    def __init__(self, domain: str) -> None:
        self.domain = domain

    def gettext(self, message: str) -> str:
        return translations(self.domain, current()).gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return translations(self.domain, current()).ngettext(singular, plural, n)


PLAY, COMMANDS, PAGE, RULES = (Words(domain) for domain in DOMAINS)
