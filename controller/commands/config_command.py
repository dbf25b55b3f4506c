"""`reedboard config`: the configuration in effect, every key with its value and where it came from."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from .usage import UsageError
from ..language.catalogue import COMMANDS
from ..words import said

_ = COMMANDS.gettext

if TYPE_CHECKING:  # the configuration's module is read only when the command runs, not for --help
    from ..workshop.config import Configuration


def add_parser(commands) -> argparse.ArgumentParser:
    """`reedboard config [--config FILE] [--json]` on the command line's subcommands."""
    parser = commands.add_parser("config", help=_("show the configuration in effect and where each value comes from"))
    parser.add_argument("--config", metavar="FILE",
                        help=_("the configuration file (default: ~/.config/reedboard/config.toml when it exists)"))
    parser.add_argument("--json", action="store_true", help=_("print it as JSON"))
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from ..workshop.config import ConfigError, load

    try:
        config = load(args.config)
    except ConfigError as error:
        raise UsageError(f"reedboard: {said(error)}") from None
    print(as_text(config) if not args.json else json.dumps(as_data(config), indent=2))
    return 0


def where(config: Configuration) -> str:
    """The file the configuration comes from, in words."""
    from ..workshop.config import default_path

    if config.path is not None:
        return str(config.path)
    return _("{path} (absent: the defaults hold)").format(path=default_path())


def as_text(config: Configuration) -> str:
    """A line per key: `table.key  source  value`, in columns, under the file's name."""
    from ..workshop.config import BY_NAME, shown

    rows = [(name, source_in_words(setting.source), shown(BY_NAME[name], setting.value))
            for name, setting in config.settings.items()]
    key_word, from_word, value_word = _("key"), _("from"), _("value")
    width = max(len(key_word), *(len(name) for name, __, ___ in rows))
    source_width = max(len(from_word), *(len(source) for __, source, ___ in rows))
    lines = [_("configuration: {file}").format(file=where(config)),
             f"{key_word:<{width}}  {from_word:<{source_width}}  {value_word}"]
    lines += [f"{name:<{width}}  {source:<{source_width}}  {value}" for name, source, value in rows]
    return "\n".join(lines)


def source_in_words(source: str) -> str:
    """Where a value came from, as `reedboard config` prints it: "default", "file:12", "--settle"."""
    if source == "default":
        return _("default")
    if source == "file":
        return _("file")
    if source.startswith("file:"):
        return _("file:{line}").format(line=source[5:])
    return source


def as_data(config: Configuration) -> dict:
    """{"file": path or None, "keys": {"play.settle": {"value": 0.8, "source": "default"}, ...}}."""
    from ..workshop.config import KEYS, as_json

    return {
        "file": str(config.path) if config.path else None,
        "keys": {key.name: {"value": as_json(key, config[key.name]), "source": config.source(key.name),
                            "allowed": key.allowed(english=True)}  # JSON: for programs, in English
                 for key in KEYS},
    }
