"""`reedboard match GAME PLAYER PLAYER`: the command line of controller/opponent/match.py's engine
matches, its lines said in the language in use."""

from __future__ import annotations

import argparse

from ..games import GAMES, game_name, top_level, top_levels
from ..language.catalogue import COMMANDS
from ..opponent.match import MAX_MOVES, parse_player, run_match
from ..words import said
from .usage import UsageError

_ = COMMANDS.gettext


def add_parser(commands) -> argparse.ArgumentParser:
    parser = commands.add_parser("match", help=_("play the computer against itself, random or greedy; print the score"))
    parser.add_argument("game", type=game_name, choices=sorted(GAMES), help=_("the game"))
    for which in ("first", "second"):
        parser.add_argument(which, type=_player, metavar="PLAYER",
                            help=_("random, greedy or computer:LEVEL (1 to the game's strongest: {tops})").format(tops=top_levels()))
    parser.add_argument("--games", type=_count, default=100, help=_("games to play (default 100)"))
    parser.add_argument("--seed", type=int, default=0, help=_("the seed of the set-ups and the die (default 0)"))
    parser.add_argument("--jobs", type=_count, default=1, help=_("games played at once, one process each (default 1)"))
    parser.add_argument("--max-moves", type=_count, default=MAX_MOVES,
                        help=_("a game still going after this many moves is a draw (default {moves})").format(
                            moves=MAX_MOVES))
    parser.add_argument("--nodes", type=_count, default=None,
                        help=_("the top level's node budget instead of its own (every level searches by nodes, never"
                               " by time, in a match: the same games on any machine)"))
    parser.add_argument("--opening", type=_plies, default=0, metavar="PLIES",
                        help=_("each pair of games (colours swapped) starts after this many random moves, the same"
                               " for both: games without chance then differ (default 0)"))
    parser.set_defaults(run=run)
    return parser


def _plies(text: str) -> int:
    if not text.isdigit() or int(text) > 40:
        raise argparse.ArgumentTypeError(_("give a whole number 0 to 40, not {text}").format(text=repr(text)))
    return int(text)


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(_("give a whole number 1 or more, not {text}").format(text=repr(text)))
    return int(text)


def _player(text: str) -> str:
    try:
        return parse_player(text)
    except argparse.ArgumentTypeError as error:  # its reason handed over as a phrase
        raise argparse.ArgumentTypeError(said(error)) from None


def run(args: argparse.Namespace) -> int:
    for player in (args.first, args.second):  # a game's levels end where its ladder does
        kind, _colon, number = player.partition(":")
        if kind == "computer" and int(number) > top_level(args.game):
            raise UsageError(_("reedboard match: the computer's levels in {game} are 1 to {top}, not {level}").format(
                game=GAMES[args.game].title, top=top_level(args.game), level=number))
    run_match(args.game, (args.first, args.second), args.games, args.seed, args.jobs, args.max_moves,
              out=lambda line: print(said(line)), nodes=args.nodes, opening_plies=args.opening)
    return 0
