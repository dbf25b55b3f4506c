"""How to install one of reedboard's extras, said the same way everywhere it is missing: from a
wheel (or an index that has reedboard), and from a checkout of the repository."""


def pip_extra(extra: str) -> str:
    """The two pip commands that bring the extra `extra` ("web", "club", "pi")."""
    return f"pip install 'reedboard[{extra}]', or in a checkout of reedboard: pip install '.[{extra}]'"
