"""The board's side of the broadcast: a board publishes its game to the club's broker.

board.py publishes a play session as it is played (`attach`, `Broadcaster`: the journal's lines,
the retained state, the outbox kept on disk while the broker is away), replay.py a recorded
game (`reedboard replay --broadcast`), arguments.py the options `play` and `replay` take for it.
The club's side (following the boards, the club's and the spectators' pages, the brokers, the
tournament) is controller/broadcast/club/; both speak the topics and payloads of
messages.py to the broker named as address.py reads it.
"""
