# The board's main loop logic: scan, buttons, lights, buzzer and the serial protocol.
#
# Everything it touches is handed in (the scanner's pins, the LED chain, the buzzer's PWM,
# the button pins, a `write` function for outgoing lines and a clock), so the same code
# runs on the Pico (main.py), on a PC under CPython or the MicroPython unix port (tests),
# and behind a pty as the fake board (hal/fakeboard.py).

import binascii

import protocol

FIRMWARE = "reedboard-0.4.0"  # the firmware's version, sent in H (no spaces): reedboard-MAJOR.MINOR.PATCH
HEARTBEAT_MS = 500  # S at least this often ("at least once a second")
LONG_PRESS_MS = 1000  # a button held this long is a long press
BLINK_MS = 250  # blinking LEDs: 250 ms on, 250 ms off (2 Hz)
DIE_FACES = ("blank", "rolling", "error", "1", "2", "3", "4", "5", "6")
BOARD_TYPES = "HSCBE"  # what the board sends: such lines coming in are echoes, not orders
MAX_ERROR_TEXT = 200
OFF = (0, 0, 0)
PIECE = 64  # bytes of a line checked in one step (take()): a few milliseconds on the Pico
PIECE_CHANGES = 8  # changes put into a C line in one step: half a millisecond or so on the Pico
LINE_CHANGES = 160  # changes in one C line at most: 5 bytes each (" 255+"), and the age, within MAX_LINE
MAX_AGE_MS = 99999
OPTIONS = ("age",)  # what a host may ask for in V (PROTOCOL.md, Options)

# The buzzer's cues: (frequency in Hz, milliseconds) notes, frequency 0 for a rest.
TUNES = {
    "move": ((1760, 40),),
    "illegal": ((220, 150), (0, 60), (220, 150)),
    "choose": ((988, 60), (0, 40), (1319, 60)),
    "takeback": ((1319, 60), (0, 40), (988, 60)),
    "roll": ((1568, 25), (0, 25), (1568, 25), (0, 25), (1568, 25)),
    "refused": ((165, 250),),
    "ready": ((523, 90), (659, 90), (784, 140)),
    "game-over": ((784, 150), (659, 150), (523, 150), (392, 300)),
}


def _result(steps):
    """Run a generator to its end; what it returns."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


class Button:
    """A push button to ground on a pin with a pull-up (pressed reads 0).

    Debounced by `debounce` consecutive equal readings. poll() returns "long" once the
    button has been held `long_ms` (while still held), "short" when it is let go sooner,
    otherwise None.
    """

    def __init__(self, name, pin, debounce=3, long_ms=LONG_PRESS_MS):
        self.name = name
        self.pin = pin
        self.debounce = debounce
        self.long_ms = long_ms
        self.pressed = False  # debounced
        self._differs = 0
        self._down = 0
        self._long_sent = False

    def poll(self, now, clock):
        reading = not self.pin.value()
        if reading != self.pressed:
            self._differs += 1
            if self._differs >= self.debounce:
                self._differs = 0
                self.pressed = reading
                if reading:
                    self._down = now
                    self._long_sent = False
                elif not self._long_sent:
                    return "short"
                return None
        else:
            self._differs = 0
        if self.pressed and not self._long_sent and clock.ticks_diff(now, self._down) >= self.long_ms:
            self._long_sent = True
            return "long"
        return None


class Tunes:
    """Plays the cues' notes on a PWM output (machine.PWM: freq(), duty_u16()) without
    blocking: step() moves on to the next note when one is over."""

    def __init__(self, pwm, clock, volume=32768):
        self.pwm = pwm
        self.clock = clock
        self.volume = volume  # duty_u16 while a note sounds (32768: a square wave)
        self.cue = None  # the cue playing, None when quiet
        self._notes = ()
        self._index = 0
        self._until = 0
        self._silence()

    def play(self, cue, now):
        self.cue = cue
        self._notes = TUNES[cue]
        self._index = -1
        self._next(now)

    def step(self, now):
        if self.cue is not None and self.clock.ticks_diff(now, self._until) >= 0:
            self._next(self._until)

    def _next(self, at):
        self._index += 1
        if self._index >= len(self._notes):
            self.cue = None
            self._silence()
            return
        freq, ms = self._notes[self._index]
        if freq:
            self.pwm.freq(freq)
            self.pwm.duty_u16(self.volume)
        else:
            self._silence()
        self._until = self.clock.ticks_add(at, ms)

    def _silence(self):
        self.pwm.duty_u16(0)


def _put_number(buf, at, value):
    """Put the decimal digits of `value` (0 or more) into buf at `at`; where they end."""
    end = at + 1
    rest = value // 10
    while rest:
        end += 1
        rest //= 10
    for k in range(end - 1, at - 1, -1):
        buf[k] = 48 + value % 10
        value //= 10
    return end


class App:
    """The board: call start() once, then feed() what comes in and step() often (every few
    milliseconds: each step scans the matrix once).

    scanner: a scanner.Scanner; leds: a neopixel.NeoPixel-like chain (len, [i] = (r, g, b),
    write()); write: called with each outgoing line (str, "\\n" included); clock: has
    ticks_ms(), ticks_diff(a, b) and ticks_add(t, ms) (MicroPython's time module does);
    buttons: Button objects; buzzer: a PWM object or None; die: an object with show(face)
    for a die display of its own, or None (the die's pips are then LEDs of the chain, lit by
    the host's L frames, and D is only remembered).
    """

    def __init__(self, scanner, leds, write, clock, buttons=(), buzzer=None, die=None,
                 firmware=FIRMWARE, heartbeat_ms=HEARTBEAT_MS, blink_ms=BLINK_MS):
        self.scanner = scanner
        self.leds = leds
        self.write = write
        self.clock = clock
        self.buttons = list(buttons)
        self.tunes = Tunes(buzzer, clock) if buzzer is not None else None
        self.die_display = die
        self.firmware = firmware
        self.heartbeat_ms = heartbeat_ms
        self.blink_ms = blink_ms
        self.rows = len(scanner.rows)
        self.columns = len(scanner.columns)
        self.led_count = len(leds)
        self.colours = bytearray(3 * self.led_count)  # the last L frame, r g b per LED
        self.blinking = bytearray(self.led_count)
        self.blink_on = True
        self.die = "blank"
        self.cue = None  # the last cue asked for
        self.bad_lines = 0  # dropped: broke the framing rules (or came from a board)
        self.errors = 0  # E lines sent
        self.started = False
        self.busy = False  # the last step did something slow besides its scan (a heartbeat, a redraw)
        self.ages = False  # C lines end with @AGE: the host asked for the age option
        self._state_of = None  # the state whose bitmap is _bitmap
        self._bitmap = ""
        self._reader = protocol.LineReader()
        self._lines = []  # whole lines taken from the host, not handled yet
        self._job = None  # the line being handled a piece at a time (a generator)
        self._frames = None  # (on, off): the chain's own bytes for the L frame, blinking LEDs lit and dark
        self._seq = protocol.Seq()
        self._last_state = 0
        self._blink_at = 0
        self._scanned = [0] * (scanner.debounce + 1)  # ticks_ms of the last scans, a ring whose next
        self._scan_at = 0  # place holds the oldest: the last scan that missed what flips now
        self._unsent = []  # (when changed, changes) of scans whose changes are in no line yet
        self._line = None  # the C line being composed, a piece a step (a generator)
        self._held = []  # (type, fields) sent while a C line is being composed: they follow it

    # -- the loop ---------------------------------------------------------------------

    def start(self):
        """At boot: read the matrix as it is, dark LEDs, then H and S."""
        now = self.clock.ticks_ms()
        self.scanner.prime()
        self._scanned = [now] * len(self._scanned)
        self._blink_at = self.clock.ticks_add(now, self.blink_ms)
        self._frames = _result(self._chain_frames(bytes(3 * self.led_count), bytearray(self.led_count)))
        self._show()
        self.started = True
        self.hello()

    def step(self, work=True):
        """One scan, the buttons, the blinking, the buzzer, and then one slow thing when nothing
        else was slow this step (and `work`): a piece of the C lines of the changes seen, else
        the heartbeat, else a piece of the lines taken from the host (take()). True while
        changes wait to be sent or lines taken from the host to be handled."""
        if not self.started:
            self.start()
        clock = self.clock
        now = clock.ticks_ms()
        events = self.scanner.scan()
        at = self._scan_at
        self._scanned[at] = now
        at += 1
        if at == len(self._scanned):
            at = 0
        self._scan_at = at
        busy = False
        if events:
            self.send_changes(events, self._changed(at))
            busy = len(events) > PIECE_CHANGES  # a scan of many changes is slow itself
        for button in self.buttons:
            press = button.poll(now, clock)
            if press is not None:
                self.send("B", (button.name, press))
        late = clock.ticks_diff(now, self._blink_at)
        if late >= 0 and not busy:
            self.blink_on = not self.blink_on
            if late >= self.blink_ms:  # fell behind (a long pause): start the beat again
                self._blink_at = clock.ticks_add(now, self.blink_ms)
            else:
                self._blink_at = clock.ticks_add(self._blink_at, self.blink_ms)
            if any(self.blinking):
                self._show()
                busy = True
        if self._line is not None or self._unsent:
            sending = True
            if work and not busy:
                sending = self.compose()  # the changes before anything else
                busy = True
        else:
            sending = False
            if not busy and clock.ticks_diff(now, self._last_state) >= self.heartbeat_ms:
                self.send_state()  # after a redraw, a step later: never both in one step
                busy = True
        if self.tunes is not None:
            self.tunes.step(now)
        self.busy = busy  # this step did something slow besides its scan
        if self._job is None and not self._lines:
            return sending
        if work and not busy:
            self.work()
        return True

    def take(self, data):
        """Bytes from the host, any amount: whole lines wait to be handled by step(), a piece
        a step, so that a long line never stops the scan for long."""
        self._lines.extend(self._reader.feed(data))

    def pending(self):
        """True while lines taken from the host wait to be handled, or changes to be sent."""
        return self._job is not None or bool(self._lines) or self.sending()

    def sending(self):
        """True while changes seen wait to be sent (in C lines composed a piece a step)."""
        return self._line is not None or bool(self._unsent)

    def work(self):
        """Handle a piece of the waiting lines: at most one slow piece (some bytes of a line
        checked, a light frame decoded, the LEDs redrawn)."""
        if self._job is None:
            if not self._lines:
                return
            self._job = self._handling(self._lines.pop(0), PIECE)
        try:
            next(self._job)
        except StopIteration:
            self._job = None

    def feed(self, data):
        """Bytes (or text) from the host, any amount: every whole line in it is handled now."""
        for line in self._reader.feed(data):
            self.handle(line)

    # -- sending ----------------------------------------------------------------------

    def send(self, kind, fields=()):
        if self._line is not None:  # a C line has its number and is half made: this follows it
            self._held.append((kind, fields))
        else:
            self.write(protocol.encode(kind, self._seq.next(), fields))

    def _release(self):
        """Send what was held while a C line was being composed."""
        held, self._held = self._held, []
        for kind, fields in held:
            self.write(protocol.encode(kind, self._seq.next(), fields))

    def hello(self):
        for _ in self._on_hello([str(protocol.VERSION)]):
            pass

    def send_state(self):
        self._last_state = self.clock.ticks_ms()
        state = bytes(self.scanner.state)
        if state != self._state_of:  # the bitmap is made again only when the state changed
            self._state_of = state
            self._bitmap = protocol.bitmap(state, self.scanner.count)
        self.send("S", (self._bitmap,))

    def _changed(self, at):
        """When what flips now most likely changed (ticks_ms): halfway between the last scan
        that missed it (the ring's oldest, at `at`) and the first that saw it (the next). The
        switch moved somewhere between the two; the midpoint is the best guess, so the host's
        debounce counts from when the hand moved."""
        missed = self._scanned[at]
        seen = self._scanned[at + 1 if at + 1 < len(self._scanned) else 0]
        return self.clock.ticks_add(seen, -(self.clock.ticks_diff(seen, missed) // 2))

    def send_changes(self, events, changed):
        """Changes (sensor, occupied) that most likely happened at ticks_ms `changed`: their C
        lines are composed by compose(), a piece a step, after those of earlier scans."""
        self._unsent.append((changed, events))

    def compose(self):
        """A piece of the C lines waiting: at most PIECE_CHANGES changes put into a line, which
        is sent once its last piece is in. True while more is left."""
        if self._line is None:
            if not self._unsent:
                return False
            self._line = self._c_lines(*self._unsent.pop(0))
        try:
            next(self._line)
        except StopIteration:
            self._line = None
            self._release()
        return self._line is not None or bool(self._unsent)

    def _c_lines(self, changed, events):
        """The C lines of one scan's changes, composed in a buffer a piece at a time, yielding
        between pieces: a line of many changes (a board lifted) would stop the scan for longer
        than the debounce takes. The digits go in one by one: a string made for each change
        costs the Pico more, and strings kept for them slow every garbage collection."""
        total = len(events)
        for start in range(0, total, LINE_CHANGES):
            if start:
                yield
            end = min(start + LINE_CHANGES, total)
            buf = bytearray(15 + 5 * (end - start))  # the head, each change, the age and the CRC at most
            buf[0] = 67  # C
            buf[1] = 32
            protocol.put_hex(buf, 2, self._seq.next())
            n = 4
            crc = protocol.crc8(buf, 0, 0, n)
            for at in range(start, end, PIECE_CHANGES):
                if at > start:
                    yield
                begin = n
                for k in range(at, min(at + PIECE_CHANGES, end)):
                    index, occupied = events[k]
                    buf[n] = 32
                    n = _put_number(buf, n + 1, index)
                    buf[n] = 43 if occupied else 45  # + or -
                    n += 1
                crc = protocol.crc8(buf, crc, begin, n)
            if self.ages:
                age = self.clock.ticks_diff(self.clock.ticks_ms(), changed)
                buf[n] = 32
                buf[n + 1] = 64  # @
                begin, n = n, _put_number(buf, n + 2, min(max(age, 0), MAX_AGE_MS))
                crc = protocol.crc8(buf, crc, begin, n)
            buf[n] = 42  # *
            protocol.put_hex(buf, n + 1, crc)
            buf[n + 3] = 10
            self.write(buf[:n + 4].decode())

    def error(self, text):
        """E: a host line that cannot be obeyed, which and why."""
        clean = []
        for c in text[:MAX_ERROR_TEXT]:
            clean.append(c if " " <= c <= "~" and c != "*" else "?")
        words = [w for w in "".join(clean).split(" ") if w]
        self.errors += 1
        self.send("E", (" ".join(words) or "?",))

    # -- receiving --------------------------------------------------------------------

    def handle(self, line):
        """One whole line from the host, handled at once."""
        for _ in self._handling(line, protocol.MAX_LINE):
            pass

    def _handling(self, line, piece):
        """Handle one line, yielding between slow pieces (piece: bytes checked between yields)."""
        try:
            kind, _seq, fields = yield from protocol.parsing(line, piece)
        except protocol.BadLine:
            self.bad_lines += 1
            return
        if kind == "V":
            yield from self._on_hello(fields)
        elif kind == "R":
            if fields:
                self.error("bad R: it takes no payload")
            else:
                self.send_state()
        elif kind == "L":
            yield from self._on_lights(fields)
        elif kind == "D":
            self._on_die(fields)
        elif kind == "Z":
            self._on_cue(fields)
        elif kind in BOARD_TYPES:
            self.bad_lines += 1  # our own kind of line coming back: an echo, never answered
        else:
            self.error("unknown line type " + kind)

    def _on_hello(self, fields):
        """E (another version) in a piece of its own, then H with the options it turned on and
        S together (nothing between them)."""
        if fields[:1] != [str(protocol.VERSION)]:
            self.error("V: this board speaks protocol %d, not %s" % (
                protocol.VERSION, " ".join(fields) or "an unnamed one"))
            yield
            fields = []
        options = [option for option in OPTIONS if option in fields[1:]]
        self.ages = "age" in options
        self.send("H", [str(protocol.VERSION), self.firmware, str(self.rows), str(self.columns),
                        str(self.led_count)] + options)
        self.send_state()

    def _on_lights(self, fields):
        if len(fields) != 2:
            self.error("bad L: COLOURS BLINK expected, %d fields" % len(fields))
            return
        colours, blink = fields
        if len(colours) % 6:
            self.error("bad L: colours are 6 hex digits per LED")
            return
        try:
            rgb = binascii.unhexlify(colours)  # any case, like is_hex(lower_only=False)
        except ValueError:
            self.error("bad L: colours are 6 hex digits per LED")
            return
        yield
        if len(rgb) // 3 != self.led_count:
            self.error("bad L: %d colours for %d LEDs" % (len(rgb) // 3, self.led_count))
            return
        try:
            blinking = protocol.parse_bitmap(blink, self.led_count)
        except ValueError as error:
            self.error("bad L: blink bitmap: %s" % error)
            return
        yield
        frames = yield from self._chain_frames(rgb, blinking)
        self.colours = bytearray(rgb)
        self.blinking = blinking
        self._frames = frames
        if frames is not None:
            yield  # the redraw (a couple of milliseconds for 74 LEDs) is a piece of its own
        self._show()

    def _on_die(self, fields):
        if len(fields) != 1 or fields[0] not in DIE_FACES:
            self.error("bad D: %s (blank, rolling, error or 1-6)" % " ".join(fields))
            return
        self.die = fields[0]
        if self.die_display is not None:
            self.die_display.show(self.die)

    def _on_cue(self, fields):
        if len(fields) != 1 or fields[0] not in TUNES:
            self.error("bad Z: unknown cue %s" % " ".join(fields))
            return
        self.cue = fields[0]
        if self.tunes is not None:
            self.tunes.play(self.cue, self.clock.ticks_ms())

    # -- lights -----------------------------------------------------------------------

    def colour(self, index):
        """What LED `index` shows now, blinking included."""
        if self.blinking[index] and not self.blink_on:
            return OFF
        c = self.colours
        return (c[3 * index], c[3 * index + 1], c[3 * index + 2])

    def _chain_frames(self, rgb, blinking):
        """The chain's own bytes for a frame, blinking LEDs lit and dark, when the chain is
        MicroPython's neopixel.NeoPixel (a `buf` in G R B order), made a piece at a time; None
        for any other chain."""
        leds = self.leds
        if getattr(leds, "buf", None) is None or getattr(leds, "ORDER", None) != (1, 0, 2, 3) or \
                getattr(leds, "bpp", 0) != 3:
            return None
        yield
        on = bytearray(rgb)
        for i in range(0, len(on), 3):  # r g b -> g r b
            on[i] = rgb[i + 1]
            on[i + 1] = rgb[i]
        off = on
        if any(blinking):
            yield
            off = bytearray(on)
            for i in range(self.led_count):
                if blinking[i]:
                    off[3 * i] = off[3 * i + 1] = off[3 * i + 2] = 0
        return on, off

    def _show(self):
        leds = self.leds
        frames = self._frames
        if frames is not None:
            leds.buf[:] = frames[0] if self.blink_on else frames[1]
        else:
            for i in range(self.led_count):
                leds[i] = self.colour(i)
        leds.write()
