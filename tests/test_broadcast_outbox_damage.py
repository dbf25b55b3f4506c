"""A board's outbox damaged or gone loses no game, through real Mosquitto.

A game is finished with the broker down and the board killed (kill -9: its lines wait, the
outbox says so). Then the outbox is damaged the ways an SD card, a copy or a hand damages a
file (garbage, cut short, empty, too large, not a file at all, a link elsewhere, values no
outbox has) or is missing (a games folder copied without its dotfiles). Started again with the
broker and the club back, the board plays its next game: the club must get every line of both
games, once and in order, the board must say once that it rebuilt its outbox, and never read
through a link, wait on a FIFO or read a device.
"""

import asyncio
import contextlib
import json
import os
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from reedboard.controller.broadcast.club import mosquitto
from reedboard.controller.broadcast.address import parse_broker_url
from reedboard.controller.broadcast.publisher.board import Broadcaster
from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.persist.journal import Journal
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.persist.trace import read_trace
from reedboard.controller.session.replay import replay

from club_lines import club_on

pytestmark = [pytest.mark.system, pytest.mark.mosquitto]

TRACES = Path(__file__).parent / "traces"
FINISHED = "bigballs-takeback-one"  # 6 lines and a resignation: 7
NEXT = "bigballs-capture-mover-first"  # 9 lines: 16 in all
FAST = {"retry": (0.05, 0.2), "timeout": 3.0, "resend": (0.3, 1.0)}
NOW = datetime.now(timezone.utc)
GUARD = 60  # s at most for one case (met, it goes on at once)


def ruin(replacement: bytes):
    def damage(outbox: Path, finished: Path) -> None:
        outbox.write_bytes(replacement)
    return damage


def cut_short(outbox: Path, finished: Path) -> None:
    data = outbox.read_bytes()
    outbox.write_bytes(data[: len(data) // 2])


def grown(outbox: Path, finished: Path) -> None:  # still JSON, and 2 MB of it
    data = json.loads(outbox.read_bytes())
    data["note"] = "x" * (2 << 20)
    outbox.write_text(json.dumps(data), "utf-8")


def since(value: float):
    def damage(outbox: Path, finished: Path) -> None:
        data = json.loads(outbox.read_bytes())
        data["since"] = value
        outbox.write_text(json.dumps(data), "utf-8")  # (json writes Infinity as such)
    return damage


def replaced(make):
    def damage(outbox: Path, finished: Path) -> None:
        outbox.unlink()
        make(outbox, finished)
    return damage


DAMAGES = {
    "intact": None,  # the comparison: nothing to rebuild, nothing said
    "garbage": ruin(b"\x8f\x00\xff{{ not an outbox"),
    "truncated": cut_short,
    "empty": ruin(b""),
    "2 MB": grown,
    "since Infinity": since(float("inf")),
    "since years ahead": since(NOW.timestamp() + 10 * 365 * 86400),
    "a symlink to dev-zero": replaced(lambda outbox, finished: outbox.symlink_to("/dev/zero")),
    "a FIFO": replaced(lambda outbox, finished: os.mkfifo(outbox)),
    "a symlink to another file": replaced(lambda outbox, finished: outbox.symlink_to(finished)),
    "a directory": replaced(lambda outbox, finished: (outbox.mkdir(), (outbox / "kept").write_text("kept"))),
    "missing": replaced(lambda outbox, finished: None),
}


def play(folder: Path, written, trace: str, minutes: int, resign: str | None = None) -> Path:
    """A game of the trace written as a board writes it, each line told to `written`."""
    played = read_trace(TRACES / f"{trace}.jsonl")
    journal = Journal.create(folder, played.game(), {}, NOW + timedelta(minutes=minutes), written=written)
    decisions = replay(played, source=trace).decisions
    for entry in decisions:
        journal.append_entry(entry)
    if resign is not None:
        journal.append_result(decisions[-1]["t"] + 1, "1-0" if resign == "black" else "0-1", "resign", resign)
    journal.close()
    return journal.path


def lines_of(journal: Path) -> list[dict]:
    contents = read_journal(journal)
    return [contents.header, *contents.entries]


def made_at_once(make):
    """make(), which must not wait on anything (a FIFO's writer, a device): in a thread of its
    own, so that a board blocked reading its outbox fails the test rather than hanging it."""
    made = []
    thread = threading.Thread(target=lambda: made.append(make()), daemon=True)
    thread.start()
    thread.join(GUARD / 3)
    assert made, "the board blocked reading its outbox"
    return made[0]


@dataclass
class Board:
    """One board of the evening, its outbox damaged one way."""

    damage: str
    name: str
    games: Path
    url: str
    said: list[str] = field(default_factory=list)
    finished: Path | None = None  # the game finished with the broker down
    finished_bytes: bytes = b""
    following: Path | None = None  # the game after the restart
    stored: dict[str, list[dict]] | None = None  # what the club has of the board: game -> lines

    @property
    def outbox(self) -> Path:
        return self.games / f".broadcast-{self.name}.json"


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    """Every damage on a board of its own, all at once through one Mosquitto and one club: the
    broker down, each board plays a game to its end and is killed; each outbox is damaged its
    way; the broker and the club back, each board is started again and plays its next game."""
    folder = tmp_path_factory.mktemp("evening")
    broker = mosquitto.Mosquitto(folder / "mosquitto")  # not started yet: the broker is down
    address = parse_broker_url(broker.url)
    boards = [Board(damage, f"table{number}", folder / f"games{number}", broker.url)
              for number, damage in enumerate(DAMAGES)]

    async def killed(board: Board) -> None:
        first = Broadcaster(address, board.name, outbox=board.outbox, say=board.said.append, **FAST)
        await first.start()
        board.finished = play(board.games, first.line_written, FINISHED, 0, resign="black")
        await asyncio.sleep(0)
        assert first.unconfirmed == 7
        first._task.cancel()  # kill -9: nothing said, nothing written
        with contextlib.suppress(asyncio.CancelledError):
            await first._task
        assert board.outbox.is_file()
        board.finished_bytes = board.finished.read_bytes()

    async def started_again(board: Board, club: Club) -> None:
        again = made_at_once(lambda: Broadcaster(address, board.name, outbox=board.outbox, say=board.said.append,
                                                 **FAST))
        await again.start()
        board.following = play(board.games, again.line_written, NEXT, 1)
        await again.confirmed(GUARD / 2)
        await again.stop()
        board.stored = {game_id: game.lines for game_id, game in club.boards[board.name].games.items()}

    async def main():
        await asyncio.gather(*(killed(board) for board in boards))
        for board in boards:
            if DAMAGES[board.damage] is not None:
                DAMAGES[board.damage](board.outbox, board.finished)
        await asyncio.to_thread(broker.start)
        async with club_on(broker.url, folder / "club", "club") as club:
            await asyncio.gather(*(started_again(board, club) for board in boards))

    try:
        asyncio.run(asyncio.wait_for(main(), GUARD))
    finally:
        broker.stop()
    return {board.damage: board for board in boards}


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_a_damaged_or_missing_outbox_still_sends_the_finished_game(evening, damage):
    board = evening[damage]
    expected = {journal.name.removesuffix(".jsonl"): lines_of(journal) for journal in (board.finished, board.following)}
    assert {game: len(lines) for game, lines in board.stored.items()} == \
        {game: len(lines) for game, lines in expected.items()}, board.said  # both games, 7 and 9 lines: 16 of 16
    assert board.stored == expected  # each line once, in order
    assert board.finished.read_bytes() == board.finished_bytes  # (the file a link pointed to is as it was)
    rebuilt = [line for line in board.said if "outbox" in line and "rebuilt" in line]
    assert len(rebuilt) == (0 if DAMAGES[damage] is None else 1), board.said  # said once


@pytest.mark.parametrize("damage", [damage for damage in DAMAGES if damage != "a directory"])
def test_the_outbox_is_whole_again_afterwards(evening, damage):
    """Written again as a regular file: a board started once more has nothing waiting and
    nothing to rebuild."""
    board = evening[damage]
    assert board.outbox.is_file() and not board.outbox.is_symlink()
    said = []
    again = Broadcaster(parse_broker_url(board.url), board.name, outbox=board.outbox, say=said.append)
    assert again.unconfirmed == 0 and said == []


def test_an_outbox_a_folder_stands_in_for_is_left_there_and_said_to_be_unwritable(evening):
    board = evening["a directory"]
    assert (board.outbox / "kept").read_text() == "kept"  # the board removes nothing of its folder
    assert sum("cannot write the outbox" in line for line in board.said) == 1, board.said
