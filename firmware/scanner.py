# The reed-switch matrix: drive one row low at a time, read the columns (pulled up), a
# closed switch reads low. Debounced by consecutive equal scans. Works on any pin objects
# with .value() (machine.Pin on the Pico, fakes on a PC).


class Scanner:
    """Sensor i = row * columns + column; state[i] is 1 when its switch is closed (occupied).

    rows: output pins, idle high (or open drain, released); columns: input pins with
    pull-ups. A reading that differs from the debounced state becomes the state after
    `debounce` consecutive scans agree on it. `settle` (optional) is called after a row is
    driven, before its columns are read (e.g. a few microseconds' sleep on long wires).
    """

    def __init__(self, rows, columns, debounce=3, settle=None):
        if not 1 <= debounce <= 255:
            raise ValueError("debounce must be 1 to 255 scans")
        self.rows = list(rows)
        self.columns = list(columns)
        self.count = len(self.rows) * len(self.columns)
        self.debounce = debounce
        self.settle = settle
        self.state = bytearray(self.count)  # debounced
        self._differs = bytearray(self.count)  # consecutive scans that disagreed with state
        for pin in self.rows:
            pin.value(1)

    def read(self):
        """One raw reading of every sensor (a bytearray of 0/1)."""
        raw = bytearray(self.count)
        width = len(self.columns)
        for r, row in enumerate(self.rows):
            row.value(0)
            if self.settle is not None:
                self.settle()
            base = r * width
            for c, column in enumerate(self.columns):
                if not column.value():
                    raw[base + c] = 1
            row.value(1)
        return raw

    def prime(self):
        """Take the current reading as the state, with no events (at boot)."""
        self.state = self.read()
        self._differs = bytearray(self.count)
        return self.state

    def scan(self):
        """Scan once; the debounced changes as a list of (sensor, occupied) in sensor order."""
        raw = self.read()
        events = []
        state = self.state
        differs = self._differs
        for i in range(self.count):
            if raw[i] == state[i]:
                differs[i] = 0
                continue
            differs[i] += 1
            if differs[i] >= self.debounce:
                state[i] = raw[i]
                differs[i] = 0
                events.append((i, raw[i] == 1))
        return events

    def occupied(self):
        """The debounced occupied sensors, in order."""
        return [i for i in range(self.count) if self.state[i]]
