"""The board's page and the club's page in English, German and Romanian.

Every word a player reads on the pages is marked for the "page" catalogue: the HTML's text and
attributes (data-i18n, data-i18n-attr), the scripts' words (_(), ngettext(), N_()); the
catalogue holds them all, translated. In a real browser the page starts in the browser's
language (or the board's [page] language), switches with the header's choice and keeps it
after a reload, and shows the board's own words (the prompt, the notes, a refusal) in it as the
board's catalogues say them. With REEDBOARD_SCREENSHOTS naming a folder, the pages in German and
Romanian are written there as pictures, on a desktop and on a phone.
"""

from __future__ import annotations

import html.parser
import json
import os
import re
from pathlib import Path

import pytest
from babel.messages import pofile

from reedboard.controller.language.catalogue import locale_dir
from reedboard.controller.language.extraction import extract, words_of

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "controller" / "web" / "static"
CLUB = ROOT / "controller" / "broadcast" / "club" / "static"
PAGES = [WEB / "index.html", CLUB / "club.html", CLUB / "spectate.html"]
# a library shipped as it is (MQTT.js, *.min.js) says no words to the players
SCRIPTS = sorted(p for p in [*WEB.glob("*.js"), *CLUB.glob("*.js")] if not p.name.endswith(".min.js"))
LOCALE = Path(locale_dir())
LANGS = ("de", "ro")


def catalogue(lang: str, domain: str):
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return pofile.read_po(f, locale=lang, domain=domain)


# --- the HTML: every text a player reads is in a marked element -----------------------------------
# Text that is no word of any language, left as it is in every one:
NOT_WORDS = re.compile(
    r"^(?:[\W\d_]+"                # punctuation, symbols, numbers: "#", "2", "‹", "·"
    r"|reedboard"                  # the program's name (the page's title, the brand)
    r"|SVG|PNG)$")                 # the pictures' file formats
HIDDEN = {"script", "style", "code", "title", "svg"}  # not read as text (<code> is a command or a config line)


class _Texts(html.parser.HTMLParser):
    """Each text node of a page's body, with whether an element around it is marked data-i18n."""

    VOID = {"br", "img", "input", "meta", "link", "hr", "source"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.texts: list[tuple[int, str, bool, bool]] = []  # line, text, marked, hidden
        self.nested: list[tuple[int, str]] = []  # an element inside a marked one: line, tag

    def handle_starttag(self, tag, attrs):
        if self.stack and self.stack[-1][1]:
            self.nested.append((self.getpos()[0], tag))
        if tag not in self.VOID:
            self.stack.append((tag, "data-i18n" in dict(attrs)))

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if data.strip():
            marked = bool(self.stack) and self.stack[-1][1]
            hidden = any(tag in HIDDEN for tag, _ in self.stack)
            self.texts.append((self.getpos()[0], words_of(data), marked, hidden))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_text_of_the_page_is_marked_for_the_catalogue(page):
    parser = _Texts()
    parser.feed(page.read_text("utf-8"))
    unmarked = [(line, text) for line, text, marked, hidden in parser.texts
                if not marked and not hidden and not NOT_WORDS.match(text)]
    assert not unmarked, f"{page.name}: text outside a data-i18n element: {unmarked}"
    # a marked element holds text only: its words are one msgid, put back as text
    assert not parser.nested, f"{page.name}: elements inside a data-i18n element: {parser.nested}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_attribute_a_player_reads_is_marked(page):
    text = page.read_text("utf-8")
    for tag in re.finditer(r"<\w+\s[^>]*>", text):
        attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', tag.group(0)))
        named = set(attrs.get("data-i18n-attr", "").split())
        for name in ("title", "aria-label", "placeholder", "alt"):
            if attrs.get(name) and re.search(r"[A-Za-z]{2}", attrs[name]):
                assert name in named, f"{page.name}: {name}={attrs[name]!r} is not in data-i18n-attr"


# --- the scripts: every string that reads as words is marked ------------------------------------------
def js_strings(source: str) -> list[tuple[int, str, str | None]]:
    """Each string of a script: (line, its text with ${...} taken out, the function it is the
    direct argument of, or None). Comments and regular expressions are skipped; a template
    literal's ${...} parts are read as code, their own strings included."""
    found: list[tuple[int, str, str | None]] = []
    calls: list[str | None] = []  # per open bracket: the name called with it
    i, n, line = 0, len(source), 1
    last = ""  # the last significant token, to tell a regular expression from a division
    braces: list[str] = []  # "{" of code, "${" of a template literal

    def template(start: int) -> int:
        """Reads a template literal from after its backtick; returns where it ends."""
        nonlocal line
        j, text = start, []
        while j < n and source[j] != "`":
            if source[j] == "\\":
                text.append(source[j:j + 2])
                j += 2
                continue
            if source.startswith("${", j):
                text.append("\0")  # what the expression gives: no word of its own
                depth, j = 1, j + 2
                code_start = j
                while j < n and depth:  # the expression: strings, templates and brackets inside
                    c = source[j]
                    if c in "\"'":
                        k = j + 1
                        while source[k] != c:
                            k += 2 if source[k] == "\\" else 1
                        j = k + 1
                        continue
                    if c == "`":
                        j = template(j + 1) + 1
                        continue
                    depth += c == "{"
                    depth -= c == "}"
                    j += 1
                found.extend((line + l2, s, f) for l2, s, f in js_strings(source[code_start:j - 1]))
                continue
            if source[j] == "\n":
                line += 1
            text.append(source[j])
            j += 1
        found.append((line, "".join(text), calls[-1] if calls else None))
        return j

    while i < n:
        c = source[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if c.isspace():
            i += 1
            continue
        if source.startswith("//", i):
            i = source.find("\n", i) if "\n" in source[i:] else n
            continue
        if source.startswith("/*", i):
            end = source.index("*/", i + 2)
            line += source.count("\n", i, end)
            i = end + 2
            continue
        if c in "\"'":
            j = i + 1
            while source[j] != c:
                j += 2 if source[j] == "\\" else 1
            found.append((line, source[i + 1:j], calls[-1] if calls else None))
            i, last = j + 1, "string"
            continue
        if c == "`":
            i, last = template(i + 1) + 1, "string"
            continue
        if c == "/" and (last in ("", "(", ",", "=", ":", "[", "!", "&", "|", "?", "{", "}", ";", "return", "+", "-")):
            j, in_class = i + 1, False  # a regular expression
            while source[j] != "/" or in_class:
                if source[j] == "\\":
                    j += 1
                elif source[j] == "[":
                    in_class = True
                elif source[j] == "]":
                    in_class = False
                j += 1
            j += 1
            while j < n and source[j].isalpha():
                j += 1
            i, last = j, "regexp"
            continue
        m = re.match(r"[A-Za-z_$][\w$]*", source[i:])
        if m:
            word = m.group(0)
            i += len(word)
            last = word if word == "return" else "name:" + word
            continue
        if c in "([{":
            calls.append(last[5:] if c == "(" and last.startswith("name:") else None)
        elif c in ")]}" and calls:
            calls.pop()
        last = c
        i += 1
    return found


MARKING = {"_", "ngettext", "N_"}
LOOKS_LIKE_WORDS = re.compile(r"(?:^|\s)[A-Za-zÀ-ɏ]+[,.:;!?…]?\s+[A-Za-zÀ-ɏ]+[,.:;!?…]?(?=\s|$)")
# Strings with letter-words and a space that are no player's words, each with why:
NOT_PLAYERS_WORDS = {
    "input, textarea, select": "a CSS selector (the keys that step a replay are not taken from a form field)",
    "use strict": "the classic scripts' directive",
}
STYLE_CLASSES = {name for sheet in (WEB / "style.css", CLUB / "club.css")
                 for name in re.findall(r"\.([A-Za-z][\w-]*)", sheet.read_text("utf-8"))}


def words_in(text: str) -> bool:
    """Whether a string reads as words: two letter-words with a space, outside HTML tags, and
    not a list of the stylesheets' classes ("diagram card")."""
    outside_tags = re.sub(r"<[^<>]*>", " ", text)
    if all(token in STYLE_CLASSES for token in outside_tags.split()):
        return False
    return bool(LOOKS_LIKE_WORDS.search(outside_tags))


def test_the_string_reader_finds_marked_and_unmarked_words():
    source = r'''
        const a = _("Roll the die"), b = `${x} to move`, c = ngettext("{n} game", "{n} games", n);
        const d = /[&<>"']/g, e = "a b" / 2, f = `<b class="x y">${_("Both players")}</b>`;  // "not read"
        /* "nor this" */ el.textContent = format(_("{player} wins"), { player: `${y ? `${z} moves first` : ""}` });'''
    strings = {text: call for _, text, call in js_strings(source)}
    assert strings["Roll the die"] == "_" and strings["{n} games"] == "ngettext" and strings["Both players"] == "_"
    assert strings["\0 to move"] is None and "\0 moves first" in strings
    assert "not read" not in strings and "nor this" not in strings and '[&<>"\']' not in strings
    assert words_in("\0 to move") and not words_in('<b class="x y"> </b>') and not words_in("[data-role=games] tbody")
    assert not words_in("diagram card") and words_in("diagram cards")


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_every_string_of_words_in_the_scripts_is_marked(script):
    unmarked = [(line, text) for line, text, call in js_strings(script.read_text("utf-8"))
                if call not in MARKING and words_in(text) and text not in NOT_PLAYERS_WORDS]
    assert not unmarked, f"{script.name}: words not marked with _(), ngettext() or N_(): {unmarked}"


# --- the catalogue: up to date, every word translated ---------------------------------------------------
PLACEHOLDER = re.compile(r"\{\w+\}")


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_catalogue_holds_every_marked_word_translated(lang):
    template = extract("page")
    po = catalogue(lang, "page")
    wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    held = {m.id if isinstance(m.id, str) else m.id[0] for m in po if m.id}
    assert wanted == held, f"run docs/make_catalogues.py page: missing {wanted - held}, gone {held - wanted}"
    for message in po:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"{lang}: untranslated {message.id!r}"
        if isinstance(message.id, tuple):
            assert len(strings) == (3 if lang == "ro" else 2), message.id
        for text in strings:  # the same {placeholders} as the English (a count's: its plural's)
            assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(ids[-1])), (lang, message.id, text)
            if lang == "ro":
                assert not re.search("[şţŞŢ]", text), f"Romanian with cedilla, not comma below: {text!r}"


def test_every_marked_word_of_the_scripts_reaches_the_catalogue():
    """Babel reads _() only outside a template literal's ${...}: words marked inside one would be
    shown but never translated."""
    template = extract("page")
    ids = {text for m in template if m.id for text in ((m.id,) if isinstance(m.id, str) else m.id)}
    lost = [(script.name, line, text) for script in SCRIPTS for line, text, call in js_strings(script.read_text("utf-8"))
            if call in MARKING and text not in ids]
    assert not lost, f"marked words the catalogue does not get (take them out of the template literal): {lost}"


# --- in a real browser ---------------------------------------------------------------------------------
def words(lang: str, domain: str):
    """`tr(msgid)`: the words of `msgid` in `lang` as the board's catalogue has them (its English
    where the catalogue has no translation yet, as gettext shows it)."""
    po = catalogue(lang, domain)

    def tr(msgid: str) -> str:
        message = po.get(msgid)
        return message.string if message is not None and message.string else msgid
    return tr


def pattern(template: str) -> str:
    """A regular expression for `template`'s words with anything in its {placeholders}."""
    return "".join(".+?" if PLACEHOLDER.fullmatch(part) else re.escape(part)
                   for part in re.split(r"(\{\w+\})", template))


def open_in(browser, url, session, locale, viewport=None):
    """A page on `url` in a browser whose language is `locale` (its Accept-Language, navigator.languages)."""
    from in_browser import DESKTOP

    context = browser.new_context(locale=locale, viewport=viewport or DESKTOP)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(error))
    page.session = session
    page.goto(url)
    return context, page


def in_language(page, lang):
    from in_browser import TIMEOUT, expect

    expect(page.locator("html")).to_have_attribute("lang", lang, timeout=TIMEOUT)


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_plays_in_the_browsers_language_and_switches(browser, tmp_path, lang):
    from in_browser import FAST, TIMEOUT, cell, click, expect, record, wait_for_prompt
    from reedboard.controller.games import BigBalls
    from reedboard.controller.session.play_session import PlaySession, ScriptedDie
    from reedboard.controller.web.background import served
    from reedboard.controller.web.rules import rules_page

    page_words, play, rules = words(lang, "page"), words(lang, "play"), words(lang, "rules")
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([3, 1]))
    with served(session) as url:
        context, page = open_in(browser, url, session, {"de": "de-DE", "ro": "ro-RO"}[lang])
        try:
            wait_for_prompt(page, "roll")
            in_language(page, lang)
            expect(page.locator('[data-tab="live"]')).to_have_text(page_words("Live game"))
            expect(page.locator('[data-role="language"]')).to_have_value(lang)
            status = page.locator('[data-role="status"]')
            roll_words = play("{player}: roll the die, or move a big ball").format(player=play("Black"))
            expect(status).to_have_text(roll_words)
            assert session.snapshot()["words"][lang]["message"] == roll_words  # the page shows the board's words

            # the roll, then the die pressed again: the refusal, in the notes
            page.click('[data-action="die"]')
            die = page.locator('[data-role="die"]')
            expect(die).to_have_text("3", timeout=TIMEOUT)
            # (the page's button is off while the die shows a number: the board's own button is pressed)
            page.evaluate("""() => fetch('api/press', {method: 'POST', headers: {'Content-Type': 'application/json'},
                body: JSON.stringify({button: 'die'})})""")
            refused = play("the die cannot roll now: {reason}").format(
                reason=play("the die already shows {roll}: move a stone for it").format(roll=3))
            notes = page.locator('[data-role="notes"] li')
            expect(notes.first).to_contain_text(refused, timeout=TIMEOUT)

            # a move by clicks, and the turn line in the page's words
            click(page, "c1")
            click(page, "d1")
            expect(page.locator('[data-role="record"] > li')).to_have_count(1, timeout=TIMEOUT)
            assert record(page) == ["3 c1-d1"]
            expect(page.locator('[data-role="turn"]')).to_have_text(
                page_words("{player} to move").format(player=page_words("white")))

            # White rolls 1 and moves the wrong stone: what to put right, in the board's words
            page.click('[data-action="die"]')
            expect(die).to_have_text("1", timeout=TIMEOUT)
            click(page, "e3")
            click(page, "d4")
            wait_for_prompt(page, "put_back")
            expect(cell(page, "e3")).to_have_attribute("data-light", "fill")
            expect(status).to_have_text(re.compile(pattern(play("move {piece} from {src} back to {dst}"))))
            expect(status).to_contain_text("e3")
            expect(notes.first).to_have_text(re.compile(r"\S+s " + pattern(play("illegal: {what}"))))
            shown_notes = notes.evaluate_all("items => items.map((li) => li.textContent)")
            said = session.snapshot()["words"][lang]["notes"]
            assert [text.split(" ", 1)[1] for text in shown_notes] == [said[n] for n in sorted(said, key=int, reverse=True)]

            # the rules, asked for in the page's language
            page.click('[data-tab="rules"]')
            expect(page.locator('[data-role="rules"]')).to_have_attribute("data-game", "bigballs", timeout=TIMEOUT)
            expect(page.locator('[data-role="rules-title"]')).to_have_text(
                page_words("{game}: the rules").format(game="Big Balls"))
            first_section = rules_page("bigballs", "en")["sections"][0]["title"]
            expect(page.locator('[data-role="rules-text"] h2').first).to_have_text(rules(first_section))
            expect(page.locator(".lights-legend h2")).to_have_text(page_words("What the lights mean"))

            # the header's choice: another language at once, kept after a reload
            other = next(code for code in ("en", *LANGS) if code != lang)
            other_words = words(other, "page") if other != "en" else (lambda text: text)
            page.locator('[data-role="language"]').select_option(other)
            in_language(page, other)
            expect(page.locator('[data-tab="rules"]')).to_have_text(other_words("Rules"))
            expect(page.locator('[data-role="rules-title"]')).to_have_text(
                other_words("{game}: the rules").format(game="Big Balls"), timeout=TIMEOUT)
            page.click('[data-tab="live"]')
            expect(page.locator('[data-role="turn"]')).to_have_text(
                other_words("{player} to move").format(player=other_words("white")))
            page.reload()
            wait_for_prompt(page, "put_back")
            in_language(page, other)
            expect(page.locator('[data-role="language"]')).to_have_value(other)
            expect(page.locator('[data-tab="live"]')).to_have_text(other_words("Live game"))
            assert not page.errors
        finally:
            context.close()


def test_the_boards_page_language_comes_before_the_browsers(browser, tmp_path):
    from in_browser import FAST, TIMEOUT, expect, wait_for_prompt
    from reedboard.controller.games import BigBalls
    from reedboard.controller.session.play_session import PlaySession
    from reedboard.controller.web.background import served

    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST)
    session.page_language = "ro"  # [page] language = "ro"
    with served(session) as url:
        context, page = open_in(browser, url, session, "en-US")
        try:
            wait_for_prompt(page, "roll")
            in_language(page, "ro")
            expect(page.locator('[data-tab="live"]')).to_have_text(words("ro", "page")("Live game"), timeout=TIMEOUT)
            expect(page.locator('[data-role="language"]')).to_have_value("ro")
            # the player's own choice comes first, and is kept
            page.locator('[data-role="language"]').select_option("en")
            in_language(page, "en")
            page.reload()
            wait_for_prompt(page, "roll")
            in_language(page, "en")
            expect(page.locator('[data-tab="live"]')).to_have_text("Live game")
            assert not page.errors
        finally:
            context.close()


# --- pictures of the page in German and Romanian ----------------------------------------------------------
SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


@pytest.mark.parametrize("lang", LANGS)
def test_pictures_of_the_page_in_german_and_romanian(browser, tmp_path, lang):
    """The live game and the rules, on a desktop and a phone, written where REEDBOARD_SCREENSHOTS
    says (nothing is written without it); a label too long for its place shows there."""
    from in_browser import FAST, TIMEOUT, click, expect, wait_for_prompt
    from reedboard.controller.games import BigBalls
    from reedboard.controller.session.play_session import PlaySession, ScriptedDie
    from reedboard.controller.web.background import served

    folder = os.environ.get("REEDBOARD_SCREENSHOTS")
    session = PlaySession(BigBalls(), games_dir=tmp_path, settings=FAST, die=ScriptedDie([3, 1]))
    session.page_language = lang
    with served(session) as url:
        context, page = open_in(browser, url, session, "en-GB", SCREENS["desktop"])
        try:
            wait_for_prompt(page, "roll")
            page.click('[data-action="die"]')
            expect(page.locator('[data-role="die"]')).to_have_text("3", timeout=TIMEOUT)
            click(page, "c1")
            click(page, "d1")
            page.click('[data-action="die"]')
            wait_for_prompt(page, "move")
            in_language(page, lang)
        finally:
            context.close()
        for screen, viewport in SCREENS.items():
            context, page = open_in(browser, url, session, "en-GB", viewport)
            try:
                wait_for_prompt(page, "move")
                in_language(page, lang)
                page.locator(".new-game summary").click()  # the dialog's labels are the longest
                expect(page.locator('[data-role="name-fields"] input')).to_have_count(2)
                overflowing = page.evaluate("""() => Array.from(document.querySelectorAll('button, .tab, label'))
                    .filter((el) => el.offsetParent && el.scrollWidth > el.clientWidth + 1)
                    .map((el) => el.textContent.trim())""")
                assert not overflowing, f"{lang} {screen}: words wider than their place: {overflowing}"
                if folder:
                    Path(folder).mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(Path(folder) / f"{lang}-{screen}-live.png"), full_page=True)
                page.click('[data-tab="rules"]')
                expect(page.locator('[data-role="rules"]')).to_have_attribute("data-game", "bigballs", timeout=TIMEOUT)
                page.wait_for_function("document.querySelectorAll('[data-role=diagrams] figure').length > 0")
                if folder:
                    page.screenshot(path=str(Path(folder) / f"{lang}-{screen}-rules.png"), full_page=True)
                assert not page.errors
            finally:
                context.close()
