"""The configuration file and the play options that override it: set-up mode, clock, timing."""

from pathlib import Path

import pytest
from conftest import free_port

from reedboard.controller.commands.cli import main
from reedboard.controller.games import top_level
from reedboard.controller.core.clock import ClockSettings
from reedboard.controller.workshop.config import ConfigError, load_play


def write(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def test_no_file_gives_the_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    config = load_play()
    assert config.setup is None and config.clock is None and config.source is None
    assert config.settings.settle == 0.8 and config.settings.takebacks


def test_the_default_file_is_read(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "reedboard").mkdir()
    (tmp_path / "reedboard" / "config.toml").write_text(
        '[play]\nsetup = "identify"\nclock = "5+3"\ntakebacks = false\nsettle = 0.5\n'
        'listen = "0.0.0.0:8080"\ngames_dir = "~/games"\n')
    config = load_play()
    assert config.setup == "identify" and config.clock == ClockSettings(5, 3)
    assert config.settings.settle == 0.5 and not config.settings.takebacks
    assert config.listen == "0.0.0.0:8080" and config.games_dir.name == "games" and "~" not in str(config.games_dir)


@pytest.mark.parametrize("text, key", [
    ('[play]\nsetup = "random"\n', "play.setup"),
    ('[play]\nclock = "soon"\n', "play.clock"),
    ('[play]\ntakebacks = "yes"\n', "play.takebacks"),
    ('[play]\nsettle = "slow"\n', "play.settle"),
    ('[play]\ncolour = "red"\n', "play.colour"),
    ('[board]\nx = 1\n', "[board]"),
    ('[play\n', "not valid TOML"),
    ('[play]\nlisten = 8000\n', "play.listen"),
])
def test_a_mistake_names_the_file_and_the_key(tmp_path, text, key):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as error:
        load_play(path)
    assert str(path) in str(error.value) and key in str(error.value) and "\n" not in str(error.value)


def test_a_clock_off_is_no_clock(tmp_path):
    assert load_play(write(tmp_path, '[play]\nclock = "off"\n')).clock is None
    assert load_play(write(tmp_path, "[play]\nclock = false\n")).clock is None


@pytest.fixture
def started(monkeypatch):
    """`reedboard play` up to the server: the session it would serve."""
    seen = {}

    async def serve(session, host, port, token, *, games_dir=None, log_level="warning"):
        seen.update(session=session, host=host, port=port, token=token)

    monkeypatch.setattr("reedboard.controller.web.app.serve", serve)
    return seen


def test_play_takes_the_configuration_and_options_win(tmp_path, started, capsys):
    in_file, on_the_line = free_port(), free_port()
    path = write(tmp_path, f'[play]\nsetup = "identify"\nclock = "5+3"\nsettle = 0.5\nlisten = "127.0.0.1:{in_file}"\n')
    base = ["play", "bigballs", "--hal", "sim", "--games-dir", str(tmp_path), "--config", str(path)]
    assert main(base) == 0
    session = started["session"]
    assert session.setup_mode == "identify" and session.game_clock == ClockSettings(5, 3)
    assert session.settings.settle == 0.5 and started["port"] == in_file
    assert main(base + ["--setup-mode", "shuffle", "--clock", "off", "--listen", f"127.0.0.1:{on_the_line}"]) == 0
    session = started["session"]
    assert session.setup_mode == "shuffle" and session.game_clock is None and started["port"] == on_the_line
    assert main(base + ["--clock", "1+2"]) == 0 and started["session"].game_clock == ClockSettings(1, 2)


@pytest.mark.parametrize("extra, message", [
    (["--clock", "soon"], "MINUTES or MINUTES+SECONDS"),
    (["--clock", "0"], None),  # 0 means no clock: accepted
    (["--setup-mode", "random"], "invalid choice"),
    (["--config", "/nowhere/config.toml"], "cannot read the configuration"),
])
def test_play_options_that_cannot_work_are_one_line(tmp_path, started, capsys, extra, message):
    status = main(["play", "bigballs", "--hal", "sim", "--games-dir", str(tmp_path),
                   "--listen", f"127.0.0.1:{free_port()}"] + extra)
    err = capsys.readouterr().err
    if message is None:
        assert status == 0 and started["session"].game_clock is None
    else:
        assert status == 2 and message in err and len(err.strip().splitlines()) == 1


# --- every key ----------------------------------------------------------------------------------------

from reedboard.controller.workshop.config import BY_NAME, load  # noqa: E402

# A value each key takes, as written in the file, and what the commands then use.
GOOD = {
    "play.game": ('"abalone"', "abalone"), "play.setup": ('"shuffle"', "shuffle"),
    "play.clock": ('"10+5"', ClockSettings(10, 5)), "play.takebacks": ("false", False),
    "play.debounce": ("0.05", 0.05), "play.settle": ("1", 1.0), "play.grace": ("2.5", 2.5),
    "play.listen": ('"0.0.0.0:8080"', "0.0.0.0:8080"), "play.token": ('"our-club-board"', "our-club-board"),
    "play.watchers": ("20", 20), "play.games_dir": ('"games"', "DIR/games"),
    "play.vs": ('"computer:3"', 3), "play.computer_plays": ('"red"', "red"), "play.think_seconds": ("5", 5),
    "broadcast.url": ('"mqtt://b1:pw@club.local/rb"', "mqtt://b1:pw@club.local/rb"), "broadcast.name": ('"b1"', "b1"),
    "abalone.layout": ('"german-daisy"', "german-daisy"), "bigballs.first": ('"white"', "white"),
    "board.file": ('"/boards/mine.toml"', "/boards/mine.toml"), "board.backend": ('"serial"', "serial"),
    "board.port": ('"/dev/ttyACM0"', "/dev/ttyACM0"), "board.pin_factory": ('"lgpio"', "lgpio"), "board.brightness": ("60", 60),
    "board.budget_ma": ("1500", 1500), "page.sound": ("true", True), "page.voice": ("true", True),
    "page.language": ('"ro"', "ro"), "players.black": ('"Ann"', "Ann"), "players.white": ('" Bob "', "Bob"),
    "players.red": ('"Cy"', "Cy"), "players.yellow": ('"Di"', "Di"),
}
# A value each key refuses, and a word of what it allows.
BAD = {
    "play.game": ('"chess"', "abalone"), "play.setup": ('"random"', "identify"), "play.clock": ('"soon"', "MINUTES"),
    "play.takebacks": ('"yes"', "true or false"), "play.debounce": ("2", "0.001 to 1"),
    "play.settle": ('"x"', "0.05 to 10"), "play.grace": ("nan", "0.1 to 60"), "play.listen": ("8000", "HOST:PORT"),
    "play.token": ('"short"', "8 to 200"), "play.watchers": ("501", "1 to 500"), "play.games_dir": ("3", "path"),
    "play.vs": (f'"computer:{top_level() + 1}"', f"computer:1 .. computer:{top_level()}"), "play.computer_plays": ('"green"', "black"),
    "play.think_seconds": ("0", "0.1 to 60"),
    "broadcast.url": ('"http://club.local"', "mqtt://"), "broadcast.name": ('"a b"', "board name"),
    "abalone.layout": ('"hex"', "belgian-daisy"), "bigballs.first": ('"red"', "black, white"),
    "board.file": ("true", "path"), "board.backend": ('"usb"', "gpio"), "board.port": ('""', "serial port"),
    "board.pin_factory": ('"gpiod"', "lgpio, rpigpio"), "board.brightness": ("101", "0 to 100"), "board.budget_ma": ("0", "above 0"),
    "page.sound": ("1", "true or false"), "page.voice": ('"on"', "true or false"),
    "page.language": ('"fr"', "en, de"), "players.black": ("7", "1 to 40"),
    "players.white": ('"' + "x" * 41 + '"', "40"),
    "players.red": ('"a\\nb"', "characters"), "players.yellow": ("[]", "name"),
}


def test_every_key_has_a_good_and_a_bad_value_here():
    assert set(GOOD) == set(BY_NAME) == set(BAD)


@pytest.mark.parametrize("name", sorted(GOOD))
def test_each_key_is_read_with_its_line(tmp_path, name):
    table, key = name.split(".")
    text, expected = GOOD[name]
    path = write(tmp_path, f"# a comment\n[{table}]\n{key} = {text}\n")
    config = load(path)
    value = config[name]
    if isinstance(value, Path):  # a relative path is taken from the file's directory
        value = str(value).replace(str(tmp_path), "DIR")
    assert value == expected
    assert config.source(name) == "file:3"
    assert all(config.source(other) == "default" for other in BY_NAME if other != name)


@pytest.mark.parametrize("name", sorted(BAD))
def test_each_key_refuses_a_bad_value_in_one_line(tmp_path, name):
    table, key = name.split(".")
    text, allowed = BAD[name]
    path = write(tmp_path, f"[{table}]\n{key} = {text}\n")
    with pytest.raises(ConfigError) as error:
        load(path)
    message = str(error.value)
    assert message.startswith(f"{path}: {name}: must be ") and allowed in message and "\n" not in message


def test_the_defaults_hold_without_a_file(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    config = load()
    assert config.path is None and {config.source(name) for name in BY_NAME} == {"default"}
    assert config["play.listen"] == "127.0.0.1:8000" and config["board.brightness"] == 100
    assert config.reconciler() == Settings()


def test_the_page_languages_are_the_pages_own():
    import re
    from pathlib import Path

    from reedboard.controller.workshop.config import LANGUAGES

    speech = Path(__file__).parents[1] / "controller" / "web" / "static" / "speech.js"
    table = re.search(r"SPEECH_LANGS = \{([^}]*)\}", speech.read_text()).group(1)
    assert tuple(re.findall(r"(\w+):", table)) == LANGUAGES


def test_the_watchers_default_is_the_web_views():
    from reedboard.controller.workshop.config import WATCHERS
    from reedboard.controller.web.limits import Limits

    assert WATCHERS == Limits().watchers


# --- the command line over the file -------------------------------------------------------------------

from reedboard.controller.commands.cli import build_parser  # noqa: E402
from reedboard.controller.commands.usage import UsageError  # noqa: E402
from reedboard.controller.commands.play_command import light_leds_as_configured, run  # noqa: E402
from reedboard.controller.core.reconcile import Settings  # noqa: E402


def test_flags_win_over_the_file_key_by_key(tmp_path):
    path = write(tmp_path, '[play]\nsetup = "identify"\nlisten = "0.0.0.0:8001"\nwatchers = 9\n'
                           '[board]\nhal = "serial"\nport = "/dev/ttyACM1"\n[abalone]\nlayout = "belgian-daisy"\n')
    args = build_parser().parse_args(["play", "abalone", "--hal", "sim", "--listen", "[::1]:8002",
                                      "--layout", "german-daisy", "--config", str(path)])
    config = load(path).with_flags(args)
    assert (config["board.backend"], config.source("board.backend")) == ("sim", "--backend")
    assert (config["play.listen"], config.source("play.listen")) == ("[::1]:8002", "--listen")
    assert (config["abalone.layout"], config.source("abalone.layout")) == ("german-daisy", "--layout")
    assert (config["board.port"], config.source("board.port")) == ("/dev/ttyACM1", "file:7")
    assert (config["play.setup"], config.source("play.setup")) == ("identify", "file:2")
    assert (config["play.watchers"], config.source("play.watchers")) == (9, "file:4")
    # a start option of another game is not this game's
    args = build_parser().parse_args(["play", "bigballs", "--first", "white", "--config", str(path)])
    config = load(path).with_flags(args)
    assert config["bigballs.first"] == "white" and config.source("abalone.layout") == "file:9"


def play_args(*extra):
    """`reedboard play` as parsed, with its GAME left out."""
    args = build_parser().parse_args(["play", "bigballs", "--listen", f"127.0.0.1:{free_port()}", *extra])
    args.game = None
    return args


def test_play_takes_the_game_and_its_layout_from_the_file(tmp_path, started):
    path = write(tmp_path, '[play]\ngame = "abalone"\n[abalone]\nlayout = "belgian-daisy"\n[board]\nhal = "sim"\n')
    assert run(play_args("--games-dir", str(tmp_path), "--config", str(path))) == 0
    session = started["session"]
    assert session.kind == "abalone" and session._start.layout == "belgian-daisy"
    assert run(play_args("--games-dir", str(tmp_path), "--config", str(path), "--layout", "german-daisy")) == 0
    assert started["session"]._start.layout == "german-daisy"


def test_play_without_a_game_anywhere_says_how_to_name_one(tmp_path, started):
    path = write(tmp_path, '[play]\nsettle = 0.5\n')
    with pytest.raises(UsageError, match=r"name the game .*\[play\] game"):
        run(play_args("--config", str(path)))


def test_a_bad_file_stops_play_in_one_line(tmp_path, started, capsys):
    path = write(tmp_path, '[board]\nbrightness = "dim"\n')
    status = main(["play", "bigballs", "--hal", "sim", "--games-dir", str(tmp_path), "--config", str(path)])
    err = capsys.readouterr().err.strip()
    assert status == 2 and err == (f"reedboard: {path}: board.brightness: must be a number from 0 to 100"
                                   " (% of full brightness), not 'dim'")
    assert "session" not in started


def test_the_token_of_the_file_is_kept_beyond_this_computer(tmp_path, started, capsys, monkeypatch):
    monkeypatch.setattr("reedboard.controller.commands.play_command._free", lambda host, port: True)
    path = write(tmp_path, '[play]\ntoken = "our-club-board"\nlisten = "0.0.0.0:8765"\n')
    assert main(["play", "bigballs", "--hal", "sim", "--games-dir", str(tmp_path), "--config", str(path)]) == 0
    assert started["token"] == "our-club-board" and "?token=our-club-board" in capsys.readouterr().out
    assert main(["play", "bigballs", "--hal", "sim", "--games-dir", str(tmp_path), "--config", str(path),
                 "--listen", "127.0.0.1:8766"]) == 0
    assert started["token"] is None  # this computer alone needs none


def test_brightness_and_budget_reach_the_leds():
    from reedboard.hal.backends import find_board
    from reedboard.hal.interfaces import Light, LightFrame

    def shown(budget_ma, brightness):
        device = find_board("sim", game="bigballs").device
        light_leds_as_configured(device, budget_ma, brightness)
        device.show(LightFrame({"a1": Light("place"), "b1": Light("place")}))
        return [colour for colour in device.addresses.colours if colour != (0, 0, 0)]

    full = shown(None, 100)
    assert len(full) == 2 and max(full[0]) > 100
    half = shown(None, 50)
    assert all(abs(h - f / 2) <= 1 for h_rgb, f_rgb in zip(half, full) for h, f in zip(h_rgb, f_rgb))
    capped = shown(10, 100)  # 10 mA: far below what two lit LEDs draw
    assert sum(sum(rgb) for rgb in capped) * 20 / 255 <= 10.0 + 1e-9


# --- the page's settings, written back ----------------------------------------------------------------

from reedboard.controller.workshop.config import changed_settings, write_back  # noqa: E402
from reedboard.controller.commands.play_command import settings_writer  # noqa: E402

pytestmark = pytest.mark.component

COMMENTED = ('# the club board\n[play]\nsettle = 0.8   # the children move slowly\ngame = "bigballs"\n\n'
             '[board]\nhal = "gpio"\n')


def test_only_the_changed_keys_are_rewritten_keeping_the_comments(tmp_path):
    path = write(tmp_path, COMMENTED)
    write_back(path, {"settle": 1.2, "takebacks": False})
    text = path.read_text()
    assert text.startswith('# the club board\n[play]\nsettle = 1.2   # the children move slowly\ngame = "bigballs"\n')
    assert "takebacks = false" in text and '[board]\nhal = "gpio"' in text
    assert load(path)["play.settle"] == 1.2 and load(path)["play.takebacks"] is False
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml"]  # no temporary file left


def test_the_session_writes_what_the_page_changed(tmp_path, monkeypatch):
    from starlette.testclient import TestClient

    from reedboard.controller.session.play_session import PlaySession
    from reedboard.controller.web import create_app

    path = write(tmp_path, COMMENTED)
    config = load(path)
    session = PlaySession("bigballs", games_dir=tmp_path / "games", settings=config.reconciler(), setup="given")
    session.settings_changed = settings_writer(config)
    with TestClient(create_app(session), base_url="http://127.0.0.1") as client:
        assert client.post("/api/new", json={"settings": {"grace": 3}}).status_code == 200
        assert client.post("/api/new", json={"settings": {"grace": 3}}).status_code == 200  # unchanged: no write
    text = path.read_text()
    assert "grace = 3.0" in text and "settle = 0.8   # the children move slowly" in text
    assert text.count("grace") == 1


def test_a_file_that_cannot_be_written_is_left_alone_with_one_line(tmp_path, capsys):
    import os

    if os.geteuid() == 0:
        pytest.skip("root writes any file")
    path = write(tmp_path, COMMENTED)
    path.chmod(0o444)
    assert settings_writer(load(path)) is None
    said = capsys.readouterr().out.strip()
    assert said == f"settings changed in the web view are not saved: {path} cannot be written"


def test_an_unwritable_directory_is_left_alone_with_one_line(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, COMMENTED)
    monkeypatch.setattr("reedboard.controller.workshop.config.os.access", lambda where, mode: False)
    assert settings_writer(load(path)) is None
    out = capsys.readouterr().out.strip().splitlines()
    assert out == [f"settings changed in the web view are not saved: {tmp_path} cannot be written in"]


def test_with_no_file_nothing_is_written(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert settings_writer(load()) is None and list(tmp_path.iterdir()) == []
    assert changed_settings(Settings(), Settings(settle=0.5, takebacks=False)) == {"settle": 0.5, "takebacks": False}


def test_a_file_without_a_play_table_gets_one(tmp_path):
    path = write(tmp_path, '[board]\nhal = "gpio"  # the pins\n')
    settings_writer(load(path))(Settings(), Settings(settle=0.5))
    assert path.read_text() == '[board]\nhal = "gpio"  # the pins\n\n[play]\nsettle = 0.5\n'


def test_the_configurations_pin_factory_reaches_the_gpio_backend(monkeypatch):
    """[board] pin_factory is handed to gpiozero through the backend chooser, under the
    environment's GPIOZERO_PIN_FACTORY and over the board file's."""
    from reedboard.hal.backends import find_board

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    found = find_board("gpio", None, None, game="bigballs", pin_factory="mock")
    try:
        assert found.backend == "gpio"
        assert (found.device.pin_factory_name, found.device.pin_factory_chosen_by) == ("mock", "the configuration")
    finally:
        found.device.close()
