"""The emulated Pico (pico_emulator/) for the tests that run the firmware on it.

`emulated_pico()` loads pico_emulator/emulator.py; when the emulated Pico cannot run here
(node, its packages or the MicroPython build missing), the calling test module is skipped,
saying why.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def emulated_pico():
    spec = importlib.util.spec_from_file_location("reedboard_pico_emulator", ROOT / "pico_emulator" / "emulator.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        module.check_available()
    except module.Unavailable as why:
        pytest.skip(f"no emulated Pico here: {why}", allow_module_level=True)
    return module
