"""The computer opponent's strength: the matches that measure it, each with its score, 95 % interval
and the time per move of each computer level.

Usage:
  python bench/match_strength.py                       # every match, 1,000 games each (days of CPU)
  python bench/match_strength.py --games 100 --jobs 4  # every match, 100 games each, 4 processes
  python bench/match_strength.py --nodes 8000 --matches bigballs:computer:8:random@100 \\
                                 offboard:computer:3:computer:2@20
  python bench/match_strength.py --speed               # also the search's nodes/s at the start
  python bench/match_strength.py --level-times 10      # only each level's time per move (by time)
  python bench/match_strength.py --pi                  # node rates here, on a Pi Zero 2 W, the Pi levels' budgets

A match is GAME:PLAYER:PLAYER, with @N for its own number of games. --nodes N makes every
computer search by nodes instead of time (each level its own node cap, the top level N nodes):
the same games on any machine and under any load. Without it the levels search by time as at the
table (the top level up to 1.8 s a move). Targets: top level >= 95 % against random and
>= 70 % against greedy in Big Balls; >= 99 % and >= 90 % in Off Board and Abalone; every level
> 50 % against the level below, with the interval above 50 %. The last lines are a table.
"""

from __future__ import annotations

import argparse
import re
import time

from reedboard.controller.games import GAMES, top_level
from reedboard.controller.opponent import LEVELS, Limits, choose
from reedboard.controller.opponent.match import MAX_MOVES, parse_player, run_match

MATCH = re.compile(r"(?P<game>[a-z]+):(?P<first>random|greedy|computer:\d+)"
                   r":(?P<second>random|greedy|computer:\d+)(?:@(?P<games>\d+))?$")


def strength_matches() -> list[str]:
    """Every match of the issue: the top level against random and greedy, then each level
    against the level below, game by game."""
    matches = [f"{name}:computer:{top_level(name)}:{other}" for name in sorted(GAMES) for other in ("random", "greedy")]
    for n in range(2, top_level() + 1):
        matches += [f"{name}:computer:{n}:computer:{n - 1}" for name in sorted(GAMES) if n <= top_level(name)]
    return matches


def parse_match(text: str, games: int) -> tuple[str, str, str, int]:
    found = MATCH.match(text)
    if not found or found["game"] not in GAMES:
        raise SystemExit(f"a match is GAME:PLAYER:PLAYER[@GAMES] (games {', '.join(sorted(GAMES))}), not {text!r}")
    for player in (found["first"], found["second"]):
        parse_player(player)
    return found["game"], found["first"], found["second"], int(found["games"] or games)


def nodes_per_second(seconds: float) -> None:
    for name, cls in sorted(GAMES.items()):
        game = cls()
        started = time.perf_counter()
        result = choose(game, Limits(depth=64, seconds=seconds))
        spent = time.perf_counter() - started
        print(f"{name}: {result.nodes / spent:,.0f} nodes/s (start position, {result.nodes:,} nodes,"
              f" depth {result.depth} in {spent:.2f} s, best {result.move})", flush=True)


def pi_estimate(positions: int, seconds: float, seed: int) -> None:
    """The search's node rate here (CPU time, the median over random positions of each game) and
    on a Raspberry Pi Zero 2 W: this machine's rate divided by PI_SPEED_RATIO. The ratio is an
    estimate, not a measurement (no Pi at hand, and an emulated aarch64 says nothing of a real
    one's speed): published single-core benchmark results put a current x86 desktop or server
    core some 10 to 20 times ahead of one Cortex-A53 core at 1 GHz, and CPython's interpreter
    loop, all branches and memory look-ups, gains least from the A53's narrow in-order pipeline;
    15 is taken. CPU time is counted, so a loaded machine measures its own speed, not its load.
    Then the node budgets that take the Pi's seconds there (levels.pi_seconds), next to those
    levels' own."""
    import random
    import statistics

    from reedboard.controller.opponent.levels import PI_SPEED_RATIO, pi_seconds

    print(f"\n| game | nodes/s here (median, CPU) | on a Pi Zero 2 W (/{PI_SPEED_RATIO}) | the Pi's levels |")
    print("|---|---|---|---|")
    for name, cls in sorted(GAMES.items()):
        rng = random.Random(f"{seed}/{name}")
        rates = []
        while len(rates) < positions:
            game = cls.drawn_start(rng)
            for _ in range(rng.randrange(4, 40)):
                moves = game.legal_moves()
                if not moves or game.outcome() is not None:
                    break
                game.push(rng.choice(moves))
            if game.outcome() is not None:
                continue
            started = time.process_time()
            result = choose(game, Limits(depth=64, seconds=seconds))
            rates.append(result.nodes / max(time.process_time() - started, 1e-9))
        here = statistics.median(rates)
        pi = here / PI_SPEED_RATIO
        levels = "; ".join(f"level {n}: {pi * s:,.0f} nodes in {s:g} s there (its budget {LEVELS[n].setting(name).nodes:,})"
                           for n, s in sorted(pi_seconds(name).items()))
        print(f"| {name} | {here:,.0f} | {pi:,.0f} | {levels} |", flush=True)


def level_times(positions: int, seed: int) -> None:
    """Each level's time per decision as at the table (its own node budget), over random
    positions of each game: median and maximum here, in CPU time (a loaded machine measures its
    own speed, not its load), and the median on a Pi Zero 2 W (times PI_SPEED_RATIO). With a die
    a turn is two decisions, before and after the roll, and both count as one."""
    import random
    import statistics

    from reedboard.controller.opponent import level
    from reedboard.controller.opponent.levels import PI_SPEED_RATIO

    print("\n| game | level | median here | maximum here | median on a Pi Zero 2 W | depth (median) |")
    print("|---|---|---|---|---|---|")
    for name, cls in sorted(GAMES.items()):
        rng = random.Random(f"{seed}/{name}")
        games = []
        while len(games) < positions:
            game = cls.drawn_start(rng)
            for _ in range(rng.randrange(0, 40)):
                moves = game.legal_moves()
                if not moves:
                    break
                game.push(rng.choice(moves))
            if game.outcome() is None and (not cls.uses_die or game.can_roll()):
                games.append(game)
        for number in range(1, top_level(name) + 1):
            times, depths = [], []
            for game in games:
                started = time.process_time()
                result = choose(game, level(number, name).limits(name), rng=rng)
                if cls.uses_die:
                    result = choose(game, level(number, name).limits(name), roll=rng.randint(1, 6), rng=rng)
                times.append(time.process_time() - started)
                depths.append(result.depth)
            median = statistics.median(times)
            print(f"| {name} | {number} | {median * 1000:.0f} ms | {max(times) * 1000:.0f} ms"
                  f" | {median * PI_SPEED_RATIO:.1f} s | {statistics.median(depths):g} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per match without @N (default 1000)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--nodes", type=int, default=None,
                        help="search by nodes, not time: the top level this many (default: by time)")
    parser.add_argument("--max-moves", type=int, default=MAX_MOVES)
    parser.add_argument("--opening", type=int, default=4,
                        help="random moves before each pair of games, the same for both (default 4): Off Board"
                             " and Abalone have no chance, and two engines would repeat one pair of games")
    parser.add_argument("--speed", action="store_true", help="first the search's nodes/s at the start")
    parser.add_argument("--seconds", type=float, default=3.0, help="the search time of --speed")
    parser.add_argument("--matches", nargs="*", metavar="GAME:PLAYER:PLAYER[@N]",
                        help="only these matches, e.g. bigballs:computer:8:random@200")
    parser.add_argument("--games-only", action="store_true", help="print each game's result too")
    parser.add_argument("--pi", action="store_true",
                        help="only the node rates here and on a Raspberry Pi Zero 2 W, and the Pi levels' budgets")
    parser.add_argument("--level-times", type=int, default=0, metavar="N",
                        help="only each level's time per move, as at the table, over N random positions per game")
    args = parser.parse_args()
    if args.pi:
        pi_estimate(8, 0.5, args.seed)
        return
    if args.speed:
        nodes_per_second(args.seconds)
    if args.level_times:
        level_times(args.level_times, args.seed)
        return
    matches = [parse_match(text, args.games) for text in (args.matches or strength_matches())]
    table = []
    for name, first, second, games in matches:
        print(f"\n{name}: {first} against {second}, {games} games"
              f"{f', top level {args.nodes} nodes a decision' if args.nodes else ''}"
              f"{f', {args.opening} random opening moves a pair' if args.opening else ''}", flush=True)
        lines: list[str] = []

        def out(line: str) -> None:
            lines.append(line)
            if args.games_only or not line.startswith("game "):
                print(line, flush=True)

        started = time.process_time()
        run_match(name, (first, second), games, args.seed, args.jobs, args.max_moves, out=out, nodes=args.nodes,
                  opening_plies=args.opening)
        spent = time.process_time() - started
        times = {line.split(":")[0] + ":" + line.split(":")[1] if line.startswith("computer") else line.split(":")[0]:
                 re.search(r"median (\d+) ms, maximum (\d+) ms", line).groups()
                 for line in lines if "decisions, median" in line}
        table.append((name, first, second, lines[-1], times.get(first), spent))
    print("\n| game | first | second | result | first's time per decision (median / max) | CPU s |")
    print("|---|---|---|---|---|---|")
    for name, first, second, last, times, spent in table:
        score = last.split(" scored ")[1] if " scored " in last else last
        timing = f"{times[0]} / {times[1]} ms" if times else "-"
        print(f"| {name} | {first} | {second} | {score} | {timing} | {spent:.0f} |")


if __name__ == "__main__":
    main()
