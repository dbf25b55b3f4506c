"""A move taught by the board, followed to the letter, leaves every colour where the game says.

The switches under the hollows feel a piece, never its colour: the board knows the colours
only from the moves it accepts. Off Board and Abalone move a whole line by one lift (the back
ball into the free hole in front), which is right for a line of one's own balls; a push must
also leave the pushed balls' colours where the rules put them (shared rules: the pushed balls
step on, the front one into the free hole beyond them or over the edge; in Off Board over
the rim into the scoring sector there, or, when that sector is full, back to its owner, who
puts it back on a free hole later).

Here a small table of colours (a dict hollow -> colour, and the balls beside the board) carries
out the words the board gives for a move (a hint, the computer's move) exactly as they read,
in English, German and Romanian, and the live referee's lights step by step, and checks after
every move that every hollow and every sector holds the colour of the game's position: for
every kind of move of both games, in seeded random games and in a position made for each kind.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from reedboard.controller.words import prompts
from reedboard.controller.games import OffBoard
from reedboard.controller.games.abalone import Abalone
from reedboard.controller.language.catalogue import LANGUAGES, speaking
from reedboard.controller.words import said

from referee_table import set_up

pytestmark = pytest.mark.component  # the games' words and the live referee's lights together

CODE = {"red": "R", "yellow": "Y", "black": "B", "white": "W"}
CELL = r"(?:S1[0-2]|S[1-9]|[A-I][1-9])"

# The colours as each language names a ball's, and the clauses of the hands' words. An action
# of each clause: hold (lift your ball and keep it in the hand), move (a ball from a hollow to
# a hollow or sector), off (a ball off the board, beside it), put_held (the ball in your hand),
# replace (the waiting ball back on a hollow), lift and put (lift a ball; put the last one lifted).
COLOUR_WORDS = {
    "en": {"red": "R", "yellow": "Y", "black": "B", "white": "W"},
    "de": {"rote": "R", "gelbe": "Y", "schwarze": "B", "weiße": "W"},
    "ro": {"roșie": "R", "galbenă": "Y", "neagră": "B", "albă": "W"},
}
CLAUSES = {
    "en": [
        ("hold", "lift {a} and keep it in your hand"),
        ("move", "move the {colour} (?:ball|marble) on {a} (?:to|into) {b}"),
        ("off", "take the {colour} (?:ball|marble) on {a} off the board"),
        ("put_held", "put your (?:ball|marble) on {b}"),
        ("replace", "put your waiting ball back on {b}"),
        ("off", "take (?:the ball|it) off {a}"),
        ("lift", "lift {a}"),
        ("put", "put it on {b}"),
        ("move", "{a} to {b}"),
    ],
    "de": [
        ("hold", "heb {a} an und behalte sie in der hand"),
        ("move", "(?:setz|leg) die {colour} kugel von {a} (?:auf|in) {b}"),
        ("off", "nimm die {colour} kugel auf {a} vom brett"),
        ("put_held", "deine kugel auf {b}"),
        ("replace", "setz deine wartende kugel zurück auf {b}"),
        ("off", "nimm (?:die kugel|sie) von {a}"),
        ("lift", "heb {a} an"),
        ("put", "setz sie auf {b}"),
        ("move", "{a} nach {b}"),
    ],
    "ro": [
        ("hold", "ridică {a} și ține-o în mână"),
        ("move", "mută bila {colour} de pe {a} (?:pe|în) {b}"),
        ("off", "ia de pe tablă bila {colour} de pe {a}"),
        ("put_held", "pune bila ta pe {b}"),
        ("replace", "repune bila ta care așteaptă pe {b}"),
        ("off", "ia(?:-o| bila) de pe {a}"),
        ("lift", "ridică {a}"),
        ("put", "pune-o pe {b}"),
        ("move", "{a} pe {b}"),
    ],
}
# the mover's waiting ball leaves the game (Off Board: a move made while it waits)
DROPPED = {"en": "your waiting ball leaves the game", "de": "deine wartende kugel scheidet aus dem spiel aus",
           "ro": "bila ta care așteaptă iese din joc"}


def _grammar(lang: str) -> tuple[re.Pattern, list[str]]:
    colour = "(?P<colour{i}>" + "|".join(COLOUR_WORDS[lang]) + ")"
    parts, actions = [], []
    for i, (action, clause) in enumerate(CLAUSES[lang]):
        pattern = clause.format(a=f"(?P<a{i}>{CELL})", b=f"(?P<b{i}>{CELL})", colour=colour.format(i=i))
        parts.append(f"(?P<k{i}>{pattern})")
        actions.append(action)
    return re.compile("|".join(parts), re.IGNORECASE), actions


GRAMMARS = {lang: _grammar(lang) for lang in CLAUSES}


def hands_of(words: str, lang: str) -> tuple[list[tuple], bool]:
    """What the words tell the hands, in order: [(action, cell, cell, colour code)], and
    whether the mover's waiting ball leaves the game. Every hollow the hands' part of the
    words names must be in a clause understood."""
    dropped = DROPPED[lang] in words.lower()
    steps = words.split(": ", 1)[1] if ": " in words else words
    grammar, actions = GRAMMARS[lang]
    found, covered = [], set()
    for match in grammar.finditer(steps):
        i = int(match.lastgroup[1:])
        colour = match.group(f"colour{i}") if f"colour{i}" in grammar.groupindex else None
        found.append((actions[i], match.groupdict().get(f"a{i}"), match.groupdict().get(f"b{i}"),
                      COLOUR_WORDS[lang][colour.lower()] if colour else None))
        covered.update(range(*match.span()))
    for cell in re.finditer(CELL, steps):
        assert cell.start() in covered, f"{lang}: the hands' words name {cell.group()} in no clause: {words!r}"
    assert found, f"{lang}: no hands' words in {words!r}"
    return found, dropped


class ColourTable:
    """Hollows and sectors with the colour on each ("" for none), the balls beside the board,
    and two hands. Everything it is told is done as said, or refused with why."""

    def __init__(self, pieces: dict[str, str], aside: list[str], mover: str) -> None:
        self.on = dict(pieces)
        self.aside = list(aside)
        self.mover = mover  # the colour code of the player moving
        self.hand: list[tuple[str, bool]] = []  # (colour, kept as "your ball")

    def take(self, cell: str, said: str | None = None) -> str:
        colour = self.on.get(cell)
        assert colour, f"nothing to lift on {cell}"
        assert said is None or said == colour, f"the words name a {said} ball on {cell}, but {colour} stands there"
        self.on[cell] = ""
        return colour

    def put(self, cell: str, colour: str) -> None:
        assert cell in self.on, f"no hollow {cell}"
        assert not self.on[cell], f"{cell} holds a ball already: nothing can be put there"
        self.on[cell] = colour

    def do(self, action: str, a: str | None, b: str | None, colour: str | None) -> None:
        if action == "hold":
            taken = self.take(a)
            assert taken == self.mover, f"'your ball' on {a} is {taken}"
            self.hand.append((taken, True))
        elif action == "lift":
            self.hand.append((self.take(a), False))
        elif action == "move":
            self.put(b, self.take(a, colour))
        elif action == "off":
            self.aside.append(self.take(a, colour))
        elif action == "put":
            assert self.hand, f"nothing in the hand to put on {b}"
            self.put(b, self.hand.pop()[0])
        elif action == "put_held":
            held = [i for i, (_, kept) in enumerate(self.hand) if kept]
            assert held, f"no ball of yours in the hand to put on {b}"
            self.put(b, self.hand.pop(held[-1])[0])
        elif action == "replace":
            assert self.mover in self.aside, "no ball of yours waits beside the board"
            self.aside.remove(self.mover)
            self.put(b, self.mover)
        else:
            raise AssertionError(action)

    def drop(self) -> None:
        assert self.mover in self.aside, "no ball of yours waits beside the board"
        self.aside.remove(self.mover)


# --- the kinds of move ----------------------------------------------------------------------------
def kind(game, move) -> str:
    if isinstance(game, OffBoard):
        if move.tail is None:
            return "put back"
        n = "one" if move.pushed == 1 else "two or more"
        if not move.pushed:
            return "line" if not move.drops_waiting else "line, the waiting ball dropped"
        if move.sector is None:
            return f"push {n} into a free hole"
        return f"push {n} into a {'full' if move.full else 'free'} sector"
    if move.broadside:
        return "broadside"
    if not move.pushed:
        return "line"
    n = "one" if move.pushed == 1 else "two"
    return f"push {n} off the board" if move.off else f"push {n} into a free hole"


KINDS = {
    "offboard": {"line", "line, the waiting ball dropped", "put back", "push one into a free hole",
                 "push two or more into a free hole", "push one into a free sector",
                 "push two or more into a free sector", "push one into a full sector",
                 "push two or more into a full sector"},
    "abalone": {"line", "broadside", "push one into a free hole", "push two into a free hole",
                "push one off the board", "push two off the board"},
}


def is_push(game, move) -> bool:
    return bool(getattr(move, "pushed", 0))


def aside_of(game) -> list[str]:
    """The balls beside the board that still belong to the game: Off Board's waiting ball."""
    waiting = game.position_data().get("waiting")
    return [CODE[waiting]] if waiting else []


def check_words(game, move, lang: str) -> None:
    """The move's words in `lang`, carried out on a table of colours, leave the game's colours."""
    with speaking(lang):
        words = said(game.move_words(move))
    mover = CODE[game.turn]
    table = ColourTable(game.pieces(), aside_of(game), mover)
    steps, dropped = hands_of(words, lang)
    for step in steps:
        table.do(*step)
    if dropped:
        table.drop()
    assert not table.hand, f"{lang}: a ball is left in the hand: {words!r}"
    after = game.copy()
    after.push(move)
    wrong = {cell: (table.on[cell], code) for cell, code in after.pieces().items() if table.on[cell] != code}
    assert not wrong, f"{lang}: {move} carried out as said ({words!r}) leaves (colour, game's) {wrong}"
    expected_aside = Counter(aside_of(after))
    if isinstance(game, Abalone) and move.off:
        expected_aside[CODE[game.other(game.turn)]] += 1
    assert Counter(table.aside) == expected_aside, f"{lang}: beside the board {table.aside}: {words!r}"


# --- positions made for each kind -----------------------------------------------------------------
def offboard_positions() -> list[tuple[OffBoard, str]]:
    """(position, the move), Red to move; each also with the colours swapped and Yellow to move."""
    made = [
        (dict(), "B2-B3x1"),  # the start: B2-B4 push B5 on to B6
        (dict(red=["E1", "E2", "E3", "A1"], yellow=["E4", "E5", "I9"]), "E1-E2x2"),
        (dict(red=["A3", "A4", "E5"], yellow=["A5", "I9"]), "A3-A4x1"),
        (dict(red=["A1", "A2", "A3", "E5"], yellow=["A4", "A5", "I9"]), "A1-A2x2"),
        (dict(red=["A3", "A4", "E5"], yellow=["A5", "I9"], sectors={"S3": "red"}), "A3-A4x1"),
        (dict(red=["A1", "A2", "A3", "E5"], yellow=["A4", "A5", "I9"], sectors={"S3": "red"}), "A1-A2x2"),
        (dict(red=["C1", "C2", "C3", "C4", "E5"], yellow=["C5", "C6", "C7", "I9"], sectors={"S4": "red"}), "C1-C2x3"),
        (dict(red=["E5", "A1"], yellow=["I9"], waiting=True), "+E1"),
        (dict(red=["E5", "A1"], yellow=["I9"], waiting=True), "*E5-E6"),
        (dict(red=["C3", "C4", "C5", "A1"], yellow=["C6", "I9"], waiting=True), "*C3-C4x1"),
        (dict(), "C3-D4"),
    ]
    found = []
    for given, text in made:
        found.append((OffBoard(**given) if given else OffBoard(), text))
        swapped = {"red": given.get("yellow"), "yellow": given.get("red"), "turn": "yellow",
                   "waiting": given.get("waiting", False),
                   "sectors": {s: ("yellow" if p == "red" else "red") for s, p in given.get("sectors", {}).items()}}
        if given:
            found.append((OffBoard(**swapped), text))
    return found


def abalone_positions() -> list[tuple[Abalone, str]]:
    made = [
        (dict(), "A1B2"),
        (dict(), "C3C5D3"),
        (dict(black=["E2", "E3", "A1"], white=["E4", "I9"]), "E2E3"),
        (dict(black=["E1", "E2", "E3", "A1"], white=["E4", "I9"]), "E1E2"),
        (dict(black=["E1", "E2", "E3", "A1"], white=["E4", "E5", "I9"]), "E1E2"),
        (dict(black=["E7", "E8", "A1"], white=["E9", "I5"]), "E7E8"),
        (dict(black=["E5", "E6", "E7", "A1"], white=["E8", "E9", "I5"]), "E5E6"),
        (dict(black=["C5", "D6", "E7", "A1"], white=["F8", "G9", "I5"]), "C5D6"),
    ]
    found = []
    for given, text in made:
        if not given:
            found.append((Abalone(), text))
            continue
        found.append((Abalone(**given), text))
        found.append((Abalone(black=given["white"], white=given["black"], turn="white"), text))
    return found


def positions():
    return [(game, game.parse_move(text)) for game, text in offboard_positions() + abalone_positions()]


# --- the words ------------------------------------------------------------------------------------
def random_games(cls, seed: int, plies: int):
    """(position, move) for `plies` plies of seeded random games (pushes preferred, as players
    like them); each is every push the player to move may make and the move played."""
    rng = random.Random(seed)
    game = cls()
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            game = cls()
            continue
        pushes = [m for m in moves if is_push(game, m)]
        for move in pushes:
            yield game, move
        move = rng.choice(pushes) if pushes and rng.random() < 0.6 else rng.choice(moves)
        yield game, move
        game.push(move)


# the kinds random play meets (every kind: the next test, with the positions made for them)
IN_RANDOM_GAMES = {
    "offboard": {"line", "push one into a free hole", "push two or more into a free hole",
                 "push one into a free sector", "push two or more into a free sector", "push one into a full sector"},
    "abalone": KINDS["abalone"],
}


@pytest.mark.parametrize("cls", [OffBoard, Abalone], ids=lambda c: c.name)
def test_every_move_of_random_games_said_in_each_language_leaves_the_colours(cls):
    met = Counter()
    for game, move in random_games(cls, seed=7, plies=300):
        met[kind(game, move)] += 1
        for lang in LANGUAGES:
            check_words(game, move, lang)
    assert IN_RANDOM_GAMES[cls.name] <= set(met), met


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_kind_of_move_said_in_each_language_leaves_the_colours(lang):
    met = {"offboard": set(), "abalone": set()}
    for game, move in positions():
        check_words(game, move, lang)
        met[game.name].add(kind(game, move))
    for cls in (OffBoard, Abalone):
        for game, move in random_games(cls, seed=11, plies=150):
            check_words(game, move, lang)
            met[game.name].add(kind(game, move))
    assert met == KINDS


def shortcut(game, move) -> dict[str, str]:
    """The colours the one-lift shortcut leaves: the ball pushed off at the edge taken off, then
    the back ball lifted and put where the move's footprint fills (or where the ball taken off
    stood), as for a line of one's own. Right for such a line, wrong for most pushes."""
    fp = game.footprint(move)
    table = ColourTable(game.pieces(), aside_of(game), CODE[game.turn])
    for cell in fp.captures:
        table.do("off", cell, None, None)
    (back,) = fp.empties
    table.do("lift", back, None, None)
    table.do("put", None, next(iter(fp.fills | fp.captures)), None)
    return table.on


def test_the_back_ball_put_beyond_the_pushed_balls_leaves_the_wrong_colours():
    wrong = Counter()
    for game, move in positions():
        if getattr(move, "tail", True) is None or getattr(move, "broadside", False):
            continue
        after = game.copy()
        after.push(move)
        left = shortcut(game, move)
        if any(left[cell] != code for cell, code in after.pieces().items()):
            wrong[kind(game, move)] += 1
        else:  # a line of one's own, or a single ball pushed off (the shortcut is right then)
            assert not is_push(game, move) or move.pushed == 1 and (getattr(move, "off", False)
                                                                    or getattr(move, "full", False))
    assert set(wrong) == {"push one into a free hole", "push two or more into a free hole",
                          "push two into a free hole", "push one into a free sector",
                          "push two or more into a free sector", "push two or more into a full sector",
                          "push two off the board"}


# --- at the table: the referee's words and lights -------------------------------------------------
def lights_for(steps: list[tuple], i: int, started: bool) -> tuple[set, set]:
    """The lights the board shows before step i of the words (started: its ball is lifted
    already): the ball to lift now (vermillion) and where it goes (teal)."""
    action, a, b, _ = steps[i]
    if action == "move":
        return (set(), {b}) if started else ({a}, {b})
    if action in ("hold", "off"):
        return {a}, set()
    if action == "lift":
        following = steps[i + 1] if i + 1 < len(steps) else None
        return {a}, ({following[2]} if following and following[0] == "put" else set())
    return set(), {b}  # put, put_held, replace


class Table:
    """The live referee at a table, with the colours on it: hands that carry out words or
    follow lights, and the referee's view after each change."""

    def __init__(self, game, **referee) -> None:
        self.referee, self.hands, self.board = set_up(game.copy(), **referee)
        self.hands.step = 0.25
        self.colours = ColourTable(game.pieces(), aside_of(game), CODE[game.turn])

    @property
    def view(self):
        return self.referee.view()

    def lights(self) -> tuple[set, set]:
        view = self.view
        return set(view.lift), set(view.dest)

    def lift(self, cell: str) -> None:
        self.hands.lift(cell).settle(0.05)

    def place(self, cell: str) -> None:
        self.hands.place(cell).settle(0.05)

    def hint(self, move, lang: str) -> str:
        referee = self.referee
        assert referee.ask_hint(self.hands.t)
        question = referee.question()
        assert question is not None and question.hint
        assert referee.answer(self.hands.t, question, move)
        return self.words(lang, "hint_words")

    def words(self, lang: str, key: str) -> str:
        """The prompt's words for the move shown, as the page has them in `lang`."""
        with speaking(lang):
            prompt = self.referee.prompt()
            message = prompts.describe(prompt, self.referee.game)
            words = said(prompt.data[key])
        assert words in message, (words, message)
        return words

    def carry_out(self, words: str, lang: str) -> None:
        """The words, to the letter, the lights checked before every step."""
        steps, dropped = hands_of(words, lang)
        table = self.colours
        for i, step in enumerate(steps):
            action, a, b, colour = step
            if action != "move" or not _is_broadside(steps):
                assert self.lights() == lights_for(steps, i, started=False), (lang, words, i, step)
            table.do(*step)
            if action in ("hold", "lift", "off"):
                self.lift(a)
            elif action == "move":
                self.lift(a)
                if not _is_broadside(steps):
                    assert self.lights() == lights_for(steps, i, started=True), (lang, words, i, step)
                self.place(b)
            else:
                self.place(b)
        if dropped:
            table.drop()
        self.hands.settle(1.5)

    def follow_lights(self, limit: int = 12) -> None:
        """The lights alone: lift what blinks vermillion; put it where teal shines if that is
        free, keep it in the hand if it is yours, set it beside the board if not; with nothing
        to lift, put the ball in the hand (or the waiting one) where teal shines."""
        table, moves = self.colours, len(self.referee.game.move_stack)
        for _ in range(limit):
            if len(self.referee.game.move_stack) > moves:
                return
            lift, dest = self.lights()
            if lift:
                for cell in sorted(lift):
                    colour = table.take(cell)
                    self.lift(cell)
                    free = sorted(c for c in dest if not table.on[c])
                    if free and len(lift) == 1:
                        table.put(free[0], colour)
                        self.place(free[0])
                    elif colour == table.mover:
                        table.hand.append((colour, True))
                    else:
                        table.aside.append(colour)
            elif dest:
                for cell in sorted(dest):
                    if table.hand:
                        colour = table.hand.pop()[0]
                    else:
                        table.aside.remove(table.mover)
                        colour = table.mover
                    table.put(cell, colour)
                    self.place(cell)
            else:
                self.hands.settle(1.0)
            self.hands.settle(0.1)
        self.hands.settle(1.5)

    def check(self, move, words: str = "") -> None:
        game = self.referee.game
        assert [str(m) for m in game.move_stack[-1:]] == [str(move)], (words, game.move_stack[-1:])
        wrong = {c: (self.colours.on[c], code) for c, code in game.pieces().items() if self.colours.on[c] != code}
        assert not wrong, f"{move} at the table ({words!r}) leaves (colour, game's) {wrong}"
        assert not self.colours.hand
        self.colours = ColourTable(game.pieces(), aside_of(game), CODE[game.turn])


def _is_broadside(steps: list[tuple]) -> bool:
    return len(steps) > 1 and all(action == "move" for action, *_ in steps)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_hint_carried_out_as_said_at_the_table_leaves_the_colours_and_the_lights_say_the_same(lang):
    met = set()
    for game, move in positions():
        table = Table(game)
        words = table.hint(move, lang)
        table.carry_out(words, lang)
        table.check(move, words)
        met.add((game.name, kind(game, move)))
    assert {k for g, k in met if g == "offboard"} == KINDS["offboard"]
    assert {k for g, k in met if g == "abalone"} == KINDS["abalone"]


@pytest.mark.parametrize("cls", [OffBoard, Abalone], ids=lambda c: c.name)
def test_random_games_played_at_the_table_by_the_hints_words_leave_the_colours(cls):
    rng, met = random.Random(3), Counter()
    table = Table(cls())
    for ply in range(150):
        game = table.referee.game
        moves = game.legal_moves()
        if not moves or game.outcome() is not None:
            table = Table(cls())
            continue
        pushes = [m for m in moves if is_push(game, m)]
        move = rng.choice(pushes) if pushes and rng.random() < 0.7 else rng.choice(moves)
        met[kind(game, move)] += 1
        lang = LANGUAGES[ply % len(LANGUAGES)]
        words = table.hint(move, lang)
        table.carry_out(words, lang)
        table.check(move, words)
    assert "line" in met and sum(n for k, n in met.items() if k.startswith("push")) >= 30, met


def test_the_lights_alone_followed_leave_the_colours():
    for game, move in positions():
        table = Table(game)
        table.hint(move, "en")
        table.follow_lights()
        table.check(move)


def test_the_computer_s_move_carried_out_as_said_leaves_the_colours():
    from reedboard.controller.core.computer import Computer

    for game, move in positions():
        if not is_push(game, move):
            continue
        for lang in LANGUAGES:
            table = Table(game, computer=Computer(game.turn, 1))
            referee = table.referee
            question = referee.question()
            assert question is not None and not question.hint
            assert referee.answer(table.hands.t, question, move)
            assert referee.prompt().kind == "computer"
            words = table.words(lang, "words")
            table.carry_out(words, lang)
            table.check(move, words)


@pytest.mark.parametrize("game, theirs, ours", [
    (Abalone(black=["E3", "E4", "A1"], white=["E6", "I9", "I8"], turn="white"), "E6E5", "E3E4"),
    (OffBoard(red=["E3", "E4", "A1"], yellow=["E6", "I9", "I8"], turn="yellow"), "E6-E5", "E3-E4x1"),
], ids=["abalone", "offboard"])
def test_a_ball_pushed_back_where_it_came_from_slowly_is_the_push_not_its_move_taken_back(game, theirs, ours):
    """The other side's ball just stepped next to the line, and the push sends it back: with the
    pushed ball moved first, the board on the way would be the position before their move. The
    words have the back ball lifted first, so no board on the way is that position."""
    table = Table(game)
    their_move = table.referee.game.parse_move(theirs)
    for step in table.referee.game.hand_steps(their_move):  # a single ball's step: lift, put
        if step.action == "lift":
            table.lift(step.cell)
        else:
            table.colours.do("move", step.source, step.cell, None)
            table.place(step.cell)
    table.hands.settle(1.5)
    table.check(their_move)
    move = table.referee.game.parse_move(ours)
    words = table.hint(move, "en")
    table.hands.step = 2.5  # a player who stops to look at the lights after every step
    table.carry_out(words, "en")
    table.check(move, words)
