"""Live broadcast over MQTT: each board publishes its game to a broker, a club page shows them all.

Two sides, each one job, each a package. The board's side is publisher/: publisher/board.py
publishes a play session (`attach`), publisher/replay.py a recorded game, publisher/arguments.py
holds the options of `play` and `replay` for it. The club's side is club/: what the boards send
kept, followed on the broker, shown on the club's and the spectators' pages, a tournament run,
the brokers run on this computer; `reedboard club` is commands/club_command.py. Both sides speak
the topics and payloads of messages.py (docs/broadcast.md) to a broker named as address.py reads
it, and nothing of one side imports the other. The MQTT client is imported only when a broadcast
starts (`attach`, `Broadcaster`), not for the command line's options.
"""

from .address import BroadcastError, BrokerAddress, parse_broker_url
from .publisher.arguments import add_broadcast_arguments, add_replay_broadcast_arguments

__all__ = ["BroadcastError", "BrokerAddress", "Broadcaster", "add_broadcast_arguments",
           "add_replay_broadcast_arguments", "attach", "parse_broker_url"]


def __getattr__(name: str):
    if name in ("attach", "Broadcaster"):
        from .publisher import board
        return getattr(board, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
