"""Which words go into which catalogue, found in the sources with Babel's extractors.

Python and the page's JavaScript are read by Babel's own extractors (`_`, `ngettext`, `N_`, and
the phrases `phrase` and `phrase_n` handed to the words room);
the page's HTML marks its words with `data-i18n` (the element's text) and `data-i18n-attr`
(the attributes named), and each game's rules page is the TOML in games/data. Used by
docs/make_catalogues.py to write the catalogues and by the tests to check them.
"""

from __future__ import annotations

import html.parser
import re
import tomllib
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir

PACKAGE = Path(__file__).resolve().parents[1]  # controller/
ROOT = PACKAGE.parent  # the tree: controller/, hal/, hardware/
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2),
            "phrase": None, "phrase_n": (1, 2)}  # the words handed over unsaid (language/phrases.py)
COMMENT_TAGS = ["TRANSLATORS:"]

# domain -> the folders (under the tree) it is read from, and how each kind of file is read
SOURCES: dict[str, list[tuple[str, list[tuple[str, str]]]]] = {
    "play": [(d, [("**.py", "python")]) for d in (
        "controller/ground", "controller/core", "controller/games", "controller/words", "controller/session")],
    "commands": [(d, [("**.py", "python")]) for d in (
        "controller/commands", "controller/workshop", "controller/persist", "controller/archive", "controller/web",
        "controller/broadcast", "controller/opponent")] + [("hal", [("backends.py", "python")])],  # what was tried, marked N_ (Reason)
    "page": [(d, [("static/**.js", "javascript"), ("static/**.html", "reedboard.controller.language.extraction:extract_html")])
             for d in ("controller/web", "controller/broadcast/club")],
    "rules": [("controller/games", [("data/*.rules.toml", "reedboard.controller.language.extraction:extract_rules")])],
}
PROJECT = "reedboard"


def extract(domain: str) -> Catalog:
    """The catalogue template of `domain` as the sources stand."""
    catalog = Catalog(project=PROJECT, domain=domain, fuzzy=False)
    for folder, method_map in SOURCES[domain]:
        base = ROOT / folder
        if not base.is_dir():
            continue
        for filename, lineno, message, comments, context in extract_from_dir(
                base, method_map, keywords=KEYWORDS, comment_tags=COMMENT_TAGS, strip_comment_tags=True):
            where = (f"{folder}/{filename}", lineno)
            catalog.add(message, None, [where], auto_comments=comments, context=context)
    return catalog


# --- the page's HTML -------------------------------------------------------------------------------
def words_of(text: str) -> str:
    """An element's text as a msgid: its whitespace folded, as the page's i18n.js folds it."""
    return re.sub(r"\s+", " ", text).strip()


class _MarkedWords(html.parser.HTMLParser):
    """The msgids of an HTML page: text of `data-i18n` elements, attributes named in `data-i18n-attr`."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]] | None] = []

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        for name in (values.get("data-i18n-attr") or "").split():
            if values.get(name):
                self.found.append((self.getpos()[0], words_of(values[name])))
        if tag in ("br", "img", "input", "meta", "link", "hr", "source"):
            return
        self._open.append((tag, self.getpos()[0], []) if "data-i18n" in values else None)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in ("br", "img", "input", "meta", "link", "hr", "source"):
            self._open.pop()

    def handle_data(self, data):
        for entry in self._open:
            if entry is not None:
                entry[2].append(data)

    def handle_endtag(self, tag):
        if tag in ("br", "img", "input", "meta", "link", "hr", "source") or not self._open:
            return
        entry = self._open.pop()
        if entry is not None and words_of("".join(entry[2])):
            self.found.append((entry[1], words_of("".join(entry[2]))))


def extract_html(fileobj, keywords, comment_tags, options):
    """Babel extractor: the marked words of an HTML page."""
    parser = _MarkedWords()
    parser.feed(fileobj.read().decode("utf-8"))
    for lineno, text in parser.found:
        yield lineno, None, text, []


# --- the rules pages -------------------------------------------------------------------------------
def extract_rules(fileobj, keywords, comment_tags, options):
    """Babel extractor: a rules page's headings, paragraphs, diagram titles and captions."""
    data = tomllib.loads(fileobj.read().decode("utf-8"))
    for section in data.get("section", []):
        yield 0, None, section["title"], ["a heading of the rules page"]
        for point in section.get("points", []):
            yield 0, None, point, []
    for diagram in data.get("diagram", []):
        yield 0, None, diagram["title"], ["the title of an example position"]
        yield 0, None, diagram["caption"], ["what the example position shows"]
