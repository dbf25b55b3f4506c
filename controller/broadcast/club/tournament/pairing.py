"""Who plays whom: a Swiss round by maximum-weight matching, a round robin by the Berger tables.

Swiss (`swiss_pairing`): every allowed pair of players is an edge of a graph whose weight says
how good the pair is, and networkx's maximum-weight matching (Edmonds' blossom algorithm, with
the largest number of pairs first) chooses the round. A pair is allowed when the two have not
met and some colour for each keeps the colour rules: a player's first and second colours differ
by at most 2, and no one has the same colour three times in a row. With an odd number of
players, a "bye" node joins the graph, linked only to those who have had no bye yet. The
weights, from the strongest wish to the weakest: players of equal points meet (the square of
the points between them costs much), the bye goes to the lowest score (costing more than all
pairs together, and then to the lowest ranked), each player gets the colour owed (a colour difference evened out before an alternation),
and inside a score group the upper half meets the lower half (1 against 1 + n/2). Should the
colour rules leave someone unpaired, they are dropped for this round (a rematch never is).

Round robin (`berger_round`): the FIDE Berger tables, players 1..n (a dummy for an odd n,
whose opponent has the round off).

Colours are seats: 0 the game's first colour (the tournament's `colours[0]`), 1 the second.
Points are counted in halves (a win 2, a draw 1) so that every comparison is exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

from ....language.catalogue import COMMANDS

_ = COMMANDS.gettext

BYE = "bye"


class PairingError(ValueError):
    """No pairing keeps the rules (say, everyone has met everyone)."""


@dataclass
class Entrant:
    """A player as the pairing sees them: their starting rank (1 is the highest rated), points
    in halves, the players met, the seats taken (0, 1, or None for a round without a game),
    and whether they have had a bye."""

    id: int
    rank: int
    points: int = 0
    opponents: set[int] = field(default_factory=set)
    seats: list[int | None] = field(default_factory=list)
    had_bye: bool = False

    @property
    def played(self) -> list[int]:
        return [seat for seat in self.seats if seat is not None]

    @property
    def difference(self) -> int:
        """First colours less second colours."""
        return self.played.count(0) - self.played.count(1)


@dataclass(frozen=True)
class Pairing:
    """One round: the games as (first colour's player, second colour's player), board 1 first,
    and the player with the bye (or None)."""

    games: tuple[tuple[int, int], ...]
    bye: int | None = None


def seat_allowed(entrant: Entrant, seat: int) -> bool:
    """The colour rules hold after `entrant` takes `seat`."""
    played = [*entrant.played, seat]
    if abs(played.count(0) - played.count(1)) > 2:
        return False
    return not (len(played) >= 3 and played[-1] == played[-2] == played[-3])


def wish(entrant: Entrant) -> tuple[int | None, int]:
    """The seat the entrant should get and how strongly (2: a difference to even out, 1: an
    alternation, 0: no wish)."""
    played = entrant.played
    if entrant.difference:
        return (1 if entrant.difference > 0 else 0), 2
    if played:
        return 1 - played[-1], 1
    return None, 0


def _higher(a: Entrant, b: Entrant) -> bool:
    """a ranks above b now: more points, else a better starting rank."""
    return (a.points, -a.rank) > (b.points, -b.rank)


def seats_for(a: Entrant, b: Entrant, round_number: int, relaxed: bool = False) -> tuple[tuple[int, int], int] | None:
    """The better allowed colours for a pair: ((first's id, second's id), how many wishes are met,
    weighted), or None when no colours keep the rules."""
    best = None
    higher, lower = (a, b) if _higher(a, b) else (b, a)
    for first, second in ((higher, lower), (lower, higher)):
        if not relaxed and not (seat_allowed(first, 0) and seat_allowed(second, 1)):
            continue
        met = 0
        for entrant, seat in ((first, 0), (second, 1)):
            wanted, strength = wish(entrant)
            if wanted == seat:
                met += strength * (3 if entrant is higher else 2)  # the higher player's wish first
        if wanted_nothing(higher) and wanted_nothing(lower):  # a first round: the first colour to the odd ranks
            met += 1 if (first is higher) == (higher.rank % 2 == 1) else 0
        if best is None or met > best[1]:
            best = ((first.id, second.id), met)
    return best


def wanted_nothing(entrant: Entrant) -> bool:
    return wish(entrant)[1] == 0


def swiss_pairing(entrants: Sequence[Entrant], round_number: int) -> Pairing:
    """The round's pairing of `entrants` (those who play this round). PairingError when the
    players cannot all be paired without a rematch or a second bye."""
    if len(entrants) < 2:
        raise PairingError(_("fewer than two players to pair"))
    for relaxed in (False, True):
        pairing = _matched(entrants, round_number, relaxed)
        if pairing is not None:
            return pairing
    raise PairingError(_("no pairing without a rematch or a second bye"))


def _matched(entrants: Sequence[Entrant], round_number: int, relaxed: bool) -> Pairing | None:
    by_id = {e.id: e for e in entrants}
    groups: dict[int, list[Entrant]] = {}
    for entrant in sorted(entrants, key=lambda e: (-e.points, e.rank)):
        groups.setdefault(entrant.points, []).append(entrant)
    place = {e.id: (i, len(group)) for group in groups.values() for i, e in enumerate(group)}
    order = {e.id: i for i, e in enumerate(sorted(entrants, key=lambda e: (-e.points, e.rank)))}
    top = max(e.points for e in entrants)
    pairs_most = (len(entrants) + 1) * (top + 1) ** 2 * 1_000_000  # more than all pairs' costs together
    big = (top + 1) * pairs_most * 2
    graph = nx.Graph()
    seats: dict[frozenset, tuple[int, int]] = {}
    for i, a in enumerate(entrants):
        for b in entrants[i + 1:]:
            if b.id in a.opponents:
                continue
            chosen = seats_for(a, b, round_number, relaxed)
            if chosen is None:
                continue
            seats[frozenset((a.id, b.id))] = chosen[0]
            weight = big - (a.points - b.points) ** 2 * 1_000_000 + chosen[1] * 1_000
            if a.points == b.points:  # the upper half of a score group against the lower half
                (pa, size), (pb, __) = place[a.id], place[b.id]
                weight -= abs(abs(pa - pb) - size // 2) * 10
            else:  # a player floated down meets the highest of the group below
                weight -= abs(order[a.id] - order[b.id])
            graph.add_edge(a.id, b.id, weight=weight)
    if len(entrants) % 2:
        for entrant in entrants:
            if not entrant.had_bye:
                graph.add_edge(entrant.id, BYE, weight=big - entrant.points * pairs_most + entrant.rank * 10)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < len(entrants) + len(entrants) % 2:
        return None
    bye = None
    games = []
    for a, b in matching:
        if BYE in (a, b):
            bye = b if a == BYE else a
            continue
        games.append(seats[frozenset((a, b))])

    def board_order(game: tuple[int, int]) -> tuple:
        first, second = by_id[game[0]], by_id[game[1]]
        return (-max(first.points, second.points), -min(first.points, second.points), min(first.rank, second.rank))
    return Pairing(tuple(sorted(games, key=board_order)), bye)


def berger_round(players: int, round_number: int) -> list[tuple[int, int]]:
    """Round `round_number` (1..n-1) of the Berger tables for players 1..`players`: the games as
    (first colour, second colour), board 1 first. With an odd number, player n+1 is the round
    off: a game against it is the other's bye."""
    n = players + players % 2
    m = n - 1
    if not 1 <= round_number <= m:
        raise PairingError(_("a round robin of {players} players has rounds 1 to {last}").format(
            players=players, last=m))
    residue = (round_number + 1) % m or m
    games = []
    for a in range(1, n):
        if (2 * a) % m == residue % m:  # a meets the last player
            games.append((a, n) if round_number % 2 else (n, a))
    for a in range(1, n):
        for b in range(a + 1, n):
            if (a + b) % m == residue % m:
                games.append((a, b) if (b - a) % m % 2 else (b, a))
    first = games[0]
    rest = sorted(games[1:], key=lambda g: _board_of(g, round_number, m))
    return [first, *rest]


def _board_of(game: tuple[int, int], round_number: int, m: int) -> int:
    """Boards 2.. in the tables' order: by the first player's distance from the round's start."""
    a = min(game)
    return (a - round_number) % m
