"""Reading a TOML file that people write by hand (a board file, a board definition, the
configuration), with errors that name the file.

Only a regular file of at most TOML_LIMIT bytes is read (see readfile): a FIFO would block for
ever, a device such as /dev/zero never ends, and such a file is a few kB.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from .readfile import TOML_LIMIT, read_text

__all__ = ["parse_toml", "read_toml"]


def read_toml(path: str | Path, error: type[ValueError], what: str = "the file") -> dict:
    """The file's tables; `error` (naming the file) when it cannot be read or is not TOML."""
    try:
        text = read_text(path, TOML_LIMIT, "TOML file")
    except (OSError, UnicodeDecodeError) as problem:
        raise error(f"{path}: cannot read {what} ({problem})") from None
    return parse_toml(text, str(path), error)


def parse_toml(text: str, source: str, error: type[ValueError]) -> dict:
    """The tables of TOML text; `error` naming `source` when it is not TOML."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as problem:
        raise error(f"{source}: not valid TOML ({problem})") from None
    except RecursionError:  # the parser recurses into each nested array or inline table
        raise error(f"{source}: not valid TOML (arrays or tables nested too deeply)") from None
