"""The names of the boards shipped with reedboard, without reading them: the command line lists
them in its help, which must not import the board files' reader."""

from __future__ import annotations

from importlib import resources


def shipped_boards() -> tuple[str, ...]:
    """The names of the boards shipped with reedboard (hardware/boards/<name>.toml)."""
    try:
        folder = resources.files("reedboard.hardware").joinpath("boards")
        return tuple(sorted(f.name[:-5] for f in folder.iterdir() if f.name.endswith(".toml")))
    except (FileNotFoundError, ModuleNotFoundError):
        return ()
