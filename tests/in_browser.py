"""The board's page in a real browser: Playwright for Python drives Debian's chromium
(/usr/bin/chromium; `playwright install` is never used). Hands click hollows and wait for what the
page shows; the `browser` and `open_page` fixtures are in conftest.py, which skips a test that needs
them where chromium or Playwright is missing."""

import os
import time
from pathlib import Path

from reedboard.controller.core.reconcile import Settings

try:
    from playwright.sync_api import expect
except ImportError:  # no Playwright here: the tests that use it are skipped (conftest.py)
    expect = None

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
TIMEOUT = 8000  # ms for any one thing to show on the page
FAST = Settings(settle=0.3, grace=0.5)
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


def cell(page, name):
    return page.locator(f'[data-cell="{name}"]')


def wait_until(condition, what, timeout=10.0):
    """Poll `condition` until it holds; fail naming `what` after a generous timeout."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.005)


def counted(page):
    """Wait until the referee has counted the simulated board as it stands (its debounce is
    over): a lift and a put-back it has not counted apart would be one bounce to the sensors, as
    they would be for a hand that quick. The page was opened with its session (open_page)."""
    session = page.session
    wait_until(lambda: session.referee is not None and session.sim is not None
               and session.referee.reconciler.stable == frozenset(session.sim.occupied),
               "the referee to count the board as it stands")


def click(page, name):
    """Click a hollow once the last click was counted, and wait until the page shows the
    simulated board changed."""
    counted(page)
    before = cell(page, name).get_attribute("data-sim")
    cell(page, name).click()
    expect(cell(page, name)).not_to_have_attribute("data-sim", before or "", timeout=TIMEOUT)


def timed_click(page, name, condition_js):
    """Click a hollow (once the last click was counted); ms until the page shows the click, and
    until `condition_js` holds. The times are printed, never asserted."""
    counted(page)
    shown, answered = page.evaluate(
        """([name, condition]) => new Promise((resolve) => {
            const el = document.querySelector(`[data-cell="${name}"]`);
            const before = el.dataset.sim;
            const done = new Function(`return (${condition})`);
            const t0 = performance.now();
            let shown = null;
            const check = () => {
              if (shown === null && el.dataset.sim !== before) shown = performance.now() - t0;
              if (shown !== null && done()) {
                observer.disconnect();
                resolve([shown, performance.now() - t0]);
              }
            };
            const observer = new MutationObserver(check);
            observer.observe(document.body, { attributes: true, childList: true, subtree: true });
            el.querySelector(".hit").dispatchEvent(new MouseEvent("click", { bubbles: true }));
        })""",
        [name, condition_js],
    )
    return shown, answered


def wait_for_prompt(page, kind):
    """Wait until the page shows what the board asks of the players now (the prompt's kind)."""
    expect(page.locator('[data-role="message"]')).to_have_attribute("data-prompt", kind, timeout=TIMEOUT)


def record(page):
    """The moves in the move list, without their numbers."""
    return page.locator('[data-role="record"] > li .move').all_inner_texts()


def shot(page, name):
    """A screenshot to look at, when REEDBOARD_SHOTS names a folder."""
    folder = os.environ.get("REEDBOARD_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)
