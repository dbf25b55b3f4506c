"""A club night as a tournament, pure (no broker, no page): its journal of events, the Swiss and
round-robin pairings, the standings with their tie-breaks, the ratings across nights, and the
exports (CSV, the FIDE TRF). The club (controller/broadcast/club/club.py) feeds it the results the
boards broadcast and publishes its pairings; docs/tournament.md describes the evening."""

from .pairing import Pairing, PairingError, berger_round, swiss_pairing
from .standings import standings_table
from .tournament import Tournament, TournamentError

__all__ = ["Pairing", "PairingError", "Tournament", "TournamentError", "berger_round", "standings_table",
           "swiss_pairing"]
