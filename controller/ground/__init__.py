"""The ground floor: what every room stands on and which stands on nothing of the project but
the language room. The careful readers of the files people name (readfile: only a regular file,
only up to a size that suits its kind; tomlfile: a TOML file with errors that name it), and
the settings a game is played with (settings: the recogniser's Settings, the clock's
ClockSettings, and brief, how a message shows a value given).

hal reads its board files through the readers here too: the readers import nothing but the
standard library.
"""
