"""Hardware abstraction: the sensors, lights, die display, buttons and buzzer of a board.

Interfaces and their backends (gpio, serial, sim) live here; each backend is one entry of
hal.registry (its board-file table and what it can do). The controller talks only to the
interfaces and asks the registry what a backend can do, never which one it has.
"""
