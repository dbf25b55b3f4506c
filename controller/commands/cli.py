"""The `reedboard` command line."""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from reedboard.controller import __version__
from reedboard.controller.broadcast.arguments import add_broadcast_arguments, add_replay_broadcast_arguments
from reedboard.controller.games import GAMES, Game, GameOption, MoveError, colours, divide, game_class, game_name, names_in_words

# Errors that get one line and exit status 2: ValueErrors of these modules (a file or a value
# someone gave). They are looked up only once something failed, so that `reedboard --help`
# does not load the journal, the trace reader and the board loader for their exception classes.
USER_ERRORS = (("reedboard.controller.games", "SetupError"), ("reedboard.controller.games", "LayoutError"),
               ("reedboard.controller.games", "MoveError"), ("reedboard.controller.persist.trace", "TraceError"),
               ("reedboard.controller.persist.journal_format", "JournalError"), ("reedboard.hal.board", "BoardError"))


class UsageError(Exception):
    """A mistaken command line: one line of message, exit status 2."""


class _Parser(argparse.ArgumentParser):
    """Options are read wherever they stand, before, between or after the positionals
    (`show GAME MOVE MOVE --option value`), as a new user writes them."""

    _intermixing = False

    def error(self, message: str) -> None:  # one line instead of argparse's usage dump
        raise UsageError(f"{self.prog}: {message} (see {self.prog.split()[0]} --help)")

    def parse_known_args(self, args=None, namespace=None):
        # argparse cannot intermix with subcommands; a command's own parser has none, and the
        # intermixed parse calls back in here for its two passes.
        if self._intermixing or self._subparsers is not None:
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False


def _opponent(text: str) -> str:
    from reedboard.controller.core.computer import parse_opponent

    try:
        parse_opponent(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _think_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.1 <= value <= 60:  # NaN fails too
        raise argparse.ArgumentTypeError(f"think seconds are a number from 0.1 to 60, not {text!r}")
    return value


def _player_name(text: str) -> str:
    from reedboard.controller.persist.journal_format import is_player_name

    if not is_player_name(text):
        raise argparse.ArgumentTypeError(f"a player's name is 1 to 40 printable characters, not {text!r}")
    return text.strip()


def _depth(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"depth must be a whole number 0 or more, not {text!r}")
    return int(text)


def _game_options(exclude: Sequence[str] = ()) -> dict[str, list[tuple[str, GameOption]]]:
    """Every registered game's start options, by flag: the games that take it, and how."""
    options: dict[str, list[tuple[str, GameOption]]] = {}
    for name, cls in sorted(GAMES.items()):
        for option in cls.options:
            if option.flag not in exclude:
                options.setdefault(option.flag, []).append((name, option))
    return options


def _add_game_options(parser: argparse.ArgumentParser, game: bool = True, exclude: Sequence[str] = ()) -> None:
    """The game, and the union of the games' start options (each help names the games taking it)."""
    if game:
        parser.add_argument("game", type=game_name, choices=sorted(GAMES), help=names_in_words())
    for flag, takers in _game_options(exclude).items():
        helps = {}
        for name, option in takers:  # games that say the same share one line
            helps.setdefault(option.help, []).append(name)
        text = "; ".join(f"{', '.join(names)}: {help}" for help, names in helps.items())
        choices = sorted({c for _, o in takers for c in (o.choices or ())})
        free = any(o.choices is None for _, o in takers)
        metavar = takers[0][1].metavar or flag.upper()
        if choices and not free:
            metavar = "{" + ",".join(choices) + "}"
        parser.add_argument(f"--{flag}", metavar=metavar, help=text.replace("%", "%%"))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="reedboard", description="reedboard: the controller of a reed-switch game board.")
    parser.add_argument("--version", action="version", version=f"reedboard {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    perft = commands.add_parser("perft", help="count the leaves of the move tree to a depth")
    _add_game_options(perft)
    perft.add_argument("depth", type=_depth, metavar="DEPTH", help="how many plies deep (0 or more)")
    perft.add_argument("--divide", action="store_true", help="first print each legal first move and its count")
    perft.set_defaults(run=_run_perft)

    show = commands.add_parser("show", help="print the position after the given moves")
    _add_game_options(show)
    show.add_argument("moves", nargs="*", metavar="MOVE",
                      help='moves in notation, e.g. "4 b2-b3" "BB a5-a4" or C3-D4 +E5')
    show.set_defaults(run=_run_show)

    replay = commands.add_parser("replay", help="replay a trace file: the game record it gives")
    replay.add_argument("trace", metavar="TRACE", help="a trace file (JSON Lines)")
    replay.add_argument("--events", action="store_true",
                        help="also print what the players were shown, one line each, with the time")
    replay.add_argument("--save", action="store_true",
                        help="keep the replayed game in the archive (the configuration's games folder)")
    add_replay_broadcast_arguments(replay)
    replay.set_defaults(run=_run_replay)

    export = commands.add_parser("export", help="print a journaled game's record in the rules' notation")
    export.add_argument("journal", metavar="JOURNAL_FILE", help="a game's journal (NAME.jsonl in the games folder)")
    export.set_defaults(run=_run_export)

    play = commands.add_parser("play", help="referee a game on the board, with its web view")
    play.add_argument("game", nargs="?", type=game_name, choices=sorted(GAMES),
                      help=names_in_words() + " (default: [play] game of the configuration)")
    _add_hal_options(play)
    # the games' start options, but for a flag of play's own (--board is the wiring file)
    _add_game_options(play, game=False, exclude=PLAY_FLAGS)
    play.add_argument("--listen", metavar="HOST:PORT", type=_listen,
                      help="where the web view listens (default 127.0.0.1:8000; beyond localhost a token is printed)")
    play.add_argument("--empty-board", action="store_true",
                      help="simulated board: start empty, to try the set-up")
    play.add_argument("--setup-mode", choices=_setup_modes(), help=_setup_modes_help())
    play.add_argument("--clock", metavar="MIN[+SEC]", type=_clock,
                      help="a game clock per player: minutes, plus seconds added per move (e.g. 10+5; off: none)")
    play.add_argument("--config", metavar="FILE",
                      help="the configuration file (default: ~/.config/reedboard/config.toml when it exists)")
    play.add_argument("--games-dir", metavar="DIR", help="where games are journaled (default: the user's data directory)")
    play.add_argument("--resume", nargs="?", const="newest", metavar="JOURNAL",
                      help="go on with an unfinished game (default: the newest of this game)")
    play.add_argument("--watchers", metavar="N", type=_watchers,
                      help="spectators the web view shows the game live at once (default 64, at most 500)")
    play.add_argument("--vs", metavar="OPPONENT", type=_opponent,
                      help="human (default), or computer[:LEVEL]: the computer plays one side, at level 1-8 (default 5)")
    play.add_argument("--computer-plays", metavar="COLOUR", choices=colours(),
                      help=f"the side the computer plays: {', '.join(colours())} (default: the second player)")
    play.add_argument("--think-seconds", metavar="S", type=_think_seconds,
                      help="the most the computer thinks about a move, 0.1 to 60 (default 2; a slower Pi: more)")
    for colour in colours():
        play.add_argument(f"--{colour}", metavar="NAME", type=_player_name,
                          help=f"the name of the player of {colour} (journaled with the game)")
    add_broadcast_arguments(play)
    play.set_defaults(run=_run_play_configured)

    hardware = commands.add_parser("hardware", help="the board's drawings")
    drawings = hardware.add_subparsers(dest="hardware_command", metavar="COMMAND", parser_class=_Parser, required=True)
    draw = drawings.add_parser("draw", help="draw the drilling template, the matrix wiring and the LED chain (SVG)")
    draw.add_argument("--board", metavar="FILE", help="a board file (default: every shipped board)")
    draw.add_argument("--out", metavar="DIR", default="hardware/drawings", help="where to write (default hardware/drawings)")
    draw.set_defaults(run=_run_draw)

    selftest = commands.add_parser("selftest", help="check every reed switch and LED with a magnet; write a report")
    _add_hal_options(selftest)
    selftest.add_argument("--report", metavar="FILE",
                          help="where to write the report (default: selftest-GAME-TIMESTAMP.txt here)")
    selftest.add_argument("--timeout", metavar="S", type=_seconds, default=20.0,
                          help="seconds to wait for each magnet or ok press (default 20)")
    selftest.set_defaults(run=_run_selftest)

    calibrate = commands.add_parser("calibrate", help="learn which switch and LED belong to each hollow; write the board file")
    _add_hal_options(calibrate)
    calibrate.add_argument("--out", metavar="FILE",
                           help="the board file to write (default: the --board file, or GAME.toml here)")
    calibrate.add_argument("--listen", metavar="HOST:PORT", type=_listen,
                           help="also show the prompts in a web page (e.g. 127.0.0.1:8000)")
    calibrate.set_defaults(run=_run_calibrate)

    doctor = commands.add_parser("doctor", help="say which board backend answers and what it senses")
    _add_hal_options(doctor)
    doctor.set_defaults(run=_run_doctor)

    fake = commands.add_parser("fake-board", help="run the Pico firmware on this computer behind a pty")
    fake.add_argument("game", type=game_name, choices=sorted(GAMES), help=names_in_words())
    fake.add_argument("--board", metavar="FILE", help="a board file (default: hardware/boards/GAME.toml)")
    fake.set_defaults(run=_run_fake_board)

    # commands of their own modules, each adding its parser
    from reedboard.controller.commands import config_command
    from reedboard.controller.commands import firmware_command
    from reedboard.controller.commands import service
    from reedboard.controller.archive import games_command
    from reedboard.controller.broadcast import club_command
    from reedboard.controller.opponent import match
    for module in (config_command, firmware_command, service, match, games_command, club_command):
        module.add_parser(commands)
    return parser


def _add_hal_options(parser: argparse.ArgumentParser) -> None:
    from reedboard.hal import registry  # names only: a backend's module is imported when it is opened

    tried = ", then ".join(registry.unasked())
    parser.add_argument("--backend", "--hal", dest="backend", choices=registry.names(),
                        help=f"the board backend: {registry.names_in_words()} (default: try {tried})")
    parser.add_argument("--port", metavar="PORT", help="serial: the Pico's port (default: found on USB)")
    parser.add_argument("--board", metavar="FILE",
                        help="a board file (default: the shipped board the game is played on, hardware/boards/)")


PLAY_FLAGS = ("board", "backend", "hal", "port", "listen", "empty-board", "setup-mode", "clock", "config", "games-dir",
              "resume", "watchers")  # play's own flags: a game's start option of the same name is left out
SETUP_MODE_WORDS = {  # what each set-up mode does, for --help
    "auto": "the default, from what is on the board: a full board is identified, an empty one shuffled",
    "shuffle": "a guided shuffle", "identify": "lift each stone asked for",
}


def _setup_modes() -> list[str]:
    """The set-up modes a player may choose, of every game that has any."""
    modes: list[str] = []
    for cls in GAMES.values():
        modes += [m for m in cls.setup_modes if m != "given" and m not in modes]
    return modes


def _setup_modes_help() -> str:
    games = [name for name, cls in sorted(GAMES.items()) if any(m != "given" for m in cls.setup_modes)]
    words = "; ".join(f"{m}: {SETUP_MODE_WORDS[m]}" if m in SETUP_MODE_WORDS else m for m in _setup_modes())
    return f"{', '.join(games)} ({words})" if games else "no game has set-up modes"


def start_options(args: argparse.Namespace, exclude: Sequence[str] = ()) -> dict[str, str]:
    """The games' start options given on the command line, by flag."""
    given = {}
    for flag in _game_options(exclude):
        value = getattr(args, flag.replace("-", "_"), None)
        if value is not None:
            given[flag] = value
    return given


def new_game(args: argparse.Namespace, exclude: Sequence[str] = ()) -> Game:
    """The game named on the command line, from its start options; a start option of another
    game is a UsageError naming whose it is."""
    cls = game_class(args.game)
    given = start_options(args, exclude)
    own = [option.flag for option in cls.options]
    for flag in given:
        if flag not in own:
            owners = [name for name, _ in _game_options(exclude)[flag]]
            takes = " and ".join(f"--{f}" for f in own if f not in exclude) or "no start options"
            raise UsageError(f"reedboard: --{flag} is for {names_in_words(owners, 'and')};"
                             f" {cls.name} takes {takes}")
    try:
        return cls.from_options(**given)
    except ValueError as error:
        if _user_error(error):  # a set-up or board file that cannot be used names itself
            raise
        raise UsageError(f"reedboard: {error}") from None


def _run_perft(args: argparse.Namespace) -> int:
    game = new_game(args)
    if args.divide and args.depth >= 1:
        total = 0
        for move, count in divide(game, args.depth):
            print(f"{move}: {count}")
            total += count
        print(total)
    else:
        from reedboard.controller.games import perft

        print(perft(game, args.depth))
    return 0


_DIE_OR_BB = re.compile(r"(?i)bb|\d+")
_SECTOR_TAIL = re.compile(r"(?i)S\d+(\+\d+)?|full")


def split_moves(tokens: Sequence[str]) -> list[str]:
    """Rejoin moves the shell split at their spaces: `4 b2-b3`, `C7-D8x1 S5+2`, `S5 full`."""
    moves: list[str] = []
    for token in tokens:
        joins_previous = moves and (
            _DIE_OR_BB.fullmatch(moves[-1]) or _SECTOR_TAIL.fullmatch(token)
        )
        if joins_previous:
            moves[-1] += " " + token
        else:
            moves.append(token)
    return moves


def _run_show(args: argparse.Namespace) -> int:
    game = new_game(args)
    for number, text in enumerate(split_moves(args.moves), 1):
        try:
            game.play(text)
        except MoveError as error:
            raise MoveError(f"move {number} ({text}) is not played: {error}") from None
    print(game.diagram())
    return 0


def _run_replay(args: argparse.Namespace) -> int:
    if args.broadcast:
        from reedboard.controller.broadcast.replay_publish import run_replay_broadcast

        return run_replay_broadcast(args)
    from reedboard.controller.session.replay import replay
    from reedboard.controller.persist.trace import read_trace

    replayed = replay(read_trace(args.trace), source=args.trace)
    for line in replayed.record:
        print(line)
    if args.events:
        print()
        for note in replayed.notes:
            print(note)
    if args.save:
        from reedboard.controller.archive.games_command import archive_folder
        from reedboard.controller.archive.records import save_replayed

        path = save_replayed(args.trace, archive_folder(), replayed)
        print(f"reedboard: kept in the archive as {path.name.removesuffix('.jsonl')} ({path})", file=sys.stderr)
    return 0


def _run_export(args: argparse.Namespace) -> int:
    from reedboard.controller.persist.export import export_lines

    for line in export_lines(args.journal):
        print(line)
    return 0


def _watchers(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) <= 500:  # each is an open file, of 1,024 on a Pi
        raise argparse.ArgumentTypeError(f"--watchers takes a number from 1 to 500, not {text!r}")
    return int(text)


def _listen(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"--listen takes HOST:PORT, e.g. 127.0.0.1:8000, not {text!r}")
    return host.strip("[]"), int(port)


def _cannot_write(path: Path, directory: bool = False) -> str | None:
    """Why `path` could not be written (made, for a directory, with its parents), or None.

    Asked before a long run, so that its result is not lost at the end; it writes nothing."""
    if directory and path.exists() and not path.is_dir():
        return f"{path} is a file, not a directory"
    if not directory and path.is_dir():
        return f"{path} is a directory, not a file"
    parent = path if directory else path.parent
    existing = parent
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return f"{existing} is a file, not a directory"
    if existing != parent and not directory:  # a report or board file is written, not its directory
        return f"the directory {parent} does not exist"
    if not os.access(existing, os.W_OK | os.X_OK):
        return f"{existing} cannot be written in (permission denied)"
    if not directory and path.exists() and not os.access(path, os.W_OK):
        return f"{path} cannot be written (permission denied)"
    return None


def _check_output(path: str | Path | None, what: str, option: str, directory: bool = False) -> None:
    """Refuse an output place that cannot be written; None: a default file in this directory."""
    target = Path(path) if path is not None else Path.cwd()
    problem = _cannot_write(target, directory or path is None)
    if problem:
        where = f"to {target}" if path is not None else "here, in the current directory"
        raise UsageError(f"reedboard: cannot write {what} {where}: {problem}; choose another {option}")


def _check_board_file(path: str | None, game: Game | None = None) -> None:
    """Read the --board wiring file first, so that a wrong one is named before anything starts
    (for a game: a board of the game's kind with every cell the game needs)."""
    if path is None:
        return
    from reedboard.hal.board import load_board

    if game is None:
        load_board(path)
    else:
        load_board(path, game=game.board, cells=game.cells)


def _clock(text: str):
    from reedboard.controller.core.clock import ClockSettings

    if text.strip().lower() in ("off", "none", "0"):
        return "off"
    try:
        return ClockSettings.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _run_play_configured(args: argparse.Namespace) -> int:
    from reedboard.controller.commands.play_command import run  # the game from the configuration when none is named

    return run(args)


def _run_play(args: argparse.Namespace) -> int:
    from reedboard.controller.commands.play_command import play

    start = new_game(args, exclude=PLAY_FLAGS)  # a start option of another game is refused here
    _check_board_file(args.board, start)
    return play(args, start if start_options(args, PLAY_FLAGS) else None)


def _run_draw(args: argparse.Namespace) -> int:
    from reedboard.hal.board import load_board
    from reedboard.hardware.drawings import draw_all

    _check_output(args.out, "the drawings", "--out directory", directory=True)
    boards = ([load_board(args.board)] if args.board else
              [load_board(game=board) for board in sorted({cls.board for cls in GAMES.values() if cls.board})])
    for board in boards:
        for path in draw_all(board, args.out):
            print(path)
    return 0


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"a timeout is a positive number of seconds, not {text!r}")
    return value


def _run_selftest(args: argparse.Namespace) -> int:
    from reedboard.controller.commands.selftest import selftest_command

    _check_board_file(args.board)
    _check_output(args.report, "the self-test report", "--report file")
    return selftest_command(args.backend, args.port, args.board, args.report, args.timeout)


def _run_calibrate(args: argparse.Namespace) -> int:
    from reedboard.controller.commands.calibrate import calibrate_command

    _check_board_file(args.board)
    _check_output(args.out or args.board, "the board file", "--out file")
    return calibrate_command(args.backend, args.port, args.board, args.out, listen=args.listen)


def _run_doctor(args: argparse.Namespace) -> int:
    from reedboard.controller.commands.doctor import doctor

    _check_board_file(args.board)
    return doctor(args.backend, args.port, args.board)


def _run_fake_board(args: argparse.Namespace) -> int:
    from reedboard.controller.commands.fake_board import main as fake_board

    return fake_board(args.game, args.board) or 0


def _user_error(error: BaseException) -> bool:
    """Whether `error` is a mistake in what someone gave (one line, status 2), not a fault."""
    kinds = tuple(getattr(sys.modules[module], name) for module, name in USER_ERRORS
                  if module in sys.modules and hasattr(sys.modules[module], name))
    return isinstance(error, kinds)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            raise UsageError("reedboard: choose a command (see reedboard --help)")
        return args.run(args)
    except BrokenPipeError:  # the output went to a pipe that closed (`| head`): not an error
        sys.stdout = open(os.devnull, "w")
        return 0
    except Exception as error:
        if not isinstance(error, UsageError) and not _user_error(error):
            raise
        message = str(error)
        print(message if message.startswith("reedboard") else f"reedboard: {message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    # `python -m reedboard.controller.commands.cli` runs this file as __main__, a second copy of the module: the
    # errors the other modules raise are controller.commands.cli's, so run that copy's main().
    from reedboard.controller.commands.cli import main as imported_main

    sys.exit(imported_main())
