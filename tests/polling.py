"""Waiting in a test for something another process or thread does: polled, never a fixed sleep;
and a process the test started, ended (the tests and the benches share both)."""

import subprocess
import time

WAIT = 60.0  # s at most for any one condition (a loaded machine); met, the test goes on at once


def until(condition, what: str, timeout: float = WAIT, every: float = 0.05):
    """condition()'s first true value, polled every `every` s; an AssertionError naming `what`
    after `timeout`."""
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(every)
    return value


def end(process: subprocess.Popen, timeout: float = 10) -> None:
    """A process asked to stop (SIGTERM) and, should it not within `timeout` s, killed; waited for."""
    process.terminate()
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
