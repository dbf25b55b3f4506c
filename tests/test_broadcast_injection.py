"""Hostile content from MQTT: a board's retained state whose snapshot holds HTML (in its
players, score, the hand's source, notes, cells) and a header whose players' names are HTML.
The club serves the board's page only what passes its schema (the pieces, players, record and
score being its own, from the lines it took), and every value the pages show goes in as text:
in a real browser, no element of the hostile HTML appears and no script of it runs."""



import pytest

from reedboard.controller.broadcast.club.club import Club
from reedboard.controller.broadcast.messages import encode, game_snapshot, state_message

from club_lines import board_lines, fed_club

pytestmark = pytest.mark.component


def test_the_club_serves_only_what_passes_its_schema(tmp_path):
    club = fed_club(tmp_path / "club")
    served = club.board_snapshot("t1")
    assert served is not None and served["cells"]
    texts = ("header", "message", "error")  # the header names the players; the page shows these as text
    shown = {key: value for key, value in served.items() if key not in texts}
    assert "<" not in repr(shown), shown
    assert set(served["players"]) == {"black", "white"} and served["score"] is None
    assert "hand" not in served and "box" not in served and served["notes"] == []
    assert all(cell["light"] == "" for cell in served["cells"].values())
    club.close()


def test_an_honest_snapshots_live_parts_are_served(tmp_path):
    (tmp_path / "club").mkdir()
    lines = board_lines(tmp_path)
    club = Club(tmp_path / "club")
    snapshot = game_snapshot(lines[0], lines[1:12])
    first = next(iter(snapshot["cells"]))
    snapshot["cells"][first] = {"piece": "", "light": "red", "blink": True}
    snapshot["notes"] = [{"t": 3.5, "text": "white lifted B3", "kind": "lift", "n": 4, "data": {"cell": first}}]
    snapshot["message"] = "put it back"
    club.receive("reedboard/boards/t1/state", encode(state_message("t1", "g1", 12, lines[0], lines[1:12], snapshot)))
    served = club.board_snapshot("t1")
    assert served["cells"][first] == {"piece": "", "light": "red", "blink": True}
    assert served["notes"] == [{"t": 3.5, "text": "white lifted B3", "kind": "lift", "n": 4}]
    assert served["message"] == "put it back"
    club.close()
