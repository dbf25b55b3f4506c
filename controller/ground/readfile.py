"""Reading a file someone names: a board file, a board definition, the configuration, a journal,
a trace, a file of game records.

Only a regular file is read, and only up to a size that suits its kind: a FIFO would block
the reader for ever, a device such as /dev/zero never ends, and a runaway file would fill the
memory before it could be refused. Each is refused with an OSError whose text says why, so
that the callers' `cannot read ... (why)` stays one line.

It imports nothing but the standard library, so the board's own files (hal) and the
controller's read through the same checks.
"""

from __future__ import annotations

import os
import stat
from contextlib import contextmanager
from pathlib import Path

MiB = 1 << 20
TOML_LIMIT = 1 * MiB  # board files, board definitions, the configuration: a few kB each
# A journal or trace takes about ten times its size in memory as it is read and checked
# (bench/file_limits.py): 16 MiB keeps that within a small Raspberry Pi's reach. A journal
# line is about 70 bytes (a game has hundreds), a trace frame about 130 (a move makes a few;
# a game at the table is some tens of kB, a day of chattering switches a few MB).
JOURNAL_LIMIT = 16 * MiB
TRACE_LIMIT = 16 * MiB
CHUNK = 1 * MiB

KINDS = {  # what a file that is not a regular one is, in words
    stat.S_IFIFO: "a named pipe",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a directory",
}


class FileRefused(OSError):
    """A file that is not read: not a regular file, or larger than its kind may be."""


def read_bytes(path: str | Path, limit: int, kind: str = "file") -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them (`kind` names it in the
    refusal); OSError when it cannot be read, FileRefused when it is not read."""
    with _opened(path, limit, kind) as fd:
        chunks, size = [], 0
        while chunk := os.read(fd, min(CHUNK, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:  # it grew while being read
                raise FileRefused(_too_big(size, limit, kind, "or more"))
        return b"".join(chunks)


def read_first_line(path: str | Path, limit: int, kind: str = "file") -> bytes:
    """The first line of the regular file at `path`, without its newline, read no further
    than that; refused like read_bytes."""
    with _opened(path, limit, kind) as fd:
        chunks, size = [], 0
        while size <= limit and (chunk := os.read(fd, min(CHUNK, limit + 1 - size))):
            end = chunk.find(b"\n")
            if end >= 0:
                chunks.append(chunk[:end])
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)


def read_text(path: str | Path, limit: int, kind: str = "file") -> str:
    """read_bytes as UTF-8 text (UnicodeDecodeError when it is not)."""
    return read_bytes(path, limit, kind).decode("utf-8")


@contextmanager
def _opened(path: str | Path, limit: int, kind: str):
    """A descriptor of the regular file at `path`, open for reading."""
    _check(os.stat(path), limit, kind)  # before opening: opening a device may do something
    # O_NONBLOCK: should the name have been swapped for a FIFO since, the open does not wait
    # for a writer (and fstat refuses it); on a regular file it changes nothing.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        _check(os.fstat(fd), limit, kind)
        yield fd
    finally:
        os.close(fd)


def _check(info: os.stat_result, limit: int, kind: str) -> None:
    if not stat.S_ISREG(info.st_mode):
        what = KINDS.get(stat.S_IFMT(info.st_mode), "a special file")
        raise FileRefused(f"not a regular file: it is {what}")
    if info.st_size > limit:
        raise FileRefused(_too_big(info.st_size, limit, kind))


def _too_big(size: int, limit: int, kind: str, more: str = "") -> str:
    shown = f"{size / MiB:.1f} MiB"
    if round(size / MiB, 1) <= limit / MiB:  # just over: the rounded size would look allowed
        shown = f"{size} bytes"
    shown += f" {more}" if more else ""
    return f"it is {shown}; a {kind} may have {limit // MiB} MiB at most"
