"""Each game's rules page text, kept as data beside the engines: data/<game>.rules.toml.

A file has [[section]] tables (title, points: the paragraphs) and [[diagram]] tables (id, title,
moves: played from the game's example start, caption).
"""

from __future__ import annotations

from importlib import resources


def rules_text(game: str) -> dict:
    """{"sections": [{"title", "points"}], "diagrams": [(id, title, moves, caption), ...]} of `game`."""
    from ..ground.tomlfile import parse_toml  # here: importing the games reads no rules
    name = f"data/{game}.rules.toml"
    data = parse_toml(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"), name, ValueError)
    return {
        "sections": [{"title": s["title"], "points": list(s["points"])} for s in data.get("section", [])],
        "diagrams": [(d["id"], d["title"], list(d.get("moves", [])), d["caption"]) for d in data.get("diagram", [])],
    }
