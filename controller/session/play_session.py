"""A play session: one game at a time on one board, live, for the web view and `reedboard play`.

The session owns the referee of the game being played and runs it with `live.run` in the
asyncio loop it was started in, on any board backend (an object implementing the hal
interfaces: frames(), show(), and optionally presses(), play() and links()). The referee's
outputs (lights, die, buzzer) go to the board, and its change hook (Outputs.changed) marks the
snapshot dirty (controller.session.snapshot publishes it): nothing is rebuilt for a frame that changed
nothing. On a board moved by hand (a backend that can, hal.registry.HANDS: the simulated board)
the pieces are kept by a HandTable (controller.session.hand_table), so a whole game can be
played by clicks.

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
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from pathlib import Path

from reedboard.hal.interfaces import Button, Cue, DieState, LightFrame, Link, LinkState, Press
from reedboard.hal import registry

from . import live
from .actions import ActionError
from ..core.clock import ClockSettings
from ..core.computer import Computer, Question, check_level
from ..games import GAMES, Game, names_in_words, top_level
from ..games.base import colour_words
from .. import words
from ..words import notes as note_words
from ..language.catalogue import LANGUAGES, PLAY
from ..games.setup import start_table
from ..persist.game_files import default_games_dir
from ..persist.journal_replay import rebuild
from ..persist.journal_reader import read_journal
from ..persist.games_folder import discard_if_unplayed
from ..core.reconcile import Settings
from ..persist.notation import starting_position
from ..core.referee import SETUP_MODES, Die, Outputs, Referee
from .hand_table import HandTable, board_by_hand_for
from .snapshot import Geometry, Publisher, notes_data, said, session_snapshot
from ..core.view import Phase

KEEP = object()  # new_game(clock=KEEP): the clock setting of the game before

_ = PLAY.gettext


def either_colour(players) -> str:
    """`black or white`, in the language in use."""
    first, last = (words.said(colour_words(p)) for p in players)
    return _("{first} or {last}").format(first=first, last=last)


class ScriptedDie(Die):
    """A die that shows the values given, in order, then random ones (tests and demonstrations)."""

    def __init__(self, values: Iterable[int] = (), rng: random.Random | None = None) -> None:
        super().__init__(rng or random.SystemRandom())
        self.values = list(values)

    def roll(self, given: int | None = None) -> int:
        if given is None and self.values:
            given = self.values.pop(0)
        return super().roll(given)


class Buttons:
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


class PlaySession:
    """One game at a time on one board, refereed live, observable as snapshots.

    game: a registered game's name (default: the first registered), or a Game whose start
      position is used (every new game starts from it again: a given arrangement, a custom
      board or layout).
    backend: the board (hal interfaces); None for a new board moved by hand. On one of those the
      page's clicks move pieces; on other boards only the buttons and the game actions work.
    setup: the set-up mode, one of the game's `setup_modes` (default: the game's first, or
      "given" when a start position is given); on a simulated board that is not empty, the
      guide says what stands on it first (e.g. stones unsorted, to be identified).
    empty: a simulated board starts empty, with every piece in the box, so that the set-up
      can be tried.
    clock: the time source; game_clock: a game clock for each new game (None: no clock).
    rng: draws what a set-up draws (and the die, unless `die` is given).
    die: the referee's die (e.g. ScriptedDie([4, 2]) to force rolls in tests).
    resume: the journal of an unfinished game to go on with (the board is guided back).
    players: the players' names by colour, for the journal (kept for the next games).
    computer: the side the computer plays and its level (None: people on both sides); it
      thinks with `thinker` (controller.opponent.worker.Thinker; one is made when needed).

    `journal_lines` is a list of callables told (journal path, line number, entry) of every
    journal line once it is on disk, the header first (a broadcast follows the game by it).
    `page_language`: the language the board's page starts in ([page] language; None: the browser's).
    """

    page_language: str | None = None

    def __init__(
        self,
        game: str | Game | None = None,
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
        players: Mapping[str, str] | None = None,
        computer: Computer | None = None,
        thinker=None,
    ) -> None:
        if setup is not None and setup not in SETUP_MODES:
            raise ValueError(f"set-up mode must be one of {', '.join(SETUP_MODES)}, not {setup!r}")
        self.games_dir = Path(games_dir) if games_dir is not None else default_games_dir()
        self.settings = settings or Settings()
        # called as settings_changed(before, after) when a new game changes the settings (the
        # web view's), e.g. to write them back to the configuration file
        self.settings_changed: Callable[[Settings, Settings], None] | None = None
        self.setup_mode = setup
        self.game_clock = game_clock
        self.players = dict(players or {})
        # a tournament's game at this table ({"event", "round", "table", "players"}): its games
        # while the players are the pairing's carry its round and board number in their header
        self.pairing: dict | None = None
        self.occasion: dict | None = None  # the game playing's tournament, round and board number (its header's)
        self.computer = computer
        self._thinker = thinker
        self._question: Question | None = None  # the one being searched
        self._wake = asyncio.Event()  # the referee's deadlines changed from outside its loop
        self.journal_lines: list[Callable[[Path, int, dict], None]] = []
        self.empty = empty
        self.rng = rng
        self.die = die
        self.clock = clock
        self.kind, self._start = self._template(game)
        self._resume = Path(resume) if resume is not None else None
        resumed = None
        if self._resume is not None:
            resumed = rebuild(read_journal(self._resume)).game
            self.kind = resumed.name
            self._start = resumed.next_start()  # later new games: what the game says comes next
        self.backend = backend if backend is not None else board_by_hand_for(resumed or self._fresh_template(), clock)
        self.table: HandTable | None = None
        self._new_table()
        self.referee: Referee | None = None
        self.error: str | None = None
        # what the board was told to show
        self.lights = LightFrame()
        self.die_state = DieState()
        self.cue: str | None = None
        self.cues = 0
        self._publisher = Publisher(self._build, lambda snapshot, lang: said(self, snapshot, lang))
        self._geometry = Geometry()
        self._task: asyncio.Task | None = None
        self._stop: asyncio.Event | None = None
        self._buttons = Buttons(self.backend)
        self._t0 = 0.0  # the clock at the game's start: notes' times count from it
        # the board's link, for a board that reports one (serial); others are always connected
        self.link: Link | None = None
        self._link_at: float | None = None
        self._link_task: asyncio.Task | None = None
        self._named: tuple[Referee | None, int] = (None, 0)  # the referee and its notes read for stones named

    # --- what is being played ----------------------------------------------------------------
    @staticmethod
    def _template(game: str | Game | None) -> tuple[str, Game | None]:
        if game is None:
            return next(iter(GAMES)), None
        if isinstance(game, str):
            if game not in GAMES:
                raise ValueError(f"unknown game {game!r}: expected {names_in_words()}")
            return game, None
        if isinstance(game, Game):
            return game.name, starting_position(game)
        raise TypeError(f"a game is a name or a Game, not {type(game).__name__}")

    def _fresh_template(self) -> Game:
        if self._start is not None:
            return self._start.copy()
        return GAMES[self.kind].from_options()

    def _new_table(self) -> None:
        board = self.backend if registry.device_can(self.backend, registry.HANDS) else None
        self.table = None if board is None else HandTable(board, self._expected_piece)

    @property
    def sim(self):
        """The board moved by hand (by the page's clicks), when the game is played on one."""
        return None if self.table is None else self.table.board

    @property
    def game(self) -> Game | None:
        return None if self.referee is None else self.referee.game

    def _fresh_game(self) -> tuple[Game, str]:
        """A new game and its set-up mode."""
        game = self._fresh_template()
        modes = game.setup_modes
        if self._start is not None and self.setup_mode is None:
            return game, "given"  # a start given: taken as placed
        mode = self.setup_mode or modes[0]
        return game, (mode if mode in modes else "given")

    # --- running ------------------------------------------------------------------------------
    async def start(self) -> None:
        """Start refereeing in the running loop (once; the web app's lifespan calls it)."""
        if self._task is not None:
            return
        self._publisher.attach(asyncio.get_running_loop())
        self._begin()
        if self._link_task is None and hasattr(self.backend, "links"):
            self._link_task = asyncio.get_running_loop().create_task(self._watch_link(self.backend))
        await asyncio.sleep(0)  # live.run starts the referee on its first step

    async def stop(self) -> None:
        """Stop refereeing; the journal is closed (an unfinished game can be resumed)."""
        await self._halt()
        if self._thinker is not None:
            self._thinker.close()
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
        lost = link.state is LinkState.LOST and (before is None or (before.state, before.why) != (link.state, link.why))
        back = link.state is LinkState.CONNECTED and before is not None and before.state is LinkState.LOST
        if (lost or back) and self.referee is not None:
            self.referee.note(self._link_at, "link", state=link.state.value, why=link.why)
        self._dirty()

    def link_data(self) -> dict:
        """The link for the page: state, why it is lost, since when (seconds, as the notes' times)
        and the banner's text ("" while the board is there)."""
        link = self.link
        if link is None:
            return {"state": LinkState.CONNECTED.value, "why": "", "since": None, "text": ""}
        lost = link.state is LinkState.LOST
        return {"state": link.state.value, "why": link.why, "since": round(self._link_at - self.t0, 3),
                "text": note_words.link({"state": link.state.value, "why": link.why}) if lost else ""}

    @property
    def t0(self) -> float:
        """The clock at the game's start: the notes' times count from it."""
        return self._t0

    def _notes(self, referee: Referee) -> list[dict]:
        return notes_data(referee, self._t0)

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def _begin(self) -> None:
        t = self.clock()
        self._t0 = t
        self.error = None
        self.lights, self.die_state, self.cue, self.cues = LightFrame(), DieState(), None, 0
        outputs = Outputs(lights=self._on_lights, die=self._on_die, buzzer=self._on_cue, changed=self._dirty)
        if self._resume is not None:
            path, self._resume = self._resume, None
            referee = live.resume_referee(path, t, outputs=outputs, rng=self.rng, written=self._journal_line,
                                          die=self.die)
            self.computer = referee.computer
            header = read_journal(path).header
            self.occasion = {key: header[key] for key in ("event", "round", "table") if key in header} or None
            if self.table is not None:
                self.table.arrange(referee.game.pieces(), [])
        else:
            game, mode = self._fresh_game()
            self.occasion = self.occasion_of(game)
            referee = live.new_referee(game, self.games_dir, settings=self.settings, setup=mode,
                                       outputs=outputs, rng=self.rng, clock=self.game_clock,
                                       players=self._players_of(game), written=self._journal_line,
                                       computer=self._computer_for(game), occasion=self.occasion, die=self.die)
            if self.table is not None:
                if self.empty:
                    self.table.arrange({}, [p for p in game.pieces().values() if p])
                else:  # what stands on the table at the start of this mode (stones unsorted, say)
                    self.table.arrange(start_table(game, referee.setup_guide, self.rng), [])
        self.referee = referee
        self._stop = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(
            live.run(referee, self.backend, self._buttons, clock=self.clock, stop=self._stop, wake=self._wake))
        self._task.add_done_callback(self._ended)
        self._dirty()

    def _computer_for(self, game: Game) -> Computer | None:
        computer = self.computer
        if computer is None:
            return None
        if computer.plays not in game.players or computer.level > top_level(game.name):
            # another game's colours: the same seat; above its strongest level: its strongest
            plays = computer.plays if computer.plays in game.players else game.players[-1]
            computer = Computer(plays, min(computer.level, top_level(game.name)))
        self.thinker.warm_up()
        return computer

    @property
    def thinker(self):
        if self._thinker is None:
            from ..opponent.worker import Thinker
            self._thinker = Thinker()
        return self._thinker

    # --- the computer -----------------------------------------------------------------------
    def _consider(self) -> None:
        """Have the search answer what the referee asks now (the newest question wins)."""
        referee = self.referee
        question = referee.question() if referee is not None and self.running else None
        current = self._question
        if question is None or (current is not None and (current.key, current.hint) == (question.key, question.hint)):
            return
        if current is not None:
            self.thinker.cancel()
        self._question = question
        asyncio.get_running_loop().create_task(self._think(referee, question))

    async def _think(self, referee: Referee, question: Question) -> None:
        try:
            move = await self.thinker.decide(question)
        except Exception as error:  # the search failed: said once, the game goes on by hand
            if self._question is question:
                self._question = None
            referee.note(self.now(), "computer_failed", error=(words.said(error).splitlines() or [""])[0])
            return
        if self._question is question:
            self._question = None
        if referee is self.referee and self.running:
            referee.answer(self.now(), question, move)
            self._wake.set()  # a roll's animation: a deadline the board's loop must wait for
        self._dirty()

    @property
    def thinking(self) -> bool:
        """The computer is searching for its own move (not a hint)."""
        return self._question is not None and not self._question.hint

    def hint(self) -> dict:
        """Light the best move for the player to move, without playing it (journaled)."""
        game = self._playing()
        if self.referee.computer_to_move():
            raise ActionError(_("no hint now: it is the computer's turn"), 409)
        if not self.referee.can_hint():
            raise ActionError(_("no hint now: {colour} cannot move yet").format(colour=words.said(colour_words(game.turn))), 409)
        self.referee.ask_hint(self.now())
        self._consider()
        return self.publish()

    def _players_of(self, game: Game) -> dict[str, str]:
        return {colour: name for colour, name in self.players.items() if colour in game.players}

    def occasion_of(self, game: Game) -> dict | None:
        """The tournament's game this one is ({"event", "round", "table"}): while the pairing's
        players sit at the table, colour by colour, and no computer plays; else None."""
        pairing = self.pairing
        if not pairing or self.computer is not None or self._players_of(game) != pairing.get("players"):
            return None
        return {key: pairing[key] for key in ("event", "round", "table") if pairing.get(key) is not None}

    def _journal_line(self, path: Path, number: int, entry: dict) -> None:
        for listener in list(self.journal_lines):
            try:
                listener(path, number, entry)
            except Exception:  # a listener's fault never stops the game
                traceback.print_exc(file=sys.stderr)

    def _ended(self, task: asyncio.Task) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            self.error = _("the referee stopped: {error}").format(error=words.said(error))
            traceback.print_exception(error, file=sys.stderr)
            self._dirty()

    async def _halt(self) -> None:
        if self._question is not None:
            self._question = None
            self.thinker.cancel()
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
    def _require_table(self) -> HandTable:
        if self.table is None:
            raise ActionError(_("this is a real board: move the pieces on the board"), 409)
        return self.table

    def _expected_piece(self, cell: str) -> str | None:
        """The piece the set-up still wants on `cell` (it comes from the box by itself)."""
        referee = self.referee
        if referee is None or referee.phase is not Phase.SETUP:
            return None
        state = referee.state()
        wanted = state.expected.get(cell)
        return wanted if wanted and cell in state.view.fill | state.view.place else None

    def click(self, cell: str) -> dict:
        """Simulated board: lift the piece on `cell`, or put the piece in hand there."""
        self._require_table().click(cell)
        return self.publish()

    def select(self, index: object) -> dict:
        """Simulated board: choose the piece in hand that the next click on an empty cell puts down."""
        self._require_table().select(index)
        return self.publish()

    def aside(self, index: object = None) -> dict:
        """Simulated board: put a piece from the hand into the box (a captured piece, say)."""
        self._require_table().aside(index)
        return self.publish()

    def take(self, index: object) -> dict:
        """Simulated board: take a piece from the box into the hand."""
        self._require_table().take(index)
        return self.publish()

    def press(self, button: str) -> None:
        """The die or the ok button, as if pressed on the board."""
        if button not in ("die", "ok"):
            raise ActionError(_("no button {button}: die or ok").format(button=repr(button)), 400)
        if not self.running:
            raise ActionError(_("no game is running"), 409)
        self._buttons.push(Press(self.clock(), Button(button)))

    def now(self) -> float:
        """The referee's time now (never before what it has been told)."""
        return max(self.clock(), self.referee.now) if self.referee is not None else self.clock()

    def resign(self, player: str) -> dict:
        game = self._playing()
        if player not in game.players:
            raise ActionError(_("no player {player}: {players}").format(
                player=repr(player), players=either_colour(game.players)), 400)
        t = self.now()
        self.referee.resign(t, player)
        self._trace_end(t, "resign", player)
        return self.publish()

    def draw(self) -> dict:
        self._playing()
        t = self.now()
        self.referee.agree_draw(t)
        self._trace_end(t, "draw")
        return self.publish()

    def _trace_end(self, t: float, end: str, player: str | None = None) -> None:
        """The game's end on its trace too, so that a replay of the trace ends it the same way."""
        recorder = getattr(self.referee, "recorder", None)
        if recorder is not None:
            recorder.end(t, end, player)

    def _playing(self) -> Game:
        referee = self.referee
        if referee is None:
            raise ActionError(_("no game is running"), 409)
        if referee.phase is Phase.OVER:
            raise ActionError(_("the game is over"), 409)
        if referee.phase in (Phase.SETUP, Phase.IDENTIFY):
            raise ActionError(_("the set-up is not finished"), 409)
        return referee.game

    async def new_game(self, game: str | Game | None = None, *, empty: bool | None = None,
                       settings: Settings | None = None, setup: str | None = None, clock=KEEP,
                       options: Mapping[str, object] | None = None, computer=KEEP,
                       players: Mapping[str, str] | None = None) -> dict:
        """Start a new game (the one playing stays in the journal, resumable if unfinished).

        `game` switches to another registered game (simulated board only), by name, or as a
        Game to start from; `options` are start options (`GAMES[name].from_options(**options)`);
        `empty` starts the simulated board empty; `settings` apply from this game on; `setup`
        is the set-up mode (one the game offers); `clock` a ClockSettings, or None for no clock
        (left out: as before); `computer` a Computer, or None for people on both sides (left
        out: as before); `players` the players' names by colour (left out: as before).
        Otherwise the table's next game is what the game before says (`next_start`: the same
        board or layout)."""
        start = None
        if isinstance(game, Game):
            start, game = starting_position(game), game.name
        if game is not None and game not in GAMES:
            raise ActionError(_("no game {game}: {games}").format(game=repr(game), games=names_in_words()), 400)
        name = game or self.kind
        if options:
            if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
                raise ActionError(_("options are an object of option names and words"), 400)
            try:
                start = GAMES[name].from_options(**options)
            except (TypeError, ValueError) as error:
                problem = words.said(error)
                raise ActionError(problem.splitlines()[0] if problem else _("bad start options"), 400) from None
        chosen = [mode for mode in GAMES[name].setup_modes if mode != "given"]
        if setup is not None and setup not in chosen:
            if chosen:
                raise ActionError(_("set-up mode is one of {modes}, not {setup}").format(
                    modes=", ".join(chosen), setup=repr(setup)), 400)
            raise ActionError(_("set-up mode is one of none (the lights show the start position), not {setup}").format(
                setup=repr(setup)), 400)
        if clock is not KEEP and clock is not None and not isinstance(clock, ClockSettings):
            raise ActionError(_("the clock is minutes and an increment, or none"), 400)
        if computer is not KEEP and computer is not None:
            if not isinstance(computer, Computer):
                raise ActionError(_("the computer is a side and a level, or none"), 400)
            if computer.plays not in GAMES[name].players:
                raise ActionError(_("the computer plays {players} in {game}").format(
                    players=either_colour(GAMES[name].players), game=GAMES[name].title), 400)
            try:  # a game's levels end where its ladder does
                check_level(computer.level, name)
            except ValueError as error:
                raise ActionError(words.said(error), 400) from None
        switching = name != self.kind
        if switching and self.sim is None:
            raise ActionError(_("this board is a {game} board").format(game=GAMES[self.kind].title
                                                                      if self.kind in GAMES else self.kind), 409)
        await self._halt()
        if start is not None:
            self._start = start
        elif switching:
            self._start = None  # the new kind's defaults
        self.kind = name
        if switching:
            self.backend = board_by_hand_for(self._fresh_template(), self.clock)
            self._new_table()
            self._buttons = Buttons(self.backend)
        if empty is not None:
            self.empty = bool(empty)
        if settings is not None:
            before, self.settings = self.settings, settings
            if settings != before and self.settings_changed is not None:
                self.settings_changed(before, settings)
        if setup is not None:
            self.setup_mode = setup
        if clock is not KEEP:
            self.game_clock = clock
        if computer is not KEEP:
            self.computer = computer
        if players is not None:
            self.players = dict(players)
        self._resume = None
        self._publisher.forget()
        self._begin()
        await asyncio.sleep(0)  # live.run starts the referee on its first step
        return self.publish()

    # --- snapshots -------------------------------------------------------------------------------------
    def _dirty(self) -> None:
        self._publisher.dirty()
        if self.referee is not None and (self.computer is not None or self.referee.question_pending):
            self._consider()

    def _build(self) -> dict:
        self._name_stones()
        return session_snapshot(self, self._geometry)

    def _name_stones(self) -> None:
        """A table moved by hand follows the stones the players identified (HandTable.name)."""
        referee, table = self.referee, self.table
        if referee is None or table is None:
            return
        read = self._named[1] if self._named[0] is referee else 0
        total, self._named = referee.notes_total, (referee, referee.notes_total)
        if total == read:
            return
        notes = list(referee.notes)[-(total - read):]
        named = [n.data.get("cell") for n in notes if n.kind == "identified"]
        if named:
            pieces = referee.state().pieces
            for cell in named:
                table.name(cell, pieces.get(cell, ""))

    @property
    def seq(self) -> int:
        return self._publisher.seq

    def publish(self) -> dict:
        """Build the snapshot now; publish it (to `updates`) if anything changed. Returns it,
        without its words."""
        return self._publisher.publish()

    def snapshot(self, languages: tuple[str, ...] = LANGUAGES) -> dict:
        """The latest snapshot (built now if there is none yet), its words in `languages` (every
        language unless told) and the games' catalogue in the first of them."""
        return self._publisher.snapshot(languages)

    def updates(self) -> AsyncIterator[dict]:
        """Every published snapshot from now on (without its words), starting with the current one."""
        return self._publisher.updates()
