"""The review's chance to win, calibrated on the computer's ladder games (every game).

Usage:
  python bench/review_calibration.py                       # every step 2..8, 12 games each, every game
  python bench/review_calibration.py --game abalone --games 20 --jobs 2 --write
  python bench/review_calibration.py --game offboard --steps 8 --alike --games 16 --write  # level 8 against itself
  python bench/review_calibration.py --game bigballs --steps 4,5,6,7,8 --games 11 --phase --write
  python bench/review_calibration.py --game abalone --steps 8 --games 11 --even 0.75 --write

Plays the ladder's games (`reedboard match GAME computer:K computer:K-1`, the same seed and
opening as bench/ladder.py), then searches every position after the opening as the review does
(its node budget and seed, its settled value: review.settled_value) and fits the logistic curve
p = 1 / (1 + exp(-(k v + c))) of the value v for the player to move against that player's result
(chance.fit), leaving out the values that prove a win or a loss (the review takes them as 1 or
0). The tempo c is kept at 0 unless --free-tempo: a curve with a tempo gives the side to move a
share of its own, and the first player's chance then swings from ply to ply. --phase fits a
slope that grows as pieces leave the board too, k = slope exp(phase (pieces - n)), n the players'
pieces on the board (chance.pieces_in_play), `pieces` their mean over the positions; the phase
is the one of 0, 0.025, .. 1 that makes the results likeliest. --even W weighs the even one of
the search's last two depths W in the settled value (review.settled_value), kept as `even`. Prints, for the
curve used until now and the fitted one, the log loss and a calibration table (predicted chance
against the share of points scored); --write keeps the fitted curve in
controller/opponent/chance.toml, which the review reads.
"""

from __future__ import annotations

import argparse
import datetime
import math
import multiprocessing
import time
from pathlib import Path

from reedboard.controller.games import GAMES
from reedboard.controller.opponent.chance import PROVEN, calibration, even_weight, fit, logistic, pieces_in_play
from reedboard.controller.opponent.match import MAX_MOVES, drawn_start, play_one
from reedboard.controller.opponent.review import REVIEW_NODES, Searcher, score

TOML = Path(__file__).resolve().parents[1] / "controller" / "opponent" / "chance.toml"


def samples_of_game(task: tuple) -> list[tuple[float, float, int]]:
    """(value for the player to move, their result, the players' pieces on the board) at every
    position of one ladder game after its opening; none for a game cut short by the match's move
    limit (its draw is no result)."""
    name, upper, index, seed, opening, nodes, alike, even = task
    players = (f"computer:{upper}", f"computer:{upper if alike else upper - 1}")
    played = play_one(name, players, index, seed, MAX_MOVES, opening_plies=opening)
    if played.moves >= MAX_MOVES and played.result == "1/2-1/2":
        return []
    game = drawn_start(name, seed, index)
    positions = []
    for ply, text in enumerate(played.record):
        if ply >= len(played.opening) and game.outcome() is None:
            positions.append((game.copy(), game.turn))
        game.push(game.parse_move(text))
    search = Searcher(nodes, None, even=even)
    samples = []
    for position, mover in positions:
        result = score(game, mover)
        value = search.best(position)[1]
        if abs(value) <= PROVEN:
            samples.append((value, 0.5 if result is None else result, pieces_in_play(position)))
    return samples


def phased(samples, phase: float, pieces: float) -> list[tuple[float, float]]:
    """The samples as (value scaled to the reference count of pieces, result)."""
    return [(v * math.exp(phase * (pieces - n)), y) for v, y, n in samples]


def fit_phase(samples, tempo: float | None) -> tuple[float, float, float, int]:
    """(slope, tempo, phase, pieces): the phase of 0, 0.025, .. 1 whose fitted curve makes the
    results likeliest, with its slope and tempo at `pieces` (the positions' mean count)."""
    pieces = round(sum(n for _, _, n in samples) / len(samples))
    best = None
    for phase in (step / 40 for step in range(41)):
        scaled = phased(samples, phase, pieces)
        slope, c = fit(scaled, tempo=tempo)
        loss = log_loss(scaled, slope, c)
        if best is None or loss < best[0]:
            best = (loss, slope, c, phase)
    return best[1], best[2], best[3], pieces


def log_loss(samples, slope: float, tempo: float) -> float:
    total = 0.0
    for v, y in samples:
        p = min(1 - 1e-9, max(1e-9, logistic(slope * v + tempo)))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / max(len(samples), 1)


def table(samples, slope: float, tempo: float) -> str:
    """Predicted chance in tenths against the share of points the player to move scored."""
    bins: dict[int, list[float]] = {}
    for v, y in samples:
        bins.setdefault(min(9, int(10 * logistic(slope * v + tempo))), []).append(y)
    rows = [f"    {10 * b:>3}-{10 * b + 10:<3} %: {len(ys):>5} positions, scored {100 * sum(ys) / len(ys):5.1f} %"
            for b, ys in sorted(bins.items())]
    return "\n".join(rows)


def write(fitted: dict[str, dict]) -> None:
    calibration.cache_clear()
    entries = {name: entry for name, entry in calibration().items() if name not in fitted} | fitted
    lines = ["# The review's chance to win, p = 1 / (1 + exp(-(slope v + tempo))), v a search's settled value,",
             "# fitted by bench/review_calibration.py on the computer's ladder games (do not edit: run it again).",
             "# phase: the slope grows by exp(phase) with every piece fewer than `pieces` on the board;",
             "# even: the even depth's weight in the mean of the search's last two depths (1/2 without it).", ""]
    for name in sorted(entries):
        lines.append(f"[{name}]")
        for key, value in entries[name].items():
            lines.append(f"{key} = " + (f'"{value}"' if isinstance(value, str) else f"{value:.4g}" if isinstance(value, float) else f"{value}"))
        lines.append("")
    TOML.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {TOML}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(GAMES))
    parser.add_argument("--steps", default="2,3,4,5,6,7,8",
                        help="ladder steps K (K vs K-1), comma-separated (default the whole ladder, 2..8)")
    parser.add_argument("--games", type=int, default=12, help="games per step (default 12)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opening", type=int, default=4)
    parser.add_argument("--nodes", type=int, default=REVIEW_NODES, help="the review's nodes per search")
    parser.add_argument("--free-tempo", action="store_true", help="fit the tempo too (default: kept at 0)")
    parser.add_argument("--even", type=float, metavar="W",
                        help="the even depth's weight in the settled value (default: the game's in chance.toml, or 1/2);"
                             " bench/review_check.py's lag-1 says which keeps the curve from zigzagging")
    parser.add_argument("--phase", action="store_true",
                        help="fit a slope that grows as pieces leave the board (chance.toml's phase and pieces)")
    parser.add_argument("--alike", action="store_true",
                        help="level K against itself rather than K-1 (the cold levels' games cost a fraction of the warm ones')")
    parser.add_argument("--write", action="store_true", help="keep the fitted curves in controller/opponent/chance.toml")
    args = parser.parse_args()
    steps = [int(k) for k in args.steps.split(",")]
    fitted = {}
    for name in args.game or sorted(GAMES):
        started = time.perf_counter()
        even = even_weight(name) if args.even is None else args.even
        tasks = [(name, k, i, args.seed, args.opening, args.nodes, args.alike, even) for k in steps for i in range(args.games)]
        with multiprocessing.Pool(args.jobs) as pool:
            games = [game for game in pool.imap(samples_of_game, tasks) if game]
        samples = [s for game in games for s in game]
        free = None if args.free_tempo else 0.0
        slope, tempo, phase, pieces = fit_phase(samples, free) if args.phase else (*fit(phased(samples, 0, 0), tempo=free), 0.0, 0)
        print(f"{name}: {len(games)} games ({len(tasks) - len(games)} cut short at {MAX_MOVES} moves left out), "
              f"{len(samples)} positions, {time.perf_counter() - started:.0f} s")
        known = calibration().get(name, {})
        for label, (k, c, ph, n) in (("until now", (known.get("slope", 4.0), known.get("tempo", 0.0), known.get("phase", 0.0),
                                                    known.get("pieces", 0))), ("fitted", (slope, tempo, phase, pieces))):
            scaled = phased(samples, ph, n)
            print(f"  {label}: slope {k:.2f} (at {n} pieces, phase {ph:g}), tempo {c:+.3f},"
                  f" log loss {log_loss(scaled, k, c):.4f}")
            print(table(scaled, k, c))
        fitted[name] = {"slope": round(slope, 4), "tempo": round(tempo, 4),
                        **({"phase": phase, "pieces": pieces} if phase else {}), **({"even": even} if even != 0.5 else {}),
                        "games": len(games), "positions": len(samples),
                        "steps": args.steps + (" against themselves" if args.alike else ""), "nodes": args.nodes,
                        "seed": args.seed,
                        "measured": datetime.date.today().isoformat()}
        if args.write:
            write(fitted)


if __name__ == "__main__":
    main()
