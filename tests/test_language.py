"""The catalogues: current with the sources, complete in every language, compiled as written,
their placeholders kept; and the choice of a language from an option, an environment or a
browser's header. Read from the committed files, as the board reads them."""

from __future__ import annotations

import ast
import gettext
import io
import re
from pathlib import Path

import pytest
from babel.messages import mofile, pofile

from reedboard.controller.language import forms
from reedboard.controller.language.catalogue import DOMAINS, LANGUAGES, PLAY, locale_dir, speaking
from reedboard.controller.language.choosing import from_accept_language, from_environment, supported
from reedboard.controller.language.extraction import ROOT, extract

pytestmark = pytest.mark.unit

LOCALE = Path(locale_dir())
TRANSLATED = LANGUAGES[1:]  # English is the source language
CATALOGUES = [(domain, lang) for domain in DOMAINS for lang in TRANSLATED]


def read_po(domain: str, lang: str):
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return pofile.read_po(f, locale=lang, domain=domain)


def entries(catalog):
    return [message for message in catalog if message.id]


def forms_of(message) -> list[str]:
    return list(message.string) if isinstance(message.string, (tuple, list)) else [message.string]


def ids_of(message) -> list[str]:
    return list(message.id) if isinstance(message.id, (tuple, list)) else [message.id]


@pytest.fixture(scope="module")
def templates():
    return {domain: extract(domain) for domain in DOMAINS}


@pytest.mark.parametrize("domain", DOMAINS)
def test_each_template_is_what_the_sources_say_now(domain, templates):
    """docs/make_catalogues.py was run after the last change of words in the sources."""
    with (LOCALE / f"{domain}.pot").open("rb") as f:
        committed = {m.id if isinstance(m.id, str) else tuple(m.id) for m in entries(pofile.read_po(f))}
    current = {m.id if isinstance(m.id, str) else tuple(m.id) for m in entries(templates[domain])}
    assert committed == current, (f"{domain}.pot is behind the sources: run docs/make_catalogues.py {domain}; "
                                  f"new {sorted(map(str, current - committed))[:5]}, gone {sorted(map(str, committed - current))[:5]}")


@pytest.mark.parametrize(("domain", "lang"), CATALOGUES)
def test_every_catalogue_holds_every_word_of_the_sources(domain, lang, templates):
    po = read_po(domain, lang)
    have = {m.id if isinstance(m.id, str) else tuple(m.id) for m in entries(po)}
    want = {m.id if isinstance(m.id, str) else tuple(m.id) for m in entries(templates[domain])}
    assert want <= have, f"{lang}/{domain}.po lacks {sorted(map(str, want - have))[:5]}: run docs/make_catalogues.py"
    assert not po.obsolete, f"{lang}/{domain}.po keeps words the sources no longer have"


@pytest.mark.parametrize(("domain", "lang"), CATALOGUES)
def test_every_word_is_translated_and_none_is_fuzzy(domain, lang):
    po = read_po(domain, lang)
    fuzzy = [m.id for m in entries(po) if m.fuzzy]
    empty = [m.id for m in entries(po) if not all(form.strip() for form in forms_of(m))]
    assert not fuzzy, f"{lang}/{domain}.po: {len(fuzzy)} fuzzy, e.g. {fuzzy[:3]}"
    assert not empty, f"{lang}/{domain}.po: {len(empty)} untranslated, e.g. {empty[:3]}"


@pytest.mark.parametrize(("domain", "lang"), CATALOGUES)
def test_plural_words_have_every_form_the_language_has(domain, lang):
    po = read_po(domain, lang)
    for message in entries(po):
        if isinstance(message.id, (tuple, list)):
            assert len(forms_of(message)) == po.num_plurals, f"{lang}/{domain}: {message.id[0]!r}"


PLACEHOLDER = re.compile(r"\{[A-Za-z_]\w*\}|%\([a-z_]+\)[sdr]|%[sdr]")


@pytest.mark.parametrize(("domain", "lang"), CATALOGUES)
def test_translations_keep_the_placeholders_of_their_words(domain, lang):
    """A translation may move {player} elsewhere, never drop it, rename it or add one."""
    wrong = []
    for message in entries(read_po(domain, lang)):
        ids = ids_of(message)
        want = sorted(PLACEHOLDER.findall(ids[-1]))
        for form in filter(None, forms_of(message)):  # an empty one is the test above's
            got = sorted(PLACEHOLDER.findall(form))
            # a singular may say "one" in words instead of {n}
            if got != want and not (len(ids) > 1 and set(got) <= set(want)):
                wrong.append((ids[0], form))
    assert not wrong, f"{lang}/{domain}: placeholders differ: {wrong[:3]}"


@pytest.mark.parametrize(("domain", "lang"), CATALOGUES)
def test_the_compiled_catalogue_is_the_written_one(domain, lang):
    """The .mo the board reads says what the .po says (docs/make_catalogues.py compiled it)."""
    po = read_po(domain, lang)
    compiled = io.BytesIO()
    mofile.write_mo(compiled, po, use_fuzzy=False)
    compiled.seek(0)
    want = gettext.GNUTranslations(compiled)._catalog
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo").open("rb") as f:
        have = gettext.GNUTranslations(f)._catalog
    want.pop("", None), have.pop("", None)  # the headers: their dates are not the words
    assert have == want, f"{lang}/{domain}.mo is not compiled from {lang}/{domain}.po: run docs/make_catalogues.py"


@pytest.mark.parametrize("domain", DOMAINS)
def test_romanian_is_written_with_comma_below(domain):
    """ș and ț, as Romanian is written; the cedilla letters ş ţ are a keyboard's mistake."""
    text = (LOCALE / "ro" / "LC_MESSAGES" / f"{domain}.po").read_text(encoding="utf-8")
    assert not re.search("[şţŞŢ]", text)


def test_no_function_hides_the_catalogue_behind_a_throwaway_name():
    """`_, rest = pair` inside a function makes `_` local there: a `_("...")` in it would then
    call a string. Modules that take `_` from a catalogue keep the name for it."""
    hidden = []
    for path in sorted((ROOT / "controller").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not any(isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_" for t in node.targets)
                   for node in tree.body):
            continue
        for function in ast.walk(tree):
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                hidden += [f"{path.relative_to(ROOT)}:{line}" for line in _local_stores(function)]
    assert not hidden, f"a throwaway `_` where `_` is the catalogue's: {hidden}"


def _local_stores(function) -> list[int]:
    """Lines where `function` itself binds `_` (a comprehension's variables are its own)."""
    found, waiting = [], list(ast.iter_child_nodes(function))
    while waiting:
        node = waiting.pop()
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda,
                             ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store):
            found.append(node.lineno)
        waiting.extend(ast.iter_child_nodes(node))
    return found


# --- choosing ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("environ", "lang"), [
    ({}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "ro_RO.UTF-8"}, "ro"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_MESSAGES": "ro_RO", "LANG": "de_DE"}, "ro"),
    ({"LC_ALL": "C", "LANG": "de_DE"}, "en"),
    ({"LANGUAGE": "fr:ro", "LANG": "de_DE"}, "ro"),
    ({"LANGUAGE": "fr", "LANG": "de_DE"}, "de"),
])
def test_the_command_line_follows_the_environment_as_gettext_does(environ, lang):
    assert from_environment(environ) == lang


@pytest.mark.parametrize(("header", "lang"), [
    ("ro-RO,ro;q=0.9,en-US;q=0.8,en;q=0.7", "ro"),
    ("fr-FR,fr;q=0.9,de;q=0.8,en;q=0.5", "de"),
    ("en;q=0.3,de;q=0.9", "de"),
    ("fr", None), ("", None), (None, None), ("de;q=0", None), ("de;q=x", None),
])
def test_a_browser_gets_the_language_it_wants_most_of_ours(header, lang):
    assert from_accept_language(header) == lang


def test_tags_are_read_whatever_their_spelling():
    assert [supported(t) for t in ("DE", "ro-RO", "de_AT.UTF-8", "en_GB@euro", "pt", "")] == \
        ["de", "ro", "de", "en", None, None]


def test_numbers_and_dates_are_written_as_each_language_writes_them():
    import datetime

    day = datetime.date(2026, 12, 1)
    seen = {}
    for lang in LANGUAGES:
        with speaking(lang):
            seen[lang] = (forms.number(1234.5, 1), forms.date(day))
    assert seen["en"][0] == "1,234.5" and seen["de"][0] == "1.234,5" and seen["ro"][0] == "1.234,5"
    assert seen["de"][1] == "01.12.2026" and "2026" in seen["ro"][1] and seen["ro"][1] != seen["en"][1]


def test_a_word_is_looked_up_in_the_language_in_use_and_falls_back_on_english():
    with speaking("de"):
        german = PLAY.gettext("Black")
    with speaking("xx"):
        fallback = PLAY.gettext("Black")
    assert german != "Black" and fallback == "Black"
