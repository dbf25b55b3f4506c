"""Negamax with principal-variation search, for the games without a die.

Iterative deepening, a transposition table keyed by the game's position_key(), and move
ordering: the table's best move, then push-offs and pushes, then the killer moves of the ply,
then the history of moves that cut off before.
"""

from __future__ import annotations

from collections.abc import Hashable

from .rootsearch import RootSearch
from .search import INFINITY, Result, end_value, enter, kind_of, tactical

EPSILON = 1e-6  # the width of a null window over float values


class AlphaBeta(RootSearch):
    def run(self) -> Result:
        moves = self.ordered(self.game.legal_moves(), None, 0)
        if not moves:
            return Result(None, end_value(self.game, 0) or 0.0, 0, 0, True)
        self.killers: dict[int, list[Hashable]] = {}
        self.history: dict[Hashable, int] = {}
        return self.deepen(moves, self.root_value)

    def root_value(self, move: Hashable, depth: int, alpha: float, beta: float) -> float:
        self.game.push(move)
        value = -self.search(depth - 1, -beta, -alpha, 1)
        self.game.pop()
        return value

    def ordered(self, moves: list, best: Hashable | None, ply: int) -> list:
        killers = getattr(self, "killers", {}).get(ply, ())
        history = getattr(self, "history", {})

        def rank(move) -> int:
            if move == best:
                return 1 << 40
            return tactical(move) * (1 << 24) + (1 << 20) * (move in killers) + history.get(move, 0)

        return sorted(moves, key=rank, reverse=True)

    def search(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        settled, key, entry = enter(self, depth, alpha, beta, ply)
        if settled is not None:
            return settled
        game = self.game
        moves = self.ordered(game.legal_moves(), entry[3] if entry else None, ply)
        start_alpha, best, best_move = alpha, -INFINITY, None
        for index, move in enumerate(moves):
            game.push(move)
            if index == 0:
                value = -self.search(depth - 1, -beta, -alpha, ply + 1)
            else:  # the first move is expected best: prove the others worse with a null window
                value = -self.search(depth - 1, -alpha - EPSILON, -alpha, ply + 1)
                if alpha < value < beta:
                    value = -self.search(depth - 1, -beta, -alpha, ply + 1)
            game.pop()
            if value > best:
                best, best_move = value, move
            if value > alpha:
                alpha = value
            if alpha >= beta:
                if not tactical(move):
                    killers = self.killers.setdefault(ply, [])
                    if move not in killers:
                        killers.insert(0, move)
                        del killers[2:]
                    self.history[move] = self.history.get(move, 0) + depth * depth
                break
        self.table.put(key, depth, best, kind_of(best, start_alpha, beta), best_move)
        return best
