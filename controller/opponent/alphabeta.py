"""Negamax with principal-variation search, for the games without a die.

Iterative deepening, a transposition table keyed by the game's position_key(), and move
ordering: the table's best move, then push-offs and pushes, then the killer moves of the ply,
then the history of moves that cut off before. When the limits ask for it (Limits.repetition,
the levels' way), a position met again, in the game so far or on the line searched, scores as a
draw: a line that goes round in circles wins nothing, so a player ahead looks for progress
instead (a match between engines that shuffle would otherwise end only at its move cap). The
rules have no repetition draw, so the review and the hint search without it: a position seen
before is worth what it is worth.
"""

from __future__ import annotations

from collections.abc import Hashable

from .rootsearch import RootSearch
from .search_parts import BOUND, EXACT, INFINITY, LOWER, PLY_COST, UPPER, WIN, Result, end_value, tactical

EPSILON = 1e-6  # the width of a null window over float values


class AlphaBeta(RootSearch):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.killers: dict[int, list[Hashable]] = {}
        self.history: dict[Hashable, int] = {}
        self.path: set | None = set()  # the positions met so far: the game's, then the line searched

    def run(self) -> Result:
        moves = self.ordered(self.game.legal_moves(), None, 0)
        if not moves:
            return Result(None, end_value(self.game, 0) or 0.0, 0, 0, True)
        self.path = self.positions_so_far() if self.limits.repetition else None
        return self.deepen(moves, self.root_value)

    def positions_so_far(self) -> set:
        """The keys of every position of the game so far, this one included (none without keys)."""
        game = self.game
        if game.position_key() is None:
            return set()
        keys, taken = {game.position_key()}, []
        while game.move_stack:
            taken.append(game.pop())
            keys.add(game.position_key())
        for move in reversed(taken):
            game.push(move)
        return keys

    def root_value(self, move: Hashable, depth: int, alpha: float, beta: float) -> float:
        self.game.push(move)
        value = -self.search(depth - 1, -beta, -alpha, 1)
        self.game.pop()
        return value

    def ordered(self, moves: list, best: Hashable | None, ply: int) -> list:
        killers = getattr(self, "killers", {}).get(ply, ())
        history = getattr(self, "history", {})
        history_get = history.get

        def rank(move) -> int:
            if move == best:
                return 1 << 40
            score = tactical(move) * (1 << 24) + history_get(move, 0)
            return score + (1 << 20) if move in killers else score

        moves.sort(key=rank, reverse=True)
        return moves

    def search(self, depth: int, alpha: float, beta: float, ply: int) -> float:
        # what `enter` does, written out: this runs at every node
        game, budget = self.game, self.budget
        budget.nodes += 1
        if budget.nodes >= budget.max_nodes or budget.nodes % budget.check_every == 0:
            budget.nodes -= 1
            budget.tick()
        outcome = game.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return 0.0
            won = WIN - ply * PLY_COST
            return won if outcome.winner == game.turn else -won
        key = game.position_key()
        path = self.path
        if path is not None and key in path:
            return 0.0
        if depth <= 0:
            value = game.evaluate(game.turn)
            return -BOUND if value < -BOUND else BOUND if value > BOUND else value
        entry = self.table.get(key)
        if entry is not None and entry[0] >= depth:
            _, value, kind, _ = entry
            if kind == EXACT or (kind == LOWER and value >= beta) or (kind == UPPER and value <= alpha):
                return value
        moves = self.ordered(game.legal_moves(), entry[3] if entry else None, ply)
        start_alpha, best, best_move = alpha, -INFINITY, None
        push, pop, search = game.push, game.pop, self.search
        if key is not None and path is not None:
            path.add(key)
        for index, move in enumerate(moves):
            push(move)
            if index == 0:
                value = -search(depth - 1, -beta, -alpha, ply + 1)
            else:  # the first move is expected best: prove the others worse with a null window
                value = -search(depth - 1, -alpha - EPSILON, -alpha, ply + 1)
                if alpha < value < beta:
                    value = -search(depth - 1, -beta, -alpha, ply + 1)
            pop()
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
        if path is not None:
            path.discard(key)
        self.table.put(key, depth, best, UPPER if best <= start_alpha else LOWER if best >= beta else EXACT, best_move)
        return best
