"""What a snapshot costs, and how much of it is the page's words in one language and in all.

Starts a play session of each game on the simulated board (no server), lets the set-up finish,
then builds the session's snapshot without its words N times (what every change builds), the
words alone in one language (snapshot.words_in, over as many notes as a snapshot shows) N
times, and what a snapshot says in each of LANGUAGES on top of the build (what GET /api/state
and the broadcast ask for). Prints CPU microseconds per build, the best of a few rounds.

    python bench/snapshot_words.py [--builds 500]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import tempfile
import time
import timeit

from reedboard.controller.core.view import Phase
from reedboard.controller.language.catalogue import LANGUAGES
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.session.snapshot import NOTES_SHOWN, Geometry, said, session_snapshot, words_in

ROUNDS = 5  # the quickest kept: other work on the machine only ever adds to a round


def cpu_seconds(work, builds: int) -> float:
    number = max(1, builds // ROUNDS)
    return min(timeit.Timer(work, timer=time.process_time).repeat(repeat=ROUNDS, number=number)) / number


async def measure(game: str, builds: int, folder: str) -> tuple[float, float, float, int]:
    session = PlaySession(game, games_dir=folder, setup="given")
    await session.start()
    try:
        for _ in range(200):  # the given set-up reaches play on the simulated board at once
            if session.snapshot(())["phase"] != "setup":
                break
            await asyncio.sleep(0.01)
        geometry = Geometry()
        snap = session_snapshot(session, geometry)
        referee = session.referee
        rest = cpu_seconds(lambda: session_snapshot(session, geometry), builds)
        phase = Phase(snap["phase"])
        # as many notes as a snapshot shows (NOTES_SHOWN), the ones there repeated
        notes = [{**note, "n": i} for i, note in zip(range(NOTES_SHOWN), itertools.cycle(snap["notes"]))]
        one = cpu_seconds(lambda: words_in("de", referee, referee.game, notes, phase), builds)

        def every_language() -> None:
            body = session_snapshot(session, geometry)
            for lang in LANGUAGES:
                said(session, body, lang)

        return rest, one, cpu_seconds(every_language, builds), len(notes)
    finally:
        await session.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builds", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        print(f"{'game':10} {'snapshot µs':>12} {'words µs (1 lang)':>18} {'all langs µs':>13} {'notes':>6}")
        for game in ("bigballs", "offboard", "abalone"):
            rest, one, every, notes = asyncio.run(measure(game, args.builds, folder))
            print(f"{game:10} {rest * 1e6:12.0f} {one * 1e6:18.0f} {every * 1e6:13.0f} {notes:6}")


if __name__ == "__main__":
    main()
