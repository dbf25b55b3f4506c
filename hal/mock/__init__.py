"""Test doubles and fault injection, apart from what a real board runs.

- matrix: a reed-switch circuit and mock pins (gpiozero MockFactory) and an MCP23017 bus for
  it, and an LED strip that remembers what it was told to show;
- leds: fakes of spidev and rpi_ws281x that read back what a WS2812 chain would show;
- faults: faults declared in a board file, applied to the simulated board or the mock
  circuit, and the hands of a simulated builder;
- fakeboard: the Pico's firmware running on the host behind a pty (`reedboard fake-board`).
"""
