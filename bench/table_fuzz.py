"""Table fuzz, full size: do the simulated players' records equal the replays of their traces?

Usage: python bench/table_fuzz.py --games N [--seed S] [--game G] [--parallel P] [--out DIR] [--explore]

Plays N whole games (split evenly over the three games, or all of game G) with the simulated
players of tests/table_players.py, seeds S, S+1, ..., replays each trace and compares the
record with the one the players meant. Prints the agreement rate, the time taken, and each kind
of disagreement (named by what the hands did on the move where the records part, and how they
part) with its count and first example: the seed and a shortened trace written to DIR. Games
whose hands went where the recognition rules are silent are counted apart, with their own
disagreements, since no answer is promised for them; --explore adds such hands on purpose (the
next player starting before a move that waits for the settle time has settled).

Over all games, promised or not, it also prints how many records stop (the replay's record is
a shorter start of the one meant), by kind, and for each thing the hands did, in how many games
they did it and what share of those games the rules leave open.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import table_players as tp  # noqa: E402


def one(job: tuple) -> tuple:
    """Play and replay one game: (game, seed, promised, unclear notes, disagreement kind or None,
    how the records part or None, what the hands did in the game)."""
    game, seed, folder, explore = job
    played = tp.play(game, seed, explore=explore)
    wrong = tp.check(played, Path(folder))
    hands = sorted({tag for kinds in played.kinds for kind in kinds if (tag := telling(kind))})
    return (game, seed, played.promised, played.unclear, None if wrong is None else wrong.kind,
            None if wrong is None else wrong.symptom, hands)


def telling(kind: str) -> str | None:
    """What the hands did, as the disagreements are named (the first of tp.TELLING it starts with)."""
    return next((tag for tag in tp.TELLING if kind.startswith(tag)), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games in all")
    parser.add_argument("--seed", type=int, default=0, help="the first seed")
    parser.add_argument("--game", choices=tp.GAMES, help="only this game")
    parser.add_argument("--parallel", type=int, default=1, help="games played at once")
    parser.add_argument("--explore", action="store_true", help="also hands the rules promise nothing about")
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "tablefuzz",
                        help="where the shortened traces of the first examples go")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    games = [args.game] if args.game else list(tp.GAMES)

    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="table-fuzz-") as scratch:  # each game's trace, replayed
        jobs = [(games[n % len(games)], args.seed + n // len(games), scratch, args.explore)
                for n in range(args.games)]
        if args.parallel > 1:
            with Pool(args.parallel) as pool:
                results = pool.map(one, jobs, chunksize=8)
        else:
            results = [one(job) for job in jobs]
    took = time.monotonic() - began

    promised = [r for r in results if r[2]]
    agreed = [r for r in promised if r[4] is None]
    print(f"{len(results)} games ({', '.join(f'{g} {sum(r[0] == g for r in results)}' for g in games)})"
          f" in {took:.0f} s")
    print(f"promised by the rules: {len(promised)}; the replay agreed on {len(agreed)}"
          f" ({100 * len(agreed) / max(1, len(promised)):.2f} %)")
    for game in games:
        mine = [r for r in promised if r[0] == game]
        ok = sum(r[4] is None for r in mine)
        print(f"  {game:9}: {ok} of {len(mine)} ({100 * ok / max(1, len(mine)):.2f} %)")
    report("disagreements", [r for r in promised if r[4]], args.out, args.explore)

    unclear = [r for r in results if not r[2]]
    if unclear:
        print(f"\nwhere the rules are silent or unclear: {len(unclear)} games,"
              f" {sum(r[4] is None for r in unclear)} agreed all the same")
        for note, count in Counter(n for r in unclear for n in r[3]).most_common():
            print(f"  {count:5}  {note}")
        report("their disagreements", [r for r in unclear if r[4]], args.out, args.explore)

    stops = [r for r in results if r[5] == "the record stops"]
    print(f"\nthe record stops (all games, promised or not): {len(stops)} games"
          f" ({sum(r[2] for r in stops)} promised, {sum(not r[2] for r in stops)} not)")
    for kind, count in Counter(r[4] for r in stops).most_common():
        promised_here = sum(r[2] for r in stops if r[4] == kind)
        first = next(r[1] for r in stops if r[4] == kind)
        print(f"  {count:5}  {kind} ({promised_here} promised; first seed {first})")

    print("\nwhat the hands did (all games): games with it, how many of them the rules leave open, share")
    done = Counter(tag for r in results for tag in r[6])
    left_open = Counter(tag for r in results if not r[2] for tag in r[6])
    for tag in tp.TELLING:
        if done[tag]:
            print(f"  {done[tag]:5}  {left_open[tag]:5}  {100 * left_open[tag] / done[tag]:5.1f} %  {tag}")


def report(title: str, wrong: list, out: Path, explore: bool) -> None:
    if not wrong:
        return
    counts = Counter(r[4] for r in wrong)
    print(f"\n{title}, by kind ({len(counts)} kinds):")
    for kind, count in counts.most_common():
        game, seed = next((r[0], r[1]) for r in wrong if r[4] == kind)
        found = tp.check(tp.play(game, seed, explore=explore), out)
        path, small = tp.shrink(found, out)
        print(f"{count:5}  {kind}\n       first: {small.describe(path).split(chr(10), 1)[1].strip()}")


if __name__ == "__main__":
    main()
