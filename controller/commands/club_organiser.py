"""`reedboard club ACTION ...`: the organiser's actions on a running club's tournament from the
command line, through the club's API (docs/tournament.md) with its token: pair the next round,
enter or correct a result, register or withdraw a player, finish, and show the standings.

    reedboard club pair --token TOKEN [--club http://HOST:8080]
    reedboard club result 3 5 1-0 --token TOKEN
    reedboard club correct 3 5 0-1 "the wrong box was ticked" --token TOKEN
    reedboard club standings

The token is the one in the organiser's address the club printed (`?token=...`), or
REEDBOARD_CLUB_TOKEN. A refusal is the club's one line, in the language in use, and exit 1."""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..language.catalogue import COMMANDS, current

_ = COMMANDS.gettext

CLUB = "http://127.0.0.1:8080"
TOKEN_VARIABLE = "REEDBOARD_CLUB_TOKEN"
TIMEOUT = 15.0  # s for the club to answer


def _count(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 1 << 31:
        raise argparse.ArgumentTypeError(_("a whole number from 1, not {value}").format(value=repr(text[:40])))
    return int(text)


class _ClubHelp(argparse.HelpFormatter):
    """`reedboard club --help` as the club is run: the organiser's ACTION written `[ACTION ...]`,
    since the club runs without one (argparse writes an optional subcommand as if required)."""

    def _format_args(self, action: argparse.Action, default_metavar: str) -> str:
        if action.nargs == argparse.PARSER and not action.required:
            return "[%s ...]" % self._metavar_formatter(action, default_metavar)(1)
        return super()._format_args(action, default_metavar)


def add_organiser_actions(club: argparse.ArgumentParser) -> None:
    """The organiser's actions as `reedboard club`'s own subcommands (without one: the club)."""
    club.formatter_class = _ClubHelp
    actions = club.add_subparsers(
        dest="organise", metavar="ACTION", parser_class=type(club), required=False,
        title=_("the organiser's actions"),
        description=_("without one, `reedboard club` runs the club; with one, it acts on the tournament of a"
                      " running club (ACTION --help for its arguments)"))

    def action(name: str, help_text: str, token: bool = True) -> argparse.ArgumentParser:
        sub = actions.add_parser(name, help=help_text)
        sub.add_argument("--club", metavar="URL", default=CLUB,
                         help=_("the running club's page (default {club})").format(club=CLUB))
        if token:
            sub.add_argument("--token", metavar="TOKEN",
                             help=_("the organiser's token, as in the address the club printed (default: ${variable})")
                             .format(variable=TOKEN_VARIABLE))
        sub.set_defaults(run=run, action=name)
        return sub

    action("pair", _("pair the tournament's next round (every game of the last one has its result)"))
    result = action("result", _("enter a game's result by hand"))
    correct = action("correct", _("correct a game's result, saying why (the result it corrects stays in the journal)"))
    for sub in (result, correct):
        sub.add_argument("round", type=_count, metavar="ROUND", help=_("the round"))
        sub.add_argument("number", type=_count, metavar="BOARD", help=_("the game's board number in the round"))
        sub.add_argument("result", choices=("1-0", "1/2-1/2", "0-1"), metavar="RESULT",
                         help=_("1-0, 1/2-1/2 or 0-1: the first colour's score first"))
    correct.add_argument("reason", metavar="REASON", help=_("why the result is corrected"))
    register = action("register", _("register a player, from the next round on"))
    register.add_argument("name", metavar="NAME", help=_("the player's name"))
    register.add_argument("--rating", type=int, metavar="N",
                          help=_("the player's rating (default: the club's archive's, for a player of earlier nights)"))
    withdraw = action("withdraw", _("withdraw a player from the next round on"))
    withdraw.add_argument("player", metavar="PLAYER", help=_("the player's name or number"))
    action("finish", _("end the tournament: its ratings go to the club's archive"))
    action("standings", _("show the tournament's standings"), token=False)


def run(args: argparse.Namespace) -> int:
    club = args.club.rstrip("/")
    if not club.startswith(("http://", "https://")):
        print(_("reedboard club: --club is the club's address, http://HOST:PORT, not {url}").format(
            url=repr(club[:80])), file=sys.stderr)
        return 2
    if args.action == "standings":
        answer = _ask(club, "GET", "/api/tournament")
        if answer is None:
            return 1
        _print_standings(answer)
        return 0
    token = args.token or os.environ.get(TOKEN_VARIABLE)
    if not token:
        print(_("reedboard club {action}: the organiser's token is needed: --token TOKEN or ${variable} (it is in"
                " the address the club printed)").format(action=args.action, variable=TOKEN_VARIABLE),
              file=sys.stderr)
        return 2
    body = {"result": lambda: {"round": args.round, "number": args.number, "result": args.result},
            "correct": lambda: {"round": args.round, "number": args.number, "result": args.result,
                                "reason": args.reason},
            "register": lambda: {"name": args.name, **({"rating": args.rating} if args.rating is not None else {})},
            "withdraw": lambda: {"player": args.player}}.get(args.action, dict)()
    answer = _ask(club, "POST", f"/api/tournament/{args.action}", body, token, args.action)
    if answer is None:
        return 1
    if args.action == "pair":  # the round's games by the players' names, as the page shows them
        summary = _ask(club, "GET", "/api/tournament")
        if summary is None:
            return 1
        _print_pairing(summary)
        return 0
    print(_("done: {event}").format(event=json.dumps(answer, ensure_ascii=False)))
    return 0


def _ask(club: str, method: str, path: str, body: dict | None = None, token: str | None = None,
         action: str = "standings") -> dict | None:
    """The club's JSON answer; None when refused or not reached (said in one line)."""
    import urllib.error  # here, not at the top: `--help` loads no ssl
    import urllib.request

    headers = {"Accept-Language": current(), "Content-Type": "application/json"}
    if token:
        headers["X-Reedboard-Token"] = token
    data = json.dumps(body).encode("utf-8") if body is not None else None
    request = urllib.request.Request(club + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:
        try:
            said = json.loads(error.read().decode("utf-8", "replace")).get("error") or error.reason
        except (ValueError, AttributeError, OSError):
            said = error.reason
        print(_("reedboard club {action}: refused ({status}): {said}").format(
            action=action, status=error.code, said=str(said)[:300]), file=sys.stderr)
    except (urllib.error.URLError, OSError, ValueError) as error:
        why = getattr(error, "reason", error)
        print(_("reedboard club {action}: no club answers at {url} ({problem})").format(
            action=action, url=club, problem=str(why)[:120]), file=sys.stderr)
    return None


def _print_pairing(summary: dict) -> None:
    latest = (summary.get("rounds") or [{}])[-1]
    for game in latest.get("games", []):
        print(_("round {round}, board {number} ({board}): {first} - {second}").format(
            round=game.get("round"), number=game.get("number"), board=game.get("board"),
            first=game.get("first"), second=game.get("second")))
    if latest.get("bye"):
        print(_("bye: {player}").format(player=latest["bye"]))


def _print_standings(summary: dict) -> None:
    if not summary.get("tournament"):
        print(_("the club runs no tournament yet"))
        return
    rows = summary.get("standings") or []
    print(f"{_('place'):>5}  {_('player'):<24} {_('points'):>6} {'Buchholz':>8} {'S-B':>8} {_('rating'):>6}")
    for row in rows:
        print(f"{row.get('place', ''):>5}  {str(row.get('name', ''))[:24]:<24} {row.get('points', 0):>6} "
              f"{row.get('buchholz', 0):>8} {row.get('sonneborn_berger', 0):>8} {row.get('rating') or '':>6}")
