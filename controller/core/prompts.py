"""The players' words: a Prompt or an event in one plain English line.

What the referee asks and reports is data (controller.core.view.Prompt, the kinds of Note); this
module is the one place that turns it into words for the terminal, the notes of a replay
and the page's status line. The page speaks from the data itself, in its own languages.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .view import Prompt


def cells(names: Iterable[str]) -> str:
    """`b2`, `b2 and c3`, `a1, b2 and c3`."""
    names = sorted(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def either(values: Iterable[object]) -> str:
    return " or ".join(map(str, values))


def player(name: str) -> str:
    return name.capitalize()


def put_back(fill: Iterable[str], empty: Iterable[str], pieces: Mapping[str, str]) -> str:
    """What to do to get back to the game's position: put back what is missing, take away
    what is too much; a single piece moved wrongly is one instruction."""
    fill, empty = sorted(fill), sorted(empty)
    if len(fill) == 1 and len(empty) == 1:
        return f"move the {pieces.get(fill[0], 'piece')} from {empty[0]} back to {fill[0]}"
    parts = []
    if len(fill) == 1:
        parts.append(f"put the {pieces.get(fill[0], 'piece')} back on {fill[0]}")
    elif fill:
        parts.append("put the pieces back on " + cells(fill))
    if empty:
        parts.append(("take the piece off " if len(empty) == 1 else "take the pieces off ") + cells(empty))
    return "; ".join(parts) or "the board is right"


def _without_hint(kind: str, data) -> str:
    return describe(Prompt(kind, {k: v for k, v in data.items() if k != "hint"}))


def describe(prompt: Prompt | None) -> str:
    """One line saying what the players should do now."""
    if prompt is None:
        return ""
    kind, d = prompt.kind, prompt.data
    if kind == "reading":
        return "reading the board"
    if kind == "clear":
        return "clear the board: take the pieces off " + cells(d["cells"])
    if kind == "fill":
        text = "fill the start hollows: put a piece on " + cells(d["cells"]) if d["cells"] else ""
        if d.get("empty"):
            text += ("; " if text else "") + "take the piece off " + cells(d["empty"])
        return text or "set-up: put the pieces where the lights show"
    if kind == "setup":
        return "set-up: put the pieces where the lights show"
    if kind == "place":
        what = "a big ball" if d["piece"] == "ball" else f"{d['player']} stone {d['number']}"
        return f"put {what} on {d['cell']}"
    if kind == "identify":
        return f"{player(d['player'])}: lift stone {d['number']} and put it back"
    if kind == "roll":
        return f"{player(d['player'])}: roll the die, or move a big ball"
    if d.get("hint") and kind in ("roll", "move", "in_hand"):
        words = d.get("hint_words") or d["hint"]
        return f"{player(d['player'])}: {words} (the hint: {d['hint']})"
    if kind == "move":
        if d.get("roll"):
            return f"{player(d['player'])}: move stone {either(d['stones'])}"
        if d.get("waiting"):
            return f"{player(d['player'])}: put your waiting ball back, or move and drop it"
        return f"{player(d['player'])} to move"
    if kind == "in_hand":
        where = cells(d["to"])
        back = cells(d["cells"])
        return f"{player(d['player'])}: put it on {where} (lit), or back on {back}" if where else \
            f"put the piece back on {back}"
    if kind == "put_back":
        return put_back(d["fill"], d["empty"], d.get("pieces", {}))
    if kind == "choose":
        return "several moves fit: lift and put back a piece of the one you made (" + either(d["moves"]) + ")"
    if kind == "computer":
        if d.get("move") and d.get("words"):
            return f"the computer ({d['player']}) plays {d['move']}: {d['words']}"
        if d.get("move"):
            return f"the computer ({d['player']}) plays {d['move']}: carry it out as the lights show"
        return f"the computer ({d['player']}) is thinking"
    if d.get("hint"):
        return _without_hint(kind, d) + f" (hint: {d['hint']})"
    if kind == "over":
        winner = d.get("winner")
        how = d.get("how", "")  # the ending's words, the game's own ("with a stone on a7", ": time ran out")
        how = how if how.startswith(":") or not how else " " + how
        return f"game over: {player(winner)} wins{how} ({d['result']})" if winner else \
            f"game over: a draw{how} ({d['result']})"
    return kind
