"""Hardware abstraction: the sensors, lights, die display, buttons and buzzer of a board.

Interfaces and their backends (gpio, serial, sim) live here; the controller talks only to
the interfaces and never asks which backend it has.
"""
