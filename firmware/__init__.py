"""The Pico's firmware (MicroPython), shipped with the package so that a Pi has it to flash
(`reedboard firmware install`) and the fake board can run it. Of its modules the host imports
only `pins` (data: the Pico's pins, for the drawings and board.json); the fake board loads the
others from this folder."""
