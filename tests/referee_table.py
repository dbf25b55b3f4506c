"""A live referee at a table in test time: hands place and lift pieces (tests/physical.py), and
what the board was told to show and the journal's lines are kept to look at."""

from reedboard.controller.core.referee import Outputs
from reedboard.controller.core.view import Phase
from reedboard.controller.session.live import LiveReferee
from reedboard.controller.words.notes import written

from physical import Hands


class Board:
    """What a board was told to show, in order."""

    def __init__(self):
        self.frames, self.dice, self.cues = [], [], []
        self.outputs = Outputs(lights=self.frames.append, die=self.dice.append, buzzer=self.cues.append)

    def lit(self, colour):
        return {cell for cell, light in self.frames[-1].cells.items() if light.colour == colour}


class Journal:
    def __init__(self):
        self.lines = []

    def __getattr__(self, name):
        if name.startswith("append_"):
            return lambda *args, **extra: self.lines.append((name[7:],) + args)
        raise AttributeError(name)


def started(game, setup="given", rng=None, **kwargs):
    board = Board()
    referee = LiveReferee(game, outputs=board.outputs, setup=setup, rng=rng, **kwargs)
    referee.start(0.0)
    referee.frame(0.0, [])  # the board says what it holds as soon as it starts: nothing
    hands = Hands(referee, [])
    return referee, hands, board


def set_up(game, **kwargs):
    referee, hands, board = started(game, **kwargs)
    hands.place(*sorted(game.occupied())).settle()
    assert referee.phase in (Phase.PLAY, Phase.ROLLED)
    return referee, hands, board


def notes(referee):
    return [written(n.kind, n.data, referee.game) for n in referee.notes]
