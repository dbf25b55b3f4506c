"""The emulated Pico (pico_emulator/) for the tests that run the firmware on it.

`emulated_pico()` loads pico_emulator/emulator.py. Whether the emulated Pico can run here (node,
its packages, the MicroPython build) is asked by conftest.py, which skips the tests marked `pico`
where it cannot, saying why.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def emulated_pico():
    spec = importlib.util.spec_from_file_location("reedboard_pico_emulator", ROOT / "pico_emulator" / "emulator.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
