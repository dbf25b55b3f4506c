"""The addresses a phone opens the web view by, their QR code, GET /api/join and the page's card."""

import json
import urllib.parse

import pytest
import segno
from starlette.testclient import TestClient

from reedboard.controller.web import join
from reedboard.controller.web.join import join_hosts, join_info, join_lines, join_urls, listen_host, qr_target
from reedboard.controller.session.play_session import PlaySession
from reedboard.controller.web import create_app
from reedboard.controller.web.hosts import names_for

pytestmark = pytest.mark.system

PI = {"hostname": "tableboard", "interfaces": lambda: ["127.0.0.1", "192.168.1.23", "169.254.7.7", "10.0.0.5"]}


def test_loopback_gives_only_the_loopback_address():
    assert join_urls("127.0.0.1", 8000, **PI) == ["http://127.0.0.1:8000/"]
    assert join_urls("localhost", 8000, **PI) == ["http://127.0.0.1:8000/"]
    assert join_lines("127.0.0.1", 8000, **PI) == ["web view: http://127.0.0.1:8000/"]  # no QR: no phone can open it


@pytest.mark.parametrize("wildcard", ["0.0.0.0", "::"])
def test_every_address_gives_the_name_and_each_reachable_ipv4(wildcard):
    urls = join_urls(wildcard, 8000, "t0k", **PI)
    assert urls == ["http://tableboard.local:8000/?token=t0k", "http://192.168.1.23:8000/?token=t0k",
                    "http://10.0.0.5:8000/?token=t0k"]
    assert not any("0.0.0.0" in u or "127.0.0.1" in u or "169.254" in u or "[::]" in u for u in urls)


def test_a_fully_qualified_host_name_is_announced_by_its_first_label():
    assert join_hosts("0.0.0.0", hostname="tableboard.example.org", interfaces=lambda: []) == ["tableboard.local"]
    assert join_hosts("0.0.0.0", hostname="localhost", interfaces=lambda: []) == ["127.0.0.1"]
    assert join_hosts("192.168.1.23", **PI) == ["192.168.1.23"]


def test_the_qr_code_holds_an_ip_address_when_there_is_one():
    urls = join_urls("0.0.0.0", 8000, **PI)
    assert qr_target(urls) == "http://192.168.1.23:8000/"
    assert qr_target(["http://tableboard.local:8000/"]) == "http://tableboard.local:8000/"


def test_join_lines_print_every_address_and_qr_codes_to_watch_and_to_play_with_the_token():
    lines = join_lines("0.0.0.0", 8000, "t0k", **PI)
    assert lines[:3] == ["web view: http://tableboard.local:8000/?token=t0k",
                         "web view: http://192.168.1.23:8000/?token=t0k", "web view: http://10.0.0.5:8000/?token=t0k"]
    assert lines[3] == ("  scan to watch http://192.168.1.23:8000/ (left), or to play as the owner,"
                        " token included (right):")
    code = lines[4:]
    watch = segno.make("http://192.168.1.23:8000/", error="m")
    own = segno.make("http://192.168.1.23:8000/?token=t0k", error="m")
    # side by side, two modules a line, plus a border of two on each side
    sizes = [symbol.symbol_size(border=2) for symbol in (watch, own)]
    assert len(code) == max((height + 1) // 2 for _, height in sizes)
    assert {len(line) for line in code} == {sizes[0][0] + 2 + sizes[1][0]}
    assert set("".join(code)) <= set("█▀▄ ")
    assert join_lines("0.0.0.0", 8000, "t0k", qr=False, **PI) == lines[:3]


def test_without_interfaces_the_machine_still_gives_addresses(monkeypatch):
    monkeypatch.setattr(join.shutil, "which", lambda name: None)  # no `ip`: the standard library's way
    found = join.interface_addresses()
    assert all(isinstance(address, str) and address for address in found)


def test_listen_host_is_read_back_from_the_names_the_board_answers_to():
    assert listen_host(names_for("127.0.0.1")) == "127.0.0.1"
    assert listen_host(names_for("0.0.0.0")) == "0.0.0.0"
    assert listen_host(names_for("::")) == "::"
    assert listen_host(names_for("192.168.1.23")) == "192.168.1.23"


def svg_of(data_uri):
    prefix = "data:image/svg+xml;charset=utf-8,"
    assert data_uri.startswith(prefix)
    return urllib.parse.unquote(data_uri[len(prefix):])


def test_join_info_has_no_token_and_an_svg_qr():
    info = join_info("0.0.0.0", 8000, **PI)
    assert info["addresses"][0] == "http://tableboard.local:8000/" and info["others_can_join"]
    assert info["qr_address"] == "http://192.168.1.23:8000/"
    assert svg_of(info["qr_svg"]).startswith("<svg")
    assert "token" not in json.dumps(info)


def test_api_join_answers_with_the_addresses(tmp_path, monkeypatch):
    monkeypatch.setattr(join, "interface_addresses", PI["interfaces"])
    monkeypatch.setattr(join.socket, "gethostname", lambda: "tableboard")
    session = PlaySession("bigballs", games_dir=tmp_path / "games")
    app = create_app(session, token="t0ken", hosts=names_for("0.0.0.0"))
    with TestClient(app, base_url="http://tableboard.local:8000") as client:
        answer = client.get("/api/join")
        assert answer.status_code == 200
        info = answer.json()
    assert info["addresses"] == ["http://tableboard.local:8000/", "http://192.168.1.23:8000/",
                                 "http://10.0.0.5:8000/"]
    assert info["qr_address"] == "http://192.168.1.23:8000/" and "<svg" in svg_of(info["qr_svg"])
    local = create_app(PlaySession("bigballs", games_dir=tmp_path / "games"))
    with TestClient(local, base_url="http://127.0.0.1:8000") as client:
        info = client.get("/api/join").json()
    assert info["addresses"] == ["http://127.0.0.1:8000/"] and not info["others_can_join"]


@pytest.mark.chromium
def test_the_page_shows_the_join_card_with_the_qr_code(tmp_path):
    """In a browser: the card is filled from /api/join (answered here as a board on every
    address would answer), and stays hidden for a board on localhost only."""
    from playwright import sync_api
    from reedboard.controller.web.background import served

    info = join_info("0.0.0.0", 8000, **PI)
    args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
    with served(PlaySession("bigballs", games_dir=tmp_path / "games")) as url, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        try:
            page = browser.new_page()
            page.goto(url)
            page.wait_for_function("() => document.readyState === 'complete'")
            sync_api.expect(page.locator('[data-role="join"]')).to_be_hidden()
            page.route("**/api/join", lambda route: route.fulfill(json=info))
            page.reload()
            card = page.locator('[data-role="join"]')
            sync_api.expect(card).to_be_visible(timeout=8000)
            sync_api.expect(card.locator('[data-role="join-address"]')).to_have_text("192.168.1.23:8000")
            assert card.locator('[data-role="join-qr"]').get_attribute("src") == info["qr_svg"]
            assert page.evaluate("document.querySelector('[data-role=\"join-qr\"]').naturalWidth") > 0
            sync_api.expect(card.locator('[data-role="join-others"]')).to_have_text(
                "Also: tableboard.local:8000, 10.0.0.5:8000")
        finally:
            browser.close()
