"""The workshop: the maker's bench, where a board is set up and tested before it is played on.
The guide that both the self-test and the calibration walk a maker through (guide), the
self-test (selftest) and the calibration (calibrate), the bench that brings a board up from a
phone (bringup, one_hollow) with the wiring it explains (wiring), the doctor's checks (doctor,
pi_checks, and what hal says of a backend in words: backend_words), and the board owner's
configuration file (config).

It sits below the command line, which parses the options and says a refusal in one line: the
`*_command.py` modules of controller/commands/ call in here; nothing here parses a command line.
"""
