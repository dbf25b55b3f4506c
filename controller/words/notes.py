"""The notes in words: what the referee noted (a kind and its data), written and said aloud.

A note is data (controller.core.referee.Note: a NoteKind and its data); its words are made here,
in the language in use (controller.language), every time they are shown: the terminal's line
and the page's list of notes (`written`), and the sentence the page's voice says (`said`), where
a move is said in the game's words (`say_move`, Game.spoken) and an ending as the game puts it
(`say_ending`, Game.ending_said): the phrases the game hands over, said here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..language.catalogue import PLAY, say
from ..core.view import Prompt
from . import prompts

_ = PLAY.gettext
ngettext = PLAY.ngettext

def refusal(data: Mapping) -> str:
    """A refusal's reason in the language in use: `reason` with `values` filled in."""
    values = {key: prompts.colour(value) if key == "player" else value
              for key, value in (data.get("values") or {}).items()}
    return _(data.get("reason", "")).format(**values)


def written(kind: str, data: Mapping, game=None) -> str:
    """The note as one line: the terminal's, a replay's and the page's list of notes. `game`
    names the pieces in its own words."""
    d = data
    if kind == "setup":
        if d.get("prompt"):
            return prompts.describe(Prompt(*d["prompt"]), game)
        return _("every start hollow is filled: now each stone is identified")
    if kind == "ready":
        return _("ready: {player} to move").format(player=prompts.player(d["player"]))
    if kind == "roll":
        stones = prompts.either(d.get("stones") or ())
        if d.get("kept"):
            return _("{player}'s roll of {value} stands: stone {stones}").format(
                player=prompts.colour(d["player"]), value=d["value"], stones=stones)
        return _("{player} rolls {value}: stone {stones}").format(
            player=prompts.colour(d["player"]), value=d["value"], stones=stones)
    if kind == "move":
        return _("move {move}").format(move=d["move"])
    if kind == "amend":
        return _("amended: {old} -> {new}").format(old=d["old"], new=d["new"])
    if kind == "takeback":
        if d.get("roll"):
            return _("takeback: {move} (the die still shows {roll})").format(move=d["move"], roll=d["roll"])
        return _("takeback: {move}").format(move=d["move"])
    if kind == "illegal":
        return _("illegal: {what}").format(what=prompts.put_back(d["fill"], d["empty"], d.get("pieces", {}), game))
    if kind == "clear":
        return _("the board is right again")
    if kind == "choose":
        return prompts.describe(Prompt("choose", {"moves": d["moves"]}))
    if kind == "touch":
        return _("{cells} put back: no move").format(cells=prompts.cells(d["cells"]))
    if kind == "refused":
        if d.get("cells"):
            return _("{cells}: {reason}").format(cells=prompts.cells(d["cells"]), reason=refusal(d))
        return _("the die cannot roll now: {reason}").format(reason=refusal(d))
    if kind == "identify":
        return _("identify: {player}, lift stone {number} and put it back").format(
            player=prompts.colour(d["player"]), number=d["number"])
    if kind == "identified":
        if d["player"] == "black":
            return _("black stone {number} is on {cell}").format(number=d["number"], cell=d["cell"])
        return _("white stone {number} is on {cell}").format(number=d["number"], cell=d["cell"])
    if kind == "low_time":
        seconds = d["seconds"]
        left = ngettext("{n} second", "{n} seconds", seconds).format(n=seconds) if seconds >= 2 else \
            _("about a second") if seconds >= 1 else _("under a second")
        return _("{player}: {left} left").format(player=prompts.colour(d["player"]), left=left)
    if kind == "flag":
        return _("{player}'s time is up").format(player=prompts.colour(d["player"]))
    if kind == "resign":
        return _("{player} resigns").format(player=prompts.colour(d["player"]))
    if kind == "draw":
        return _("draw agreed")
    if kind == "over":
        return _("game over: {result} {reason}").format(result=d["result"], reason=d["reason"])
    if kind == "hint":
        return _("hint for {player}: {move}").format(
            player=prompts.colour(d["player"]), move=_("roll") if d["move"] == "roll" else d["move"])
    if kind == "asked":
        return _("{player} asks for a hint").format(player=prompts.colour(d["player"]))
    if kind == "computer":
        if d.get("move"):
            return _("the computer ({player}) plays {move}: carry it out").format(
                player=prompts.colour(d["player"]), move=d["move"])
        return _("the computer ({player}) rolls").format(player=prompts.colour(d["player"]))
    if kind == "link":
        return link(d)
    if kind == "computer_failed":
        return _("the computer could not answer: {error}").format(error=d.get("error", ""))
    if kind == "resumed":
        return _("power back: resuming the game")
    return str(d.get("text", kind))


def link(d: Mapping) -> str:
    """The board's link lost (why: unplugged, silent, refused) or back: the note, and the page's banner."""
    if d.get("state") == "lost":
        if d.get("why") == "silent":
            return _("the board does not answer: check its cable; the game waits")
        if d.get("why") == "refused":
            return _("the board does not fit this controller (its firmware or board file; see the log): the game waits")
        return _("the board is unplugged: plug it in again; the game waits")
    return _("the board is back")


def said(kind: str, data: Mapping, say_move: Callable[[str], str] = str,
         say_ending: Callable[[str], str] = lambda key: "", game=None) -> str:
    """The sentence the page's voice says for a note; "" for a note it keeps quiet about."""
    d = data
    move_words, ending_words = say_move, say_ending  # the game's phrases, said in the language in use

    def say_move(move: str) -> str:
        return say(move_words(move))

    def say_ending(key: str) -> str:
        return say(ending_words(key))

    who = prompts.player(d["player"]) if d.get("player") else ""
    if kind == "setup":
        mode = d.get("mode")
        if mode == "given":
            return _("Set-up: put the pieces where the lights show.")
        if mode == "shuffle":
            return _("Guided shuffle: put each piece where the light shows.")
        if mode == "identify":
            return _("Identify the stones: lift and put back each stone asked for.")
        return _("New game: set up the board.")
    if kind == "ready":
        return _("Set-up done. {player} to move.").format(player=who)
    if kind == "roll":
        stones, value = list(d.get("stones") or ()), d["value"]
        if not stones:
            return _("{player} rolled {value}.").format(player=who, value=value)
        if stones == [value]:
            return _("{player} rolled {value}: move stone {value}.").format(player=who, value=value)
        if value in stones:
            return _("{player} rolled {value}: move stone {stones}.").format(
                player=who, value=value, stones=prompts.either(stones))
        return _("{player} rolled {value}: stone {value} is gone, move stone {stones}.").format(
            player=who, value=value, stones=prompts.either(stones))
    if kind == "move":
        return _("{player}: {move}.").format(player=who, move=say_move(d["move"]))
    if kind == "amend":
        return _("Move changed: {new} instead of {old}.").format(new=say_move(d["new"]), old=say_move(d["old"]))
    if kind == "takeback":
        if d.get("roll") is not None:
            return _("Move taken back: {move}. The roll of {roll} stands.").format(
                move=say_move(d["move"]), roll=d["roll"])
        return _("Move taken back: {move}.").format(move=say_move(d["move"]))
    if kind == "computer":
        if d.get("move"):
            return _("The computer plays {move}. Carry it out as the lights show.").format(move=say_move(d["move"]))
        return _("The computer rolls the die.")
    if kind == "hint":
        if d["move"] == "roll":
            return _("Hint for {player}: roll the die.").format(player=who)
        return _("Hint for {player}: {move}.").format(player=who, move=say_move(d["move"]))
    if kind == "illegal":
        parts = [_("The board does not match the game.")]
        if d.get("fill"):
            parts.append(_("Put a piece on {cells}.").format(cells=prompts.cells(d["fill"])))  # TRANSLATORS: a spoken sentence
        if d.get("empty"):
            parts.append(_("Take the piece away from {cells}.").format(cells=prompts.cells(d["empty"])))
        return " ".join(parts)
    if kind == "clear":
        return _("The board is right again.")
    if kind == "choose":
        return _("Several moves fit: {moves}. Lift and put back a piece of the move you made.").format(
            moves=prompts.either(say_move(m) for m in d["moves"]))
    if kind == "refused":
        return _("Not now: {reason}.").format(reason=refusal(d)) if d.get("reason") else _("Not now.")
    if kind == "identify":
        return _("{player}: lift stone {number} and put it back.").format(player=who, number=d["number"])
    if kind == "identified":
        if d["player"] == "black":
            return _("Black stone {number} is on {cell}.").format(number=d["number"], cell=d["cell"])
        return _("White stone {number} is on {cell}.").format(number=d["number"], cell=d["cell"])
    if kind == "low_time":
        return ngettext("{player}: {n} second left.", "{player}: {n} seconds left.", d["seconds"]).format(
            player=who, n=d["seconds"])
    if kind == "flag":
        return _("{player}'s time is up.").format(player=who)
    if kind == "resign":
        return _("{player} resigns.").format(player=who)
    if kind == "draw":
        return _("Draw agreed.")
    if kind == "link":
        if d.get("state") == "lost" and d.get("why") == "silent":
            return _("The board does not answer. Check its cable; the game waits.")
        if d.get("state") == "lost" and d.get("why") == "refused":
            return _("The board does not fit this controller. The game waits.")
        if d.get("state") == "lost":
            return _("The board is unplugged. Plug it in again; the game waits.")
        return _("The board is back.")
    if kind == "computer_failed":
        return _("The computer could not answer. Play on by hand.")
    if kind == "resumed":
        return _("The power is back: the game goes on.")
    if kind == "over":
        ending = say_ending(d.get("reason", ""))
        ending = ending if not ending or ending.startswith(":") else " " + ending
        if d.get("winner"):
            return _("Game over. {player} wins{ending}.").format(player=prompts.player(d["winner"]), ending=ending)
        return _("Game over: a draw{ending}.").format(ending=ending)
    return ""


def prompt_said(prompt: Prompt | None, game=None) -> str:
    """What the voice says when a set-up prompt comes up (the rest are said by their notes)."""
    if prompt is None:
        return ""
    d = prompt.data
    if prompt.kind == "clear":
        return _("Clear the board first: take the pieces off.")
    if prompt.kind == "fill":
        return _("Put the pieces on their starting places.")
    if prompt.kind == "place":
        if d["piece"] == "ball":
            return _("Put a big ball on {cell}.").format(cell=d["cell"])
        return _("Put {piece} on {cell}.").format(piece=prompts.piece(d["piece"], game), cell=d["cell"])
    return ""


SPOKEN_PROMPTS = ("clear", "fill", "place")  # the set-up steps no note announces
