"""Board definitions for the Off Board tests, built from the default one."""

import tomllib
from importlib import resources

from reedboard.controller.games.offboard_layout import parse_layout


def default_data() -> dict:
    text = resources.files("reedboard.controller.games").joinpath("data/offboard.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def regrouped(groups: dict[str, tuple[int, list[str]]]):
    """A layout whose sectors merge the default ones: {"S1": (3, ["S1", "S2", "S3"]), ...}.
    Corner exits are left out, so the loader derives them."""
    data = default_data()
    old = {t["name"]: t["exits"] for t in data["sector"]}
    corners = {"A1-SW", "A5-SE", "E9-E", "I9-NE", "I5-NW", "E1-W"}
    data["sector"] = [
        {"name": name, "value": value, "exits": [e for s in members for e in old[s] if e not in corners]}
        for name, (value, members) in groups.items()
    ]
    return parse_layout(data, "test board")
