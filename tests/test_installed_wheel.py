"""The package as a newcomer's clone installs it: the README's quick start builds the wheel of
the checkout and installs it into a fresh venv (conftest's `quick_start_controller`, shared with
the quick-start test), run here from a folder far from the source tree.

Everything the commands read (the firmware, the board files, the games' data, the page) must
come from the installed package, and nothing generic (controller, hal, hardware) may land at
the top of site-packages: the packages are reedboard.*.
"""

import os
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(quick_start_controller, tmp_path_factory):
    """The venv the quick start installed: (its bin folder, its site-packages, a folder to run in)."""
    tree, start, _ = quick_start_controller
    bin_dir = tree / Path(start[0]).parent
    (site,) = (bin_dir.parent / "lib").glob("python3*/site-packages")
    away = tmp_path_factory.mktemp("elsewhere")
    return bin_dir, site, away


def run(installed, *args, **kwargs):
    bin_dir, _, away = installed
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.Popen([str(bin_dir / "reedboard"), *args], cwd=away, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)


def test_only_reedboard_lands_in_site_packages(installed):
    _, site, _ = installed
    ours = {p.name for p in site.iterdir() if p.name.startswith("reedboard")}
    assert "reedboard" in ours
    for generic in ("controller", "hal", "hardware", "firmware"):
        assert not (site / generic).exists(), generic
    shipped = site / "reedboard"
    for needed in ("firmware/app.py", "firmware/main.py", "hardware/boards/bigballs.toml",
                   "hardware/boards/offboard.toml", "controller/games/data/abalone.toml", "controller/web/static/app.js",
                   *(f"controller/language/locale/{lang}/LC_MESSAGES/{domain}.mo"
                     for lang in ("de", "ro") for domain in ("play", "commands", "page", "rules"))):
        assert (shipped / needed).is_file(), needed


def test_the_fake_board_and_the_doctor_run_from_the_installed_package(installed):
    fake = run(installed, "fake-board", "bigballs", stdin=subprocess.PIPE)
    try:
        first = fake.stdout.readline()
        assert first.startswith("port: /dev/pts/"), first + fake.stderr.read() if not first else first
        port = first.split()[1]
        doctor = run(installed, "doctor", "--hal", "serial", "--port", port)
        out, err = doctor.communicate(timeout=60)
        assert doctor.returncode == 0, err
        assert out.splitlines()[0] == f"backend: serial (Pico on {port})"
        assert out.splitlines()[-1].startswith("occupied: a1 b1 c1")
    finally:
        if fake.poll() is None:
            fake.stdin.write("quit\n")
            fake.stdin.close()
            fake.wait(timeout=10)


def test_perft_of_every_game_runs_from_the_installed_package(installed):
    for game, expected in (("bigballs", "1"), ("offboard", "1"), ("abalone", "44")):
        process = run(installed, "perft", game, "1" if game == "abalone" else "0")
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0 and out.strip() == expected, (game, out, err)


def test_the_installed_command_line_speaks_german_and_romanian(installed):
    """The compiled catalogues travel in the wheel: --lang and LANG reach them outside the tree."""
    import gettext

    for lang, extra in (("de", ["--lang", "de"]), ("ro", [])):
        env_lang = {} if extra else {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "ro_RO.UTF-8"}
        usage = gettext.translation("commands", str(ROOT / "controller" / "language" / "locale"),
                                    languages=[lang]).gettext("usage: ")
        assert usage != "usage: ", f"no {lang} word for argparse's usage: the catalogue is incomplete"
        bin_dir, _, away = installed
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")} | env_lang
        done = subprocess.run([str(bin_dir / "reedboard"), *extra, "--help"], cwd=away, env=env, text=True,
                              capture_output=True, timeout=60)
        assert done.returncode == 0 and done.stdout.startswith(usage), (lang, done.stdout[:200], done.stderr[-500:])
