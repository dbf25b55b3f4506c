# A small fake of MicroPython's `neopixel` module: a chain that records what it was told.


class NeoPixel:
    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.pixels = [(0, 0, 0)] * n
        self.shown = []  # the colours of every write(), oldest first (at most `keep`)
        self.keep = 100
        self.writes = 0  # how many write() calls in all

    def __len__(self):
        return self.n

    def __setitem__(self, index, colour):
        self.pixels[index] = tuple(colour)

    def __getitem__(self, index):
        return self.pixels[index]

    def fill(self, colour):
        for i in range(self.n):
            self.pixels[i] = tuple(colour)

    def write(self):
        self.writes += 1
        self.shown.append(list(self.pixels))
        if len(self.shown) > self.keep:
            self.shown.pop(0)
