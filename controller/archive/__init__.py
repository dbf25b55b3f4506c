"""The game archive: every game journaled at the board (or imported, or replayed from a trace),
as records people can read and type (records), indexed for finding them (index), and the
`reedboard games` command (games_command). The journals stay the truth: the index is built
from them and can be deleted at any time.
"""
