"""A tournament written out: its games (CSV), its standings (CSV) and the FIDE Tournament Report
File (TRF16), the format pairing programs (JaVaFo, bbpPairings, Swiss-Manager) read.

TRF16: a header of `012` (name), `042` (start date), `062` (players), `092` (type) and `XXR`
(rounds, the JaVaFo extension), then one `001` line a player in fixed columns: starting rank
(5-8), name (15-47), rating (49-52), points (81-84), place (86-89), then ten columns a round
from column 92: the opponent's starting rank (4), the colour (`w` the tournament's first
colour, `b` the second, `-` none), the result (`1`, `=`, `0`; a bye `U` or `H`; `-` a round
missed), for example `   3 w 1`.
"""

from __future__ import annotations

import csv
import io

from .tournament import Tournament, result_text


def games_csv(tournament: Tournament) -> str:
    colours = tournament.settings["colours"]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["round", "board_number", "board", colours[0], colours[1], "result", "game", "corrections"])
    names = {pid: p["name"] for pid, p in tournament.players.items()}
    for number in sorted(tournament.rounds):
        for board in tournament.rounds[number]:
            writer.writerow([number, board.number, board.board, names[board.first], names[board.second],
                             result_text(board.score) or "*", (board.source or {}).get("game", ""), board.corrections])
        bye = tournament.byes.get(number)
        if bye is not None:
            writer.writerow([number, "", "", names[bye], "", "bye", "", 0])
    return out.getvalue()


def standings_csv(tournament: Tournament) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    keys = ["place", "name", "points", "buchholz", "sonneborn_berger", "direct", "games", "wins", "draws", "losses",
            "byes", "rank", "start_rating", "rating"]
    writer.writerow(keys)
    for row in tournament.standings():
        writer.writerow(["" if row[k] is None else row[k] for k in keys])
    return out.getvalue()


def _points(value: float) -> str:
    return f"{value:4.1f}"


def trf(tournament: Tournament) -> str:
    settings = tournament.settings
    ranks = tournament.ranks()
    standings = tournament.standings()
    place = {row["id"]: row["place"].split("-")[0] for row in standings}
    points = {row["id"]: row["points"] for row in standings}
    started = tournament.events[0].get("at", "")[:10].replace("-", "/") if tournament.events else ""
    lines = [f"012 {settings['name'][:80]}", f"042 {started}", f"062 {len(tournament.players)}",
             f"092 {'Individual: Swiss-System' if settings['system'] == 'swiss' else 'Individual: Round-Robin'}",
             f"XXR {tournament.planned_rounds}"]
    for pid in sorted(tournament.players, key=lambda p: ranks[p]):
        player = tournament.players[pid]
        rating = player["rating"] or 0
        line = (f"001 {ranks[pid]:4d}      {player['name'][:33]:<33} {rating:4d}{'':28}"
                f"{_points(points[pid])} {int(place[pid]):4d}")
        assert len(line) == 89, line
        for number in sorted(tournament.rounds):
            line += "  " + _round_cell(tournament, number, pid, ranks)
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def _round_cell(tournament: Tournament, number: int, pid: int, ranks: dict[int, int]) -> str:
    for board in tournament.rounds[number]:
        if pid in (board.first, board.second):
            first = pid == board.first
            other = board.second if first else board.first
            if board.score is None:
                mark = " "
            else:
                own = board.score if first else 2 - board.score
                mark = {2: "1", 1: "=", 0: "0"}[own]
            return f"{ranks[other]:4d} {'w' if first else 'b'} {mark}"
    if tournament.byes.get(number) == pid:
        return f"0000 - {'U' if tournament.settings['bye'] == 2 else 'H' if tournament.settings['bye'] == 1 else 'Z'}"
    return "0000 - -"
