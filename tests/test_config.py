"""The configuration file and the play options that override it: set-up mode, clock, timing."""

import pytest

from controller.cli import main
from controller.clock import ClockSettings
from controller.config import ConfigError, load_play


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
        seen.update(session=session, host=host, port=port)

    monkeypatch.setattr("controller.web.app.serve", serve)
    return seen


def test_play_takes_the_configuration_and_options_win(tmp_path, started, capsys):
    path = write(tmp_path, '[play]\nsetup = "identify"\nclock = "5+3"\nsettle = 0.5\nlisten = "127.0.0.1:8123"\n')
    base = ["play", "bigballs", "--hal", "sim", "--games-dir", str(tmp_path), "--config", str(path)]
    assert main(base) == 0
    session = started["session"]
    assert session.setup_mode == "identify" and session.game_clock == ClockSettings(5, 3)
    assert session.settings.settle == 0.5 and started["port"] == 8123
    assert main(base + ["--setup-mode", "shuffle", "--clock", "off", "--listen", "127.0.0.1:8124"]) == 0
    session = started["session"]
    assert session.setup_mode == "shuffle" and session.game_clock is None and started["port"] == 8124
    assert main(base + ["--clock", "1+2"]) == 0 and started["session"].game_clock == ClockSettings(1, 2)


@pytest.mark.parametrize("extra, message", [
    (["--clock", "soon"], "MINUTES or MINUTES+SECONDS"),
    (["--clock", "0"], None),  # 0 means no clock: accepted
    (["--setup-mode", "random"], "invalid choice"),
    (["--config", "/nowhere/config.toml"], "cannot read the configuration"),
])
def test_play_options_that_cannot_work_are_one_line(tmp_path, started, capsys, extra, message):
    status = main(["play", "bigballs", "--hal", "sim", "--games-dir", str(tmp_path)] + extra)
    err = capsys.readouterr().err
    if message is None:
        assert status == 0 and started["session"].game_clock is None
    else:
        assert status == 2 and message in err and len(err.strip().splitlines()) == 1
