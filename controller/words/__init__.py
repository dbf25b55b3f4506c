"""The players' words at the edge: what the rooms below hand over as codes and data (a refusal
of a move, a note, a prompt, a light's meaning, a problem found in a journal or a trace), said
as sentences in the language in use.

Below this room (games, opponent, core, persist) nothing speaks: they return frozen values with
the data a sentence needs. The rooms above (session, archive, web, broadcast, commands) ask this
room for the words. The catalogues themselves and the choice of a language are
controller/language/'s.
"""

from .saying import said, said_all, say

__all__ = ["said", "said_all", "say"]
