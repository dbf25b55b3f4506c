"""`controller.play`: the names other modules import for a play session, from where they live.

    controller.session    the session's life: PlaySession, ScriptedDie
    controller.sim_table  the simulated table's pieces, hand and box
    controller.snapshot   publishing snapshots; positions as plain data
    controller.actions    ActionError
    controller.past_games browsing past journals
"""

from __future__ import annotations

from .actions import ActionError
from .journal import default_games_dir
from .past_games import journal_path, past_game, past_games
from .referee import SETUP_MODES, Die, Note, Outputs, Referee
from .session import KEEP, LINK_BACK, LINK_LOST, PlaySession, ScriptedDie
from .sim_table import Held, SimTable, sim_board_for
from .snapshot import NOTES_SHOWN, outcome_data, position_data

__all__ = [
    "KEEP", "LINK_BACK", "LINK_LOST", "NOTES_SHOWN", "SETUP_MODES", "ActionError", "Die", "Held", "Note", "Outputs",
    "PlaySession", "Referee", "ScriptedDie", "SimTable", "default_games_dir", "journal_path",
    "outcome_data", "past_game", "past_games", "position_data", "sim_board_for",
]
