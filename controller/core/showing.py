"""What the referee shows: the view, the page's state and the board's lights and die display.

Built from the referee's state only when something changed: the referee's own count of
changes or the reconciler's (`Reconciler.changes`). An unchanged frame costs little more
than the reconciler's own look at it. What the board is told is said as decisions
(Lights, DieShows, Changed): a light frame only when it differs from the last one shown.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..language.catalogue import PLAY
from . import prompts, signals
from .decisions import Changed, Decision, DieShows, Lights
from .view import Phase, Prompt, View
from ..games import Outcome

_ = PLAY.gettext


ROLL_DECISION = "roll"  # the search's answer when the computer chooses to roll (opponent.ROLL)


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

    def __init__(self, referee) -> None:
        self._referee = referee  # the Referee it shows (which builds it: no import back)
        self._built: tuple | None = None  # (key, view)
        self._state: RefereeState | None = None
        self._told: tuple | None = None  # the change counts show() last looked at
        self._seen: tuple | None = None  # (view, board, notes) a page was last told of
        self._shown: tuple | None = None  # (view, light frame, die state) the board was last told
        self._movable: tuple = (None, frozenset())  # (position and roll, the cells that may move)
        self.version = 0
        self.view_builds = 0  # how many views were built (tests count them)

    def view(self) -> View:
        """What the players should see now; built again only after something changed."""
        key = self._referee.change_key()
        built = self._built
        if built is not None and built[0] == key:
            return built[1]
        view = self._build_view()
        self._built = (key, view)
        self.view_builds += 1
        return view

    def show(self) -> list[Decision]:
        """What the board and a page are to be told: nothing, and nothing built, when neither
        the referee nor the reconciler changed since the last time."""
        ref = self._referee
        key = (ref.change_key(), ref.notes_total)
        if key == self._told:
            return []
        self._told = key
        view = self.view()
        told: list[Decision] = []
        seen = (view, ref.reconciler.stable, ref.notes_total)
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

    def state(self) -> RefereeState:
        """What a page shows of the referee, as data (see RefereeState); built again only after a change."""
        view = self.view()
        state = self._state
        if state is not None and state.view is view and state.version == self.version:
            return state
        pieces, expected = self._beliefs()
        rec = self._referee.reconciler
        self._state = RefereeState(
            version=self.version, view=view, choices=tuple(str(m) for m in rec.choosing),
            stable=rec.stable, pieces=pieces, expected=expected)
        return self._state

    def _build_view(self) -> View:
        ref = self._referee
        game, rec, phase = ref.game, ref.reconciler, ref.phase
        outcome: Outcome | None = game.outcome() if phase is Phase.OVER else None
        view = View(
            game=game.name, phase=phase, turn=game.turn, cells=game.cells, occupied=game.occupied(),
            roll=ref.roll, rolling=ref.rolling, players=game.players,
            last_move=ref.last_move_cells, outcome=outcome,
        )
        guide = ref.setup_guide
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
            view = replace(view, movable=self._movable_cells(), to=in_hand[1] if in_hand else frozenset())
            wanted = rec.expected  # the board guided back after a move was taken back
            if wanted is not None:
                view = replace(view, fill=view.fill | (wanted - rec.stable), empty=view.empty | (rec.stable - wanted))
            shown = ref._shown_move()
            if shown is not None and not view.rolling:
                # the piece to lift now and where it goes, as the board stands (Game.move_lights);
                # a capture held is its first piece still in the hand, not the move made
                lift, dest = game.move_lights(shown, rec.stable, held=shown in rec.held)
                view = replace(view, lift=lift, dest=dest)
        prompt = self.prompt()
        return replace(view, prompt=prompt, message=prompts.describe(prompt, game))

    def _beliefs(self) -> tuple[dict[str, str], dict[str, str]]:
        """What the referee believes stands on each cell, and (set-up) what it still expects."""
        ref = self._referee
        believed = dict(ref.game.pieces())
        if not ref.stones_known:  # numbers not yet identified are not made up
            believed = {c: (p[0] + "?" if p[1:].isdigit() else p) for c, p in believed.items()}
        expected: dict[str, str] = {}
        if ref.phase is Phase.SETUP:
            stable = ref.reconciler.stable
            expected = {c: p for c, p in believed.items() if p and c not in stable}
            believed = {c: (p if c in stable else "") for c, p in believed.items()}
        elif ref.phase is Phase.IDENTIFY and ref.setup_guide is not None:
            believed.update(ref.setup_guide.known_pieces())
        return believed, expected

    def prompt(self) -> Prompt:
        """What is asked of the players now, as data."""
        ref = self._referee
        game = ref.game
        prompt = self._play_prompt()
        if ref.computer_to_move() and prompt.kind in ("move", "roll", "in_hand"):
            chosen = ref._shown_move()
            move = None if chosen is None else game.format_move(chosen)
            words = None if chosen is None else game.move_words(chosen)
            return Prompt("computer", {"player": game.turn, "move": move, "roll": ref.roll, "words": words})
        hint = ref.hint_shown()
        if prompt.kind in ("move", "roll", "in_hand") and hint is not None:
            return Prompt(prompt.kind, {**prompt.data, "hint": game.format_move(hint),
                                        "hint_words": _("roll the die") if hint == ROLL_DECISION else game.move_words(hint)})
        return prompt

    def _play_prompt(self) -> Prompt:
        ref = self._referee
        game, rec, turn, phase = ref.game, ref.reconciler, ref.game.turn, ref.phase
        if phase is Phase.SETUP:
            return self.setup_prompt()
        if phase is Phase.IDENTIFY and ref.setup_guide is not None:
            asked = ref.setup_guide.prompt(True, rec.stable, rec.expected)
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
                                       "pieces": self.piece_names(fill)})
        if rec.choosing:
            return Prompt("choose", {"moves": [str(m) for m in rec.choosing]})
        in_hand = rec.in_hand
        if in_hand:
            return Prompt("in_hand", {"player": turn, "cells": sorted(in_hand[0]), "to": sorted(in_hand[1])})
        if phase is Phase.ROLLED:
            return Prompt("move", {"player": turn, "roll": ref.roll,
                                   "stones": game.die_pieces(ref.roll), "waiting": False})
        if game.uses_die:
            return Prompt("roll", {"player": turn})
        return Prompt("move", {"player": turn, "roll": None, "stones": None,
                               "waiting": bool(game.position_data().get("waiting"))})

    def setup_prompt(self) -> Prompt:
        rec, guide = self._referee.reconciler, self._referee.setup_guide
        wanted = rec.expected
        if guide is not None:
            asked = guide.prompt(False, rec.stable, wanted)
            if asked is not None:
                return Prompt(asked.kind, asked.data)
        if wanted is None:
            return Prompt("setup", {"fill": [], "empty": []})
        return Prompt("setup", {"fill": sorted(wanted - rec.stable), "empty": sorted(rec.stable - wanted)})

    def piece_names(self, cells: Iterable[str]) -> dict[str, str]:
        """The code of what belongs on each cell in the game's position ("" while the stones are
        not known): the prompt's words name it (Game.piece_words)."""
        ref = self._referee
        pieces = ref.game.pieces() if ref.stones_known else {}
        return {c: pieces.get(c, "") for c in cells}

    def _movable_cells(self) -> frozenset[str]:
        """The stones the die chose (lit so the players see which); nothing before a roll or
        in a game without a die: lighting every piece of the mover tells nobody anything.
        Kept until the position or the roll changes: views are built on every frame."""
        ref = self._referee
        roll = ref.roll
        if roll is None:
            return frozenset()
        stack = ref.game.move_stack
        key = (len(stack), stack[-1] if stack else None, roll)
        if self._movable[0] != key:
            moves = ref.game.turn_moves(roll)
            self._movable = (key, frozenset().union(*(ref.game.footprint(m).empties for m in moves)))
        return self._movable[1]
