"""What the page's WebSocket sends each watcher: the session's snapshot with its words in the
watcher's language only, and the parts that stay as they are for a game (FIXED: the board's
geometry and the order of its cells, the games' catalogue, the lights' colours) only when they
are new to that watcher: on connecting, for a new game of another kind, for the catalogue in
another language. A part a snapshot no longer has is sent as null.

Every message is a snapshot, so the first one is whole; the page keeps the fixed parts it was
sent and puts them back into the messages that come without them (static/server.js). Each
snapshot is encoded once per language, and each fixed part once, for all the watchers.
"""

from __future__ import annotations

from ..session.play_session import PlaySession

from .replies import encoded

FIXED = ("geometry", "order", "games", "palette")


def _json(value: object) -> str:
    return encoded(value).decode("utf-8")


class Encoded:
    """A snapshot's JSON in pieces: all but the fixed parts, and each fixed part, each encoded once."""

    def __init__(self, snapshot: dict) -> None:
        self.snapshot = snapshot
        self.rest = _json({key: value for key, value in snapshot.items() if key not in FIXED})
        self._parts: dict[str, str] = {}

    def with_parts(self, keys: list[str]) -> str:
        """The message: the rest, and the fixed parts `keys` (null for one the snapshot lacks)."""
        if not keys:
            return self.rest
        for key in keys:
            if key not in self._parts:
                self._parts[key] = _json(self.snapshot.get(key))
        parts = ",".join(f'"{key}":{self._parts[key]}' for key in keys)
        return "{" + parts + "}" if self.rest == "{}" else self.rest[:-1] + "," + parts + "}"


class PageMessages:
    """The session's latest snapshot in each language asked for, encoded: shared by every watcher."""

    def __init__(self, session: PlaySession) -> None:
        self.session = session
        self._latest: dict[str, Encoded] = {}  # lang -> the latest snapshot in it

    def encoded(self, lang: str) -> Encoded:
        snapshot = self.session.snapshot((lang,))
        kept = self._latest.get(lang)
        if kept is None or kept.snapshot is not snapshot:
            kept = self._latest[lang] = Encoded(snapshot)
        return kept

    def watcher(self, lang: str) -> Watcher:
        return Watcher(self, lang)


_ABSENT = object()


class Watcher:
    """One watcher's feed: its language, and the fixed parts it holds (as it was sent them)."""

    def __init__(self, messages: PageMessages, lang: str) -> None:
        self.messages = messages
        self.lang = lang
        self._held: dict[str, object] = {}
        self._sent: tuple | None = None  # (seq, lang) of the last message

    def next_message(self) -> str | None:
        """The latest snapshot for this watcher, or None when it was sent it already."""
        encoded = self.messages.encoded(self.lang)
        snapshot = encoded.snapshot
        sent = (snapshot.get("seq"), self.lang)
        if sent == self._sent:
            return None
        self._sent = sent
        new = []
        for key in FIXED:
            value, held = snapshot.get(key, _ABSENT), self._held.get(key, _ABSENT)
            if value is held or (value is not _ABSENT and held is not _ABSENT and value == held):
                continue
            new.append(key)
            if value is _ABSENT:
                del self._held[key]
            else:
                self._held[key] = value
        return encoded.with_parts(new)
