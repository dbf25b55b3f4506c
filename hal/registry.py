"""The board backends: each one's name, what it is, and how it is opened.

One registry, read by the board loader (which backends a board file may name), the chooser
(hal.backends.find_board: which to try, in what order) and the command line (`--backend`). A
backend's module is imported only when the backend is opened, so that naming them costs
nothing and a missing extra (gpiozero, pyserial) only matters to the backend that needs it.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Backend:
    name: str
    what: str  # for people, in --help and in what was tried
    tried_unasked: bool  # tried, in registry order, when no backend is named
    opener: str  # "module:function": function(boards, request) -> hal.backends.Found

    def open(self, boards, request):
        module, function = self.opener.split(":")
        return getattr(importlib.import_module(module), function)(boards, request)


BACKENDS: dict[str, Backend] = {
    backend.name: backend for backend in (
        Backend("serial", "a Raspberry Pi Pico on USB, running firmware/", True, "reedboard.hal.backends:open_serial"),
        Backend("gpio", "reed switches and LEDs on the Raspberry Pi's own pins", True, "reedboard.hal.backends:open_gpio"),
        Backend("sim", "the simulated board, played in the web view", False, "reedboard.hal.backends:open_sim"),
    )
}

NAMES: tuple[str, ...] = tuple(BACKENDS)
UNASKED: tuple[str, ...] = tuple(name for name, backend in BACKENDS.items() if backend.tried_unasked)


def names_in_words() -> str:
    """"gpio, serial or sim"."""
    names = sorted(NAMES)
    return ", ".join(names[:-1]) + " or " + names[-1]
