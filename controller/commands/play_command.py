"""`reedboard play`: a game refereed on the board found (or the simulated one), with its web view.

Light to import: the board, the journal, the configuration and the web view are read only
when the command runs, not for `reedboard --help`."""

from __future__ import annotations

import argparse
import dataclasses
import math
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..broadcast.publisher.arguments import add_broadcast_arguments
from ..games import GAMES, Game, colours, game_class, game_name, top_level, top_levels
from ..language.catalogue import COMMANDS, N_, PLAY
from .arguments import (
    add_game_options, add_hal_options, check_board_file, games_in_words, in_words, listen, listen_or_port, new_game,
    start_options,
)
from .usage import UsageError
from ..words import said

_ = COMMANDS.gettext
ngettext = COMMANDS.ngettext

if TYPE_CHECKING:
    from ..workshop.config import Configuration
    from ..core.reconcile import Settings
    from ..persist.journal_format import JournalContents, JournalError

# The exit status when the board named does not answer: not a mistake on the command line (2) but a
# board to plug in, so systemd's Restart=on-failure starts the service again, until the board answers.
ABSENT = 1
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
EVERY_ADDRESS = {"0.0.0.0", "::", ""}  # listening on all of this machine's addresses
# Documentation addresses (RFC 5737, RFC 3849): connecting a UDP socket to one only picks the
# route out, and with it this machine's address on that route; nothing is sent.


PLAY_FLAGS = ("board", "backend", "hal", "port", "listen", "empty-board", "setup-mode", "clock", "config", "games-dir",
              "resume", "watchers")  # play's own flags: a game's start option of the same name is left out
SETUP_MODE_WORDS = {  # what each set-up mode does, for --help
    "auto": N_("the default, from what is on the board: a full board is identified, an empty one shuffled"),
    "shuffle": N_("a guided shuffle"), "identify": N_("lift each stone asked for"),
}


def add_parser(commands) -> argparse.ArgumentParser:
    play = commands.add_parser("play", help=_("referee a game on the board, with its web view"))
    play.add_argument("game", nargs="?", type=game_name, choices=sorted(GAMES),
                      help=_("{games} (default: [play] game of the configuration)").format(games=games_in_words()))
    add_hal_options(play)
    # the games' start options, but for a flag of play's own (--board is the wiring file)
    add_game_options(play, game=False, exclude=PLAY_FLAGS)
    play.add_argument("--listen", metavar="[HOST:]PORT", type=listen_or_port,
                      help=_("where the web view listens (default 127.0.0.1:8000); a port alone keeps the host, e.g."
                             " 8101: 127.0.0.1:8101, or the configuration's host; beyond localhost a token is"
                             " printed"))
    play.add_argument("--empty-board", action="store_true",
                      help=_("simulated board: start empty, to try the set-up"))
    play.add_argument("--setup-mode", choices=_setup_modes(), help=_setup_modes_help())
    play.add_argument("--clock", metavar="MIN[+SEC]", type=_clock,
                      help=_("a game clock per player: minutes, plus seconds added per move (e.g. 10+5; off: none)"))
    play.add_argument("--config", metavar="FILE",
                      help=_("the configuration file (default: ~/.config/reedboard/config.toml when it exists)"))
    play.add_argument("--games-dir", metavar="DIR", help=_("where games are journaled (default: the user's data directory)"))
    play.add_argument("--resume", nargs="?", const="newest", metavar="JOURNAL",
                      help=_("go on with an unfinished game (default: the newest of this game)"))
    play.add_argument("--watchers", metavar="N", type=_watchers,
                      help=_("spectators the web view shows the game live at once (default 64, at most 500)"))
    play.add_argument("--vs", metavar="OPPONENT", type=_opponent,
                      help=_("human (default), or computer[:LEVEL]: the computer plays one side, at level 1 to the game's"
                             " strongest ({tops}; default 5)").format(tops=top_levels()))
    play.add_argument("--computer-plays", metavar="COLOUR", choices=colours(),
                      help=_("the side the computer plays: {colours} (default: the second player)").format(
                          colours=", ".join(colours())))
    play.add_argument("--think-seconds", metavar="S", type=_think_seconds,
                      help=_("the most the computer thinks about a move, 0.1 to 60 (default 2; a slower Pi: more)"))
    for colour in colours():
        play.add_argument(f"--{colour}", metavar="NAME", type=_player_name,
                          help=_("the name of the player of {colour} (journaled with the game)").format(
                              colour=PLAY.gettext(colour)))
    add_broadcast_arguments(play)
    play.set_defaults(run=run)
    return play


def _setup_modes() -> list[str]:
    """The set-up modes a player may choose, of every game that has any."""
    modes: list[str] = []
    for cls in GAMES.values():
        modes += [m for m in cls.setup_modes if m != "given" and m not in modes]
    return modes


def _setup_modes_help() -> str:
    games = [name for name, cls in sorted(GAMES.items()) if any(m != "given" for m in cls.setup_modes)]
    words = "; ".join(f"{m}: {_(SETUP_MODE_WORDS[m])}" if m in SETUP_MODE_WORDS else m for m in _setup_modes())
    return f"{', '.join(games)} ({words})" if games else _("no game has set-up modes")


def _clock(text: str):
    from ..core.clock import ClockSettings

    if text.strip().lower() in ("off", "none", "0"):
        return "off"
    try:
        return ClockSettings.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(said(error)) from None


def _watchers(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) <= 500:  # each is an open file, of 1,024 on a Pi
        raise argparse.ArgumentTypeError(_("--watchers takes a number from 1 to 500, not {text}").format(text=repr(text)))
    return int(text)


def _opponent(text: str) -> str:
    from ..core.computer import parse_opponent

    try:
        parse_opponent(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(said(error)) from None
    return text


def _think_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.1 <= value <= 60:  # NaN fails too
        raise argparse.ArgumentTypeError(_("think seconds are a number from 0.1 to 60, not {text}").format(
            text=repr(text)))
    return value


def _player_name(text: str) -> str:
    from ..persist.journal_format import is_player_name

    if not is_player_name(text):
        raise argparse.ArgumentTypeError(_("a player's name is 1 to 40 printable characters, not {text}").format(
            text=repr(text)))
    return text.strip()


def run(args: argparse.Namespace) -> int:
    """`reedboard play [GAME]`: the game named, or else the configuration's [play] game; its
    start options and the --board file are checked before anything starts."""
    if getattr(args, "game", None) is None:
        from ..workshop.config import default_path

        config = configuration(args)
        if config["play.game"] is None:
            raise UsageError(_("reedboard play: name the game ({games}), or set [play] game in {path}").format(
                games=games_in_words(), path=config.path or default_path()))
        args.game = config["play.game"]
    start = new_game(args, exclude=PLAY_FLAGS)  # a start option of another game is refused here
    check_board_file(args.board, start)
    return play(args, start if start_options(args, PLAY_FLAGS) else None)


def configuration(args: argparse.Namespace) -> Configuration:
    """The configuration file (--config, or the default one) under the command line's options."""
    from ..workshop.config import ConfigError, load

    try:
        return load(getattr(args, "config", None)).with_flags(args)
    except ConfigError as error:
        raise UsageError(f"reedboard: {said(error)}") from None


def play(args: argparse.Namespace, start: Game | None = None, config: Configuration | None = None) -> int:
    """Referee `args.game` (from `start`, a game in its start position, when start options
    were given) on the board found, with its web view; what the command line leaves out comes
    from the configuration file."""
    try:
        from ..session.play_session import PlaySession
        from ..web.app import serve
        from ..web.limits import Limits
    except ImportError as error:
        from reedboard.hal.install import pip_extra

        print(_("reedboard: the web view needs its packages ({module} is missing): {install}").format(
            module=error.name, install=pip_extra("web")))
        return 2
    import secrets  # and hashlib with it: not for `reedboard --help`

    from reedboard.hal import registry
    from reedboard.hal.backends import NoBoard, asked_for, find_board
    from reedboard.hal.board import load_board

    from ..persist.game_files import default_games_dir
    from ..web.join import join_lines
    from ..workshop.backend_words import all_said, said

    config = config or configuration(args)
    try:
        host, port = listen(config["play.listen"])
    except argparse.ArgumentTypeError as error:
        raise UsageError(f"reedboard: {said(error)}") from None
    games_dir = config["play.games_dir"] or default_games_dir()
    if start is None:
        start = _configured_start(args.game, config)
    board_file = str(config["board.file"]) if config["board.file"] is not None else None
    resume = _journal_to_resume(args, games_dir)

    template = start if start is not None else game_class(args.game)()
    computer = _computer(config, template)  # what the command line got wrong is said before any board is sought
    broadcast = _broadcast(config)
    board = load_board(board_file, game=template.board, cells=template.cells) if board_file is not None else None
    hal, named_by = asked_for(config["board.backend"], config["board.port"], board)
    backend = None
    if not registry.can(hal, registry.HANDS):  # a board moved by hand is the session's own
        try:
            found = find_board(hal, board_file, config["board.port"], game=template.board, cells=template.cells,
                               pin_factory=config["board.pin_factory"])
        except NoBoard as error:
            tried = all_said(error.tried)
            if hal:  # hardware named: no quiet fallback, and a service retries (exit status 1)
                print(absent_board(hal, _named_where(named_by, config, board), tried), file=sys.stderr)
                return ABSENT
            print(_("no board found ({tried}): playing on the simulated board").format(tried="; ".join(tried)))
        else:
            backend = found.device
            light_leds_as_configured(backend, config["board.budget_ma"], config["board.brightness"])
            print(_("board: {backend} ({detail})").format(backend=found.backend, detail=said(found.detail)))
    if backend is None:
        print(_("board: the simulated board (click the hollows in the web view to move pieces)"))

    if not _free(host, port):
        print(_("reedboard: cannot listen on {host}:{port}: the port is taken (choose another with --listen)").format(
            host=host, port=port))
        return 1
    token = None if host in LOOPBACK else config["play.token"] or secrets.token_urlsafe(16)
    session = PlaySession(start if start is not None else args.game, games_dir=games_dir, backend=backend,
                          empty=args.empty_board, resume=resume, setup=config["play.setup"],
                          settings=config.reconciler(), game_clock=config["play.clock"],
                          players=_names(config, template), computer=computer,
                          thinker=_thinker(config) if computer is not None or resume is not None else None)
    session.page_language = config["page.language"]
    if computer is not None:
        print(_("the computer plays {colour}, at level {level}").format(colour=PLAY.gettext(computer.plays),
                                                                    level=computer.level))
    if broadcast is not None:
        from ..broadcast import attach

        broadcaster = attach(session, *broadcast)
        print(_("broadcast: live to {address} as the board {name} (a broker that is away never holds the game up)")
              .format(address=broadcaster.address, name=repr(broadcaster.name)))
    session.settings_changed = settings_writer(config)
    for line in join_lines(host, port, token):
        print(line)
    if token:
        print("  " + _("(the token lets a browser change the game; watching needs none)"))
    print(_("journal: {folder}").format(folder=games_dir))
    import asyncio  # here, not on import: `reedboard --help` starts without it

    previous = signal.signal(signal.SIGTERM, _interrupted)  # a service stopped ends as on Ctrl-C
    try:
        watchers = config["play.watchers"]
        limits = {} if config.source("play.watchers") == "default" else {"limits": Limits(watchers=watchers)}
        asyncio.run(serve(session, host, port, token, games_dir=games_dir, **limits))
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
    saved = _saved_game(session)
    if saved:
        print(saved)
    return 0


def absent_board(backend: str, named: str, tried: list[str]) -> str:
    """The one line said when the hardware named does not answer: what was named, where, what
    was tried, and what to check. `named` is where it was named (an option, or a file and its key)."""
    from reedboard.hal import registry

    tried_words = "; ".join(tried)
    if registry.can(backend, registry.PORT):  # a Pico on USB
        return _("reedboard: {named} asks for the {backend} board, and no Pico answers ({tried}): check the USB"
                 " cable (on a Raspberry Pi Zero 2 W: the OTG adapter in the inner micro-USB port marked USB, not"
                 " PWR), MicroPython and the firmware on the Pico (reedboard firmware install), and that BOOTSEL is"
                 " not held (hold it only to flash MicroPython)").format(
            named=named, backend=backend, tried=tried_words)
    return _("reedboard: {named} asks for the {backend} board, and it does not answer ({tried}): reedboard doctor"
             " checks this Pi (its groups, SPI and I2C) and says how to fix what it finds").format(
        named=named, backend=backend, tried=tried_words)


def _named_where(named_by: str | None, config: Configuration, board) -> str:
    """Where the backend was named: the option given and its value, the configuration file's key,
    or the board file's."""
    if named_by == "board":
        return f"{board.source} [board] backend"
    key = "board.port" if named_by == "port" else "board.backend"
    source = config.source(key)
    if source.startswith("file"):
        return f"{config.path} [board] {key.split('.')[1]}"
    return f"{source} {config[key]}"  # --port /dev/ttyACM0


def _interrupted(signum, frame) -> None:
    """SIGTERM (systemd stopping the service) as Ctrl-C: the server has stopped when uvicorn
    raises the signal again, and what is left to say (the game saved, lines waiting) is said."""
    raise KeyboardInterrupt


def _computer(config: Configuration, game: Game):
    """The side the computer plays (configuration or --vs, --computer-plays), or None."""
    from ..core.computer import Computer

    level = config["play.vs"]
    plays = config["play.computer_plays"]
    if level is None:
        if plays is not None and config.source("play.computer_plays").startswith("--"):
            raise UsageError(_("reedboard play: --computer-plays needs --vs computer[:LEVEL]"))
        return None
    if plays is None:
        plays = game.players[-1]
    if plays not in game.players:
        raise UsageError(_("reedboard play: the computer plays {colours} in {game}, not {colour}").format(
            colours=in_words(game.players), game=game.title, colour=plays))
    if level > top_level(game.name):  # a game's levels end where its ladder does
        raise UsageError(_("reedboard play: the computer's levels in {game} are 1 to {top}, not {level}").format(
            game=game.title, top=top_level(game.name), level=level))
    return Computer(plays, level)


def _broadcast(config: Configuration):
    """The broker and the board's name for `--broadcast` ([broadcast] url and name), or None;
    UsageError (one line) for a bad URL or name."""
    if not config["broadcast.url"]:
        return None
    from ..broadcast import BroadcastError, parse_broker_url
    from ..broadcast.publisher.board import board_name

    try:
        address = parse_broker_url(config["broadcast.url"])
        return address, board_name(config["broadcast.name"], address)
    except BroadcastError as error:
        raise UsageError(f"reedboard: {said(error)}") from None


def _thinker(config: Configuration):
    from ..opponent.worker import Thinker

    return Thinker(seconds=config["play.think_seconds"])


def _names(config: Configuration, game: Game) -> dict[str, str]:
    """The players' names by colour, from [players] and --black NAME etc."""
    return {colour: config[f"players.{colour}"] for colour in game.players
            if config.settings.get(f"players.{colour}") and config[f"players.{colour}"]}


def _configured_start(game: str, config: Configuration) -> Game | None:
    """The game's start from the configuration's [GAME] options (e.g. a layout), or
    None when it sets none."""
    options = {name.split(".", 1)[1]: config[name] for name in config.settings
               if name.startswith(f"{game}.") and config[name] is not None}
    if not options:
        return None
    try:
        return game_class(game).from_options(**options)
    except ValueError as error:
        raise UsageError(f"reedboard: {config.path}: {game}: {said(error)}") from None  # the words are the game's


def light_leds_as_configured(device, budget_ma: float | None, brightness: float) -> None:
    """The configuration's LED current budget (instead of the board file's) and brightness, on
    the backend under a cell-level board (hal.addresses.CellBoard `addresses`): every backend
    dims a frame to its board's budget_ma as it shows it, so the budget goes into its board;
    the brightness scales each colour on the way in, before that cap."""
    from ..core.signals import scale

    addresses = getattr(device, "addresses", None)
    if addresses is None:
        return
    if budget_ma is not None:
        addresses.board = dataclasses.replace(addresses.board, budget_ma=float(budget_ma))
    if brightness < 100:
        show_leds, factor = addresses.show_leds, brightness / 100

        def dimmed(colours, blinking) -> None:
            show_leds([scale(colour, factor) for colour in colours], blinking)

        addresses.show_leds = dimmed


def settings_writer(config: Configuration):
    """What a session calls when the web view changes its settings: the changed ones written
    to the configuration file read. None without a file (the settings hold for this session),
    and None, with one line said, when the file cannot be written."""
    from ..workshop.config import cannot_write, changed_settings, write_back

    path = config.path
    if path is None:
        return None
    problem = cannot_write(path)
    if problem:
        print(_("settings changed in the web view are not saved: {problem}").format(problem=problem))
        return None

    def write(before: Settings, after: Settings) -> None:
        changes = changed_settings(before, after)
        if not changes:
            return
        try:
            write_back(path, changes)
        except (OSError, ImportError, ValueError) as error:  # the game goes on; the file is as it was
            print(_("settings changed in the web view are not saved in {path}: {problem}").format(
                path=path, problem=said(error)), flush=True)

    return write


def _journal_to_resume(args: argparse.Namespace, games_dir: Path) -> Path | None:
    """The journal to go on with; UsageError or JournalError says why there is none.

    Without a journal named, the newest unfinished game that can be used is offered (or, with
    --resume, taken); the damaged ones skipped on the way are named in one line. A journal
    damaged after its header goes on from the last move before the damage, in a new journal:
    the damaged one is never written to."""
    from ..persist.journal_format import JournalError
    from ..persist.journal_replay import rebuild
    from ..persist.journal_reader import read_journal

    if args.resume not in (None, "newest"):
        path = Path(args.resume)
        contents = read_journal(path)
        resumed = rebuild(contents)
        if resumed.finished:  # checked here: the server would only fail on it as it starts
            raise JournalError(path, None, _("this game is finished ({result}): there is nothing to resume;"
                                             " start a new game without --resume").format(
                result=_result_in_words(resumed.game)))
        return _going_on(path, contents)
    found, skipped = _newest_usable(games_dir, args.game)
    title = game_class(args.game).title  # the game as players name it, not its key
    if skipped:
        named = "; ".join(said(error) for error in skipped[:3])  # one line, however many there are
        if len(skipped) > 3:
            named += "; " + ngettext("{n} more", "{n} more", len(skipped) - 3).format(n=len(skipped) - 3)
        print(ngettext("skipped {n} damaged unfinished {game} game: {games}",
                       "skipped {n} damaged unfinished {game} games: {games}", len(skipped)).format(
            n=len(skipped), game=title, games=named))
    if args.resume is None:
        if found:
            path, contents = found
            if contents.damage:
                print(_("an unfinished {game} game is waiting: {path} (go on with it: --resume); it is damaged at"
                        " line {line}, so it goes on from the move before, in a new journal").format(
                    game=title, path=path, line=contents.damage.line))
            else:
                print(_("an unfinished {game} game is waiting: {path} (go on with it: --resume)").format(
                    game=title, path=path))
        return None
    if found is None:
        if skipped:
            raise UsageError(_("reedboard: no unfinished {game} game in {folder} that can be resumed"
                               " (start a new one without --resume)").format(game=title, folder=games_dir))
        raise UsageError(_("reedboard: no unfinished {game} game in {folder} (start a new one without --resume)")
                         .format(game=title, folder=games_dir))
    return _going_on(*found)


def _newest_usable(games_dir: Path, game: str) -> tuple[tuple[Path, JournalContents] | None, list[JournalError]]:
    """The newest unfinished game of `game` whose journal can be used, and the damaged ones newer than it."""
    from ..persist.game_files import SUFFIX
    from ..persist.journal_format import JournalError
    from ..persist.journal_replay import rebuild
    from ..persist.journal_reader import read_journal
    from ..persist.games_folder import unfinished_games

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
    from ..persist.journal_recovery import go_on_in_new_journal

    if contents.damage is None:
        return path
    new = go_on_in_new_journal(path)
    print(_("{damage}; its game goes on from the move before, in a new journal: {new} ({name} is kept as it is)")
          .format(damage=contents.damage, new=new, name=path.name))
    return new


def _result_in_words(game: Game) -> str:
    from ..persist.notation import result_line

    outcome = game.outcome()
    if outcome.winner:
        return _("{colour} won, {result}").format(colour=PLAY.gettext(outcome.winner), result=result_line(game))
    return _("drawn, {result}").format(result=result_line(game))


def _saved_game(session) -> str | None:
    """Where the game left behind was saved and how to go on with it; None when there is none
    to go on with (never set up, given up before its first move, or over)."""
    referee = session.referee
    path = getattr(getattr(referee, "journal", None), "path", None)
    if path is None or not Path(path).exists() or referee.game.outcome() is not None:
        return None
    return _("the game is saved in {path}; go on with it: reedboard play {game} --resume {path}").format(
        path=path, game=session.kind)


def _free(host: str, port: int) -> bool:
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True
