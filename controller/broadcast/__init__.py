"""Live broadcast over MQTT: each board publishes its game to a broker, a club page shows them all.

board.py publishes a play session (`attach`), replay_publish.py a recorded game, club.py keeps
what the boards send, club_app.py serves the club's page (and the spectators', which reads the
boards from the broker itself: static/spectate.*), club_command.py is `reedboard club`;
mosquitto.py and rabbitmq.py run those brokers on this computer (RabbitMQ: MQTT over WebSockets
for the spectators); docs/broadcast.md gives the topics and payloads. The MQTT client is
imported only when a broadcast starts (`attach`, `Broadcaster`), not for the command line's options.
"""

from .address import BroadcastError, BrokerAddress, parse_broker_url
from .arguments import add_broadcast_arguments, add_replay_broadcast_arguments

__all__ = ["BroadcastError", "BrokerAddress", "Broadcaster", "add_broadcast_arguments",
           "add_replay_broadcast_arguments", "attach", "parse_broker_url"]


def __getattr__(name: str):
    if name in ("attach", "Broadcaster"):
        from . import board
        return getattr(board, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
