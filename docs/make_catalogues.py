"""Brings the catalogues up to date with the sources: python docs/make_catalogues.py (in the
project's environment)

For each catalogue (controller/language/catalogue.py: play, commands, page, rules) it extracts
the words from the sources into locale/<domain>.pot, adds new words to (and drops gone words
from) each language's locale/<lang>/LC_MESSAGES/<domain>.po, and compiles the .mo files the
board reads. New words come in untranslated: translate them in the .po, then run this again.
tests/test_language.py fails while a catalogue is behind the sources or has a word untranslated.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

from babel.messages import mofile, pofile
from babel.messages.catalog import Catalog

from reedboard.controller.language.catalogue import DOMAINS, LANGUAGES, locale_dir
from reedboard.controller.language.extraction import PROJECT, extract


def read_po(path: Path, lang: str, domain: str) -> Catalog:
    if path.is_file():
        with path.open("rb") as f:
            return pofile.read_po(f, locale=lang, domain=domain)
    return Catalog(locale=lang, domain=domain, project=PROJECT, fuzzy=False, header_comment=HEADER,
                   copyright_holder=PROJECT, last_translator="reedboard", language_team=f"reedboard {lang}")


HEADER = "# The reedboard's words in one language, one catalogue.\n# Kept with docs/make_catalogues.py; translate the empty msgstr entries."


def write_if_changed(path: Path, write) -> None:
    """Writes with `write(file)` unless only the dates in the header would change."""
    fresh = io.BytesIO()
    write(fresh)
    undated = lambda data: re.sub(rb'(POT-Creation|PO-Revision)-Date: [^"\\\n]*', b"", data)  # noqa: E731
    if not path.is_file() or undated(path.read_bytes()) != undated(fresh.getvalue()):
        path.write_bytes(fresh.getvalue())


def main(argv: list[str]) -> None:
    root = Path(locale_dir())
    for domain in argv or DOMAINS:  # python docs/make_catalogues.py page: that catalogue only
        template = extract(domain)
        write_if_changed(root / f"{domain}.pot",
                         lambda f: pofile.write_po(f, template, width=100, omit_header=False, sort_output=False))
        for lang in LANGUAGES[1:]:
            folder = root / lang / "LC_MESSAGES"
            folder.mkdir(parents=True, exist_ok=True)
            po = read_po(folder / f"{domain}.po", lang, domain)
            po.update(template, no_fuzzy_matching=True, update_header_comment=False)
            po.obsolete.clear()
            po.fuzzy = False
            write_if_changed(folder / f"{domain}.po",
                             lambda f: pofile.write_po(f, po, width=100, sort_output=False, include_previous=False))
            write_if_changed(folder / f"{domain}.mo", lambda f: mofile.write_mo(f, po, use_fuzzy=False))
            missing = sum(1 for m in po if m.id and not (all(m.string) if isinstance(m.string, tuple) else m.string))
            print(f"{lang}/{domain}: {len(template)} words, {missing} untranslated")


if __name__ == "__main__":
    main(sys.argv[1:])
