"""Every test module says which level it tests, exactly one: `unit` (one module, pure), `component`
(several modules in-process) or `system` (real processes, servers, browsers, brokers). The level
comes from conftest.py's table or from the module's own `pytestmark`, never from both."""

import ast
import tomllib
from pathlib import Path

from conftest import LEVELS, MISSING

TESTS = Path(__file__).resolve().parent
LEVEL_NAMES = ("unit", "component", "system")


def own_levels(path: Path) -> set[str]:
    """The levels a module's own `pytestmark` gives it."""
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "pytestmark" for t in node.targets):
            found |= {sub.attr for sub in ast.walk(node.value)
                      if isinstance(sub, ast.Attribute) and sub.attr in LEVEL_NAMES}
    return found


def registered_markers() -> set[str]:
    pyproject = tomllib.loads((TESTS.parent / "pyproject.toml").read_text(encoding="utf-8"))
    return {line.split(":")[0] for line in pyproject["tool"]["pytest"]["ini_options"]["markers"]}


def test_every_test_module_has_exactly_one_level():
    wrong = {}
    for path in sorted(TESTS.glob("test_*.py")):
        levels = [LEVELS[path.stem]] if path.stem in LEVELS else []
        levels += sorted(own_levels(path))
        if len(levels) != 1:
            wrong[path.name] = levels
    assert wrong == {}, f"give each of these one level in tests/conftest.py's LEVELS: {wrong}"


def test_the_table_names_only_test_modules_there_are():
    modules = {path.stem for path in TESTS.glob("test_*.py")}
    assert sorted(set(LEVELS) - modules) == []
    assert set(LEVELS.values()) <= set(LEVEL_NAMES)


def test_the_levels_and_the_programs_are_registered_markers():
    assert set(LEVEL_NAMES) | set(MISSING) <= registered_markers()


def test_a_module_s_tests_carry_its_level(request):
    assert request.node.get_closest_marker("unit") is not None
    assert request.node.get_closest_marker("system") is None
