"""A play session: one game at a time on one board, live, for the web view and `reedboard play`.

The session owns the referee of the game being played and runs it with `live.run` in the
asyncio loop it was started in, on any board backend (an object implementing the hal
interfaces: frames(), show(), and optionally presses(), play() and links()). It publishes a
JSON-ready snapshot of everything the web page shows (the pieces as the controller
believes them, the light frame exactly as the board was told to show it, the die, the turn,
the score, the record, the messages) after every change: the referee's outputs (lights,
die, buzzer) go to the board *and* mark the snapshot dirty, and so does every frame and
press the referee processes. Snapshots are built once per loop turn, and only published
when something in them changed.

On the simulated board (hal.sim.SimBoard) the session also keeps the pieces physically:
which piece stands on which cell, the pieces in the hand (lifted) and the pieces in the box
(off the board: captured, pushed off while the sector was taken, or not yet set up), so a
whole game can be played by clicks, exactly as at the table: the sensors still see only
occupied or not, and the controller still works out the moves from that alone.

Everything here runs in one asyncio loop: the web handlers call the session's methods from
that loop, so nothing fights over the referee's state.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
import traceback
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from types import SimpleNamespace

from hal.board import BoardError, load_board
from hal.interfaces import Button, Cue, DieState, LightFrame, Link, LinkState, Press
from hal.sim import SimBoard

from . import live
from .clock import ClockSettings
from .games import GAMES, BigBalls, Game, OffBoard
from .games.bigballs import DEFAULT_BALLS, START_HOLLOWS, shuffled
from .games.offboard_layout import RIM_POINTS, Layout
from .journal import default_games_dir, discard_if_unplayed, read_journal, rebuild
from .reconcile import Settings
from .past_games import journal_path, past_game, past_games
from .record import header_lines, result_line, starting_position
from .referee import SETUP_MODES, Die, Note, Outputs, Referee
from .signals import PALETTE
from .view import Phase

__all__ = [
    "ActionError", "PlaySession", "ScriptedDie", "journal_path", "past_game", "past_games", "pieces",
    "sector_shapes",
]

NOTES_SHOWN = 12  # the newest notes in a snapshot
CHOSEN_MODES = ("auto", "shuffle", "identify")  # the Big Balls set-up modes a player may choose
KEEP = object()  # new_game(clock=KEEP): the clock setting of the game before
LINK_LOST = {  # what the page says while the board's link is lost, by why
    "unplugged": "the board is unplugged: plug it in again; the game waits",
    "silent": "the board does not answer: check its cable; the game waits",
    "refused": "the board does not fit this controller (its firmware or board file; see the log): the game waits",
}
LINK_BACK = "the board is back"


class ActionError(ValueError):
    """An action the session refuses; `status` is the HTTP status the web view answers with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class ScriptedDie(Die):
    """A die that shows the values given, in order, then random ones (tests and demonstrations)."""

    def __init__(self, values: Iterable[int] = (), rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.values = list(values)

    def roll(self, given: int | None = None) -> int:
        if given is None and self.values:
            given = self.values.pop(0)
        return super().roll(given)


# --- positions as plain data ------------------------------------------------------------------
def pieces(game: Game) -> dict[str, str]:
    """Every cell -> what stands there: B3, W5, ball (Big Balls), R, Y (Off Board), or ""."""
    if isinstance(game, BigBalls):
        found = {cell: "" for cell in game.cells}
        for hollow in game.balls():
            found[hollow] = "ball"
        for player in game.players:
            for hollow, number in game.stones(player).items():
                found[hollow] = f"{player[0].upper()}{number}"
        return found
    if isinstance(game, OffBoard):
        found = {cell: "" for cell in game.cells}
        for player in game.players:
            for hole in game.balls(player):
                found[hole] = player[0].upper()
        for sector in game.sectors:
            holder = game.sector_holder(sector.name)
            if holder:
                found[sector.name] = holder[0].upper()
        return found
    raise TypeError(f"no pieces for {type(game).__name__}")


def sector_shapes(layout: Layout) -> list[dict]:
    """Off Board's sectors for drawing: name, value and the rim points (row, diagonal) they take.

    A rim point is the off-board spot next to the hexagon that a ball pushed over the edge
    reaches; rows and diagonals continue the holes' numbering (row -1 is below row A)."""
    shapes = []
    for index, sector in enumerate(layout.sectors):
        points = sorted(point for point, exits in RIM_POINTS.items()
                        if any(layout.exit_sector.get(e) == index for e in exits))
        shapes.append({"name": sector.name, "value": sector.value, "points": [list(p) for p in points]})
    return shapes


def _position(game: Game) -> dict:
    """The parts of a position a page draws besides the pieces: turn, score, waiting ball."""
    data: dict = {"turn": game.turn}
    if isinstance(game, OffBoard):
        data["score"] = {player: game.score(player) for player in game.players}
        data["waiting"] = game.waiting
    else:
        data["score"] = None
        data["waiting"] = None
    return data


def _outcome(game: Game) -> dict | None:
    outcome = game.outcome()
    if outcome is None:
        return None
    return {"result": outcome.result(game.players), "reason": outcome.termination.value,
            "winner": outcome.winner, "line": result_line(game)}


def _move_cells(game: Game) -> list[str]:
    """The cells the last move on the stack touched (for a replay's last-move marks)."""
    if not game.move_stack:
        return []
    move = game.pop()
    fp = game.footprint(move)
    game.push(move)
    return sorted(fp.empties | fp.fills | fp.captures)


# --- the session ----------------------------------------------------------------------------------
@dataclass
class Held:
    """A piece in the hand on the simulated board, and the cell it was lifted from."""

    piece: str
    origin: str | None  # None: taken from the box


class _Observed:
    """The referee as live.run sees it: every processed frame and press marks the snapshot dirty."""

    def __init__(self, referee: Referee, changed: Callable[[], None]) -> None:
        self._referee = referee
        self._changed = changed

    @property
    def now(self) -> float:
        return self._referee.now

    def next_deadline(self) -> float | None:
        return self._referee.next_deadline()

    def start(self, t: float) -> None:
        self._referee.start(t)
        self._changed()

    def frame(self, t: float, occupied) -> None:
        self._referee.frame(t, occupied)
        self._changed()

    def press(self, t: float, button: str, roll: int | None = None) -> None:
        self._referee.press(t, button, roll)
        self._changed()

    def advance(self, t: float) -> None:
        notes = self._referee.notes_total
        self._referee.advance(t)
        if self._referee.notes_total != notes:
            self._changed()


class _Buttons:
    """The board's buttons (if it has any) and the web page's, as one stream of presses."""

    def __init__(self, backend) -> None:
        self._backend = backend
        self._queues: list[asyncio.Queue] = []

    def push(self, press: Press) -> None:
        for queue in self._queues:
            queue.put_nowait(press)

    async def presses(self) -> AsyncIterator[Press]:
        queue: asyncio.Queue = asyncio.Queue()
        self._queues.append(queue)
        pump = None
        source = getattr(self._backend, "presses", None)
        if source is not None:
            async def forward() -> None:
                async for press in source():
                    await queue.put(press)
            pump = asyncio.create_task(forward())
        try:
            while True:
                yield await queue.get()
        finally:
            self._queues.remove(queue)
            if pump is not None:
                pump.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await pump


def _sim_for(game: Game, clock: Callable[[], float]) -> SimBoard:
    """A simulated board for the game's cells (the default board file when it fits)."""
    try:
        board = load_board(game=game.name)
    except BoardError:
        board = None
    if board is None or tuple(board.cells) != tuple(game.cells):
        board = SimpleNamespace(cells=tuple(game.cells))
    return SimBoard(board, clock=clock)


class PlaySession:
    """One game at a time on one board, refereed live, observable as snapshots.

    game: "bigballs", "offboard", or a Game whose start position is used (every new game
      starts from it again: a Big Balls arrangement, an Off Board custom board).
    backend: the board (hal interfaces); None for a new simulated board. On a SimBoard the
      page's clicks move pieces; on other boards only the buttons and the game actions work.
    setup: Big Balls set-up mode: "auto" (the default: from what is on the board; a simulated
      board starts full, its stones unsorted, and they are identified), "shuffle", "identify",
      or "given" (the arrangement of `game`, or numbers in board order, is taken as placed).
    empty: a simulated board starts empty, with every piece in the box, so that the set-up
      can be tried.
    clock: a game clock for each new game (None: no clock).
    rng: draws the shuffled arrangement (and the die, unless `die` is given).
    die: the referee's die (e.g. ScriptedDie([4, 2]) to force rolls in tests).
    resume: the journal of an unfinished game to go on with (the board is guided back).
    """

    def __init__(
        self,
        game: str | Game = "bigballs",
        *,
        games_dir: str | Path | None = None,
        backend=None,
        settings: Settings | None = None,
        setup: str | None = None,
        empty: bool = False,
        rng: random.Random | None = None,
        die: Die | None = None,
        clock: Callable[[], float] = time.monotonic,
        resume: str | Path | None = None,
        game_clock: ClockSettings | None = None,
    ) -> None:
        if setup is not None and setup not in SETUP_MODES:
            raise ValueError(f"set-up mode must be one of {', '.join(SETUP_MODES)}, not {setup!r}")
        self.games_dir = Path(games_dir) if games_dir is not None else default_games_dir()
        self.settings = settings or Settings()
        self.setup_mode = setup
        self.game_clock = game_clock
        self.empty = empty
        self.rng = rng
        self.die = die
        self.clock = clock
        self.kind, self._start = self._template(game)
        self._resume = Path(resume) if resume is not None else None
        sim_game = None
        if self._resume is not None:
            sim_game = rebuild(read_journal(self._resume)).game
            self.kind = sim_game.name
            # later new games: an Off Board game keeps its board, Big Balls draws anew
            self._start = OffBoard(sim_game.layout) if isinstance(sim_game, OffBoard) else None
        self.backend = backend if backend is not None else _sim_for(sim_game or self._fresh_template(), clock)
        self.referee: Referee | None = None
        self.error: str | None = None
        # the simulated board's pieces
        self.physical: dict[str, str] = {}
        self.hand: list[Held] = []
        self.selected: int | None = None
        self.box: list[str] = []
        # what the board was told to show
        self.lights = LightFrame()
        self.die_state = DieState()
        self.cue: str | None = None
        self.cues = 0
        # publishing
        self.seq = 0
        self._body: dict | None = None
        self._published: dict | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self._flush_pending = False
        self._task: asyncio.Task | None = None
        self._stop: asyncio.Event | None = None
        self._buttons = _Buttons(self.backend)
        self._t0 = 0.0
        # the board's link, for a board that reports one (serial); others are always connected
        self.link: Link | None = None
        self._link_at: float | None = None
        self._link_task: asyncio.Task | None = None

    # --- what is being played ----------------------------------------------------------------
    @staticmethod
    def _template(game: str | Game) -> tuple[str, Game | None]:
        if isinstance(game, str):
            if game not in GAMES:
                raise ValueError(f"unknown game {game!r}: expected {' or '.join(sorted(GAMES))}")
            return game, None
        if isinstance(game, Game):
            return game.name, starting_position(game)
        raise TypeError(f"a game is a name or a Game, not {type(game).__name__}")

    def _fresh_template(self) -> Game:
        if self._start is not None:
            return self._start.copy()
        return GAMES[self.kind]()

    @property
    def sim(self) -> SimBoard | None:
        """The simulated board, when the game is played on one."""
        return self.backend if isinstance(self.backend, SimBoard) else None

    @property
    def game(self) -> Game | None:
        return None if self.referee is None else self.referee.game

    def _fresh_game(self) -> tuple[Game, str, bool]:
        """A new game, its set-up mode, and whether the simulated board starts with it in place."""
        game = self._fresh_template()
        in_place = self.sim is not None and not self.empty
        if not isinstance(game, BigBalls):
            return game, "given", in_place
        mode = self.setup_mode or ("given" if self._start is not None else "auto")
        return game, mode, in_place

    # --- running ------------------------------------------------------------------------------
    async def start(self) -> None:
        """Start refereeing in the running loop (once; the web app's lifespan calls it)."""
        if self._task is not None:
            return
        self._loop = asyncio.get_running_loop()
        self._changed = asyncio.Event()
        self._begin()
        if self._link_task is None and hasattr(self.backend, "links"):
            self._link_task = self._loop.create_task(self._watch_link(self.backend))
        await asyncio.sleep(0)  # live.run starts the referee on its first step

    async def stop(self) -> None:
        """Stop refereeing; the journal is closed (an unfinished game can be resumed)."""
        await self._halt()
        task, self._link_task = self._link_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # --- the board's link -------------------------------------------------------------------------
    async def _watch_link(self, backend) -> None:
        stream = backend.links()
        try:
            async for link in stream:
                self._on_link(link)
        finally:
            await stream.aclose()

    def _on_link(self, link: Link) -> None:
        """A change of the board's link: into the snapshot, and a note when it is lost or back
        (the lights cannot say that the board is gone)."""
        before, self.link, self._link_at = self.link, link, self.clock()
        text = None
        if link.state is LinkState.LOST and (before is None or (before.state, before.why) != (link.state, link.why)):
            text = LINK_LOST.get(link.why, LINK_LOST["unplugged"])
        elif link.state is LinkState.CONNECTED and before is not None and before.state is LinkState.LOST:
            text = LINK_BACK
        if text is not None and self.referee is not None:
            self.referee.notes.append(Note(self._link_at, text, "link", {"state": link.state.value, "why": link.why}))
        self._dirty()

    def _link_snapshot(self) -> dict:
        """The link for the page: state, why it is lost, since when (seconds, as the notes' times)
        and the banner's text ("" while the board is there)."""
        link = self.link
        if link is None:
            return {"state": LinkState.CONNECTED.value, "why": "", "since": None, "text": ""}
        lost = link.state is LinkState.LOST
        return {"state": link.state.value, "why": link.why, "since": round(self._link_at - self._t0, 3),
                "text": LINK_LOST.get(link.why, LINK_LOST["unplugged"]) if lost else ""}

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def _begin(self) -> None:
        t = self.clock()
        self._t0 = t
        self.error = None
        self.lights, self.die_state, self.cue, self.cues = LightFrame(), DieState(), None, 0
        outputs = Outputs(lights=self._on_lights, die=self._on_die, buzzer=self._on_cue)
        if self._resume is not None:
            path, self._resume = self._resume, None
            referee = live.resume_referee(path, t, outputs=outputs, rng=self.rng)
            self._arrange_sim(pieces(referee.game), [])
        else:
            game, mode, in_place = self._fresh_game()
            referee = live.new_referee(game, self.games_dir, settings=self.settings, setup=mode,
                                       outputs=outputs, rng=self.rng, clock=self.game_clock)
            if self.sim is not None:
                if in_place and mode != "given":  # the stones stand as they fell: unsorted
                    self._arrange_sim(_identify_layout(game, self.rng), [])
                elif in_place:
                    self._arrange_sim(pieces(game), [])
                else:
                    self._arrange_sim({}, [p for p in pieces(game).values() if p])
        if self.die is not None:
            referee.die = self.die
        self.referee = referee
        self._stop = asyncio.Event()
        observed = _Observed(referee, self._dirty)
        self._task = asyncio.get_running_loop().create_task(
            live.run(observed, self.backend, self._buttons, clock=self.clock, stop=self._stop))
        self._task.add_done_callback(self._ended)
        self._dirty()

    def _ended(self, task: asyncio.Task) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            self.error = f"the referee stopped: {error}"
            traceback.print_exception(error, file=sys.stderr)
            self._dirty()

    async def _halt(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            if self._stop is not None:
                self._stop.set()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        referee = self.referee
        if referee is not None:
            for part in (referee.journal, referee.recorder):
                close = getattr(part, "close", None)
                if close is not None:
                    with contextlib.suppress(Exception):
                        close()
            # A game given up before its first move leaves no unfinished game to offer.
            path = getattr(referee.journal, "path", None)
            if path is not None:
                with contextlib.suppress(OSError):
                    discard_if_unplayed(path)

    def _arrange_sim(self, placed: dict[str, str], box: list[str]) -> None:
        """Put the simulated board's pieces as given (between games: nobody is listening)."""
        sim = self.sim
        if sim is None:
            return
        for cell in sorted(sim.occupied):
            sim.lift(cell)
        self.physical = {}
        for cell, piece in placed.items():
            if piece:
                sim.place(cell)
                self.physical[cell] = piece
        self.hand, self.selected, self.box = [], None, list(box)
        sim.lights, sim.die = LightFrame(), DieState()

    # --- the board's outputs ---------------------------------------------------------------------
    def _on_lights(self, frame: LightFrame) -> None:
        self.lights = frame
        self.backend.show(frame)
        self._dirty()

    def _on_die(self, state: DieState) -> None:
        self.die_state = state
        self.backend.show(state)
        self._dirty()

    def _on_cue(self, cue: Cue) -> None:
        self.cue, self.cues = cue.value, self.cues + 1
        play = getattr(self.backend, "play", None)
        if play is not None:
            play(cue)
        self._dirty()

    # --- the page's actions ------------------------------------------------------------------------
    def _require_sim(self) -> SimBoard:
        if self.sim is None:
            raise ActionError("this is a real board: move the pieces on the board", 409)
        return self.sim

    def _cell(self, cell: object) -> str:
        if not isinstance(cell, str):
            raise ActionError(f"a cell is named by a string, not {cell!r}", 400)
        cells = self.sim.cells if self.sim is not None else self.game.cells
        for name in cells:
            if name.lower() == cell.strip().lower():
                return name
        raise ActionError(f"no cell {cell!r} on this board", 404)

    def click(self, cell: str) -> dict:
        """Simulated board: lift the piece on `cell`, or put the piece in hand there."""
        sim = self._require_sim()
        cell = self._cell(cell)
        if cell in sim.occupied:
            piece = self.physical.pop(cell, "?")
            self.hand.append(Held(piece, cell))
            sim.lift(cell)
        else:
            index = self._piece_for(cell)
            held = self.hand.pop(index)
            self.selected = None
            sim.place(cell)
            self.physical[cell] = held.piece
        return self.publish()

    def _piece_for(self, cell: str) -> int:
        """The hand's piece to put on `cell`: the one chosen, else the first one lifted.

        With an empty hand in the set-up, the piece the controller expects there comes from
        the box by itself."""
        if self.hand:
            if self.selected is not None and self.selected < len(self.hand):
                return self.selected
            return 0
        wanted = self._expected_piece(cell)
        if wanted and wanted in self.box:
            self.box.remove(wanted)
            self.hand.append(Held(wanted, None))
            return 0
        raise ActionError(f"{cell} is empty and nothing is in the hand: lift a piece first, "
                          "or take one from the box", 409)

    def _expected_piece(self, cell: str) -> str | None:
        referee = self.referee
        if referee is None or referee.phase is not Phase.SETUP:
            return None
        expected = pieces(referee.game).get(cell, "")
        if not expected:
            return None
        view = referee.view()
        return expected if cell in view.fill | view.place else None

    def select(self, index: object) -> dict:
        """Simulated board: choose the piece in hand that the next click on an empty cell puts down."""
        self._require_sim()
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.hand):
            raise ActionError(f"no piece {index!r} in the hand", 400)
        self.selected = index
        return self.publish()

    def aside(self, index: object = None) -> dict:
        """Simulated board: put a piece from the hand into the box (a captured piece, say)."""
        self._require_sim()
        if not self.hand:
            raise ActionError("nothing in the hand to put aside", 409)
        if index is None:
            index = self.selected if self.selected is not None else len(self.hand) - 1
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.hand):
            raise ActionError(f"no piece {index!r} in the hand", 400)
        self.box.append(self.hand.pop(index).piece)
        self.selected = None
        return self.publish()

    def take(self, index: object) -> dict:
        """Simulated board: take a piece from the box into the hand."""
        self._require_sim()
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self.box):
            raise ActionError(f"no piece {index!r} in the box", 400)
        self.hand.append(Held(self.box.pop(index), None))
        self.selected = len(self.hand) - 1
        return self.publish()

    def press(self, button: str) -> None:
        """The die or the ok button, as if pressed on the board."""
        if button not in ("die", "ok"):
            raise ActionError(f"no button {button!r}: die or ok", 400)
        if not self.running:
            raise ActionError("no game is running", 409)
        self._buttons.push(Press(self.clock(), Button(button)))

    def _now(self) -> float:
        return max(self.clock(), self.referee.now)

    def resign(self, player: str) -> dict:
        game = self._playing()
        if player not in game.players:
            raise ActionError(f"no player {player!r}: {' or '.join(game.players)}", 400)
        self.referee.resign(self._now(), player)
        return self.publish()

    def draw(self) -> dict:
        self._playing()
        self.referee.agree_draw(self._now())
        return self.publish()

    def _playing(self) -> Game:
        referee = self.referee
        if referee is None:
            raise ActionError("no game is running", 409)
        if referee.phase is Phase.OVER:
            raise ActionError("the game is over", 409)
        if referee.phase in (Phase.SETUP, Phase.IDENTIFY):
            raise ActionError("the set-up is not finished", 409)
        return referee.game

    async def new_game(self, game: str | None = None, *, empty: bool | None = None,
                       settings: Settings | None = None, setup: str | None = None, clock=KEEP) -> dict:
        """Start a new game (the one playing stays in the journal, resumable if unfinished).

        `game` switches between Big Balls and Off Board (simulated board only); `empty`
        starts the simulated board empty; `settings` apply from this game on; `setup` is the
        Big Balls set-up mode (auto, shuffle, identify); `clock` a ClockSettings, or None for
        no clock (left out: as before)."""
        if game is not None and game not in GAMES:
            raise ActionError(f"no game {game!r}: {' or '.join(sorted(GAMES))}", 400)
        if setup is not None and setup not in CHOSEN_MODES:
            raise ActionError(f"set-up mode is one of {', '.join(CHOSEN_MODES)}, not {setup!r}", 400)
        if clock is not KEEP and clock is not None and not isinstance(clock, ClockSettings):
            raise ActionError("the clock is minutes and an increment, or none", 400)
        switching = game is not None and game != self.kind
        if switching and self.sim is None:
            raise ActionError(f"this board is a {self.kind} board", 409)
        await self._halt()
        if switching:
            self.kind, self._start = game, None
            self.backend = _sim_for(self._fresh_template(), self.clock)
            self._buttons = _Buttons(self.backend)
        if empty is not None:
            self.empty = bool(empty)
        if settings is not None:
            self.settings = settings
        if setup is not None:
            self.setup_mode = setup
        if clock is not KEEP:
            self.game_clock = clock
        self._resume = None
        self._body = None
        self._begin()
        await asyncio.sleep(0)  # live.run starts the referee on its first step
        return self.publish()

    # --- snapshots -------------------------------------------------------------------------------------
    def _dirty(self) -> None:
        if self._flush_pending or self._loop is None:
            return
        self._flush_pending = True
        self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_pending = False
        self.publish()

    def publish(self) -> dict:
        """Build the snapshot now; publish it (to `updates`) if anything changed. Returns it."""
        body = self._build()
        if body != self._body or self._published is None:
            self._body = body
            self.seq += 1
            self._published = {**body, "seq": self.seq}
            if self._changed is not None:
                event, self._changed = self._changed, asyncio.Event()
                event.set()
        return self._published

    def snapshot(self) -> dict:
        """The latest snapshot (built now if there is none yet)."""
        return self._published if self._published is not None and not self._flush_pending else self.publish()

    async def updates(self) -> AsyncIterator[dict]:
        """Every published snapshot from now on, starting with the current one.

        A slow reader skips to the newest: snapshots are whole, never differences."""
        seen = None
        while True:
            if self._published is None or self._flush_pending:
                self.publish()
            if self.seq != seen:
                seen = self.seq
                yield self._published
                continue
            await self._changed.wait()

    def _build(self) -> dict:
        referee = self.referee
        if referee is None:
            return {"game": self.kind, "phase": "starting", "sim": self.sim is not None, "prompt": {"kind": "starting"},
                    "link": self._link_snapshot()}
        game = referee.game
        view = referee.view()
        believed, expected = self._beliefs(referee, view)
        frame = self.lights
        cells = {}
        for cell in game.cells:
            light = frame.cells.get(cell)
            entry = {"piece": believed.get(cell, ""), "light": light.colour if light else "",
                     "blink": bool(light and light.blink)}
            if cell in expected:
                entry["expect"] = expected[cell]
            if self.sim is not None:
                entry["sim"] = self.physical.get(cell, "") if cell in self.sim.occupied else ""
            cells[cell] = entry
        over = referee.phase is Phase.OVER
        snapshot = {
            "game": game.name,
            "phase": referee.phase.value,
            "turn": game.turn,
            "players": list(game.players),
            "cells": cells,
            "order": list(game.cells),
            "sectors": sector_shapes(game.layout) if isinstance(game, OffBoard) else [],
            "die": {"face": self.die_state.face.value, "value": self.die_state.value, "pips": frame.die_pips},
            "turn_light": frame.turn,
            "roll": referee.roll,
            **_position(game),
            "header": header_lines(game),
            "record": [game.format_move(m) for m in game.move_stack],
            "outcome": _outcome(game) if over else None,
            "message": view.message,
            "prompt": {"kind": view.prompt.kind, **view.prompt.data} if view.prompt else {"kind": "starting"},
            "choices": [str(m) for m in referee.reconciler.choosing],
            "notes": self._notes(referee),
            "clock": referee.clock_state(self._now()),
            "setup_mode": referee.setup_mode,
            "setup_modes": list(CHOSEN_MODES) if isinstance(game, BigBalls) else [],
            "cue": {"name": self.cue, "n": self.cues},
            "journal": referee.journal.path.name if getattr(referee.journal, "path", None) else None,
            "settings": asdict(self.settings),
            "sim": self.sim is not None,
            "running": self.running,
            "error": self.error,
            "palette": {name: "#%02x%02x%02x" % rgb for name, rgb in PALETTE.items()},
            "link": self._link_snapshot(),
        }
        if self.sim is not None:
            snapshot["hand"] = [{"piece": h.piece, "from": h.origin} for h in self.hand]
            snapshot["selected"] = self.selected
            snapshot["box"] = list(self.box)
        return snapshot

    def _notes(self, referee: Referee) -> list[dict]:
        """The newest notes first, each with its number in the game (n), kind and data."""
        first = max(0, referee.notes_total - NOTES_SHOWN)
        return [{"t": round(n.t - self._t0, 3), "text": n.text, "kind": n.kind, "n": first + i + 1, "data": n.data}
                for i, n in enumerate(list(referee.notes)[-NOTES_SHOWN:])][::-1]

    def _beliefs(self, referee: Referee, view) -> tuple[dict[str, str], dict[str, str]]:
        """What the controller believes stands on each cell, and (set-up) what it still expects."""
        believed = pieces(referee.game)
        if not referee.stones_known:  # numbers not yet identified are not made up
            believed = {c: (p[0] + "?" if p[:1] in ("B", "W") and p[1:].isdigit() else p) for c, p in believed.items()}
        expected: dict[str, str] = {}
        if referee.phase is Phase.SETUP:
            stable = referee.reconciler.stable
            expected = {c: p for c, p in believed.items() if p and c not in stable}
            believed = {c: (p if c in stable else "") for c, p in believed.items()}
        elif referee.phase is Phase.IDENTIFY:
            known = referee.identified
            for colour, hollows in START_HOLLOWS.items():
                for hollow in hollows:
                    number = known.get(colour, {}).get(hollow)
                    believed[hollow] = f"{colour[0].upper()}{number if number else '?'}"
        return believed, expected


def _identify_layout(game: BigBalls, rng: random.Random | None) -> dict[str, str]:
    """Identify set-up on the simulated board: the stones put in their hollows unsorted."""
    drawn = shuffled(rng, first=game.first)
    placed = {hollow: "ball" for hollow in DEFAULT_BALLS}
    placed.update({c: p for c, p in pieces(drawn).items() if p and p != "ball"})
    return placed
