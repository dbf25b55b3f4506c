"""Paths in the configuration are checked where the configuration is read (one line naming the
file and the key), and settings written back go through a symbolic link to its target, never
wait on a named pipe and never read more than a configuration may hold."""

import os
import threading
from pathlib import Path

import pytest

from reedboard.controller.workshop.config import ConfigError, load, write_back

pytestmark = pytest.mark.component


def config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, "utf-8")
    return path


@pytest.mark.parametrize("games_dir", ["x" * 5000, "/dev/null", "/etc/hostname", "/dev/null/games",
                                       "a/" + "b" * 300 + "/c"])
def test_a_games_folder_that_cannot_be_one_is_refused_in_one_line(tmp_path, games_dir):
    path = config(tmp_path, f'[play]\ngames_dir = "{games_dir}"\n')
    with pytest.raises(ConfigError) as error:
        load(path)
    message = str(error.value)
    assert "\n" not in message and str(path) in message and "play.games_dir" in message and len(message) < 400


def test_a_games_folder_that_is_one_or_can_be_made_is_taken(tmp_path):
    (tmp_path / "games").mkdir()
    assert load(config(tmp_path, '[play]\ngames_dir = "games"\n'))["play.games_dir"] == tmp_path / "games"
    assert load(config(tmp_path, '[play]\ngames_dir = "new/games"\n'))["play.games_dir"] == tmp_path / "new" / "games"


@pytest.mark.parametrize("board", ["/dev/zero", "/tmp", "/dev/null"])
def test_a_board_file_that_is_no_file_is_refused(tmp_path, board):
    with pytest.raises(ConfigError, match="board.file"):
        load(config(tmp_path, f'[board]\nfile = "{board}"\n'))


def test_settings_are_written_through_a_symbolic_link(tmp_path):
    target = tmp_path / "real" / "config.toml"
    target.parent.mkdir()
    target.write_text("# mine\n[play]\nsettle = 0.8\n", "utf-8")
    link = tmp_path / "config.toml"
    link.symlink_to(target)
    write_back(link, {"settle": 0.5})
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert load(link)["play.settle"] == 0.5 and target.read_text("utf-8").startswith("# mine")


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_configuration_swapped_for_a_pipe_or_a_device_is_refused_at_once(tmp_path, kind):
    path = tmp_path / "config.toml"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    outcome = []

    def write():
        try:
            write_back(path, {"settle": 0.5})
            outcome.append("written")
        except OSError as error:
            outcome.append(error)
    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    thread.join(60)  # a guard only: the refusal is at once
    if thread.is_alive():  # blocked on the pipe: let it go
        with open(path, "wb", buffering=0) if kind == "fifo" else open(os.devnull, "wb"):
            pass
        thread.join(10)
    assert len(outcome) == 1 and isinstance(outcome[0], OSError), outcome
    assert "not a regular file" in str(outcome[0])
