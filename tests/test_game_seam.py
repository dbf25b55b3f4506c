"""The game seam: outside controller/games/ nothing names a game, and a new game needs only
its module and one registry entry.

The first tests search the controller and hal (Python, the page's JavaScript, HTML and CSS) for
any registered game's name, title or class in any spelling ("Big Balls", BIG_BALLS, offBoard
...). The others register the toy game (tests/toy_game.py, a row of cells filled in turn) in the
registry for the length of a test and take it through the record, the journal and trace
headers, the command line, the rules page, and a game played at a simulated table, journaled,
spoken and exported: none of which was changed for it.
"""

from __future__ import annotations

import ast
import asyncio
import json
import re
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from reedboard.controller.games import GAMES, catalog, game_from_header

from toy_game import FILLED, Toy

pytestmark = pytest.mark.component

ROOT = Path(__file__).resolve().parents[1]
SEARCHED = ("controller", "hal")  # the rooms above the games, and the board's layer beside them
SUFFIXES = (".py", ".js", ".html", ".css")
GAMES_ROOM = ROOT / "controller" / "games"  # the engines, their modules and data: the games' own
# The few places outside the games that may name one, each with the words it uses and why.
ALLOWED = {
    ("hal/board.py", "an Off Board definition"):
        "hal imports nothing from the controller, so it cannot ask the registry; it tells a game's"
        " layout given where a board's wiring belongs by the layout's keys, and names that layout",
}
# What the toy game touched to be played everywhere: its own module and one registry entry.
TOUCHED = ("tests/toy_game.py", "GAMES['toy'] = Toy (the toy fixture, one entry for one test)")
# hal reads its board files through the ground's readers alone (they stand on nothing of the project)
HAL_IMPORTS = re.compile(r"^\s*(from|import) (reedboard\.)?controller(?!\.ground\.(readfile|tomlfile)\b)", re.MULTILINE)
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


def spelled_any_way(words: str) -> str:
    """A regular expression for `words` ("Big Balls", "bigballs", "OffBoard") in any case, with
    or without a space, "_" or "-" between its words."""
    parts = re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", words)
    return r"[\s_-]*".join(map(re.escape, parts))


def game_names(classes) -> re.Pattern:
    """Every spelling of each game's registry name, title and class name."""
    spellings = {spelled_any_way(text) for cls in classes for text in (cls.name, cls.title, cls.__name__)}
    return re.compile("|".join(sorted(spellings, key=len, reverse=True)), re.IGNORECASE)


def outside_the_games() -> list[Path]:
    return [p for folder in SEARCHED for p in sorted((ROOT / folder).rglob("*"))
            if p.suffix in SUFFIXES and GAMES_ROOM not in p.parents]


def named_outside_the_games(pattern: re.Pattern) -> list[str]:
    """The lines outside the games that name a game, less the allowed ones."""
    return [line for line in lines_matching(outside_the_games(), pattern)
            if not any(line.startswith(f"{path}:") and words in line for path, words in ALLOWED)]


def test_a_game_is_caught_by_its_name_in_any_spelling():
    pattern = game_names(GAMES.values())
    for written in ("bigballs", "big_balls", "big balls", "BigBalls", "BIG_BALLS", "Big-Balls", "bigBalls",
                    "offboard", "off board", "OffBoard", "OFF_BOARD", "off-board", "abalone", "ABALONE"):
        assert pattern.search(f"x = '{written}'"), written
    for plain in ("off the board", "a big ball", "pushed off", "balls on board"):
        assert not pattern.search(plain), plain
    assert game_names([Toy]).search("const TOY_ROW = 1;")  # a new game is searched for by its own names


def test_nothing_outside_the_games_names_a_game():
    """Python, the page's script, HTML and CSS of the controller and hal: a game is named only in
    controller/games (its module, its data); everything else asks the registry and the Game hooks."""
    assert named_outside_the_games(game_names(GAMES.values())) == []


def test_every_allowed_exception_is_still_needed():
    found = lines_matching(outside_the_games(), game_names(GAMES.values()))
    for path, words in ALLOWED:
        assert any(line.startswith(f"{path}:") and words in line for line in found), (path, words)


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


# --- the toy game, registered for a test ---------------------------------------------------------
@pytest.fixture
def toy(monkeypatch):
    """The toy in the registry for one test (every module reads the one GAMES dict): the one
    registry line a new game needs, besides its module."""
    monkeypatch.setitem(GAMES, "toy", Toy)
    return Toy


def test_the_toy_touched_only_its_module_and_one_registry_entry():
    """Nothing in the controller, hal or the hardware names the toy: every test below plays it
    through code that was not changed for it (TOUCHED lists all it took)."""
    assert Path(sys.modules[Toy.__module__].__file__).resolve().relative_to(ROOT).as_posix() == TOUCHED[0]
    files = [p for folder in (*SEARCHED, "hardware") for p in sorted((ROOT / folder).rglob("*")) if p.suffix in SUFFIXES]
    assert lines_matching(files, game_names([Toy])) == []


def test_a_toy_game_gets_a_record_with_its_header_and_result(toy):
    from reedboard.controller.persist.notation import header_lines, record_lines, result_line

    game = Toy(3)
    for move in ("c1", "c3", "c2"):
        game.play(move)
    assert header_lines(game) == ["game toy", "length 3"]
    assert game.outcome().termination is FILLED and game.ending_words(game.outcome()) == "Black filled the row"
    assert result_line(game) == "1-0 filled 3 stones"
    assert record_lines(game) == ["game toy", "length 3", "c1", "c3", "c2", "1-0 filled 3 stones"]


def test_a_toy_games_journal_header_goes_round(toy, tmp_path):
    from reedboard.controller.persist.journal_format import game_header
    from reedboard.controller.persist.journal_replay import rebuild
    from reedboard.controller.persist.journal_reader import read_journal
    from reedboard.controller.persist.journal import Journal
    from reedboard.controller.persist.export import export_lines

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
    assert capsys.readouterr().out.splitlines() == ["W B . .", "black to move"]
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
    assert page["title"] == "Toy Row" and page["players"] == ["black", "white"]
    first = next(d for d in page["diagrams"] if d["id"] == "first")
    assert first["pieces"] == {"c1": "", "c2": "B", "c3": "", "c4": ""} and first["lights"] == {"c2": "last"}
    assert first["geometry"]["marbles"] == {"B": "black", "W": "white"}
    # the legend's words are the shared ones, but for the light the toy words itself; a game
    # without a die or stones to set up one by one lists no light for them
    means = {light["name"]: light["means"] for light in page["lights"]}
    assert means["winner"] == Toy().light_meanings()["winner"] and means["last"] == "The hollows the last move touched."
    assert "movable" not in means and "place" not in means
    entry = next(g for g in catalog() if g["name"] == "toy")
    assert entry == {"name": "toy", "title": "Toy Row", "uses_die": False, "players": ["black", "white"], "setup_modes": [],
                     "options": [{"flag": "length", "label": "length", "choices": ["3", "4", "5"],
                                  "choice_labels": ["3", "4", "5"], "help": "the number of cells (default 4)"}]}


def test_an_unknown_game_is_named_with_the_known_ones():
    with pytest.raises(ValueError) as error:
        game_from_header({"game": "chess"})
    assert str(error.value) == f"unknown game 'chess': expected {', '.join(sorted(GAMES)[:-1])} or {sorted(GAMES)[-1]}"


# --- the toy at a simulated table, through the session and the referee, journaled and exported ------
async def until(condition, what: str) -> None:
    for _ in range(2000):  # the table's loop runs between the looks
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never {what}")


def test_a_toy_game_is_played_at_a_table_spoken_and_exported(toy, tmp_path):
    from reedboard.controller.core.reconcile import Settings
    from reedboard.controller.persist.export import export_lines
    from reedboard.controller.session.play_session import PlaySession

    async def play() -> dict:
        session = PlaySession(Toy(3), games_dir=tmp_path, settings=Settings(settle=0.05))
        await session.start()
        try:
            await until(lambda: session.snapshot()["phase"] == "play", "ready to play")
            for number, cell in enumerate(("c1", "c3", "c2"), 1):
                session.sim.place(cell)  # a hand puts a stone in the hollow
                await until(lambda: len(session.game.move_stack) == number, f"{cell} played")
            await until(lambda: session.snapshot()["phase"] == "over", "over")
            return session.snapshot()
        finally:
            await session.stop()

    snap = asyncio.run(play())
    assert snap["game"] == "toy" and snap["record"] == ["c1", "c3", "c2"]
    assert snap["outcome"] == {"result": "1-0", "reason": "filled", "winner": "black", "line": "1-0 filled 3 stones",
                               "words": "Black filled the row"}
    # the page reads and says the toy's own words: its moves and its ending, in every language
    said = {lang: list(snap["words"][lang]["said"].values()) for lang in ("en", "de", "ro")}
    assert any("a stone on c3" in s for s in said["en"]) and any("ein Stein auf c3" in s for s in said["de"])
    assert any("o piatră pe c3" in s for s in said["ro"])
    assert any(FILLED.said in s for s in said["en"])
    (journal,) = tmp_path.glob("*-toy.jsonl")
    assert export_lines(journal) == ["game toy", "length 3", "c1", "c3", "c2", "1-0 filled 3 stones"]


def test_the_games_import_one_another_one_way():
    """No circle among controller/games' modules: an evaluation is handed its engine's tables, a
    set-up guide builds on the start's own module, a layout knows nothing of its game."""
    imports = {}
    for path in sorted(GAMES_ROOM.glob("*.py")):
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                found |= {node.module.split(".")[0]} if node.module else {alias.name for alias in node.names}
        imports[path.stem] = found

    def reached(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for module in imports.get(todo.pop(), ()):
                if module not in seen:
                    seen.add(module)
                    todo.append(module)
        return seen

    assert sorted(module for module in imports if module in reached(module)) == []
