"""The computer's ladder: each level against the level below, in every game, and each level's
rating (Elo) on one scale.

Usage (with a Python that has reedboard's packages, e.g. the README's .venv/bin/python; the code
measured is this checkout's, installed or not):
  python bench/ladder.py                          # every game, as many games a step as ladder.toml's
                                                  # table was measured with (many hours of CPU)
  python bench/ladder.py --games 16 --jobs 2      # fewer games, two processes
  python bench/ladder.py --game bigballs --write  # one game; its table into ladder.toml
  python bench/ladder.py --game abalone --from 7 --write  # steps 7 vs 6 and up; those below kept
  python bench/ladder.py --game offboard --from 5 --to 5 --games 100 --write  # one step, the others kept
  python bench/ladder.py --game bigballs --from 9 --write  # a game whose ladder ends at 8: its table cut there

Each step is `reedboard match GAME computer:K computer:K-1` (colours swapped every game, each
pair of games after the same --opening random moves); the levels search by their node budgets
only, so the ladder is the same on any machine and under any load. Targets: every
step scores 60-80 %, its 95 % interval inside 55-85 %.

Every game played is kept, a row each, in bench/ladder_games.csv (the game, both levels' settings,
seed, opening, move cap, the game's index, the upper level's points): game i of a step is the same
game in every run, so a game found there is not played again. A run cut short goes on where it
ended, and a step given more games (--from K --to K --games N) plays only the games it lacks.

The ratings: level 1 is anchored at 800 in every game (a beginner's rating); a step that scores
p adds 400 log10(p / (1 - p)). A level's interval chains the Wilson bounds of the steps below
it (each step's low end added up, and each high end): wide at the top, and honest about it.
A step the upper level scores under half in gets no lower rating for it (a level searches what
the one below searches and more): the ratings are ordered, the levels out of order rated alike.
--write puts the table into controller/opponent/ladder.toml (controller/opponent/ratings.py
reads it) after every step, keeping the other games' tables: a run cut short leaves the levels
measured so far (fewer than the game has).
"""

from __future__ import annotations

import argparse
import csv
import datetime
import sys
import time
import types
from pathlib import Path

if __name__ == "__main__":  # reedboard from this checkout, installed or not (reedboard.X is the folder X,
    _package = types.ModuleType("reedboard")  # as pyproject.toml maps them), never another copy
    _package.__path__ = [str(Path(__file__).resolve().parents[1])]
    sys.modules.setdefault("reedboard", _package)

from reedboard.controller.games import GAMES, top_level
from reedboard.controller.opponent import LEVELS
from reedboard.controller.opponent.match import MAX_MOVES, run_match, wilson
from reedboard.controller.opponent.ratings import ANCHOR, LEVEL_SETTINGS, elo_difference, ladder

TOML = Path(__file__).resolve().parents[1] / "controller" / "opponent" / "ladder.toml"
# Every game a step was measured with, a row each (upper and lower: a level's nodes/depth/temperature/natural):
# the table's evidence, and what lets a run go on where an earlier one ended.
GAMES_FILE = Path(__file__).resolve().parent / "ladder_games.csv"
GAMES_COLUMNS = ("game", "upper", "lower", "seed", "opening", "max_moves", "index", "points", "result", "reason", "moves")
TOP = top_level()  # the strongest level of any game; a game's own: top_level(name)
GAMES_A_STEP = 100  # for a game without a table in ladder.toml


def games_a_step(name: str) -> int:
    """The games a step of `name` is played with by default: as many as its table in ladder.toml
    was measured with (the README's figures), or GAMES_A_STEP."""
    try:
        measured = ladder().get(name, {}).get("games", [])
    except FileNotFoundError:
        measured = []
    return max(measured, default=GAMES_A_STEP)


def clipped(score: float, games: int) -> float:
    """A score kept off 0 and 1 (half a game), where the Elo difference would be infinite."""
    edge = 0.5 / max(games, 1)
    return min(1 - edge, max(edge, score))


def step(name: str, upper: int, args) -> tuple[float, int]:
    """Level `upper` against the level below: (points of the upper level, games). A game this step
    already played with the same two levels, seed and opening (ladder_games.csv) is not played
    again: game i of a match is the same game in every run, so a run cut short, or a step given
    more games, goes on where the games played end."""
    games = args.games or games_a_step(name)
    key = step_key(name, upper, args)
    known = played(key)
    points = sum(known[index] for index in range(games) if index in known)
    for first, count in missing_runs([index for index in range(games) if index not in known]):
        lines: list[str] = []
        ended: list[float] = []

        def keep(result) -> None:
            record(key, result)
            ended.append(result.score)

        run_match(name, (f"computer:{upper}", f"computer:{upper - 1}"), count, args.seed, args.jobs,
                  args.max_moves, out=lines.append, opening_plies=args.opening, first=first, on_game=keep)
        for line in lines:
            if "decisions, median" in line:  # each level's time a move, here (CPU shared with what else runs)
                print(f"{name}: {line}", flush=True)
        points += sum(ended)
    recorded = sum(index in known for index in range(games))
    if recorded:
        print(f"{name}: {upper} vs {upper - 1}: {recorded} of {games} games as played before ({GAMES_FILE.name})", flush=True)
    return points, games


def step_key(name: str, upper: int, args) -> tuple[str, ...]:
    """What makes a step's game i the same game: the game, both levels' settings, seed, opening, move cap."""
    def setting(number: int) -> str:
        return "/".join(f"{getattr(LEVELS[number].setting(name), key):g}" for key in LEVEL_SETTINGS)
    return name, setting(upper), setting(upper - 1), str(args.seed), str(args.opening), str(args.max_moves)


def played(key: tuple[str, ...]) -> dict[int, float]:
    """The games of the step `key` in ladder_games.csv: index -> the upper level's points."""
    if not GAMES_FILE.exists():
        return {}
    with GAMES_FILE.open(newline="", encoding="utf-8") as file:
        return {int(row["index"]): float(row["points"]) for row in csv.DictReader(file)
                if tuple(row[column] for column in GAMES_COLUMNS[:len(key)]) == key}


def record(key: tuple[str, ...], result) -> None:
    """One game of a step into ladder_games.csv, as soon as it ends."""
    new = not GAMES_FILE.exists()
    with GAMES_FILE.open("a", newline="", encoding="utf-8") as file:
        writer = csv.writer(file, lineterminator="\n")
        if new:
            writer.writerow(GAMES_COLUMNS)
        writer.writerow([*key, result.index, f"{result.score:g}", result.result, result.reason, result.moves])


def missing_runs(indices: list[int]) -> list[tuple[int, int]]:
    """Sorted indices as runs of consecutive ones: (first, count) each."""
    runs: list[list[int]] = []
    for index in indices:
        if runs and runs[-1][0] + runs[-1][1] == index:
            runs[-1][1] += 1
        else:
            runs.append([index, 1])
    return [(first, count) for first, count in runs]


def ratings(steps: list[tuple[float, int]]) -> tuple[list[float], list[float], list[float]]:
    """The levels' ratings and 95 % bounds from the steps' (points, games), level 1 first. A level
    searches what the level below searches and more, so it is never weaker: where a step scores
    under half (the die's luck over a few dozen games) the ratings are the order-restricted
    estimate, the levels out of order rated alike at their mean (ordered)."""
    rating, low, high = [ANCHOR], [ANCHOR], [ANCHOR]
    for points, games in steps:
        lo, hi = wilson(points, games)
        rating.append(rating[-1] + elo_difference(clipped(points / games, games)))
        low.append(low[-1] + elo_difference(clipped(lo, games)))
        high.append(high[-1] + elo_difference(clipped(hi, games)))
    return ordered(rating), low, high


def ordered(values: list[float]) -> list[float]:
    """The non-decreasing sequence nearest to `values` (least squares: adjacent values out of
    order pooled at their mean, until none is)."""
    blocks: list[list[float]] = []  # [mean, count]
    for value in values:
        blocks.append([value, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            mean, count = blocks.pop()
            blocks[-1] = [(blocks[-1][0] * blocks[-1][1] + mean * count) / (blocks[-1][1] + count), blocks[-1][1] + count]
    return [mean for mean, count in blocks for _ in range(count)]


def table(name: str, steps: list[tuple[float, int]]) -> str:
    rating, low, high = ratings(steps)
    lines = [f"\n{name}", "| step | score | 95 % interval | level | rating (95 % interval) |", "|---|---|---|---|---|",
             f"| | | | 1 | {rating[0]:.0f} (anchor) |"]
    for k, (points, games) in enumerate(steps, start=2):
        lo, hi = wilson(points, games)
        mark = "" if 0.55 <= lo and hi <= 0.85 else " *"
        if points < games / 2:
            mark += " (under half: rated alike with the level below)"
        lines.append(f"| {k} vs {k - 1} | {points:g}/{games} = {100 * points / games:.0f} % | {100 * lo:.0f}-{100 * hi:.0f} %"
                     f"{mark} | {k} | {rating[k - 1]:.0f} ({low[k - 1]:.0f} to {high[k - 1]:.0f}) |")
    return "\n".join(lines)


def docs_table(steps: bool) -> str:
    """ladder.toml's ratings as README.md (steps False: a row a game, a column a level) and
    docs/players.md (steps True: a row a level, a column a game, with each level's score against
    the level below) show them: each rating with its 95 % interval. Print them with --docs;
    tests/test_ladder.py holds the two files to them."""
    tables = {name: ladder()[name] for name in GAMES if name in ladder()}
    top = max(len(table["ratings"]) for table in tables.values())

    def cell(table: dict, number: int) -> str:
        if number > len(table["ratings"]):
            return "–"
        rating = f"{table['ratings'][number - 1]:.0f}"
        if number == 1:
            return f"{rating} (anchor)" if steps else rating
        rating += f" ({table['low'][number - 1]:.0f}–{table['high'][number - 1]:.0f})"
        if steps:
            points, games = table["scores"][number - 2], table["games"][number - 2]
            rating += f"; {100 * points / games:.0f} % vs {number - 1}"
        return rating

    if not steps:
        lines = ["| rating (95 % interval) | level 1 | " + " | ".join(str(n) for n in range(2, top + 1)) + " |",
                 "|---" * (top + 1) + "|"]
        lines += [f"| {GAMES[name].title} | " + " | ".join(cell(table, n) for n in range(1, top + 1)) + " |"
                  for name, table in tables.items()]
        return "\n".join(lines)
    lines = ["| level | " + " | ".join(GAMES[name].title for name in tables) + " |", "|---" * (len(tables) + 1) + "|"]
    lines += [f"| {n} | " + " | ".join(cell(table, n) for table in tables.values()) + " |" for n in range(1, top + 1)]
    return "\n".join(lines)


def as_measured(name: str, number: int, table: dict) -> bool:
    """Whether level `number` of `name` is as it was when `table` (ladder.toml's) was measured."""
    today = LEVELS[number].setting(name)
    return all(key in table and len(table[key]) >= number and abs(table[key][number - 1] - getattr(today, key)) < 1e-9
               for key in LEVEL_SETTINGS)


def kept(name: str, first: int, last: int = TOP) -> dict[int, tuple[float, int]]:
    """The steps outside `first`..`last` (by their upper level) from ladder.toml, as {upper:
    (points, games)}: those below must all stand, those above are kept up to the first whose
    levels changed. SystemExit (one line) when a step below is missing or its levels changed."""
    table = ladder().get(name, {"games": []})
    steps = {upper: (points, games) for upper, points, games
             in zip(range(2, top_level(name) + 1), table.get("scores", []), table["games"])}
    below = range(2, first)
    if any(upper not in steps for upper in below):
        raise SystemExit(f"{name}: ladder.toml has no steps up to {first - 1} vs {first - 2}: measure from 2")
    if first > 2 and not all(as_measured(name, n, table) for n in range(1, first)):  # no steps below: none to keep
        raise SystemExit(f"{name}: levels 1-{first - 1} changed since ladder.toml was measured: measure from 2")
    result = {upper: steps[upper] for upper in below}
    for upper in range(last + 1, top_level(name) + 1):
        if upper not in steps or not (as_measured(name, upper - 1, table) and as_measured(name, upper, table)):
            break
        result[upper] = steps[upper]
    return result


def unbroken(steps: dict[int, tuple[float, int]]) -> list[tuple[float, int]]:
    """The steps from 2 vs 1 up to the first one missing, in order (ratings chain from level 1)."""
    chain = []
    for upper in range(2, TOP + 1):
        if upper not in steps:
            break
        chain.append(steps[upper])
    return chain


def write(measured: dict[str, list[tuple[float, int]]], args) -> None:
    """ladder.toml with the measured games' tables, the other games' kept as they were."""
    ladder.cache_clear()
    try:
        known = {name: ladder()[name] for name in GAMES if name in ladder()}
    except FileNotFoundError:
        known = {}
    lines = ["# The computer's ladder, measured by bench/ladder.py (do not edit: run it again with --write).",
             "# Per game: each level's rating (Elo, level 1 anchored at 800) and its 95 % interval,",
             "# levels 1 to the game's strongest; per step (2 vs 1, 3 vs 2 ...) the games played and the upper level's points;",
             "# the levels' settings when measured (nodes, depth, temperature, natural).",
             f"anchor = {ANCHOR:g}", ""]
    for name in sorted(set(known) | set(measured)):
        if name in measured:
            steps = measured[name]
            rating, low, high = ratings(steps)
            entry = {"ratings": rating, "low": low, "high": high, "games": [g for _, g in steps],
                     "scores": [p for p, _ in steps],
                     **{key: [getattr(LEVELS[n].setting(name), key) for n in range(1, top_level(name) + 1)]
                        for key in LEVEL_SETTINGS},
                     "seed": args.seed, "opening": args.opening, "measured": datetime.date.today().isoformat()}
        else:
            entry = known[name]
        lines.append(f"[{name}]")
        for key, value in entry.items():
            if isinstance(value, list):
                value = "[" + ", ".join(f"{v:.0f}" if key in ("ratings", "low", "high") else f"{v:g}" for v in value) + "]"
            elif isinstance(value, str):
                value = f'"{value}"'
            lines.append(f"{key} = {value}")
        lines.append("")
    TOML.write_text("\n".join(lines), encoding="utf-8")
    print(f"\nwrote {TOML}")


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench/ladder.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, help="games a step (default: as many as the game's table in ladder.toml"
                        f" was measured with, {GAMES_A_STEP} for a game without one)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="only this game (may repeat)")
    parser.add_argument("--opening", type=int, default=4,
                        help="random moves before each pair of games, the same for both (default 4)")
    parser.add_argument("--max-moves", type=int, default=MAX_MOVES)
    parser.add_argument("--from", dest="first", type=int, default=2, choices=range(2, TOP + 1), metavar="K",
                        help="start at step K vs K-1, keeping the steps below from ladder.toml (default 2)")
    parser.add_argument("--to", dest="last", type=int, default=TOP, choices=range(2, TOP + 1), metavar="M",
                        help=f"end at step M vs M-1, keeping the steps above while their levels stand (default {TOP})")
    parser.add_argument("--write", action="store_true", help="write the table into controller/opponent/ladder.toml")
    parser.add_argument("--docs", action="store_true",
                        help="only print ladder.toml's ratings as README.md and docs/players.md show them")
    args = parser.parse_args()
    if args.docs:
        print(f"README.md:\n{docs_table(steps=False)}\n\ndocs/players.md:\n{docs_table(steps=True)}")
        return
    if args.last < args.first:
        parser.error(f"--to {args.last} is below --from {args.first}")
    try:
        import reedboard.controller.language.forms  # noqa: F401  (babel: a match prints its numbers)
    except ModuleNotFoundError as missing:
        sys.exit(f"bench/ladder.py: the Python module {missing.name} is missing: run it with a Python that has"
                 " reedboard's packages, e.g. .venv/bin/python bench/ladder.py (the README's quick start makes .venv)")
    measured: dict[str, list[tuple[float, int]]] = {}
    for name in args.game or sorted(GAMES):
        found = kept(name, args.first, args.last)
        measured[name] = unbroken(found)  # a game whose ladder ends below --from: its table cut to its levels
        if args.write:
            write(measured, args)
        for upper in range(args.first, min(args.last, top_level(name)) + 1):
            started = time.perf_counter()
            points, games = found[upper] = step(name, upper, args)
            lo, hi = wilson(points, games)
            print(f"{name}: computer:{upper} against computer:{upper - 1}: {points:g}/{games} = {100 * points / games:.0f} %"
                  f" ({100 * lo:.0f}-{100 * hi:.0f} %), {time.perf_counter() - started:.0f} s", flush=True)
            measured[name] = unbroken(found)
            if args.write:  # step by step: a ladder cut short keeps the levels measured so far
                write(measured, args)
        print(table(name, measured[name]), flush=True)


if __name__ == "__main__":
    main()
