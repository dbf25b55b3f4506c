"""A game at the table in time: live play on a board (the referee with its journal and recorder),
the play session the page and `reedboard play` drive, its snapshots, and replays of traces."""
