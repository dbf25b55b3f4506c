"""The organiser's actions on the club's tournament, as the club's page and API take them
(POST /api/tournament/ACTION with the club's token), and its exports (docs/tournament.md)."""

from __future__ import annotations

from .club import Club
from .tournament import Tournament, TournamentError
from .tournament.exports import games_csv, standings_csv, trf

EXPORTS = {"games.csv": (games_csv, "text/csv"), "standings.csv": (standings_csv, "text/csv"),
           "tournament.trf": (trf, "text/plain")}
ACTIONS = ("new", "register", "withdraw", "pair", "result", "correct", "finish")


def organise(club: Club, action: str, body: dict) -> dict:
    """One of the organiser's actions (TournamentError: refused, in one line)."""
    tournament = club.tournament
    if tournament is None:
        raise TournamentError("the club runs no tournament (reedboard club --tournament DIR)")
    if action not in ACTIONS:
        raise TournamentError(f"no action {action[:40]!r}: {', '.join(ACTIONS)}")
    if action == "new":
        from ..games import GAMES

        game = body.get("game")
        if game not in GAMES:
            raise TournamentError(f"no game {str(game)[:40]!r}")
        clock = body.get("clock")
        if clock is not None and not (isinstance(clock, dict) and set(clock) == {"minutes", "increment"} and all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 600 for v in clock.values())):
            raise TournamentError("the clock is {\"minutes\", \"increment\"}, or none")
        boards = body.get("boards") or []
        if not isinstance(boards, list) or not all(isinstance(b, str) for b in boards):
            raise TournamentError("the boards are a list of the boards' names")
        made = Tournament.create(tournament.folder, archive=tournament.archive, name=body.get("name"), game=game,
                                 colours=list(GAMES[game].players), system=body.get("system", "swiss"),
                                 rounds=body.get("rounds"), boards=boards, clock=clock)
        tournament.close()
        club.tournament = made
        club.tournament_changed()
        return {"ok": True}
    if tournament.settings is None:
        raise TournamentError("no tournament yet: start one first")
    try:
        if action == "register":
            rating = body.get("rating")
            if rating is not None and not (isinstance(rating, int) and not isinstance(rating, bool)
                                           and 0 <= rating <= 4000):
                raise TournamentError("a rating is a whole number 0-4000")
            return tournament.register(str(body.get("name", "")), rating)
        if action == "withdraw":
            return tournament.withdraw(str(body.get("player", "")))
        if action == "pair":
            return tournament.pair_next()
        if action == "finish":
            return tournament.finish()
        numbers = body.get("round"), body.get("number")
        if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
            raise TournamentError("a game is its round and its number")
        if action == "result":
            return tournament.enter_result(*numbers, str(body.get("result")))
        return tournament.correct(*numbers, str(body.get("result")), str(body.get("reason", "")))
    finally:
        club.tournament_changed()
