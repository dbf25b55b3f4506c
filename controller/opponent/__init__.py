"""The computer opponent: searches over the Game interface, its levels, and engine matches.

Pure: no I/O, the time and the stopping given from outside, so a worker process, a test or a
match runs the same search.
"""

from .levels import LEVELS, Level, level
from .search import choose
from .search_parts import ROLL, Limits, Result

__all__ = ["LEVELS", "ROLL", "Level", "Limits", "Result", "choose", "level"]
