"""The command line in English, German and Romanian: the installed `reedboard` run as a player
runs it, its language chosen by --lang or by the environment (LANGUAGE, LC_ALL, LC_MESSAGES,
LANG). What is expected is read from the committed catalogues, never copied here."""

from __future__ import annotations

import functools
import os
import re
import subprocess
from pathlib import Path

import pytest
from babel.messages import pofile

from reedboard.controller.language.catalogue import locale_dir

from command_line import run_reedboard

pytestmark = pytest.mark.system

LOCALE = Path(locale_dir())
# the words the play catalogue owns in `reedboard play --help`: the games' start options
GAME_OPTIONS = ("--layout", "--setup", "--first")


@functools.cache
def catalogue(domain: str, lang: str) -> dict:
    """msgid -> msgstr of a committed catalogue (the singular form for plural words)."""
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        po = pofile.read_po(f, locale=lang, domain=domain)
    words = {}
    for message in po:
        if message.id:
            key = message.id if isinstance(message.id, str) else message.id[0]
            value = message.string if isinstance(message.string, str) else message.string[0]
            words[key] = value
    return words


def said(lang: str, msgid: str) -> str:
    """What the commands catalogue says for `msgid` in `lang` (it must be translated)."""
    words = catalogue("commands", lang)[msgid]
    assert words, f"{lang}/commands.po leaves {msgid!r} untranslated"
    return words


def reedboard(*argv: str, **environment: str) -> subprocess.CompletedProcess:
    """The installed command, with no language in its environment but the one given."""
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env.update(environment)
    return run_reedboard(*argv, installed=True, env=env)


def folded(text: str) -> str:
    return " ".join(text.split())


def option_helps(help_text: str) -> dict[str, str]:
    """Each option's help in `--help` output, by its long flag, the lines argparse wrapped joined."""
    helps: dict[str, list[str]] = {}
    current = None
    for line in help_text.splitlines():
        found = re.match(r"  (-\w, )?(--[\w-]+)(?:[ ,][^ ]*)*?(?:  +(\S.*))?$", line)
        if found and line.startswith("  -"):
            current = found.group(2)
            helps[current] = [found.group(3) or ""]
        elif current and line.startswith(" " * 8) and line.strip():
            helps[current].append(line.strip())
        elif not line.strip() or not line.startswith(" "):
            current = None
    return {flag: folded(" ".join(words)) for flag, words in helps.items()}


def _with(words: str, **values: str) -> str:
    for name, value in values.items():
        words = words.replace("{" + name + "}", value)
    return words


def test_play_help_in_romanian_is_romanian_line_by_line():
    english = reedboard("--lang", "en", "play", "--help")
    result = reedboard("--lang", "ro", "play", "--help")
    assert result.returncode == 0 and english.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith(said("ro", "usage: ") + "reedboard play ")
    assert f"\n{said('ro', 'positional arguments')}:\n" in out and f"\n{said('ro', 'options')}:\n" in out
    assert "\nusage:" not in out and "\noptions:" not in out
    ours, theirs = option_helps(out), option_helps(english.stdout)
    assert set(ours) == set(theirs) and "--listen" in ours
    same = [flag for flag in ours if ours[flag] == theirs[flag] and flag not in GAME_OPTIONS]
    assert not same, f"options still helped in English: {same}"
    # the words are the catalogue's own, as argparse wrapped them
    assert ours["--listen"] == folded(said(
        "ro", "where the web view listens (default 127.0.0.1:8000); a port alone keeps the host, e.g. 8101:"
              " 127.0.0.1:8101, or the configuration's host; beyond localhost a token is printed"))
    assert ours["--empty-board"] == folded(said("ro", "simulated board: start empty, to try the set-up"))
    assert ours["--help"] == said("ro", "show this help message and exit")


def test_the_games_start_options_are_helped_in_the_play_catalogues_words():
    """--layout, --setup and --first: the games' own words, from the play catalogue."""
    from reedboard.controller.games import GAMES

    play = catalogue("play", "ro")
    untranslated = [option.help for cls in GAMES.values() for option in cls.options if not play.get(option.help)]
    if untranslated:
        pytest.skip(f"ro/play.po does not translate the games' start options yet, e.g. {untranslated[0]!r}")
    english = option_helps(reedboard("--lang", "en", "play", "--help").stdout)
    ours = option_helps(reedboard("--lang", "ro", "play", "--help").stdout)
    assert all(ours[flag] != english[flag] for flag in GAME_OPTIONS)


def test_a_german_environment_gets_german_help():
    result = reedboard("--help", LANG="de_DE.UTF-8")
    assert result.returncode == 0
    assert result.stdout.startswith(said("de", "usage: ") + "reedboard ")
    assert said("de", "usage: ") == "Aufruf: " and f"\n{said('de', 'options')}:\n" in result.stdout
    assert said("de", "reedboard: the controller of a reed-switch game board.") in result.stdout
    assert folded(said("de", "count the leaves of the move tree to a depth")) in folded(result.stdout)


def test_language_names_romanian_before_lang():
    result = reedboard("--help", LANGUAGE="ro", LANG="de_DE.UTF-8")
    assert result.returncode == 0 and result.stdout.startswith(said("ro", "usage: ") + "reedboard ")
    assert said("ro", "usage: ") == "utilizare: " and f"\n{said('ro', 'options')}:\n" in result.stdout


def test_lang_en_wins_over_a_german_environment():
    result = reedboard("--lang", "en", "--help", LANG="de_DE.UTF-8", LANGUAGE="de")
    assert result.returncode == 0 and result.stdout.startswith("usage: reedboard ")
    assert "\noptions:\n" in result.stdout and said("de", "usage: ") not in result.stdout


@pytest.mark.parametrize("lang", ["ro", "de"])
def test_a_refused_move_is_one_line_in_the_language(lang):
    move = "9 a1-a2"  # Big Balls' die shows 1 to 6
    english = reedboard("--lang", "en", "show", "bigballs", move)
    result = reedboard("show", "bigballs", move, LANGUAGE=lang)
    assert result.returncode == english.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    english_reason = english.stderr.strip().rsplit(": ", 1)[-1]
    frame = "reedboard: " + _with(said(lang, "move {number} ({move}) is not played: {reason}"),
                                  number="1", move=move, reason="")
    assert result.stderr.startswith(frame), result.stderr
    reason = result.stderr.strip().removeprefix(frame)
    # the refusal's own words belong to the play catalogue, translated by its own hands
    play = catalogue("play", lang)
    known = [words for msgid, words in play.items()
             if re.fullmatch(re.sub(r"\\\{\w+\\\}", ".+", re.escape(msgid)), english_reason)]
    if not any(known):
        pytest.skip(f"{lang}/play.po does not translate {english_reason!r} yet")
    assert reason != english_reason


def test_a_bad_option_is_refused_in_romanian_by_the_command_it_was_given_to():
    result = reedboard("--lang", "ro", "perft", "bigballs", "1", "--nope")
    assert result.returncode == 2 and result.stdout == "" and result.stderr.count("\n") == 1
    words = said("ro", "unrecognized arguments: %s") % "--nope"
    assert result.stderr.strip() == _with(said("ro", "{prog}: {message} (see {command} --help)"),
                                          prog="reedboard perft", message=words, command="reedboard perft")


@pytest.mark.parametrize("lang", ["de", "ro"])
def test_the_version_option_is_helped_in_the_language(lang):
    helps = option_helps(reedboard("--lang", lang, "--help").stdout)
    assert helps["--version"] == folded(said(lang, "show program's version number and exit"))
    assert helps["--version"] != "show program's version number and exit"


@pytest.mark.parametrize("lang", ["de", "ro"])
def test_doctor_says_the_board_it_found_in_the_language(lang):
    found = reedboard("--lang", lang, "doctor", "--backend", "sim")
    assert found.returncode == 0, found.stderr
    assert found.stdout.splitlines()[0] == _with(said(lang, "backend: {backend} ({detail})"), backend="sim",
                                                 detail=said(lang, "the simulated board"))


@pytest.mark.parametrize("lang", ["de", "ro"])
def test_doctor_says_why_no_board_answered_in_the_language(lang, monkeypatch):
    """hal's reasons (its words, English, and their values) are put into words by the command."""
    import io

    from reedboard.controller.workshop.doctor import doctor
    from reedboard.controller.language.catalogue import speaking
    from reedboard.hal import serial_board

    monkeypatch.setattr(serial_board, "find_port", lambda: None)  # no Pico on USB
    out = io.StringIO()
    with speaking(lang):
        assert doctor("serial", None, None, out) == 1
    lines = out.getvalue().splitlines()
    assert lines[:2] == [said(lang, "reedboard doctor: no board could be reached. Tried:"),
                         "  - " + _with(said(lang, "serial: no Raspberry Pi Pico on USB (looked for USB vendor {vendor})"),
                                        vendor="2e8a")]
    assert "looked for" not in lines[1]

def test_config_speaks_german(tmp_path):
    result = reedboard("config", LANG="de_DE.UTF-8", XDG_CONFIG_HOME=str(tmp_path))
    assert result.returncode == 0, result.stderr
    first, heading, *rows = result.stdout.splitlines()
    absent = _with(said("de", "{path} (absent: the defaults hold)"), path=str(tmp_path / "reedboard" / "config.toml"))
    assert first == _with(said("de", "configuration: {file}"), file=absent)
    assert heading.split() == [said("de", "key"), said("de", "from"), said("de", "value")]
    game = next(row for row in rows if row.startswith("play.game "))
    assert game.split(None, 2)[1:] == [said("de", "default"), f"({said('de', 'named on the command line')})"]
