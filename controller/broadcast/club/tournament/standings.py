"""The standings: points, then Buchholz, Sonneborn-Berger and the direct encounter.

- points: a win 1, a draw ½, a bye its points (1 unless the tournament says otherwise), a round
  missed 0;
- Buchholz: the sum of the points of the opponents met over the board (a bye or a round missed
  adds nothing);
- Sonneborn-Berger: for every game, the opponent's points times what the player scored against
  them (a win the whole, a draw half);
- direct encounter: among the players level on all of the above, the points each scored in the
  games between them;
- then the starting rank. Players level on everything share a place ("3-4").

Everything is counted in halves (a win 2) and shown in points.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Game:
    """A game with a result: the first and the second colour's players and the first's score in
    halves (2 a win, 1 a draw, 0 a loss)."""

    first: int
    second: int
    score: int


def standings_table(players: Mapping[int, dict], games: Iterable[Game], byes: Mapping[int, int]) -> list[dict]:
    """Rows, best first: `id`, `name`, `rank` (starting), `place` ("3" or "3-4"), `points`,
    `buchholz`, `sonneborn_berger`, `direct`, `games`, `wins`, `draws`, `losses`, `byes`.
    `players`: id -> {"name", "rank"}; `byes`: id -> the points of their byes in halves."""
    games = list(games)
    points = {pid: byes.get(pid, 0) for pid in players}
    met: dict[int, list[tuple[int, int]]] = {pid: [] for pid in players}  # (opponent, own score)
    for game in games:
        points[game.first] += game.score
        points[game.second] += 2 - game.score
        met[game.first].append((game.second, game.score))
        met[game.second].append((game.first, 2 - game.score))
    buchholz = {pid: sum(points[o] for o, __ in met[pid]) for pid in players}
    sb = {pid: sum(points[o] * s for o, s in met[pid]) for pid in players}  # in quarters
    key = {pid: (points[pid], buchholz[pid], sb[pid]) for pid in players}
    level: dict[tuple, list[int]] = {}
    for pid in players:
        level.setdefault(key[pid], []).append(pid)
    direct = {}
    for group in level.values():
        inside = set(group)
        for pid in group:
            direct[pid] = sum(s for o, s in met[pid] if o in inside) if len(group) > 1 else 0
    order = sorted(players, key=lambda pid: (*(-v for v in key[pid]), -direct[pid], players[pid]["rank"]))
    rows = []
    for pid in order:
        results = [s for __, s in met[pid]]
        rows.append({"id": pid, "name": players[pid]["name"], "rank": players[pid]["rank"],
                     "points": points[pid] / 2, "buchholz": buchholz[pid] / 2, "sonneborn_berger": sb[pid] / 4,
                     "direct": direct[pid] / 2, "games": len(results), "wins": results.count(2),
                     "draws": results.count(1), "losses": results.count(0), "byes": byes.get(pid, 0) / 2})
    shared: dict[tuple, list[int]] = {}
    for i, pid in enumerate(order):
        shared.setdefault((*key[pid], direct[pid]), []).append(i + 1)
    for row, pid in zip(rows, order):
        places = shared[(*key[pid], direct[pid])]
        row["place"] = str(places[0]) if len(places) == 1 else f"{places[0]}-{places[-1]}"
    return rows
