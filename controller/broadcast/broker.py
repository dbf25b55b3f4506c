"""The embedded broker of `reedboard club` with no --broker: amqtt, in the club's own loop.

Enough for a small club on one laptop (anyone on the network may publish: a larger club runs
Mosquitto with a user per board and an ACL, see docs/broadcast.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

QUIET = ("amqtt", "transitions")


class EmbeddedBroker:
    def __init__(self, host: str = "0.0.0.0", port: int = 1883) -> None:
        self.host, self.port = host, port
        self._broker = None

    async def start(self) -> None:
        """Listen (OSError, one line, when the port is taken)."""
        from amqtt.broker import Broker
        from amqtt.errors import BrokerError

        for name in QUIET:
            logging.getLogger(name).setLevel(logging.WARNING)
        config = {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
            "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}},
        }
        self._broker = Broker(config)
        try:
            await self._broker.start()
        except (BrokerError, OSError) as error:
            self._broker = None
            raise OSError(f"the embedded broker cannot listen on {self.host}:{self.port}:"
                          f" {str(error).splitlines()[0] if str(error) else type(error).__name__}") from None

    async def stop(self, timeout: float = 5.0) -> None:
        """Stop (a shutdown that waits on a client longer than `timeout` is left to the process's end)."""
        broker, self._broker = self._broker, None
        if broker is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(broker.shutdown(), timeout)
