"""An address board that keeps the cues it was told to play, for the self-test and
calibration tests (the gpio buzzer only sounds them)."""

from reedboard.hal.interfaces import Cue


class Heard:
    def __init__(self, addresses) -> None:
        self.addresses = addresses
        self.cues: list[Cue] = []

    def play(self, cue: Cue) -> None:
        self.cues.append(cue)
        self.addresses.play(cue)

    def __getattr__(self, name: str):
        return getattr(self.addresses, name)
