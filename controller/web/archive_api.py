"""The past games over HTTP: the archive's list, one game to replay, its record to download,
the statistics, and the owner's changes to the archive (a player renamed, a game deleted).

    GET  /api/games, /api/games/NAME, /api/games/NAME/record, /api/games/NAME/review, /api/stats
    POST /api/archive/rename-player, /api/archive/delete

The archive answers (controller.archive.answers) in the side work's thread (its SQLite
connection belongs to that thread), brought up to date with the journals at each question;
here are the routes, the checks of what a request may ask, and the replies: reading needs no
token, changing does, and what the archive cannot answer gets the status of its kind.

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
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from functools import wraps
from pathlib import Path

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from ..archive.answers import RECORD_FORMATS, ArchiveAnswers
from ..archive.problems import ArchiveBusy, ArchiveError, NoSuchGame, UnreadableGame
from ..archive.queries import LIST_PAGE, LIST_PARAMETERS, journal_name, list_filters, player_name, unfoldered
from ..archive.reviews import ReviewBusy, ReviewJob, ReviewUnavailable, ReviewWorker
from ..games import GAMES
from ..session.actions import ActionError
from ..session.play_session import PlaySession

from .access import Access
from .allowance import Allowance
from .changes import Changes
from ..language.catalogue import COMMANDS, current, speaking
from ..words import said_all
from .limits import Limits
from .replies import NAME_LENGTH, beside, busy, encoded, error, games_in_words, in_words, json_answer
from .side_work import Busy, SideWork

_ = COMMANDS.gettext
ngettext = COMMANDS.ngettext

REPLAYS_ENCODED = 8  # past games kept as JSON, ready to send
ARCHIVE_CLOSE_WAIT = 2.0  # seconds the server's end waits for the archive to be closed
SPECTATORS_WAITING = 2  # reviews waiting for the worker at most when a spectator's is added
CLIENT_GONE = 499  # the status of an answer nobody reads: its client went away first
STATUS = ((ArchiveBusy, 503), (NoSuchGame, 404), (UnreadableGame, 422), (ArchiveError, 400))  # first that fits


def refused(problem: ArchiveError) -> ActionError:
    """What the archive cannot answer, with the HTTP status of its kind."""
    return ActionError(str(problem), next(status for kind, status in STATUS if isinstance(problem, kind)))


def answering(work: Callable) -> Callable:
    """work, run in the side work's thread, with the archive's refusals as ActionErrors."""
    @wraps(work)
    def run(*args):
        try:
            return work(*args)
        except ArchiveError as problem:
            raise refused(problem) from None
    return run


def parameters(request: Request, allowed: tuple[str, ...]) -> dict[str, str]:
    """The query's parameters, each at most once and each one of `allowed` (or the token)."""
    found: dict[str, str] = {}
    for key, value in request.query_params.multi_items():
        if key == "token":
            continue
        if key not in allowed:
            raise ActionError(_('{path} takes {allowed}, not {key}').format(
                path=request.url.path, allowed=', '.join(allowed), key=repr(key[:40])), 400)
        if key in found:
            raise ActionError(_('{key} is given once').format(key=key), 400)
        found[key] = value
    return found


class ArchiveRoutes:
    """The archive's routes; everything but the routes' own checks runs in the side work's thread."""

    def __init__(self, session: PlaySession, games: Path, work: SideWork, access: Access | None = None,
                 limits: Limits | None = None) -> None:
        self.session, self.games, self.work = session, games, work
        self.access = access or Access(None)
        limits = limits or Limits()
        self.answers = ArchiveAnswers(games)  # the worker thread's own
        self._replays: OrderedDict[tuple[str, str], tuple[dict, bytes]] = OrderedDict()  # by name and language; only the worker thread's
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
            await asyncio.wait_for(self.work.run(("close",), self.answers.close), ARCHIVE_CLOSE_WAIT)

    # --- the routes ----------------------------------------------------------------------------------
    async def game_list(self, request: Request):
        try:
            filters = list_filters(parameters(request, LIST_PARAMETERS))
        except ArchiveError as problem:
            return error(str(problem), refused(problem).status)
        except ActionError as problem:
            return error(str(problem), problem.status)
        limit, offset = filters.pop("limit", LIST_PAGE), filters.pop("offset", 0)
        live = self.session.snapshot(()).get("journal")  # the game at the board, listed from its start (no words)
        lang = current()  # the words about a damaged journal, said in the language asked in
        return await beside(self.work, ("list", tuple(sorted(filters.items())), limit, offset, live, lang),
                            self._games_page, filters, limit, offset, live, lang)

    async def statistics(self, request: Request):
        try:
            player = parameters(request, ("player",)).get("player")
            if player is not None:
                player = player_name(player)
        except ArchiveError as problem:
            return error(str(problem), refused(problem).status)
        except ActionError as problem:
            return error(str(problem), problem.status)
        return await beside(self.work, ("stats", player), answering(lambda: encoded(self.answers.stats(player))))

    async def rating(self, request: Request):
        """GET api/rating?game=GAME[&player=NAME]: the people's rating in GAME from their finished
        games against the computer (a player's, with a name), and the level to try next."""
        try:
            asked = parameters(request, ("game", "player"))
            game = asked.get("game") or ""
            if game not in GAMES:
                raise ActionError(_("no such game: {games}").format(games=games_in_words()), 404)
            player = player_name(asked["player"]) if asked.get("player") else None
        except ArchiveError as problem:
            return error(str(problem), refused(problem).status)
        except ActionError as problem:
            return error(str(problem), problem.status)
        return await beside(self.work, ("rating", game, player),
                            answering(lambda: encoded(self.answers.rating(game, player))))

    async def game_detail(self, request: Request):
        name = journal_name(request.path_params["name"])
        if len(name) > NAME_LENGTH:
            return error(_('no such game'), 404)
        return await beside(self.work, ("game", name, current()), answering(self._replay_json), name, current())

    async def game_record(self, request: Request):
        name = journal_name(request.path_params["name"])
        if len(name) > NAME_LENGTH:
            return error(_('no such game'), 404)
        try:
            form = parameters(request, ("format",)).get("format", "moves")
            if form not in RECORD_FORMATS:
                raise ActionError(_('format is {formats}, not {form}').format(
                    formats=in_words(RECORD_FORMATS), form=repr(form[:40])), 400)
            filename, text = await self.work.run(("record", name, form), answering(self.answers.record), name, form)
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
            job: ReviewJob = await self.work.run(("review", name), answering(self.answers.review_job), name)
            if job.cached is not None:
                return json_answer(encoded(job.cached))
            if not self.access.may_change(request) and not self.reviews.asked(job.digest):
                refusal = self._spectators_turn(request)
                if refusal is not None:
                    return refusal
            worked_out = await _unless_gone(request, self.reviews.review(job))
            if worked_out is None:
                return Response(status_code=CLIENT_GONE)
            data = worked_out[0]
            await self.work.run(("keep-review", job.digest), answering(self.answers.keep_review), job, data)
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
        return await self._in_archive(("rename", old, new), self.answers.rename_player, old, new)

    async def delete_game(self, data: dict) -> dict:
        key = data["id"]
        live = getattr(getattr(self.session.referee, "journal", None), "path", None)
        if live is not None and Path(live).name.removesuffix(".jsonl") == key.removesuffix(".jsonl"):
            raise ActionError(_('this is the game on the board: it cannot be deleted while it is played'), 409)
        return await self._in_archive(("delete", key), self.answers.delete, key)

    async def _in_archive(self, key: tuple, change: Callable, *args) -> dict:
        try:
            return await self.work.run(key, answering(change), *args)
        except Busy:
            raise ActionError(_('the board is busy: try again in a moment'), 503) from None

    # --- the worker thread's side ----------------------------------------------------------------------
    def _games_page(self, filters: dict, limit: int, offset: int, live: str | None, lang: str) -> Response:
        try:
            page, total = self.answers.games_page(filters, limit, offset, live)
        except ArchiveError as problem:
            raise refused(problem) from None
        with speaking(lang):
            return json_answer(encoded(said_all(page)), headers={"X-Total-Count": str(total)})

    def _replay_json(self, name: str, lang: str) -> bytes:
        replay = self.answers.replay(name)  # the same dict for as long as the journal is unchanged
        kept = self._replays.get((name, lang))
        if kept is None or kept[0] is not replay:
            with speaking(lang):
                note = said_all(unfoldered(replay["note"], self.games))
            kept = self._replays[(name, lang)] = (replay, encoded({**replay, "note": note}))
        self._replays.move_to_end((name, lang))
        while len(self._replays) > REPLAYS_ENCODED:
            self._replays.popitem(last=False)
        return kept[1]


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
