"""The drilling template on sheets a home printer prints: a PDF, tiled on A4 or Letter, at 1:1.

`template_svg` (drawings.py) draws the template on one sheet larger than the board, which a home
printer shrinks or cuts off. `tiled_template_pdf(board, paper)` cuts the board out of that same
drawing (its outline, everything inside it and the datum; the notes and the legend under it
stay on the SVG) and lays it on a grid of sheets, drawn with fpdf2 as vectors:

- Every sheet shows a window of the template at 1:1 (a millimetre is a millimetre on the paper):
  every hollow where the board file puts it, at its true diameter. The windows of neighbouring
  sheets overlap by OVERLAP mm; a thin grey frame is each window's edge.
- Nothing is printed in the outer MARGIN mm of a sheet, which home printers cannot reach. The
  window starts at the top left margin; a band on its right holds a vertical 100 mm bar, a band
  under it a horizontal 100 mm bar and the sheet's label: its column letter and row number ("B2
  of 2x2"), the board, "print at 100 % / actual size, no scaling" and how to join it.
- Alignment marks (crosses in a circle) sit on every edge a sheet shares with a neighbour, on
  the seam: the line where the later (right or lower) sheet's window begins. The earlier sheet
  prints them whole, the later one (its margin trimmed off at its frame and laid over the
  earlier) their other half, so they meet when the sheets lie right. They go where the
  template has the least ink, and the grid is slid over the board so that the seams cut as few
  hollows and words as they can.
- Each paper is tried upright and on its side: the fewer sheets win, upright on a tie.

`write_tiles(board, out_dir)` writes `<game>-template-a4.pdf` and `<game>-template-letter.pdf`.
The same board gives byte-identical files (a fixed date, no file identifier).
"""

from __future__ import annotations

import logging
import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import cached_property
from pathlib import Path

from reedboard.hal.board import Board
from reedboard.hardware.drawings import DrawingError, _board_name, _outline, _positions, _style, template_svg

__all__ = ["PAPERS", "Layout", "Sheet", "layout", "tiled_template_pdf", "write_tiles"]

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # width, height upright, mm
PAPER_NAMES = {"a4": "A4", "letter": "Letter"}
MARGIN = 7.0  # nothing is printed this close to the paper's edge
OVERLAP = 12.0  # neighbouring windows share this much of the template
BAND_RIGHT = 12.0  # beside the window: the vertical 100 mm bar
BAND_BOTTOM = 11.0  # under the window: the horizontal 100 mm bar and the label
PAD = 2.0  # paper around the board's outline (and its datum) that the sheets show
BAR = 100.0  # the scale bars' length, mm
MARK_RADIUS = 3.0  # an alignment mark: a circle, and a cross 2 * MARK_ARM long
MARK_ARM = 5.0
MARKS_PER_SEAM = 3
MARK_COLOUR = (200, 0, 120)
FRAME_GREY = 150
SVG = "{http://www.w3.org/2000/svg}"


# ----------------------------------------------------------------------------------------------
# What the template draws, as shapes: where the seams and the marks had better not go

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE]-?\d+)?")


@dataclass(frozen=True)
class _Shape:
    kind: str  # "ring" (x0, y0 centre, r radius), "box" (x0, y0, x1, y1), "segment"
    x0: float
    y0: float
    x1: float = 0.0
    y1: float = 0.0
    r: float = 0.0

    def distance(self, x: float, y: float) -> float:
        """From the point to the shape's ink (0 on it or, for a box, inside it)."""
        if self.kind == "ring":
            return abs(math.hypot(x - self.x0, y - self.y0) - self.r)
        if self.kind == "box":
            return math.hypot(max(self.x0 - x, 0.0, x - self.x1), max(self.y0 - y, 0.0, y - self.y1))
        dx, dy = self.x1 - self.x0, self.y1 - self.y0
        t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((x - self.x0) * dx + (y - self.y0) * dy) / (dx * dx + dy * dy)))
        return math.hypot(x - self.x0 - t * dx, y - self.y0 - t * dy)

    def span(self, axis: str) -> tuple[float, float]:
        """The shape's extent along "x" or "y"."""
        return self._spans[axis]

    @cached_property
    def _spans(self) -> dict[str, tuple[float, float]]:
        if self.kind == "ring":
            return {"x": (self.x0 - self.r, self.x0 + self.r), "y": (self.y0 - self.r, self.y0 + self.r)}
        return {"x": (min(self.x0, self.x1), max(self.x0, self.x1)), "y": (min(self.y0, self.y1), max(self.y0, self.y1))}


def _ink(e: ET.Element) -> tuple[list[_Shape], tuple[float, float, float, float] | None]:
    """One drawn element's ink, roughly (a text as a box of its likely width), and a box sure to
    hold it (x0, y0, x1, y1); an element not known here has no ink and no box."""
    def get(name):
        return float(e.get(name, 0))

    pen = 0.5  # half a stroke, and then some
    if e.tag == "circle":
        cx, cy, r = get("cx"), get("cy"), get("r")
        ring = _Shape("ring", cx, cy, r=r) if r > 3 else _Shape("box", cx - r, cy - r, cx + r, cy + r)
        return [ring], (cx - r - pen, cy - r - pen, cx + r + pen, cy + r + pen)
    if e.tag == "rect":
        x, y, w, h = get("x"), get("y"), get("width"), get("height")
        corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
        ink = ([_Shape("box", x, y, x + w, y + h)] if e.get("fill", "none") != "none" else  # a frame: its sides
               [_Shape("segment", *a, *b) for a, b in zip(corners, corners[1:])])
        return ink, (x - pen, y - pen, x + w + pen, y + h + pen)
    if e.tag == "line":
        x1, y1, x2, y2 = get("x1"), get("y1"), get("x2"), get("y2")
        return [_Shape("segment", x1, y1, x2, y2)], (min(x1, x2) - pen, min(y1, y2) - pen, max(x1, x2) + pen,
                                                      max(y1, y2) + pen)
    if e.tag == "path" and not re.search(r"[a-df-z]", e.get("d", "")):  # absolute M, L, A, Z only
        points, bulge = [], 0.0
        for command, args in re.findall(r"([MLAZ])([^MLAZ]*)", e.get("d", "")):
            numbers = [float(n) for n in _NUMBER.findall(args)]
            if command == "Z" and points:
                points.append(points[0])
            elif len(numbers) >= 2:
                points.append((numbers[-2], numbers[-1]))
                if command == "A":
                    bulge = max(bulge, abs(numbers[0]), abs(numbers[1]))  # an arc stays within its radius
        if points:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            reach = bulge + pen
            return ([_Shape("segment", *a, *b) for a, b in zip(points, points[1:])],
                    (min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach))
    if e.tag == "text":
        size, count = float(e.get("font-size", 16)), len("".join(e.itertext()))
        likely, most = count * size * 0.56, count * size * 0.8 + size
        x, y = get("x"), get("y")
        anchor = {"middle": 0.5, "end": 1.0}.get(e.get("text-anchor", "start"), 0.0)
        start = x - anchor * likely
        return ([_Shape("box", start, y - size * 0.75, start + likely, y + size * 0.25)],
                (x - anchor * most - size, y - size * 1.2, x + (1 - anchor) * most, y + size * 0.5))
    return [], None


@dataclass(frozen=True)
class _Template:
    root: ET.Element
    viewbox: tuple[float, float, float, float]  # x, y, width, height
    region: tuple[float, float, float, float]  # what the sheets show: x0, y0, x1, y1
    boxes: dict  # drawn element -> a box holding its ink, or None: on every sheet
    shapes: tuple[_Shape, ...]  # the ink, roughly

    @classmethod
    def of(cls, board: Board) -> "_Template":
        root = ET.fromstring(template_svg(board))
        for e in root.iter():  # plain names; the namespace is said once, on <svg>
            e.tag = e.tag.removeprefix(SVG)
        viewbox = tuple(float(v) for v in root.get("viewBox").split())
        for child in list(root):
            ground = child.tag == "rect" and child.get("fill") in ("#fff", "#ffffff", "white") and \
                float(child.get("width", 0)) >= viewbox[2]
            if child.tag == "title" or ground:  # the paper is white
                root.remove(child)
        boxes: dict = {}
        shapes: list[_Shape] = []

        def walk(e):
            if e.get("transform"):
                boxes[e] = None  # kept whole, on every sheet
            elif e.tag == "g":
                for child in e:
                    walk(child)
            else:
                ink, boxes[e] = _ink(e)
                shapes.extend(ink)

        for child in root:
            walk(child)
        # the sheets show the board (its outline), the datum and the parts placed on it; the
        # notes and the legend under it stay on the one-sheet template
        edge = _outline(board, _positions(board, "template"))
        x0, y0, x1, y1 = edge.x0, -edge.y1, edge.x1, -edge.y0
        for group in root:
            if group.get("id") in ("datum", "places"):
                for box in filter(None, (boxes.get(e) for e in group.iter())):
                    x0, y0, x1, y1 = min(x0, box[0]), min(y0, box[1]), max(x1, box[2]), max(y1, box[3])
        vx, vy, vw, vh = viewbox
        region = (max(vx, x0 - PAD), max(vy, y0 - PAD), min(vx + vw, x1 + PAD), min(vy + vh, y1 + PAD))
        shown = tuple(s for s in shapes if s.span("x")[0] < region[2] and region[0] < s.span("x")[1]
                      and s.span("y")[0] < region[3] and region[1] < s.span("y")[1])
        return cls(root, viewbox, region, boxes, shown)

    def svg_within(self, x0: float, y0: float, x1: float, y1: float) -> bytes:
        """The template with only what reaches into the box (what a sheet shows): a sheet's PDF
        holds no ink of the template beyond its window but the parts that cross its edge."""
        def keep(e):
            if e.tag == "g" and not e.get("transform"):
                group = ET.Element("g", e.attrib)
                group.extend(kept for kept in map(keep, e) if kept is not None)
                return group if len(group) else None
            box = self.boxes.get(e)
            return e if box is None or (box[0] < x1 and x0 < box[2] and box[1] < y1 and y0 < box[3]) else None

        kept = ET.Element("svg", {"xmlns": SVG[1:-1], **self.root.attrib})
        kept.extend(e for e in map(keep, self.root) if e is not None)
        return ET.tostring(kept, encoding="unicode").encode("utf-8")

    def cut(self, axis: str, at: float) -> float:
        """How much a seam at x (or y) = at cuts: a hollow 4, a word or another small part 1."""
        across = "y" if axis == "x" else "x"
        cost = 0.0
        for shape in self.shapes:
            low, high = shape.span(axis)
            if low < at < high:
                if shape.kind == "ring":
                    cost += 4.0
                elif shape.kind == "box":
                    start, end = shape.span(across)
                    cost += 1.0 if min(high - low, end - start) < 8 else 0.0
        return cost

    def near(self, axis: str, at: float, reach: float) -> list[_Shape]:
        """The shapes within reach of the line x (or y) = at."""
        return [s for s in self.shapes if s.span(axis)[0] - reach <= at <= s.span(axis)[1] + reach]


def _clearance(shapes: list[_Shape], x: float, y: float) -> float:
    """How far the point is from the shapes' ink."""
    return min((s.distance(x, y) for s in shapes), default=math.inf)


# ----------------------------------------------------------------------------------------------
# The grid of sheets


@dataclass(frozen=True)
class Sheet:
    column: int  # 0 = A
    row: int  # 0 = row 1
    left: float  # the template's point (its SVG user units, mm) at the window's top left corner
    top: float

    @property
    def name(self) -> str:
        return f"{chr(ord('A') + self.column)}{self.row + 1}"


@dataclass(frozen=True)
class Seam:
    axis: str  # "x": an upright seam at x = at; "y": a level one at y = at
    at: float  # template coordinate: where the later sheet's window begins
    marks: tuple[float, ...]  # the marks' other coordinate along the seam


@dataclass(frozen=True)
class Layout:
    paper: str  # "a4", "letter"
    width: float  # the page as printed, mm
    height: float
    columns: int
    rows: int
    window: tuple[float, float, float, float]  # x, y, width, height on the page, mm
    sheets: tuple[Sheet, ...]  # row by row, left to right: the order they are laid down in
    seams: dict[tuple[str, int, int], Seam]  # ("x", column, row): right of the sheet; ("y", ...): under it

    def page_point(self, sheet: Sheet, x: float, y: float) -> tuple[float, float]:
        """Where the template's point (x, y) (SVG user units) is printed on the sheet."""
        return self.window[0] + x - sheet.left, self.window[1] + y - sheet.top

    def seams_of(self, sheet: Sheet) -> list[Seam]:
        """The sheet's edges shared with a neighbour: left, right, top, bottom."""
        c, r = sheet.column, sheet.row
        keys = [("x", c - 1, r), ("x", c, r), ("y", c, r - 1), ("y", c, r)]
        return [self.seams[k] for k in keys if k in self.seams]


def _grid(paper: str, width: float, height: float) -> tuple[float, float, int, int, float, float]:
    """The fewest sheets whose windows cover width x height mm: page w, h, columns, rows, window
    w, h; upright on a tie."""
    try:
        short, long = PAPERS[paper]
    except KeyError:
        raise DrawingError(f"no paper {paper!r}: {', '.join(PAPERS)}") from None
    best = None
    for page_w, page_h in ((short, long), (long, short)):
        w = page_w - 2 * MARGIN - BAND_RIGHT
        h = page_h - 2 * MARGIN - BAND_BOTTOM
        columns = max(1, math.ceil((width - OVERLAP) / (w - OVERLAP) - 1e-9))
        rows = max(1, math.ceil((height - OVERLAP) / (h - OVERLAP) - 1e-9))
        if best is None or columns * rows < best[2] * best[3]:
            best = (page_w, page_h, columns, rows, w, h)
    return best


def _slide(start: float, slack: float, count: int, step: float, cost) -> float:
    """Where the first window begins along an axis: within the slack, the seams cutting least
    (`cost` of a seam's place), the template as centred as can be on a tie."""
    centred = start - slack / 2
    if count == 1:
        return centred
    options = [start - slack * k / 40 for k in range(41)]
    return min(options, key=lambda o: (round(sum(cost(o + i * step) for i in range(1, count)), 6), abs(o - centred)))


def _marks(template: _Template, axis: str, at: float, low: float, high: float) -> tuple[float, ...]:
    """MARKS_PER_SEAM places along a seam from low to high (clear of the overlaps at its ends),
    spread out: each the one farthest from the template's ink near its share of the seam, at
    least a third of a share after the one before, nearest its share's middle on a tie."""
    room = OVERLAP + MARK_ARM + 2
    low, high = low + room, high - room
    share = (high - low) / MARKS_PER_SEAM
    near = template.near(axis, at, MARK_ARM + 2)

    def clear(along):
        x, y = (at, along) if axis == "x" else (along, at)
        return min(_clearance(near, x, y), MARK_ARM + 1.5)  # this far off, it touches nothing

    steps = max(1, int((high - low) / 2.0))  # a place every 2 mm or so
    options = [(low + (high - low) * i / steps) for i in range(steps + 1)]
    room_of = {along: clear(along) for along in options}
    marks: list[float] = []
    for k in range(MARKS_PER_SEAM):
        middle = low + share * (k + 0.5)
        after = marks[-1] + share / 3 if marks else low
        before = high - (MARKS_PER_SEAM - 1 - k) * share / 3
        fits = [o for o in options if after <= o <= before and abs(o - middle) <= share * 0.9] or [middle]
        marks.append(min(fits, key=lambda o: (-room_of.get(o, 0.0), abs(o - middle))))
    return tuple(round(m, 3) for m in marks)


def layout(paper: str, template: _Template) -> Layout:
    """The sheets of `paper` ("a4", "letter") whose windows cover the template, each with its
    place on the template, and the seams with their marks."""
    x0, y0, x1, y1 = template.region
    width, height = x1 - x0, y1 - y0
    page_w, page_h, columns, rows, w, h = _grid(paper, width, height)
    left = _slide(x0, columns * w - (columns - 1) * OVERLAP - width, columns, w - OVERLAP,
                  lambda at: template.cut("x", at))
    top = _slide(y0, rows * h - (rows - 1) * OVERLAP - height, rows, h - OVERLAP, lambda at: template.cut("y", at))
    sheets = tuple(Sheet(c, r, left + c * (w - OVERLAP), top + r * (h - OVERLAP))
                   for r in range(rows) for c in range(columns))
    seams = {}
    for sheet in sheets:
        if sheet.column < columns - 1:
            at = sheet.left + w - OVERLAP
            seams[("x", sheet.column, sheet.row)] = Seam("x", at, _marks(template, "x", at, sheet.top, sheet.top + h))
        if sheet.row < rows - 1:
            at = sheet.top + h - OVERLAP
            seams[("y", sheet.column, sheet.row)] = Seam("y", at, _marks(template, "y", at, sheet.left, sheet.left + w))
    return Layout(paper, page_w, page_h, columns, rows, (MARGIN, MARGIN, w, h), sheets, seams)


# ----------------------------------------------------------------------------------------------
# The PDF


def _pdf():
    try:
        from fpdf import FPDF
        from fpdf.prefs import ViewerPreferences
    except ImportError:  # an install older than this drawing
        raise DrawingError("the template for a home printer needs fpdf2: pip install fpdf2") from None

    class _Pdf(FPDF):
        def file_id(self):  # no identifier: the same board, the same bytes
            return None

    pdf = _Pdf(unit="mm")
    pdf.set_creation_date(datetime(1970, 1, 1, tzinfo=timezone.utc))  # no date: the same bytes each time
    pdf.set_auto_page_break(False)
    pdf.set_compression(True)
    pdf.viewer_preferences = ViewerPreferences(print_scaling="None")  # a print dialog offers 100 %
    return pdf


def _draw_bars(pdf, plan: Layout) -> None:
    """A horizontal 100 mm bar under the window and a vertical one beside it, in 10 mm steps."""
    x, y, w, h = plan.window
    hx, hy = x, y + h + 2.5
    vx, vy = x + w + 3.0, y + 10.0
    pdf.set_draw_color(0)
    pdf.set_line_width(0.2)
    for k in range(10):
        pdf.set_fill_color(0 if k % 2 == 0 else 255)
        pdf.rect(hx + 10 * k, hy, 10, 2.5, style="DF")
        pdf.rect(vx, vy + 10 * k, 2.5, 10, style="DF")
    pdf.set_text_color(0)
    pdf.set_font("helvetica", size=6.5)
    for k, label in ((0, "0"), (50, "50"), (100, "100 mm")):
        pdf.text(hx + k - pdf.get_string_width(str(k)) / 2, hy + 5.4, label)
        pdf.text(vx + 3.4, vy + k + 0.8, label if k < 100 else "100")
    words = "measure: 100 mm"
    pdf.text(hx + 25 - pdf.get_string_width(words) / 2, hy + 5.4, words)
    at = (vx + 2.0, vy + BAR + 3.0 + pdf.get_string_width(words))
    with pdf.rotation(90, *at):
        pdf.text(*at, words)


def _draw_marks(pdf, plan: Layout, sheet: Sheet) -> None:
    """The alignment marks on every seam of the sheet (inside the window's clip)."""
    pdf.set_draw_color(*MARK_COLOUR)
    pdf.set_line_width(0.25)
    for seam in plan.seams_of(sheet):
        for along in seam.marks:
            cx, cy = plan.page_point(sheet, *((seam.at, along) if seam.axis == "x" else (along, seam.at)))
            pdf.circle(cx, cy, MARK_RADIUS, style="D")
            pdf.line(cx - MARK_ARM, cy, cx + MARK_ARM, cy)
            pdf.line(cx, cy - MARK_ARM, cx, cy + MARK_ARM)


def _fit(pdf, text: str, width: float, size: float, style: str = "") -> None:
    """Set the font at `size` points, or smaller until the text fits `width` mm."""
    while True:
        pdf.set_font("helvetica", style=style, size=size)
        if pdf.get_string_width(text) <= width or size <= 4:
            return
        size -= 0.25


def _draw_label(pdf, plan: Layout, sheet: Sheet, title: str, source: str) -> None:
    x, y, w, h = plan.window
    lx, ly = x + BAR + 12.0, y + h + 3.2
    room = plan.width - MARGIN - lx
    before = [n.name for n in plan.sheets if (n.row, n.column) in ((sheet.row, sheet.column - 1), (sheet.row - 1, sheet.column))]
    if before:
        edges = " and ".join(e for e, ok in (("left", sheet.column > 0), ("top", sheet.row > 0)) if ok)
        edges += " margins" if " and " in edges else " margin"
        join = f"Trim the {edges} off at the frame; lay on {' and '.join(before)}, marks on marks; tape."
    else:
        join = "Keep this sheet whole: the others are laid over it."
    lines = [(f"{sheet.name} of {plan.columns}x{plan.rows} · {title} drilling template · {source}", 8.0, "B"),
             ("Print at 100 % / actual size, no scaling: both bars 100 mm.", 6.5, ""), (join, 6.5, "")]
    pdf.set_text_color(0)
    for (text, size, style), dy in zip(lines, (0.0, 3.1, 6.0)):
        _fit(pdf, text, room, size, style)
        pdf.text(lx, ly + dy, text)


def tiled_template_pdf(board: Board, paper: str) -> bytes:
    """The board's drilling template on sheets of `paper` ("a4", "letter"), as PDF bytes."""
    template = _Template.of(board)
    vx, vy, vw, vh = template.viewbox
    plan = layout(paper, template)
    title = _style(board).title
    pdf = _pdf()
    from fpdf.errors import FPDFException

    pdf.set_title(f"{title} drilling template, 1:1, {plan.columns}x{plan.rows} sheets of {PAPER_NAMES[paper]}")
    pdf.set_creator("reedboard hardware draw")
    wx, wy, w, h = plan.window
    svg_log = logging.getLogger("fpdf.svg")
    level = svg_log.level
    svg_log.setLevel(logging.ERROR)  # what fpdf2 leaves out of an SVG: nothing the template needs
    try:
        for sheet in plan.sheets:
            pdf.add_page(format=(plan.width, plan.height))
            rx0, ry0, rx1, ry1 = template.region
            x0, y0 = max(sheet.left, rx0), max(sheet.top, ry0)  # the part of the board this sheet shows
            x1, y1 = min(sheet.left + w, rx1), min(sheet.top + h, ry1)
            if x0 < x1 and y0 < y1:
                with pdf.rect_clip(*plan.page_point(sheet, x0, y0), x1 - x0, y1 - y0):
                    pdf.image(template.svg_within(x0, y0, x1, y1), *plan.page_point(sheet, vx, vy), w=vw, h=vh)
            with pdf.rect_clip(wx, wy, w, h):
                _draw_marks(pdf, plan, sheet)
            pdf.set_draw_color(FRAME_GREY)
            pdf.set_line_width(0.15)
            pdf.rect(wx, wy, w, h)
            _draw_bars(pdf, plan)
            _draw_label(pdf, plan, sheet, title, _board_name(board))
        return bytes(pdf.output())
    except (FPDFException, ValueError) as error:  # fpdf2 refusing the drawing: one line, not a traceback
        raise DrawingError(f"cannot tile the template of {_board_name(board)} on {PAPER_NAMES[paper]}: {error}") from None
    finally:
        svg_log.setLevel(level)


def write_tiles(board: Board, out_dir: str | Path, papers=tuple(PAPERS)) -> list[Path]:
    """Write `<game>-template-<paper>.pdf` for every paper into out_dir."""
    out = Path(out_dir)
    written = []
    for paper in papers:
        data = tiled_template_pdf(board, paper)
        path = out / f"{board.name}-template-{paper}.pdf"
        try:
            out.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        except OSError as error:
            raise DrawingError(f"cannot write the drawings to {out}: {error.strerror or error}") from None
        written.append(path)
    return written
