"""The web view against visitors who mean it harm: the real server on 127.0.0.1 (in a thread,
or in a subprocess with its open-file limit lowered), real sockets and real WebSockets.

Big WebSocket frames, crowds of watchers, half-sent requests, idle connections, slow past
games, foreign host names and pages, odd or huge bodies and settings that would stop the
referee: each is bounded or refused, the owner's presses still go through, and the log stays
a few lines. The numbers at full size are printed by bench/web_flood.py.
"""

import asyncio
import contextlib
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.core.reconcile import Settings
from reedboard.controller.web.background import served
from reedboard.controller.web.hosts import names_for
from reedboard.controller.web.limits import Limits

from command_line import start_reedboard
from polling import end
from random_play import journaled_at_random

pytestmark = pytest.mark.system

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "t0ken"
PATIENCE = 20.0  # s for anything awaited; generous, never a measure of speed


def session_for(tmp_path, **kwargs):
    kwargs.setdefault("settings", Settings(settle=0.15, grace=0.3))
    kwargs.setdefault("rng", random.Random(7))
    kwargs.setdefault("setup", "given")
    return PlaySession("bigballs", games_dir=tmp_path / "games", **kwargs)


def port_of(url):
    return int(url.rsplit(":", 1)[1])


def ask(port, method, path, body=None, headers=None, timeout=PATIENCE):
    """(status, parsed JSON or text) of one request on a new connection."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Host": f"127.0.0.1:{port}", **(headers or {})}
        if body is not None and not isinstance(body, bytes):
            body = json.dumps(body).encode()
            headers.setdefault("Content-Type", "application/json")
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        try:
            return response.status, json.loads(raw)
        except ValueError:
            return response.status, raw.decode("utf-8", "replace")
    finally:
        conn.close()


def press(port, token=TOKEN, timeout=PATIENCE):
    headers = {"X-Reedboard-Token": token} if token else {}
    return ask(port, "POST", "/api/press", {"button": "ok"}, headers, timeout)[0]


def eventually(condition, what, timeout=PATIENCE):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def running(port):
    try:
        status, snapshot = ask(port, "GET", "/api/state")
    except OSError:  # not listening yet
        return False
    return status == 200 and snapshot.get("running") and snapshot.get("phase") in ("play", "rolled")


def answers(request, *args):
    """Is the request answered with 200 (a connection turned away is no answer)?"""
    try:
        return request(*args) == 200
    except OSError:
        return False


def closed_by_server(sock):
    """Has the server closed this socket (EOF or reset)?"""
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


# --- a server in a subprocess, with few open files ------------------------------------------------
SERVER = """
import json, resource, socket, sys
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[1]), hard))
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.web.app import make_server
from reedboard.controller.web.limits import Limits
games, token, limits = sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
sock = socket.socket()
sock.bind(("127.0.0.1", 0))
session = PlaySession("bigballs", games_dir=games, setup="given")
server = make_server(session, "127.0.0.1", sock.getsockname()[1], token, games_dir=games, limits=Limits(**limits))
print(sock.getsockname()[1], flush=True)
server.run(sockets=[sock])
"""


class Subprocess:
    def __init__(self, tmp_path, file_limit, **limits):
        self.log = tmp_path / "server.log"
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(file_limit), str(tmp_path / "games"), TOKEN, json.dumps(limits)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=open(self.log, "wb"), text=True)
        try:
            self.port = int(self.process.stdout.readline() or 0)
            assert self.port, self.log.read_text()
            eventually(lambda: running(self.port), "the server to start")
        except BaseException:
            self.stop()
            raise

    def open_files(self):
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def log_lines(self):
        return self.log.read_text(errors="replace").splitlines()

    def stop(self):
        end(self.process)


@pytest.fixture
def subprocess_server(tmp_path):
    servers = []

    def start(file_limit, **limits):
        servers.append(Subprocess(tmp_path, file_limit, **limits))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


# --- 1. big WebSocket frames -------------------------------------------------------------------------------
def test_a_watcher_sending_a_big_frame_is_closed_at_once(tmp_path):
    with served(session_for(tmp_path)) as url:
        port = port_of(url)
        ws_url = f"ws://127.0.0.1:{port}/ws"
        with connect(ws_url, compression=None, proxy=None, open_timeout=PATIENCE) as small:
            small.recv(PATIENCE)
            small.send("hello")  # a small message is no reason to close
            with connect(ws_url, compression=None, proxy=None, open_timeout=PATIENCE) as big:
                big.recv(PATIENCE)
                big.send(b"x" * 65536)
                with pytest.raises(ConnectionClosed) as closed:
                    while True:
                        big.recv(PATIENCE)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big
            eventually(lambda: running(port), "the game to go on")
            small.ping().wait(PATIENCE)  # still open


def test_a_watcher_that_keeps_sending_is_closed(tmp_path):
    with served(session_for(tmp_path), limits=Limits(messages=3)) as url:
        with connect(f"{url.replace('http', 'ws')}/ws", proxy=None, open_timeout=PATIENCE) as ws:
            ws.recv(PATIENCE)
            with pytest.raises(ConnectionClosed) as closed:
                for _ in range(100):
                    ws.send("chatter")
                    time.sleep(0.01)
                while True:
                    ws.recv(PATIENCE)
            assert closed.value.rcvd.code == 1008


# --- 2. too many connections -------------------------------------------------------------------------------
def test_watchers_beyond_the_limit_are_turned_away_and_the_owner_keeps_a_place(tmp_path):
    limits = Limits(watchers=3, watchers_per_address=3, owner_sockets=2)
    with served(session_for(tmp_path), token=TOKEN, limits=limits) as url:
        ws_url = f"ws://127.0.0.1:{port_of(url)}/ws"
        with contextlib.ExitStack() as open_sockets:
            watchers = [open_sockets.enter_context(connect(ws_url, proxy=None, open_timeout=PATIENCE))
                        for _ in range(3)]
            with pytest.raises(InvalidStatus) as refused:
                connect(ws_url, proxy=None, open_timeout=PATIENCE)
            assert refused.value.response.status_code == 503
            assert b"watchers" in refused.value.response.body
            # the owner's page, with the token, has a place of its own: by the token, or by the
            # cookie the page got with it (a browser's WebSocket carries no header of the page's)
            with connect(f"{ws_url}?token={TOKEN}", proxy=None, open_timeout=PATIENCE) as owner:
                assert owner.recv(PATIENCE)
            conn = http.client.HTTPConnection("127.0.0.1", port_of(url), timeout=PATIENCE)
            conn.request("GET", f"/?token={TOKEN}")
            response = conn.getresponse()
            response.read()
            cookie = response.getheader("set-cookie").split(";")[0]
            assert "httponly" in response.getheader("set-cookie").lower()
            conn.close()
            with connect(ws_url, additional_headers={"Cookie": cookie}, proxy=None, open_timeout=PATIENCE) as owner:
                assert owner.recv(PATIENCE)
            with pytest.raises(InvalidStatus):  # the cookie is no token for changes
                connect(ws_url, additional_headers={"Cookie": "reedboard_token=guess"}, proxy=None)
            assert ask(port_of(url), "POST", "/api/press", {"button": "ok"}, {"Cookie": cookie})[0] == 403
            # a watcher who leaves frees a place
            watchers.pop().close()

            def admitted():
                try:
                    open_sockets.enter_context(connect(ws_url, proxy=None, open_timeout=PATIENCE))
                    return True
                except InvalidStatus:
                    return False
            eventually(admitted, "a place for a new watcher")


def test_connections_from_one_address_are_bounded_and_idle_ones_make_room(tmp_path):
    with served(session_for(tmp_path), limits=Limits(connections_per_address=4)) as url:
        port = port_of(url)
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(10)]
        try:
            eventually(lambda: sum(not closed_by_server(s) for s in idle) <= 4, "connections beyond 4 to be closed")
            kept = [s for s in idle if not closed_by_server(s)]

            eventually(lambda: answers(press, port, None), "a request on a new connection")
            assert any(closed_by_server(s) for s in kept)  # an idle one made room
        finally:
            for sock in idle:
                sock.close()


SMALL = dict(connections=32, connections_per_address=16, backlog=32, watchers=64, watchers_per_address=16)


def test_a_crowd_of_watchers_under_a_small_file_limit(tmp_path, subprocess_server):
    """400 watchers at once against 256 open files: they are counted and turned away, the
    owner's presses and the page still answer, and the log stays a few lines."""
    server = subprocess_server(256, **SMALL)
    port = server.port

    async def crowd():
        from websockets.asyncio.client import connect as connect_async

        async def watcher():
            try:
                return await connect_async(f"ws://127.0.0.1:{port}/ws", proxy=None, open_timeout=PATIENCE,
                                           ping_interval=None)
            except Exception as error:
                return error

        results = await asyncio.gather(*(watcher() for _ in range(400)))
        admitted = [r for r in results if not isinstance(r, BaseException)]
        try:
            files = server.open_files()
            owner = await asyncio.to_thread(press, port)
            page = await asyncio.to_thread(ask, port, "GET", "/")
            return len(admitted), files, owner, page[0]
        finally:
            for ws in admitted:
                await ws.close()

    admitted, files, owner, page = asyncio.run(crowd())
    assert owner == 200 and page == 200
    assert admitted <= SMALL["watchers_per_address"]  # every one from 127.0.0.1
    assert files < 200
    lines = server.log_lines()
    assert not any("Traceback" in line for line in lines), "\n".join(lines[:40])
    assert len(lines) < 20, "\n".join(lines[:40])


def test_half_sent_requests_neither_lock_the_owner_out_nor_stay(tmp_path, subprocess_server):
    # More half-sent requests than the server has files, cut off after 1 s.
    server = subprocess_server(256, request_timeout=1.0, **SMALL)
    port = server.port
    slow = []
    try:
        for _ in range(300):
            sock = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow")
            slow.append(sock)
        eventually(lambda: answers(press, port), "the owner's press to be answered")  # the newest may be turned away
        assert ask(port, "GET", "/")[0] == 200
        assert server.open_files() < 200
        eventually(lambda: all(closed_by_server(s) for s in slow), "the half-sent requests to be cut off")
    finally:
        for sock in slow:
            sock.close()
    lines = server.log_lines()
    assert not any("Traceback" in line for line in lines) and len(lines) < 20, "\n".join(lines[:40])


# --- 3. past games beside the referee ------------------------------------------------------------------------
def long_game_journal(games_dir, copies):
    """`copies` journals of one 150-move Off Board game, under different names."""
    path = journaled_at_random(games_dir, random.Random(3), 150, datetime(2024, 5, 1, 18, 0).astimezone())
    text = path.read_bytes()
    for n in range(1, copies):
        (games_dir / f"20240501-{180000 + n:06d}-offboard.jsonl").write_bytes(text)
    return path


def test_listing_past_games_leaves_the_referee_free(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    long_game_journal(games, 80)
    with served(session_for(tmp_path), token=TOKEN) as url:
        port = port_of(url)
        eventually(lambda: running(port), "the game to start")
        listed, asked = {}, threading.Event()

        def list_games():
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
            conn.request("GET", "/api/games")
            asked.set()
            response = conn.getresponse()
            listed["answer"] = response.status, json.loads(response.read())
            listed["at"] = time.monotonic()
            conn.close()

        lister = threading.Thread(target=list_games)
        lister.start()
        assert asked.wait(PATIENCE)
        pressed = []  # when each of the owner's presses was answered, while the list was worked out
        while lister.is_alive() and len(pressed) < 50:
            assert press(port) == 200
            pressed.append(time.monotonic())
        lister.join(PATIENCE)
        status, games_listed = listed["answer"]
        assert status == 200 and len(games_listed) == 81 and games_listed[-1]["moves"] > 100
        assert sum(1 for at in pressed if at < listed["at"]) >= 3


def test_the_past_games_follow_their_journals(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    journal = long_game_journal(games, 2)
    with served(session_for(tmp_path)) as url:
        port = port_of(url)
        before = {g["name"]: g for g in ask(port, "GET", "/api/games")[1]}
        replay = ask(port, "GET", f"/api/games/{journal.name}")[1]
        assert len(replay["positions"]) == before[journal.name]["moves"] + 1
        with journal.open("ab") as file:  # the game goes on: the journal grows
            file.write(json.dumps({"type": "result", "t": 200.0, "result": "1-0", "reason": "resign",
                                   "winner": "red"}).encode() + b"\n")
        after = {g["name"]: g for g in ask(port, "GET", "/api/games")[1]}
        assert after[journal.name]["result"].startswith("1-0") and not before[journal.name]["result"]
        assert ask(port, "GET", f"/api/games/{journal.name}")[1]["result"].startswith("1-0")
        journal.unlink()
        assert journal.name not in {g["name"] for g in ask(port, "GET", "/api/games")[1]}
        assert ask(port, "GET", f"/api/games/{journal.name}")[0] == 404


# --- 4. host names and pages of other sites ----------------------------------------------------------------
def test_a_foreign_host_name_is_refused(tmp_path):
    with served(session_for(tmp_path)) as url:
        port = port_of(url)
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example"):
            status, answer = ask(port, "GET", "/api/state", headers={"Host": host})
            assert status == 400 and "error" in answer, host
            assert ask(port, "GET", "/", headers={"Host": host})[0] == 400
        assert ask(port, "POST", "/api/press", {"button": "ok"}, {"Host": f"rebound.example:{port}"})[0] == 400
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost", f"LOCALHOST:{port}"):
            assert ask(port, "GET", "/api/state", headers={"Host": host})[0] == 200, host


def test_a_page_of_another_site_cannot_open_the_websocket_or_change_the_game(tmp_path):
    with served(session_for(tmp_path)) as url:
        port = port_of(url)
        ws_url = f"ws://127.0.0.1:{port}/ws"
        for origin in ("http://evil.example", f"http://evil.example:{port}", "null", f"http://127.0.0.1:{port + 1}"):
            with pytest.raises(InvalidStatus) as refused:
                connect(ws_url, origin=origin, proxy=None, open_timeout=PATIENCE)
            assert refused.value.response.status_code == 403, origin
        with connect(ws_url, origin=f"http://127.0.0.1:{port}", proxy=None, open_timeout=PATIENCE) as ws:
            assert json.loads(ws.recv(PATIENCE))["game"] == "bigballs"
        with connect(ws_url, proxy=None, open_timeout=PATIENCE) as ws:  # no Origin: not a browser page
            assert ws.recv(PATIENCE)
        eventually(lambda: running(port), "the game to start")
        assert ask(port, "POST", "/api/press", {"button": "ok"}, {"Origin": "http://evil.example"})[0] == 403
        assert ask(port, "POST", "/api/press", {"button": "ok"}, {"Origin": f"http://127.0.0.1:{port}"})[0] == 200


def test_the_names_of_a_server_for_every_address():
    assert names_for("127.0.0.1") == {"localhost", "127.0.0.1", "::1"}
    assert names_for("192.168.1.20") >= {"localhost", "192.168.1.20"}
    everywhere = names_for("0.0.0.0")
    assert socket.gethostname().lower() in everywhere and f"{socket.gethostname().lower()}.local" in everywhere


# --- 5. bodies ------------------------------------------------------------------------------------------------------
def test_odd_and_huge_bodies_get_a_4xx_and_change_nothing(tmp_path, capfd):
    session = session_for(tmp_path)
    with served(session) as url:
        port = port_of(url)
        eventually(lambda: running(port), "the game to start")
        before = ask(port, "GET", "/api/state")[1]
        occupied = set(session.sim.occupied)
        nested = b'{"game": ' + b"[" * 1500 + b"]" * 1500 + b"}"
        cases = [
            ("/api/new", {"game": []}, 400), ("/api/new", {"game": {}}, 400), ("/api/new", {"setup": 3}, 400),
            ("/api/new", {"clock": "5+3"}, 400), ("/api/new", {"clock": {"minutes": 10 ** 400, "increment": 0}}, 400),
            ("/api/new", {"settings": {"takebacks": None}}, 400), ("/api/new", {"colour": "red"}, 400),
            ("/api/click", {"cell": ["a1"]}, 400), ("/api/click", {"cell": "a1", "extra": 1}, 400),
            ("/api/select", {"index": "0"}, 400), ("/api/select", {"index": 0.5}, 400),
            ("/api/aside", {"index": "last"}, 400), ("/api/take", {}, 400), ("/api/press", {"button": 1}, 400),
            ("/api/resign", {"player": None}, 400), ("/api/draw", {"now": True}, 400),
            ("/api/new", nested, 400), ("/api/click", b"[" * 3000, 400),
            ("/api/click", json.dumps({"cell": "a" * 70000}).encode(), 413),
        ]
        for path, body, status in cases:
            got, answer = ask(port, "POST", path, body, {"Content-Type": "application/json"})
            assert got == status and "error" in answer, (path, str(body)[:80], got, answer)
        # a body without a declared length is stopped at the limit too
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
        conn.putrequest("POST", "/api/click")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Transfer-Encoding", "chunked")
        conn.endheaders()
        chunk = b" " * 1024
        try:
            for _ in range(64):
                conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        except OSError:
            pass  # the server stopped reading at the limit
        assert conn.getresponse().status == 413
        conn.close()
        after = ask(port, "GET", "/api/state")[1]
        keep = ("phase", "turn", "record", "cells", "hand", "box", "game", "journal", "settings", "running", "error")
        assert {k: after.get(k) for k in keep} == {k: before.get(k) for k in keep}
        assert session.sim.occupied == occupied
    assert "Traceback" not in capfd.readouterr().err


# --- 6. settings that would stop the referee -------------------------------------------------------------------
@pytest.mark.parametrize("settings", [{"settle": 0}, {"debounce": 0}, {"grace": 0}, {"settle": 10 ** 400},
                                      {"settle": 1e308 * 10}])
def test_settings_that_would_stop_the_referee_are_refused(tmp_path, settings):
    session = session_for(tmp_path)
    with served(session) as url:
        port = port_of(url)
        eventually(lambda: running(port), "the game to start")
        journal = ask(port, "GET", "/api/state")[1]["journal"]
        status, answer = ask(port, "POST", "/api/new", {"settings": settings})
        assert status == 400 and "error" in answer
        assert press(port, token=None) == 200  # the referee still runs the same game
        snapshot = ask(port, "GET", "/api/state")[1]
        assert snapshot["running"] and snapshot["error"] is None and snapshot["journal"] == journal
        assert snapshot["settings"]["settle"] == 0.15


# --- the watcher limit on the command line ---------------------------------------------------------------------
def test_play_takes_the_number_of_watchers(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    play = start_reedboard("play", "bigballs", "--hal", "sim", "--watchers", "2", "--listen", f"127.0.0.1:{port}",
                           "--games-dir", tmp_path / "games", cwd=ROOT, stderr=subprocess.STDOUT,
                           env={**os.environ, "XDG_CONFIG_HOME": str(tmp_path)})
    try:
        eventually(lambda: answers(lambda: ask(port, "GET", "/api/auth")[0]), "reedboard play to serve")
        ws_url = f"ws://127.0.0.1:{port}/ws"
        with connect(ws_url, proxy=None) as one, connect(ws_url, proxy=None) as two:
            assert one.recv(PATIENCE) and two.recv(PATIENCE)
            with pytest.raises(InvalidStatus) as refused:
                connect(ws_url, proxy=None, open_timeout=PATIENCE)
            assert refused.value.response.status_code == 503
    finally:
        play.send_signal(signal.SIGINT)
        try:
            play.wait(PATIENCE)
        except subprocess.TimeoutExpired:
            play.kill()
            play.wait()


def test_play_refuses_a_number_of_watchers_that_is_none(capsys):
    from reedboard.controller.commands.cli import main
    assert main(["play", "bigballs", "--watchers", "0"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "--watchers takes a number from 1 to 500" in error


# --- the log and the limits themselves -------------------------------------------------------------------------
def test_the_log_says_each_kind_of_refusal_once_an_interval():
    import logging

    from reedboard.controller.web.quiet_log import QuietFilter, QuietLog

    now = [0.0]
    written = []

    class Collect(logging.Handler):
        def emit(self, record):
            written.append(record.getMessage())

    logger = logging.getLogger("reedboard.test.quiet")
    logger.propagate = False
    logger.addHandler(Collect())
    log = QuietLog(logger, interval=60, clock=lambda: now[0])
    for n in range(1000):
        log.note("watchers", f"refused a watcher from 10.0.0.{n % 200}")
        log.note("host", "refused a request for the host 'evil.example'")
    assert written == ["refused a watcher from 10.0.0.0", "refused a request for the host 'evil.example'"]
    now[0] = 61
    log.note("watchers", "refused a watcher from 10.0.0.9")
    assert written[-1] == "refused a watcher from 10.0.0.9 (and 999 more like it in the last 60 s)"

    loud = logging.getLogger("reedboard.test.loud")
    loud.propagate = False
    loud.addHandler(Collect())
    loud.addFilter(QuietFilter(interval=60, clock=lambda: now[0]))
    shown = []

    class Show(logging.Handler):  # as the server's log shows a record, its traceback included
        def emit(self, record):
            shown.append(logging.Formatter().format(record))

    loud.addHandler(Show())
    for _ in range(500):
        try:
            raise OSError(24, "Too many open files")
        except OSError as error:
            loud.error("socket.accept() out of system resource\nsocket: <a socket>", exc_info=error)
    # the file limit reached is a crowd, not a fault: one line, no traceback
    assert shown == ["socket.accept() out of system resource: Too many open files (new connections wait)"]


def test_limits_are_positive():
    assert Limits().watchers == 64
    for bad in ({"watchers": 0}, {"connections": -1}, {"request_timeout": 0}, {"body_size": 4.5},
                {"watchers": True}):
        with pytest.raises(ValueError, match="must be"):
            Limits(**bad)
