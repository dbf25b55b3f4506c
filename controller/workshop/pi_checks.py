"""`reedboard doctor`'s checks of the Raspberry Pi itself, each finding with the command that fixes it.

The checks are pure functions of PiFacts; `gather_facts` reads them from this machine
(/proc/device-tree/model, the group database, /dev, /proc/*/fd), so tests give their own.
"""

from __future__ import annotations

import getpass
import grp
import os
import pwd
from dataclasses import dataclass, field
from pathlib import Path

from ..language.catalogue import COMMANDS, N_

_ = COMMANDS.gettext

MODEL_FILE = Path("/proc/device-tree/model")
# The groups Raspberry Pi OS gives each device the board may use, and what each is for.
GROUPS = {
    "dialout": N_("the Pico's serial port"),
    "gpio": N_("the GPIO pins"),
    "spi": N_("the SPI bus (the LED chain on a Pi 5)"),
    "i2c": N_("the I2C bus (MCP23017 expanders)"),
}


@dataclass(frozen=True)
class Finding:
    problem: str
    fix: str


@dataclass
class PiFacts:
    model: str | None  # /proc/device-tree/model; None: not a Pi
    user: str
    groups: frozenset[str]  # the user's groups in the group database
    session_groups: frozenset[str]  # the groups this login has (fewer until a new login)
    existing_groups: frozenset[str]  # which of GROUPS this system has
    spi_devices: list[str] = field(default_factory=list)
    i2c_devices: list[str] = field(default_factory=list)
    port: str | None = None  # the serial port the board is on, or would be
    port_holders: list[tuple[int, str]] = field(default_factory=list)  # (pid, command) of others having it open


def is_pi(model: str | None) -> bool:
    return bool(model) and "Raspberry Pi" in model


def findings(facts: PiFacts) -> list[Finding]:
    """What is wrong with this Pi for a board, each with its fix; the port is checked on any machine."""
    found: list[Finding] = []
    if is_pi(facts.model):
        found += _group_findings(facts)
        if not facts.spi_devices:
            found.append(Finding(_("SPI is off (no /dev/spidev*): the LED chain of a Pi 5 is driven over SPI"),
                                 _("{command}, then reboot").format(command="sudo raspi-config nonint do_spi 0")))
        if not facts.i2c_devices:
            found.append(Finding(_("I2C is off (no /dev/i2c-*): a matrix on MCP23017 expanders is read over I2C"),
                                 _("{command}, then reboot").format(command="sudo raspi-config nonint do_i2c 0")))
    found += _port_findings(facts)
    return found


def _group_findings(facts: PiFacts) -> list[Finding]:
    if facts.user == "root":
        return []  # root opens every device
    found = []
    for group, use in GROUPS.items():
        if group not in facts.existing_groups:
            continue
        if group not in facts.groups:
            found.append(Finding(_("{user} is not in the group {group}, which may use {use}").format(
                user=facts.user, group=group, use=_(use)),
                _("{command}, then log out and in").format(command=f"sudo usermod -aG {group} {facts.user}")))
        elif group not in facts.session_groups:
            found.append(Finding(_("{user} was added to the group {group}, but this login predates it").format(
                user=facts.user, group=group), _("log out and in (or reboot)")))
    return found


def _port_findings(facts: PiFacts) -> list[Finding]:
    found = []
    for pid, command in facts.port_holders:
        if "reedboard" in command:
            fix = _("sudo systemctl stop reedboard (the service), or stop that reedboard")
        else:
            fix = _("close that program, or: kill {pid}").format(pid=pid)
        found.append(Finding(_("{port} is open in another program: {command} (pid {pid});"
                               " two programs on one port garble the board's lines").format(
            port=facts.port, command=command, pid=pid), fix))
    return found


def protocol_finding(board_version: str, firmware: str, host_version: int, port: str | None) -> Finding | None:
    """The firmware's protocol against the controller's, from the board's hello."""
    if board_version == str(host_version):
        return None
    where = f" --port {port}" if port else ""
    return Finding(_("the Pico's firmware {firmware} speaks protocol {version}; this controller speaks {ours}").format(
        firmware=firmware, version=board_version, ours=host_version), f"reedboard firmware install{where}")


def report_lines(facts: PiFacts, extra: list[Finding] = ()) -> list[str]:
    """What doctor prints: one line for a machine that is not a Pi, and each finding with its fix."""
    lines = []
    if not is_pi(facts.model):
        lines.append(_("pi: not a Raspberry Pi (no 'Raspberry Pi' in {file}): the Pi's checks are skipped").format(
            file=MODEL_FILE))
    else:
        lines.append(_("pi: {model}").format(model=facts.model))
    problems = findings(facts) + list(extra)
    for finding in problems:
        lines.append("  " + _("problem: {problem}").format(problem=finding.problem))
        lines.append("    " + _("fix: {fix}").format(fix=finding.fix))
    if is_pi(facts.model) and not problems:
        lines.append("  " + (_("groups, SPI, I2C and the serial port: all good") if facts.port else
                             _("groups, SPI, I2C: all good")))
    return lines


# --- reading the facts of this machine -------------------------------------------------------------

def read_model(path: Path = MODEL_FILE) -> str | None:
    try:
        return path.read_bytes().rstrip(b"\0\n").decode("utf-8", "replace")
    except OSError:
        return None


def _user() -> str:
    """The board's user: under sudo, the one who typed sudo."""
    sudo_user = os.environ.get("SUDO_USER")
    return sudo_user if sudo_user and sudo_user != "root" else getpass.getuser()


def _groups_of(user: str) -> frozenset[str]:
    try:
        primary = grp.getgrgid(pwd.getpwnam(user).pw_gid).gr_name
    except KeyError:
        primary = None
    return frozenset({g.gr_name for g in grp.getgrall() if user in g.gr_mem} | ({primary} if primary else set()))


def _session_groups() -> frozenset[str]:
    names = set()
    for gid in set(os.getgroups()) | {os.getgid()}:
        try:
            names.add(grp.getgrgid(gid).gr_name)
        except KeyError:
            pass
    return frozenset(names)


def port_holders(port: str, proc: Path = Path("/proc")) -> list[tuple[int, str]]:
    """The other processes that have `port` open (their /proc/PID/fd links), with their command
    lines. Processes of other users cannot be looked into without root: those go unseen."""
    try:
        target = os.path.realpath(port)
    except OSError:
        return []
    holders = []
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            links = [os.readlink(fd) for fd in (entry / "fd").iterdir()]
        except OSError:  # gone, or another user's
            continue
        if target in links:
            try:
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace").strip()
            except OSError:
                command = "?"
            holders.append((int(entry.name), command[:120] or "?"))
    return holders


def gather_facts(port: str | None = None) -> PiFacts:
    """This machine's facts; `port`: the serial port to check (a pty, another program's by
    nature, and a pyserial URL are left out)."""
    user = _user()
    checked_port = port if port and port.startswith("/dev/") and not port.startswith("/dev/pts/") else None
    return PiFacts(
        model=read_model(), user=user, groups=_groups_of(user),
        session_groups=_session_groups() if user == getpass.getuser() else _groups_of(user),
        existing_groups=frozenset(g for g in GROUPS if _group_exists(g)),
        spi_devices=sorted(str(p) for p in Path("/dev").glob("spidev*")),
        i2c_devices=sorted(str(p) for p in Path("/dev").glob("i2c-*")),
        port=checked_port, port_holders=port_holders(checked_port) if checked_port else [])


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
        return True
    except KeyError:
        return False
