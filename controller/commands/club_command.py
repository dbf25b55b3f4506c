"""`reedboard club [--broker URL] [--listen HOST:PORT] [--spectators URL]`: every board of the evening on one page.

With no --broker the club starts its own broker (amqtt) on --mqtt (default 0.0.0.0:1883),
and the boards publish to mqtt://THIS-COMPUTER/ (see docs/broadcast.md).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .usage import UsageError
from ..language.catalogue import COMMANDS
from ..words import said

if TYPE_CHECKING:  # named in annotations only: `reedboard --help` starts without asyncio
    import asyncio

_ = COMMANDS.gettext

LISTEN = "0.0.0.0:8080"
STOP_WAIT = 5  # s for the page's connections (watchers' WebSockets) to close at a stop: then they are closed
MQTT_LISTEN = "0.0.0.0:1883"


def add_parser(commands) -> argparse.ArgumentParser:
    parser = commands.add_parser("club", help=_("show every board's live game on one page (MQTT broadcast)"))
    parser.add_argument("--broker", metavar="URL",
                        help=_("the boards' broker: mqtt://[USER:PASSWORD@]HOST[:PORT][/PREFIX] (mqtts:// for TLS);"
                               " without it the club runs its own broker"))
    parser.add_argument("--listen", metavar="HOST:PORT", default=LISTEN,
                        help=_("where the club's page is served (default {listen})").format(listen=LISTEN))
    parser.add_argument("--mqtt", metavar="HOST:PORT", default=MQTT_LISTEN,
                        help=_("without --broker: where the club's own broker listens (default {listen})").format(
                            listen=MQTT_LISTEN))
    parser.add_argument("--boards", metavar="FILE",
                        help=_("the boards admitted: a TOML file with a [boards] table of NAME = \"PASSWORD\";"
                               " only they count in the standings, and the club's own broker lets only them in"))
    parser.add_argument("--games", metavar="DIR",
                        help=_("where the club keeps every game received (default: the data folder's club/)"))
    parser.add_argument("--tournament", metavar="DIR",
                        help=_("run the evening as a tournament kept in DIR (started on the organiser's page,"
                               " or taken up where it was); see docs/tournament.md"))
    parser.add_argument("--spectators", metavar="URL",
                        help=_("the broker's MQTT over WebSockets address the spectators' page (/spectate) reads the"
                               " boards from: ws://HOST[:PORT][/PATH] (wss:// for TLS); default: RabbitMQ's Web MQTT"
                               " on the page's own host, ws://HOST:15675/ws"))
    parser.set_defaults(run=run)
    from .club_organiser import add_organiser_actions

    add_organiser_actions(parser)  # `reedboard club pair|result|correct|...`: the organiser's, on a running club
    return parser


def host_port(text: str, what: str) -> tuple[str, int]:
    """HOST:PORT (an IPv6 host in brackets) as (host, port); ValueError (one line) otherwise."""
    host, colon, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(_("{option} is HOST:PORT with a port 1-65535, not {text}").format(option=what, text=repr(text)))
    return host, int(port)


def run(args: argparse.Namespace) -> int:
    import asyncio  # here, not on import: `reedboard --help` starts without it

    from ..persist.game_files import default_games_dir
    from reedboard.hal.install import pip_extra

    from ..broadcast.address import BroadcastError, parse_broker_url

    try:
        web = host_port(args.listen, "--listen")
        mqtt = host_port(args.mqtt, "--mqtt")
        address = parse_broker_url(args.broker) if args.broker else None
        boards = read_boards(args.boards) if args.boards else None
        spectators = spectators_url(args.spectators) if args.spectators is not None else None
    except (ValueError, BroadcastError) as error:
        raise UsageError(f"reedboard: {said(error)}") from None
    games_dir = Path(args.games) if args.games else default_games_dir().parent / "club"
    needed = [("aiomqtt", "web"), ("starlette", "web"), ("uvicorn", "web")] + ([] if address else [("amqtt", "club")]) \
        + ([("networkx", "club"), ("openskill", "club")] if args.tournament else [])
    for module, extra in needed:
        if importlib.util.find_spec(module) is None:
            print(_("reedboard club: {module} is missing: {install}").format(module=module, install=pip_extra(extra)),
                  file=sys.stderr)
            return 2
    _more_files()
    try:
        asyncio.run(serve_club(address, web, mqtt, games_dir, boards=boards, spectators=spectators,
                               tournament=Path(args.tournament) if args.tournament else None))
    except OSError as error:
        print(f"reedboard: {said(error)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


def spectators_url(text: str) -> str:
    """The broker's WebSocket address for the spectators' page, ws://HOST[:PORT][/PATH] or wss://;
    ValueError (one line) otherwise. The page connects without a user: none goes in it."""
    from urllib.parse import urlsplit

    problem = _("--spectators is the broker's MQTT over WebSockets address, ws://HOST[:PORT][/PATH] (wss:// for"
                " TLS), without a user, not {url}").format(url=repr(text[:120]))
    if not text.isprintable() or any(c.isspace() for c in text) or len(text) > 400:
        raise ValueError(problem)
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise ValueError(problem) from None
    if parts.scheme not in ("ws", "wss") or not parts.hostname or parts.username is not None \
            or parts.password is not None or port == 0 or parts.fragment:
        raise ValueError(problem)
    return text


def _more_files(most: int = 8192) -> None:
    """Open files up to the hard limit (at most `most`): each board's connection and each open
    journal is one, and 1,024 is the usual soft limit."""
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = most if hard == resource.RLIM_INFINITY else min(hard, most)
        if soft != resource.RLIM_INFINITY and soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def read_boards(path: str | Path) -> dict[str, str]:
    """The admitted boards of a file's [boards] table (NAME = "PASSWORD"); ValueError (one line)."""
    from ..ground.tomlfile import read_toml
    from ..broadcast.address import NAME

    data = read_toml(path, ValueError, "the club's boards")
    boards = data.get("boards")
    if not isinstance(boards, dict) or not boards or set(data) != {"boards"}:
        raise ValueError(_('{path}: the boards admitted are a [boards] table of NAME = "PASSWORD", and nothing else')
                         .format(path=path))
    for name, password in boards.items():
        if not NAME.match(name) or name == "club":
            raise ValueError(_("{path}: a board's name is 1 to 40 letters, digits, '_', '.' or '-' (not 'club'),"
                               " not {name}").format(path=path, name=repr(name[:60])))
        if not isinstance(password, str) or not 0 < len(password) <= 200 or not password.isprintable():
            raise ValueError(_("{path}: the password of {name} must be 1 to 200 printable characters").format(
                path=path, name=name))
    return dict(boards)


async def serve_club(address, web: tuple[str, int], mqtt: tuple[str, int], games_dir: Path,
                     started: asyncio.Event | None = None, *, boards: dict[str, str] | None = None,
                     broker_kind: str = "auto", tournament: Path | None = None, token: str | None = None,
                     spectators: str | None = None) -> None:
    """The club: its broker (without `address`), its follower and its page, until cancelled.
    `boards` (name: password): the boards admitted; `tournament`: the tournament's folder, whose
    organiser's actions take `token` (one is made when left out); `spectators`: the broker's
    WebSocket address the spectators' page reads from (None: the page's default)."""
    import asyncio
    import secrets
    import socket

    import uvicorn

    from ..broadcast.club.broker import EmbeddedBroker
    from ..broadcast.club.club import Club
    from ..broadcast.club.follow import follow
    from ..broadcast.club.app import create_club_app
    from ..web.listening import tcp_listener

    family = socket.AF_INET6 if ":" in web[0] else socket.AF_INET
    listening = tcp_listener(family)
    try:
        listening.bind(web)
    except OSError as error:
        listening.close()
        raise OSError(_("the club's page cannot listen on {host}:{port} ({problem})").format(
            host=web[0], port=web[1], problem=error.strerror or said(error))) from None
    broker = None
    if address is None:
        broker = EmbeddedBroker(*mqtt, boards=boards, kind=broker_kind)
        try:
            await broker.start()
        except OSError:
            listening.close()
            raise
        address = broker.address
        who = ("USER:PASSWORD@" if boards else "") + f"HOST:{mqtt[1]}"
        if boards:
            print(_("reedboard club: the boards publish to mqtt://THIS-COMPUTER:{port} ({broker};"
                    " reedboard play ... --broadcast mqtt://{who})").format(port=mqtt[1], broker=broker.kind, who=who),
                  flush=True)
        else:
            print(_("reedboard club: the boards publish to mqtt://THIS-COMPUTER:{port} ({broker};"
                    " reedboard play ... --broadcast mqtt://{who} --name NAME): open to anyone on the network"
                    " (--boards FILE admits boards)").format(port=mqtt[1], broker=broker.kind, who=who), flush=True)
    games_dir.mkdir(parents=True, exist_ok=True)
    running = None
    if tournament is not None:
        from ..broadcast.club.tournament import Tournament

        running = Tournament(tournament, archive=games_dir)
        if running.warning:
            print(f"reedboard club: {running.warning}", file=sys.stderr, flush=True)
    club = Club(games_dir, prefix=address.prefix, admitted=set(boards) if boards else None, tournament=running)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        # a steady client id: the broker keeps the club's session (what comes while it is away)
        identifier = f"reedboard-club-{socket.gethostname()}-{address.prefix}".replace("/", "-")[:64]
        task = asyncio.create_task(follow(club, address, identifier=identifier))
        keeping = asyncio.create_task(broker.keep_up(say=lambda line: print(line, file=sys.stderr, flush=True))) \
            if broker is not None else None
        try:
            yield
        finally:
            if keeping is not None:
                keeping.cancel()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, asyncio.TimeoutError):
                await asyncio.wait_for(task, STOP_WAIT)  # its broker's goodbye, at most STOP_WAIT
            club.close()
            if running is not None:
                (club.tournament or running).close()

    token = token or secrets.token_urlsafe(12)
    app = create_club_app(club, lifespan=lifespan, token=token, spectators=spectators)
    server = uvicorn.Server(uvicorn.Config(app, host=web[0], port=web[1], log_level="warning", lifespan="on",
                                           timeout_graceful_shutdown=STOP_WAIT))
    print(_("reedboard club: the page is http://{host}:{port}/ ; the games are kept in {folder}").format(
        host=web[0], port=web[1], folder=games_dir), flush=True)
    if running is not None:
        print(_("reedboard club: the organiser's page is http://{host}:{port}/?token={token} (the tournament is kept"
                " in {folder})").format(host=web[0], port=web[1], token=token, folder=tournament), flush=True)
    if spectators is not None:
        print(_("reedboard club: the spectators' page is http://{host}:{port}/spectate, reading the boards from the"
                " broker at {url}").format(host=web[0], port=web[1], url=spectators), flush=True)
    try:
        if started is not None:
            asyncio.get_running_loop().call_soon(started.set)
        await server.serve(sockets=[listening])
    finally:
        listening.close()
        if broker is not None:
            await broker.stop()
