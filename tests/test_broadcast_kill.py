"""A real `reedboard play` killed with SIGKILL while its broker is down loses nothing: started
again with the broker and the club back, it sends the killed game's journal lines (read back
from its games folder, as its outbox says) and the new game's; the club stores each line once,
in order."""

import asyncio
import io
import json
import os
import signal
import subprocess
import time
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

import pytest
from command_line import start_reedboard
from conftest import free_port
from polling import until
from reedboard.controller.broadcast.club import mosquitto
from reedboard.controller.broadcast.address import parse_broker_url
from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.broadcast.club.follow import follow
from reedboard.controller.persist.export import export_lines
from reedboard.controller.persist.journal import Journal
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.persist.trace import read_trace
from reedboard.controller.session.replay import replay

pytestmark = [pytest.mark.system, pytest.mark.mosquitto]

CONFIG = '[play]\nsettle = 0.15\ngrace = 0.3\n[board]\nbackend = "sim"\n'
# Abalone on the simulated board: no die, so the same moves every run; each a marble stepped
# to an empty hollow
KILLED_GAME = [("black", "C3", "D3"), ("white", "G5", "F5"), ("black", "C4", "D4"), ("white", "G6", "F6"),
               ("black", "C5", "D5"), ("white", "G7", "F7")]
NEXT_GAME = [("black", "C3", "D3"), ("white", "G5", "F5")]
TRACES = Path(__file__).parent / "traces"
WAIT = 60.0  # s at most for any one condition (a loaded machine); met, the test goes on at once


class Board:
    """`reedboard play abalone` in a process of its own, on the simulated board, broadcasting."""

    def __init__(self, tmp_path: Path, games: Path, url: str, run: int) -> None:
        self.port = free_port()
        self.log = tmp_path / f"play-{run}.log"
        config = tmp_path / "config.toml"
        config.write_text(CONFIG, "utf-8")
        env = dict(os.environ, LANGUAGE="en", XDG_CONFIG_HOME=str(tmp_path / "xdg-config"),
                   XDG_DATA_HOME=str(tmp_path / "xdg-data"))
        with open(self.log, "wb") as log:
            self.process = start_reedboard(
                "play", "abalone", "--config", config, "--games-dir", games, "--listen", f"127.0.0.1:{self.port}",
                "--broadcast", url, "--name", "table1", installed=None,
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env)
        try:
            until(lambda: self.said(f"web view: http://127.0.0.1:{self.port}/"), "the board's web view")
        except BaseException:
            self.end(signal.SIGKILL)
            raise

    def said(self, text: str) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"reedboard play ended ({self.process.returncode}): {self.log.read_text()[-2000:]}")
        return text in self.log.read_text("utf-8", "replace")

    def request(self, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)

    def state(self) -> dict | None:
        try:
            return self.request("/api/state")
        except OSError:
            return None

    def move(self, player: str, start: str, end: str) -> None:
        """A hand lifts the marble on `start` and puts it on `end`; back when the move is recorded."""
        def ready():
            state = self.state()
            return state if state and state["phase"] == "play" and state["turn"] == player \
                and state["prompt"]["kind"] == "move" else None
        moves = len(until(ready, f"{player} to move")["record"])
        self.request("/api/click", {"cell": start})
        until(lambda: end in ((self.state() or {}).get("prompt") or {}).get("to", []), f"{start} lifted")
        self.request("/api/click", {"cell": end})
        until(lambda: len((self.state() or {}).get("record", [])) > moves, f"{start}-{end} recorded")

    def journal(self) -> Path:
        return until(lambda: (self.state() or {}).get("journal"), "the game's journal")

    def end(self, how: int) -> None:
        if self.process.poll() is None:
            self.process.send_signal(how)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def lines_on_disk(journal: Path) -> list[dict]:
    return [json.loads(line) for line in journal.read_text("utf-8").splitlines()]


def a_game_played_before(games: Path) -> Path:
    """A game in the folder from before the board broadcast (two days old: a board with no outbox
    offers the club its games of the last day, docs/broadcast.md): never sent."""
    played = read_trace(TRACES / "bigballs-game-to-a7.jsonl")
    journal = Journal.create(games, played.game(), {}, datetime(2026, 11, 30, 19, 0, tzinfo=timezone.utc))
    for entry in replay(played, source="bigballs-game-to-a7").decisions:
        journal.append_entry(entry)
    journal.close()
    os.utime(journal.path, (time.time() - 2 * 86400,) * 2)
    return journal.path


@pytest.mark.parametrize("folder", ["new", "with an earlier game"])
def test_a_board_killed_with_lines_waiting_sends_them_when_it_broadcasts_again(tmp_path, folder):
    """`new`: the board's first game makes its games folder (the outbox cannot be written
    before); else the folder holds a game from before the board broadcast, which stays unsent."""
    broker_port = free_port()
    url = f"mqtt://127.0.0.1:{broker_port}"
    games = tmp_path / "games"
    earlier = a_game_played_before(games) if folder != "new" else None
    club_folder = tmp_path / "club"

    # the broker down: a game of six moves, then kill -9 (nothing said, nothing tidied up)
    first = Board(tmp_path, games, url, 1)
    try:
        for move in KILLED_GAME:
            first.move(*move)
        killed = games / first.journal()
        until(lambda: len(lines_on_disk(killed)) == 1 + len(KILLED_GAME), "the moves in the journal")
        until(lambda: first.said("cannot be reached"), "the board saying the broker is down")
    finally:
        first.end(signal.SIGKILL)
    assert first.process.returncode == -signal.SIGKILL
    killed_lines = lines_on_disk(killed)
    assert [line["type"] for line in killed_lines] == ["header"] + ["move"] * len(KILLED_GAME)

    # the broker and the club back, the board started again on the same games folder: a new game
    broker = mosquitto.Mosquitto(tmp_path / "mosquitto", broker_port)
    second = None

    async def main() -> dict:
        nonlocal second
        club = Club(club_folder)
        ready = asyncio.Event()
        following = asyncio.create_task(follow(club, parse_broker_url(url), identifier="club", retry=(0.05, 0.2),
                                               ready=ready))
        try:
            await asyncio.wait_for(ready.wait(), WAIT)
            second = await asyncio.to_thread(Board, tmp_path, games, url, 2)
            for move in NEXT_GAME:
                await asyncio.to_thread(second.move, *move)
            await asyncio.to_thread(second.request, "/api/resign", {"player": "white"})
            new = games / await asyncio.to_thread(second.journal)
            assert new != killed

            def whole(journal: Path) -> bool:
                board = club.boards.get("table1")
                game = board and board.games.get(journal.name.removesuffix(".jsonl"))
                return bool(game) and game.seq >= len(lines_on_disk(journal))

            deadline = time.monotonic() + WAIT
            while not (whole(killed) and whole(new)):
                if time.monotonic() > deadline:
                    stored = {g.id: g.seq for g in club.boards["table1"].games.values()} if "table1" in club.boards \
                        else None
                    raise AssertionError(f"the club has {stored}; the board: {second.log.read_text()[-2000:]}")
                await asyncio.sleep(0.05)
            return {"club": club, "new": new}
        finally:
            following.cancel()
            done, _ = await asyncio.wait([following], timeout=WAIT)  # a bound for a club gone wrong
            if following not in done:
                stack = io.StringIO()
                following.print_stack(file=stack)
                raise AssertionError(f"following did not end when cancelled:\n{stack.getvalue()}")
            club.close()

    try:
        broker.start()
        got = asyncio.run(main())
    finally:
        if second is not None:
            second.end(signal.SIGINT)
        broker.stop()
    club, new = got["club"], got["new"]

    new_lines = lines_on_disk(new)
    assert [line["type"] for line in new_lines] == ["header"] + ["move"] * len(NEXT_GAME) + ["result"]
    assert lines_on_disk(killed) == killed_lines  # the board did not resume the killed game: it is as it was
    stored = club.boards["table1"].games
    assert list(stored) == [killed.name.removesuffix(".jsonl"), new.name.removesuffix(".jsonl")]  # not `earlier`
    assert earlier is None or earlier.exists()
    for journal, lines in ((killed, killed_lines), (new, new_lines)):
        game = stored[journal.name.removesuffix(".jsonl")]
        assert game.lines == lines  # every line once, in order
        kept = club_folder / game.journal_name
        assert [read_journal(kept).header, *read_journal(kept).entries] == lines
        assert export_lines(kept) == export_lines(journal)


def test_a_board_stopped_as_a_service_is_stopped_says_what_waits(tmp_path):
    """systemd stops the board's service with SIGTERM: the board stops as on Ctrl-C, its outbox
    kept and how many lines wait for the club said, not cut off in silence."""
    board = Board(tmp_path, tmp_path / "games", f"mqtt://127.0.0.1:{free_port()}", 1)  # no broker there
    try:
        board.move(*KILLED_GAME[0])
        until(lambda: board.said("cannot be reached"), "the board saying the broker is down")
    finally:
        board.end(signal.SIGTERM)
    said = board.log.read_text("utf-8")
    assert board.process.returncode == 0, said
    assert "2 journal lines wait for the club's confirmation" in said, said
