"""What a board means: the rules and rulings of docs/recognition.md, as an ordered table.

`Rulings.RULINGS` lists every rule and ruling by its id. Those with a `decide` method are the
recogniser's decisions, asked in the table's order for each new stable board (after the
set-up, a choice by touch and the position itself have had their say): the first that returns
a decision wins. The others refine one of them; their checks are named with their id where
they apply (`self._applies("R13")`), so a variant of the recogniser can switch one off
(`rulings_off`) and a test can show what each one decides.
"""

from __future__ import annotations

from collections.abc import Hashable

from .recognition import (
    MADE, UNDER_WAY, AmendBeside, AmendWhenStill, AmendNow, Ask, BesideWhenStill, Board, Candidate, CountBeside,
    CountNow, CountThenReadOn, CountTwoBeside, CountWhenStill, Decision, FitsNothing, Hold, KeepSignalling, KeepWaiting,
    AskWhenStill, Ruling, SwapCounts, SwapWhenStill, TakeBackWhenStill, WaitStill, WatchOn,
)


class Rulings:
    """The decision half of the Reconciler (reconcile.py holds the frames, the time and the moves)."""

    rulings_off: frozenset[str] = frozenset()  # ids of rulings a variant leaves out

    def _applies(self, rid: str) -> bool:
        return rid not in self.rulings_off

    # --- the ordered decisions ----------------------------------------------------------------
    def _a_moves_result(self, b: Board) -> Decision | None:
        """Rule 1: the board is a legal move's result, with its evidence (rule 2); it counts
        at once, or after the settle time where a longer move may still grow (rule 3)."""
        matches = b.matches
        if not matches:
            return None
        growing = self._can_grow(b.S, self._base, self._candidates, exclude=matches)
        if len(matches) == 1:
            return WaitStill(CountWhenStill(matches[0])) if growing else CountNow(matches[0])
        return WaitStill(AskWhenStill(b.S, matches)) if growing else Ask(b.S, matches)

    def _a_capture_held(self, b: Board) -> Decision | None:
        """Rule 2: only the source is empty and no capture target was seen: a piece held in the
        hand while its player thinks, or a swap quicker than the debounce. Stillness never
        decides; the next player or the ok button does. The mover going on into another move
        from before, with its evidence, comes first (R7)."""
        if b.at_result and not (self._applies("R7") and self._amendments(b.S)):
            return Hold(b.at_result)
        return None

    def _next_starts_after_held(self, b: Board) -> Decision | None:
        """R1: a held capture, then a board that fits nothing of this turn but makes sense after
        that capture: the next player's move under way or made. The capture counts and the
        board is decided afresh in the next player's turn (or which capture is asked, R5)."""
        held = self._held
        if held is None or b.at_result:
            return None
        S, base = b.S, self._base
        shown = held.captures[0].result
        since = held.since
        since.saw(shown, S)
        # The board is the last move taken back or changed by its player: those come first.
        if self._amendments(S) or (self._undo is not None and S == self._undo.result):
            return None
        if self._on_the_way_back(S):
            # still on the way back to the position before the last move (R13)
            return None
        if self._applies("R10") and S & base & ~shown and self._can_grow(S, base, held.captures, exclude=[]):
            # The swapping piece is back on its hollow, and one of those captures is still under
            # way (its victim lifted since): the mover's hand, no swap after all.
            self._held = None
            return None
        if self._applies("R9") and self._can_grow(S, base, self._candidates, exclude=[]) and not (
                since.start_seen and any(self._next_player_started(S, c) == MADE for c in held.captures)):
            # The mover's own move still explains the board (pieces in the hand): it comes first,
            # however long the hand pauses (rule 2). Not once the next player's hand was seen
            # and their whole move, with its evidence, is on the board.
            return None
        if {c.move for c in self._done_then_next(S) if not c.needs & self._next_players} & {c.move for c in held.captures}:
            # One of those captures made after all, its victim lifted since (not a piece the next
            # player's hand may have lifted: R3), and the next player's hand beside it: two hands
            # at once (rule 10).
            return None
        started = max(self._next_player_started(S, c) for c in held.captures)
        if not started:
            if (not since.start_seen or self._can_grow(S, base, self._candidates, exclude=[])
                    or self._done_then_next(S) or self._both_hands(S)):
                # Nothing of the next player's yet; or a move of the mover's, made or still
                # under way, and the next player's beside it: two hands at once (rule 10).
                return None
            # The next player seemed to start before and has gone on (a swap of their own, say),
            # where no mover's hand explains the board: their turn reads it.
            started = UNDER_WAY
        elif (self._applies("R6") and started == UNDER_WAY and not S & ~shown
              and (shown & ~S) & self._turn_cells):
            # Only lifted, and pieces the mover could move this turn: perhaps the mover with two
            # pieces in the hand, thinking. Wait for the next change, and signal nothing.
            since.start_seen = True
            return WatchOn()
        if (self._applies("R16") and (started == MADE or not since.placed)
                and (self._set_down_on_the_way(S) or self._both_hands(S))):
            # The mover's move may still be under way: a piece set down for a moment next to its
            # way, or the next player's hand at work beside the mover's (rules 2 and 10). The
            # next player's whole move counts as their start once the board has been still for
            # the settle time; pieces only lifted wait for the next change.
            since.start_seen = True
            return WaitStill(SwapWhenStill()) if started == MADE else WatchOn()
        return SwapCounts()

    def _next_starts_while_waiting(self, b: Board) -> Decision | None:
        """R11: a move waiting out the settle time, and the next player starts before it is up
        (or has gone on since, through boards that decided nothing): the move counts, and the
        board is read in their turn."""
        candidate = None if b.beside else b.interrupted
        # not while a longer move of the mover's may still be under way, or one with a piece set
        # down next to its way (the mover's own move first: rule 2)
        if (candidate is not None
                and self._next_player_started(b.S, candidate, self._touched)
                and not self._can_grow(b.S, self._base, self._candidates, exclude=[])
                and not self._set_down_on_the_way(b.S, exclude=candidate)):
            return CountThenReadOn(candidate)
        return None

    def _the_mover_amends(self, b: Board) -> Decision | None:
        """Rule 3: the mover goes on after a move counted, to another move from before."""
        last = self._last
        if last is None:
            return None
        amend = self._amendments(b.S)
        if len(amend) != 1:
            return None
        # Wait when the board may be something else still: another move from before, or the
        # next player's move under way.
        same = [c for c in last.candidates if c.move == last.move]
        if (self._can_grow(b.S, last.before, last.candidates, exclude=amend + same)
                or self._can_grow(b.S, self._base, self._candidates, exclude=[])):
            return WaitStill(AmendWhenStill(amend[0]))
        return AmendNow(amend[0])

    def _amended_beside(self, b: Board) -> Decision | None:
        """R22: the mover goes on after a move counted, to another move from before, and the next
        player's hand began beside it after the mover's had: the amendment counts, and the
        board is read in the next player's turn (rule 3 with rule 10)."""
        last = self._last
        if (last is None or self._can_grow(b.S, self._base, self._candidates, [])
                or self._set_down_on_the_way(b.S) or self._can_grow(b.S, last.before, last.candidates, [])):
            return None  # a move of this turn (a piece set down on its way), or a longer amendment, may still grow out of it
        S, base = b.S, self._base
        fits = {}
        made = next((c for c in last.candidates if c.move == last.move), None)
        if made is None:
            return None
        for a in last.candidates:
            if a.move == last.move or a.result == S or a.needs & ~last.touched or not a.may_empty & made.may_empty:
                continue  # not the mover's hand going on with the pieces of the move that counted
            involved = a.may_empty | a.may_fill
            if (S ^ a.result) & involved:
                continue  # the amendment not down as it leaves the board
            own = a.may_empty & base  # the hollows the amending hand opens on the board
            if not own & self._touched:
                continue
            after, following = self._following_amended(a)
            gone, added = after & ~S, S & ~after
            if added.bit_count() > gone.bit_count():
                continue
            for n in following:
                if (n.may_empty | n.may_fill) & involved:
                    continue
                whole = n.result == S and not n.needs & ~self._touched
                under_way = n.result != S and not gone & ~n.may_empty and not added & ~n.may_fill
                began = self._opened_first(n.may_empty & base)  # when the next player's hand began
                if (whole or under_way) and self._opened_first(own) < began < float("inf"):
                    fits[a.move] = a
                    break
        if len(fits) != 1:
            return None
        return AmendBeside(fits.popitem()[1])

    def _taken_back(self, b: Board) -> Decision | None:
        """Rule 7: the board is the position before the last move; left so, the move is undone."""
        if self._undo is not None and b.S == self._undo.result:
            return WaitStill(TakeBackWhenStill())
        return None

    def _two_hands(self, b: Board) -> Decision | None:
        """Rule 10: the mover's move is down and the next player's is made or under way beside
        it. The mover's counts, and the board is read on in the next turn; at once, unless
        another of the mover's moves may still be in the hand beside the next player's, or set
        down on its way: then once the board has been still for the settle time (R16). Two
        splits fit: which move the mover made is asked (rule 6)."""
        S = b.S
        if self._can_grow(S, self._base, self._candidates, exclude=[]) and not self._split_explains_more(S):
            return None  # the mover's own move may still be under way (rule 2)
        done = self._done_then_next(S)
        if len(done) > 1:
            return Ask(S, done)
        if not done:
            return None
        if self._applies("R16"):
            waiting = b.waiting
            if isinstance(waiting, BesideWhenStill) and waiting.candidate is done[0]:
                return KeepWaiting(waiting, b.due)  # the same split still: hands going on keep its time
            if (self._both_hands(S, exclude=done[0]) or self._set_down_on_the_way(S)
                    or self._set_down_beside_held(S)):
                return WaitStill(BesideWhenStill(done[0]))
        return CountBeside(done[0])

    def _split_explains_more(self, S: int) -> bool:
        """Whether a split of two hands, the next player's move made, explains every hollow the
        hands opened while each move of the mover's still under way leaves one unexplained (a
        hollow the next player opened and filled again: rule 10 over rule 2)."""
        touched, base = self._touched, self._base
        gone, added = base & ~S, S & ~base
        growing = [c for c in self._candidates
                   if c.result != S and not gone & ~c.may_empty and not added & ~c.may_fill]
        if not growing or not all(touched & ~c.may_empty for c in growing):
            return False
        return any(self._next_move_beside(S, c) == MADE for c in self._done_then_next(S))

    def _hands_go_on_beside_a_split(self, b: Board) -> Decision | None:
        """R16: a split into the mover's move and the next player's waited out the settle time,
        and the hands went on, leaving the mover's move as it was, to a board that no piece of
        the mover's still in the hand or set down on its way explains: the mover's move counts
        at once, and the board is read in the next turn."""
        c = b.interrupted
        if c is None or not b.beside:
            return None
        S = b.S
        if ((S ^ c.result) & (c.may_empty | c.may_fill) or self._can_grow(S, self._base, self._candidates, [])
                or self._both_hands(S, exclude=c) or self._set_down_on_the_way(S)
                or not self._read_on_after(S, c)):
            return None
        return CountBeside(c)

    def _hands_go_on_past_two(self, b: Board) -> Decision | None:
        """R21: a split of two hands waited, and before it counted the mover's hands were at their
        next move already: the board is the mover's move, then the next player's move made beside
        it, then the mover's next move made or under way. Where exactly one move of the next
        player's fits between, both count in turn, and the board is read in the turn after them."""
        c = b.interrupted
        if c is None or not b.beside:
            return None
        S = b.S
        if (self._can_grow(S, self._base, self._candidates, []) or self._both_hands(S, exclude=c)
                or self._set_down_on_the_way(S)):
            return None  # the mover's own move may still be under way, the next player's beside it
        involved = c.may_empty | c.may_fill
        _, following = self._following(c)
        # the next player's move -> (hollows the hands opened that none of the three moves
        # explains, hollows left to the mover's next move)
        between: dict[Hashable, tuple[int, int]] = {}
        for n in following:
            if (n.may_empty | n.may_fill) & involved or n.result == S or n.needs & ~self._touched:
                continue  # not the next player's move beside the mover's, with its evidence (R18)
            left = self._goes_on_after(S, c, n)
            if left is not None:
                after, _ = self._following_two(c, n)
                unexplained = self._touched & ~(c.may_empty | n.may_empty | (after ^ S))
                between[n.move] = (unexplained.bit_count(), left)
        # the reading that explains what the hands opened, then the one that leaves least for the
        # mover's next move (a whole move beats a part of a longer one, as in rule 10)
        fewest = min(between.values(), default=None)
        fits = [move for move, left in between.items() if left == fewest]
        if len(fits) != 1:
            return None
        return CountTwoBeside(c, fits[0])

    def _goes_on_after(self, S: int, c: Candidate, n: Candidate) -> int | None:
        """Whether, after the moves c and n, the board is a move of the following player's made
        (with its evidence) or under way (no more pieces down than taken up since): how many
        hollows that move changes on the board, or None."""
        after, following = self._following_two(c, n)
        gone, added = after & ~S, S & ~after
        if not gone | added or added.bit_count() > gone.bit_count():
            return None
        if any((m.result == S and not m.needs & ~self._touched)
               or (m.result != S and not gone & ~m.may_empty and not added & ~m.may_fill)
               for m in following):
            return (gone | added).bit_count()
        return None

    def _read_on_after(self, S: int, c: Candidate) -> bool:
        """Whether, after the mover's move c, the board is a move of the next player's made or
        under way: something their turn can read."""
        after, following = self._following(c)
        return any(n.result == S for n in following) or self._can_grow(S, after, following, exclude=[])

    def _fits_nothing(self, b: Board) -> Decision:
        """Rule 5: nothing fits. Signalled after the grace time, unless the hands may still be on
        their way to something legal."""
        if self._guidance is not None:
            return KeepSignalling()
        if not self._on_the_way(b.S, self._base) and not self._both_hands(b.S):
            return FitsNothing()
        return WatchOn()

    RULINGS: tuple[Ruling, ...] = (
        Ruling("rule 1", "a move is the board it leaves", _a_moves_result),
        Ruling("rule 2", "a capture with no victim seen is held", _a_capture_held),
        Ruling("R1", "what counts as the next player starting after a quick swap", _next_starts_after_held),
        Ruling("R11", "the next player starts while a move waits out the settle time", _next_starts_while_waiting),
        Ruling("rule 3", "the mover amends the last move", _the_mover_amends),
        Ruling("R22", "the mover amends with the next player's hand beside", _amended_beside),
        Ruling("rule 7", "the position before the last move: a takeback", _taken_back),
        Ruling("rule 10", "two hands at once", _two_hands),
        Ruling("R16", "a quick swap, or the mover's piece still in the hand beside the next player's",
               _hands_go_on_beside_a_split),
        Ruling("R21", "the mover's next move under way beside a split that waited", _hands_go_on_past_two),
        Ruling("rule 5", "a board that fits nothing", _fits_nothing),
        # refinements, checked where they apply
        Ruling("R2", "a die press with a capture held: the next player starts"),
        Ruling("R3", "the next player's evidence since a quick swap"),
        Ruling("R4", "the next player's kept number counts for reading their start"),
        Ruling("R5", "several captures fit a quick swap: a touch anywhere chooses"),
        Ruling("R6", "a lift alone, of a piece the mover could move too, waits"),
        Ruling("R7", "the mover going on beats a held capture on the same board"),
        Ruling("R8", "the last move taken back, or a new move"),
        Ruling("R9", "the next player's whole move, while the mover's could still grow"),
        Ruling("R10", "the swapping piece back on its hollow"),
        Ruling("R12", "one press answers a chain of quick swaps"),
        Ruling("R13", "a takeback through the board of a capture held by the player to move"),
        Ruling("R14", "a takeback that ends on a legal move's result is no capture held"),
        Ruling("R15", "the mover amends while the next player's kept number stands"),
        Ruling("R17", "a press while the mover's piece is in the hand"),
        Ruling("R18", "how two hands are told apart"),
        Ruling("R19", "a number kept over a takeback binds no one to a stone move"),
        Ruling("R20", "a press while the mover's big ball is in the hand"),
        Ruling("R23", "a board read again after a commit has been still since it last changed"),
    )

    # --- what the rulings ask of the board ----------------------------------------------------------
    def _done_then_next(self, S: int) -> list[Candidate]:
        """The mover's moves, made with their evidence, after which the board is a move of the next
        player's made or under way: two hands at once (rule 10). Where two fit, the one whose first
        hollow opened first is the mover's (the mover's hand came first)."""
        base = self._base
        changed = base ^ S
        fits = []
        if self._on_the_way_back(S):
            return []  # the mover taking the last move back (R13)
        held = {c.move for c in self._held.captures} if self._held else set()
        for c in self._candidates:
            involved = c.may_empty | c.may_fill
            if (c.result == S or c.needs & ~self._touched or not changed & ~involved
                    or not base & ~S & c.may_empty):
                continue  # not this move with another hand beside it
            if self._applies("R18"):
                # A hollow the mover's hand could have opened instead, opened before any of c's:
                # the mover's hand came first there, so c is the next player's, not the mover's.
                if self._opened_first(base & ~S & ~involved & ~self._next_players) < self._opened_first(c.may_empty):
                    continue
                # A capture held as a quick swap whose victim was seen gone only after the other
                # hand had begun, where that hand's move takes the piece the swap put there: that
                # lift is the next player's evidence, not the swap's (R3)
                if (c.move in held and self._next_takes(S, c)
                        and self._opened_last(c.needs) > self._opened_first(~involved)):
                    continue
            level = self._next_move_beside(S, c)
            if level:
                fits.append((level, c))
        # a split into two whole moves beats one whose second move is still under way
        best = max((level for level, _ in fits), default=0)
        fits = [c for level, c in fits if level == best]
        if len(fits) > 1:
            earliest = min(self._opened_first(c.may_empty) for c in fits)
            first = [c for c in fits if self._opened_first(c.may_empty) == earliest]
            if len({c.result for c in first}) == 1:
                fits = first
        return fits

    def _opened_first(self, mask: int) -> float:
        """When the first of `mask`'s hollows opened since the baseline (inf: none did)."""
        return min((at for bit, at in self._opened_at.items() if bit & mask), default=float("inf"))

    def _opened_last(self, mask: int) -> float:
        """When the last of `mask`'s hollows first opened since the baseline (-inf: none did)."""
        return max((at for bit, at in self._opened_at.items() if bit & mask), default=float("-inf"))

    def _next_takes(self, S: int, c: Candidate) -> bool:
        """Whether, after c, the board is a move of the next player's made or under way that
        empties c's capture target (takes the piece c put there)."""
        after, following = self._following(c)
        gone, added = after & ~S, S & ~after
        return any(n.may_empty & c.needs and (n.result == S or (not gone & ~n.may_empty and not added & ~n.may_fill))
                   for n in following)

    def _as_the_capture_leaves(self, S: int, c: Candidate) -> int:
        """The board S, after the quick swap c, with c's hollows as c leaves them, where the
        next player's moves explain it only so (R18); else S."""
        after, following = self._following(c)

        def explained(board: int) -> bool:
            gone, added = after & ~board, board & ~after
            return board == after or any(
                n.result == board or (not gone & ~n.may_empty and not added & ~n.may_fill) for n in following)

        mine = c.may_empty | c.may_fill
        finished = (S & ~mine) | (after & mine)
        return finished if not explained(S) and explained(finished) else S

    def _next_move_beside(self, S: int, c: Candidate) -> int:
        """Whether, after the mover's move c, the board is a move of the next player's MADE (with
        its evidence) or UNDER_WAY (else 0), on hollows c does not involve: the changed hollows
        split between the two moves (rule 10)."""
        involved = c.may_empty | c.may_fill
        after, following = self._following(c)
        gone, added = after & ~S, S & ~after
        evidence = self._touched & ~involved
        if added.bit_count() > gone.bit_count() + 1:
            return 0  # hands bring no piece from nowhere (one: a waiting ball put back)
        # the next player's hands have not reached c's hollows yet
        apart = not (S ^ after) & involved
        found = 0
        for n in following:
            if (n.may_empty | n.may_fill) & involved:
                # The next player moving the piece c put down, or through c's hollows, is one
                # player's moves in turn, never two hands at once (R18): under way only while
                # their hands are still elsewhere.
                if apart and n.result != S and not gone & ~n.may_empty and not added & ~n.may_fill \
                        and added.bit_count() <= gone.bit_count() and self._applies("R18"):
                    found = UNDER_WAY
                continue
            if n.result == S:
                if not n.needs & ~evidence:
                    return MADE
            elif not gone & ~n.may_empty and not added & ~n.may_fill and added.bit_count() <= gone.bit_count():
                found = UNDER_WAY
        return found

    def _both_hands(self, S: int, exclude: Candidate | None = None) -> bool:
        """Whether the board is on the way to a move of the mover's (other than `exclude`) and,
        beside it, to one of the next player's after it: both hands still at work (rule 10)."""
        base = self._base
        gone, added = base & ~S, S & ~base
        if self._on_the_way_back(S):
            return False  # the mover taking the last move back (R13)
        if not gone & self._next_players and (
                not self._applies("R6") or any(not gone & ~c.may_empty for c in self._candidates)):
            # No hollow opened that only the next player's hand opens, and one move of the
            # mover's lifts all the pieces lifted: one hand may be doing it all. More pieces
            # lifted than that are two hands, even where the mover could move each (R6).
            return False
        for c in self._candidates:
            if c is exclude or not gone & c.may_empty:
                continue
            if exclude is not None and not (c.result ^ S) & (c.may_empty | c.may_fill):
                continue  # put down already, not in the hand: another split, which R18 tells apart
            rest_gone, rest_added = gone & ~c.may_empty, added & ~c.may_fill
            if not rest_gone | rest_added:
                continue
            _, following = self._following(c)
            if any(not rest_gone & ~n.may_empty and not rest_added & ~n.may_fill for n in following):
                return True
        return False

    def _set_down_on_the_way(self, S: int, exclude: Candidate | None = None) -> bool:
        """Whether the board is a move of the mover's (other than `exclude`) under way with one
        piece set down for a moment next to its path, no more pieces down than were taken up
        (rule 2)."""
        base = self._base
        gone, added = base & ~S, S & ~base
        if not gone or added.bit_count() > gone.bit_count():
            return False
        for c in self._candidates:
            if c is exclude or c.result == S or gone & ~c.may_empty:
                continue
            stray = added & ~c.may_fill
            if stray and not stray & (stray - 1) and stray & self._near(c.may_empty | c.may_fill):
                return True
        return False

    def _set_down_beside_held(self, S: int) -> bool:
        """Whether the board is a capture held (rule 2) and, after it, a move of the next player's
        under way with one of their pieces set down for a moment next to its way (R16)."""
        if self._held is None:
            return False
        for c in self._held.captures:
            after, following = self._following(c)
            gone, added = after & ~S, S & ~after
            if not gone or added.bit_count() > gone.bit_count():
                continue
            for n in following:
                stray = added & ~n.may_fill
                if (not gone & ~n.may_empty and stray and not stray & (stray - 1)
                        and stray & self._near(n.may_empty | n.may_fill)):
                    return True
        return False

    def _near(self, mask: int) -> int:
        """The cells next to any of `mask`'s."""
        near = 0
        while mask:
            bit = mask & -mask
            mask ^= bit
            near |= self._near_of[bit]
        return near & ~mask

    def _next_player_started(self, S: int, held: Candidate, evidence: int | None = None) -> int:
        """Whether the board is, after the held capture (or a move waiting out the settle
        time), the next player's move MADE (with its `evidence`, default what was seen empty
        since the swap, R3), or UNDER_WAY while nothing of the mover's own could still come out
        of it; 0 when neither (R1)."""
        after, following = self._following(held)
        if evidence is None:  # the hollows the next player's hands opened since the swap (R3)
            evidence = self._held.since.opened if self._held and self._applies("R3") else 0
        if any(c.result == S and not c.needs & ~evidence for c in following):
            return MADE
        # Under way (or made with no evidence: their own piece in the hand, or quick swap):
        # with no more pieces put down than were taken up (hands bring no piece from nowhere:
        # a board put back as it was is no start), and not a mover's hand still busy with a
        # move of this turn.
        if ((S & ~after).bit_count() <= (after & ~S).bit_count()
                and not self._can_grow(S, self._base, self._candidates, exclude=[])
                and (self._can_grow(S, after, following, []) or any(c.result == S for c in following))):
            return UNDER_WAY
        return 0

    def _following(self, held: Candidate) -> tuple[int, list[Candidate]]:
        """The board after a held capture, and the next player's moves from there (kept for
        the turn: every frame of the next player's hands asks for them)."""
        return self._after_moves(id(held), [held.move])

    def _following_two(self, first: Candidate, then: Candidate) -> tuple[int, list[Candidate]]:
        """The board after the mover's move and the next player's, and the moves of the player
        after them (as `_following`, one move deeper)."""
        return self._after_moves((id(first), then.move), [first.move, then.move])

    def _following_amended(self, amend: Candidate) -> tuple[int, list[Candidate]]:
        """The board after an amendment of the last move, and the next player's moves from there."""
        last = self.game.pop()
        try:
            return self._after_moves(("amended", id(amend)), [amend.move], kept=False)
        finally:
            self.game.push(last)

    def _after_moves(self, key: Hashable, moves: list, kept: bool = True) -> tuple[int, list[Candidate]]:
        """The board after `moves` played from the position, and the moves of the player to move
        then, cached for the turn under `key`. With `kept`, the number kept for that player counts
        for their moves too (R4), read only: a game these moves end keeps it all the same."""
        known = self._following_cache.get(key)
        if known is None:
            for move in moves:
                self.game.push(move)
            try:
                after = self._mask(self.game.occupied())
                numbers = self.kept_rolls[self.game.turn] if kept else ()
                roll = numbers[0] if numbers and self.game.can_roll() and self._applies("R4") else None
                free = roll is not None and self.game.turn not in self._pressed_early
                _, following = self._index(self._moves_for(roll, free), after)
            finally:
                for _ in moves:
                    self.game.pop()
            known = self._following_cache[key] = (after, following)
        return known

    def _amendments(self, S: int) -> list[Candidate]:
        """The other moves from the previous position whose result the board is (rule 3)."""
        last = self._last
        if last is None:
            return []
        # A capture whose target stays occupied needs that target touched since the commit:
        # the next player lifting the piece just moved is no amendment.
        return [c for c in last.candidates if c.result == S and c.move != last.move and not c.needs & ~last.touched]

    def _can_grow(self, S: int, base: int, candidates: list[Candidate], exclude: list[Candidate]) -> bool:
        """Whether a move other than `exclude` could still come out of the frame S."""
        gone, added = base & ~S, S & ~base
        excluded = {id(c) for c in exclude}
        return any(
            id(c) not in excluded and c.result != S and not gone & ~c.may_empty and not added & ~c.may_fill
            for c in candidates
        )

    def _on_the_way_back(self, S: int) -> bool:
        """Whether the board could still become the position before the last move: only hollows
        that move involved are empty, only hollows it emptied are filled (rule 7 under way, R13)."""
        undo = self._undo
        if undo is None or S == undo.result or not self._applies("R13"):
            return False
        gone, added = self._base & ~S, S & ~self._base
        return not gone & ~undo.may_empty and not added & ~undo.may_fill

    def _on_the_way(self, S: int, base: int) -> bool:
        if self._can_grow(S, base, self._candidates, exclude=[]):
            return True
        if self._last is not None:
            last = self._last
            # Back on the previous position is on the way to every move from it; without a
            # takeback to wait for, it must not hide the disagreement for ever.
            if S != last.before and self._can_grow(S, last.before, last.candidates, exclude=[]):
                return True
        undo = self._undo
        if undo is not None:
            gone, added = base & ~S, S & ~base
            return not gone & ~undo.may_empty and not added & ~undo.may_fill
        return False
