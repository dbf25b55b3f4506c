"""The organiser's actions on the club's tournament, as the club's page and API take them
(POST /api/tournament/ACTION with the club's token), and its exports (docs/tournament.md).

Every body is checked key by key before the tournament is asked anything: a key it does not
take, a value of the wrong kind, is a 400 naming it, in the language of the request."""

from __future__ import annotations

from ...language.catalogue import COMMANDS
from ..address import NAME
from .club import Club
from .tournament import Tournament, TournamentError
from .tournament.exports import games_csv, standings_csv, trf
from .tournament.tournament import BAD_REQUEST, NOT_FOUND

EXPORTS = {"games.csv": (games_csv, "text/csv"), "standings.csv": (standings_csv, "text/csv"),
           "tournament.trf": (trf, "text/plain")}
ACTIONS = ("new", "register", "withdraw", "pair", "result", "correct", "finish")
_ = COMMANDS.gettext

TEXT, WHOLE, ID, CLOCK, BOARDS = "text", "whole", "id", "clock", "boards"
# action -> key -> (required?, kind); a key left out of an action is refused
FIELDS: dict[str, dict[str, tuple[bool, str]]] = {
    "new": {"name": (True, TEXT), "game": (True, TEXT), "system": (False, TEXT), "rounds": (False, WHOLE),
            "boards": (True, BOARDS), "clock": (False, CLOCK)},
    "register": {"name": (True, TEXT), "rating": (False, WHOLE)},
    "withdraw": {"player": (True, ID)},
    "pair": {},
    "result": {"round": (True, WHOLE), "number": (True, WHOLE), "result": (True, TEXT)},
    "correct": {"round": (True, WHOLE), "number": (True, WHOLE), "result": (True, TEXT), "reason": (True, TEXT)},
    "finish": {},
}


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -(1 << 31) < value < 1 << 31


KINDS = {
    TEXT: lambda v: isinstance(v, str) and len(v) <= 400,
    WHOLE: lambda v: v is None or _whole(v),
    ID: lambda v: (isinstance(v, str) and len(v) <= 400) or _whole(v),
    CLOCK: lambda v: v is None or (isinstance(v, dict) and set(v) == {"minutes", "increment"} and all(
        _whole(n) and 0 <= n <= 600 for n in v.values())),
    BOARDS: lambda v: isinstance(v, list) and 0 < len(v) <= 200 and all(isinstance(b, str) and NAME.match(b) for b in v),
}
KIND_WORDS = {
    TEXT: lambda: _("text"),
    WHOLE: lambda: _("a whole number"),
    ID: lambda: _("a player's name or number"),
    CLOCK: lambda: _('{"minutes": 0-600, "increment": 0-600}, or null'),
    BOARDS: lambda: _("a list of the boards' names (letters, digits, '_', '.' or '-')"),
}


def checked(action: str, body: object) -> dict:
    """The body of `action` when it holds only the action's keys, each of its kind; else
    TournamentError 400 (404 for an action there is not)."""
    if action not in FIELDS:
        raise TournamentError(_("no action {action}: {actions}").format(action=repr(action[:40]),
                                                                       actions=", ".join(ACTIONS)), NOT_FOUND)
    if not isinstance(body, dict):
        raise TournamentError(_("the body must be a JSON object"), BAD_REQUEST)
    fields = FIELDS[action]
    unknown = sorted(set(body) - set(fields))
    if unknown:
        raise TournamentError(_("{action} takes no {key} (it takes {keys})").format(
            action=action, key=repr(unknown[0][:40]), keys=", ".join(fields) or _("nothing")), BAD_REQUEST)
    for key, (required, kind) in fields.items():
        if key not in body:
            if required:
                raise TournamentError(_("{action} needs {key}").format(action=action, key=repr(key)), BAD_REQUEST)
            continue
        if not KINDS[kind](body[key]):
            raise TournamentError(_("{key} is {kind}").format(key=key, kind=KIND_WORDS[kind]()), BAD_REQUEST)
    return body


def organise(club: Club, action: str, body: dict) -> dict:
    """One of the organiser's actions (TournamentError: refused, in one line, with its status)."""
    body = checked(action, body)
    tournament = club.tournament
    if tournament is None:
        raise TournamentError(_("the club runs no tournament (reedboard club --tournament DIR)"), NOT_FOUND)
    if action == "new":
        from ...games import GAMES

        game = body["game"]
        if game not in GAMES:
            raise TournamentError(_("no game {game}: {games}").format(game=repr(game[:40]), games=", ".join(GAMES)),
                                  BAD_REQUEST)
        made = Tournament.create(tournament.folder, archive=tournament.archive, name=body["name"], game=game,
                                 colours=list(GAMES[game].players), system=body.get("system", "swiss"),
                                 rounds=body.get("rounds"), boards=body["boards"], clock=body.get("clock"))
        tournament.close()
        club.tournament = made
        club.tournament_changed()
        return {"ok": True}
    if tournament.settings is None:
        raise TournamentError(_("no tournament yet: start one first"), NOT_FOUND)
    try:
        if action == "register":
            rating = body.get("rating")
            if rating is not None and not 0 <= rating <= 4000:
                raise TournamentError(_("a rating is a whole number 0-4000"), BAD_REQUEST)
            return tournament.register(body["name"], rating)
        if action == "withdraw":
            return tournament.withdraw(body["player"])
        if action == "pair":
            return tournament.pair_next()
        if action == "finish":
            return tournament.finish()
        if action == "result":
            return tournament.enter_result(body["round"], body["number"], body["result"])
        return tournament.correct(body["round"], body["number"], body["result"], body["reason"])
    finally:
        club.tournament_changed()
