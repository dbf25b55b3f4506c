"""The table's hard calls (reconciler rules 2 and 7) on every backend, live.

Each trace of tests/traces named below is what hands did in one of the situations where a
referee once told players to undo a legal move. Here the same hands act on a real backend
(sim, gpio on mock pins, serial with the firmware behind a pty) while the referee runs live
(controller.session.live), and the game record must be the one the hands meant (NAME.record).

Hands follow the trace frame by frame and wait until the board has seen each change. A
change that the trace undoes within the debounce time (a flicker, a switch knocked but never
open long enough) is not made: on these boards it is never seen either. Where the players
paused in the trace for at least the settle time, the hands wait until the referee has
nothing left to decide; shorter pauses are not waited out.
"""

import pytest

from hands_on_boards import TRACES, play_on
from rigs import RIGS

pytestmark = pytest.mark.component

CASES = [
    "bigballs-ball-quick-swap-then-die",  # a big ball's swap under the debounce, then the die
    "bigballs-ball-quick-swap-then-ball",  # ... then a big-ball move of the next player
    "bigballs-takeback-after-the-next-roll",  # the next player's roll stands after a takeback
    "offboard-full-sector-slid-then-replaced",  # a full-sector push slid, then the re-placement
    "abalone-push-off-slid-then-pushed-back",  # a push-off slid, then pushed back front-first
    "offboard-full-sector-evidenced-then-replaced",  # a full-sector push seen, still, then re-placed
    "offboard-line-put-down-ball-by-ball",  # a pushing line lifted, put down with pauses (rule 2)
    "bigballs-capturer-set-down-on-the-way",  # the capturer set down a moment on the way (rule 2)
    "bigballs-die-within-the-settle-time-after-a-capture",  # the next player's press counts the move
    "offboard-two-hands",  # both players' hands on the board at once (rule 10)
    "bigballs-two-hands",  # a big ball rolled while the mover's stone is in the hand (rule 10)
]


@pytest.fixture(params=list(RIGS))
def backend(request):
    return RIGS[request.param]


@pytest.mark.parametrize("name", CASES)
def test_the_hard_calls_give_the_record_the_hands_meant(backend, name):
    expected = (TRACES / f"{name}.record").read_text().splitlines()
    assert play_on(backend, name) == expected
