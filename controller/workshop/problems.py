"""What the bench cannot do as asked (a report or a board file that cannot be written, a hollow
that is not on the board): one line for the maker, which the command line says and exits 2."""

from __future__ import annotations


class BenchError(ValueError):
    """Something the bench cannot do as asked; its message is one line for the maker."""
