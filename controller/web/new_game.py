"""POST /api/new: its body checked piece by piece (the clock, the computer, the players' names,
the set-up, the game's start options, the settings), then the new game started."""

from __future__ import annotations

from ..core.clock import ClockSettings
from ..core.computer import Computer
from ..core.reconcile import Settings
from ..games import GAMES, colours, top_level
from ..language.catalogue import COMMANDS
from ..persist.journal_format import NAME_LIMIT, is_player_name
from ..session.actions import ActionError
from ..session.play_session import PlaySession

from .bodies import KINDS, SCHEMAS, check
from .replies import games_in_words
from ..words import said

_ = COMMANDS.gettext

SETTING_KEYS = ("debounce", "settle", "grace", "takebacks")
CLOCK_LIMIT = 600  # minutes of a game clock, and seconds of its increment, at most
OPTION_LENGTH = 200  # characters of a start option's value, at most


def start_new_game(session: PlaySession, data: dict):
    """The new game `data` asks for (checked: a bad piece is an ActionError and starts nothing)."""
    game, empty, changes = data.get("game"), data.get("empty"), data.get("settings")
    settings = None
    if changes is not None:
        check(changes, SCHEMAS["settings"], "settings")
        try:  # the settings' own rules (a settle time of 0 would stop the referee)
            settings = Settings(**{**_settings_dict(session.settings), **changes})
        except (TypeError, ValueError, OverflowError) as error:
            raise ActionError(_('settings: {problem}').format(problem=said(error)), 400) from None
    setup = data.get("setup")
    modes = _setup_modes()
    if setup is not None and setup not in modes:
        raise ActionError(_('setup is one of {modes}').format(modes=', '.join(modes)), 400)
    keep_clock = {} if "clock" not in data else {"clock": _clock_settings(data["clock"])}
    if "computer" in data:
        keep_clock["computer"] = _computer(data["computer"])
    if data.get("players") is not None:
        keep_clock["players"] = _players(data["players"])
    options = data.get("options")
    if options:  # the game's start options: the session starts from that game's start
        game = _game_from_options(game or session.kind, options)
    return session.new_game(game, empty=empty, settings=settings, setup=setup, **keep_clock)


def _number(value: object) -> bool:
    return KINDS["seconds"][1](value)


def _clock_settings(clock: object) -> ClockSettings | None:
    """POST /api/new's clock: null (no clock) or {"minutes": 0 < m <= 600, "increment": 0 <= s <= 600}."""
    if clock is None:
        return None
    if not isinstance(clock, dict) or set(clock) != {"minutes", "increment"}:
        raise ActionError(_('clock is null or {"minutes": ..., "increment": ...}'), 400)
    minutes, increment = clock["minutes"], clock["increment"]
    if not _number(minutes) or not 0 < minutes <= CLOCK_LIMIT:
        raise ActionError(_("the clock's minutes are a number above 0 and at most {most}").format(most=CLOCK_LIMIT), 400)
    if not _number(increment) or not 0 <= increment <= CLOCK_LIMIT:
        raise ActionError(_("the clock's increment is a number of seconds from 0 to {most}").format(most=CLOCK_LIMIT), 400)
    return ClockSettings(minutes, increment)


def _computer(data: object) -> Computer | None:
    """POST /api/new's computer: null, or {"level": 1 to the strongest of some game (the game
    checks its own), "plays": a colour of some game}."""
    if data is None:
        return None
    if not isinstance(data, dict) or set(data) != {"level", "plays"}:
        raise ActionError(_('computer is null or {"level": LEVEL, "plays": COLOUR}'), 400)
    level, plays = data["level"], data["plays"]
    if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= top_level():
        raise ActionError(_("the computer's level is a whole number from 1 to {top}").format(top=top_level()), 400)
    if plays not in colours():
        raise ActionError(_('the computer plays one of {colours}').format(colours=', '.join(sorted(colours()))), 400)
    return Computer(plays, level)


def _players(data: object) -> dict[str, str]:
    """POST /api/new's players: {COLOUR: NAME}, each name 1 to 40 printable characters."""
    if not isinstance(data, dict) or not set(data) <= set(colours()):
        raise ActionError(_('players is an object of colours ({colours}) and names').format(
            colours=', '.join(sorted(colours()))), 400)
    for colour, name in data.items():
        if not is_player_name(name):
            raise ActionError(_('the name of {colour} is 1 to {most} printable characters').format(
                colour=colour, most=NAME_LIMIT), 400)
    return {colour: name.strip() for colour, name in data.items()}


def _setup_modes() -> list[str]:
    """The set-up modes a new game of some registered game may choose."""
    return sorted({mode for cls in GAMES.values() for mode in cls.setup_modes if mode != "given"})


def _game_from_options(name: object, options: dict):
    """POST /api/new's "options": the game's start options ({flag: text}); the game in its start."""
    if not isinstance(name, str) or name not in GAMES:
        raise ActionError(_('no game {name}: {games}').format(name=repr(str(name)[:40]), games=games_in_words()), 400)
    cls = GAMES[name]
    own = {option.flag: option for option in cls.options}
    for flag, value in options.items():
        if flag not in own:
            raise ActionError((_('{name} has no start option {flag} ({options})').format(
                name=name, flag=repr(flag[:40]), options=', '.join(own)) if own else
                _('{name} has no start option {flag} (it takes none)').format(name=name, flag=repr(flag[:40]))), 400)
        if not isinstance(value, str) or len(value) > OPTION_LENGTH:
            raise ActionError(_('the start option {flag} is a text of at most {most} characters').format(
                flag=flag, most=OPTION_LENGTH), 400)
        if own[flag].choices is None:  # a file or a set-up string: only from the command line
            raise ActionError(_('the start option {flag} is given on the command line, not here').format(flag=flag), 400)
    try:
        return cls.from_options(**options)
    except ValueError as error:
        raise ActionError(said(error), 400) from None


def _settings_dict(settings: Settings) -> dict:
    return {key: getattr(settings, key) for key in SETTING_KEYS}
