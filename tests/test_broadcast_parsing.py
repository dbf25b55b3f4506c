"""Broker URLs, board names and the command lines of the broadcast: one-line errors."""

import argparse

import pytest

from reedboard.controller.broadcast import add_broadcast_arguments
from reedboard.controller.broadcast.address import BroadcastError, check_name, parse_broker_url
from reedboard.controller.commands.club_command import add_parser, host_port
from reedboard.controller.broadcast.publisher.arguments import add_replay_broadcast_arguments
from reedboard.controller.commands.replay_command import run_broadcast as run_replay_broadcast

pytestmark = pytest.mark.system


@pytest.mark.parametrize("url, expected", [
    ("mqtt://club.local", ("club.local", 1883, "reedboard", None, None, False)),
    ("mqtts://table1:s%40cret@broker.example:8884/chess/club", ("broker.example", 8884, "chess/club", "table1",
                                                                 "s@cret", True)),
    ("mqtt://[::1]:1884/", ("::1", 1884, "reedboard", None, None, False)),
    ("mqtt://u:@h", ("h", 1883, "reedboard", "u", "", False)),
])
def test_broker_urls(url, expected):
    a = parse_broker_url(url)
    assert (a.host, a.port, a.prefix, a.username, a.password, a.tls) == expected
    assert "cret" not in str(a)


@pytest.mark.parametrize("url", ["", "http://h", "mqtt://", "mqtt://h:99999", "mqtt://h:x", "mqtt://h/a+b",
                                 "mqtt://h/#", "mqtt://h?x=1", "mqtt://:pw@h", "mqtt://h a", None])
def test_bad_broker_urls_are_one_line(url):
    with pytest.raises(BroadcastError) as error:
        parse_broker_url(url)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("name", ["", "a/b", "+", "#", "x" * 41, "-x", "a b"])
def test_bad_board_names(name):
    with pytest.raises(BroadcastError):
        check_name(name)


def commands():
    parser = argparse.ArgumentParser(prog="reedboard")
    sub = parser.add_subparsers(dest="command")
    add_parser(sub)
    replay = sub.add_parser("replay")
    replay.add_argument("trace")
    add_replay_broadcast_arguments(replay)
    play = sub.add_parser("play")
    add_broadcast_arguments(play)
    return parser


def test_the_command_lines():
    parser = commands()
    args = parser.parse_args(["club", "--broker", "mqtt://h", "--listen", "127.0.0.1:9000"])
    assert args.run and args.broker == "mqtt://h" and args.listen == "127.0.0.1:9000"
    args = parser.parse_args(["replay", "t.jsonl", "--broadcast", "mqtt://h", "--name", "t1", "--speed", "0"])
    assert (args.broadcast, args.name, args.speed) == ("mqtt://h", "t1", 0.0)
    args = parser.parse_args(["play", "--broadcast", "mqtts://h", "--name", "t2"])
    assert (args.broadcast, args.name) == ("mqtts://h", "t2")


@pytest.mark.parametrize("text", ["9000", "host:", ":80", "h:0", "h:70000", "h:x"])
def test_bad_listen_addresses(text):
    with pytest.raises(ValueError):
        host_port(text, "--listen")


def test_replay_broadcast_bad_input_is_a_usage_error(tmp_path):
    from reedboard.controller.commands.usage import UsageError
    parser = commands()
    for argv, words in [(["replay", "x.jsonl", "--broadcast", "http://h", "--name", "t"], "mqtt://"),
                        (["replay", str(tmp_path / "none.jsonl"), "--broadcast", "mqtt://h", "--name", "t"], "none"),
                        (["replay", "x.jsonl", "--broadcast", "mqtt://h", "--name", "a/b"], "name"),
                        (["replay", "x.jsonl", "--broadcast", "mqtt://h", "--speed", "-1"], "--speed")]:
        with pytest.raises(UsageError) as error:
            run_replay_broadcast(parser.parse_args(argv))
        assert words in str(error.value) and "\n" not in str(error.value)


def test_the_options_import_no_mqtt_client():
    """`reedboard --help` and every other command stay as quick as before: the MQTT client and
    the club's server come in only when a broadcast or the club starts."""
    import subprocess
    import sys
    code = ("import sys; import reedboard.controller.broadcast, reedboard.controller.commands.club_command;"
            " print(sorted(m for m in ('aiomqtt', 'paho', 'amqtt', 'starlette') if m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "[]"
