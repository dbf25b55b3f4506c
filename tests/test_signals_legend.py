"""The lights' legend is one table (words.legend): it names every light the board shows,
its looks agree with what blinks, and the rules page and the players' guide say what it says."""

import re
from pathlib import Path

import pytest

from reedboard.controller.words.legend import LIGHT_LEGEND
from reedboard.controller.core.signals import BLINKING, CELL_COLOURS, PALETTE
from reedboard.controller.games import GAMES
from reedboard.controller.web.rules import rules_page

pytestmark = pytest.mark.component

ROOT = Path(__file__).resolve().parent.parent
ROW = re.compile(r"^\|\s*([^|\n]+?)\s*\|\s*`(\w+)`\s*\|\s*([^|\n]+?)\s*\|\s*([^|\n]+?)\s*\|\s*$", re.M)


def players_table() -> list[tuple[str, str, str, str]]:
    """The rows of docs/players.md's "What the lights mean" table: (look, name, means, do)."""
    text = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
    section = text.split("## What the lights mean", 1)[1].split("\n## ", 1)[0]
    return [match.groups() for match in ROW.finditer(section)]


def test_the_legend_names_every_light_once_and_only_those():
    names = [light.name for light in LIGHT_LEGEND]
    assert len(names) == len(set(names))
    assert set(names) == CELL_COLOURS
    assert set(names) <= set(PALETTE)


def test_a_look_says_blinking_exactly_for_the_lights_that_blink():
    for light in LIGHT_LEGEND:
        blinking = light.look.endswith(", blinking")
        assert blinking or light.look.endswith(", steady"), light.name
        assert blinking == (light.name in BLINKING), light.name


def test_the_players_guide_holds_the_legend_row_for_row():
    assert players_table() == [(light.look, light.name, light.means, light.do) for light in LIGHT_LEGEND]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_rules_page_shows_the_legend_in_the_game_s_words_where_it_has_them(game):
    cls = GAMES[game]
    example = cls.example_start()
    own, actions = example.light_meanings(), example.light_actions()
    shown = rules_page(game)["lights"]
    # the lights of its game only: "movable" where a die chooses (or stones are identified),
    # "place" where a shuffle is guided stone by stone
    legend = [light for light in LIGHT_LEGEND
              if (light.name != "movable" or cls.uses_die or "identify" in cls.setup_modes)
              and (light.name != "place" or "shuffle" in cls.setup_modes)]
    assert [(light["name"], light["look"]) for light in shown] == [(light.name, light.look) for light in legend]
    for light, row in zip(shown, legend):
        assert light["means"] == own.get(row.name, row.means)
        assert light["do"] == actions.get(row.name, row.do)
