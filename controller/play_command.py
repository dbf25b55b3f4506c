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
from .games import Game, game_class
from .journal import (
    SUFFIX, JournalContents, JournalError, default_games_dir, go_on_in_new_journal, read_journal, rebuild,
    unfinished_games,
)
from .record import result_line

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
EVERY_ADDRESS = {"0.0.0.0", "::", ""}  # listening on all of this machine's addresses
# Documentation addresses (RFC 5737, RFC 3849): connecting a UDP socket to one only picks the
# route out, and with it this machine's address on that route; nothing is sent.
ROUTE_PROBES = {socket.AF_INET: ("192.0.2.1", 9), socket.AF_INET6: ("2001:db8::1", 9)}


def play(args: argparse.Namespace, start: Game | None = None) -> int:
    """Referee `args.game` (from `start`, a game in its start position, when start options
    were given) on the board found, with its web view."""
    try:
        from .play import PlaySession
        from .web.app import serve
        from .web.limits import Limits
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

    template = start if start is not None else game_class(args.game)()
    backend = None
    if args.hal != "sim":
        try:
            found = find_board(args.hal, args.board, args.port, game=template.board, cells=template.cells)
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
    session = PlaySession(start if start is not None else args.game, games_dir=games_dir, backend=backend,
                          empty=args.empty_board,
                          resume=resume, setup=setup, settings=config.settings, game_clock=clock)
    for address in addresses_for_others(host):
        shown = f"[{address}]" if ":" in address else address
        print(f"web view: http://{shown}:{port}/" + (f"?token={token}" if token else ""))
    if token:
        print("  (the token lets a browser change the game; watching needs none)")
    print("journal: " + str(games_dir))
    try:
        limits = {} if args.watchers is None else {"limits": Limits(watchers=args.watchers)}
        asyncio.run(serve(session, host, port, token, games_dir=games_dir, **limits))
    except KeyboardInterrupt:
        pass
    saved = _saved_game(session)
    if saved:
        print(saved)
    return 0


def _journal_to_resume(args: argparse.Namespace, games_dir: Path) -> Path | None:
    """The journal to go on with; UsageError or JournalError says why there is none.

    Without a journal named, the newest unfinished game that can be used is offered (or, with
    --resume, taken); the damaged ones skipped on the way are named in one line. A journal
    damaged after its header goes on from the last move before the damage, in a new journal:
    the damaged one is never written to."""
    if args.resume not in (None, "newest"):
        path = Path(args.resume)
        contents = read_journal(path)
        resumed = rebuild(contents)
        if resumed.finished:  # checked here: the server would only fail on it as it starts
            raise JournalError(path, None, f"this game is finished ({_result_in_words(resumed.game)}):"
                                           " there is nothing to resume; start a new game without --resume")
        return _going_on(path, contents)
    found, skipped = _newest_usable(games_dir, args.game)
    if skipped:
        named = "; ".join(str(error) for error in skipped[:3])  # one line, however many there are
        more = f"; {len(skipped) - 3} more" if len(skipped) > 3 else ""
        print(f"skipped {len(skipped)} damaged unfinished {args.game} game{'s' if len(skipped) > 1 else ''}:"
              f" {named}{more}")
    if args.resume is None:
        if found:
            path, contents = found
            damage = (f"; it is damaged at line {contents.damage.line}, so it goes on from the move before,"
                      " in a new journal" if contents.damage else "")
            print(f"an unfinished {args.game} game is waiting: {path} (go on with it: --resume){damage}")
        return None
    if found is None:
        raise UsageError(f"reedboard: no unfinished {args.game} game in {games_dir}"
                         f"{' that can be resumed' if skipped else ''} (start a new one without --resume)")
    return _going_on(*found)


def _newest_usable(games_dir: Path, game: str) -> tuple[tuple[Path, JournalContents] | None, list[JournalError]]:
    """The newest unfinished game of `game` whose journal can be used, and the damaged ones newer than it."""
    skipped = []
    for path in unfinished_games(games_dir, include_unplayed=False):
        if path.name.removesuffix(SUFFIX).split("-")[2:3] != [game]:  # DATE-TIME-GAME, or -GAME-2 ...
            continue
        try:
            contents = read_journal(path)
            if not rebuild(contents).finished:
                return (path, contents), skipped
        except JournalError as error:
            skipped.append(error)
    return None, skipped


def _going_on(path: Path, contents: JournalContents) -> Path:
    """The journal the game of `path` goes on in: itself, or, when it is damaged, a new one."""
    if contents.damage is None:
        return path
    new = go_on_in_new_journal(path)
    print(f"{contents.damage}; its game goes on from the move before, in a new journal: {new}"
          f" ({path.name} is kept as it is)")
    return new


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
