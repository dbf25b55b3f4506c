"""docs/architecture.md held against the code: its picture shows exactly the imports between the
rooms, the rooms keep their floors, no module imports itself back through others, live play
reaches the recogniser only through the referee, every module that starts a thread or a
process is named where the page lists them, and no room below the words room looks a word up.

A room is a folder under controller/ (games, core, session, ...), or hal, hardware, firmware;
`controller` alone is controller/__init__.py (the version). Imports inside functions count too:
a lazy import is still a dependency.
"""

import ast
import functools
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
PACKAGES = {"controller": "reedboard.controller", "hal": "reedboard.hal", "hardware": "reedboard.hardware",
            "firmware": "reedboard.firmware"}
BESIDE = {"hal", "hardware", "firmware", "controller"}  # not on a floor: any room may use them


def module_name(path: Path) -> str:
    relative = path.relative_to(ROOT)
    parts = [PACKAGES[relative.parts[0]], *relative.parts[1:]]
    parts[-1] = parts[-1].removesuffix(".py")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    found = {}
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*.py"):
            if "tests" not in path.relative_to(ROOT).parts:
                found[module_name(path)] = path
    return found


def room(module: str) -> str:
    parts = module.split(".")
    if parts[1] == "controller":
        return parts[2] if len(parts) > 2 and (ROOT / "controller" / parts[2]).is_dir() else "controller"
    return parts[1]


@functools.cache  # the tree is read once for all the tests here
def import_statements() -> dict[str, list[tuple[str | None, tuple[str, ...]]]]:
    """Each module of the project -> its imports: (None, modules) for `import a, b`, and
    (source, names) for `from source import names`, a relative source made absolute."""
    found = {}
    for name, path in modules().items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        statements: list[tuple[str | None, tuple[str, ...]]] = []
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, ast.Import):
                statements.append((None, tuple(alias.name for alias in node.names)))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                statements.append((source, tuple(alias.name for alias in node.names)))
        found[name] = statements
    return found


@functools.cache
def imports() -> dict[str, set[str]]:
    """Each module of the project -> the modules of the project it imports."""
    known = modules()
    graph = {}
    for name, statements in import_statements().items():
        targets = set()
        for source, names in statements:
            if source is None:
                targets.update(names)
                continue
            submodules = {f"{source}.{n}" for n in names} & known.keys()
            targets.update(submodules)
            if len(submodules) < len(names):  # names defined in `source` itself
                targets.add(source)
        graph[name] = {t for t in targets if t in known and t != name}
    return graph


def drawn() -> set[tuple[str, str]]:
    block = re.search(r"```mermaid\n(.*?)```", DOC.read_text("utf-8"), re.S)
    assert block, "docs/architecture.md has no mermaid picture"
    return set(re.findall(r"^\s*(\w+) -->(?:\|[^|]*\|)? (\w+)\s*$", block.group(1), re.M))


def floors() -> dict[str, int]:
    rows = re.findall(r"^\| (\d+) \| `controller/(\w+)/` \|", DOC.read_text("utf-8"), re.M)
    return {name: int(floor) for floor, name in rows}


def room_edges() -> set[tuple[str, str]]:
    return {(room(a), room(b)) for a, targets in imports().items() for b in targets if room(a) != room(b)}


def test_the_picture_shows_exactly_the_imports_between_rooms():
    actual, picture = room_edges(), drawn()
    assert not actual - picture, f"imports the picture lacks: {sorted(actual - picture)}"
    assert not picture - actual, f"arrows the code does not have: {sorted(picture - actual)}"


def test_every_room_of_controller_has_a_floor():
    rooms = {p.name for p in (ROOT / "controller").iterdir() if (p / "__init__.py").is_file()}
    assert rooms == set(floors()), f"rooms without a floor, or floors without a room: {rooms ^ set(floors())}"


def test_no_import_runs_up_a_floor():
    floor = floors()
    upward = sorted((a, b) for a, b in room_edges() if a in floor and b in floor and floor[b] >= floor[a])
    assert not upward, f"imports that run up (or across) a floor: {upward}"


def test_hal_and_the_firmware_import_nothing_of_the_controller():
    """hal stands beside the rooms: of the controller it reads only the ground's file readers,
    which stand on nothing of the project themselves."""
    for a, b in room_edges():
        assert not (a in ("hal", "firmware") and b not in ("hal", "firmware", "hardware", "ground")), f"{a} imports {b}"
    readers = {f"reedboard.controller.ground.{m}" for m in ("readfile", "tomlfile")}
    graph = imports()
    for name, targets in graph.items():
        if room(name) in ("hal", "firmware"):
            reached = {t for t in targets if room(t) not in ("hal", "firmware", "hardware")}
            assert reached <= readers, f"{name} imports {sorted(reached - readers)}"
    for reader in readers:
        assert graph[reader] <= readers, f"{reader} stands on {sorted(graph[reader] - readers)}"


def imported_names(module: str) -> dict[str, set[str]]:
    """Each project module that imports names from `module` (from X import a, b) -> those names."""
    found: dict[str, set[str]] = {}
    for name, statements in import_statements().items():
        for source, names in statements:
            if source == module:
                found.setdefault(name, set()).update(names)
    return found


def test_live_play_reaches_the_recogniser_only_through_the_referee():
    """The flow of a move: session.live hands its inputs to the referee, which owns and feeds the
    recogniser (during the set-up too: its parts only read what it hands them); the rest of the
    controller names only its Settings."""
    graph = imports()
    core = "reedboard.controller.core"
    assert f"{core}.referee" in graph["reedboard.controller.session.live"]
    assert f"{core}.reconcile" in graph[f"{core}.referee"]
    makers = {name for name, names in imported_names(f"{core}.reconcile").items() if "Reconciler" in names}
    assert makers == {f"{core}.referee"}
    assert {f"{core}.setting_up", f"{core}.rolling", f"{core}.computer_turn"} <= graph[f"{core}.referee"]
    outside = {name: names - {"Settings"} for name, names in imported_names(f"{core}.reconcile").items()
               if room(name) != "core"}
    assert not {name: names for name, names in outside.items() if names}, "the recogniser reached around the referee"
    assert "Reconciler(" not in (ROOT / "controller" / "session" / "live.py").read_text("utf-8")


STARTS = re.compile(r"threading\.Thread\(|ThreadPoolExecutor\(|ProcessPoolExecutor\(|\.Pool\(|"
                    r"subprocess\.(?:run|Popen)\(|asyncio\.to_thread\(|run_in_executor\(")


def test_every_module_that_starts_a_thread_or_a_process_is_named():
    """The page's section on threads and processes names every module of controller/ and hal/
    that starts one (a thread, a pool, a child process, work in the loop's executor)."""
    text = DOC.read_text("utf-8")
    section = text[text.index("## Threads and processes"):text.index("## Seams")]
    starting = set()
    for top in ("controller", "hal"):
        for path in (ROOT / top).rglob("*.py"):
            if STARTS.search(path.read_text("utf-8")):
                relative = path.relative_to(ROOT)
                starting.add(str(relative.relative_to("controller")) if top == "controller" else str(relative))
    assert starting, "no module starts a thread or a process: the pattern is wrong"
    unnamed = sorted(f for f in starting if f"`{f}`" not in section)
    assert not unnamed, f"modules that start a thread or a process, not named under Threads and processes: {unnamed}"


def test_no_module_imports_itself_back_through_others():
    graph = imports()
    circles = strongly_connected(graph)
    assert not circles, "import circles: " + "; ".join(" <-> ".join(sorted(c)) for c in circles)


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm: the groups of more than one module that reach each other."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_circle_finder_finds_a_circle():
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


# --- the rooms around the domains --------------------------------------------------------------------
def third_party(module: str) -> set[str]:
    """The top-level packages outside the project that `module` imports."""
    found = set()
    for source, names in import_statements()[module]:
        for target in ([source] if source is not None else names):
            if target and not target.startswith("reedboard"):
                found.add(target.split(".")[0])
    return found


def test_the_archive_owns_past_games_and_the_web_keeps_http():
    """Past games and what is asked of them (the filters, a game replayed, the statistics) live in
    the archive, which speaks no HTTP; the web's routes ask it and read no journal themselves."""
    rooms = {name: room(name) for name in modules()}
    http = {name for name, r in rooms.items() if r == "archive" and third_party(name) & {"starlette", "uvicorn"}}
    assert not http, f"archive modules that speak HTTP: {sorted(http)}"
    reading = {f"reedboard.controller.persist.{m}" for m in ("journal_reader", "journal_replay", "notation", "export")}
    readers = {name for name, r in rooms.items() if r == "web" and imports()[name] & reading}
    assert not readers, f"web modules that read journals themselves: {sorted(readers)}"
    assert not any(r == "session" and name.endswith("past_games") for name, r in rooms.items())


def test_the_workshop_sits_below_the_command_line_and_parses_none():
    """The board's set-up and testing (guide, self-test, calibration, bring-up, doctor, the
    configuration file) are the workshop's; the commands parse the options and call it."""
    floor = floors()
    assert floor["commands"] > floor["workshop"]
    workshop = [name for name in modules() if room(name) == "workshop"]
    assert {name.rpartition(".")[2] for name in workshop} >= {"guide", "selftest", "calibrate", "bringup", "doctor", "config"}
    parsing = sorted(name for name in workshop if "argparse" in third_party(name))
    assert not parsing, f"workshop modules that parse a command line: {parsing}"


def test_the_ground_holds_the_readers_and_the_settings_and_persist_and_the_games_stand_on_it():
    """The file readers, the TOML reader and the settings are the ground's (floor 1, below the
    games): persist no longer stands on the core, nor the games on hal."""
    floor, edges = floors(), room_edges()
    assert floor["ground"] < floor["games"]
    assert {b for a, b in edges if a == "ground"} <= {"language"}
    assert ("persist", "core") not in edges, "persist imports the core"
    assert ("games", "hal") not in edges, "the games import hal"
    ground = {name.rpartition(".")[2] for name in modules() if room(name) == "ground"}
    assert ground >= {"readfile", "tomlfile", "settings"}
    from reedboard.controller.core.clock import ClockSettings
    from reedboard.controller.core.reconcile import Settings
    from reedboard.controller.ground import settings
    assert (Settings, ClockSettings) == (settings.Settings, settings.ClockSettings)  # one class each, named in both


def test_the_boards_publisher_and_the_club_are_two_sides_of_the_broadcast():
    """The board's side (broadcast/publisher/) and the club's (broadcast/club/) share only the
    topics and payloads (messages) and the broker's address: neither imports the other, and
    nothing else lies beside them."""
    broadcast = "reedboard.controller.broadcast"
    shared = {broadcast, f"{broadcast}.messages", f"{broadcast}.address"}
    board_side = {name for name in modules() if name.startswith(f"{broadcast}.publisher")}
    club_side = {name for name in modules() if name == f"{broadcast}.club" or name.startswith(f"{broadcast}.club.")}
    assert board_side and club_side
    assert {name for name in modules() if room(name) == "broadcast"} == board_side | club_side | shared
    graph = imports()
    crossing = sorted((a, b) for a in board_side for b in graph[a] if b in club_side)
    crossing += sorted((a, b) for a in club_side for b in graph[a] if b in board_side)
    assert not crossing, f"imports between the board's publisher and the club: {crossing}"


# The catalogues' lookup: what looks a word up in a language (controller/language/catalogue.py).
TRANSLATING = {"PLAY", "COMMANDS", "PAGE", "RULES", "Words", "translations", "say", "speaking", "current"}
LOOKUPS = {"gettext", "ngettext", "pgettext", "npgettext"}


def lookups(source: str, statements: list[tuple[str | None, tuple[str, ...]]]) -> list[str]:
    """What a module (its text and its import statements) uses to look a word up: the gettext
    module, a translating name of the catalogue, the words room, a gettext method."""
    found = [name for module, names in statements if module is None for name in names if name.split(".")[0] == "gettext"]
    for module, names in statements:
        if module is None:
            continue
        if module.split(".")[0] == "gettext" or module.startswith("reedboard.controller.words"):
            found.append(module)
        elif module == "reedboard.controller.language.catalogue":
            found += sorted(set(names) & TRANSLATING)
        elif module == "reedboard.controller" and "words" in names:
            found.append("reedboard.controller.words")
    found += sorted({node.attr for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Attribute)
                     and node.attr in LOOKUPS})
    return found


def test_no_room_below_the_words_room_looks_a_word_up():
    """Words belong at the edges: the rooms below the words room hand over phrases (controller/
    language/phrases.py) and data, and the words room says them in the language in use."""
    floor = floors()
    below = {name for name, level in floor.items() if level < floor["words"]} - {"language"}
    assert {"ground", "games", "opponent", "core", "persist"} <= below
    paths = modules()
    found = {name: used for name, statements in import_statements().items() if room(name) in below
             and (used := lookups(paths[name].read_text("utf-8"), statements))}
    assert not found, f"modules below the words room that look words up: {found}"


def test_the_lookup_finder_finds_a_lookup():
    source = "from ..language.catalogue import PLAY\nimport gettext\n_ = PLAY.gettext\n"
    statements = [("reedboard.controller.language.catalogue", ("PLAY",)), (None, ("gettext",))]
    assert sorted(lookups(source, statements)) == ["PLAY", "gettext", "gettext"]
    assert lookups("phrase = Phrasebook('play')\n", [("reedboard.controller.language.phrases", ("Phrasebook",))]) == []
