"""The guides: a short README (what reedboard is, the two commands, a map) and a page for each
reader (docs/players.md, docs/builders.md, docs/maintainers.md), every link leading somewhere,
and each thing said in one place."""

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = {reader: ROOT / "docs" / f"{reader}.md" for reader in ("players", "builders", "maintainers")}
GUIDES = [README, *sorted((ROOT / "docs").rglob("*.md")), ROOT / "hardware" / "README.md",
          ROOT / "firmware" / "README.md"]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")


def prose(path: Path) -> list[str]:
    """The lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found, seen = set(), {}
    for line in prose(path):
        match = re.match(r"#{1,6} (.+)", line)
        if match:
            base = slug(match.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def sections(path: Path) -> list[str]:
    return [line[3:].strip() for line in prose(path) if line.startswith("## ")]


def test_every_link_of_the_guides_leads_somewhere():
    broken = []
    for path in GUIDES:
        for line in prose(path):
            for match in LINK.finditer(line):
                href = match.group(1) or match.group(2)
                if re.match(r"[a-z]+:", href):
                    continue
                target, _, anchor = href.partition("#")
                where = (path.parent / target).resolve() if target else path
                if not where.exists():
                    broken.append(f"{path.relative_to(ROOT)}: {href}")
                elif anchor and where.suffix == ".md" and anchor not in anchors(where):
                    broken.append(f"{path.relative_to(ROOT)}: {href} (no such heading)")
    assert broken == []


def test_the_readme_is_a_way_in():
    assert sections(README) == ["Quick start", "Where to read on"]
    text = README.read_text(encoding="utf-8")
    for page in ("docs/players.md", "docs/builders.md", "docs/maintainers.md", "docs/commands.md"):
        assert f"]({page})" in text, page
    assert len(text.splitlines()) < 80


def test_each_reader_has_a_page_with_what_is_theirs():
    expected = {
        "players": ["Notation", "What the lights mean", "Setting up", "The game clock", "Playing the computer",
                    "The archive"],
        "builders": ["Boards and backends", "The configuration file", "Many boards, one club"],
        "maintainers": ["Layout", "Journals and traces", "Speed"],
    }
    for reader, titles in expected.items():
        have = sections(PAGES[reader])
        assert [t for t in titles if t not in have] == [], reader


def test_no_line_of_prose_is_a_wall():
    # The README once had a command-table row of 1,433 characters; tables aside, prose is wrapped.
    for path in (README, *PAGES.values()):
        long = [line[:60] for line in prose(path) if len(line) > 110 and not line.startswith("|")]
        assert long == [], path.name


def test_hardware_readme_does_not_repeat_the_pi_guide():
    def runs(path, n=4):
        lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
        return {tuple(lines[i:i + n]) for i in range(len(lines) - n + 1) if all(lines[i:i + n])}

    shared = runs(ROOT / "hardware" / "README.md") & runs(ROOT / "docs" / "raspberry-pi.md")
    assert shared == set()


def test_the_pi_guide_installs_from_this_repository_and_stops_the_service_before_asking_the_pico():
    text = (ROOT / "docs" / "raspberry-pi.md").read_text(encoding="utf-8")
    assert not re.search(r"pip install (-U )?'reedboard\[pi\]'", text)  # reedboard is not on the package index
    assert "git clone" in text and "pip wheel" in text
    updating = text[text.index("## 9. Updating"):text.index("## Which Pi")]
    assert updating.index("systemctl stop reedboard") < updating.index("reedboard firmware version")
    assert "bigballs" in text[text.index("## 4."):text.index("## 5.")] and "offboard" in text
    assert "micropython.org" in text and "Pico 2" in text
    assert "--hal" not in text and "cp ~/board.toml" in text
