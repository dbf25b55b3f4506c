"""The drilling template tiled for a home printer (hardware/tiles.py, written by `reedboard hardware
draw`), read back from the PDFs by an independent reader (pdfplumber) the way a maker uses them:
every sheet is A4 or Letter and says which it is and how to print it; both 100 mm bars measure
100 mm; Big Balls takes 2x2 sheets and Off Board 3x2; the outer 6 mm of every sheet stay blank;
and the sheets, laid on each other by their alignment marks starting from the one with the datum,
put every hollow of the board file where the file says, at its true diameter."""

import math
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pdfplumber
import pytest

from reedboard.hal.board import load_board
from reedboard.hardware import drawings, tiles
from reedboard.hardware.drawings import template_svg
from reedboard.hardware.tiles import write_tiles

pytestmark = pytest.mark.component

ROOT = Path(__file__).parent.parent
COMMITTED = ROOT / "hardware" / "drawings"
MM = 72 / 25.4  # PDF points in a millimetre
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # ISO 216 and ANSI A
GRIDS = {"bigballs": (2, 2), "offboard": (3, 2)}  # columns x rows
TITLES = {"bigballs": "Big Balls", "offboard": "Off Board"}
BLANK = 6.0  # mm at a sheet's edge a home printer cannot print
PLACE = 0.2  # mm: a hollow's centre, far inside 0.5 % of the board (1.5 mm on Big Balls)
SCALE = 0.005  # a bar's length and a hollow's diameter: within 0.5 %


def colour(value) -> tuple[float, ...] | None:
    if value is None:
        return None
    value = (value,) if isinstance(value, (int, float)) else tuple(value)
    return tuple(round(v, 2) for v in (value * 3 if len(value) == 1 else value))


def hex_colour(text: str) -> tuple[float, ...]:
    text = text.lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    return tuple(round(int(text[i:i + 2], 16) / 255, 2) for i in (0, 2, 4))


HOLLOW = hex_colour(drawings.RED)  # how the template draws a hollow: a red circle
DATUM = hex_colour(drawings.DARK)  # and its datum: two dark 20 mm lines crossing at 0,0
MARK = tuple(round(c / 255, 2) for c in tiles.MARK_COLOUR)  # an alignment mark: a circle in this colour


@dataclass
class Sheet:
    name: str
    column: int
    row: int
    grid: str  # "2x2" as its label says
    size: tuple[float, float]  # mm
    frame: tuple[float, float, float, float]  # the window on the template: x0, y0, x1, y1 mm from the top left
    hollows: list[tuple[float, float, float]]  # centre x, y (page mm), diameter, of those inside the frame
    marks: list[tuple[float, float]]
    datum: tuple[float, float] | None  # the board's 0,0 on the page, when inside the frame
    bars: tuple[float, float, int, int]  # horizontal, vertical length mm; their segments
    text: str

    def inside(self, x: float, y: float) -> bool:
        x0, y0, x1, y1 = self.frame
        return x0 < x < x1 and y0 < y < y1

    def marks_at(self, edge: str) -> list[tuple[float, float]]:
        """The marks nearest the frame's `edge` (left, right, top, bottom), along it in order."""
        x0, y0, x1, y1 = self.frame
        near = []
        for x, y in self.marks:
            gaps = {"left": x - x0, "right": x1 - x, "top": y - y0, "bottom": y1 - y}
            if min(gaps, key=gaps.get) == edge and gaps[edge] < 15.5:
                near.append((x, y))
        return sorted(near, key=lambda p: p[1] if edge in ("left", "right") else p[0])


def box(o) -> tuple[float, float, float, float]:
    return o["x0"] / MM, o["top"] / MM, o["x1"] / MM, o["bottom"] / MM


def read(page) -> Sheet:
    """What a sheet shows, as the reader finds it."""
    text = page.extract_text()
    label = re.search(r"\b([A-Z])(\d+) of (\d+x\d+)\b", text)
    assert label, f"page {page.page_number} has no label like 'B2 of 2x2'"
    frames = [box(r) for r in page.rects if r["stroke"] and not r["fill"]]
    frame = max(frames, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
    x0, y0, x1, y1 = frame
    circles = [(box(c), colour(c["stroking_color"])) for c in page.curves]
    circles = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2, b[2] - b[0], b[3] - b[1], tint) for b, tint in circles]
    hollows = [(x, y, w) for x, y, w, h, tint in circles if tint == HOLLOW and w > 15 and abs(w - h) < 0.05]
    marks = [(x, y) for x, y, w, h, tint in circles if tint == MARK and abs(w - h) < 0.05]
    cross = [box(line) for line in page.lines if colour(line["stroking_color"]) == DATUM]
    level = [b for b in cross if abs(b[3] - b[1]) < 0.01 and abs(b[2] - b[0] - 20) < 2]
    upright = [b for b in cross if abs(b[2] - b[0]) < 0.01 and abs(b[3] - b[1] - 20) < 2]
    datum = (upright[0][0], level[0][1]) if len(level) == len(upright) == 1 else None
    # the bars: black and white boxes clear of the frame, under it and beside it
    bars = [box(r) for r in page.rects if r["fill"] and colour(r["non_stroking_color"]) in ((0, 0, 0), (1, 1, 1))]
    under = [b for b in bars if b[1] >= y1 + 1]
    beside = [b for b in bars if b[0] >= x1 + 1 and b[1] < y1]
    length = lambda boxes, a, b: max(v[b] for v in boxes) - min(v[a] for v in boxes) if boxes else 0.0  # noqa: E731
    sheet = Sheet(label.group(1) + label.group(2), ord(label.group(1)) - ord("A"), int(label.group(2)) - 1,
                  label.group(3), (page.width / MM, page.height / MM), frame,
                  [], marks, None, (length(under, 0, 2), length(beside, 1, 3), len(under), len(beside)), text)
    sheet.hollows = [h for h in hollows if sheet.inside(h[0], h[1])]
    sheet.datum = datum if datum and sheet.inside(*datum) else None
    return sheet


def diameters(board) -> dict[str, float]:
    """Each hollow's true diameter: as the 1:1 template draws it (tests/test_drawings.py holds it
    to the board's style)."""
    root = ET.fromstring(template_svg(board))
    return {e.get("id")[len("hollow-"):]: 2 * float(e.get("r")) for e in root.iter() if
            (e.get("id") or "").startswith("hollow-")}


def check(board, paper: str, pages: list) -> None:
    """Every rule of a tiled template, on the PDF's pages; an AssertionError names the first broken."""
    columns, rows = GRIDS[board.name]
    sheets = [read(page) for page in pages]
    by_place = {(s.column, s.row): s for s in sheets}
    assert len(sheets) == columns * rows, f"{len(sheets)} sheets, not {columns}x{rows}"
    assert sorted(by_place) == sorted((c, r) for c in range(columns) for r in range(rows)), "a sheet is missing"
    short, long = PAPERS[paper]
    for s in sheets:
        assert s.grid == f"{columns}x{rows}", s.name
        assert sorted(s.size) == pytest.approx((short, long), abs=0.1), f"{s.name} is not {paper}"
        words = " ".join(s.text.split()).lower()
        assert "print at 100 % / actual size, no scaling" in words and TITLES[board.name].lower() in words
        assert f"{board.name}.toml" in words and "100 mm" in words, s.name
        horizontal, vertical, segments_h, segments_v = s.bars
        assert horizontal == pytest.approx(100, rel=SCALE) and vertical == pytest.approx(100, rel=SCALE), s.name
        assert segments_h >= 10 and segments_v >= 10, f"{s.name}: bars without their 10 mm ticks"
        x0, y0, x1, y1 = s.frame
        assert min(x0, y0, s.size[0] - x1, s.size[1] - y1) >= BLANK, f"{s.name}'s frame is in the margin"

    # lay the sheets on each other by their marks, from the one with the datum: each sheet's
    # offset turns a point on it into the template's (x, -y of the board)
    with_datum = [s for s in sheets if s.datum]
    assert len(with_datum) == 1, "the datum 0,0 must show on one sheet"
    start = with_datum[0]
    offset = {start.name: (-start.datum[0], -start.datum[1])}
    todo = [start]
    seams = 0
    while todo:
        sheet = todo.pop()
        for dc, dr, mine, theirs in ((1, 0, "right", "left"), (-1, 0, "left", "right"),
                                     (0, 1, "bottom", "top"), (0, -1, "top", "bottom")):
            other = by_place.get((sheet.column + dc, sheet.row + dr))
            if other is None:
                continue
            here, there = sheet.marks_at(mine), other.marks_at(theirs)
            assert len(here) >= 2 and len(here) == len(there), f"{sheet.name}|{other.name}: marks {here} {there}"
            shifts = [(a[0] - b[0], a[1] - b[1]) for a, b in zip(here, there)]
            assert max(abs(u - v) for s1 in shifts for s2 in shifts for u, v in zip(s1, s2)) < 0.05, (
                f"{sheet.name}|{other.name}: the marks do not coincide")
            later = other if (dc, dr) in ((1, 0), (0, 1)) else sheet
            edge = theirs if later is other else mine
            cut = {"left": later.frame[0], "top": later.frame[1]}[edge]
            assert all(abs((m[0] if edge == "left" else m[1]) - cut) < 0.05 for m in later.marks_at(edge)), (
                f"{later.name}: its marks are not on its cut edge")
            ox, oy = offset[sheet.name]
            mine_offset = (ox + shifts[0][0], oy + shifts[0][1])
            if other.name in offset:
                assert offset[other.name] == pytest.approx(mine_offset, abs=0.05), f"{other.name} lies two ways"
            else:
                offset[other.name] = mine_offset
                todo.append(other)
            if later is other:  # the overlap: how far the later window reaches into the earlier
                seams += 1
                if dc:
                    overlap = sheet.frame[2] - (other.frame[0] + shifts[0][0])
                else:
                    overlap = sheet.frame[3] - (other.frame[1] + shifts[0][1])
                assert 10 <= overlap <= 15, f"{sheet.name}|{other.name} overlap {overlap:.1f} mm"
    assert len(offset) == len(sheets), f"sheets no mark leads to: {set(by_place) - set(offset)}"
    assert seams == (columns - 1) * rows + columns * (rows - 1)

    true = diameters(board)
    seen = set()
    for s in sheets:
        ox, oy = offset[s.name]
        for x, y, d in s.hollows:
            bx, by = x + ox, -(y + oy)
            cell = min(board.cells, key=lambda c: math.dist(board.position[c], (bx, by)))
            miss = math.dist(board.position[cell], (bx, by))
            assert miss < PLACE, f"{cell} on {s.name} is {miss:.2f} mm from where the board file puts it"
            assert d == pytest.approx(true[cell], rel=SCALE), f"{cell} on {s.name}: Ø{d:.2f}, not {true[cell]}"
            seen.add(cell)
    assert seen == set(board.cells), f"hollows on no sheet: {sorted(set(board.cells) - seen)}"


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    """What `reedboard hardware draw` writes for the shipped boards: {(game, paper): path}."""
    out = tmp_path_factory.mktemp("tiles")
    return {(game, path.stem.rsplit("-", 1)[1]): path for game in GRIDS
            for path in write_tiles(load_board(game=game), out)}


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("game", GRIDS)
def test_the_sheets_put_every_hollow_in_its_place(drawn, game, paper):
    with pdfplumber.open(drawn[(game, paper)]) as pdf:
        check(load_board(game=game), paper, pdf.pages)


def test_the_outer_margin_of_every_sheet_stays_blank(drawn):
    for path in drawn.values():
        with pdfplumber.open(path) as pdf:
            for page in pdf.pages:
                image = page.to_image(resolution=50).original.convert("L")
                w, h = image.size
                edge = math.ceil(BLANK / 25.4 * 50)
                for stripe in ((0, 0, w, edge), (0, h - edge, w, h), (0, 0, edge, h), (w - edge, 0, w, h)):
                    assert image.crop(stripe).getextrema()[0] >= 250, f"{path.name} p{page.page_number}: ink at the edge"


def test_the_checks_catch_a_missing_sheet_a_scale_error_and_marks_that_miss(drawn, tmp_path, monkeypatch):
    """The checks fail when a sheet is left out, when the template is drawn 2 % large, and when
    the marks of the sheets after the first column are 1 mm off."""
    import fpdf

    board = load_board(game="bigballs")
    with pdfplumber.open(drawn[("bigballs", "a4")]) as pdf:
        with pytest.raises(AssertionError, match="sheets, not 2x2"):
            check(board, "a4", pdf.pages[:3])
    with monkeypatch.context() as patch:
        image = fpdf.FPDF.image
        patch.setattr(fpdf.FPDF, "image", lambda self, name, x, y, w, h: image(self, name, x, y, w=w * 1.02, h=h * 1.02))
        (path,) = write_tiles(board, tmp_path / "large", papers=("a4",))
    with pdfplumber.open(path) as pdf, pytest.raises(AssertionError, match="from where the board file puts it|Ø"):
        check(board, "a4", pdf.pages)
    marks = tiles._draw_marks
    monkeypatch.setattr(tiles, "_draw_marks", lambda pdf, plan, sheet: marks(
        pdf, plan, tiles.Sheet(sheet.column, sheet.row, sheet.left + (sheet.column > 0), sheet.top)))
    (path,) = write_tiles(board, tmp_path / "marks", papers=("a4",))
    with pdfplumber.open(path) as pdf, pytest.raises(AssertionError, match="from where the board file puts it|two ways|cut edge"):
        check(board, "a4", pdf.pages)


def test_the_committed_pdfs_are_what_draw_writes(drawn):
    for path in drawn.values():
        committed = COMMITTED / path.name
        assert committed.exists(), f"run `reedboard hardware draw` to create {committed}"
        if committed.read_bytes() != path.read_bytes():  # another fpdf2 may write other bytes: not other sheets
            with pdfplumber.open(committed) as old, pdfplumber.open(path) as new:
                assert len(old.pages) == len(new.pages), f"{committed} is stale: regenerate the drawings"
                for a, b in zip(old.pages, new.pages):
                    sa, sb = read(a), read(b)
                    stale = f"{committed} is stale: regenerate the drawings (`reedboard hardware draw`)"
                    assert (sa.name, sa.text, len(sa.hollows), len(sa.marks)) == (sb.name, sb.text, len(sb.hollows),
                                                                                  len(sb.marks)), stale
                    flat = lambda s: [v for p in sorted(s.hollows) + sorted(s.marks) for v in p] + list(s.frame)  # noqa: E731
                    assert flat(sa) == pytest.approx(flat(sb), abs=0.05), stale
