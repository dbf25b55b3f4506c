# A small fake of MicroPython's `machine` module (Pin, PWM) for running the firmware on a
# PC: under CPython (tests/test_firmware.py) and under the MicroPython unix port
# (MICROPYPATH=firmware/tests/fakes:firmware). Plain Python that both understand.


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    ALT = 3
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    made = []  # every pin made, in order (tests look at the numbers used)

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        self.level = 1 if pull == Pin.PULL_UP else 0
        self.source = None  # a function giving the level read, for a simulated circuit
        self.writes = 0
        if value is not None:
            self.level = 1 if value else 0
        Pin.made.append(self)

    def init(self, mode=-1, pull=-1, value=None):
        if mode != -1:
            self.mode = mode
        if pull != -1:
            self.pull = pull
        if value is not None:
            self.level = 1 if value else 0

    def value(self, level=None):
        if level is None:
            if self.source is not None:
                return 1 if self.source() else 0
            return self.level
        self.level = 1 if level else 0
        self.writes += 1
        return None

    def __call__(self, level=None):
        return self.value(level)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    high = on
    low = off

    def __repr__(self):
        return "Pin(%s)" % (self.id,)


class PWM:
    def __init__(self, pin, freq=None, duty_u16=None):
        self.pin = pin
        self._freq = 0
        self._duty = 0
        self.history = []  # (freq, duty_u16) after every change
        if freq is not None:
            self.freq(freq)
        if duty_u16 is not None:
            self.duty_u16(duty_u16)

    def freq(self, value=None):
        if value is None:
            return self._freq
        self._freq = value
        self.history.append((self._freq, self._duty))
        return None

    def duty_u16(self, value=None):
        if value is None:
            return self._duty
        self._duty = value
        self.history.append((self._freq, self._duty))
        return None

    def deinit(self):
        self._duty = 0

    @property
    def sounding(self):
        return self._duty > 0


def reset():
    raise SystemExit("machine.reset()")


def freq(hz=None):
    return 125000000
