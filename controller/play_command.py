"""`reedboard play`: a game refereed on the board found (or the simulated one), with its web view."""

from __future__ import annotations

import asyncio
import argparse
import ipaddress
import secrets
import socket
from pathlib import Path

from hal.backends import NoBoard, find_board

from .cli import UsageError, _listen
from .config import ConfigError, load_play
from .games import Game
from .journal import JournalError, default_games_dir, read_journal, rebuild, unfinished_games
from .record import result_line

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
EVERY_ADDRESS = {"0.0.0.0", "::", ""}  # listening on all of this machine's addresses
# Documentation addresses (RFC 5737, RFC 3849): connecting a UDP socket to one only picks the
# route out, and with it this machine's address on that route; nothing is sent.
ROUTE_PROBES = {socket.AF_INET: ("192.0.2.1", 9), socket.AF_INET6: ("2001:db8::1", 9)}


def play(args: argparse.Namespace) -> int:
    try:
        from .play import PlaySession
        from .web.app import serve
    except ImportError as error:
        print(f"reedboard: the web view needs its packages ({error.name} is missing):"
              " pip install 'reedboard[web]'")
        return 2
    try:
        config = load_play(args.config)
        host, port = args.listen or _listen(config.listen or "127.0.0.1:8000")
    except (ConfigError, argparse.ArgumentTypeError) as error:
        raise UsageError(f"reedboard: {error}") from None
    games_dir = Path(args.games_dir) if args.games_dir else config.games_dir or default_games_dir()
    clock = config.clock if args.clock is None else (None if args.clock == "off" else args.clock)
    setup = args.setup_mode or config.setup
    resume = _journal_to_resume(args, games_dir)

    backend = None
    if args.hal != "sim":
        try:
            found = find_board(args.hal, args.board, args.port, game=args.game)
        except NoBoard as error:
            if args.hal:  # asked for by name: no quiet fallback
                print(f"reedboard: no {args.hal} board: " + "; ".join(error.tried))
                return 1
            print("no board found (" + "; ".join(error.tried) + "): playing on the simulated board")
        else:
            backend = found.device
            print(f"board: {found.backend} ({found.detail})")
    if backend is None:
        print("board: the simulated board (click the hollows in the web view to move pieces)")

    if not _free(host, port):
        print(f"reedboard: cannot listen on {host}:{port}: the port is taken (choose another with --listen)")
        return 1
    token = None if host in LOOPBACK else secrets.token_urlsafe(16)
    session = PlaySession(args.game, games_dir=games_dir, backend=backend, empty=args.empty_board,
                          resume=resume, setup=setup, settings=config.settings, game_clock=clock)
    for address in addresses_for_others(host):
        shown = f"[{address}]" if ":" in address else address
        print(f"web view: http://{shown}:{port}/" + (f"?token={token}" if token else ""))
    if token:
        print("  (the token lets a browser change the game; watching needs none)")
    print("journal: " + str(games_dir))
    try:
        asyncio.run(serve(session, host, port, token, games_dir=games_dir))
    except KeyboardInterrupt:
        pass
    saved = _saved_game(session)
    if saved:
        print(saved)
    return 0


def _journal_to_resume(args: argparse.Namespace, games_dir: Path) -> Path | None:
    """The journal to go on with; UsageError or JournalError says why there is none."""
    unfinished = [p for p in unfinished_games(games_dir, include_unplayed=False)
                  if p.name.endswith(f"-{args.game}.jsonl")]
    if args.resume is None:
        if unfinished:
            print(f"an unfinished {args.game} game is waiting: {unfinished[0]} (go on with it: --resume)")
        return None
    if args.resume == "newest" and not unfinished:
        raise UsageError(f"reedboard: no unfinished {args.game} game in {games_dir}"
                         f" (start a new one without --resume)")
    path = unfinished[0] if args.resume == "newest" else Path(args.resume)
    resumed = rebuild(read_journal(path))
    if resumed.finished:  # checked here: the server would only fail on it as it starts
        raise JournalError(path, None, f"this game is finished ({_result_in_words(resumed.game)}):"
                                       " there is nothing to resume; start a new game without --resume")
    return path


def _result_in_words(game: Game) -> str:
    outcome = game.outcome()
    who = f"{outcome.winner} won" if outcome.winner else "drawn"
    return f"{who}, {result_line(game)}"


def _saved_game(session) -> str | None:
    """Where the game left behind was saved and how to go on with it; None when there is none
    to go on with (never set up, given up before its first move, or over)."""
    referee = session.referee
    path = getattr(getattr(referee, "journal", None), "path", None)
    if path is None or not Path(path).exists() or referee.game.outcome() is not None:
        return None
    return f"the game is saved in {path}; go on with it: reedboard play {session.kind} --resume {path}"


def addresses_for_others(host: str) -> list[str]:
    """The addresses another device reaches a server listening on `host` by.

    A host given is kept; a wildcard (0.0.0.0, ::) is no address to connect to, so this
    machine's own non-loopback addresses stand for it: those its host name resolves to, and
    the one its route out uses. With none, the host name (a local network may resolve it)."""
    if host not in EVERY_ADDRESS:
        return [host]
    families = [socket.AF_INET] + ([socket.AF_INET6] if ":" in host else [])
    name = socket.gethostname()
    candidates: list[str] = []
    for family in families:
        try:
            found = socket.getaddrinfo(name, None, family, socket.SOCK_STREAM)
        except OSError:
            found = []
        candidates += [info[4][0] for info in found if info[0] == family]
    candidates += [_route_address(family) for family in families]
    addresses: list[str] = []
    for candidate in candidates:
        if candidate and _reachable(candidate) and candidate not in addresses:
            addresses.append(candidate)
    return addresses or [name or "127.0.0.1"]


def _route_address(family: int) -> str | None:
    """This machine's address on its route out, found without sending anything."""
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect(ROUTE_PROBES[family])
            return probe.getsockname()[0]
    except OSError:
        return None


def _reachable(address: str) -> bool:
    """Whether another device could use `address` (not loopback, a wildcard or link-local)."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def _free(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True
