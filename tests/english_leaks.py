"""A guard for words that reach a player unsaid: English sentences of the catalogues found in
what the board showed in another language.

A phrase (controller/language/phrases.py) formatted as text rather than said by the words room
reads as its English; so does a sentence written in English where the catalogues have it
translated. `leaks(text, lang)` finds, in text shown in `lang`, every msgid of the play and
commands catalogues that `lang` translates otherwise, its placeholders matching anything. Only
msgids of four words of their own or more are looked for: a shorter one ("line {number}: ...")
could stand in a name or a notation, and is found inside the longer sentence it is part of.
"""

from __future__ import annotations

import functools
import re

from po_catalogues import messages

DOMAINS = ("play", "commands")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
WORDS = 4


@functools.cache
def sentences(lang: str) -> tuple[tuple[str, str, re.Pattern], ...]:
    """The English sentences `lang` says otherwise, each with its longest piece of words (looked
    for first) and the pattern that finds it, a placeholder standing for anything within a line
    or a JSON string."""
    found = []
    for _, message in messages(lang, DOMAINS):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for english, said in zip(ids, strings):
            parts = PLACEHOLDER.split(english)
            if not said or said == english or sum(len(part.split()) for part in parts) < WORDS:
                continue
            pattern = re.compile('[^\n"]*?'.join(re.escape(part) for part in parts))
            found.append((english, max(parts, key=len), pattern))
    return tuple(found)


def leaks(text: str, lang: str) -> list[str]:
    """The English msgids (see the module's words) found in `text`, shown in `lang`."""
    return [english for english, piece, pattern in sentences(lang) if piece in text and pattern.search(text)]
