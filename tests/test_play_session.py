"""The play session's snapshot: the game's geometry and pieces from its hooks, every game for the
new-game dialog, start options, and a redraw only when the referee says something changed."""

import asyncio

import pytest

from reedboard.controller.games import GAMES
from reedboard.controller.session.actions import ActionError
from reedboard.controller.session.play_session import PlaySession

from play_sessions import run

pytestmark = pytest.mark.component


async def settled(session, condition, what):
    for _ in range(2000):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never {what}")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_snapshot_draws_from_the_games_hooks(tmp_path, name):
    async def scenario(session):
        await settled(session, lambda: session.snapshot()["phase"] != "setup", "set up")
        snap = session.snapshot()
        game = session.referee.game
        assert snap["geometry"] == game.geometry() and "sectors" not in snap
        assert snap["title"] == game.title
        assert {cell: entry["piece"] for cell, entry in snap["cells"].items()} == game.pieces()
        assert snap["setup_modes"] == [m for m in game.setup_modes if m != "given"]
        assert [g["name"] for g in snap["games"]] == list(GAMES)
        assert all(set(g) == {"name", "title", "players", "setup_modes", "options"} for g in snap["games"])
        assert snap["score"] == game.position_data()["score"]
        return snap

    run(PlaySession(name, games_dir=tmp_path, setup="given" if "given" in GAMES[name].setup_modes else None), scenario)


def test_unchanged_frames_publish_nothing(tmp_path):
    async def scenario(session):
        await settled(session, lambda: session.snapshot()["phase"] == "play", "playing")
        seq, builds = session.seq, session.referee.view_builds
        board = frozenset(session.sim.occupied)
        for _ in range(50):  # the board reporting the same again and again
            session.referee.frame(session.now(), board)
        await asyncio.sleep(0)
        assert session.seq == seq and session.referee.view_builds == builds

    run(PlaySession("bigballs" if "bigballs" in GAMES else None, games_dir=tmp_path, setup="given"), scenario)


def test_new_game_takes_start_options_and_refuses_bad_ones(tmp_path):
    name, cls = next(((n, c) for n, c in GAMES.items() if any(o.choices for o in c.options)), (None, None))
    if cls is None:
        pytest.skip("no game with start options that are words")
    option = next(o for o in cls.options if o.choices)

    async def scenario(session):
        snap = await session.new_game(name, options={option.flag: option.choices[-1]})
        assert snap["game"] == name
        with pytest.raises(ActionError):
            await session.new_game(name, options={option.flag: "no such thing"})
        with pytest.raises(ActionError):
            await session.new_game(name, options={"nonsense": "x"})
        with pytest.raises(ActionError):
            await session.new_game(name, setup="no-such-mode")

    run(PlaySession(games_dir=tmp_path), scenario)
