"""The configuration file: what a board's owner sets once instead of on every command line.

`$XDG_CONFIG_HOME/reedboard/config.toml` (default `~/.config/reedboard/config.toml`), or the
file given with `--config`. Everything is optional; a command-line option wins over it:

    [play]
    setup = "auto"          # Big Balls set-up: auto (from what is on the board), shuffle, identify
    clock = "10+5"          # a game clock: minutes, or minutes+seconds added per move; "off" for none
    takebacks = true        # the board put back as before the last move takes that move back
    debounce = 0.02         # seconds a switch must hold a new state (0.001 to 1)
    settle = 0.8            # seconds of stillness before a move that may still grow counts (0.05 to 10)
    grace = 1.5             # seconds before a board that fits no move is signalled (0.1 to 60)
    listen = "127.0.0.1:8000"
    games_dir = "~/reedboard-games"
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from pathlib import Path

from .clock import ClockSettings
from .reconcile import Settings
from .tomlfile import read_toml

SETUP_CHOICES = ("auto", "shuffle", "identify")
PLAY_KEYS = {"setup", "clock", "takebacks", "debounce", "settle", "grace", "listen", "games_dir"}


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class PlayConfig:
    setup: str | None = None
    clock: ClockSettings | None = None
    settings: Settings = field(default_factory=Settings)
    listen: str | None = None
    games_dir: Path | None = None
    source: str | None = None  # the file read, if any


def default_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "reedboard" / "config.toml"


def load_play(path: str | Path | None = None) -> PlayConfig:
    """The [play] settings of the configuration file; defaults when the default file is absent
    (a file given by name must exist)."""
    if path is None:
        path = default_path()
        if not path.exists():
            return PlayConfig()
    data = read_toml(path, ConfigError, "the configuration")
    unknown = set(data) - {"play"}
    if unknown:
        raise ConfigError(f"{path}: unknown table [{sorted(unknown)[0]}] (reedboard reads [play])")
    play = data.get("play", {})
    if not isinstance(play, dict):
        raise ConfigError(f"{path}: play must be a table ([play])")
    unknown = set(play) - PLAY_KEYS
    if unknown:
        raise ConfigError(f"{path}: unknown key play.{sorted(unknown)[0]} (known: {', '.join(sorted(PLAY_KEYS))})")

    def fail(key: str, problem: str) -> ConfigError:
        return ConfigError(f"{path}: play.{key}: {problem}")

    setup = play.get("setup")
    if setup is not None and setup not in SETUP_CHOICES:
        raise fail("setup", f"one of {', '.join(SETUP_CHOICES)}, not {setup!r}")
    clock = None
    if "clock" in play and play["clock"] not in (False, "off", "none"):
        try:
            clock = ClockSettings.parse(str(play["clock"]))
        except ValueError as error:
            raise fail("clock", str(error)) from None
    timing = {f.name: play[f.name] for f in fields(Settings) if f.name in play}
    for key, value in timing.items():  # one at a time, so that the message names the wrong one
        try:
            Settings(**{key: value})
        except ValueError as error:
            raise fail(key, str(error)) from None
    settings = Settings(**timing)
    for key in ("listen", "games_dir"):
        if key in play and not isinstance(play[key], str):
            raise fail(key, "a string")
    games_dir = Path(play["games_dir"]).expanduser() if "games_dir" in play else None
    return PlayConfig(setup=setup, clock=clock, settings=settings, listen=play.get("listen"),
                      games_dir=games_dir, source=str(path))
