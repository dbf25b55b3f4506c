"""Reading a TOML file that people write by hand, with errors that name the file."""

from __future__ import annotations

from pathlib import Path

from reedboard.hal.tomlfile import parse_toml

from reedboard.controller.persist.readfile import TOML_LIMIT, read_text

__all__ = ["parse_toml", "read_toml"]


def read_toml(path: str | Path, error: type[ValueError], what: str = "the file") -> dict:
    """The file's tables; `error` (naming the file) when it cannot be read or is not TOML.

    Only a regular file of at most TOML_LIMIT bytes is read (board files and configurations
    are a few kB)."""
    try:
        text = read_text(path, TOML_LIMIT, "TOML file")
    except (OSError, UnicodeDecodeError) as problem:
        raise error(f"{path}: cannot read {what} ({problem})") from None
    return parse_toml(text, str(path), error)
