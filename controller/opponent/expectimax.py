"""Expectimax for a game with a die, with Star1 pruning at the chance nodes.

A turn is a decision (a move without the die, or ROLL) over a chance node (the six faces,
each 1/6) over a decision (the moves the roll allows); each turn is one ply of depth. Star1:
every value lies in [-WIN, WIN], so after some faces are searched the chance node's value is
known to lie between their sum plus the rest at -WIN and at +WIN; a node whose bounds leave
the window (alpha, beta) is cut, and each face is searched in the window that could still
move the node across alpha or beta. Decisions have a transposition table and search the
table's best option first, then captures.
"""

from __future__ import annotations

from collections.abc import Hashable

from .rootsearch import RootSearch
from .search_parts import INFINITY, ROLL, WIN, Result, end_value, enter, kind_of, static_value, tactical

FACES = (1, 2, 3, 4, 5, 6)


class Expectimax(RootSearch):
    def run(self, roll: int | None = None) -> Result:
        game = self.game
        if game.outcome() is not None:
            return Result(None, end_value(game, 0) or 0.0, 0, 0, True)
        if roll is None:
            options = self.ordered(self.options(), None)
            return self.deepen(options, self.option_value)
        moves = self.ordered(game.turn_moves(roll), None)
        if not moves:
            return Result(None, 0.0, 0, 0, True)
        return self.deepen(moves, self.option_value)

    def options(self) -> list[Hashable]:
        """The turn's first decision: the moves without the die, and ROLL when the die may roll."""
        options = list(self.game.turn_moves(None))
        if self.game.can_roll():
            options.append(ROLL)
        return options

    def ordered(self, options: list, best: Hashable | None) -> list:
        """The table's best option first, then captures, then the roll, then quiet moves."""
        def rank(option) -> int:
            if option == best:
                return 1 << 30
            return 25 if option == ROLL else tactical(option)

        return sorted(options, key=rank, reverse=True)

    def option_value(self, option: Hashable, depth: int, alpha: float, beta: float) -> float:
        """The value of taking `option` for the player to move: ROLL leads to the chance node
        of this turn, a move to the opponent's turn one ply down."""
        if option == ROLL:
            return self.chance(depth, alpha, beta, 0)
        self.game.push(option)
        value = -self.decision(depth - 1, -beta, -alpha, 1)
        self.game.pop()
        return value

    def decision(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        """A turn's start (before any roll), valued for the player to move."""
        settled, key, entry = enter(self, depth, alpha, beta, ply)
        if settled is not None:
            return settled
        game = self.game
        start_alpha, best, best_option = alpha, -INFINITY, None
        for option in self.ordered(self.options(), entry[3] if entry else None):
            if option == ROLL:
                value = self.chance(depth, alpha, beta, ply)
            else:
                game.push(option)
                value = -self.decision(depth - 1, -beta, -alpha, ply + 1)
                game.pop()
            if value > best:
                best, best_option = value, option
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
        self.table.put(key, depth, best, kind_of(best, start_alpha, beta), best_option)
        return best

    def chance(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The die rolled: the mean over the faces of the best move each allows (Star1)."""
        total, left = 0.0, len(FACES)
        for face in FACES:
            left -= 1
            # the window this face must be searched in to move the mean across alpha or beta
            low = max(-WIN, len(FACES) * alpha - total - left * WIN)
            high = min(WIN, len(FACES) * beta - total + left * WIN)
            total += self.after_roll(face, depth, low, high, ply)
            if (total + left * WIN) / len(FACES) <= alpha:  # even the best rest cannot lift it
                return (total + left * WIN) / len(FACES)
            if (total - left * WIN) / len(FACES) >= beta:  # even the worst rest cannot sink it
                return (total - left * WIN) / len(FACES)
        return total / len(FACES)

    def after_roll(self, face: int, depth: int, alpha: float, beta: float, ply: int) -> float:
        game = self.game
        self.budget.tick()
        best = -INFINITY
        for move in self.ordered(game.turn_moves(face), None):
            game.push(move)
            value = -self.decision(depth - 1, -beta, -alpha, ply + 1)
            game.pop()
            if value > best:
                best = value
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
        return best if best > -INFINITY else static_value(game)
