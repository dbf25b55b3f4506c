"""The configuration file: what a board's owner sets once instead of on every command line.

`$XDG_CONFIG_HOME/reedboard/config.toml` (default `~/.config/reedboard/config.toml`), or the
file given with `--config`. Everything is optional; an option on the command line wins over
the file, the file over the defaults (`reedboard config` shows what holds and where it came
from). A value that cannot be used is refused in one line naming the file, the key and what
is allowed. Paths may start with `~`; a relative path is taken from the file's own directory.

    [play]
    game = "GAME"           # the game when `reedboard play` names none (`reedboard config --json` lists them)
    setup = "auto"          # the set-up of a game that has modes: auto (from what is on the board), shuffle, identify
    clock = "10+5"          # a game clock: minutes, or minutes+seconds added per move; "off" for none
    takebacks = true        # the board put back as before the last move takes that move back
    debounce = 0.02         # seconds a switch must hold a new state (0.001 to 1)
    settle = 0.8            # seconds of stillness before a move that may still grow counts (0.05 to 10)
    grace = 1.5             # seconds before a board that fits no move is signalled (0.1 to 60)
    listen = "0.0.0.0:8000" # where the web view listens
    token = "our-club-board" # the page's token beyond this computer, kept so that a bookmark works
    watchers = 64           # spectators watching live at once (1 to 500)
    games_dir = "~/reedboard-games"
    vs = "computer:4"       # the opponent: human, or the computer at level 1 to the game's strongest
    computer_plays = "white" # the side the computer plays (default: the second player)
    think_seconds = 2       # the most the computer thinks about a move (a slower Pi: more)

    [GAME]                  # a game's start options that are a choice of words, e.g. its layout
    OPTION = "CHOICE"

    [board]
    file = "~/board.toml"   # the board's wiring file (default: the shipped board of the game)
    backend = "gpio"        # the backend: gpio, serial or sim (default: serial, then gpio)
    port = "/dev/ttyACM0"   # serial: the Pico's port (default: found on USB)
    pin_factory = "lgpio"   # gpio: gpiozero's pin factory (GPIOZERO_PIN_FACTORY wins over it)
    brightness = 60         # % of full brightness for every LED (0 to 100)
    budget_ma = 1500        # the LED supply's current budget, instead of the board file's

    [broadcast]
    url = "mqtt://board3:secret@club.local/reedboard"  # publish every game live to the club's broker
    name = "board3"         # this board's name there (default: the MQTT user)

    [page]
    sound = true            # tones for a move, an illegal board and the roll
    voice = true            # spoken announcements
    language = "de"         # en, de or ro

    [players]
    black = "Ann"
    white = "Bob"

The settings a player changes at the table in the web view (debounce, settle, grace,
takebacks) are written back to the [play] table by `write_back`, keeping the rest of the file
and its comments. [page] is checked and shown by `reedboard config`; the page keeps each
browser's own sound and voice choices. [players] names go into each game's journal.
"""

from __future__ import annotations

import math
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from ..core.clock import ClockSettings
from ..language.catalogue import COMMANDS, LANGUAGES, N_, PLAY
from ..core.computer import parse_opponent
from ..games import GAMES, brief, colours, game_name, top_level
from ..persist.game_files import default_games_dir
from ..core.reconcile import Settings
from ..ground.tomlfile import read_toml

_ = COMMANDS.gettext

SETUP_CHOICES = ("auto", "shuffle", "identify")
WATCHERS = 64  # the web view's default (web.limits.Limits.watchers; not imported: it needs starlette)
WATCHERS_MOST = 500  # each watcher is an open file, of 1,024 on a Pi
TOKEN = re.compile(r"[A-Za-z0-9._~-]{8,200}")  # what a URL carries as it is
PAGE_SETTINGS = ("debounce", "settle", "grace", "takebacks")  # changed at the table, written back


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the file and the key."""


# --- the keys -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Key:
    """One key of the file: `table.name`, what it allows, and the `play` option over it."""

    name: str  # "play.settle"
    rule: str  # what is allowed, in words, marked N_: "a number of seconds from {low} to {high}"
    read: Callable[[object, Path], object]  # the value the commands use; ValueError when not allowed
    default: object = None
    unset: str | Callable[[], str] = ""  # what None means, in words, marked N_ ("found on USB"); a callable: a value
    flag: str | None = None  # the `play` option (its argparse dest) that overrides the key
    values: tuple[tuple[str, str], ...] = ()  # the rule's {placeholders}

    def allowed(self, english: bool = False) -> str:
        """What is allowed, in the language in use (or in English, for JSON)."""
        return (self.rule if english else _(self.rule)).format(**dict(self.values))

    def unset_words(self) -> str:
        """What None means, in the language in use ("" when it has no words)."""
        if callable(self.unset):
            return self.unset()
        return _(self.unset) if self.unset else ""

    @property
    def table(self) -> str:
        return self.name.split(".")[0]

    @property
    def key(self) -> str:
        return self.name.split(".", 1)[1]

    @property
    def option(self) -> str | None:
        """The option as it is written: "--settle", or "GAME" for the positional."""
        if self.flag is None:
            return None
        return "GAME" if self.flag == "game" else "--" + self.flag.replace("_", "-")


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _choice(words: Iterable[str]) -> Callable[[object, Path], str]:
    words = tuple(words)

    def read(value: object, base: Path) -> str:
        if value not in words:
            raise ValueError
        return value
    return read


def _boolean(value: object, base: Path) -> bool:
    if not isinstance(value, bool):
        raise ValueError
    return value


def _seconds(name: str) -> Callable[[object, Path], float]:
    low, high = Settings.BOUNDS[name]

    def read(value: object, base: Path) -> float:
        if not _number(value) or not low <= value <= high:  # compared before float(): 10**400 is no float
            raise ValueError
        return float(value)
    return read


def _range(low: float, high: float, whole: bool = False, above: bool = False) -> Callable[[object, Path], float]:
    def read(value: object, base: Path):
        if not _number(value) or (whole and not isinstance(value, int)):
            raise ValueError
        if not (low < value if above else low <= value) or not value <= high:  # NaN fails too
            raise ValueError
        return value
    return read


def _clock(value: object, base: Path) -> ClockSettings | None:
    if value is False or (isinstance(value, str) and value.strip().lower() in ("off", "none", "0")) or value == 0:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ValueError
    return ClockSettings.parse(str(value))


def _listen(value: object, base: Path) -> str:
    if not isinstance(value, str):
        raise ValueError
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError
    return value


def _token(value: object, base: Path) -> str:
    if not isinstance(value, str) or not TOKEN.fullmatch(value):
        raise ValueError
    return value


def _opponent(value: object, base: Path) -> int | None:
    if not isinstance(value, str):
        raise ValueError
    return parse_opponent(value)


def _broadcast_url(value: object, base: Path) -> str:
    from ..broadcast.address import parse_broker_url

    if not isinstance(value, str):
        raise ValueError
    parse_broker_url(value)  # BroadcastError (a ValueError) when it cannot be used
    return value


def _board_name(value: object, base: Path) -> str:
    from ..broadcast.address import check_name

    if not isinstance(value, str):
        raise ValueError
    return check_name(value)


def _text(longest: int) -> Callable[[object, Path], str]:
    def read(value: object, base: Path) -> str:
        if not isinstance(value, str) or not 0 < len(value.strip()) <= longest or not value.isprintable():
            raise ValueError
        return value.strip()
    return read


PATH_MOST, NAME_MOST = 4095, 255  # bytes of a path, and of one of its names (Linux's PATH_MAX, NAME_MAX)


def _path(value: object, base: Path) -> Path:
    if not isinstance(value, str) or not value.strip() or "\0" in value or not value.isprintable():
        raise ValueError
    path = Path(value).expanduser()
    path = path if path.is_absolute() else base / path  # a service runs elsewhere than its file
    encoded = os.fsencode(path)
    if len(encoded) > PATH_MOST or any(len(part) > NAME_MOST for part in encoded.split(b"/")):
        raise ValueError
    return path


def _directory(value: object, base: Path) -> Path:
    """A directory's path: one that is a directory, or that can be made (what exists of it is
    directories): never a file, /dev/null or a device."""
    path = _path(value, base)
    existing = path
    try:
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        if not existing.is_dir():
            raise ValueError
    except OSError:
        raise ValueError from None
    return path


def _file(value: object, base: Path) -> Path:
    """A file's path: where there is something, a regular file (not a directory, a device or a pipe)."""
    path = _path(value, base)
    try:
        if path.exists() and not path.is_file():
            raise ValueError
    except OSError:
        raise ValueError from None
    return path


def _game_keys() -> list[Key]:
    """Each game's start options that are a choice of words: [GAME] OPTION = "CHOICE"."""
    return [Key(f"{name}.{option.flag}", N_("one of {choices}"), _choice(option.choices),
                unset=(option.default or option.help.split("(")[-1].rstrip(")").removeprefix("default ")
                       if "(" in option.help or option.default else N_("the game's own")),
                flag=option.flag.replace("-", "_"), values=(("choices", ", ".join(option.choices)),))
            for name, cls in sorted(GAMES.items()) for option in cls.options if option.choices]


def _pin_factories() -> tuple[str, ...]:
    from reedboard.hal.backend_tables import PIN_FACTORIES

    return PIN_FACTORIES


def _hal_names() -> tuple[str, ...]:
    from reedboard.hal.registry import names

    return names()


def _one_of(words: Iterable[str]) -> tuple[tuple[str, str], ...]:
    return (("choices", ", ".join(words)),)


KEYS: tuple[Key, ...] = (
    Key("play.game", N_("one of {choices} (any case)"), lambda value, path: _choice(sorted(GAMES))(
        game_name(value), path),
        unset=N_("named on the command line"), flag="game", values=_one_of(sorted(GAMES))),
    Key("play.setup", N_("one of {choices}"), _choice(SETUP_CHOICES),
        unset=N_("the game's own"), flag="setup_mode", values=_one_of(SETUP_CHOICES)),
    Key("play.clock", N_('MINUTES or MINUTES+SECONDS (e.g. "10+5"), or "off"'), _clock, unset=N_("off"), flag="clock"),
    Key("play.takebacks", N_("true or false"), _boolean, default=True),
    *(Key(f"play.{name}", N_("a number of seconds from {low} to {high}"), _seconds(name),
          default=getattr(Settings(), name), values=(("low", f"{low:g}"), ("high", f"{high:g}")))
      for name, (low, high) in Settings.BOUNDS.items()),
    Key("play.listen", N_('HOST:PORT (e.g. "0.0.0.0:8000")'), _listen, default="127.0.0.1:8000", flag="listen"),
    Key("play.token", N_("8 to 200 letters, digits or . _ ~ -"), _token,
        unset=N_("a new one at each start, when listening beyond this computer")),
    Key("play.watchers", N_("a whole number from 1 to {most}"), _range(1, WATCHERS_MOST, whole=True),
        default=WATCHERS, flag="watchers", values=(("most", str(WATCHERS_MOST)),)),
    Key("play.games_dir", N_("a directory's path (a directory, or one that can be made)"), _directory,
        unset=lambda: str(default_games_dir()), flag="games_dir"),
    Key("play.vs", N_("human, computer or computer:1 .. computer:{top}"), _opponent, unset=N_("human"), flag="vs",
        values=(("top", str(top_level())),)),
    Key("play.computer_plays", N_("one of {choices}"), _choice(colours()),
        unset=N_("the second player"), flag="computer_plays", values=_one_of(colours())),
    Key("play.think_seconds", N_("a number of seconds from {low} to {high}"), _range(0.1, 60), default=2.0,
        flag="think_seconds", values=(("low", "0.1"), ("high", "60"))),
    *_game_keys(),
    Key("board.file", N_("a board file's path (a file, not a directory or a device)"), _file,
        unset=N_("the shipped board of the game"), flag="board"),
    Key("board.backend", N_("one of {choices}"), _choice(_hal_names()),
        unset=N_("serial, then gpio, else the simulated board"), flag="backend", values=_one_of(_hal_names())),
    Key("board.port", N_("a serial port's name (e.g. \"/dev/ttyACM0\")"), _text(200), unset=N_("found on USB"),
        flag="port"),
    Key("board.pin_factory", N_("one of {choices}"), _choice(_pin_factories()),
        unset=N_("GPIOZERO_PIN_FACTORY, else the board file's, else gpiozero's own choice"),
        values=_one_of(_pin_factories())),
    Key("board.brightness", N_("a number from 0 to 100 (% of full brightness)"), _range(0, 100), default=100),
    Key("board.budget_ma", N_("a number of milliamps above 0, at most 100000"), _range(0, 100_000, above=True),
        unset=N_("the board file's")),
    Key("broadcast.url", N_("mqtt://[USER:PASSWORD@]HOST[:PORT][/PREFIX] or mqtts://..."), _broadcast_url,
        unset=N_("no broadcast"), flag="broadcast"),
    Key("broadcast.name", N_("a board name: 1 to 40 letters, digits, _ . or -"), _board_name,
        unset=N_("the MQTT user, else the host name"), flag="name"),
    Key("page.sound", N_("true or false"), _boolean, default=False),
    Key("page.voice", N_("true or false"), _boolean, default=False),
    Key("page.language", N_("one of {choices}"), _choice(LANGUAGES), unset=N_("the browser's language"),
        values=_one_of(LANGUAGES)),
    *(Key(f"players.{colour}", N_("a name of 1 to 40 characters"), _text(40),
          unset=lambda colour=colour: PLAY.gettext(colour.capitalize()), flag=colour) for colour in colours()),
)
BY_NAME: dict[str, Key] = {key.name: key for key in KEYS}
FORMER_NAMES = {"board.hal": "board.backend"}  # still read, as the key's name now
TABLES: tuple[str, ...] = tuple(dict.fromkeys(key.table for key in KEYS))


# --- what holds ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Setting:
    value: object
    source: str  # "default", "file:LINE" (or "file"), or the option: "--settle", "GAME"


@dataclass(frozen=True)
class Configuration:
    """Every key's value and where it came from."""

    path: Path | None = None  # the file read; None when there is none
    settings: Mapping[str, Setting] = field(default_factory=dict)

    def __getitem__(self, name: str) -> object:
        return self.settings[name].value

    def source(self, name: str) -> str:
        return self.settings[name].source

    def reconciler(self) -> Settings:
        """The referee's timing and takebacks."""
        return Settings(**{key: self[f"play.{key}"] for key in PAGE_SETTINGS})

    def with_flags(self, args: object) -> Configuration:
        """This configuration under the `play` options given (argparse's Namespace: an option
        left out is None). A game's start option counts for the game played only."""
        settings = dict(self.settings)
        game = getattr(args, "game", None) or self["play.game"]
        for key in KEYS:
            value = getattr(args, key.flag, None) if key.flag else None
            if value is None or (key.table in GAMES and key.table != game):
                continue
            if key.flag == "listen" and isinstance(value, tuple):  # cli's HOST:PORT, parsed
                host, port = value
                if host is None:  # a port alone: on the host listened on without --listen
                    host = self["play.listen"].rpartition(":")[0].strip("[]")
                value = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
            elif key.flag == "clock" and value == "off":
                value = None
            elif key.read in (_path, _directory, _file):  # checked as the file's would be
                try:
                    value = key.read(str(value), Path.cwd())
                except ValueError:
                    raise ConfigError(_("{option}: must be {allowed}, not {value}").format(
                        option=key.option, allowed=key.allowed(), value=_shown(str(value)))) from None
            elif key.read is _opponent:  # the words, checked by the option already: a level or None
                value = parse_opponent(value)
            settings[key.name] = Setting(value, key.option)
        return replace(self, settings=settings)


def default_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "reedboard" / "config.toml"


def defaults() -> Configuration:
    return Configuration(None, {key.name: Setting(key.default, "default") for key in KEYS})


def load(path: str | Path | None = None) -> Configuration:
    """The configuration of the file (the default one when none is named, if it exists) over
    the defaults. A file named must exist. ConfigError names the file and the key."""
    if path is None:
        path = default_path()
        if not path.exists():
            return defaults()
    path = Path(path)
    data = read_toml(path, ConfigError, "the configuration")
    lines = _key_lines(path)
    settings = dict(defaults().settings)
    for table, values in data.items():
        if table not in TABLES:
            raise ConfigError(_("{path}: unknown table [{table}] (reedboard reads {tables})").format(
                path=path, table=_named(table), tables=_tables_in_words()))
        if not isinstance(values, dict):
            raise ConfigError(_("{path}: {table} must be a table ([{table}])").format(path=path, table=table))
        for name, value in values.items():
            written = f"{table}.{name}"
            key = BY_NAME.get(FORMER_NAMES.get(written, written))
            if key is None:
                known = ", ".join(k.key for k in KEYS if k.table == table)
                raise ConfigError(_("{path}: unknown key {table}.{key} (known in [{table}]: {known})").format(
                    path=path, table=table, key=_named(name), known=known))
            try:
                read = key.read(value, path.parent)
            except (ValueError, OverflowError):
                raise ConfigError(_("{path}: {key}: must be {allowed}, not {value}").format(
                    path=path, key=key.name, allowed=key.allowed(), value=_shown(value))) from None
            line = lines.get(written)
            settings[key.name] = Setting(read, f"file:{line}" if line else "file")
    return Configuration(path, settings)


def _named(name: str) -> str:
    """A key or table name someone wrote, as it is when plain, else quoted and short."""
    return name if re.fullmatch(r"[A-Za-z0-9_-]{1,40}", name) else brief(name)


def _tables_in_words() -> str:
    return ", ".join(f"[{table}]" for table in TABLES)


def _shown(value: object) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10 ** 12:
        return _("a number that large")
    return brief(value)


_TABLE_LINE = re.compile(r"\s*\[\s*([A-Za-z0-9_-]+)\s*\]\s*(#.*)?$")
_KEY_LINE = re.compile(r"\s*([A-Za-z0-9_-]+)\s*=")


def _key_lines(path: Path) -> dict[str, int]:
    """Where each `table.key` stands in the file (simple `key = value` lines under `[table]`),
    for `reedboard config` to say; a key written another way has no line."""
    lines: dict[str, int] = {}
    table = ""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return lines
    for number, line in enumerate(text.splitlines(), 1):
        if header := _TABLE_LINE.match(line):
            table = header.group(1)
        elif (key := _KEY_LINE.match(line)) and table:
            lines.setdefault(f"{table}.{key.group(1)}", number)
    return lines


# --- shown to people ----------------------------------------------------------------------------------

def shown(key: Key, value: object) -> str:
    """A value as `reedboard config` prints it."""
    if value is None:
        unset = key.unset_words()
        return f"({unset})" if unset else _("(none)")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def as_json(key: Key, value: object) -> object:
    if value is None or isinstance(value, (bool, int, float)):
        return value
    return str(value)


# --- the page's settings, written back ----------------------------------------------------------------

def cannot_write(path: Path) -> str | None:
    """Why `path` could not be replaced by a new version (a temporary file beside it, then a
    rename), or None."""
    directory = path.parent
    existing = directory
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        return _("{path} cannot be written in").format(path=existing)
    if path.exists() and (not path.is_file() or not os.access(path, os.W_OK)):
        return _("{path} cannot be written").format(path=path)
    return None


def write_back(path: Path, changes: Mapping[str, object]) -> None:
    """Set `changes` ({"settle": 0.5}) in the file's [play] table, keeping every other line and
    comment; the file is replaced at once (a new file renamed over it), never half written. A
    symbolic link is followed: its target is replaced, the link stays. The file is read as every
    file is (a regular file of at most TOML_LIMIT bytes, never waiting on a pipe). OSError when
    it cannot be read or written; ImportError without tomlkit."""
    import tomlkit

    from ..ground.readfile import TOML_LIMIT, read_text

    path = Path(os.path.realpath(path))  # a link's target (a missing one: where the link points)
    text = read_text(path, TOML_LIMIT, "configuration") if os.path.lexists(path) else ""
    document = tomlkit.parse(text)
    play = document.get("play")
    if play is None:
        play = document["play"] = tomlkit.table()
    for name, value in changes.items():
        play[name] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(tomlkit.dumps(document))
            file.flush()
            os.fsync(file.fileno())  # the rename must not land before the content does
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def changed_settings(before: Settings, after: Settings) -> dict[str, object]:
    """The page's settings that differ, by name."""
    return {f.name: getattr(after, f.name) for f in fields(Settings)
            if f.name in PAGE_SETTINGS and getattr(after, f.name) != getattr(before, f.name)}


# --- what `play` read before the other keys came -------------------------------------------------------

@dataclass(frozen=True)
class PlayConfig:
    setup: str | None = None
    clock: ClockSettings | None = None
    settings: Settings = field(default_factory=Settings)
    listen: str | None = None
    games_dir: Path | None = None
    source: str | None = None  # the file read, if any


def load_play(path: str | Path | None = None) -> PlayConfig:
    """The [play] settings of the configuration file (see `load`)."""
    config = load(path)
    listen = config["play.listen"] if config.source("play.listen") != "default" else None
    return PlayConfig(setup=config["play.setup"], clock=config["play.clock"], settings=config.reconciler(),
                      listen=listen, games_dir=config["play.games_dir"],
                      source=str(config.path) if config.path else None)
