"""What every game offers the rest of reedboard.

A Game holds one position and the stack of moves that led to it (push/pop, as in
python-chess). Moves are small immutable values whose str() is the rules' notation.
The end of a game is an Outcome: who won (None for a draw) and a Termination, the reason
as the game defines it (a key and its words; the shared ones, such as a resignation, live
here). A Footprint says what a move does physically, in sensed cells: the move recogniser is
built on it. A game also gives the words of its moves and endings, written and spoken, and of
every refusal (a MoveError's message): as phrases (controller/language/phrases.py), which the
words room (controller/words/) says in the language in use; a game says nothing itself.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from ..language.phrases import N_, Phrasebook, Said, listed

phrase = Phrasebook("play")


@dataclass(frozen=True)
class Termination:
    """Why a game ended, as the game that ended defines it (python-chess's variants end so too).

    value: the short key written in records, journals, traces and the page ("a7", "resign").
        Journals on disk are read by it: a key, once written, keeps its meaning.
    said: the words added after who won or "a draw" ("with a stone on a7"; words starting with
        ":" follow without a space), as written in English; `words()` gives them as a phrase of
        the "play" catalogue.
    Two terminations with one key are the same ending (the words do not count).
    """

    value: str
    said: str = field(default="", compare=False, hash=False)

    # the endings every game shares (a game's own are constants of its module, in its `endings`)
    NO_MOVE: ClassVar[Termination]  # the player to move has no legal move and loses
    RESIGN: ClassVar[Termination]
    AGREED: ClassVar[Termination]
    TIME: ClassVar[Termination]  # a player's clock ran out

    def words(self) -> Said:
        return phrase(self.said) if self.said else ""


Termination.NO_MOVE = Termination("no-move", N_(": the opponent cannot move"))
Termination.RESIGN = Termination("resign", N_("by resignation"))
Termination.AGREED = Termination("agreed", N_("by agreement"))
Termination.TIME = Termination("time", N_("on time"))
SHARED_ENDINGS = (Termination.NO_MOVE, Termination.RESIGN, Termination.AGREED, Termination.TIME)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the reason (one of the game's `endings` or a shared one) and who won."""

    termination: Termination
    winner: str | None  # a player's name, None for a draw

    def result(self, players: Sequence[str]) -> str:
        """`1-0` when the first of `players` won, `0-1` for the second, `1/2-1/2` a draw."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner == players[0] else "0-1"


@dataclass(frozen=True)
class Footprint:
    """What a move does to the sensed cells (cell names).

    empties:  cells occupied before and empty after
    fills:    cells empty before and occupied after
    captures: cells whose piece is taken while the cell stays occupied (the capturer lands there)
    passes:   cells that stay occupied while a moving line slides through them
    """

    empties: frozenset[str]
    fills: frozenset[str]
    captures: frozenset[str] = frozenset()
    passes: frozenset[str] = frozenset()


@dataclass(frozen=True)
class HandStep:
    """One thing the hands do for a move, in the order they do it: lift the piece on `cell`
    ("lift"), or put down the piece lifted from `source` ("put"; None: one from beside the
    board, such as a ball waiting to be put back) on `cell` (None: beside the board, off it).

    The sensors feel pieces, not their colours: the steps of a move leave every piece where
    the rules put it (a push moves the pushed pieces, not only the pusher's back piece)."""

    action: str  # "lift" or "put"
    cell: str | None
    source: str | None = None


def lift(cell: str) -> HandStep:
    return HandStep("lift", cell)


def put(cell: str | None, source: str | None) -> HandStep:
    return HandStep("put", cell, source)


def lights_of_steps(steps: Sequence[HandStep], before: frozenset[str], board: frozenset[str],
                    held: bool = False) -> tuple[frozenset[str], frozenset[str]]:
    """The lights of a move made by `steps` from the occupied cells `before`, with the board
    standing as `board`: the piece to lift now and where it goes when it goes down at once,
    or, with the piece in the hand, where it goes. A piece kept in the hand may also be lifted
    only when it goes down: the board on that way is read too. The board on the move's result
    is the move made (nothing to show) unless `held`: its capture not seen yet, the board is
    only the first piece in the hand. A board on neither way shows what is left to empty and
    to fill."""
    final = set(before)
    for step in steps:
        if step.action == "lift":
            final.discard(step.cell)
        elif step.cell is not None:
            final.add(step.cell)
    if board == final and not held:
        return frozenset(), frozenset()
    orders = [list(steps)]
    kept = [i for i, step in enumerate(steps) if step.action == "lift"
            and not (i + 1 < len(steps) and steps[i + 1].action == "put" and steps[i + 1].source == step.cell)]
    if kept:  # each piece kept in the hand lifted only just before it goes down
        later = list(steps)
        for i in reversed(kept):
            step = later.pop(i)
            down = next(j for j, s in enumerate(later) if s.action == "put" and s.source == step.cell)
            later.insert(down, step)
        orders.append(later)
    for order in orders:
        occupied = set(before)
        for i, step in enumerate(order):
            if step.action == "lift":
                following = order[i + 1] if i + 1 < len(order) else None
                goes = following is not None and following.action == "put" and following.source == step.cell \
                    and following.cell is not None
                if occupied == board:
                    return frozenset({step.cell}), frozenset({following.cell} if goes else ())
                occupied.discard(step.cell)
            elif step.cell is not None:
                if occupied == board:
                    return frozenset(), frozenset({step.cell})
                occupied.add(step.cell)
    return frozenset(board - final), frozenset(final - board)


@dataclass(frozen=True)
class GameOption:
    """A start option a game takes on the command line (`--layout standard`) and in headers.

    flag: the option's name without dashes ("layout"); the command line adds `--flag`.
    help: one line for --help, e.g. "the start layout (default standard)", marked N_ for the
        "play" catalogue (the command line looks it up there).
    choices: the allowed words, or None for free text (a file, a set-up string).
    label, choice_labels: what a page shows for the option and for each choice (N_-marked;
        the flag and the choices themselves when not given).
    """

    flag: str
    help: str
    choices: tuple[str, ...] | None = None
    metavar: str | None = None
    default: str | None = None  # the choice taken when none is given (a page preselects it)
    label: str = ""
    choice_labels: tuple[str, ...] | None = None

    def for_page(self) -> dict:
        """The option as a page offers it, its label, help and choices' labels as phrases (the words
        room says them: controller/words/games.py)."""
        page = {"flag": self.flag, "label": phrase(self.label) if self.label else self.flag,
                "choices": list(self.choices) if self.choices is not None else None, "help": phrase(self.help)}
        if self.choices is not None:
            page["choice_labels"] = [phrase(word) for word in self.choice_labels] if self.choice_labels else list(self.choices)
        if self.default is not None:
            page["default"] = self.default
        return page


def in_words(names: Sequence[str]) -> Said:
    """`b2`, `b2 and c3`, `a1, b2 and c3`: names in the order given (a phrase from two on)."""
    names = list(names)
    return names[0] if len(names) == 1 else phrase("{first} and {last}", first=listed(names[:-1]), last=names[-1])


from ..ground.settings import brief  # noqa: E402, F401  how messages show a value given (named by the games' package)


# The players' colours inside a line and at its head, as the games name them (said by the words
# room: controller/words/prompts.py).
PLAYER_WORDS = {"black": N_("Black"), "white": N_("White"), "red": N_("Red"), "yellow": N_("Yellow")}
COLOUR_WORDS = {"black": N_("black"), "white": N_("white"), "red": N_("red"), "yellow": N_("yellow")}


def colour_words(name: str) -> Said:
    """A player's colour inside a line: `black` (`Schwarz`, `Negru` once said)."""
    return phrase(COLOUR_WORDS[name]) if name in COLOUR_WORDS else name


def player_words(name: str) -> Said:
    """A player at the head of a line: `Black` (`Schwarz`, `Negru` once said)."""
    return phrase(PLAYER_WORDS[name]) if name in PLAYER_WORDS else name.capitalize()


def over_words(result: str | None, reason: str) -> Said:
    """Why a move cannot be made any more: `the game is over (1-0, a7)`."""
    return phrase("the game is over ({result}, {reason})", result=result, reason=reason)


class MoveError(ValueError):
    """A move that cannot be read or is not legal here; the message says why."""


class GameOverError(MoveError):
    """A move was offered after the game had ended."""


class Game(ABC):
    """One game's position and move stack. Subclasses are the rules engines.

    Everything that differs between games is answered here, by hooks a game overrides (as
    python-chess variants override a few hooks of one Board): the rest of reedboard reads
    these and never names a game. The registry (controller.games.GAMES) maps `name` to class.
    """

    name: str  # the registry key and the word in headers and on the command line
    title: str  # for people: the page's heading, the rules page
    players: tuple[str, str]  # the first wins "1-0"; also the colours of the pieces
    uses_die: bool = False  # a die button: rolls, and moves chosen by the roll
    board: str = ""  # the shipped board (wiring) file it is played on: hardware/boards/<board>.toml
    setup_modes: tuple[str, ...] = ("given",)  # the first is the default of a new game
    options: tuple[GameOption, ...] = ()  # start options: `from_options` takes them
    header_keys: tuple[str, ...] = ()  # the header keys `start_header` writes and `from_header` reads
    endings: tuple[Termination, ...] = ()  # the game's own ways to end; the shared ones come on top

    def __init__(self) -> None:
        self.move_stack: list[Hashable] = []
        self._declared: Outcome | None = None

    # --- the position -------------------------------------------------------------
    @property
    @abstractmethod
    def turn(self) -> str:
        """The player to move."""

    @property
    @abstractmethod
    def cells(self) -> tuple[str, ...]:
        """Every sensed cell of the board, in board order."""

    @abstractmethod
    def occupied(self) -> frozenset[str]:
        """The cells a presence sensor sees occupied in this position."""

    @abstractmethod
    def diagram(self) -> Said:
        """A picture of the position for people, in text (its words a phrase: the status line)."""

    @abstractmethod
    def copy(self) -> Game:
        """An independent game with the same position and move stack."""

    # --- moves --------------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> list:
        """Every legal move for the player to move (none once the game is over)."""

    def turn_moves(self, roll: int | None = None) -> list:
        """The moves the player may make now, given the die (games without a die ignore it)."""
        return self.legal_moves()

    def count_legal_moves(self) -> int:
        """len(legal_moves()), which engines compute faster for perft."""
        return len(self.legal_moves())

    def is_legal(self, move: Hashable) -> bool:
        return self.outcome() is None and move in self.legal_moves()

    @abstractmethod
    def push(self, move: Hashable) -> None:
        """Play a legal move (not checked: use is_legal or parse_move first)."""

    @abstractmethod
    def pop(self) -> Hashable:
        """Take back the last move and return it."""

    @abstractmethod
    def footprint(self, move: Hashable) -> Footprint:
        """What `move`, legal in this position, does to the sensed cells."""

    @abstractmethod
    def parse_move(self, text: str) -> Hashable:
        """The legal move written `text`; MoveError naming the reason otherwise."""

    def format_move(self, move: Hashable) -> str:
        return str(move)

    def move_words(self, move: Hashable) -> Said:
        """What the hands do for `move`, legal in this position, in words, as the lights show it
        ("take the piece off d1, lift c1 and put it on d1"). A game whose notation names
        something else than what the hands do (a line's step) says it in its own words."""
        fp = self.footprint(move)
        lifted, put = sorted(fp.empties), sorted(fp.fills | fp.captures)
        words = [phrase("take the piece off {cells}", cells=in_words(sorted(fp.captures)))] if fp.captures else []
        if lifted and len(lifted) == 1 and put:
            words.append(phrase("lift {cells} and put it on {to}", cells=in_words(lifted), to=in_words(put)))
        elif lifted and put:
            words.append(phrase("lift {cells} and put them on {to}", cells=in_words(lifted), to=in_words(put)))
        elif put:
            words.append(phrase("put a piece on {cells}", cells=in_words(put)))
        elif lifted:
            words.append(phrase("take the piece off {cells}", cells=in_words(lifted)))
        return listed(words) if words else ""

    def hand_steps(self, move: Hashable) -> tuple[HandStep, ...]:
        """What the hands do for `move`, legal in this position, step by step, as its words say
        it (move_words) and the lights show it (move_lights); () when the game gives no steps
        (the lights then show the whole move at once)."""
        return ()

    def move_lights(self, move: Hashable, board: frozenset[str],
                    held: bool = False) -> tuple[frozenset[str], frozenset[str]]:
        """The lights of `move` shown to be made (the computer's move, a hint), with the board
        standing as `board`: (the pieces to lift, where they go). By its steps, one piece at a
        time, when the game gives them; else the pieces to lift and every cell they go to (a
        capture's target: a piece standing there goes first). `held`: the board shows the
        move's result, but the recogniser has not seen its capture (a piece in the hand)."""
        steps = self.hand_steps(move)
        if steps:
            return lights_of_steps(steps, self.occupied(), board, held)
        fp = self.footprint(move)
        return fp.empties & board, (fp.fills - board) | fp.captures

    def piece_name(self, cell: str) -> str:
        """What stands on `cell` in this position, in a player's words ("black stone 3",
        "big ball", "red ball"); "piece" when the game cannot say."""
        return "piece"

    def near(self, cell: str) -> frozenset[str]:
        """The cells next to `cell`: where a hand carrying a piece past it may set the piece down
        for a moment on its way (the recogniser's rule 2). None by default."""
        return frozenset()

    def roll_of(self, move: Hashable) -> int | None:
        """The die value `move` was made with (games with a die), else None. A takeback
        keeps it: the player moves again with the same number."""
        return None

    def play(self, text: str) -> Hashable:
        """Parse and push one move in notation; returns the move."""
        move = self.parse_move(text)
        self.push(move)
        return move

    # --- the die (games with uses_die) ------------------------------------------------
    def can_roll(self) -> bool:
        """Whether the player to move may press the die now."""
        return False

    def die_pieces(self, roll: int) -> list:
        """What the roll lets the player move, in the players' words (Big Balls: stone numbers)."""
        return []

    # --- for the computer opponent ----------------------------------------------------------
    def evaluate(self, player: str) -> float:
        """How good the position is for `player`, in [-0.9, 0.9] (a search scores a won game
        +-1 itself, and its chance nodes rely on these bounds); 0 when the game cannot say."""
        return 0.0

    # The computer's levels in this game, 1 to as many as the table has (a game's ladder climbs as
    # far as steps of 60-80 % lead it), each (nodes, depth, temperature, natural) as
    # controller/opponent/levels.py reads them, calibrated by bench/ladder.py. These: Abalone's, and
    # those of a game without a table of its own. A warm depth-2 level has the nodes to value every
    # move at depth 2 (cut short, it falls back on its depth-1 values and is no stronger than the
    # level below); its liking for pushes makes it attack (a cautious shallow player only shuffles).
    # Low temperatures weigh most: at depth 2, 0.05 to 0.025 can be a step of 90 %. A cold level
    # plays its best move and is cut by its node budget; one that reaches depth 3 can beat every
    # warm depth-2 level 20-0. Seven steps of about 70 % span only about 1,000 Elo, so these levels
    # run from warm depth 2 to cold depth 2; a game's own may run from depth 1 to a start on depth 3.
    # A game with a die hides small differences in strength, so its steps are wider.
    computer_levels: ClassVar[tuple[tuple[int, int, float, float], ...]] = (
        (12_000, 2, 0.09, 0.12),
        (12_000, 2, 0.06, 0.08),
        (12_000, 2, 0.04, 0.04),
        (15_000, 2, 0.027, 0.02),
        (15_000, 2, 0.018, 0.0),
        (20_000, 2, 0.012, 0.0),
        (20_000, 2, 0.008, 0.0),
        (350, 64, 0.0, 0.0),
        (1_000, 64, 0.0, 0.0),
        (2_500, 64, 0.0, 0.0),
        (9_000, 64, 0.0, 0.0),  # 2 s on a Pi Zero 2 W
        (20_000, 64, 0.0, 0.0),
        (45_000, 64, 0.0, 0.0),  # 10 s on a Pi Zero 2 W
    )

    # The levels that use the time a player waits on a Raspberry Pi Zero 2 W: level -> seconds a
    # move there (their budgets are what the Pi searches in that time: bench/match_strength.py --pi),
    # and level -> the most a move may take at the table, on a loaded Pi too (the others: 6 s).
    computer_pi_seconds: ClassVar[dict[int, float]] = {11: 2.0, 13: 10.0}
    computer_safety_seconds: ClassVar[dict[int, float]] = {11: 15.0, 12: 25.0, 13: 40.0}

    # Levels renumbered since a version of the board: {version: {the level as then numbered: the
    # level that plays as it did}}. A record of a game against the computer names its level as its
    # version numbered it: its rating and its resumed game go on at the level it played (Abalone
    # 0.1.0's levels 9 and 10 are today's 11 and 13, levels 9, 10 and 12 came between).
    renumbered_levels: ClassVar[dict[str, dict[int, int]]] = {"0.1.0": {9: 11, 10: 13}}

    def absurd(self, option: Hashable) -> bool:
        """Whether `option` (a move of the player to move, or the computer's word for another
        choice, such as rolling the die) is one a beginner would find absurd: the computer's
        levels above the first never choose it while another option is left. None is, unless
        a game says so."""
        return False

    @classmethod
    def drawn_start(cls, rng) -> Game:
        """A start as the players draw it at the table from `rng` (a random.Random), for engine
        matches (Big Balls: each colour's numbers shuffled); the default start otherwise."""
        return cls()

    def position_key(self) -> Hashable | None:
        """A cheap hashable that tells positions apart (the player to move included), for a
        search's transposition table; None when the game gives none."""
        return None

    # --- the start, in files and on the command line --------------------------------------
    @classmethod
    def from_options(cls, **options: str) -> Game:
        """A new game from start options given as text (`options` names them by flag; a value of
        None counts as not given); ValueError (with a clear one-line message) for an option that
        is not the game's own or a bad value."""
        cls.refuse_foreign_options(options)
        return cls()

    @classmethod
    def refuse_foreign_options(cls, options: Mapping[str, object]) -> None:
        """ValueError (one line) for the first option given that is not among the game's `options`."""
        own = {option.flag for option in cls.options}
        foreign = sorted(flag for flag, value in options.items() if flag not in own and value is not None)
        if foreign:
            if cls.options:
                raise ValueError(phrase("--{flag} is not an option of {game}; {game} takes {options}",
                                        flag=foreign[0], game=cls.name,
                                        options=in_words([f"--{o.flag}" for o in cls.options])))
            raise ValueError(phrase("--{flag} is not an option of {game}; {game} takes no start options",
                                    flag=foreign[0], game=cls.name))
        for option in cls.options:
            value = options.get(option.flag)
            if value is not None and option.choices is not None and value not in option.choices:
                raise ValueError(phrase("--{flag} is one of {choices}, not {value}", flag=option.flag,
                                        choices=", ".join(option.choices), value=repr(value)))

    def start_header(self) -> dict:
        """This game's start position as header data for journals and traces (JSON-ready,
        without the "game" key); `from_header` reads it back. Called on the start position."""
        return {}

    @classmethod
    def from_header(cls, header: Mapping) -> Game:
        """The game a journal or trace header describes, in its start position; ValueError
        (SetupError, LayoutError included) naming what is wrong. `header` holds only the
        game's part (the keys of `header_keys`; no "game", no file keys such as "settings"):
        a key not its own is refused (`refuse_foreign_keys`)."""
        cls.refuse_foreign_keys(header)
        return cls()

    @classmethod
    def refuse_foreign_keys(cls, header: Mapping) -> None:
        """ValueError naming the first header key that is not one of this game's `header_keys`."""
        foreign = sorted(set(header) - set(cls.header_keys), key=str)
        if foreign:
            raise ValueError(f'"{foreign[0]}" does not belong to a {cls.name} header')

    def record_header(self) -> list[str]:
        """The record's set-up lines after `game NAME`, for the start position (Big Balls: its
        two set-up lines and `first black`; Off Board: `board default`)."""
        return []

    def next_start(self) -> Game | None:
        """The start of the table's next new game after this one: the same board or layout
        (a fresh copy), or None to start from the defaults again (a new draw)."""
        return None

    def setup_guide(self, mode: str, rng=None):
        """The guide through a set-up mode other than "given" (controller.games.setup), or None
        when the mode is "given": the lights show the start position until the board matches."""
        return None

    # --- what a view shows ------------------------------------------------------------------
    def pieces(self) -> dict[str, str]:
        """Every cell -> the code of what stands there, "" for nothing. Codes: a letter and a
        number for a numbered stone ("B3", "W5"), one capital for a ball or marble of a player's
        colour ("R", "Y", "B", "W"), "ball" for a neutral big ball."""
        occupied = self.occupied()
        return {cell: ("piece" if cell in occupied else "") for cell in self.cells}

    def position_data(self) -> dict:
        """What a page shows besides the pieces: {"score": {player: n} or None,
        "waiting": a cell-less waiting piece's owner or None}."""
        return {"score": None, "waiting": None}

    def hands_guide(self) -> list[str]:
        """How the hands make this game's moves on the board, a point a line, for a first game
        (the rules say what is allowed; this says what to lift and where to put it)."""
        return []

    def ending_words(self, outcome: Outcome) -> Said:
        """Why the game ended, in words for the players ("Black resigned"); a game words the
        endings of its own rules (override, and fall back on this for the shared ones)."""
        winner = outcome.winner
        loser = next((p for p in self.players if p != winner), None) if winner is not None else None
        name = player_words(loser or "")
        if outcome.termination == Termination.RESIGN:
            return phrase("{player} resigned", player=name)
        if outcome.termination == Termination.AGREED:
            return phrase("a draw agreed")
        if outcome.termination == Termination.TIME:
            return phrase("{player}'s time ran out", player=name)
        if outcome.termination == Termination.NO_MOVE:
            return phrase("{player} cannot move", player=name)
        return outcome.termination.value

    def spoken(self, move: object) -> Said:
        """A move, or its notation, as the page's voice says it ("stone 4
        from b2 to b3"); the notation itself when the game has no words for it. A move of a past
        position comes as its notation, so a game reads the words off the notation alone."""
        return str(move)

    def piece_words(self, code: str) -> Said:
        """A piece by its code (pieces()), with its article, as the object of a sentence in the
        language in use: "the white stone 6", "the red ball"."""
        return phrase("the piece")

    def ending_said(self, key: str) -> Said:
        """The words of the ending called `key` ("" for an unknown key)."""
        found = next((end for end in (*self.endings, *SHARED_ENDINGS) if end.value == key), None)
        return found.words() if found is not None else ""

    def light_meanings(self) -> dict[str, str]:
        """What some of the board's lights mean in this game where the shared legend's words say
        too little, {light name: meaning} (a die game's "movable": the stone the die chose)."""
        return {}

    def light_actions(self) -> dict[str, str]:
        """What to do about some of the board's lights in this game where the shared legend's
        words do not fit it, {light name: what to do} (a game without captures has nothing to
        put in the box)."""
        return {}

    def result_details(self) -> str | None:
        """What the result line adds after the reason (Off Board: the score "6-2"), or None."""
        return None

    def winner_cells(self, winner: str) -> frozenset[str]:
        """The cells lit for the winner at the end: the winner's pieces."""
        return frozenset()

    def geometry(self) -> dict:
        """How to draw the board, in hollow pitches (x to the right, y downwards, as on screen):
        {"shape": "triangle" | "hexagon", "cells": {cell: [x, y]}, "outline": [[x, y], ...]
        (the corner cells, in order), "goal": a cell to label or None, "sectors": [{"name",
        "value", "points": [[x, y], ...]}], "marbles": {code: colour name}}."""
        raise NotImplementedError

    def rules(self) -> dict:
        """The rules page's content: {"sections": [{"title", "points": [text, ...]}],
        "diagrams": [(id, title, [moves from example_start()], caption), ...]}."""
        return {"sections": [], "diagrams": []}

    @classmethod
    def example_start(cls) -> Game:
        """The start position the rules page's diagrams are played from."""
        return cls()

    # --- the end ------------------------------------------------------------------
    @abstractmethod
    def rules_outcome(self) -> Outcome | None:
        """The end by the rules alone, checked in the rules' order, or None."""

    def outcome(self) -> Outcome | None:
        """How the game ended (by the rules, a resignation or an agreed draw), or None."""
        return self._declared or self.rules_outcome()

    def resign(self, player: str) -> Outcome:
        """Record that `player` resigned; the other player wins."""
        if player not in self.players:
            raise ValueError(f"no player {player!r}; players are {', '.join(self.players)}")
        return self._declare(Outcome(Termination.RESIGN, self.other(player)))

    def lose_on_time(self, player: str) -> Outcome:
        """Record that `player`'s clock ran out; the other player wins."""
        if player not in self.players:
            raise ValueError(f"no player {player!r}; players are {', '.join(self.players)}")
        return self._declare(Outcome(Termination.TIME, self.other(player)))

    def agree_draw(self) -> Outcome:
        return self._declare(Outcome(Termination.AGREED, None))

    def _declare(self, outcome: Outcome) -> Outcome:
        if self.outcome() is not None:
            raise GameOverError(phrase("the game is already over"))
        self._declared = outcome
        return outcome

    def other(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    def result(self) -> str | None:
        """`1-0`, `0-1`, `1/2-1/2`, or None while the game goes on."""
        outcome = self.outcome()
        return None if outcome is None else outcome.result(self.players)

    def last_move_cells(self) -> frozenset[str]:
        """The cells the last move on the stack touched (the last-move lights and marks)."""
        if not self.move_stack:
            return frozenset()
        move = self.pop()
        footprint = self.footprint(move)
        self.push(move)
        return footprint.empties | footprint.fills | footprint.captures

    def status_line(self) -> Said:
        """A diagram's last line: who is to move, or how the game ended."""
        outcome = self.outcome()
        if outcome is None:
            return phrase("{colour} to move", colour=colour_words(self.turn))
        return phrase("game over: {result} ({reason})", result=outcome.result(self.players),
                      reason=outcome.termination.value)

    def _check_playable(self) -> None:
        if self.outcome() is not None:
            raise GameOverError(over_words(self.result(), self.outcome().termination.value))
