"""The spectators' page travels in the wheel: a wheel built from a copy of the checkout (as a
clone holds it) carries the page, the card drawing it shares with the club's page, and the MQTT
client for the browser (MQTT.js's mqtt.min.js) with its licence and version, the file being the
one the note names."""

import hashlib
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from readme_commands import checkout

pytestmark = pytest.mark.system

STATIC = "reedboard/controller/broadcast/club/static"
SHIPPED = ("spectate.html", "spectate.js", "spectate.css", "board_cards.js", "club.js", "mqtt.min.js",
           "mqtt.min.js.LICENSE")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    tree = checkout(tmp_path_factory.mktemp("spectators-wheel"))
    out = tree.parent / "dist"
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                           "-q", "-w", str(out), str(tree)], capture_output=True, text=True, timeout=300)
    if done.returncode != 0 and ("Could not find a version" in done.stderr or "NewConnectionError" in done.stderr):
        pytest.skip("pip cannot fetch the build requirements (setuptools) to build the wheel: no package index here")
    assert done.returncode == 0, done.stderr[-2000:]
    (built,) = out.glob("reedboard-*.whl")
    return zipfile.ZipFile(built)


def test_the_wheel_carries_the_spectators_page_and_its_mqtt_client(wheel):
    names = set(wheel.namelist())
    for name in SHIPPED:
        assert f"{STATIC}/{name}" in names, name
    page = wheel.read(f"{STATIC}/spectate.html").decode("utf-8")
    assert '<script src="/club/mqtt.min.js"></script>' in page  # the page loads the client it ships with
    client = wheel.read(f"{STATIC}/mqtt.min.js")
    assert b"var mqtt=" in client[:200]  # the browser bundle: it defines the global `mqtt`
    note = wheel.read(f"{STATIC}/mqtt.min.js.LICENSE").decode("utf-8")
    assert re.search(r"package\s+mqtt \d+\.\d+\.\d+", note)
    assert "The MIT License" in note and "Permission is hereby granted" in note
    named = re.search(r"sha256 ([0-9a-f]{64})", note).group(1)
    assert hashlib.sha256(client).hexdigest() == named  # the file is the one the note describes


def test_the_checkout_and_the_wheel_hold_the_same_client(wheel):
    here = Path(__file__).resolve().parent.parent / "controller" / "broadcast" / "club" / "static" / "mqtt.min.js"
    assert wheel.read(f"{STATIC}/mqtt.min.js") == here.read_bytes()
