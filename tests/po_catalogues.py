"""The shipped gettext catalogues as the tests read them: every message with an id, by catalogue."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from babel.messages import pofile
from babel.messages.catalog import Message

from reedboard.controller.language.catalogue import locale_dir


def messages(lang: str, domains: Iterable[str]) -> Iterator[tuple[str, Message]]:
    """(catalogue, message) for every message of `lang`'s catalogues `domains` that has an id."""
    for domain in domains:
        with (Path(locale_dir()) / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as file:
            catalogue = pofile.read_po(file, locale=lang, domain=domain)
        yield from ((domain, message) for message in catalogue if message.id)
