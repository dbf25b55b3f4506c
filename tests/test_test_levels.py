"""Every test module says which level it tests in its own `pytestmark` line, exactly one:
`unit` (one module, pure), `component` (several modules together, in-process) or `system` (real
processes, servers, browsers, brokers). The level fits what the module does, read from its code:
a module that starts a process, a server, a browser, a broker or the emulated Pico, or that needs
a program outside Python, is `system`; one that starts none of them is not; a `unit` module starts
no thread either."""

import ast
import tomllib
from pathlib import Path

import pytest

from conftest import APART, APART_BY, LEVEL_NAMES, LONGEST_FIRST, MISSING, SHARING

pytestmark = pytest.mark.unit

TESTS = Path(__file__).resolve().parent

# What a module imports, calls or asks for that makes it a system test
REAL = {
    "subprocess": "a process", "multiprocessing": "a process", "playwright": "a browser",
    "run_reedboard": "a process", "start_reedboard": "a process", "reedboard_command": "a process",
    "emulated_pico": "the emulated Pico", "pico_here": "the emulated Pico", "in_browser": "a browser",
    "checkout": "an installed copy", "install": "an installed copy",
    "uvicorn": "a server", "served": "a server", "serve_club": "a server", "urllib.request": "a server",
    "urlopen": "a server", "http.client": "a server", "websockets": "a server",
    "EmbeddedBroker": "a broker", "embedded": "a broker",
}
STARTS = {"create_subprocess_exec": "a process", "create_subprocess_shell": "a process", "Popen": "a process",
          "create_server": "a server", "start_server": "a server", "EmbeddedBroker": "a broker"}
FIXTURES = {"browser": "a browser", "open_page": "a browser", "quick_start_controller": "an installed copy"}
THREADS = {"Thread", "ThreadPoolExecutor", "to_thread", "run_in_executor"}


def modules() -> list[Path]:
    return sorted(TESTS.glob("test_*.py"))


def own_levels(tree: ast.Module) -> list[str]:
    """The levels a module's own `pytestmark` gives it."""
    return [sub.attr for node in tree.body
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "pytestmark" for t in node.targets)
            for sub in ast.walk(node.value) if isinstance(sub, ast.Attribute) and sub.attr in LEVEL_NAMES]


def real_things(tree: ast.Module) -> set[str]:
    """What the module starts that only a system test may: 'a process (subprocess)', ..."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""] + [alias.name for alias in node.names]
        else:
            names = []
        for name in names:
            for candidate in (name, name.split(".")[0]):
                if candidate in REAL:
                    found.add(f"{REAL[candidate]} ({name})")
        if isinstance(node, ast.Attribute):
            if node.attr in STARTS:
                found.add(f"{STARTS[node.attr]} ({node.attr})")
            if isinstance(node.value, ast.Attribute) and node.value.attr == "mark" and node.attr in MISSING:
                found.add(f"a program outside Python (pytest.mark.{node.attr})")
        if isinstance(node, ast.arg) and node.arg in FIXTURES:
            found.add(f"{FIXTURES[node.arg]} (the {node.arg} fixture)")
    return found


def threads(tree: ast.Module) -> set[str]:
    return {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute) and node.attr in THREADS} | {
        alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
        for alias in node.names if alias.name in THREADS}


def registered_markers() -> set[str]:
    pyproject = tomllib.loads((TESTS.parent / "pyproject.toml").read_text(encoding="utf-8"))
    return {line.split(":")[0] for line in pyproject["tool"]["pytest"]["ini_options"]["markers"]}


def test_every_test_module_declares_exactly_one_level():
    wrong = {path.name: levels for path in modules()
             if len(levels := own_levels(ast.parse(path.read_text(encoding="utf-8")))) != 1}
    assert wrong == {}, ("give each of these one level, a line after its imports: "
                         f"`pytestmark = pytest.mark.unit` (or component, system): {wrong}")


def test_a_module_that_starts_a_process_a_server_a_browser_or_a_broker_is_a_system_test():
    wrong = {}
    for path in modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if (real := real_things(tree)) and own_levels(tree) != ["system"]:
            wrong[path.name] = sorted(real)
    assert wrong == {}, f"these start something real: mark them `system` (or start nothing): {wrong}"


def test_a_system_test_starts_something_real():
    wrong = [path.name for path in modules()
             if own_levels(tree := ast.parse(path.read_text(encoding="utf-8"))) == ["system"] and not real_things(tree)]
    assert wrong == [], f"these run in-process only: mark them `component` (or `unit`): {wrong}"


def test_a_unit_test_starts_no_thread():
    wrong = {path.name: sorted(found) for path in modules()
             if own_levels(tree := ast.parse(path.read_text(encoding="utf-8"))) == ["unit"] and (found := threads(tree))}
    assert wrong == {}, f"these start threads: mark them `component`: {wrong}"


@pytest.mark.parametrize("source, real", [
    ("import subprocess", True),
    ("from command_line import run_command", False),
    ("from command_line import run_command, start_reedboard", True),
    ("async def main():\n    await asyncio.create_subprocess_exec('node')", True),
    ("def test_page(open_page):\n    pass", True),
    ("def test_page(tmp_path):\n    pass", False),
    ("pytestmark = [pytest.mark.system, pytest.mark.mosquitto]", True),
    ("from reedboard.controller.web.background import served", True),
    ("from starlette.testclient import TestClient", False),
    ("import threading\nthreading.Thread(target=print).start()", False),
])
def test_what_counts_as_starting_something_real(source, real):
    assert bool(real_things(ast.parse(source))) is real


@pytest.mark.parametrize("source, levels", [
    ("pytestmark = pytest.mark.unit", ["unit"]),
    ("pytestmark = [pytest.mark.system, pytest.mark.pico]", ["system"]),
    ("pytestmark = pytest.mark.pico", []),
    ("import pytest", []),
    ("pytestmark = [pytest.mark.unit, pytest.mark.component]", ["unit", "component"]),
])
def test_what_counts_as_a_module_s_level(source, levels):
    assert own_levels(ast.parse(source)) == levels


def test_the_levels_and_the_programs_are_registered_markers():
    assert set(LEVEL_NAMES) | set(MISSING) <= registered_markers()


def test_a_module_s_tests_carry_its_level(request):
    assert request.node.get_closest_marker("unit") is not None
    assert request.node.get_closest_marker("system") is None


def test_the_groups_conftest_orders_and_splits_are_modules_there_are():
    there = {path.stem for path in modules()} | set(SHARING.values())
    assert sorted(set(LONGEST_FIRST) - there) == [] and len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)
    assert sorted((APART | set(APART_BY) | set(SHARING)) - there) == []
