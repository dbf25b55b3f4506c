"""What a page may ask of a play session, refused: ActionError and the HTTP status it means."""

from __future__ import annotations


class ActionError(ValueError):
    """An action the session refuses; `status` is the HTTP status the web view answers with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status
