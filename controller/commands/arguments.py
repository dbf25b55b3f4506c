"""The arguments several commands share: the game and its start options, the board backend,
where the web view listens, a timeout, and the checks of a board file or an output place
made before anything starts. Light: the board loader is imported only when a check runs."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path

from ..games import GAMES, Game, GameOption, game_class, game_name
from ..language.catalogue import COMMANDS, PLAY
from .usage import UsageError, is_user_error
from ..words import said

_ = COMMANDS.gettext


def in_words(names, last: str = "or") -> str:
    """Names for a message, in the language in use: "a, b or c" (or "a, b and c")."""
    names = list(names)
    if len(names) == 1:
        return names[0]
    head = ", ".join(names[:-1])
    if last == "and":
        return _("{names} and {last}").format(names=head, last=names[-1])
    return _("{names} or {last}").format(names=head, last=names[-1])


def games_in_words(names=None, last: str = "or") -> str:
    """The games' names for a message: each registered name, sorted, joined by "or"."""
    return in_words(sorted(GAMES if names is None else names), last)


def game_options(exclude: Sequence[str] = ()) -> dict[str, list[tuple[str, GameOption]]]:
    """Every registered game's start options, by flag: the games that take it, and how."""
    options: dict[str, list[tuple[str, GameOption]]] = {}
    for name, cls in sorted(GAMES.items()):
        for option in cls.options:
            if option.flag not in exclude:
                options.setdefault(option.flag, []).append((name, option))
    return options


def add_game_options(parser: argparse.ArgumentParser, game: bool = True, exclude: Sequence[str] = ()) -> None:
    """The game, and the union of the games' start options (each help names the games taking it)."""
    if game:
        parser.add_argument("game", type=game_name, choices=sorted(GAMES), help=games_in_words())
    for flag, takers in game_options(exclude).items():
        helps = {}
        for name, option in takers:  # games that say the same share one line
            helps.setdefault(PLAY.gettext(option.help), []).append(name)  # the games' own words
        text = "; ".join(f"{', '.join(names)}: {help}" for help, names in helps.items())
        choices = sorted({c for _, o in takers for c in (o.choices or ())})
        free = any(o.choices is None for _, o in takers)
        metavar = takers[0][1].metavar or flag.upper()
        if choices and not free:
            metavar = "{" + ",".join(choices) + "}"
        parser.add_argument(f"--{flag}", metavar=metavar, help=text.replace("%", "%%"))


def start_options(args: argparse.Namespace, exclude: Sequence[str] = ()) -> dict[str, str]:
    """The games' start options given on the command line, by flag."""
    given = {}
    for flag in game_options(exclude):
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
            owners = [name for name, __ in game_options(exclude)[flag]]
            takes = [f"--{f}" for f in own if f not in exclude]
            if takes:
                raise UsageError(_("reedboard: --{flag} is for {games}; {game} takes {options}").format(
                    flag=flag, games=games_in_words(owners, "and"), game=cls.name, options=in_words(takes, "and")))
            raise UsageError(_("reedboard: --{flag} is for {games}; {game} takes no start options").format(
                flag=flag, games=games_in_words(owners, "and"), game=cls.name))
    try:
        return cls.from_options(**given)
    except ValueError as error:
        if is_user_error(error):  # a set-up or board file that cannot be used names itself
            raise
        raise UsageError("reedboard: " + said(error)) from None


def add_hal_options(parser: argparse.ArgumentParser, names: bool = False) -> None:
    """--backend (or --hal), --port and --board: which board, on which port, wired how.
    `names`: --board also takes a shipped board's name (the command reads it with
    board_argument)."""
    from reedboard.hal import registry  # names only: a backend's module is imported when it is opened

    tried = _(", then ").join(registry.unasked())
    parser.add_argument("--backend", "--hal", dest="backend", choices=registry.names(),
                        help=_("the board backend: {backends} (default: try {tried})").format(
                            backends=in_words(sorted(registry.names())), tried=tried))
    parser.add_argument("--port", metavar="PORT", help=_("serial: the Pico's port (default: found on USB)"))
    if names:
        parser.add_argument("--board", metavar="FILE|NAME",
                            help=_("a board file, or a shipped board's name: {names} (default: the shipped board"
                                   " whose matrix the Pico reports; on the other backends the first)").format(
                                names=_shipped_in_words()))
    else:
        parser.add_argument("--board", metavar="FILE",
                            help=_("a board file (default: the shipped board the game is played on, hardware/boards/)"))


def _shipped_in_words() -> str:
    from reedboard.hal.shipped import shipped_boards

    return in_words(shipped_boards()) if shipped_boards() else "-"


def board_argument(text: str | None) -> tuple[str | None, str | None]:
    """What --board names: (a board file, None), or (None, a shipped board's name) for the name
    of a board shipped in hardware/boards/ that is not a file here; (None, None) for nothing."""
    if text is None:
        return None, None
    from reedboard.hal.shipped import shipped_boards

    if text in shipped_boards() and not Path(text).exists():
        return None, text
    return text, None


def listen(text: str) -> tuple[str, int]:
    """HOST:PORT, for --listen (an IPv6 host may stand in brackets)."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(_("--listen takes HOST:PORT, e.g. 127.0.0.1:8000, not {text}").format(
            text=repr(text)))
    return host.strip("[]"), int(port)


def listen_or_port(text: str) -> tuple[str | None, int]:
    """HOST:PORT, or a port alone (host None: the host the command listens on without --listen)."""
    if text.isdigit():
        if not 0 < int(text) < 65536:
            raise argparse.ArgumentTypeError(_("--listen takes HOST:PORT or a port 1-65535, e.g. 127.0.0.1:8000 or"
                                               " 8000, not {text}").format(text=repr(text)))
        return None, int(text)
    try:
        return listen(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(_("--listen takes HOST:PORT or a port 1-65535, e.g. 127.0.0.1:8000 or"
                                           " 8000, not {text}").format(text=repr(text))) from None


def seconds(text: str) -> float:
    """A timeout: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(_("a timeout is a positive number of seconds, not {text}").format(
            text=repr(text)))
    return value


def _cannot_write(path: Path, directory: bool = False) -> str | None:
    """Why `path` could not be written (made, for a directory, with its parents), or None.

    Asked before a long run, so that its result is not lost at the end; it writes nothing."""
    if directory and path.exists() and not path.is_dir():
        return _("{path} is a file, not a directory").format(path=path)
    if not directory and path.is_dir():
        return _("{path} is a directory, not a file").format(path=path)
    parent = path if directory else path.parent
    existing = parent
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        return _("{path} is a file, not a directory").format(path=existing)
    if existing != parent and not directory:  # a report or board file is written, not its directory
        return _("the directory {path} does not exist").format(path=parent)
    if not os.access(existing, os.W_OK | os.X_OK):
        return _("{path} cannot be written in (permission denied)").format(path=existing)
    if not directory and path.exists() and not os.access(path, os.W_OK):
        return _("{path} cannot be written (permission denied)").format(path=path)
    return None


def check_output(path: str | Path | None, what: str, option: str, directory: bool = False) -> None:
    """Refuse an output place that cannot be written; None: a default file in this directory.
    `what`: the thing written, marked with N_ ("the self-test report"); `option`: its option."""
    target = Path(path) if path is not None else Path.cwd()
    problem = _cannot_write(target, directory or path is None)
    if problem:
        if path is not None:
            raise UsageError(_("reedboard: cannot write {what} to {path}: {problem}; choose another {option}").format(
                what=_(what), path=target, problem=problem, option=option))
        raise UsageError(_("reedboard: cannot write {what} here, in the current directory: {problem};"
                           " choose another {option}").format(what=_(what), problem=problem, option=option))


def check_board_file(path: str | None, game: Game | None = None) -> None:
    """Read the --board wiring file first, so that a wrong one is named before anything starts
    (for a game: a board of the game's kind with every cell the game needs)."""
    if path is None:
        return
    from reedboard.hal.board import load_board

    if game is None:
        load_board(path)
    else:
        load_board(path, game=game.board, cells=game.cells)
