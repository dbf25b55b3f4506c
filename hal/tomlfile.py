"""Reading a board file: TOML that people write by hand, with errors that name the file.

Only a regular file of at most TOML_LIMIT bytes is read: a FIFO would block for ever, a
device such as /dev/zero never ends, and a board file is a few kB.
"""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

TOML_LIMIT = 1 << 20  # bytes


def read_toml(path: str | Path, error: type[ValueError], what: str = "the file") -> dict:
    """The file's tables; `error` (naming the file) when it cannot be read or is not TOML."""
    try:
        text = _read_text(path, TOML_LIMIT)
    except (OSError, UnicodeDecodeError) as problem:
        raise error(f"{path}: cannot read {what} ({problem})") from None
    return parse_toml(text, str(path), error)


def parse_toml(text: str, source: str, error: type[ValueError]) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as problem:
        raise error(f"{source}: not valid TOML ({problem})") from None
    except RecursionError:  # the parser recurses into each nested array or inline table
        raise error(f"{source}: not valid TOML (arrays or tables nested too deeply)") from None


def _read_text(path: str | Path, limit: int) -> str:
    _check(os.stat(path), limit)  # before opening: opening a device may do something
    # O_NONBLOCK: a name swapped for a FIFO since does not make the open wait for a writer.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        _check(os.fstat(fd), limit)
        chunks, size = [], 0
        while chunk := os.read(fd, limit + 1 - size):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:  # it grew while being read
                raise OSError(f"it is more than {limit >> 20} MiB; a board file may have {limit >> 20} MiB at most")
    finally:
        os.close(fd)
    return b"".join(chunks).decode("utf-8")


def _check(info: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise OSError("not a regular file")
    if info.st_size > limit:
        raise OSError(f"it is {info.st_size} bytes; a board file may have {limit >> 20} MiB at most")
