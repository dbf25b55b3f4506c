"""The club's amqtt broker while clients come and go. amqtt 0.12 walks its table of
subscriptions (topic filter: subscribers) while it awaits: a client connecting is sent the
retained messages of every filter, one filter after another. Another client subscribing to a
new filter meanwhile (every board subscribes to its own status when it connects) changed the
table under the walk: `RuntimeError: dictionary changed size during iteration`, and the
connecting client's session ended there, its messages never handed on. The club's broker walks
a copy."""

import asyncio

import aiomqtt
import pytest

from reedboard.controller.broadcast.club import broker as embedded
from reedboard.controller.broadcast.club import mosquitto

pytestmark = pytest.mark.system


def test_the_table_of_subscriptions_can_change_while_it_is_walked():
    async def main():
        port = mosquitto.free_port()
        broker = embedded.EmbeddedBroker("127.0.0.1", port, kind="amqtt")
        await broker.start()
        try:
            async with aiomqtt.Client("127.0.0.1", port, identifier="club") as club:
                for name in ("t1", "t2", "t3"):
                    await club.subscribe(f"reedboard/boards/{name}/status", qos=1)
                table = broker._broker._subscriptions
                walked = []
                for topic in table:  # as amqtt walks it, awaiting at each filter
                    walked.append(topic)
                    await club.subscribe(f"reedboard/boards/new-{len(walked)}/status", qos=1)
                    await club.publish("reedboard/ping", b"", qos=1)  # the subscription is in the table now
                for _, subscribers in table.items():
                    table.setdefault("reedboard/added/while/walking", [])
                return walked, set(table)
        finally:
            await broker.stop()
    walked, table = asyncio.run(asyncio.wait_for(main(), 30))
    assert len(walked) == 3 and "reedboard/boards/new-3/status" in table
