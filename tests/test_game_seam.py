"""The game seam: outside controller/games/ nothing names a game, and a new game needs only
its module and one registry entry.

The first tests search the tree as the issue's "must show" does. The others register a toy
game (a row of cells filled in turn) in the registry for the length of a test and take it
through the record, the journal and trace headers, the command line and the rules page, none of
which was changed for it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import datetime, timezone
from pathlib import Path

import pytest

from reedboard.controller.games import GAMES, Footprint, Game, GameOption, MoveError, Outcome, Termination, catalog
from reedboard.controller.games import game_from_header

ROOT = Path(__file__).resolve().parents[1]
GAME_NAMES = re.compile(r"bigballs|offboard|abalone|BigBalls|OffBoard|Abalone")
PAGE_NAMES = re.compile(r"bigballs|offboard|abalone")
HAL_IMPORTS = re.compile(r"^\s*(from|import) (reedboard\.)?controller", re.MULTILINE)
# the packages are installed as reedboard.*: a bare `controller`, `hal` or `hardware` would only
# be found from the source tree, never in an installed package
BARE_IMPORTS = re.compile(r"^\s*(from|import) (controller|hal|hardware|firmware)\b")


def lines_matching(files, pattern: re.Pattern) -> list[str]:
    found = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_no_module_outside_the_games_names_a_game():
    games = ROOT / "controller" / "games"
    files = [p for p in sorted((ROOT / "controller").rglob("*.py")) if games not in p.parents]
    assert lines_matching(files, GAME_NAMES) == []


def test_the_pages_script_names_no_game():
    assert lines_matching(sorted((ROOT / "controller" / "web" / "static").glob("*.js")), PAGE_NAMES) == []


def test_hal_imports_nothing_from_the_controller():
    assert lines_matching(sorted((ROOT / "hal").rglob("*.py")), HAL_IMPORTS) == []


def test_every_import_names_the_installed_package():
    files = [p for folder in ("controller", "hal", "hardware", "tests", "bench", "docs")
             for p in sorted((ROOT / folder).rglob("*.py"))]
    assert lines_matching(files, BARE_IMPORTS) == []


def test_every_package_of_the_tree_is_installed():
    """pyproject.toml lists the packages (installed as reedboard.*, from the tree's folders)."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders = {p.parent.relative_to(ROOT).as_posix() for folder in ("controller", "hal", "hardware", "firmware")
               for p in (ROOT / folder).rglob("__init__.py")}
    listed = set()
    for package in config["packages"]:
        top, _, rest = package.removeprefix("reedboard.").partition(".")
        listed.add("/".join([config["package-dir"][f"reedboard.{top}"], *([rest.replace(".", "/")] if rest else [])]))
    assert listed == folders


# --- a toy game, registered for a test -----------------------------------------------------------
class Toy(Game):
    """North and South put a stone on a free cell of a row in turn; the one who fills the row wins."""

    name = "toy"
    title = "Toy Row"
    players = ("north", "south")
    board = "toy"
    options = (GameOption("length", "the number of cells (default 4)", choices=("3", "4", "5")),)
    header_keys = ("length",)

    def __init__(self, length: int = 4) -> None:
        super().__init__()
        self.length = length
        self._stones: dict[str, str] = {}

    @property
    def turn(self) -> str:
        return self.players[len(self.move_stack) % 2]

    @property
    def cells(self) -> tuple[str, ...]:
        return tuple(f"c{n}" for n in range(1, self.length + 1))

    def occupied(self) -> frozenset[str]:
        return frozenset(self._stones)

    def diagram(self) -> str:
        return " ".join(self._stones.get(c, ".")[:1].upper() or "." for c in self.cells) + f"\n{self.turn} to move"

    def copy(self) -> Toy:
        twin = Toy(self.length)
        twin._stones, twin.move_stack, twin._declared = dict(self._stones), list(self.move_stack), self._declared
        return twin

    def legal_moves(self) -> list[str]:
        return [] if self.outcome() else [c for c in self.cells if c not in self._stones]

    def push(self, move: str) -> None:
        self._stones[move] = self.turn
        self.move_stack.append(move)

    def pop(self) -> str:
        move = self.move_stack.pop()
        del self._stones[move]
        self._declared = None
        return move

    def footprint(self, move: str) -> Footprint:
        return Footprint(empties=frozenset(), fills=frozenset({move}))

    def parse_move(self, text: str) -> str:
        move = text.strip().lower()
        if move not in self.legal_moves():
            raise MoveError(f"{text!r}: no free cell {move} on the row")
        return move

    def rules_outcome(self) -> Outcome | None:
        if len(self._stones) == self.length:
            return Outcome(Termination.NO_MOVE, self._stones[self.move_stack[-1]])
        return None

    @classmethod
    def from_options(cls, *, length: str | None = None, **others) -> Toy:
        cls.refuse_foreign_options({"length": length, **others})
        return cls(int(length or 4))

    def start_header(self) -> dict:
        return {"length": self.length}

    @classmethod
    def from_header(cls, header: Mapping) -> Toy:
        cls.refuse_foreign_keys(header)
        length = header.get("length", 4)
        if length not in (3, 4, 5):
            raise ValueError(f'"length" is 3, 4 or 5, not {length!r}')
        return cls(length)

    def record_header(self) -> list[str]:
        return [f"length {self.length}"]

    def pieces(self) -> dict[str, str]:
        return {c: self._stones.get(c, "")[:1].upper() for c in self.cells}

    def result_details(self) -> str:
        return f"{len(self._stones)} stones"

    def winner_cells(self, winner: str) -> frozenset[str]:
        return frozenset(c for c, p in self._stones.items() if p == winner)

    def geometry(self) -> dict:
        cells = {c: [float(n), 0.0] for n, c in enumerate(self.cells)}
        return {"shape": "triangle", "cells": cells, "outline": [cells[self.cells[0]], cells[self.cells[-1]]],
                "goal": None, "sectors": [], "marbles": {"N": "black", "S": "white"}}

    def rules(self) -> dict:
        return {"sections": [{"title": "The aim", "points": ["Fill the row's last cell."]}],
                "diagrams": [("start", "The start", [], "An empty row."),
                             ("first", "A first move", ["c2"], "North put a stone on c2.")]}


@pytest.fixture
def toy(monkeypatch):
    """The toy in the registry for one test (every module reads the one GAMES dict)."""
    monkeypatch.setitem(GAMES, "toy", Toy)
    return Toy


def test_a_toy_game_gets_a_record_with_its_header_and_result(toy):
    from reedboard.controller.persist.record import header_lines, record_lines, result_line

    game = Toy(3)
    for move in ("c1", "c3", "c2"):
        game.play(move)
    assert header_lines(game) == ["game toy", "length 3"]
    assert result_line(game) == "1-0 no-move 3 stones"
    assert record_lines(game) == ["game toy", "length 3", "c1", "c3", "c2", "1-0 no-move 3 stones"]


def test_a_toy_games_journal_header_goes_round(toy, tmp_path):
    from reedboard.controller.persist.journal import Journal, export_lines, game_header, read_journal, rebuild

    game = Toy(5)
    assert game_header(game) == {"game": "toy", "length": 5}
    with Journal.create(tmp_path, game, {}, datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)) as journal:
        journal.append_move(1.0, "c4")
        journal.append_move(2.0, "c1")
        path = journal.path
    assert path.name.endswith("-toy.jsonl")
    resumed = rebuild(read_journal(path))
    assert isinstance(resumed.game, Toy) and resumed.game.length == 5 and resumed.game.move_stack == ["c4", "c1"]
    assert export_lines(path) == ["game toy", "length 5", "c4", "c1"]
    # the toy reads its own keys and refuses another game's
    other = next(key for cls in GAMES.values() for key in cls.header_keys if key not in Toy.header_keys)
    with pytest.raises(ValueError, match=f'"{other}" does not belong to a toy header'):
        game_from_header({"game": "toy", other: 1})


def test_a_toy_games_trace_header_is_read_and_written(toy, tmp_path):
    from reedboard.controller.persist.trace import TraceError, TraceWriter, read_trace

    path = tmp_path / "toy.trace.jsonl"
    with TraceWriter(path, {"game": "toy", "length": 3, "settings": {"settle": 0.5}}) as writer:
        writer.frame(0.0, [])
        writer.frame(1.0, ["c2"])
    trace = read_trace(path)
    assert isinstance(trace.game(), Toy) and trace.game().length == 3 and trace.events[-1].occupied == {"c2"}
    bad = tmp_path / "bad.trace.jsonl"
    bad.write_text(json.dumps({"game": "toy", "length": 9}) + "\n")
    with pytest.raises(TraceError, match='"length" is 3, 4 or 5'):
        read_trace(bad)


def test_the_command_line_offers_the_toy_and_its_options(toy, capsys):
    from reedboard.controller.commands.cli import main

    assert main(["perft", "toy", "2", "--length", "3"]) == 0
    assert capsys.readouterr().out.split() == ["6"]
    assert main(["show", "toy", "c2", "c1"]) == 0
    assert capsys.readouterr().out.splitlines() == ["S N . .", "north to move"]
    # another game's option, and a choice the toy does not have: one line each
    other = next(o.flag for name, cls in sorted(GAMES.items()) if name != "toy" for o in cls.options)
    assert main(["perft", "toy", "1", f"--{other}", "x"]) == 2
    assert capsys.readouterr().err.strip() == f"reedboard: --{other} is for {_owners(other)}; toy takes --length"
    assert main(["perft", "toy", "1", "--length", "7"]) == 2
    assert "--length is one of 3, 4, 5" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["perft", "--help"])
    assert "toy: the number of cells (default 4)" in " ".join(capsys.readouterr().out.split())


def _owners(flag: str) -> str:
    from reedboard.controller.games import names_in_words

    return names_in_words([name for name, cls in GAMES.items() if any(o.flag == flag for o in cls.options)], "and")


def test_the_rules_page_and_the_catalog_show_the_toy(toy):
    from reedboard.controller.web.rules import rules_page

    page = rules_page("toy")
    assert page["title"] == "Toy Row" and page["players"] == ["north", "south"]
    first = next(d for d in page["diagrams"] if d["id"] == "first")
    assert first["pieces"] == {"c1": "", "c2": "N", "c3": "", "c4": ""} and first["lights"] == {"c2": "last"}
    assert first["geometry"]["marbles"] == {"N": "black", "S": "white"}
    entry = next(g for g in catalog() if g["name"] == "toy")
    assert entry == {"name": "toy", "title": "Toy Row", "uses_die": False, "players": ["north", "south"], "setup_modes": [],
                     "options": [{"flag": "length", "choices": ["3", "4", "5"], "help": "the number of cells (default 4)"}]}


def test_an_unknown_game_is_named_with_the_known_ones():
    with pytest.raises(ValueError) as error:
        game_from_header({"game": "chess"})
    assert str(error.value) == f"unknown game 'chess': expected {', '.join(sorted(GAMES)[:-1])} or {sorted(GAMES)[-1]}"
