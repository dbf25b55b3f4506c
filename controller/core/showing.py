"""What the referee shows: the view, the page's state and the board's lights and die display.

Built from what the referee hands it (a Standing: its state as it stands, read-only) only
when something changed: the referee's own count of changes or the reconciler's
(`Reconciler.changes`). An unchanged frame costs little more than the reconciler's own look
at it. What the board is told is said as decisions (Lights, DieShows, Changed): a light
frame only when it differs from the last one shown.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, replace
from typing import Protocol

from ..language.phrases import Phrasebook
from . import signals
from .computer import ROLL_DECISION
from .decisions import Changed, Decision, DieShows, Lights
from .view import Phase, Prompt, View
from ..games import Game, Outcome
from ..games.setup import SetupGuide

phrase = Phrasebook("play")


class Recognised(Protocol):
    """What the view reads of the recogniser (controller.core.reconcile.Reconciler)."""

    @property
    def stable(self) -> frozenset[str]: ...

    @property
    def expected(self) -> frozenset[str] | None: ...

    @property
    def guidance(self) -> tuple[frozenset[str], frozenset[str]] | None: ...

    @property
    def choosing(self) -> tuple[Hashable, ...]: ...

    @property
    def choice_paths(self) -> tuple[frozenset[str], ...]: ...

    @property
    def in_hand(self) -> tuple[frozenset[str], frozenset[str]] | None: ...

    @property
    def held(self) -> tuple[Hashable, ...]: ...


@dataclass(frozen=True)
class Standing:
    """The referee's state as what it shows is built from (read-only): the game and the
    recogniser are read, never changed.

    changes:          the referee's and the reconciler's counts of changes (a view is built once for them)
    last_move:        the cells the last accepted move touched
    guide:            the guide through the set-up (None: given)
    stones_known:     whether the identities of the pieces are known
    computer_to_move: it is the computer's turn in play
    shown_move:       the move the lights show: the computer's, to be carried out, or a hint
    hint:             the hint given for the position standing (a move, or ROLL_DECISION)
    """

    changes: tuple
    game: Game
    reconciler: Recognised
    phase: Phase
    roll: int | None
    rolling: bool
    last_move: frozenset[str]
    guide: SetupGuide | None
    stones_known: bool
    computer_to_move: bool
    shown_move: Hashable | None
    hint: Hashable | None


@dataclass(frozen=True)
class RefereeState:
    """What a page shows of the referee, as data: built with the view, only after a change.

    version:  counts the changes (a higher one is newer)
    view:     the view (phase, prompt as data and in words, what the lights stand for)
    choices:  the moves the players are asked to choose between, in notation
    stable:   the board as sensed (debounced)
    pieces:   what the referee believes stands on each cell (a piece code; "B?" for a numbered
              piece whose number is not known yet; in the set-up only what stands on the board)
    expected: set-up: the pieces still to be put on their cells
    """

    version: int
    view: View
    choices: tuple[str, ...]
    stable: frozenset[str]
    pieces: dict[str, str]
    expected: dict[str, str]

    @property
    def phase(self) -> Phase:
        return self.view.phase

    @property
    def prompt(self) -> Prompt | None:
        return self.view.prompt


class Showing:
    """The referee's view and what the board was last told, kept so that nothing is built or
    told twice."""

    def __init__(self) -> None:
        self._built: tuple | None = None  # (change key, view)
        self._state: RefereeState | None = None
        self._told: tuple | None = None  # the change counts show() last looked at
        self._seen: tuple | None = None  # (view, board, notes) a page was last told of
        self._shown: tuple | None = None  # (view, light frame, die state) the board was last told
        self._movable: tuple = (None, frozenset())  # (position and roll, the cells that may move)
        self.version = 0
        self.view_builds = 0  # how many views were built (tests count them)

    def built(self, changes: tuple) -> View | None:
        """The view built for these counts of changes, if it was."""
        built = self._built
        return built[1] if built is not None and built[0] == changes else None

    def told(self, changes: tuple, notes_total: int) -> bool:
        """Whether the board and a page were told of everything up to these counts."""
        return (changes, notes_total) == self._told

    def view(self, standing: Standing) -> View:
        """What the players should see now; built again only after something changed."""
        view = self.built(standing.changes)
        if view is not None:
            return view
        view = self._build_view(standing)
        self._built = (standing.changes, view)
        self.view_builds += 1
        return view

    def show(self, standing: Standing, notes_total: int) -> list[Decision]:
        """What the board and a page are to be told: nothing, and nothing built, when neither
        the referee nor the reconciler changed since the last time."""
        if self.told(standing.changes, notes_total):
            return []
        self._told = (standing.changes, notes_total)
        view = self.view(standing)
        told: list[Decision] = []
        seen = (view, standing.reconciler.stable, notes_total)
        if seen != self._seen:
            self._seen = seen
            self.version += 1
            told.append(Changed(self.version))
        shown = self._shown
        if shown is not None and shown[0] is view:
            return told
        frame, die = signals.light_frame(view), signals.die_state(view)
        if shown is not None and (frame, die) == shown[1:]:
            self._shown = (view, frame, die)
            return told
        self._shown = (view, frame, die)
        return told + [Lights(frame), DieShows(die)]

    def state(self, standing: Standing) -> RefereeState:
        """What a page shows of the referee, as data (see RefereeState); built again only after a change."""
        view = self.view(standing)
        state = self._state
        if state is not None and state.view is view and state.version == self.version:
            return state
        pieces, expected = _beliefs(standing)
        rec = standing.reconciler
        self._state = RefereeState(
            version=self.version, view=view, choices=tuple(str(m) for m in rec.choosing),
            stable=rec.stable, pieces=pieces, expected=expected)
        return self._state

    def _build_view(self, s: Standing) -> View:
        game, rec, phase = s.game, s.reconciler, s.phase
        outcome: Outcome | None = game.outcome() if phase is Phase.OVER else None
        view = View(
            game=game.name, phase=phase, turn=game.turn, cells=game.cells, occupied=game.occupied(),
            roll=s.roll, rolling=s.rolling, players=game.players,
            last_move=s.last_move, outcome=outcome,
        )
        guide = s.guide
        if phase is Phase.SETUP:
            wanted = rec.expected
            if wanted is not None:
                view = replace(view, fill=wanted - rec.stable, empty=rec.stable - wanted)
            marks = guide.marks(False) if guide is not None else None
            if marks is not None and marks.place:
                # the piece's own cell shows as "place", not as a plain gap to fill
                view = replace(view, place=marks.place, identify=marks.number, fill=view.fill - marks.place)
        elif phase is Phase.IDENTIFY and guide is not None:
            marks = guide.marks(True)
            view = replace(view, identify=marks.number, movable=marks.lift)
        elif outcome is not None:
            winner = frozenset() if outcome.winner is None else frozenset(game.winner_cells(outcome.winner))
            view = replace(view, winner_cells=winner)
        else:
            guidance = rec.guidance
            if guidance:
                view = replace(view, fill=guidance[0], empty=guidance[1])
            if rec.choosing:
                view = replace(view, choices=rec.choice_paths)
            in_hand = rec.in_hand
            view = replace(view, movable=self._movable_cells(s), to=in_hand[1] if in_hand else frozenset())
            wanted = rec.expected  # the board guided back after a move was taken back
            if wanted is not None:
                view = replace(view, fill=view.fill | (wanted - rec.stable), empty=view.empty | (rec.stable - wanted))
            shown = s.shown_move
            if shown is not None and not view.rolling:
                # the piece to lift now and where it goes, as the board stands (Game.move_lights);
                # a capture held is its first piece still in the hand, not the move made
                lift, dest = game.move_lights(shown, rec.stable, held=shown in rec.held)
                view = replace(view, lift=lift, dest=dest)
        prompt = prompt_of(s)
        return replace(view, prompt=prompt)  # its words: controller/words/prompts.py

    def _movable_cells(self, s: Standing) -> frozenset[str]:
        """The stones the die chose (lit so the players see which); nothing before a roll or
        in a game without a die: lighting every piece of the mover tells nobody anything.
        Kept until the position or the roll changes: views are built on every frame."""
        roll = s.roll
        if roll is None:
            return frozenset()
        stack = s.game.move_stack
        key = (len(stack), stack[-1] if stack else None, roll)
        if self._movable[0] != key:
            moves = s.game.turn_moves(roll)
            self._movable = (key, frozenset().union(*(s.game.footprint(m).empties for m in moves)))
        return self._movable[1]


def _beliefs(s: Standing) -> tuple[dict[str, str], dict[str, str]]:
    """What the referee believes stands on each cell, and (set-up) what it still expects."""
    believed = dict(s.game.pieces())
    if not s.stones_known:  # numbers not yet identified are not made up
        believed = {c: (p[0] + "?" if p[1:].isdigit() else p) for c, p in believed.items()}
    expected: dict[str, str] = {}
    if s.phase is Phase.SETUP:
        stable = s.reconciler.stable
        expected = {c: p for c, p in believed.items() if p and c not in stable}
        believed = {c: (p if c in stable else "") for c, p in believed.items()}
    elif s.phase is Phase.IDENTIFY and s.guide is not None:
        believed.update(s.guide.known_pieces())
    return believed, expected


def prompt_of(s: Standing) -> Prompt:
    """What is asked of the players now, as data."""
    game = s.game
    prompt = _play_prompt(s)
    if s.computer_to_move and prompt.kind in ("move", "roll", "in_hand"):
        chosen = s.shown_move
        move = None if chosen is None else game.format_move(chosen)
        words = None if chosen is None else game.move_words(chosen)
        return Prompt("computer", {"player": game.turn, "move": move, "roll": s.roll, "words": words})
    hint = s.hint
    if prompt.kind in ("move", "roll", "in_hand") and hint is not None:
        return Prompt(prompt.kind, {**prompt.data, "hint": game.format_move(hint),
                                    "hint_words": phrase("roll the die") if hint == ROLL_DECISION else game.move_words(hint)})
    return prompt


def _play_prompt(s: Standing) -> Prompt:
    game, rec, turn, phase = s.game, s.reconciler, s.game.turn, s.phase
    if phase is Phase.SETUP:
        return setup_prompt(rec, s.guide)
    if phase is Phase.IDENTIFY and s.guide is not None:
        asked = s.guide.prompt(True, rec.stable, rec.expected)
        if asked is not None:
            return Prompt(asked.kind, asked.data)
    if phase is Phase.OVER:
        outcome = game.outcome()
        return Prompt("over", {"result": outcome.result(game.players), "winner": outcome.winner,
                               "reason": outcome.termination.value,
                               "how": outcome.termination.words()})  # the game's own words
    if rec.guidance or rec.expected is not None:
        fill, empty = rec.guidance or (rec.expected - rec.stable, rec.stable - rec.expected)
        return Prompt("put_back", {"fill": sorted(fill), "empty": sorted(empty),
                                   "pieces": piece_names(game, s.stones_known, fill)})
    if rec.choosing:
        return Prompt("choose", {"moves": [str(m) for m in rec.choosing]})
    in_hand = rec.in_hand
    if in_hand:
        return Prompt("in_hand", {"player": turn, "cells": sorted(in_hand[0]), "to": sorted(in_hand[1])})
    if phase is Phase.ROLLED:
        return Prompt("move", {"player": turn, "roll": s.roll,
                               "stones": game.die_pieces(s.roll), "waiting": False})
    if game.uses_die:
        return Prompt("roll", {"player": turn})
    return Prompt("move", {"player": turn, "roll": None, "stones": None,
                           "waiting": bool(game.position_data().get("waiting"))})


def setup_prompt(rec: Recognised, guide: SetupGuide | None) -> Prompt:
    """What the set-up asks of the players now: the guide's question, or the cells to fill and empty."""
    wanted = rec.expected
    if guide is not None:
        asked = guide.prompt(False, rec.stable, wanted)
        if asked is not None:
            return Prompt(asked.kind, asked.data)
    if wanted is None:
        return Prompt("setup", {"fill": [], "empty": []})
    return Prompt("setup", {"fill": sorted(wanted - rec.stable), "empty": sorted(rec.stable - wanted)})


def piece_names(game: Game, stones_known: bool, cells: Iterable[str]) -> dict[str, str]:
    """The code of what belongs on each cell in the game's position ("" while the stones are
    not known): the prompt's words name it (Game.piece_words)."""
    pieces = game.pieces() if stones_known else {}
    return {c: pieces.get(c, "") for c in cells}
