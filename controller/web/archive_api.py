"""The past games: the archive's list, one game to replay, its record to download, the
statistics, and the owner's changes to the archive (a player renamed, a game deleted).

    GET  /api/games, /api/games/NAME, /api/games/NAME/record, /api/games/NAME/review, /api/stats
    POST /api/archive/rename-player, /api/archive/delete

The archive's index (controller.archive) is kept in the side work's thread (its SQLite
connection belongs to that thread) and brought up to date with the journals at each question;
reading it needs no token, changing it does.

A game's review (the first player's chance to win after every move, the blunders and mistakes
marked: controller.opponent.review) is worked out once in a worker process, never in the
board's loop nor in the side work's thread, and kept in the archive's index. A review kept is
anyone's; one to work out (a game not reviewed yet, the game at the board after a new move) is
the owner's (the token, as a change takes it), and a spectator's address has a few of them, then
one more every Limits.review_interval (429 with Retry-After), while fewer than
SPECTATORS_WAITING wait for the worker. A request whose client went away stops its review
(unless someone else waits for it too); the game at the board is reviewed a move at a time.
The worker is controller.archive.reviews.ReviewWorker's alone: a worker that died is replaced
and the review asked again, and a review it cannot work out is a 503 with Retry-After.

    {"first": colour, "nodes": N, "version": V, "result": 1 | 0 | 0.5 | null (for the first player),
     "points": [{"ply": 0, "p": 0.5}, {"ply": 1, "move": "3 c1-d1", "mover": "black", "p": 0.53,
                "loss": 0.0, "mark": null | "mistake" | "blunder", "better": null | "4 b2-c2",
                "cells": null | {"from": ["b2"], "to": ["c2"]}}, ...]}
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import sqlite3
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from ..archive.index import Archive, ArchiveError, Skipped
from ..archive.reviews import ReviewBusy, ReviewJob, ReviewUnavailable, ReviewWorker
from ..archive.records import game_record as record_of
from ..archive.records import record_lines as game_record_lines
from ..games import GAMES
from ..opponent.ratings import level_ratings, player_rating, suggested_level
from ..persist.journal_format import JournalError
from ..persist.journal_reader import read_journal
from ..persist.export import export_lines
from ..session.actions import ActionError
from ..session.past_games import journal_path, past_game
from ..session.play_session import PlaySession

from .access import Access
from .allowance import Allowance
from .archive_query import (
    LIST_LIMIT, LIST_PAGE, indexed, journal_name, list_filters, listed, months, parameters, player_name,
    unfoldered, unindexed,
)
from .changes import Changes
from ..language.catalogue import COMMANDS
from .limits import Limits
from .replies import NAME_LENGTH, beside, busy, encoded, error, games_in_words, in_words, json_answer
from .side_work import Busy, SideWork

_ = COMMANDS.gettext
ngettext = COMMANDS.ngettext

REPLAYS_ENCODED = 8  # past games kept as JSON, ready to send
RECORD_FORMATS = ("moves", "record")
ARCHIVE_CLOSE_WAIT = 2.0  # seconds the server's end waits for the archive to be closed
SPECTATORS_WAITING = 2  # reviews waiting for the worker at most when a spectator's is added
CLIENT_GONE = 499  # the status of an answer nobody reads: its client went away first


class PastGames:
    """The archive's routes; everything but the routes' own checks runs in the side work's thread."""

    def __init__(self, session: PlaySession, games: Path, work: SideWork, access: Access | None = None,
                 limits: Limits | None = None) -> None:
        self.session, self.games, self.work = session, games, work
        self.access = access or Access(None)
        limits = limits or Limits()
        self._replays: OrderedDict[str, tuple[dict, bytes]] = OrderedDict()  # only the worker thread's
        self._kept: dict = {}  # the worker thread's own: the archive, and what was read of damaged journals
        self.reviews = ReviewWorker()  # the one owner of the review worker (its process starts at the first review)
        self.allowance = Allowance(limits.reviews_per_address, limits.review_interval)  # spectators' reviews

    def routes(self, changes: Changes) -> list[BaseRoute]:
        return [
            changes.route("/api/archive/rename-player", "rename-player", self.rename_player),
            changes.route("/api/archive/delete", "delete-game", self.delete_game),
            Route("/api/games", self.game_list),
            Route("/api/games/{name}", self.game_detail),
            Route("/api/games/{name}/record", self.game_record),
            Route("/api/games/{name}/review", self.game_review),
            Route("/api/stats", self.statistics),
            Route("/api/rating", self.rating),
        ]

    async def close(self) -> None:
        """The archive closed in its thread; a refresh still running is not waited for long."""
        self.reviews.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.work.run(("close",), self._close_archive), ARCHIVE_CLOSE_WAIT)

    # --- the routes ----------------------------------------------------------------------------------
    async def game_list(self, request: Request):
        try:
            filters = list_filters(request)
        except ActionError as problem:
            return error(str(problem), problem.status)
        limit, offset = filters.pop("limit", LIST_PAGE), filters.pop("offset", 0)
        live = self.session.snapshot(()).get("journal")  # the game at the board, listed from its start (no words)
        return await beside(self.work, ("list", tuple(sorted(filters.items())), limit, offset, live),
                            self._games_page, filters, limit, offset, live)

    async def statistics(self, request: Request):
        try:
            player = parameters(request, ("player",)).get("player")
            if player is not None:
                player = player_name(player)
        except ActionError as problem:
            return error(str(problem), problem.status)
        return await beside(self.work, ("stats", player), self._stats_json, player)

    async def rating(self, request: Request):
        """GET api/rating?game=GAME[&player=NAME]: the people's rating in GAME from their finished
        games against the computer (a player's, with a name), and the level to try next."""
        try:
            asked = parameters(request, ("game", "player"))
            game = asked.get("game") or ""
            if game not in GAMES:
                raise ActionError(_("no such game: {games}").format(games=games_in_words()), 404)
            player = player_name(asked["player"]) if asked.get("player") else None
        except ActionError as problem:
            return error(str(problem), problem.status)
        return await beside(self.work, ("rating", game, player), self._rating_json, game, player)

    async def game_detail(self, request: Request):
        name = journal_name(request.path_params["name"])
        if len(name) > NAME_LENGTH:
            return error(_('no such game'), 404)
        return await beside(self.work, ("game", name), self._replay_json, name)

    async def game_record(self, request: Request):
        name = journal_name(request.path_params["name"])
        if len(name) > NAME_LENGTH:
            return error(_('no such game'), 404)
        try:
            form = parameters(request, ("format",)).get("format", "moves")
            if form not in RECORD_FORMATS:
                raise ActionError(_('format is {formats}, not {form}').format(
                    formats=in_words(RECORD_FORMATS), form=repr(form[:40])), 400)
            filename, text = await self.work.run(("record", name, form), self._record_text, name, form)
        except Busy:
            return busy()
        except ActionError as problem:
            return error(str(problem), problem.status)
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    async def game_review(self, request: Request):
        """The computer's review of a game: from the index, else worked out in the worker process
        (the side work's thread only reads the journal and keeps the answer) for the owner, or
        for a spectator whose address has some allowance left."""
        name = journal_name(request.path_params["name"])
        if len(name) > NAME_LENGTH:
            return error(_('no such game'), 404)
        try:
            job = await self.work.run(("review", name), self._review_job, name)
            if job.cached is not None:
                return json_answer(encoded(job.cached))
            if not self.access.may_change(request) and not self.reviews.asked(job.digest):
                refused = self._spectators_turn(request)
                if refused is not None:
                    return refused
            worked_out = await _unless_gone(request, self.reviews.review(job))
            if worked_out is None:
                return Response(status_code=CLIENT_GONE)
            data = worked_out[0]
            await self.work.run(("keep-review", job.digest), self._keep_review, job, data)
        except (Busy, ReviewBusy):
            return busy()
        except ReviewUnavailable:  # the worker died again (killed, out of memory), or the board is ending
            return error(_('the review could not be worked out: try again in a moment'), 503, {"Retry-After": "2"})
        except ActionError as problem:
            return error(str(problem), problem.status)
        return json_answer(encoded(data))

    def _spectators_turn(self, request: Request) -> Response | None:
        """None when a spectator may have a review worked out now, else the refusal."""
        if self.reviews.waiting >= SPECTATORS_WAITING:
            return busy()
        wait = self.allowance.take(request.client.host if request.client else "unknown")
        if not wait:
            return None
        minutes = max(1, math.ceil(wait / 60))
        return error(ngettext("this address has had its share of reviews for now: try again in {n} minute",
                              "this address has had its share of reviews for now: try again in {n} minutes",
                              minutes).format(n=minutes), 429, {"Retry-After": str(math.ceil(wait))})

    # --- changes to the archive (they take the token, as changing a game does) -----------------------
    async def rename_player(self, data: dict) -> dict:
        old, new = data["old"], data["new"]

        def change() -> dict:
            with self._asked():
                renamed, failed = self._archive_or_none().rename_player(old, new)
            return {"renamed": renamed, "failed": [unfoldered(problem, self.games) for problem in failed]}
        return await self._in_archive(("rename", old, new), change)

    async def delete_game(self, data: dict) -> dict:
        key = data["id"]
        live = getattr(getattr(self.session.referee, "journal", None), "path", None)
        if live is not None and Path(live).name.removesuffix(".jsonl") == key.removesuffix(".jsonl"):
            raise ActionError(_('this is the game on the board: it cannot be deleted while it is played'), 409)

        def change() -> dict:
            with self._asked():
                game = self._archive_or_none().delete(key)
            return {"deleted": game["id"]}
        return await self._in_archive(("delete", key), change)

    async def _in_archive(self, key: tuple, change: Callable) -> dict:
        try:
            return await self.work.run(key, change)
        except Busy:
            raise ActionError(_('the board is busy: try again in a moment'), 503) from None

    # --- the worker thread's side ----------------------------------------------------------------------
    def _archive(self) -> Archive | None:
        """The archive of the games folder, up to date with its journals; None before the first game."""
        found = self._kept.get("archive")
        if found is None:
            if not self.games.is_dir():  # no game yet: nothing to index, and no folder made for it
                return None
            found = self._kept["archive"] = Archive(self.games)
        found.refresh()
        return found

    def _archive_or_none(self) -> Archive:
        found = self._archive()
        if found is None:
            raise ActionError(_('there are no games yet'), 404)
        return found

    def _close_archive(self) -> None:
        found = self._kept.pop("archive", None)
        if found is not None:
            found.close()

    @contextlib.contextmanager
    def _asked(self):
        """The archive's troubles as answers: busy (another program, `reedboard games`, holds the
        index) or an index damaged meanwhile (opened afresh at the next question: it is rebuilt)."""
        try:
            yield
        except sqlite3.OperationalError:
            raise ActionError(_('the archive is busy: try again in a moment'), 503) from None
        except sqlite3.DatabaseError:
            with contextlib.suppress(sqlite3.Error):
                self._close_archive()
            raise ActionError(_("the archive's index is being rebuilt: try again in a moment"), 503) from None
        except ArchiveError as problem:
            message = unfoldered(str(problem), self.games).replace(str(self.games), "the games folder")
            raise ActionError(message, 400) from None

    def _games_page(self, filters: dict, limit: int, offset: int, live: str | None) -> Response:
        """A page of the games that match. Unfiltered, the list also holds the damaged journals
        (what can be read of them, and why the rest cannot) and the game at the board before its
        first move, each in its place."""
        games = self.games
        with self._asked():
            found = self._archive()
            if found is None:
                return json_answer(encoded([]), headers={"X-Total-Count": "0"})
            total = found.count(**filters)
            if filters:
                page = [listed(row, games) for row in found.games(**filters, limit=limit, offset=offset)]
            else:
                skipped = found.skipped()
                extra = [self._journal_entry(s.path, s) for s in skipped]
                if live is not None and not indexed(found, live) and live not in {s.path.name for s in skipped}:
                    extra.append(self._journal_entry(games / live, None))
                extra = [entry for entry in extra if entry is not None]
                page = sorted([listed(row, games) for row in found.games(limit=offset + limit)] + extra,
                              key=lambda entry: entry["id"], reverse=True)[offset:offset + limit]
                total += len(extra)
        return json_answer(encoded(page), headers={"X-Total-Count": str(total)})

    def _journal_entry(self, path: Path, skipped: Skipped | None) -> dict | None:
        """A journal the index does not list, read once per version of the file; None when gone."""
        try:
            stat = path.stat()
        except OSError:
            return None
        version = (stat.st_size, stat.st_mtime_ns, skipped)
        read = self._kept.setdefault("read", {})
        entry = read.get(path.name)
        if entry is None or entry[0] != version:
            entry = read[path.name] = (version, unindexed(path, skipped))
        if len(read) > 4 * LIST_LIMIT:  # journals repaired or gone: forget them
            read.clear()
        return dict(entry[1])

    def _stats_json(self, player: str | None) -> bytes:
        with self._asked():
            found = self._archive()
            if found is None:
                return encoded({"player": player, "players": [], "games": [], "months": []})
            stats, by_month = found.stats(player), months(found.games(player=player), player)
        return encoded({"player": player, **stats, "months": by_month})

    def _rating_json(self, game: str, player: str | None) -> bytes:
        with self._asked():
            found = self._archive()
            results = found.against_computer(game, player) if found is not None else []
        answer = {"game": game, "player": player, "games": len(results)}
        known = {n for n, *_rest in level_ratings(game)}
        results = [(level, score) for level, score in results if level in known]
        if results:
            rating, low, high = player_rating(game, results)
            answer.update(rating=round(rating), low=round(low), high=round(high),
                          suggested=suggested_level(game, rating))
        return encoded(answer)

    def _replay_json(self, name: str) -> bytes:
        replay = past_game(self.games, name)  # the same dict for as long as the journal is unchanged
        kept = self._replays.get(name)
        if kept is None or kept[0] is not replay:
            kept = self._replays[name] = (replay, encoded({**replay, "note": unfoldered(replay["note"], self.games)}))
        self._replays.move_to_end(name)
        while len(self._replays) > REPLAYS_ENCODED:
            self._replays.popitem(last=False)
        return kept[1]

    def _review_job(self, name: str) -> ReviewJob:
        found = self._archive()
        try:
            if found is None:
                raise ArchiveError(name)
            found.resolve(name)
        except ArchiveError:
            raise ActionError(_('no game {name}').format(name=repr(name.removesuffix(".jsonl"))), 404) from None
        with self._asked():
            return found.review_job(name)

    def _keep_review(self, job: ReviewJob, data: dict) -> None:
        found = self._archive()
        if found is not None:
            with self._asked():
                found.keep_review(job, data)

    def _record_text(self, name: str, form: str) -> tuple[str, str]:
        path = journal_path(self.games, name)
        try:
            if form == "record":  # docs/records.md, as `reedboard games export` writes it
                lines, filename = game_record_lines(record_of(read_journal(path))), f"{path.stem}-record.txt"
            else:  # the moves, as `reedboard export` prints them
                lines, filename = export_lines(path), f"{path.stem}.txt"
        except JournalError as problem:
            raise ActionError(str(problem), 422) from None
        return filename, "\n".join(lines) + "\n"


async def _unless_gone(request: Request, work: Awaitable) -> tuple | None:
    """(work's answer,), or None when the request's client went away first: the work is then
    cancelled (a review nobody else waits for stops)."""
    task = asyncio.ensure_future(work)
    gone = asyncio.ensure_future(_gone(request))
    try:
        done, _pending = await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    except BaseException:  # the server ending
        task.cancel()
        raise
    finally:
        gone.cancel()
    if task in done:
        return (task.result(),)
    task.add_done_callback(lambda ended: ended.cancelled() or ended.exception())
    task.cancel()
    return None


async def _gone(request: Request) -> None:
    """Returns when the client has gone (its connection closed); the request's body, if any, is
    not looked at."""
    while (await request.receive())["type"] != "http.disconnect":
        pass
