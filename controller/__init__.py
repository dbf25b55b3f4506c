"""reedboard's controller: the rules engines and everything that referees a game on a board."""

__version__ = "0.3.0"
