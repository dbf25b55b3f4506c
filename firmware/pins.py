# The Pico's pins: which GPIO (GPn, not the physical pin of the package) each part of the
# board is wired to. Data only, so that every reader agrees: main.py imports it on the Pico, and
# the host imports it as reedboard.firmware.pins (the wiring drawings, `firmware install`'s
# board.json, the guides naming a wire), so it imports nothing and only sets these names.

ROW_PINS = (0, 1, 2, 3, 4, 5, 6, 7)  # matrix row r on ROW_PINS[r]; the first ROWS are used
COLUMN_PINS = (8, 9, 10, 11, 12, 13, 14, 15, 16, 17)  # column c on COLUMN_PINS[c]
DIE_BUTTON_PIN = 18  # button to ground, internal pull-up
OK_BUTTON_PIN = 19  # button to ground, internal pull-up
BUZZER_PIN = 20  # PWM (slice 2, channel A) to a passive buzzer through a transistor
LED_PIN = 22  # WS2812 data in, through 330 ohm (and a 3.3 V -> 5 V level shifter)
