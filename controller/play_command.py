"""`reedboard play`: a game refereed on the board found (or the simulated one), with its web view."""

from __future__ import annotations

import asyncio
import argparse
import secrets
import socket
from pathlib import Path

from hal.backends import NoBoard, find_board

from .journal import default_games_dir, read_journal, unfinished_games

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def play(args: argparse.Namespace) -> int:
    try:
        from .play import PlaySession
        from .web.app import serve
    except ImportError as error:
        print(f"reedboard: the web view needs its packages ({error.name} is missing):"
              " pip install 'reedboard[web]'")
        return 2
    host, port = args.listen
    games_dir = Path(args.games_dir) if args.games_dir else default_games_dir()
    resume = _journal_to_resume(args, games_dir)
    if resume is False:
        return 2

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
                          resume=resume)
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{port}/" + (f"?token={token}" if token else "")
    print(f"web view: {address}" + ("  (the token lets a browser change the game; watching needs none)" if token else ""))
    print("journal: " + str(games_dir))
    try:
        asyncio.run(serve(session, host, port, token, games_dir=games_dir))
    except KeyboardInterrupt:
        pass
    return 0


def _journal_to_resume(args: argparse.Namespace, games_dir: Path) -> Path | None | bool:
    """The journal to go on with; False after saying why there is none."""
    unfinished = [p for p in unfinished_games(games_dir) if p.name.endswith(f"-{args.game}.jsonl")]
    if args.resume is None:
        if unfinished:
            print(f"an unfinished {args.game} game is waiting: {unfinished[0]} (go on with it: --resume)")
        return None
    path = unfinished[0] if args.resume == "newest" and unfinished else Path(args.resume)
    if args.resume == "newest" and not unfinished:
        print(f"reedboard: no unfinished {args.game} game in {games_dir}")
        return False
    try:
        read_journal(path)
    except ValueError as error:
        print(f"reedboard: {error}")
        return False
    return path


def _free(host: str, port: int) -> bool:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True
