"""A small web page that follows a builder's guide (calibration, self-test): the board drawn from
its board file, the hollow asked for marked, and the prompt in words. Read-only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import uvicorn
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from reedboard.hal.board import Board


class Prompt(Protocol):
    """What the page shows of the guide's prompt (the builder's guide in workshop/guide.py): the
    web view sits below the commands, so the page only knows the prompt by this."""

    def as_dict(self) -> dict: ...


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>reedboard: TITLE</title>
<style>
body { font-family: system-ui, sans-serif; background: #1e2126; color: #eee; margin: 2rem; }
h1 { font-weight: 600; font-size: 1.3rem; } #prompt { font-size: 1.6rem; margin: 1rem 0; }
svg { max-width: 46rem; width: 100%; background: #b98a55; border-radius: 1rem; }
circle { fill: #6b4a2a; stroke: #3a2714; } circle.asked { fill: #27e38a; stroke: #fff; stroke-width: 3; }
text { font-size: 9px; fill: #f3e6d3; text-anchor: middle; }
</style></head><body>
<h1>reedboard: TITLE (BOARD)</h1>
<div id="prompt" data-role="prompt">waiting for the board...</div>
<svg id="board" viewBox="VIEWBOX"></svg>
<script>
const cells = CELLS;
const svg = document.getElementById("board");
for (const [name, x, y] of cells) {
  svg.insertAdjacentHTML("beforeend",
    `<g data-cell="${name}"><circle cx="${x}" cy="${-y}" r="13"></circle><text x="${x}" y="${-y + 3}">${name}</text></g>`);
}
let serial = -1;
async function poll() {
  try {
    const prompt = await (await fetch("api/prompt")).json();
    if (prompt.serial !== serial) {
      serial = prompt.serial;
      document.getElementById("prompt").textContent = prompt.text;
      for (const g of svg.querySelectorAll("g")) {
        g.querySelector("circle").classList.toggle("asked", g.dataset.cell === prompt.cell);
      }
    }
  } catch (error) { /* the guide has ended */ }
  setTimeout(poll, 250);
}
poll();
</script></body></html>
"""


def guide_app(board: Board, current: Callable[[], Prompt | None], title: str) -> Starlette:
    xs = [x for x, _ in board.position.values()] or [0.0]
    ys = [y for _, y in board.position.values()] or [0.0]
    viewbox = f"{min(xs) - 20:.0f} {-max(ys) - 20:.0f} {max(xs) - min(xs) + 40:.0f} {max(ys) - min(ys) + 40:.0f}"
    cells = [[c, round(board.position[c][0], 1), round(board.position[c][1], 1)] for c in board.cells
             if c in board.position]
    page = (PAGE.replace("TITLE", title).replace("BOARD", board.name).replace("VIEWBOX", viewbox)
            .replace("CELLS", repr(cells).replace("'", '"')))

    async def index(request):
        return HTMLResponse(page)

    async def prompt(request):
        now = current()
        return JSONResponse(now.as_dict() if now else {"step": 0, "action": "idle", "text": "starting",
                                                        "cell": None, "led": None, "serial": -1})

    return Starlette(routes=[Route("/", index), Route("/api/prompt", prompt)])


def guide_server(board: Board, current: Callable[[], Prompt | None], title: str,
                 host: str, port: int) -> uvicorn.Server:
    config = uvicorn.Config(guide_app(board, current, title), host=host, port=port, log_level="warning")
    return uvicorn.Server(config)
