"""The computer's review in real processes: `reedboard review` run as a program gives the same
numbers as in the tests' process, whatever the process's hash seed, and the worker process the
page's reviews are worked out in gives them too (tests/test_review.py has the rest)."""

import asyncio
import json
import os
from pathlib import Path

import pytest

from reedboard.controller.archive import reviews
from reedboard.controller.opponent.review import review

from archive_games import A7_GAME, bigballs
from command_line import run_reedboard

pytestmark = pytest.mark.system

TRACE = Path(__file__).parent / "traces" / "bigballs-game-to-a7.jsonl"
NODES = 300


def test_the_command_gives_the_same_review_in_any_process():
    expected = review(bigballs(), A7_GAME, NODES).data()
    for seed in ("1", "2"):
        result = run_reedboard("review", TRACE, "--nodes", NODES, "--json", timeout=120,
                               env={**os.environ, "PYTHONHASHSEED": seed, "LANGUAGE": "en"})
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout) == expected
    assert expected["points"][-1]["p"] == 1.0 == expected["result"]


def test_the_worker_process_gives_the_numbers_of_this_one():
    game = bigballs()
    for text in A7_GAME:
        game.play(text)
    job = reviews.job_of("a7", game, NODES)
    worker = reviews.ReviewWorker()

    async def asked_twice():  # at once: worked out once, for both
        return await asyncio.wait_for(asyncio.gather(worker.review(job), worker.review(job)), 120)

    try:
        first, second = asyncio.run(asked_twice())
        assert first == second == reviews.compute(job)
        assert worker.computed == 1 and worker.waiting == 0
    finally:
        worker.close()
