"""The review checked by a judge of another kind: ladder games reviewed, and every move the review
marks searched again, deeper, by a plain material search written here for the check alone (it
shares nothing with controller/opponent but the Game interface).

Usage (with a Python that has reedboard's packages; the code measured is this checkout's):
  python bench/review_check.py                     # 2 ladder games a game (a few minutes)
  python bench/review_check.py --games 4 --jobs 2  # more games, two processes
  python bench/review_check.py --game abalone --nodes 4000 --judge-depth 4

The judge: a negamax with alpha-beta to a fixed depth (Abalone and Off Board, 4 plies) or an
expectimax over whole turns (Big Balls, 3 turns: its big-ball moves, and the roll as the mean over
the six faces of the best stone move), valuing a leaf by material alone (marbles or points
scored, stones on the board) and an ended game as +-100. A marked move is confirmed when the
judge, from the mover's side, finds the better move the review named at least half a unit of
material (a marble, a point, a stone, or half a chance in a hundred of the game) above the move
played; where the review says rolling was the mistake, the roll's worth is the judge's mean over
the faces. With a die, where material leaves the two choices even (a race to a7, no stone taken
within the judge's turns), the judge plays whole games out from each by a plain policy of its own
(Playouts, --playouts, the same dice for both): confirmed when the better move's mean result is
above the played one's by more than twice its standard error. Printed, per game and in all:
  - blunders and mistakes marked, and how many the judge confirmed;
  - moves left unassessed (never weighed against another choice);
  - moves that hand the opponent a win at once although another move did not, and how many of
    them the review marked;
  - the curve's lag-1 autocorrelation: of the successive changes of the first player's chance
    where the game is open (both ends between 0.1 and 0.9), per game and pooled (noise alone,
    independent from ply to ply, gives -0.5), and its side-to-move swing: the mean change after
    the first player's moves less the mean change after the second's (a curve that favours the
    side to move swings by about twice that tempo's worth);
  - the hint against the review: positions where the move the hint gives (worker.Thinker's
    limits) is marked by the review as a mistake or a blunder.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
import types
from dataclasses import dataclass, field
from pathlib import Path

if __name__ == "__main__":  # reedboard from this checkout, installed or not (as bench/ladder.py)
    _package = types.ModuleType("reedboard")
    _package.__path__ = [str(Path(__file__).resolve().parents[1])]
    sys.modules.setdefault("reedboard", _package)

from reedboard.controller.games import GAMES
from reedboard.controller.opponent.match import MAX_MOVES, drawn_start, play_one
from reedboard.controller.opponent import review as reviewing

WON = 100.0  # the judge's value of a won game
FACES = range(1, 7)
CONFIRMED = 0.5  # units of material the judge must find between the better move and the move played


# --- the judge ------------------------------------------------------------------------------------------
def material(game, player: str) -> float:
    """Marbles or points scored (the game's score), else stones on the board: `player`'s less the other's."""
    other = game.other(player)
    score = game.position_data().get("score")
    if score:
        return float(score[player] - score[other])
    mine = theirs = 0
    for code in game.pieces().values():
        if code and code != "ball":
            if code[0] == player[0].upper():
                mine += 1
            elif code[0] == other[0].upper():
                theirs += 1
    return float(mine - theirs)


def ended(game, player: str) -> float | None:
    outcome = game.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return 0.0
    return WON if outcome.winner == player else -WON


def _forcing(move) -> int:
    return 4 * bool(getattr(move, "off", False) or getattr(move, "points", 0)) + getattr(move, "pushed", 0) \
        + 2 * bool(getattr(move, "capture", False))


class Judge:
    """A plain material search to a fixed depth, of its own: no table, no tempo, no history."""

    def __init__(self, depth: int, turns: int) -> None:
        self.depth, self.turns = depth, turns
        self.nodes = 0

    def value(self, game, player: str) -> float:
        """The position's worth for `player`, whoever is to move."""
        if game.uses_die:
            v = self.turn(game, self.turns)
        else:
            v = self.negamax(game, self.depth, -math.inf, math.inf)
        return v if game.turn == player else -v

    def rolled(self, game, player: str) -> float:
        """The worth for `player` (to move) of rolling now: the mean over the faces of their best stone
        move, each followed by as many turns as a move played now is valued with (`value` after it),
        so that the roll and a big ball's move are seen as far ahead."""
        v = self.roll(game, self.turns + 1)
        return v if game.turn == player else -v

    def negamax(self, game, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        end = ended(game, game.turn)
        if end is not None:
            return end + (depth if end > 0 else -depth if end < 0 else 0)  # a nearer win is better
        if depth == 0:
            return material(game, game.turn)
        best = -math.inf
        for move in sorted(game.legal_moves(), key=_forcing, reverse=True):
            game.push(move)
            value = -self.negamax(game, depth - 1, -beta, -alpha)
            game.pop()
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best if best > -math.inf else material(game, game.turn)

    def turn(self, game, turns: int) -> float:
        """A turn of a game with a die, for the player to move: the best of its moves without the
        die and of rolling."""
        self.nodes += 1
        end = ended(game, game.turn)
        if end is not None:
            return end
        if turns == 0:
            return material(game, game.turn)
        options = []
        for move in game.turn_moves(None):
            game.push(move)
            options.append(-self.turn(game, turns - 1))
            game.pop()
        if game.can_roll():
            options.append(self.roll(game, turns))
        return max(options) if options else material(game, game.turn)

    def roll(self, game, turns: int) -> float:
        total = 0.0
        for face in FACES:
            best = -math.inf
            for move in game.turn_moves(face):
                game.push(move)
                best = max(best, -self.turn(game, turns - 1))
                game.pop()
            total += best if best > -math.inf else material(game, game.turn)
        return total / len(FACES)


class Playouts:
    """The judge's second look in a game with a die, where material cannot tell two choices apart (a
    race to a7 with no stone taken): whole games played out from each by a plain policy of its own,
    with the same dice for both, and their mean results compared. The policy: before the roll, a
    big ball's move that takes an opponent's stone (the most advanced), else the roll; after it, a
    step onto a7, else taking an opponent's stone, else stepping up, where no stone or big ball of
    the opponent can take it next, the most advanced stone, never taking one's own while another
    move is left."""

    def __init__(self, games: int) -> None:
        self.games = games

    def results(self, game, player: str, first) -> list[float]:
        """`player`'s result (1, 1/2, 0) of each playout after `first` (a move, or ROLL: a face drawn)."""
        import random

        out = []
        for n in range(self.games):
            rng = random.Random(n)
            g = game.copy()
            if first == reviewing.ROLL:
                g.push(self.after_roll(g, rng.randint(1, 6)))
            else:
                g.push(first)
            for _ in range(MAX_MOVES):
                if g.outcome() is not None:
                    break
                g.push(self.choice(g, rng))
            outcome = g.outcome()
            out.append(0.5 if outcome is None or outcome.winner is None else float(outcome.winner == player))
        return out

    def choice(self, g, rng):
        pieces, mine = g.pieces(), g.turn[0].upper()
        takes = [m for m in g.turn_moves(None) if self.taken(g, m, pieces, mine) == "theirs"]
        if takes or not g.can_roll():
            options = takes or g.turn_moves(None)
            return max(options, key=lambda m: self.row(self.target(g, m)))
        return self.after_roll(g, rng.randint(1, 6))

    def after_roll(self, g, face: int):
        pieces, mine = g.pieces(), g.turn[0].upper()
        moves = g.turn_moves(face)
        for m in moves:
            if self.target(g, m) == "a7":
                return m
        theirs = [m for m in moves if self.taken(g, m, pieces, mine) == "theirs"]
        if theirs:
            return max(theirs, key=lambda m: self.row(self.target(g, m)))
        fair = [m for m in moves if self.taken(g, m, pieces, mine) != "mine"] or moves
        return max(fair, key=lambda m: (self.row(self.target(g, m)) > self.row(next(iter(g.footprint(m).empties))),
                                        self.safe(self.target(g, m), pieces, mine), self.row(self.target(g, m))))

    @staticmethod
    def safe(cell: str, pieces, mine) -> bool:
        """Whether no opponent's stone can step onto `cell` next turn (stones step nw, ne, w or e)
        and no big ball can roll onto it (from the hollow above it or above to its left)."""
        column, row = ord(cell[0]) - ord("a"), int(cell[1:])
        for di, dr in ((-1, 1), (0, 1), (-1, 0), (1, 0)):  # the stone that would step here stands at -(di, dr)
            code = pieces.get(f"{chr(ord('a') + column - di)}{row - dr}", "")
            if code and code != "ball" and code[0] != mine:
                return False
        return not any(pieces.get(f"{chr(ord('a') + column + dc)}{row + 1}") == "ball" for dc in (0, -1))

    @staticmethod
    def target(g, move) -> str:
        footprint = g.footprint(move)
        return next(iter(footprint.captures or footprint.fills))

    @staticmethod
    def taken(g, move, pieces, mine) -> str | None:
        code = pieces.get(Playouts.target(g, move), "")
        return None if not code or code == "ball" else "mine" if code[0] == mine else "theirs"

    @staticmethod
    def row(cell: str) -> int:
        return int(cell[1:])


def paired_gain(better: list[float], played: list[float]) -> tuple[float, float]:
    """The mean gain of `better` over `played` (the same dice, game by game) and its standard error."""
    gains = [b - p for b, p in zip(better, played)]
    mean = statistics.fmean(gains)
    return mean, (statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.inf)


# --- one game ---------------------------------------------------------------------------------------------
@dataclass
class Found:
    name: str
    index: int
    plies: int = 0
    marked: dict = field(default_factory=lambda: {"blunder": [0, 0], "mistake": [0, 0]})  # mark -> [marked, confirmed]
    unassessed: int = 0
    handed: list = field(default_factory=lambda: [0, 0])  # [moves that hand a win over at once, of them marked]
    changes: list = field(default_factory=list)  # the first player's chance, ply by ply (open plies only)
    swings: list = field(default_factory=lambda: [[], []])  # the open changes after the first player's moves, the second's
    autocorrelation: float | None = None
    hints: list = field(default_factory=lambda: [0, 0])  # [positions asked, hint marked by the review]
    seconds: float = 0.0
    examples: list = field(default_factory=list)


OPEN = (0.1, 0.9)  # the first player's chance while the game is open


def open_changes(points: list[float]) -> list[float | None]:
    """The successive changes of the first player's chance, None where either end lies outside
    OPEN (a decided game moves little, and only by the search's noise)."""
    low, high = OPEN
    return [b - a if low <= a <= high and low <= b <= high else None for a, b in zip(points, points[1:])]


def lag1(series: list[list[float | None]]) -> float | None:
    """The lag-1 autocorrelation of changes (several series pooled; pairs with a None left out):
    near 0 for a curve that moves only when the game does, negative for one that zigzags."""
    flat = [c for s in series for c in s if c is not None]
    if len(flat) < 8:
        return None
    mean = statistics.fmean(flat)
    squares = sum((c - mean) ** 2 for c in flat)
    pairs = sum((a - mean) * (b - mean) for s in series for a, b in zip(s, s[1:]) if a is not None and b is not None)
    return pairs / squares if squares else 0.0


def wins_at_once(game) -> bool:
    """Whether the player to move has a sure win at once: a move without the die that wins, or
    (with a die) a winning stone move for every face."""
    player = game.turn
    for move in game.turn_moves(None) if game.uses_die else game.legal_moves():
        game.push(move)
        won = ended(game, player)
        game.pop()
        if won == WON:
            return True
    if game.uses_die and game.can_roll():
        for face in FACES:
            if not any(_wins(game, move, player) for move in game.turn_moves(face)):
                return False
        return True
    return False


def _wins(game, move, player) -> bool:
    game.push(move)
    won = ended(game, player) == WON
    game.pop()
    return won


def hands_over(game, move) -> bool:
    """Whether `move` lets the opponent win at once while some other choice of the same turn does not."""
    game.push(move)
    handed = game.outcome() is None and wins_at_once(game)
    game.pop()
    if not handed:
        return False
    roll = game.roll_of(move) if game.uses_die else None
    choices = game.turn_moves(roll) if game.uses_die else game.legal_moves()
    for other in choices:
        game.push(other)
        safe = game.outcome() is not None or not wins_at_once(game)
        game.pop()
        if safe:
            return True
    return False


def hint_move(game, roll):
    """The move a player asking for a hint is shown (the worker's own limits for a hint, where it
    has them; else the top level's node budget, as the hint searched before)."""
    import random

    from reedboard.controller.opponent import worker
    from reedboard.controller.opponent.search import choose

    limits_of = getattr(worker, "hint_limits", None)
    if limits_of is not None:
        limits, seed = limits_of(game.name), reviewing.SEED
    else:
        from reedboard.controller.opponent.levels import level
        limits, seed = level(8).limits(game.name), 1
    return choose(game, limits, roll=roll, rng=random.Random(seed)).move


def check_game(task: tuple) -> Found:
    name, upper, index, seed, opening, nodes, depth, turns, every, rollouts = task
    playouts = Playouts(rollouts) if rollouts else None
    started = time.process_time()
    played = play_one(name, (f"computer:{upper}", f"computer:{upper - 1}"), index, seed, MAX_MOVES,
                      opening_plies=opening)
    start = drawn_start(name, seed, index)
    moves = list(played.record)
    review = reviewing.review(start, moves, nodes)
    found = Found(name, index, plies=len(moves))
    judge = Judge(depth, turns)
    game = start.copy()
    search = reviewing.Searcher(nodes, None)
    for ply, (text, point) in enumerate(zip(moves, review.moves), 1):
        move = game.parse_move(text)
        mover = game.turn
        roll = game.roll_of(move) if game.uses_die else None
        # unassessed: never weighed against another choice (the review says so where it can; the
        # review before it said nothing of a move without the die whose position it would have rolled in)
        compared = getattr(point, "compared", "unknown")
        if compared == "unknown":
            compared = not (game.uses_die and roll is None and search.best(game)[0] == reviewing.ROLL)
        if not compared:
            found.unassessed += 1
        if hands_over(game, move):
            found.handed[0] += 1
            found.handed[1] += point.mark is not None
        if point.mark is not None and point.better is not None:
            found.marked[point.mark][0] += 1
            played_value = judge.rolled(game, mover) if getattr(point, "rolled", False) else None
            game.push(move)
            if played_value is None:
                played_value = judge.value(game, mover)
            game.pop()
            if point.better == "roll":
                better_value = judge.rolled(game, mover)
            else:
                game_before = game.copy()
                better = game_before.parse_move(point.better)
                if game.uses_die and roll is not None and game.roll_of(better) is None:
                    played_value = judge.rolled(game, mover)  # the roll was the mistake: its worth before the faces
                game.push(better)
                better_value = judge.value(game, mover)
                game.pop()
            confirmed = better_value - played_value >= CONFIRMED
            if not confirmed and game.uses_die and playouts and abs(better_value - played_value) < CONFIRMED:
                # material cannot tell them apart: play both out, with the same dice
                rolled_instead = getattr(point, "rolled", False) or (roll is not None and point.better != "roll"
                                                                       and game.roll_of(game.parse_move(point.better)) is None)
                mine = playouts.results(game, mover, reviewing.ROLL if rolled_instead else move)
                theirs = playouts.results(game, mover, reviewing.ROLL if point.better == "roll"
                                          else game.parse_move(point.better))
                gain, error = paired_gain(theirs, mine)
                confirmed = gain > 2 * error
                better_value, played_value = 100 * statistics.fmean(theirs), 100 * statistics.fmean(mine)
            if confirmed:
                found.marked[point.mark][1] += 1
            elif len(found.examples) < 3:
                found.examples.append(f"{name} #{index} ply {ply} {text} ({point.mark}, better {point.better}):"
                                      f" judge {played_value:+.2f} played, {better_value:+.2f} better")
        if every and ply % every == 0 and game.outcome() is None:
            hinted = hint_move(game, None)
            if hinted is not None and hinted != reviewing.ROLL:
                found.hints[0] += 1
                found.hints[1] += hint_marked(search, game, hinted)
        game.push(move)
    found.changes = open_changes(review.points())
    found.autocorrelation = lag1([found.changes])
    for ply, change in enumerate(found.changes):
        if change is not None:
            found.swings[ply % 2].append(change)
    found.seconds = time.process_time() - started
    return found


def hint_marked(search, game, hinted) -> bool:
    """Whether the review marks `hinted` (a move without the die) in `game`'s position: its loss
    against the review search's own choice there."""
    mover = game.turn
    best = search.best(game)[0]
    if best is None or best == hinted:
        return False
    game.push(hinted)
    mine = search.chance_of(game, mover)
    game.pop()
    if best == reviewing.ROLL:
        return False  # the hint, asked before the roll, is the roll's search: compared at the roll
    game.push(best)
    theirs = search.chance_of(game, mover)
    game.pop()
    return theirs - mine >= reviewing.MISTAKE


# --- the run ---------------------------------------------------------------------------------------------
def tasks(names, games: int, seed: int, opening: int, nodes: int, depth: int, turns: int, every: int,
          rollouts: int = 0) -> list:
    out = []
    for name in names:
        for index in range(games):
            upper = 8 - (index % 5)  # steps 8 vs 7, 7 vs 6, ... 4 vs 3: the strong levels a review meets most
            out.append((name, upper, index, seed, opening, nodes, depth, turns, every, rollouts))
    return out


def summary(found: list[Found]) -> list[str]:
    lines = []
    for name in sorted({f.name for f in found}) + ["all"]:
        mine = [f for f in found if name in ("all", f.name)]
        b = [sum(f.marked["blunder"][i] for f in mine) for i in range(2)]
        m = [sum(f.marked["mistake"][i] for f in mine) for i in range(2)]
        handed = [sum(f.handed[i] for f in mine) for i in range(2)]
        hints = [sum(f.hints[i] for f in mine) for i in range(2)]
        plies = sum(f.plies for f in mine)
        series = [f.autocorrelation for f in mine if f.autocorrelation is not None]
        pooled = lag1([f.changes for f in mine])
        first = [c for f in mine for c in f.swings[0]]
        second = [c for f in mine for c in f.swings[1]]
        swing = statistics.fmean(first) - statistics.fmean(second) if first and second else None
        lines.append(f"| {name} | {len(mine)} | {plies} | {b[1]}/{b[0]} | {m[1]}/{m[0]} |"
                     f" {sum(f.unassessed for f in mine)} | {handed[1]}/{handed[0]} |"
                     f" {_num(statistics.fmean(series) if series else None)} | {_num(pooled)} | {_num(swing)} |"
                     f" {hints[1]}/{hints[0]} | {sum(f.seconds for f in mine):.0f} |")
    return lines


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:+.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench/review_check.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="only this game (may repeat)")
    parser.add_argument("--games", type=int, default=2, help="ladder games a game (default 2)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opening", type=int, default=4)
    parser.add_argument("--nodes", type=int, default=reviewing.REVIEW_NODES, help="the review's nodes a search")
    parser.add_argument("--judge-depth", type=int, default=4, help="the judge's plies without a die (default 4)")
    parser.add_argument("--judge-turns", type=int, default=3, help="the judge's turns with a die (default 3)")
    parser.add_argument("--playouts", type=int, default=200, metavar="N",
                        help="with a die, where material is even: games played out from each choice (0: none; default 200)")
    parser.add_argument("--hint-every", type=int, default=4, metavar="PLIES",
                        help="compare the hint with the review every this many plies (0: never; default 4)")
    args = parser.parse_args()
    work = tasks(args.game or sorted(GAMES), args.games, args.seed, args.opening, args.nodes, args.judge_depth,
                 args.judge_turns, args.hint_every, args.playouts)
    started = time.perf_counter()
    found = []
    with multiprocessing.Pool(args.jobs) as pool:
        for f in pool.imap(check_game, work):
            print(f"{f.name} game {f.index}: {f.plies} plies, blunders {f.marked['blunder'][1]}/{f.marked['blunder'][0]}"
                  f" confirmed, mistakes {f.marked['mistake'][1]}/{f.marked['mistake'][0]}, unassessed {f.unassessed},"
                  f" handed over {f.handed[1]}/{f.handed[0]} marked, lag-1 {_num(f.autocorrelation)},"
                  f" hint marked {f.hints[1]}/{f.hints[0]}, {f.seconds:.0f} s", flush=True)
            found.append(f)
    print(f"\nreview version {reviewing.REVIEW_VERSION}, {args.nodes} nodes a search; judge depth {args.judge_depth}"
          f" (turns {args.judge_turns} with a die); {time.perf_counter() - started:.0f} s")
    print("| game | games | plies | blunders confirmed | mistakes confirmed | unassessed | hand-overs marked"
          " | lag-1 (mean of games) | lag-1 (pooled) | swing | hints marked | CPU s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for line in summary(found):
        print(line)
    examples = [e for f in found for e in f.examples]
    if examples:
        print("\nnot confirmed, for instance:")
        for e in examples[:8]:
            print("  " + e)


if __name__ == "__main__":
    main()
