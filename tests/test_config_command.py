"""`reedboard config`: every key with its effective value and where it came from; a bad file in one line."""

import json

import pytest

from reedboard.controller.commands import config_command
from reedboard.controller.workshop.config import BY_NAME

from command_line import run_command

pytestmark = pytest.mark.component


def config_main(argv, capsys):
    """`reedboard config ...` on a parser of its own, as cli.main runs it: (status, out, err)."""
    return run_command(config_command, ["config", *argv], capsys)


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    return tmp_path


def test_without_a_file_every_key_is_a_default(home, capsys):
    status, out, _ = config_main([], capsys)
    lines = out.splitlines()
    assert status == 0 and lines[0] == f"configuration: {home}/reedboard/config.toml (absent: the defaults hold)"
    rows = {line.split()[0]: line.split()[1] for line in lines[2:]}
    assert set(rows) == set(BY_NAME) and set(rows.values()) == {"default"}


def test_the_default_file_is_shown_with_the_line_of_each_key(home, capsys):
    (home / "reedboard").mkdir()
    path = home / "reedboard" / "config.toml"
    path.write_text('# ours\n[play]\nsettle = 0.5\n\n[players]\nblack = "Ann Smith"\n')
    status, out, _ = config_main([], capsys)
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in out.splitlines()[2:]}
    assert status == 0 and out.splitlines()[0] == f"configuration: {path}"
    assert rows["play.settle"] == ["file:3", "0.5"] and rows["players.black"] == ["file:6", "Ann Smith"]
    assert rows["play.grace"] == ["default", "1.5"] and rows["play.listen"] == ["default", "127.0.0.1:8000"]


def test_json_names_every_key_its_value_source_and_rule(home, capsys):
    path = home / "mine.toml"
    path.write_text('[board]\nbrightness = 40\nhal = "serial"\n')
    status, out, _ = config_main(["--config", str(path), "--json"], capsys)
    data = json.loads(out)
    assert status == 0 and data["file"] == str(path) and set(data["keys"]) == set(BY_NAME)
    rule = BY_NAME["board.brightness"].rule
    assert data["keys"]["board.brightness"] == {"value": 40, "source": "file:2", "allowed": rule}
    assert data["keys"]["board.backend"]["source"] == "file:3" and data["keys"]["play.clock"]["value"] is None


@pytest.mark.parametrize("text, words", [
    ('[play]\nsettle = "x"\n', "play.settle: must be a number of seconds from 0.05 to 10, not 'x'"),
    ('[board]\nbackend = "usb"\n', "board.backend: must be one of serial, gpio, sim, not 'usb'"),
    ('[board]\nhal = "usb"\n', "board.backend: must be one of serial, gpio, sim, not 'usb'"),  # its former name
    ('[play]\ncolour = "red"\n', "unknown key play.colour (known in [play]: game, setup"),
    ('[chess]\nx = 1\n', "unknown table [chess]"),
    ('[play\n', "not valid TOML"),
])
def test_a_bad_file_is_refused_in_one_line(home, capsys, text, words):
    path = home / "bad.toml"
    path.write_text(text)
    status, out, err = config_main(["--config", str(path)], capsys)
    assert status == 2 and out == "" and err.startswith(f"reedboard: {path}: ")
    assert words in err and len(err.strip().splitlines()) == 1


def test_a_file_named_must_exist(home, capsys):
    status, _, err = config_main(["--config", str(home / "none.toml")], capsys)
    assert status == 2 and "cannot read the configuration" in err and len(err.strip().splitlines()) == 1
