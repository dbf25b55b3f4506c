"""The README's two commands, run as a newcomer runs them: in a checkout, the controller first
(serving its page), then the test suite's install beside it. Neither may break the other: the
page still answers after the tests' install, and each venv runs its own reedboard."""

import os
import shlex
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from conftest import free_port
from readme_commands import install, outside_env

pytestmark = pytest.mark.system


def status(url):
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def test_the_controller_keeps_serving_while_the_tests_are_installed_beside_it(quick_start_controller, tmp_path):
    tree, start, test = quick_start_controller  # the first command run up to its last step
    assert start[1:3] == ["play", "bigballs"], start
    port = free_port()
    env = outside_env()
    env.update(XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_DATA_HOME=str(tmp_path / "data"))
    play = subprocess.Popen([*start, "--listen", f"127.0.0.1:{port}"], cwd=tree, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        for line in play.stdout:  # it says its address once it is about to serve
            if line.startswith("web view:"):
                break
        page = f"http://127.0.0.1:{port}"
        while status(page + "/") is None and play.poll() is None:
            time.sleep(0.2)
        assert status(page + "/") == 200

        runner = shlex.split(install(test, tree))
        assert runner[1:] == ["-m", "pytest"], runner
        for path in ("/", "/static/style.css", "/static/app.js"):
            assert status(page + path) == 200, path
        assert play.poll() is None

        def where(python):
            return subprocess.run([python, "-c", "import reedboard.controller as c; print(c.__file__)"], cwd=tree.parent,
                                  capture_output=True, text=True, timeout=60, check=True).stdout.strip()
        # the controller's venv has its own copy; the tests' venv runs the checkout itself
        assert "site-packages" in where(str(tree / os.path.dirname(start[0]) / "python"))
        assert where(str(tree / runner[0])) == str(tree / "controller" / "__init__.py")
    finally:
        play.terminate()
        play.wait(timeout=30)
