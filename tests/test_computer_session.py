"""Playing the computer in a play session on the simulated board, its search in a real worker
process: the board keeps answering while it thinks, its move is carried out by clicks, the
journal names its side, level and version, and its rolls and the player's hint are on record."""

import asyncio

import pytest

from reedboard.controller.core.computer import Computer
from reedboard.controller.games import GAMES
from reedboard.controller.persist.game_files import trace_path
from reedboard.controller.persist.journal_reader import read_journal
from reedboard.controller.persist.export import export_lines
from reedboard.controller.session.replay import replay
from reedboard.controller.persist.trace import read_trace
from reedboard.controller.opponent.worker import Thinker
from reedboard.controller.session.actions import ActionError
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.core.reconcile import Settings

from play_sessions import carry_out, run

pytestmark = pytest.mark.component

QUICK = Settings(debounce=0.001, settle=0.05, grace=0.2)


async def until(condition, what):
    for _ in range(3000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never {what}")


@pytest.mark.parametrize("name", ["bigballs", "abalone"])
def test_a_game_against_the_computer_in_a_worker_process(tmp_path, name):
    game_players = GAMES[name].players
    thinker = Thinker(seconds=0.3)

    async def scenario(session):
        await until(lambda: session.referee.phase.value in ("play", "rolled"), "set up")
        referee = session.referee
        assert referee.computer == Computer(game_players[0], 1)
        for turn in range(4):  # the computer's move, then the person's, twice
            await until(lambda: referee.view().lift or referee.game.outcome(), "a computer move shown")
            move = referee.shown_move()
            before = len(referee.game.move_stack)
            await carry_out(session, referee.game.footprint(move))
            await until(lambda: len(referee.game.move_stack) > before, "the computer's move carried out")
            assert str(referee.game.move_stack[-1]) == str(move)
            if referee.game.uses_die:
                session.press("die")
                await until(lambda: referee.roll is not None and not referee.view().rolling, "rolled")
            mine = referee.game.turn_moves(referee.roll)[0]
            before = len(referee.game.move_stack)
            await carry_out(session, referee.game.footprint(mine))
            await until(lambda: len(referee.game.move_stack) > before, "the person's move")
        if referee.computer_to_move():
            with pytest.raises(ActionError, match="computer's turn"):
                session.hint()
        return referee.journal.path

    session = PlaySession(name, games_dir=tmp_path, settings=QUICK, computer=Computer(game_players[0], 1), setup="given",
                          thinker=thinker, players={game_players[1]: "Ann"})
    path = run(session, scenario)
    contents = read_journal(path)
    assert contents.header["computer"]["plays"] == game_players[0] and contents.header["computer"]["level"] == 1
    assert contents.header["computer"]["version"] and contents.header["players"] == {game_players[1]: "Ann"}
    kinds = [entry["type"] for entry in contents.entries]
    assert kinds.count("move") == 8
    if GAMES[name].uses_die:
        assert "roll" in kinds
    # the flight recorder holds what the computer's turn did too: its trace replays to the record
    replayed = replay(read_trace(trace_path(path)), source=str(path))
    assert replayed.record == export_lines(path)
    # and the game goes on against the computer after a restart
    resumed = PlaySession(resume=path, games_dir=tmp_path, settings=QUICK, thinker=Thinker(seconds=0.2, processes=False))

    async def back(session):
        await until(lambda: session.referee is not None, "resumed")
        return session.referee.computer

    assert run(resumed, back) == Computer(game_players[0], 1)


def test_a_hint_from_the_page_is_lit_and_journaled(tmp_path):
    async def scenario(session):
        await until(lambda: session.referee.phase.value == "play", "set up")
        session.hint()
        referee = session.referee
        await until(lambda: referee.view().dest, "the hint shown")
        assert session.snapshot()["prompt"]["hint"]
        move = referee.shown_move()
        await carry_out(session, referee.game.footprint(move))
        await until(lambda: referee.game.move_stack, "the hinted move played")
        assert referee.game.move_stack == [move] and not referee.view().dest
        return referee.journal.path

    path = run(PlaySession("abalone", games_dir=tmp_path, settings=QUICK, thinker=Thinker(seconds=0.2, processes=False)),
               scenario)
    assert [entry["type"] for entry in read_journal(path).entries] == ["hint", "move"]


def test_the_boards_ok_button_held_lights_a_hint(tmp_path):
    async def scenario(session):
        await until(lambda: session.referee.phase.value == "play", "set up")
        session.backend.press("ok", long=True)  # as the board reports a held button
        referee = session.referee
        await until(lambda: referee.view().dest, "the hint shown")
        return referee.notes[-1].kind

    assert run(PlaySession("abalone", games_dir=tmp_path, settings=QUICK,
                           thinker=Thinker(seconds=0.2, processes=False)), scenario) == "hint"
