"""Write tests/traces/rulings: for each ruling no scenario of make_traces.py needs, the shortest
start of a simulated players' game (tests/table_players.py) that replays to the record the
players meant, and to another record without that ruling; and tests/traces/games: whole games
the board once read wrongly.

Run from the project root: python tests/traces/cut_witnesses.py
The games are named by seed below; the cut traces are committed, and this script remakes them
after a deliberate change to the players or the recogniser.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import table_players as tp  # noqa: E402
from reedboard.controller.core.rulings import Rulings  # noqa: E402

FOLDER = HERE / "rulings"

# trace name (the ruling it tells, then what the hands do) -> a game and seeds of games whose hands
# meet it: the first that still tells the ruling is cut (a change to the players changes their games)
GAMES = {
    "R4": ("bigballs", [195]),
    "R6": ("bigballs", [289]),
    "R7": ("bigballs", [132]),
    "R8": ("offboard", [36]),
    "R9": ("offboard", [29]),
    "R11": ("abalone", [247]),
    "R14": ("offboard", [373]),
    "R18": ("bigballs", [274, 105, 161, 170, 31, 336, 372]),
    "R18-the-victim-lifted-beside-the-next-players-move": ("bigballs", [621, 1025]),
    "R21": ("bigballs", [167, 293]),
    "R22": ("offboard", [1086]),
    "R23": ("abalone", [1613]),
}


# Whole games the board once read wrongly, kept as they are (tests/traces/games): trace name ->
# (game, seed); each must replay to the record the players meant.
WHOLE = {
    "bigballs-254-the-next-player-moves-on-while-a-split-waits": ("bigballs", 254),
    "bigballs-936-asked-which-capture-answered-by-a-touch": ("bigballs", 936),
    "abalone-505-a-wrong-hole-that-no-two-moves-explain": ("abalone", 505),
    "offboard-1067-a-line-taken-apart-with-a-ball-set-down-on-the-way": ("offboard", 1067),
    "bigballs-1050-a-press-while-a-capturing-stone-is-in-the-hand": ("bigballs", 1050),
    "bigballs-771-a-press-while-the-big-ball-is-held-long": ("bigballs", 771),
    "bigballs-826-a-press-that-starts-the-next-player-beside-the-following-ball": ("bigballs", 826),
    "bigballs-2580-a-touch-put-back-after-a-quick-swap-is-no-evidence": ("bigballs", 2580),
    "bigballs-2850-a-split-that-explains-every-hollow-opened": ("bigballs", 2850),
    "offboard-1570-a-full-sector-push-finished-beside-the-next-players-line": ("offboard", 1570),
    "abalone-1283-three-moves-under-way-one-reading-explains-the-hollows": ("abalone", 1283),
    "abalone-1148-a-push-setting-the-pushed-marble-down-is-no-amendment": ("abalone", 1148),
    "abalone-1443-two-splits-asked-and-chosen-by-a-touch": ("abalone", 1443),
    "bigballs-969-the-next-player-goes-on-through-a-lift": ("bigballs", 969),
    "abalone-1613-a-board-still-before-the-quick-swap-counted": ("abalone", 1613),
}


def ruling_of(name: str) -> str:
    return name.split("-")[0]


def replayed(path: Path, off: frozenset[str]) -> list[str]:
    Rulings.rulings_off = off
    try:
        return tp.replayed_record(path)
    finally:
        Rulings.rulings_off = frozenset()


def cut(name: str, game: str, seeds: list[int]) -> Path:
    """The shortest start of the first of the games, cut where the board was quiet, that tells
    the ruling."""
    rid = ruling_of(name)
    path = FOLDER / f"{name}.jsonl"
    for seed in seeds:
        played = tp.play(game, seed)
        for count, record in [*played.checkpoints, (len(played.events), played.record)]:
            part = tp.Game(played.seed, played.game, played.header, played.events[:count], record,
                           played.kinds, played.unclear, [])
            text = part.trace_text()
            path.write_text(text, encoding="utf-8")
            if replayed(path, frozenset()) == record and replayed(path, frozenset({rid})) != record:
                (FOLDER / f"{name}.record").write_text("\n".join(record) + "\n", encoding="utf-8")
                return path
    path.unlink()
    raise SystemExit(f"{name}: none of {game} {seeds} tells {rid} now; name other games")


def keep_whole(name: str, game: str, seed: int) -> Path:
    played = tp.play(game, seed)
    path = HERE / "games" / f"{name}.jsonl"
    played.write(path)
    if replayed(path, frozenset()) != played.record:
        raise SystemExit(f"{name}: {game} {seed} no longer replays to its record")
    path.with_suffix(".record").write_text("\n".join(played.record) + "\n", encoding="utf-8")
    return path


def main() -> None:
    FOLDER.mkdir(exist_ok=True)
    (HERE / "games").mkdir(exist_ok=True)
    for name, (game, seeds) in GAMES.items():
        print(cut(name, game, seeds).name)
    for name, (game, seed) in WHOLE.items():
        print(keep_whole(name, game, seed).name)


if __name__ == "__main__":
    main()
