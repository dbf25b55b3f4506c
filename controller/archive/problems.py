"""What the archive cannot answer, each kind its own type, each one line for people: the web
turns them into its statuses, the command line into its one line and exit."""

from __future__ import annotations


class ArchiveError(ValueError):
    """A request the archive cannot answer (no such game, a bad filter); one line for people."""


class QueryError(ArchiveError):
    """A question put wrongly: a filter, a player's name or a day that is not one."""


class NoSuchGame(ArchiveError):
    """No game by that name in the games folder (or no games at all yet)."""


class UnreadableGame(ArchiveError):
    """A game whose journal cannot be read far enough to replay it."""


class ArchiveBusy(ArchiveError):
    """The index is held by another program (`reedboard games`) or is being rebuilt: ask again
    in a moment."""
