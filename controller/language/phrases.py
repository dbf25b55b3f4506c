"""Words not yet said: what the rooms below the words room hand over instead of sentences.

A Phrase is a catalogue's msgid (the English words, with brace placeholders) and the data for
its placeholders, kept apart until the words room (controller/words/) says it in the language
in use. A game refusing a move, a journal found damaged, an engine match's line: each returns
a Phrase, never the words of one language. The data may hold phrases in turn (a player's
colour inside a refusal), said in the same language.

    phrase = Phrasebook("play")
    raise MoveError(phrase("no hollow {hollow} on the board", hollow="z9"))

`phrase("...")` and `phrase_n("...", "...", n)` are the marks the catalogues are extracted by
(controller/language/extraction.py), as `_` and `ngettext` are. str() of a phrase is its English,
for logs and for exceptions read by people who asked in no language.
"""

from __future__ import annotations

__all__ = ["N_", "Phrase", "Phrasebook", "Said", "listed", "message_of"]


def N_(message: str) -> str:
    """Marks words kept in a constant for the catalogue; they are looked up where shown (made a
    phrase where handed over)."""
    return message


class Phrase(str):
    """One sentence or piece of one, in no language yet.

    domain: the catalogue its msgid is in ("play", "commands"); None: the text is no msgid but
        the same in every language (phrases listed with commas: `listed`).
    text: the msgid, English with brace placeholders; plural and n: its plural msgid and the
        count choosing between them (ngettext's), or None.
    data: the placeholders' values (numbers, names, other phrases), in the order given.

    As text (a str) a phrase is its English, so a log line, a JSON field or an exception's
    message read where no language was asked for still reads; the words room says it in the
    language in use. Joined to text with `+`, it stays a phrase.
    """

    domain: str | None
    text: str
    data: tuple[tuple[str, object], ...]
    plural: str | None
    n: int | None

    def __new__(cls, domain: str | None, text: str, data: tuple[tuple[str, object], ...] = (),
                plural: str | None = None, n: int | None = None) -> Phrase:
        chosen = text if plural is None or n == 1 else plural
        english = chosen.format(**{key: value for key, value in data}) if data else chosen
        self = super().__new__(cls, english)
        self.__dict__.update(domain=domain, text=text, data=tuple(data), plural=plural, n=n)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a phrase does not change")

    def __getnewargs__(self):
        return (self.domain, self.text, self.data, self.plural, self.n)

    @property
    def values(self) -> dict[str, object]:
        return dict(self.data)

    def english(self) -> str:
        """The words as written in the code: the catalogues' source language."""
        return str.__str__(self)

    def __str__(self) -> str:
        return self.english()

    def __repr__(self) -> str:
        return f"Phrase({self.domain!r}, {self.text!r}, {self.data!r})"

    def format(self, *args: object, **data: object) -> Phrase:
        """The phrase with its data given now (a msgid chosen first, filled in later)."""
        if args or self.data:
            raise TypeError("a phrase takes its data once, by name")
        return Phrase(self.domain, self.text, tuple(data.items()), self.plural, self.n)

    def __add__(self, other: object) -> Phrase:
        """This phrase and then `other` (a phrase or text), each said in its own words."""
        if not isinstance(other, str):
            return NotImplemented
        return Phrase(None, "{a}{b}", (("a", self), ("b", other)))

    def __radd__(self, other: object) -> Phrase:
        if not isinstance(other, str):
            return NotImplemented
        return Phrase(None, "{a}{b}", (("a", other), ("b", self)))

Said = str  # words handed over: a Phrase, or a name or notation said as it is


class Phrasebook:
    """Makes the phrases of one catalogue: `phrase = Phrasebook("play")`, then `phrase(text, **data)`
    and `phrase_n = phrase.n`, `phrase_n(singular, plural, n, **data)`."""

    def __init__(self, domain: str) -> None:
        self.domain = domain

    def __call__(self, text: str, /, **data: object) -> Phrase:
        return Phrase(self.domain, text, tuple(data.items()))

    def n(self, singular: str, plural: str, n: int, /, **data: object) -> Phrase:
        return Phrase(self.domain, singular, tuple(data.items()), plural, n)


def listed(items, separator: str = ", ") -> object:
    """Phrases (or names) one after the other, joined by `separator` in every language."""
    items = list(items)
    if len(items) == 1:
        return items[0]
    template = separator.join(f"{{p{i}}}" for i in range(len(items)))
    return Phrase(None, template, tuple((f"p{i}", item) for i, item in enumerate(items)))


def message_of(error: BaseException) -> Said:
    """The message an error carries, a phrase kept a phrase (to hand on inside another)."""
    if len(error.args) == 1 and isinstance(error.args[0], str):
        return error.args[0]
    return str(error)
