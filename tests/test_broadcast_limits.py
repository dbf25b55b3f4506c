"""The club's resources under abuse, with small limits so that the tests stay quick (the
full-size runs are bench/club_abuse.py): journals open at once, games per board, boards in all,
bytes of lines waiting for earlier ones, and log lines."""

import logging
import os

import pytest

from reedboard.controller.broadcast.club import club as club_module
from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.persist.journal_reader import read_journal

from club_lines import board_lines, journal_payload

pytestmark = pytest.mark.system


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.fixture
def club(tmp_path):
    (tmp_path / "club").mkdir()
    club = Club(tmp_path / "club", clock=lambda: 1000.0)
    yield club
    club.close()


def test_idle_journals_are_closed_and_games_per_board_capped(club, tmp_path, monkeypatch):
    monkeypatch.setattr(club_module, "OPEN_JOURNALS", 8)
    monkeypatch.setattr(club_module, "GAMES_PER_BOARD", 100)
    lines = board_lines(tmp_path)
    before = open_files()
    for number in range(300):  # unfinished games: a header and a roll each
        for seq in (1, 2):
            club.receive("reedboard/boards/t1/journal", journal_payload("t1", seq, lines[seq - 1], game=f"g{number}"))
    assert club.open_journals == 8 and open_files() <= before + 8
    assert len(list((tmp_path / "club").glob("*.jsonl"))) == 100  # the rest not followed
    assert club.boards["t1"].games["g60"].journal is None  # closed while idle
    for seq in range(3, len(lines) + 1):  # a game goes on: its journal is opened again
        club.receive("reedboard/boards/t1/journal", journal_payload("t1", seq, lines[seq - 1], game="g60"))
    journal = tmp_path / "club" / club.boards["t1"].games["g60"].journal_name
    contents = read_journal(journal)
    assert contents.damage is None and [contents.header, *contents.entries] == lines
    assert club.open_journals <= 8


def test_boards_in_all_are_capped_and_said_once_in_a_while(club, tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(club_module, "BOARDS_LIMIT", 5)
    lines = board_lines(tmp_path)
    with caplog.at_level(logging.WARNING, logger=club_module.log.name):
        for number in range(50):
            club.receive(f"reedboard/boards/b{number}/journal", journal_payload(f"b{number}", 1, lines[0]))
    assert len(club.boards) == 5 and club.garbled == 45
    assert len(caplog.records) == 1  # the clock stands still: one line, however many


def test_lines_waiting_for_earlier_ones_are_bounded_by_bytes(club, tmp_path, monkeypatch):
    monkeypatch.setattr(club_module, "WAITING_BYTES_GAME", 30_000)
    monkeypatch.setattr(club_module, "WAITING_BYTES", 50_000)
    lines = board_lines(tmp_path)
    padded = [dict(line, pad="x" * 1000) for line in lines]  # a later version's key: left out when taken
    for game in ("g1", "g2"):
        for seq in range(2, len(lines) + 1):
            for _ in range(3):  # sent again and again, still held once
                club.receive("reedboard/boards/t1/journal", journal_payload("t1", seq, padded[seq - 1], game=game))
        assert club.boards["t1"].games[game].waiting_bytes <= 30_000
    assert 0 < club.waiting_bytes <= 50_000
    for game in ("g1", "g2"):  # the missing line comes, and the board sends again what was not held
        for seq in range(1, len(lines) + 1):
            club.receive("reedboard/boards/t1/journal", journal_payload("t1", seq, padded[seq - 1], game=game))
        assert club.boards["t1"].games[game].lines == lines
    assert club.waiting_bytes == 0


def test_a_journal_message_larger_than_a_line_can_be_is_dropped(club, tmp_path):
    lines = board_lines(tmp_path)
    club.receive("reedboard/boards/t1/journal", journal_payload("t1", 1, dict(lines[0], pad="x" * 100_000)))
    assert club.garbled == 1 and ("t1" not in club.boards or club.boards["t1"].games == {})


def test_messages_received_and_not_yet_read_are_bounded_by_bytes(monkeypatch):
    import asyncio
    from types import SimpleNamespace

    from reedboard.controller.broadcast.club import follow as club_follow

    monkeypatch.setattr(club_follow, "INBOX_BYTES", 10_000)
    inbox = club_follow.Inbox()
    for _ in range(10):
        inbox.put_nowait(SimpleNamespace(payload=b"x" * 1000))
    with pytest.raises(asyncio.QueueFull):  # aiomqtt drops it, and says so
        inbox.put_nowait(SimpleNamespace(payload=b"x"))
    inbox.get_nowait()
    inbox.put_nowait(SimpleNamespace(payload=b"x" * 1000))
    assert inbox.bytes == 10_000 and inbox.qsize() == 10


@pytest.mark.parametrize("kind", [pytest.param("mosquitto", marks=pytest.mark.mosquitto), "amqtt"])
def test_the_clubs_own_broker_refuses_a_payload_larger_than_the_club_takes(tmp_path, kind):
    import asyncio

    import aiomqtt

    from reedboard.controller.broadcast.club import mosquitto
    from reedboard.controller.broadcast.club.broker import EmbeddedBroker

    async def main():
        broker = EmbeddedBroker("127.0.0.1", mosquitto.free_port(), kind=kind)
        await broker.start()
        try:
            async with aiomqtt.Client("127.0.0.1", broker.port, identifier="club") as club:
                await club.subscribe("reedboard/#", qos=1)
                with pytest.raises(aiomqtt.MqttError):
                    async with aiomqtt.Client("127.0.0.1", broker.port, identifier="big", timeout=2) as big:
                        await big.publish("reedboard/boards/t1/journal", b"x" * (2 << 20), qos=1)
                        await big.publish("reedboard/boards/t1/journal", b"after", qos=1)
                async with aiomqtt.Client("127.0.0.1", broker.port, identifier="small") as small:
                    await small.publish("reedboard/boards/t1/journal", b"small", qos=1)
                async for message in club.messages:  # the large one never came
                    return message.payload
        finally:
            await broker.stop(timeout=1.0)  # amqtt's shutdown waits on the refused client's session
    assert asyncio.run(asyncio.wait_for(main(), 60)) == b"small"


def test_the_embedded_broker_ends_a_connection_at_a_packet_too_large_before_reading_it():
    """A packet announced larger than the club takes ends its connection there: the rest of it is
    never read (read on, it would be taken for thousands of packets of its own, a broker kept
    busy by one client). Sending on into the closed connection fails long before its end."""
    import asyncio
    import socket

    from reedboard.controller.broadcast.club import mosquitto
    from reedboard.controller.broadcast.club.broker import PACKET_LIMIT, EmbeddedBroker

    def length(n: int) -> bytes:  # MQTT's remaining length
        out = bytearray()
        while True:
            n, digit = n >> 7, n & 0x7F
            out.append(digit | (0x80 if n else 0))
            if not n:
                return bytes(out)

    def flood(port: int) -> int:
        """Bytes of the oversized packet the broker let in before the connection failed."""
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            body = b"\x00\x04MQTT\x04\x02\x00\x3c" + b"\x00\x03big"  # CONNECT, clean session
            sock.sendall(b"\x10" + length(len(body)) + body)
            assert sock.recv(4)[:1] == b"\x20"  # CONNACK
            declared = 200 << 20
            sock.sendall(b"\x30" + length(declared))  # PUBLISH, QoS 0, announced 200 MiB
            chunk, sent = b"\x00" * (64 << 10), 0
            try:
                while sent < 16 * PACKET_LIMIT:  # more than the two ends of a socket can hold
                    sock.sendall(chunk)
                    sent += len(chunk)
            except OSError:  # reset or broken pipe: the broker closed the connection
                return sent
            return sent

    async def main():
        broker = EmbeddedBroker("127.0.0.1", mosquitto.free_port(), kind="amqtt")
        await broker.start()
        try:
            return await asyncio.to_thread(flood, broker.port)
        finally:
            await broker.stop(timeout=1.0)

    assert asyncio.run(asyncio.wait_for(main(), 60)) < 16 * PACKET_LIMIT


@pytest.mark.mosquitto
def test_the_clubs_own_broker_keeps_a_bounded_number_of_bytes_for_a_club_away(tmp_path):
    """What the broker holds for the club while it is away (or reads slowly) is bounded by bytes:
    a flood of large lines is dropped by the broker, not kept (their boards send them again,
    the club not having confirmed them)."""
    import asyncio

    import aiomqtt

    from reedboard.controller.broadcast.club import mosquitto
    from reedboard.controller.broadcast.club.broker import EmbeddedBroker

    large = b"x" * (900 << 10)
    sent = 2 * (mosquitto.QUEUED_BYTES + mosquitto.INFLIGHT_BYTES) // len(large)

    async def main():
        broker = EmbeddedBroker("127.0.0.1", mosquitto.free_port(), kind="mosquitto")
        await broker.start()
        try:
            async with aiomqtt.Client("127.0.0.1", broker.port, identifier="club", clean_session=False) as club:
                await club.subscribe("reedboard/#", qos=1)
            async with aiomqtt.Client("127.0.0.1", broker.port, identifier="flood", timeout=30) as flood:
                for _ in range(sent):  # the club away
                    await flood.publish("reedboard/boards/w/journal", large, qos=1)
                received = 0
                async with aiomqtt.Client("127.0.0.1", broker.port, identifier="club", clean_session=False,
                                          timeout=30) as club:
                    async for message in club.messages:
                        if message.payload == b"last":  # queued after whatever the broker kept
                            return received
                        received += len(message.payload)
                        if received == len(large):  # the first came: there is room behind the rest
                            await flood.publish("reedboard/boards/w/journal", b"last", qos=1)
        finally:
            await broker.stop()
    received = asyncio.run(asyncio.wait_for(main(), 120))
    assert len(large) <= received <= mosquitto.QUEUED_BYTES + mosquitto.INFLIGHT_BYTES + len(large)
