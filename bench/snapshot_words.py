"""What a snapshot costs, and how much of it is the page's words in every language.

Starts a play session of each game on the simulated board (no server), lets the set-up finish,
then builds the session's snapshot N times, and the words alone (snapshot.words_in for each of
LANGUAGES, over as many notes as a snapshot shows) N times. Prints microseconds per build.

    python bench/snapshot_words.py [--builds 500]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import tempfile
import time

from reedboard.controller.language.catalogue import LANGUAGES
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.session.snapshot import NOTES_SHOWN, Geometry, session_snapshot, words_in


async def measure(game: str, builds: int, folder: str) -> tuple[float, float, int]:
    session = PlaySession(game, games_dir=folder, setup="given")
    await session.start()
    try:
        for _ in range(200):  # the given set-up reaches play on the simulated board at once
            if session.snapshot()["phase"] != "setup":
                break
            await asyncio.sleep(0.01)
        geometry = Geometry()
        snap = session_snapshot(session, geometry)
        referee = session.referee
        start = time.perf_counter()
        for _ in range(builds):
            session_snapshot(session, geometry)
        whole = (time.perf_counter() - start) / builds
        from reedboard.controller.core.view import Phase

        phase = Phase(snap["phase"])
        # as many notes as a snapshot shows (NOTES_SHOWN), the ones there repeated
        notes = [{**note, "n": i} for i, note in zip(range(NOTES_SHOWN), itertools.cycle(snap["notes"]))]
        start = time.perf_counter()
        for _ in range(builds):
            for lang in LANGUAGES:
                words_in(lang, referee, referee.game, notes, phase)
        words = (time.perf_counter() - start) / builds
        return whole, words, len(notes)
    finally:
        await session.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builds", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        print(f"{'game':10} {'snapshot µs':>12} {'words µs':>10} {'notes':>6}")
        for game in ("bigballs", "offboard", "abalone"):
            whole, words, notes = asyncio.run(measure(game, args.builds, folder))
            print(f"{game:10} {whole * 1e6:12.0f} {words * 1e6:10.0f} {notes:6}")


if __name__ == "__main__":
    main()
