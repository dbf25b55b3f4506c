"""The players' words: a Prompt in one plain line, in the language in use.

What the referee asks is data (controller.core.view.Prompt); this module turns a prompt into
words for the terminal, the notes of a replay and the page's status line (notes.py does the
notes). The words come from the "play" catalogue; a game hands over its own (its pieces, its
moves in words) as phrases through `game` where it is known, said here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..language.catalogue import PLAY, say
from ..core.view import Prompt
from ..games.base import colour_words, in_words, player_words

_ = PLAY.gettext


def cells(names: Iterable[str]) -> str:
    """`b2`, `b2 and c3`, `a1, b2 and c3`."""
    names = sorted(names)
    return say(in_words(names)) if names else ""


def either(values: Iterable[object]) -> str:
    """`3`, `3 or 5`, `1, 3 or 5`."""
    values = [str(v) for v in values]
    if len(values) <= 1:
        return "".join(values)
    return _("{first} or {last}").format(first=", ".join(values[:-1]), last=values[-1])


def colour(name: str) -> str:
    """A player's colour inside a line: `black`, `schwarz`."""
    return say(colour_words(name))


def player(name: str) -> str:
    """A player at the head of a line: `Black`, `Schwarz`."""
    return say(player_words(name))


def piece(code: str, game=None) -> str:
    """A piece by its code, with its article, as the object of a sentence: `the white stone 6`."""
    return say(game.piece_words(code)) if game is not None and code else _("the piece")


def put_back(fill: Iterable[str], empty: Iterable[str], pieces: Mapping[str, str], game=None) -> str:
    """What to do to get back to the game's position: put back what is missing, take away
    what is too much; a single piece moved wrongly is one instruction. `pieces`: the code of
    what belongs on each cell to fill."""
    fill, empty = sorted(fill), sorted(empty)
    if len(fill) == 1 and len(empty) == 1:
        return _("move {piece} from {src} back to {dst}").format(
            piece=piece(pieces.get(fill[0], ""), game), src=empty[0], dst=fill[0])
    parts = []
    if len(fill) == 1:
        parts.append(_("put {piece} back on {cell}").format(piece=piece(pieces.get(fill[0], ""), game), cell=fill[0]))
    elif fill:
        parts.append(_("put the pieces back on {cells}").format(cells=cells(fill)))
    if len(empty) == 1:
        parts.append(_("take the piece off {cell}").format(cell=empty[0]))
    elif empty:
        parts.append(_("take the pieces off {cells}").format(cells=cells(empty)))
    return "; ".join(parts) or _("the board is right")


def describe(prompt: Prompt | None, game=None) -> str:
    """One line saying what the players should do now."""
    if prompt is None:
        return ""
    kind, d = prompt.kind, prompt.data
    if kind == "reading":
        return _("reading the board")
    if kind == "clear":
        return _("clear the board: take the pieces off {cells}").format(cells=cells(d["cells"]))
    if kind == "fill":
        text = _("fill the start hollows: put a piece on {cells}").format(cells=cells(d["cells"])) if d["cells"] else ""
        if d.get("empty"):
            text += ("; " if text else "") + _("take the piece off {cells}").format(cells=cells(d["empty"]))
        return text or _("set-up: put the pieces where the lights show")
    if kind == "setup":
        return _("set-up: put the pieces where the lights show")
    if kind == "place":
        if d["piece"] == "ball":
            return _("put a big ball on {cell}").format(cell=d["cell"])
        return _("put {piece} on {cell}").format(piece=piece(d["piece"], game), cell=d["cell"])
    if kind == "identify":
        return _("{player}: lift stone {number} and put it back").format(player=player(d["player"]), number=d["number"])
    if kind == "roll":
        return _("{player}: roll the die, or move a big ball").format(player=player(d["player"]))
    if d.get("hint") and kind in ("move", "in_hand"):
        return _("{player}: {words} (the hint: {hint})").format(
            player=player(d["player"]), words=say(d.get("hint_words") or d["hint"]), hint=d["hint"])
    if kind == "move":
        if d.get("roll"):
            return _("{player}: move stone {stones}").format(player=player(d["player"]), stones=either(d["stones"]))
        if d.get("waiting"):
            return _("{player}: put your waiting ball back, or move and drop it").format(player=player(d["player"]))
        return _("{player} to move").format(player=player(d["player"]))
    if kind == "in_hand":
        where, back = cells(d["to"]), cells(d["cells"])
        if where:
            return _("{player}: put it on {cells} (lit), or back on {back}").format(
                player=player(d["player"]), cells=where, back=back)
        return _("put the piece back on {cells}").format(cells=back)
    if kind == "put_back":
        return put_back(d["fill"], d["empty"], d.get("pieces", {}), game)
    if kind == "choose":
        return _("several moves fit: lift and put back a piece of the one you made ({moves})").format(
            moves=either(d["moves"]))
    if kind == "computer":
        if d.get("move") and d.get("words"):
            return _("the computer ({player}) plays {move}: {words}").format(
                player=colour(d["player"]), move=d["move"], words=say(d["words"]))
        if d.get("move"):
            return _("the computer ({player}) plays {move}: carry it out as the lights show").format(
                player=colour(d["player"]), move=d["move"])
        return _("the computer ({player}) is thinking").format(player=colour(d["player"]))
    if kind == "over":
        how = say(d.get("how", ""))  # the ending's words, the game's own ("with a stone on a7", ": time ran out")
        how = how if how.startswith(":") or not how else " " + how
        if d.get("winner"):
            return _("game over: {player} wins{how} ({result})").format(
                player=player(d["winner"]), how=how, result=d["result"])
        return _("game over: a draw{how} ({result})").format(how=how, result=d["result"])
    return kind
