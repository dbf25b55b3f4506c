"""The rules guides, docs/<lang>/rules.md: written by docs/make_rules.py from the games' rules
pages and the rules catalogue, they must be what that writes now; and the German and Romanian
rules pages are translated, every paragraph of them, Off Board's Romanian in its own rules' words."""

import importlib.util
import re
from pathlib import Path

import pytest
from reedboard.controller.games import catalog
from reedboard.controller.games.rules_text import rules_text
from reedboard.controller.language.catalogue import translations

pytestmark = pytest.mark.component

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CEDILLAS = "şţŞŢ"  # Romanian writes ș ț with a comma below


def make_rules():
    spec = importlib.util.spec_from_file_location("make_rules", ROOT / "docs" / "make_rules.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def words(game: str) -> list[str]:
    """Every heading, paragraph, example title and caption of a game's rules page, in English."""
    text = rules_text(game)
    found = []
    for section in text["sections"]:
        found += [section["title"], *section["points"]]
    for _id, title, _moves, caption in text["diagrams"]:
        found += [title, caption]
    return found


GAMES = [game["name"] for game in catalog()]


@pytest.mark.parametrize("lang", ["en", "de", "ro"])
def test_the_rules_guide_is_current(lang):
    made = make_rules().guide(lang)
    path = ROOT / "docs" / lang / "rules.md"
    assert path.exists(), f"{path.relative_to(ROOT)} is missing: run python docs/make_rules.py"
    assert path.read_text(encoding="utf-8") == made, f"{path.relative_to(ROOT)} is out of date: run python docs/make_rules.py"


def test_the_check_says_whether_the_guides_are_current():
    assert make_rules().main(["--check"]) == 0


@pytest.mark.parametrize("lang", ["en", "de", "ro"])
def test_each_guide_leads_to_the_other_languages_and_has_every_game(lang):
    path = ROOT / "docs" / lang / "rules.md"
    text = path.read_text(encoding="utf-8")
    links = LINK.findall(text)
    others = {f"../{other}/rules.md" for other in ("en", "de", "ro") if other != lang}
    assert others <= set(links)
    for href in links:
        target, _, _anchor = href.partition("#")
        assert not target or (path.parent / target).resolve().exists(), href
    titles = [line[3:] for line in text.splitlines() if line.startswith("## ")]
    assert titles == [game["title"] for game in catalog()]


@pytest.mark.parametrize("lang", ["de", "ro"])
@pytest.mark.parametrize("game", GAMES)
def test_every_paragraph_of_the_rules_page_is_translated(lang, game):
    _ = translations("rules", lang).gettext
    same = [text for text in words(game) if _(text) == text or not _(text).strip()]
    assert same == [], f"{lang}: not translated"
    guide = (ROOT / "docs" / lang / "rules.md").read_text(encoding="utf-8").replace("\\", "")
    assert [text for text in words(game) if _(text) not in guide] == []


@pytest.mark.parametrize("lang", ["de", "ro"])
@pytest.mark.parametrize("game", GAMES)
def test_the_translations_keep_the_numbers_and_the_notation(lang, game):
    _ = translations("rules", lang).gettext
    token = re.compile(r"[A-Za-z]*\d[\w+-]*")  # 61, a7, C3-D4, B2-B3x1, S2+2, +E5 keeps its E5
    changed = [(text, _(text)) for text in words(game) if sorted(token.findall(text)) != sorted(token.findall(_(text)))]
    assert changed == []


def test_the_romanian_off_board_rules_speak_as_the_games_own_rules():
    _ = translations("rules", "ro").gettext
    text = " ".join(_(said) for said in words("offboard")).lower()
    assert "bile vii" in text or "bilele vii" in text
    assert "spații țintă" in text or "spațiile țintă" in text


def test_romanian_has_no_cedilla_letters():
    _ = translations("rules", "ro").gettext
    texts = [_(text) for game in GAMES for text in words(game)]
    texts.append((ROOT / "docs" / "ro" / "rules.md").read_text(encoding="utf-8"))
    assert [text for text in texts if any(letter in text for letter in CEDILLAS)] == []
