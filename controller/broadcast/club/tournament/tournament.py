"""A tournament as its journal of events: nothing is overwritten, everything is replayed.

The journal is `tournament.jsonl` in the tournament's folder, one JSON object a line, each
written whole and synced before it counts:

    {"type": "tournament", "name", "game", "colours", "system": "swiss"|"roundrobin", "rounds",
     "boards": [NAME...], "clock": {"minutes", "increment"}|null, "bye": halves}
    {"type": "player", "id", "name", "rating", "round"}          registered, plays from `round` on
    {"type": "withdraw", "id", "round"}                           plays no more from `round` on
    {"type": "pairing", "round", "games": [{"board", "number", "first", "second"}], "bye": id|null}
    {"type": "result", "round", "number", "score", "source": {"board", "game"}|null}
    {"type": "correction", "round", "number", "score", "reason"}  the organiser's, with a reason
    {"type": "finish"}                                            the ratings went to the archive

and every line has `n` (its number) and `at` (when). A result is taken once: a second one for
the same game of the round, or a board's game already taken, is not written (the first stands;
the organiser corrects it, saying why). A torn last line (the club killed while writing it) is
left out when the journal is read, as if never written: its action had not been confirmed.

Scores are the first colour's, in halves: 2 a win, 1 a draw, 0 a loss.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ....language.catalogue import COMMANDS
from . import ratings as rating_archive
from .pairing import Entrant, PairingError, berger_round, swiss_pairing
from .standings import Game, standings_table
from ....words import said

JOURNAL = "tournament.jsonl"
SYSTEMS = ("swiss", "roundrobin")
NAME_LIMIT = 40
SCORES = {"1-0": 2, "1/2-1/2": 1, "0-1": 0}
RESULT_TEXT = {2: "1-0", 1: "1/2-1/2", 0: "0-1"}
BAD_REQUEST, NOT_FOUND, CONFLICT = 400, 404, 409  # a refusal's HTTP status: what was asked is wrong, names nothing, cannot be now
_ = COMMANDS.gettext
ngettext = COMMANDS.ngettext


class TournamentError(ValueError):
    """What the organiser asked cannot be done (said in one line, in the language in use);
    `status` is the HTTP status the club's API answers with."""

    def __init__(self, message: str, status: int = CONFLICT) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Board:
    round: int
    number: int
    board: str
    first: int
    second: int
    score: int | None = None
    source: dict | None = None
    corrections: int = 0


def result_text(score: int | None) -> str | None:
    return None if score is None else RESULT_TEXT[score]


class Tournament:
    """The tournament kept in `folder` (its journal), with the club's archive of ratings in
    `archive` (the club's games folder)."""

    def __init__(self, folder: str | Path, archive: str | Path | None = None,
                 now=lambda: datetime.now().astimezone()) -> None:
        self.folder = Path(folder)
        self.archive = Path(archive) if archive is not None else self.folder.parent
        self.now = now
        self.events: list[dict] = []
        self.settings: dict | None = None
        self.players: dict[int, dict] = {}
        self.rounds: dict[int, list[Board]] = {}
        self.byes: dict[int, int] = {}  # round -> player
        self.corrections: list[dict] = []
        self.sources: set[tuple[str, str]] = set()  # (board, game) results taken
        self.finished = False
        self.warning: str | None = None
        self._file = None
        self._read()

    # --- the journal ------------------------------------------------------------------------------
    @property
    def path(self) -> Path:
        return self.folder / JOURNAL

    def _read(self) -> None:
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            return
        pieces = raw.split(b"\n")
        for number, piece in enumerate(pieces[:-1], 1):
            try:
                event = json.loads(piece.decode("utf-8"))
                if not isinstance(event, dict):
                    raise ValueError("not an object")
                self._apply(event)
            except (ValueError, KeyError, TypeError) as error:
                self.warning = f"{self.path}:{number}: {said(error)}: the journal is read up to there"
                self._truncate(sum(len(p) + 1 for p in pieces[:number - 1]))
                return
            self.events.append(event)
        if pieces[-1]:  # a torn last line: never confirmed, so never there
            self.warning = f"{self.path}:{len(pieces)}: a line torn off at the end is left out"
            self._truncate(len(raw) - len(pieces[-1]))

    def _truncate(self, size: int) -> None:
        with open(self.path, "r+b") as file:
            file.truncate(size)

    def _write(self, event: dict) -> dict:
        event = {**event, "n": len(self.events) + 1, "at": self.now().isoformat(timespec="seconds")}
        self._apply(event)  # checked by applying it before it is written: what is written replays
        self.folder.mkdir(parents=True, exist_ok=True)
        if self._file is None:
            self._file = open(self.path, "ab")
        self._file.write(json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n")
        self._file.flush()
        os.fsync(self._file.fileno())
        self.events.append(event)
        return event

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    # --- replaying --------------------------------------------------------------------------------
    def _apply(self, event: dict) -> None:
        kind = event["type"]
        if kind == "tournament":
            if self.settings is not None:
                raise ValueError("a second tournament line")
            self.settings = {key: event[key] for key in ("name", "game", "colours", "system", "rounds", "boards",
                                                         "clock", "bye")}
            return
        if self.settings is None:
            raise ValueError("the first line must say the tournament")
        if kind == "player":
            self.players[int(event["id"])] = {"id": int(event["id"]), "name": str(event["name"]),
                                             "rating": event.get("rating"), "from": int(event["round"]),
                                             "until": None}
        elif kind == "withdraw":
            self.players[int(event["id"])]["until"] = int(event["round"])
        elif kind == "pairing":
            number = int(event["round"])
            self.rounds[number] = [Board(number, g["number"], g["board"], int(g["first"]), int(g["second"]))
                                   for g in event["games"]]
            if event.get("bye") is not None:
                self.byes[number] = int(event["bye"])
        elif kind in ("result", "correction"):
            board = self._board(int(event["round"]), int(event["number"]))
            score = int(event["score"])
            if score not in RESULT_TEXT:
                raise ValueError(f"no score {score}")
            if kind == "result":
                if board.score is not None:
                    raise ValueError("a second result for one game")
                board.source = event.get("source")
                if board.source:
                    self.sources.add((board.source["board"], board.source["game"]))
            else:
                board.corrections += 1
                self.corrections.append({"round": board.round, "number": board.number, "board": board.board,
                                         "before": result_text(board.score), "after": result_text(score),
                                         "reason": event["reason"], "at": event.get("at")})
            board.score = score
        elif kind == "finish":
            self.finished = True
        else:
            raise ValueError(f"unknown line type {kind!r}")

    def _board(self, round_number: int, number: int) -> Board:
        for board in self.rounds.get(round_number, []):
            if board.number == number:
                return board
        raise TournamentError(_("round {round} has no game {number}").format(round=round_number, number=number),
                              NOT_FOUND)

    # --- the organiser ------------------------------------------------------------------------------
    @classmethod
    def create(cls, folder: str | Path, *, name: str, game: str, colours: Sequence[str], system: str = "swiss",
               rounds: int | None = None, boards: Sequence[str], clock: Mapping | None = None, bye: int = 2,
               archive: str | Path | None = None, now=None) -> Tournament:
        if system not in SYSTEMS:
            raise TournamentError(_("the system is swiss or roundrobin, not {system}").format(
                system=repr(system)[:40]), BAD_REQUEST)
        if not boards:
            raise TournamentError(_("a tournament needs at least one board"), BAD_REQUEST)
        if len(set(boards)) != len(boards):
            raise TournamentError(_("a board is named twice"), BAD_REQUEST)
        if system == "swiss" and not (isinstance(rounds, int) and 1 <= rounds <= 30):
            raise TournamentError(_("a Swiss tournament has 1 to 30 rounds"), BAD_REQUEST)
        if not isinstance(name, str) or not name.strip() or len(name) > 100 or not name.isprintable():
            raise TournamentError(_("the tournament's name is 1 to 100 printable characters"), BAD_REQUEST)
        made = cls(folder, archive, **({"now": now} if now else {}))
        if made.settings is not None:
            raise TournamentError(_("{path} already holds a tournament").format(path=made.path))
        made._write({"type": "tournament", "name": name, "game": game, "colours": list(colours), "system": system,
                     "rounds": rounds, "boards": list(boards), "clock": dict(clock) if clock else None, "bye": bye})
        return made

    @property
    def round(self) -> int:
        """The last round paired (0: none yet)."""
        return max(self.rounds, default=0)

    @property
    def planned_rounds(self) -> int:
        if self.settings["system"] == "roundrobin":
            n = len(self.players)
            return n - 1 + n % 2
        return self.settings["rounds"]

    def register(self, name: str, rating: int | None = None) -> dict:
        """A player: from the next round on (a late entry misses the rounds before, with 0 points).
        Their rating: the one given, else the club's archive's, else none."""
        self._open_for_changes()
        name = " ".join(str(name).split())
        if not 0 < len(name) <= NAME_LIMIT or not name.isprintable():
            raise TournamentError(_("a player's name is 1 to {most} printable characters").format(most=NAME_LIMIT),
                                  BAD_REQUEST)
        if any(p["name"].casefold() == name.casefold() for p in self.players.values()):
            raise TournamentError(_("{name} is registered already").format(name=name))
        if self.settings["system"] == "roundrobin" and self.rounds:
            raise TournamentError(_("a round robin takes no player once it has begun"))
        if rating is None:
            rating = rating_archive.initial(self.archive_data(), name)
        return self._write({"type": "player", "id": max(self.players, default=0) + 1, "name": name,
                            "rating": rating, "round": self.round + 1})

    def withdraw(self, name_or_id: str | int) -> dict:
        self._open_for_changes()
        player = self.player(name_or_id)
        if player["until"] is not None:
            raise TournamentError(_("{name} has withdrawn already").format(name=player["name"]))
        return self._write({"type": "withdraw", "id": player["id"], "round": self.round + 1})

    def player(self, name_or_id: str | int) -> dict:
        for player in self.players.values():
            if str(player["id"]) == str(name_or_id) or player["name"].casefold() == str(name_or_id).casefold():
                return player
        raise TournamentError(_("no player {player}").format(player=repr(str(name_or_id)[:40])), NOT_FOUND)

    def _open_for_changes(self) -> None:
        if self.settings is None:
            raise TournamentError(_("no tournament yet: start one first"), NOT_FOUND)
        if self.finished:
            raise TournamentError(_("the tournament is over"))

    def _all_results_in(self) -> None:
        waiting = len(self.unfinished())
        if waiting:
            raise TournamentError(ngettext("round {round} has {n} game without a result",
                                           "round {round} has {n} games without a result", waiting).format(
                round=self.round, n=waiting))

    def unfinished(self, round_number: int | None = None) -> list[Board]:
        return [b for b in self.rounds.get(self.round if round_number is None else round_number, []) if b.score is None]

    def ranks(self) -> dict[int, int]:
        """Each player's starting rank: by rating (the unrated last), then by registration."""
        order = sorted(self.players.values(), key=lambda p: (-(p["rating"] if p["rating"] is not None else -1),
                                                             p["id"]))
        return {p["id"]: i for i, p in enumerate(order, 1)}

    def playing(self, round_number: int) -> list[dict]:
        return [p for p in self.players.values()
                if p["from"] <= round_number and (p["until"] is None or round_number < p["until"])]

    def pair_next(self) -> dict:
        """The next round's pairing, journaled: every game of the round before must have its result."""
        self._open_for_changes()
        self._all_results_in()
        number = self.round + 1
        if number > self.planned_rounds:
            raise TournamentError(ngettext("its {n} round is paired", "all {n} rounds are paired",
                                           self.planned_rounds).format(n=self.planned_rounds))
        if len(self.playing(number)) < 2:
            raise TournamentError(_("fewer than two players to pair"))
        ranks = self.ranks()
        if self.settings["system"] == "roundrobin":
            order = sorted(self.players, key=lambda pid: ranks[pid])
            games, bye = [], None
            for a, b in berger_round(len(order), number):
                if max(a, b) > len(order):
                    bye = order[min(a, b) - 1]
                else:
                    games.append((order[a - 1], order[b - 1]))
            bye = None if bye is None else bye
            paired = games
        else:
            entrants = self.entrants(number, ranks)
            try:
                pairing = swiss_pairing(entrants, number)
            except PairingError as error:
                raise TournamentError(said(error)) from None  # (in the language in use: pairing.py's words)
            paired, bye = list(pairing.games), pairing.bye
        boards = self.settings["boards"]
        if len(paired) > len(boards):
            raise TournamentError(ngettext("round {round} has {games} games and the tournament {n} board",
                                           "round {round} has {games} games and the tournament {n} boards",
                                           len(boards)).format(round=number, games=len(paired), n=len(boards)))
        return self._write({"type": "pairing", "round": number, "bye": bye,
                            "games": [{"board": boards[i], "number": i + 1, "first": a, "second": b}
                                      for i, (a, b) in enumerate(paired)]})

    def entrants(self, round_number: int, ranks: Mapping[int, int] | None = None) -> list[Entrant]:
        """The players of a round as the pairing sees them, from the rounds before."""
        ranks = ranks or self.ranks()
        made = {p["id"]: Entrant(p["id"], ranks[p["id"]]) for p in self.playing(round_number)}
        everyone = {pid: Entrant(pid, ranks[pid]) for pid in self.players}
        for number in sorted(self.rounds):
            if number >= round_number:
                break
            seated = set()
            for board in self.rounds[number]:
                first, second = everyone[board.first], everyone[board.second]
                first.opponents.add(second.id)
                second.opponents.add(first.id)
                first.seats.append(0)
                second.seats.append(1)
                first.points += board.score or 0
                second.points += 2 - (board.score if board.score is not None else 2)
                seated |= {board.first, board.second}
            bye = self.byes.get(number)
            if bye is not None:
                everyone[bye].had_bye = True
                everyone[bye].points += self.settings["bye"]
                seated.add(bye)
            for pid, entrant in everyone.items():
                if pid not in seated:
                    entrant.seats.append(None)
        return [everyone[pid] for pid in made]

    def take_board_result(self, board: str, game: str, players: Mapping[str, str], winner: str | None) -> dict | None:
        """A board's finished game: taken as the result of the open round's game on that board
        when its players sat as paired; None when it is not one (a casual game, a result taken
        already, the same game sent again)."""
        if self.settings is None or self.finished or (board, game) in self.sources:
            return None
        paired = next((b for b in self.rounds.get(self.round, []) if b.board == board), None)
        if paired is None or paired.score is not None:
            return None
        colours = self.settings["colours"]
        first, second = self.players[paired.first]["name"], self.players[paired.second]["name"]
        if players.get(colours[0]) != first or players.get(colours[1]) != second:
            return None
        score = 1 if winner is None else (2 if winner == colours[0] else 0)
        return self._write({"type": "result", "round": paired.round, "number": paired.number, "score": score,
                            "source": {"board": board, "game": game}})

    def enter_result(self, round_number: int, number: int, result: str) -> dict:
        """The organiser's result for a game that has none (a board that did not broadcast it)."""
        self._open_for_changes()
        board = self._board(round_number, number)
        if board.score is not None:
            raise TournamentError(_("round {round}, game {number} has its result: correct it, saying why").format(
                round=round_number, number=number))
        return self._write({"type": "result", "round": round_number, "number": number,
                            "score": self._score(result), "source": None})

    def correct(self, round_number: int, number: int, result: str, reason: str) -> dict:
        """A result changed by the organiser, with the reason: journaled beside the one it corrects."""
        self._open_for_changes()
        board = self._board(round_number, number)
        reason = " ".join(str(reason).split())
        if not reason or len(reason) > 200 or not reason.isprintable():
            raise TournamentError(_("a correction says why, in 1 to 200 printable characters"), BAD_REQUEST)
        if board.score is None:
            raise TournamentError(_("round {round}, game {number} has no result to correct").format(
                round=round_number, number=number))
        return self._write({"type": "correction", "round": round_number, "number": number,
                            "score": self._score(result), "reason": reason})

    @staticmethod
    def _score(result: str) -> int:
        if result not in SCORES:
            raise TournamentError(_("a result is 1-0, 1/2-1/2 or 0-1, not {result}").format(result=repr(result[:40])),
                                  BAD_REQUEST)
        return SCORES[result]

    def finish(self) -> dict:
        """The tournament ended: its ratings written to the club's archive (once)."""
        self._open_for_changes()
        self._all_results_in()
        archive = self.archive_data()
        key = self.key
        if key not in archive["counted"]:
            rating_archive.write_archive(self.archive, self.ratings(), [*archive["counted"], key])
        return self._write({"type": "finish"})

    @property
    def key(self) -> str:
        return f"{self.folder.name}:{self.events[0]['at']}" if self.events else self.folder.name

    # --- what the club shows ---------------------------------------------------------------------------
    def archive_data(self) -> dict:
        return rating_archive.read_archive(self.archive)

    def played(self) -> list[Board]:
        return [b for number in sorted(self.rounds) for b in self.rounds[number] if b.score is not None]

    def ratings(self) -> dict[str, dict]:
        """Every player's rating now: the archive's brought up to date by tonight's results (none
        of them when this tournament is counted in the archive already)."""
        archive = self.archive_data()
        if self.key in archive["counted"]:
            return rating_archive.rated(archive, [])
        names = {pid: p["name"] for pid, p in self.players.items()}
        return rating_archive.rated(archive, [(names[b.first], names[b.second], b.score) for b in self.played()])

    def standings(self) -> list[dict]:
        ranks = self.ranks()
        players = {pid: {"name": p["name"], "rank": ranks[pid]} for pid, p in self.players.items()}
        byes: dict[int, int] = {}
        for number, pid in self.byes.items():
            byes[pid] = byes.get(pid, 0) + self.settings["bye"]
        rows = standings_table(players, (Game(b.first, b.second, b.score) for b in self.played()), byes)
        now = self.ratings()
        for row in rows:
            row["rating"] = now.get(row["name"], {}).get("rating")
            row["start_rating"] = self.players[row["id"]]["rating"]
            row["withdrawn"] = self.players[row["id"]]["until"] is not None
        return rows

    def pairing_rows(self, round_number: int) -> list[dict]:
        names = {pid: p["name"] for pid, p in self.players.items()}
        return [{"round": b.round, "number": b.number, "board": b.board, "first": names[b.first],
                 "second": names[b.second], "first_id": b.first, "second_id": b.second,
                 "result": result_text(b.score), "corrected": b.corrections,
                 "source": b.source} for b in self.rounds.get(round_number, [])]

    def event_text(self, round_number: int, number: int) -> str:
        return f"{self.settings['name']}, round {round_number}, board {number}"

    def board_pairings(self) -> dict[str, dict | None]:
        """Each of the tournament's boards: its game of the open round (None: no game there)."""
        if self.settings is None:
            return {}
        colours = self.settings["colours"]
        found: dict[str, dict | None] = {board: None for board in self.settings["boards"]}
        if self.finished:
            return found
        for row in self.pairing_rows(self.round):
            if row["result"] is not None:
                continue
            found[row["board"]] = {"event": self.settings["name"], "round": row["round"], "number": row["number"],
                                   "text": self.event_text(row["round"], row["number"]), "game": self.settings["game"],
                                   "players": {colours[0]: row["first"], colours[1]: row["second"]},
                                   "clock": self.settings["clock"]}
        return found

    def spectators(self) -> dict:
        """What the spectators' page shows of the tournament, retained on PREFIX/club/standings
        (docs/broadcast.md): its name and round, the standings and the last round's games by the
        players' names; nothing of the organiser's (no player's id, no corrections' reasons)."""
        if self.settings is None:
            return {"tournament": None}
        names = {pid: p["name"] for pid, p in self.players.items()}
        return {
            "tournament": {"name": self.settings["name"], "game": self.settings["game"],
                           "colours": list(self.settings["colours"]), "system": self.settings["system"],
                           "round": self.round, "rounds": self.planned_rounds, "finished": self.finished},
            "standings": [{key: row[key] for key in ("place", "name", "points", "buchholz", "sonneborn_berger",
                                                     "games", "rating", "withdrawn")} for row in self.standings()],
            "pairings": {"round": self.round, "bye": names.get(self.byes.get(self.round)),
                         "games": [{key: game[key] for key in ("number", "board", "first", "second", "result")}
                                   for game in self.pairing_rows(self.round)]} if self.round else None,
        }

    def summary(self) -> dict:
        """Everything the club's pages show of the tournament."""
        if self.settings is None:
            return {"tournament": None}
        ratings = self.ratings()
        ranks = self.ranks()
        names = {pid: p["name"] for pid, p in self.players.items()}
        return {
            "tournament": {**self.settings, "round": self.round, "planned_rounds": self.planned_rounds,
                           "finished": self.finished, "waiting": len(self.unfinished())},
            "players": [{**p, "rank": ranks[pid], "now": ratings.get(p["name"], {}).get("rating")}
                        for pid, p in sorted(self.players.items())],
            "rounds": [{"round": number, "games": self.pairing_rows(number),
                        "bye": names.get(self.byes.get(number))} for number in sorted(self.rounds)],
            "standings": self.standings(),
            "corrections": list(self.corrections),
        }
