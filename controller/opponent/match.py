"""`reedboard match GAME PLAYER PLAYER --games N`: engine against engine, headless.

Players: `random` (any legal choice), `greedy` (the best one-ply choice by the evaluation),
`computer:L` (level L, searching by its node budget: a match never looks at the clock). The two swap colours every game, so each moves first in half of them;
each game's start is drawn as at the table (shuffled stones) and the die is rolled from the seeded
generator, so a seed replays the same games whatever --jobs. `--opening N` starts each pair of
games after the same N random moves (games without chance differ then), `--nodes N` gives the top
level that budget instead of its own. Prints each result and, last, the first player's score
with its 95 % confidence interval (Wilson).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from dataclasses import dataclass, replace

from ..games import game_class, top_level
from ..games.base import colour_words
from ..language.phrases import Phrasebook
from .levels import level
from .search import choose
from .search_parts import ROLL, Limits

phrase = Phrasebook("commands")
phrase_n = phrase.n

MAX_MOVES = 300  # a game still going after this many moves is counted a draw
GREEDY = Limits(depth=1)


@dataclass(frozen=True)
class GameResult:
    index: int
    first_colour: str  # the colour the match's first player had
    score: float  # the match's first player's: 1, 1/2 or 0
    result: str  # 1-0, 0-1 or 1/2-1/2
    reason: str
    moves: int
    seconds: tuple[list[float], list[float]]  # each player's time per decision
    opening: tuple[str, ...] = ()  # the random moves played before the players took over
    record: tuple[str, ...] = ()  # every move from the drawn start (`drawn_start`), the opening's too


def parse_player(text: str) -> str:
    """`random`, `greedy` or `computer:L` (L 1 to the strongest level of any game: the match's
    game checks its own, run_match); argparse's error otherwise."""
    if text in ("random", "greedy"):
        return text
    kind, __, number = text.partition(":")
    if kind == "computer" and number.isdigit() and 1 <= int(number) <= top_level():
        return text
    raise argparse.ArgumentTypeError(phrase("a player is random, greedy or computer:1 .. computer:{top}, not {text}",
                                            top=top_level(), text=repr(text)))


def player_limits(player: str, nodes: int | None = None, game: str | None = None) -> Limits:
    """The search limits of `greedy` or `computer:L` in `game` (a name). A match never looks at
    the clock: the levels' node budgets decide, so that it gives the same games on any machine
    and under any load; `nodes` replaces the top level's budget."""
    if player == "greedy":
        return GREEDY
    number = int(player.partition(":")[2])
    limits = level(number, game).limits(game)
    if nodes is not None and number == top_level(game):
        limits = replace(limits, nodes=nodes)
    return limits


def decide(player: str, game, rng: random.Random, roll: int | None = None, nodes: int | None = None):
    """The player's choice in `game`'s position: a move, or ROLL (games with a die)."""
    if player == "random":
        options = list(game.turn_moves(roll))
        if roll is None and game.uses_die and game.can_roll():
            options.append(ROLL)
        return rng.choice(options)
    return choose(game, player_limits(player, nodes, game.name), roll=roll, rng=rng).move


def opening(game, plies: int, rng: random.Random) -> tuple[str, ...]:
    """Play `plies` random moves (a random turn, with the die where there is one) from the
    start; returns them in notation."""
    played = []
    for __ in range(plies):
        if game.outcome() is not None:
            break
        choice = decide("random", game, rng)
        if choice == ROLL:
            choice = decide("random", game, rng, roll=rng.randint(1, 6))
        game.push(choice)
        played.append(game.format_move(choice))
    return tuple(played)


def play_one(game_name: str, players: tuple[str, str], index: int, seed: int, max_moves: int,
             nodes: int | None = None, opening_plies: int = 0) -> GameResult:
    """Game `index` of the match: the first player takes the first colour in even games
    (`nodes`: see player_limits). With `opening_plies`, games 2k and 2k + 1 both start after
    the same random moves, the players' colours swapped: without chance in the game, two
    computers would otherwise play the same two games over and over."""
    rng = _game_rng(seed, index)
    game = game_class(game_name).drawn_start(rng)
    opened = opening(game, opening_plies, random.Random(f"{seed}/{index // 2}/opening"))
    colours = game.players if index % 2 == 0 else game.players[::-1]
    by_colour = dict(zip(colours, range(2)))
    seconds: tuple[list[float], list[float]] = ([], [])
    moves = 0
    played: list[str] = []
    while game.outcome() is None and moves < max_moves:
        who = by_colour[game.turn]
        started = time.perf_counter()
        choice = decide(players[who], game, rng, nodes=nodes)
        if choice == ROLL:
            choice = decide(players[who], game, rng, roll=rng.randint(1, 6), nodes=nodes)
        seconds[who].append(time.perf_counter() - started)
        played.append(game.format_move(choice))
        game.push(choice)
        moves += 1
    outcome = game.outcome()
    if outcome is None:
        result, reason, score = "1/2-1/2", f"no end after {max_moves} moves: a draw", 0.5
    else:
        result, reason = outcome.result(game.players), outcome.termination.value
        score = 0.5 if outcome.winner is None else float(outcome.winner == colours[0])
    return GameResult(index, colours[0], score, result, reason, moves, seconds, opened, opened + tuple(played))


def drawn_start(game_name: str, seed: int, index: int):
    """The start game `index` of a match with `seed` was played from (its stones shuffled as then)."""
    return game_class(game_name).drawn_start(_game_rng(seed, index))


def _game_rng(seed: int, index: int) -> random.Random:
    """Game `index`'s random numbers: its start's shuffle first, then its players' and the die's."""
    return random.Random(f"{seed}/{index}")


def _play_one(args: tuple) -> GameResult:
    return play_one(*args)


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % interval of a proportion `score / games` (Wilson's, good near 0 and 1)."""
    if games == 0:
        return 0.0, 1.0
    p = score / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return max(0.0, (centre - spread) / (1 + z * z / games)), min(1.0, (centre + spread) / (1 + z * z / games))


def run_match(game_name: str, players: tuple[str, str], games: int, seed: int = 0, jobs: int = 1,
              max_moves: int = MAX_MOVES, out=print, nodes: int | None = None, opening_plies: int = 0,
              first: int = 0, on_game=None) -> float:
    """Play the match, printing as it goes; returns the first player's score (0..1). `first`: the
    index of its first game, so that a match can go on where an earlier one with the same seed
    ended (game i is the same game in both: its random numbers come from the seed and i alone).
    `on_game`: called with each game's GameResult as it ends."""
    import statistics  # here, not on import: `reedboard --help` starts without it

    from ..language import forms  # babel: only when a command prints
    tasks = [(game_name, players, index, seed, max_moves, nodes, opening_plies) for index in range(first, first + games)]
    if jobs > 1:
        import multiprocessing
        with multiprocessing.Pool(jobs) as pool:
            results = list(_report(pool.imap(_play_one, tasks), players, out, on_game))
    else:
        results = list(_report(map(_play_one, tasks), players, out, on_game))
    total = sum(r.score for r in results)
    for who, player in enumerate(players):
        times = [t for r in results for t in r.seconds[who]]
        if times and player != "random":
            out(phrase_n("{player}: {n} decision, median {median} ms, maximum {most} ms",
                         "{player}: {n} decisions, median {median} ms, maximum {most} ms", len(times),
                         player=player, n=len(times), median=forms.number(statistics.median(times) * 1000, 0),
                         most=forms.number(max(times) * 1000, 0)))
    low, high = wilson(total, games)
    out(phrase("{first} scored {score}/{games} against {second} = {percent} % (95 % interval {low}-{high} %)",
               first=players[0], score=forms.number(total), games=games, second=players[1],
               percent=forms.number(100 * total / max(games, 1), 1), low=forms.number(100 * low, 1),
               high=forms.number(100 * high, 1)))
    return total / max(games, 1)


def _report(results, players, out, on_game=None):
    for r in results:
        if on_game is not None:
            on_game(r)
        won = phrase("a draw") if r.score == 0.5 else phrase("{player} won", player=players[0] if r.score else players[1])
        words = dict(index=r.index + 1, first=players[0], colour=colour_words(r.first_colour), second=players[1],
                     result=r.result, reason=r.reason, n=r.moves, won=won)
        if r.opening:
            out(phrase_n("game {index}: {first} ({colour}) vs {second} after {opening}: {result} ({reason}, {n} move):"
                         " {won}", "game {index}: {first} ({colour}) vs {second} after {opening}: {result} ({reason},"
                                   " {n} moves): {won}", r.moves, opening=" ".join(r.opening), **words))
        else:
            out(phrase_n("game {index}: {first} ({colour}) vs {second}: {result} ({reason}, {n} move): {won}",
                         "game {index}: {first} ({colour}) vs {second}: {result} ({reason}, {n} moves): {won}",
                         r.moves, **words))
        yield r
