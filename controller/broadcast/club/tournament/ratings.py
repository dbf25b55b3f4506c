"""The club's ratings across nights: openskill's Plackett-Luce model (a Bayesian skill rating in
the family of Glicko-2: a skill and its uncertainty, the uncertainty shrinking with every game),
kept in the club's archive as `club-ratings.json` beside the club's games.

A night's ratings are the archive's, as the night began, brought up to date by each of its
results in the order they came; they are worked out again from the tournament's journal
whenever asked, so a club started again shows the same numbers. Only when the organiser ends
the tournament are they written to the archive, with the tournament's name among those already
counted: a tournament ended twice counts once.

The number shown is the skill less three times its uncertainty, on a scale where a new player
is 1500 (mu - 3 sigma, times 24, plus 1500): it grows as a player proves themself.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

ARCHIVE = "club-ratings.json"
SCALE, BASE = 24.0, 1500.0  # the shown number: (mu - 3 sigma) * SCALE + BASE (a new player: 1500)


def _model():
    from openskill.models import PlackettLuce  # here: the club's page starts without it until asked

    return PlackettLuce()


def shown(mu: float, sigma: float) -> int:
    return round((mu - 3 * sigma) * SCALE + BASE)


def read_archive(folder: Path) -> dict:
    """{"players": {name: {"mu", "sigma", "games"}}, "counted": [tournament ids]}; empty when
    there is none yet or it cannot be read."""
    try:
        data = json.loads((Path(folder) / ARCHIVE).read_text("utf-8"))
    except (OSError, ValueError):
        return {"players": {}, "counted": []}
    players = data.get("players") if isinstance(data, dict) else None
    counted = data.get("counted") if isinstance(data, dict) else None
    good = {}
    for name, value in (players or {}).items() if isinstance(players, dict) else ():
        if isinstance(name, str) and isinstance(value, dict) and all(
                isinstance(value.get(k), (int, float)) and not isinstance(value.get(k), bool)
                for k in ("mu", "sigma", "games")) and value["sigma"] > 0:
            good[name] = {"mu": float(value["mu"]), "sigma": float(value["sigma"]), "games": int(value["games"])}
    return {"players": good, "counted": [c for c in counted or [] if isinstance(c, str)]}


def rated(archive: Mapping, games: Iterable[tuple[str, str, int]]) -> dict[str, dict]:
    """The archive's players brought up to date by `games` (first's name, second's name, the
    first's score in halves), in order: name -> {"mu", "sigma", "games", "rating"}."""
    model = _model()
    players = {name: dict(value) for name, value in archive.get("players", {}).items()}
    for first, second, score in games:
        ratings = []
        for name in (first, second):
            known = players.get(name)
            ratings.append(model.rating(mu=known["mu"], sigma=known["sigma"]) if known else model.rating())
        ranks = [1, 1] if score == 1 else ([1, 2] if score == 2 else [2, 1])
        [[a], [b]] = model.rate([[ratings[0]], [ratings[1]]], ranks=ranks)
        for name, new in ((first, a), (second, b)):
            before = players.get(name, {"games": 0})
            players[name] = {"mu": new.mu, "sigma": new.sigma, "games": before["games"] + 1}
    for value in players.values():
        value["rating"] = shown(value["mu"], value["sigma"])
    return players


def initial(archive: Mapping, name: str) -> int | None:
    """A known player's shown rating in the archive (None: new to the club)."""
    known = archive.get("players", {}).get(name)
    return shown(known["mu"], known["sigma"]) if known else None


def write_archive(folder: Path, players: Mapping[str, dict], counted: list[str]) -> None:
    """The archive written anew (a temporary file, then renamed: never half written)."""
    path = Path(folder) / ARCHIVE
    data = {"v": 1, "players": {name: {k: value[k] for k in ("mu", "sigma", "games")}
                                for name, value in sorted(players.items())}, "counted": counted}
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=1, ensure_ascii=False), "utf-8")
    os.replace(temporary, path)
