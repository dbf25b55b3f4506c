"""The addresses a phone on the same network opens the web view by, and their QR code.

A server listening on every address (0.0.0.0, ::) has no address of its own to give: a
phone reaches it by the Pi's name on the local network (`NAME.local`, which Raspberry Pi OS
announces over mDNS) or by one of the machine's IPv4 addresses. The QR code holds an IP
address when there is one: every phone opens it, while `.local` names need mDNS, which not
every phone resolves. It is made afresh at every start, so a new DHCP lease is no matter.
"""

from __future__ import annotations

import io
import ipaddress
import json
import shutil
import socket
import subprocess
from collections.abc import Callable, Iterable

from reedboard.hal.install import pip_extra

from ..language.catalogue import COMMANDS

_ = COMMANDS.gettext

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
EVERY_ADDRESS = {"0.0.0.0", "::", ""}
# A documentation address (RFC 5737): connecting a UDP socket to it only picks the route out,
# and with it this machine's address on that route; nothing is sent.
ROUTE_PROBE = ("192.0.2.1", 9)


def interface_addresses() -> list[str]:
    """This machine's IPv4 addresses: from `ip -j addr` when it is here, else the host name's
    addresses and the one of the route out."""
    found: list[str] = []
    if shutil.which("ip"):
        try:
            out = subprocess.run(["ip", "-j", "-4", "addr", "show", "up"], capture_output=True, text=True,
                                 timeout=5, check=True).stdout
            found = [entry["local"] for link in json.loads(out) for entry in link.get("addr_info", [])
                     if entry.get("family") == "inet" and "local" in entry]
        except (OSError, subprocess.SubprocessError, ValueError, KeyError, TypeError):
            found = []
    if not found:
        try:
            found = [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
        except OSError:
            found = []
        found.append(_route_address())
    return [address for address in found if address]


def _route_address() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(ROUTE_PROBE)
            return probe.getsockname()[0]
    except OSError:
        return None


def _others_can_reach(address: str) -> bool:
    """Not loopback, a wildcard or link-local (169.254.x.x: no router hands it out)."""
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_unspecified or ip.is_link_local)


def join_hosts(host: str, interfaces: Callable[[], Iterable[str]] | None = None,
               hostname: str | None = None) -> list[str]:
    """The names and addresses another device opens a server listening on `host` by.

    Loopback stays loopback (only this machine can open it); a wildcard gives NAME.local and
    every IPv4 address of the machine's interfaces that another device can reach."""
    if host in LOOPBACK:
        return ["127.0.0.1" if host == "localhost" else host]
    if host not in EVERY_ADDRESS:
        return [host]
    name = (hostname if hostname is not None else socket.gethostname()).split(".")[0]
    hosts = [f"{name}.local"] if name and name != "localhost" else []
    for address in (interfaces or interface_addresses)():
        if _others_can_reach(address) and address not in hosts:
            hosts.append(address)
    return hosts or ["127.0.0.1"]


def listen_host(names: Iterable[str]) -> str:
    """The host a web view listens on, from the names it answers to (web.hosts.names_for:
    localhost's names, plus the listen host, plus this machine's names for a wildcard)."""
    names = set(names)
    for wildcard in ("0.0.0.0", "::"):
        if wildcard in names:
            return wildcard
    own = sorted(name for name in names - LOOPBACK if _others_can_reach(name) or ":" in name)
    return own[0] if own else "127.0.0.1"


def url(host: str, port: int, token: str | None = None) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def join_urls(host: str, port: int, token: str | None = None, **found) -> list[str]:
    """The web view's addresses for a server on host:port (`found`: join_hosts's interfaces
    and hostname); the token, when there is one, lets the browser change the game."""
    return [url(name, port, token) for name in join_hosts(host, **found)]


def qr_target(urls: list[str]) -> str:
    """The address the QR code holds: the first by IP address, else the first."""
    for candidate in urls:
        name = candidate.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)[0].strip("[]")
        if _others_can_reach(name) or name in LOOPBACK:
            return candidate
    return urls[0]


def _qr(text: str):
    import segno  # only when a QR code is asked for: the rest works without it

    return segno.make(text, error="m")


def terminal_qr(text: str) -> list[str]:
    """The QR code of `text` in text blocks, two modules a line, for a terminal."""
    out = io.StringIO()
    _qr(text).terminal(out=out, compact=True, border=2)
    return out.getvalue().rstrip("\n").splitlines()


def svg_qr(text: str) -> str:
    """The QR code of `text` as an SVG data: URI, for an <img> of the page."""
    return _qr(text).svg_data_uri(scale=4, border=2, dark="#000", light="#fff")


def join_lines(host: str, port: int, token: str | None = None, *, qr: bool = True, **found) -> list[str]:
    """What `reedboard play` prints: the web view's addresses and, when other devices can
    open it, a QR code of the address for a phone; with a token, two side by side: the
    watchers' address (no token) and the owner's (the token included: it lets the game be changed)."""
    urls = join_urls(host, port, token, **found)
    lines = [_("web view: {address}").format(address=address) for address in urls]
    if qr and host not in LOOPBACK:
        target = qr_target(urls)
        try:
            codes = [terminal_qr(target.split("?")[0])] + ([terminal_qr(target)] if token else [])
        except ImportError:
            lines.append("  " + _("(a QR code of the address needs segno: {install})").format(install=pip_extra("web")))
            return lines
        if not token:
            lines.append("  " + _("scan to open {address} on a phone:").format(address=target))
            return lines + codes[0]
        watch, own = codes
        width = max(map(len, watch))
        lines.append("  " + _("scan to watch {address} (left), or to play as the owner, token included (right):").format(
            address=target.split("?")[0]))
        for row in range(max(len(watch), len(own))):
            left = watch[row] if row < len(watch) else ""
            right = own[row] if row < len(own) else ""
            lines.append(f"{left.ljust(width)}  {right}".rstrip())
    return lines


def join_info(host: str, port: int, **found) -> dict:
    """What the page shows under "join from a phone": the addresses (without the token: the
    page is seen by everyone at the table), the one the QR code holds, and the QR as SVG."""
    urls = join_urls(host, port, None, **found)
    target = qr_target(urls)
    return {"addresses": urls, "qr_address": target, "qr_svg": svg_qr(target),
            "others_can_join": host not in LOOPBACK}
