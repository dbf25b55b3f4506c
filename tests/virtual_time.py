"""The asyncio event loop on virtual time, for tests of pacing (scan rates, blinking): the
package's own (reedboard.controller.session.virtual_time), which `selftest --hal sim` runs on too."""

from reedboard.controller.session.virtual_time import VirtualClock, run_virtual

__all__ = ["VirtualClock", "run_virtual"]
