"""`reedboard service install|status|uninstall`: start the board's referee at boot with systemd.

The unit runs `reedboard play` from the venv this command runs in, as the board's user, in
their home: the configuration file (~/.config/reedboard/config.toml) says the game, the
backend and where the web view listens, so the unit carries no game's flags and never needs
rewriting when a setting changes. systemd restarts it after a crash, and when the board the
configuration names does not answer (`play` exits with status 1): every RESTART_SECONDS, with
no limit on the starts, so a Pico plugged in later is picked up within seconds.
"""

from __future__ import annotations

import argparse
import getpass
import os
import pwd
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path


from ..language.catalogue import COMMANDS
from ..words import said

UNIT_NAME = "reedboard"
UNIT_DIR = "/etc/systemd/system"
RESTART_SECONDS = 5  # a board that keeps failing is retried every 5 s, not in a tight loop

Runner = Callable[[Sequence[str]], int]


_ = COMMANDS.gettext


class ServiceError(Exception):
    """What stops a service command: one line of message, exit status 2."""


def systemctl(args: Sequence[str]) -> int:
    """Run `systemctl ARGS` with its output passed through; its exit status."""
    import subprocess  # here, not on import: `reedboard --help` starts without it

    if shutil.which("systemctl") is None:
        raise ServiceError(_("reedboard: systemctl is not here: this machine does not run systemd"))
    return subprocess.run(["systemctl", *args], check=False).returncode


def systemd_here() -> bool:
    """Whether systemd runs this machine (sd_booted's test)."""
    return Path("/run/systemd/system").is_dir()


def _check_systemd() -> None:
    if not systemd_here():
        raise ServiceError(_("reedboard: this machine does not run systemd (no /run/systemd/system):"
                             " nothing was changed; --dry-run prints the unit"))


def reedboard_script() -> Path:
    """The `reedboard` command of the venv this Python runs in (not resolved: a venv's python
    is a link to the system's, and the script sits beside the link)."""
    return Path(sys.executable).absolute().parent / "reedboard"


def _systemd_word(text: str) -> str:
    """`text` as one word of a unit's command line: % and $ doubled, quoted when it has spaces."""
    text = text.replace("%", "%%").replace("$", "$$")
    if any(c.isspace() for c in text) or '"' in text or "\\" in text:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text


def unit_text(script: Path, user: str, home: str) -> str:
    """The unit that runs the board's referee at boot, as `user`, from `script`."""
    return f"""\
[Unit]
Description=reedboard: the game board's referee and web view
Wants=network-online.target
After=network-online.target
# a board that does not answer yet (its Pico not plugged in) is retried for as long as it takes
StartLimitIntervalSec=0

[Service]
Type=simple
User={user}
WorkingDirectory={home.replace("%", "%%")}
ExecStart={_systemd_word(str(script))} play
# the log reaches the journal line by line (journalctl -u {UNIT_NAME})
Environment=PYTHONUNBUFFERED=1
Restart=on-failure
RestartSec={RESTART_SECONDS}

[Install]
WantedBy=multi-user.target
"""


def invoking_user() -> str:
    """Who runs the command: under sudo, the one who typed sudo."""
    sudo_user = os.environ.get("SUDO_USER")
    return sudo_user if sudo_user and sudo_user != "root" else getpass.getuser()


def chosen_user(given: str | None) -> tuple[str, str]:
    """The service's user and their home; root only when asked for by name."""
    user = given or invoking_user()
    if user == "root" and given != "root":
        raise ServiceError(_("reedboard: the board would run as root; name its user with --user USER"
                             " (or --user root if that is really meant)"))
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        raise ServiceError(_("reedboard: there is no user {user} on this machine (--user)").format(
            user=repr(user))) from None
    return user, entry.pw_dir


def writable(unit: Path) -> bool:
    """Whether the unit file can be written (or made) here by whoever runs this."""
    return os.access(unit.parent, os.W_OK | os.X_OK) and (not unit.exists() or os.access(unit, os.W_OK))


def _needs_sudo(unit: Path, user: str, action: str) -> str | None:
    """The line that says to use sudo, when the unit's folder or file cannot be written."""
    if writable(unit):
        return None
    command = f"sudo {reedboard_script()} service {action}"
    if action == "install":
        command += f" --user {user}"
    if unit.parent != Path(UNIT_DIR):
        command += f" --unit-dir {unit.parent}"
    return _("reedboard: {unit} cannot be written by {user}: run it with sudo: {command}").format(
        unit=unit, user=getpass.getuser(), command=command)


def _run_all(commands: list[list[str]], runner: Runner) -> int:
    """Each systemctl command in turn; the first that fails is named and ends the run."""
    for command in commands:
        status = runner(command)
        if status != 0:
            print(_("reedboard: `{command}` failed (exit status {status})").format(
                command="systemctl " + " ".join(command), status=status), file=sys.stderr)
            return 1
    return 0


def install(user: str | None = None, unit_dir: str | Path = UNIT_DIR, dry_run: bool = False,
            runner: Runner | None = None, script: Path | None = None) -> int:
    """Write the unit, then reload systemd and start the service now and at every boot."""
    runner = runner or systemctl
    script = script or reedboard_script()
    name, home = chosen_user(user)
    if not os.access(script, os.X_OK):
        from reedboard.hal.install import pip_extra

        raise ServiceError(_("reedboard: there is no reedboard command at {script}: install the package"
                             " into this venv ({install}) and run its reedboard").format(
            script=script, install=pip_extra("pi")))
    text = unit_text(script, name, home)
    if dry_run:
        print(text, end="")
        return 0
    unit = Path(unit_dir) / f"{UNIT_NAME}.service"
    if not unit.parent.is_dir():
        raise ServiceError(_("reedboard: {path} is not a directory (--unit-dir)").format(path=unit.parent))
    refusal = _needs_sudo(unit, name, "install")
    if refusal:
        raise ServiceError(refusal)
    _check_systemd()
    replacing = unit.exists()
    unit.write_text(text, encoding="utf-8")
    print(_("wrote {unit} (runs {script} play as {user})").format(unit=unit, script=script, user=name))
    # a unit that was there may be running the old one: restart it rather than only start it
    steps = [["daemon-reload"]] + ([["enable", UNIT_NAME], ["restart", UNIT_NAME]] if replacing
                                   else [["enable", "--now", UNIT_NAME]])
    status = _run_all(steps, runner)
    if status == 0:
        print(_("the board starts at boot; now: {status}, its log: {log}").format(
            status=f"systemctl status {UNIT_NAME}", log=f"journalctl -u {UNIT_NAME}"))
    return status


def status(runner: Runner | None = None) -> int:
    """`systemctl status reedboard`, passed through with its exit status."""
    return (runner or systemctl)(["status", UNIT_NAME])


def uninstall(unit_dir: str | Path = UNIT_DIR, runner: Runner | None = None) -> int:
    """Stop the service, keep it from starting at boot, and remove its unit."""
    runner = runner or systemctl
    unit = Path(unit_dir) / f"{UNIT_NAME}.service"
    if not unit.exists():
        print(_("no reedboard service is installed (no {unit})").format(unit=unit))
        return 0
    refusal = _needs_sudo(unit, "", "uninstall")
    if refusal:
        raise ServiceError(refusal)
    _check_systemd()
    if _run_all([["disable", "--now", UNIT_NAME]], runner):
        return 1
    unit.unlink()
    print(_("removed {unit}").format(unit=unit))
    return _run_all([["daemon-reload"]], runner)


def _run(args: argparse.Namespace) -> int:
    try:
        if args.service_command == "install":
            return install(args.user, args.unit_dir, args.dry_run)
        if args.service_command == "status":
            return status()
        return uninstall(args.unit_dir)
    except (ServiceError, OSError) as error:
        message = said(error)
        print(message if message.startswith("reedboard") else f"reedboard: {message}", file=sys.stderr)
        return 2


def add_parser(commands) -> argparse.ArgumentParser:
    """`reedboard service`, added to the command line's subcommands."""
    service = commands.add_parser("service", help=_("start the board at boot (a systemd service)"))
    actions = service.add_subparsers(dest="service_command", metavar="ACTION", parser_class=type(service),
                                     required=True)
    install_parser = actions.add_parser("install", help=_("write and enable the systemd unit that runs reedboard play"))
    install_parser.add_argument("--user", metavar="USER",
                                help=_("the user the board runs as (default: the one running this command)"))
    install_parser.add_argument("--dry-run", action="store_true", help=_("print the unit; change nothing"))
    actions.add_parser("status", help=_("show the service's state (systemctl status reedboard)"))
    uninstall_parser = actions.add_parser("uninstall", help=_("stop and disable the service and remove its unit"))
    for parser in (install_parser, uninstall_parser):
        parser.add_argument("--unit-dir", metavar="DIR", default=UNIT_DIR,
                            help=_("where the unit file is (default {folder})").format(folder=UNIT_DIR))
    service.set_defaults(run=_run)
    return service
