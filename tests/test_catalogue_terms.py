"""One term per thing, in each language: a player meets the board's hollows, a draw, a rating or
a colour's player on the board's lights, the page, the rules and the command line, and each is
called the same everywhere. A small glossary per language names the one term and the words it
replaces; every msgstr of every catalogue (commands, page, play, rules) is checked against it,
and the guides written in the language (docs/de, docs/ro) too."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from po_catalogues import messages
from reedboard.controller.language.catalogue import DOMAINS, LANGUAGES

pytestmark = pytest.mark.unit

GUIDES = Path(__file__).resolve().parents[1] / "docs"  # docs/<lang>/*.md: the players' guides in their language
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


@dataclass(frozen=True)
class Term:
    """A concept (in English), the one `term` a language says it with (a pattern found in its
    catalogues), the `other` words it must not be said with, and the phrases (`besides`) where
    one of those words means something else and may stay."""

    concept: str
    term: str
    other: tuple[str, ...]
    besides: tuple[str, ...] = ()


GLOSSARY: dict[str, tuple[Term, ...]] = {
    "de": (
        # the lights, the rules and doctor speak of the same hollows, Abalone's holes among them
        Term("a hollow of the board (a cell, Abalone's hole)", r"\bMulden?\b",
             (r"\bFeld(er|ern|es)?\b", r"(?i)\bl[oö]ch(es|er|ern)?\b", r"(?i)l[oö]cher")),
        Term("a draw", r"\bUnentschieden\b", (r"(?i)\bremis\b",)),
        Term("vermillion, a light's colour", r"zinnoberrot", (r"(?i)vermill?ion",)),
    ),
    "ro": (
        Term("a hollow of the board (a cell, Abalone's hole)", r"\bgropi(ța|ță|țe|țele|ței|țelor)\b",
             (r"(?i)\bspați(u|ul|ului|i|ile|ilor)\b",),
             besides=(r"(?i)\bspați(u|ul|ului|i|ile|ilor) țintă",  # Off Board's scoring spaces
                      r"(?i)\bspații albe\b")),  # whitespace in a broker's address
        Term("a rating", r"\brating(ul|urile)?\b", (r"(?i)\bcot(a|ă|e|ele|ei)\b",)),
        Term("to click (the page's informal word, on the command line too)", r"\bdă clic\b",
             (r"(?i)\bface(ți|ti) clic\b", r"(?i)\bclic(ați|ăm)\b", r"(?i)\bclick\b")),
        Term("a colour's player, named as the referee names them", r"\bNegru\b",
             (r"(?i)\b(negrul|albul|roșul|galbenul)\b",)),
        Term("live (a game shown as it is played)", r"\bîn direct\b", (r"(?i)\blive\b",)),
        Term("vermillion, a light's colour", r"\broșu-portocaliu\b", (r"(?i)vermill?ion",)),
        Term("a draw", r"\bremiz(ă|a|e)\b", (r"(?i)\begalitate\b",)),
    ),
}


def translations(lang: str) -> list[tuple[str, str, str]]:
    """(catalogue, msgid, msgstr) of every translated form in `lang`."""
    found = []
    for domain, message in messages(lang, DOMAINS):
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        forms = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        found += [(domain, msgid, form) for form in forms if form]
    return found


def off_glossary(text: str, terms: tuple[Term, ...]) -> list[tuple[str, str]]:
    """(concept, the word found) for each word of `text` the glossary replaces."""
    wrong = []
    for term in terms:
        rest = text
        for phrase in term.besides:
            rest = re.sub(phrase, " ", rest)
        wrong += [(term.concept, match.group(0)) for pattern in term.other for match in re.finditer(pattern, rest)]
    return wrong


@pytest.fixture(scope="module", params=TRANSLATED)
def catalogue(request):
    return request.param, translations(request.param)


def test_every_catalogue_says_each_concept_with_its_one_term(catalogue):
    lang, entries = catalogue
    wrong = [f"{domain}: {msgid[:60]!r} says {word!r} for {concept}"
             for domain, msgid, text in entries for concept, word in off_glossary(text, GLOSSARY[lang])]
    assert not wrong, f"{lang}: {len(wrong)} words off the glossary:\n" + "\n".join(wrong[:20])


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_guides_in_the_language_use_the_catalogues_terms(lang):
    wrong = []
    for guide in sorted((GUIDES / lang).glob("*.md")):
        text = " ".join(guide.read_text(encoding="utf-8").split())  # a term wrapped over two lines is one
        wrong += [f"docs/{lang}/{guide.name} says {word!r} for {concept}" for concept, word in off_glossary(text, GLOSSARY[lang])]
    assert not wrong, "\n".join(wrong)


def test_each_term_of_the_glossary_is_the_one_in_use(catalogue):
    """A glossary of words no catalogue says would check nothing."""
    lang, entries = catalogue
    unused = [term.concept for term in GLOSSARY[lang]
              if not any(re.search(term.term, text) for _, _, text in entries)]
    assert not unused, f"{lang}: no catalogue says {unused}"


@pytest.mark.parametrize(("lang", "text", "words"), [
    ("de", "Remis vereinbaren", ["Remis"]),
    ("de", "Brett: bigballs, 28 Felder auf einer 4x7-Matrix", ["Felder"]),
    ("de", "zieh C3 um ein Loch in Richtung D4", ["Loch"]),
    ("de", "Die Zielfelder am Rand; 28 Mulden; ein Unentschieden", []),
    ("ro", "Partida live", ["live"]),
    ("ro", "Cotele pe aceeași scară", ["Cotele"]),
    ("ro", "faceți clic pe gropițe", ["faceți clic"]),
    ("ro", "mută negrul", ["negrul"]),
    ("ro", "61 de spații; spațiile țintă; URL-ul are spații albe", ["spații"]),
])
def test_the_check_finds_the_words_the_glossary_replaces(lang, text, words):
    assert [word for _, word in off_glossary(text, GLOSSARY[lang])] == words
