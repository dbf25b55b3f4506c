"""A game's truth across crashes: whenever the controller is killed, the trace replays to the journal.

The journal is what the controller decided; the trace is what the board reported. Killed at
any moment and brought back with resume, the controller goes on from its journal, and
`reedboard replay` of the trace must give exactly the game `reedboard export` gives.

The crash fuzz runs real games in subprocesses: `live.run` and the referee with a journal
and a flight recorder on a simulated board (hal.sim.SimBoard) played by a scripted player in
real time with short settle and debounce times. Each game is killed (SIGKILL) at random
moments, restarted with resume (the board as the hands left it), and played on until it
is killed again or its script ends. Every restart waits until the files have been compared.

Run as a script, this file is that subprocess:
    python tests/test_crash.py play GAME FOLDER SEED MOVES  (MOVES: how many this run plays at most)
The test runs a fixed sample of kill points (CRASH_SEED=N draws another); bench/crash_fuzz.py
runs the fuzz with hundreds of kill points and prints the count.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest

HERE = Path(__file__).resolve().parent
if __name__ == "__main__":
    sys.path[:0] = [str(HERE.parent), str(HERE)]

from reedboard.controller.games import GAMES, BigBalls, OffBoard  # noqa: E402
from reedboard.controller.persist.game_files import SUFFIX, TRACE_SUFFIX, trace_path
from reedboard.controller.persist.journal_format import JournalError
from reedboard.controller.persist.export import export_lines  # noqa: E402
from reedboard.controller.session.live import new_referee, resume_referee, run  # noqa: E402
from reedboard.controller.core.reconcile import Settings  # noqa: E402
from reedboard.controller.session.replay import replay  # noqa: E402
from reedboard.controller.persist.trace import read_trace  # noqa: E402
from reedboard.controller.core.view import Phase  # noqa: E402
from reedboard.hal.interfaces import Button  # noqa: E402
from reedboard.hal.sim import SimBoard  # noqa: E402
from physical import Hands  # noqa: E402

pytestmark = pytest.mark.system

FAST = Settings(debounce=0.004, settle=0.05, grace=0.25)
MOVES = 40  # moves a run may play before the kill comes (more than it has time for)
LAST_MOVES = 4  # moves the last run plays before its script ends
PLAYED_FOR = 0.9  # s: a run is killed at a random moment up to this long after it is under way
STARTING_KILLS = 0.15  # share of the kills that come while the controller is coming back
BOARD_FILE = "board.json"  # what stands on the simulated board: the hands keep it across a kill


# --- the subprocess: one run of a live game -----------------------------------------------------
def journal_in(folder: Path) -> Path | None:
    found = [p for p in folder.glob(f"*{SUFFIX}") if not p.name.endswith(TRACE_SUFFIX)]
    return found[0] if found else None


class Player:
    """Hands at the table that watch the lights: put right what they ask, then move."""

    def __init__(self, referee, board: SimBoard, rng: random.Random, moves: int, board_file: Path) -> None:
        self.referee, self.board, self.rng, self.board_file = referee, board, rng, board_file
        self.moves = len(referee.game.move_stack) + moves  # where this run's script ends

    def keep(self, occupied) -> None:
        # Written before the board changes: a kill between the two leaves a hand that moved
        # a piece while the controller was down, as at a real table.
        partial = self.board_file.with_suffix(".part")
        partial.write_text(json.dumps(sorted(occupied)))
        os.replace(partial, self.board_file)

    async def hand(self, change: str, cell: str) -> None:
        occupied = set(self.board.occupied)
        if change == "lift" and cell in occupied:
            self.keep(occupied - {cell})
            self.board.lift(cell)
        elif change == "place" and cell not in occupied:
            self.keep(occupied | {cell})
            self.board.place(cell)
        await asyncio.sleep(self.rng.uniform(0.003, 0.025))

    def _moves(self):
        referee, game = self.referee, self.referee.game
        if isinstance(game, BigBalls):
            return game.turn_moves(referee.roll if referee.phase is Phase.ROLLED else None)
        return game.legal_moves()

    @staticmethod
    def _distinct(game, moves):
        """The moves no other move looks like to the sensors (the others would be asked about)."""
        by_look: dict[tuple, list] = {}
        for move in moves:
            after, fp = game.copy(), game.footprint(move)
            after.push(move)
            by_look.setdefault((after.occupied(), fp.captures, fp.empties), []).append(move)
        return [found[0] for found in by_look.values() if len(found) == 1]

    async def play(self, ready) -> None:
        loop = asyncio.get_running_loop()
        referee, board, rng = self.referee, self.board, self.rng
        give_up = loop.time() + 30
        stuck_since = None
        while loop.time() < give_up:
            if referee.journal is not None:
                ready()
            await asyncio.sleep(0.002)
            game, rec, view = referee.game, referee.reconciler, referee.view()
            if referee.phase is Phase.OVER:
                return
            if view.fill or view.empty:  # the lights ask for the board as the game has it
                wrong = sorted(c for c in view.empty if c in board.occupied)
                missing = sorted(c for c in view.fill if c not in board.occupied)
                if wrong:
                    await self.hand("lift", rng.choice(wrong))
                elif missing:
                    await self.hand("place", rng.choice(missing))
                continue
            if view.choices:  # asked which move: a piece of one of them lifted and put back
                paths = [set(p) for p in view.choices]
                own = sorted(paths[0] - set().union(*paths[1:]))
                if own:
                    await self.hand("lift", own[0])
                    await self.hand("place", own[0])
                await asyncio.sleep(0.05)
                continue
            if rec.next_deadline() is not None or referee.phase not in (Phase.PLAY, Phase.ROLLED):
                continue
            if board.occupied != set(game.occupied()):  # a board nobody asked about: put it as the game has it
                stuck_since = stuck_since or loop.time()
                if loop.time() - stuck_since > 0.5:
                    extra = sorted(board.occupied - game.occupied())
                    missing = sorted(game.occupied() - board.occupied)
                    await self.hand(*(("lift", extra[0]) if extra else ("place", missing[0])))
                continue
            stuck_since = None
            if len(game.move_stack) >= self.moves:
                return
            await asyncio.sleep(rng.choice([0.0, 0.0, 0.01, 0.03, 0.08]))
            if referee.phase is Phase.PLAY and isinstance(game, BigBalls) and game.can_roll() and (
                    not game.turn_moves(None) or rng.random() < 0.6):
                board.press(Button.DIE)
                await asyncio.sleep(0.02)
                continue
            if rng.random() < 0.08:  # a piece touched and put back
                cell = rng.choice(sorted(board.occupied))
                await self.hand("lift", cell)
                await self.hand("place", cell)
                continue
            moves = self._distinct(game, self._moves()) or self._moves()
            if not moves:
                return
            fp = game.footprint(rng.choice(moves))
            for cell in sorted(fp.captures) + sorted(fp.empties):
                await self.hand("lift", cell)
            for cell in sorted(fp.fills | fp.captures):
                await self.hand("place", cell)


async def play_a_run(game_name: str, folder: Path, seed: int, moves: int) -> None:
    loop = asyncio.get_running_loop()
    rng = random.Random(seed)
    board_file = folder / BOARD_FILE
    journal = journal_in(folder)
    if journal is not None:
        try:
            referee = resume_referee(journal, loop.time(), rng=random.Random(seed))
        except JournalError:  # the game had ended: nothing to resume
            referee = None
        print("resumed", flush=True)
        await loop.run_in_executor(None, sys.stdin.readline)  # until the files have been compared
        if referee is None:
            print("finished", flush=True)
            return
        occupied = json.loads(board_file.read_text()) if board_file.exists() else referee.game.occupied()
    else:
        referee = new_referee(GAMES[game_name](), folder, settings=FAST, rng=random.Random(seed))
        occupied = referee.game.occupied()
    board = SimBoard(SimpleNamespace(cells=tuple(referee.game.cells)), occupied, clock=loop.time)
    player = Player(referee, board, rng, moves, board_file)
    player.keep(board.occupied)
    told = []

    def ready() -> None:
        if not told:
            told.append(True)
            print("ready", flush=True)

    stop = asyncio.Event()
    task = asyncio.create_task(run(referee, board, board, clock=loop.time, stop=stop, poll=0.02))
    await player.play(ready)
    stop.set()
    await task
    referee.journal.close()
    referee.recorder.close()
    print("finished", flush=True)


# --- the fuzz: kill, restart, compare ------------------------------------------------------------
@dataclass
class KillPoint:
    game: str
    folder: Path
    kill: int  # the how-many-th kill of this game; 0: the game at the end of its script
    replayed: list[str]
    exported: list[str]
    at_once: bool | None = None  # equal right after the kill, before the controller came back
    coming_back: bool = False  # killed while the controller was coming back, before it played on

    @property
    def equal(self) -> bool:
        return self.replayed == self.exported


def kill(proc) -> None:
    """SIGKILL, unless the run has ended by itself already."""
    if proc.returncode is None:
        try:
            proc.kill()
        except ProcessLookupError:
            pass


def compare(folder: Path) -> tuple[list[str], list[str]]:
    """The replay of the game's trace and the export of its journal."""
    journal = journal_in(folder)
    trace = trace_path(journal)
    try:
        replayed = replay(read_trace(trace), source=str(trace)).record
    except ValueError as error:
        replayed = [f"replay failed: {error}"]
    return replayed, export_lines(journal)


async def crash_game(game: str, folder: Path, seed: int, kills: int, *,
                     played_for: float = PLAYED_FOR) -> list[KillPoint]:
    """One game killed `kills` times at random moments, then played to the end of its script;
    the files compared after each kill (once the controller is back) and at the end."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    points: list[KillPoint] = []
    waiting: list[KillPoint] = []  # killed, not compared yet

    def compared() -> None:
        replayed, exported = compare(folder)
        for point in waiting:
            point.replayed, point.exported = replayed, exported
        waiting.clear()

    logs = folder / "runs.log"
    run_number, ended = 0, False
    while not ended:
        last = len(points) >= kills
        resuming = journal_in(folder) is not None
        with open(logs, "ab") as log:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, str(Path(__file__).resolve()), "play", game, str(folder),
                str(seed * 100 + run_number), str(LAST_MOVES if last else MOVES),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=log)
        run_number += 1
        coming_back = resuming and not last and rng.random() < STARTING_KILLS
        try:
            if coming_back:
                await asyncio.sleep(rng.uniform(0.0, 0.5))  # killed while it comes back
            else:
                if resuming:
                    line = await asyncio.wait_for(proc.stdout.readline(), 30)
                    if line.strip() != b"resumed":
                        raise RuntimeError(f"{folder}: the controller did not come back: {line!r} (see {logs})")
                    compared()
                    proc.stdin.write(b"go\n")
                    await proc.stdin.drain()
                line = await asyncio.wait_for(proc.stdout.readline(), 30)
                if line.strip() not in (b"ready", b"finished"):
                    raise RuntimeError(f"{folder}: no game under way: {line!r} (see {logs})")
                if last:
                    await asyncio.wait_for(proc.wait(), 60)
                else:
                    await asyncio.sleep(rng.uniform(0.0, played_for))
        finally:
            kill(proc)
            await proc.wait()
        if proc.returncode == -9:
            at_once = None
            if journal_in(folder) is not None:
                replayed, exported = compare(folder)
                at_once = replayed == exported
            point = KillPoint(game, folder, len(points) + 1, [], [], at_once, coming_back)
            points.append(point)
            waiting.append(point)
        else:  # the run came to the end of its script (or of the game) before the kill
            if proc.returncode != 0:
                raise RuntimeError(f"{folder}: a run failed with status {proc.returncode} (see {logs})")
            ended = True
    compared()
    points.append(KillPoint(game, folder, 0, *compare(folder)))
    return points


async def crash_fuzz(folder: Path, games: int, kills: int, seed: int = 0, parallel: int = 4,
                     **options) -> list[KillPoint]:
    """`games` games of each kind, each killed `kills` times; every comparison."""
    slots = asyncio.Semaphore(parallel)

    async def one(game: str, n: int) -> list[KillPoint]:
        async with slots:
            return await crash_game(game, folder / f"{game}-{n}", seed * 1000 + n, kills, **options)

    jobs = [one(game, n) for n in range(games) for game in ("bigballs", "offboard")]
    return [point for points in await asyncio.gather(*jobs) for point in points]


# --- the tests -------------------------------------------------------------------------------------
def dies(referee) -> None:
    """The controller dies with everything it wrote so far on disk (driven step by step,
    no journal line waits, so closing writes nothing more)."""
    referee.journal.close()
    referee.recorder.close()


def off_board_under_way(folder: Path):
    """An Off Board game set up (its journal open), and hands at its board."""
    referee = new_referee(OffBoard(), folder, settings=Settings())
    referee.start(0.0)
    referee.frame(0.0, OffBoard().occupied())
    hands = Hands(referee, OffBoard().occupied())
    hands.wait(0.1)
    return referee, hands, journal_in(folder)


def test_a_move_still_settling_when_the_controller_dies_never_happened(tmp_path):
    referee, hands, journal = off_board_under_way(tmp_path)
    hands.move("B2", "A1").wait(0.3)  # B2-A1 could still grow into a longer line: it waits 0.8 s
    dies(referee)
    referee = resume_referee(journal, t=50.0)
    assert referee.game.move_stack == []
    replayed, exported = compare(tmp_path)
    assert replayed == exported  # the settle that never came does not come in the replay either
    referee.start(50.0)
    hands.driver, hands.t = referee, 50.0
    hands.lift("A1").place("B2").wait(0.1)  # the lights ask for the board as journaled
    assert referee.phase is Phase.PLAY
    hands.move("B2", "A1").wait(1.0)  # made again, and this time it counts
    assert [str(m) for m in referee.game.move_stack] == ["B2-A1"]
    dies(referee)
    replayed, exported = compare(tmp_path)
    assert replayed == exported and exported[-1] == "B2-A1"


def test_a_game_stopped_while_a_move_settles_replays_as_journaled(tmp_path):
    referee, hands, journal = off_board_under_way(tmp_path)
    hands.move("B2", "A1").wait(0.3)
    dies(referee)  # or stopped with Ctrl-C: either way the settle never came
    replayed, exported = compare(tmp_path)
    assert replayed == exported and "B2-A1" not in exported


def test_a_move_time_decided_before_the_controller_died_is_in_the_replay(tmp_path):
    referee, hands, journal = off_board_under_way(tmp_path)
    hands.move("B2", "A1").wait(1.0)  # still for the settle time: journaled
    hands.wait(30)
    dies(referee)
    move_t = next(e["t"] for e in map(json.loads, journal.read_text().splitlines()) if e["type"] == "move")
    assert read_trace(trace_path(journal)).events[-1].t == move_t  # the recorder marked when time decided
    referee = resume_referee(journal, t=5.0)
    assert [str(m) for m in referee.game.move_stack] == ["B2-A1"]
    replayed, exported = compare(tmp_path)
    assert replayed == exported and exported[-1] == "B2-A1"


def test_a_move_on_the_trace_but_not_yet_journaled_is_journaled_on_resuming(tmp_path):
    referee, hands, journal = off_board_under_way(tmp_path)
    hands.move("B2", "A2").wait(0.05)  # counts at once: no other move can come of it
    dies(referee)
    # The kill came after the frame was on the trace, before the move's journal line.
    lines = journal.read_bytes().splitlines(keepends=True)
    assert json.loads(lines[-1])["move"] == "B2-A2"
    journal.write_bytes(b"".join(lines[:-1]))
    referee = resume_referee(journal, t=5.0)
    assert [str(m) for m in referee.game.move_stack] == ["B2-A2"]  # what the trace proves is kept
    replayed, exported = compare(tmp_path)
    assert replayed == exported and exported[-1] == "B2-A2"


# The fuzz in the suite is a sample of kill points, the same on every run; bench/crash_fuzz.py
# sweeps hundreds of them.
SAMPLE_GAMES, SAMPLE_KILLS = 2, 4  # games of each kind, kills of each game
SAMPLE_SEED = 11  # its kills come in play and while the controller comes back, in both games


def test_the_replay_of_a_crashed_game_is_its_journal_after_every_kill(tmp_path):
    seed = int(os.environ.get("CRASH_SEED", SAMPLE_SEED))
    points = asyncio.run(crash_fuzz(tmp_path, games=SAMPLE_GAMES, kills=SAMPLE_KILLS, seed=seed))
    kills = [p for p in points if p.kill]
    planned = 2 * SAMPLE_GAMES * SAMPLE_KILLS
    assert len(kills) >= planned * 3 // 4, f"only {len(kills)} of {planned} kills came before the games ended"
    for game in ("bigballs", "offboard"):  # the sample holds both kinds of kill the sweep has
        kinds = {p.coming_back for p in kills if p.game == game}
        assert kinds == {True, False}, f"{game}: no kill {'while coming back' if True not in kinds else 'in play'}" \
                                       f" in the sample of seed {seed}: choose another"
    wrong = [p for p in points if not p.equal]
    assert not wrong, (f"{len(wrong)} of {len(points)} comparisons differ; the first: {wrong[0].folder}"
                       f" after kill {wrong[0].kill}:\nreplay {wrong[0].replayed}\nexport {wrong[0].exported}")


if __name__ == "__main__":
    _, command, game_name, folder_name, seed_text, moves_text = sys.argv
    assert command == "play", "usage: python tests/test_crash.py play GAME FOLDER SEED MOVES"
    asyncio.run(play_a_run(game_name, Path(folder_name), int(seed_text), int(moves_text)))


def test_a_hint_in_the_journal_does_not_stop_the_move_on_the_trace_being_journaled(tmp_path):
    referee, hands, journal = off_board_under_way(tmp_path)
    assert referee.ask_hint(hands.t)
    referee.answer(hands.t, referee.question(), referee.game.parse_move("C3-B2"))  # the hint: journaled
    hands.move("B2", "A2").wait(0.05)
    dies(referee)
    lines = journal.read_bytes().splitlines(keepends=True)
    assert [json.loads(line)["type"] for line in lines[-2:]] == ["hint", "move"]
    journal.write_bytes(b"".join(lines[:-1]))  # killed before the move's line
    referee = resume_referee(journal, t=5.0)
    assert [str(m) for m in referee.game.move_stack] == ["B2-A2"]
