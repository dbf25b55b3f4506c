"""One contract for every board backend the registry holds (hal.registry.BACKENDS): today sim,
gpio (on mock pins) and serial (the firmware behind a pty), each on its rig (tests/rigs.py).
The checks are tests/backend_contract.py's."""

import pytest

from reedboard.hal import registry

from backend_contract import (  # noqa: F401  (collected here, run on every registered backend)
    test_each_entry_names_what_it_opens_its_table_and_what_it_can,
    test_the_board_is_found_back_from_its_entry,
    test_the_board_senses_its_cells,
    test_frames_report_the_pieces_and_every_change,
    test_the_die_button_arrives_as_a_press,
    test_a_light_frame_reaches_the_leds_within_the_current_budget,
    test_the_address_level_reports_switches_and_lights_leds_by_index,
)
from rigs import BOARD, RIGS, START

pytestmark = pytest.mark.component


@pytest.fixture(params=list(registry.BACKENDS))
def rig(request):
    """A board under test hands, once on each registered backend."""
    assert request.param in RIGS, f"the {request.param} backend has no rig in tests/rigs.py"
    rig = RIGS[request.param](BOARD, START)
    yield rig
    rig.close()
