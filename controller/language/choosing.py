"""Which of LANGUAGES someone wants: from an option, the environment or a browser's header."""

from __future__ import annotations

from collections.abc import Mapping

from .catalogue import LANGUAGES


def supported(tag: str | None) -> str | None:
    """The language of a tag such as `de`, `de_DE.UTF-8`, `ro-RO` or `en_GB`, if we speak it."""
    if not tag:
        return None
    base = tag.strip().replace("-", "_").split(".")[0].split("@")[0].split("_")[0].lower()
    return base if base in LANGUAGES else None


def from_environment(environ: Mapping[str, str]) -> str:
    """The language the environment asks for, as gettext reads it: LANGUAGE (a list), then
    LC_ALL, LC_MESSAGES, LANG; the first set variable decides. C and POSIX mean English."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if not value:
            continue
        for tag in value.split(":"):
            if tag in ("C", "POSIX") or tag.startswith("C."):
                return "en"
            if (lang := supported(tag)) is not None:
                return lang
        if name != "LANGUAGE":  # LANGUAGE may list only languages we lack; the next variable then decides
            return "en"
    return "en"


def from_accept_language(header: str | None) -> str | None:
    """The most wanted language we speak of an HTTP Accept-Language header (`ro-RO,ro;q=0.9,en;q=0.8`)."""
    wanted = []
    for i, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if (lang := supported(tag)) is not None and q > 0:
            wanted.append((-q, i, lang))
    return min(wanted)[2] if wanted else None
