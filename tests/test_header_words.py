"""A game's set-up in the player's language. The page's moves card shows the record's header
lines (`layout belgian-daisy`, `board default`, `first white`) in words of the page's language,
the record itself keeping its notation; `reedboard show` prints its diagram's words (Abalone's
marbles pushed off, Off Board's scoring spaces and score) in the language in use. What is
expected is read from the committed catalogues."""

from __future__ import annotations

import re

import pytest

from test_cli_languages import catalogue, reedboard

pytestmark = pytest.mark.system

LANGS = ("de", "ro")


def said(lang: str, domain: str, msgid: str) -> str:
    words = catalogue(domain, lang)[msgid]
    assert words, f"{lang}/{domain}.po leaves {msgid!r} untranslated"
    return words


# --- the moves card ----------------------------------------------------------------------------------
def header_card(open_page, tmp_path, game, lang="de", expected: list[str] | None = None, init_script=None) -> list[str]:
    """The lines of the live game's moves card over the record, on a page in `lang`; with
    `expected`, once they read so (the start options' words come with the catalogue, which the
    page asks for again in its language) or the wait runs out."""
    from in_browser import FAST, TIMEOUT, expect
    from reedboard.controller.session.play_session import PlaySession
    from reedboard.controller.web.background import served

    session = PlaySession(game, games_dir=tmp_path / game.name, settings=FAST)
    session.page_language = lang
    with served(session) as url:
        page = open_page(url, session=session, init_script=init_script)
        expect(page.locator("html")).to_have_attribute("lang", lang, timeout=TIMEOUT)
        lines = page.locator('[data-role="header"] > div')
        expect(lines.first).not_to_be_empty(timeout=TIMEOUT)
        # the card is drawn again once the catalogue's words for the start options are in
        expect(page.locator('[data-role="turn"]')).not_to_be_empty(timeout=TIMEOUT)
        if expected is not None:
            expect(lines).to_have_text(expected, timeout=TIMEOUT)
        shown = lines.all_inner_texts()
        assert not page.errors
        return shown


def test_the_moves_card_names_the_abalone_layout_and_the_off_board_board_in_german(open_page, tmp_path):
    from reedboard.controller.games import OffBoard
    from reedboard.controller.games.abalone import Abalone

    layout = said("de", "page", "Start layout: {layout}").format(layout=said("de", "play", "Belgian daisy"))
    shown = header_card(open_page, tmp_path, Abalone("belgian-daisy"), expected=[layout])
    assert shown == [layout], shown  # "Startaufstellung: Belgian Daisy", not "layout belgian-daisy"
    assert not any(re.search(r"\blayout\b|belgian-daisy", line) for line in shown)

    shown = header_card(open_page, tmp_path, OffBoard(), expected=[said("de", "page", "Board: the standard board")])
    assert shown == [said("de", "page", "Board: the standard board")], shown
    assert not any("board default" in line for line in shown)


# The page asks for the games' catalogue before it knows its language, and again in it; on a slow
# network the first (English) answer may come last.
ENGLISH_CATALOGUE_LATE = """
const fetchNow = window.fetch;
window.fetch = async (url, options) => {
  const answer = await fetchNow(url, options);
  const lang = options && options.headers && options.headers["Accept-Language"];
  if (String(url).endsWith("api/catalog") && lang === "en") await new Promise((done) => setTimeout(done, 1500));
  return answer;
};
"""


def test_a_late_catalogue_in_the_first_language_leaves_the_set_up_in_the_pages_language(open_page, tmp_path):
    from reedboard.controller.games.abalone import Abalone

    layout = said("de", "page", "Start layout: {layout}").format(layout=said("de", "play", "Belgian daisy"))
    shown = header_card(open_page, tmp_path, Abalone("belgian-daisy"), init_script=ENGLISH_CATALOGUE_LATE, expected=[layout])
    assert shown == [layout], shown


def test_the_moves_card_says_who_moves_first_in_big_balls_in_german(open_page, tmp_path):
    from reedboard.controller.games import BigBalls

    shown = header_card(open_page, tmp_path, BigBalls(first="white"))
    white, black = said("de", "page", "white"), said("de", "page", "black")
    assert shown[-1] == said("de", "page", "{player} moves first").format(player=white), shown
    stones = said("de", "page", "{player}'s stones: {stones}")
    assert shown[0].startswith(stones.split("{player}")[0]) and black in shown[0], shown
    assert said("de", "page", "{number} on {hollow}").format(number=3, hollow="c1") in " ".join(shown), shown
    assert not any(re.match(r"(first|black|white)\b", line) or "=" in line for line in shown), shown


# --- reedboard show -----------------------------------------------------------------------------------
ENGLISH = re.compile(r"(?i)\b(pushed off|sectors?|scoring spaces|score|waiting|by black|by white)\b")


@pytest.mark.parametrize("lang", LANGS)
def test_show_prints_its_diagram_words_in_the_language_in_use(lang):
    english = reedboard("--lang", "en", "show", "offboard")
    assert english.returncode == 0 and ENGLISH.search(english.stdout), english.stdout  # the words looked for
    for game, moves, msgid in (
        ("abalone", ["C3D4"], "pushed off: by black {black}, by white {white}"),
        ("offboard", [], "score: red {red}, yellow {yellow}"),
    ):
        result = reedboard("show", game, *moves, LANGUAGE=lang)
        assert result.returncode == 0, result.stderr
        diagram = "\n".join(line for line in result.stdout.splitlines() if not re.match(r"[A-I]  ", line))
        assert not ENGLISH.search(diagram), diagram
        head = said(lang, "play", msgid).split("{")[0]
        assert head in diagram, diagram
