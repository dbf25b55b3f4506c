# A small fake of MicroPython's `neopixel` module: a chain that records what it was told. Like
# the real one it keeps the chain's bytes in `buf` (G R B per LED, ORDER), which write() sends.


class NeoPixel:
    ORDER = (1, 0, 2, 3)

    def __init__(self, pin, n, bpp=3, timing=1):
        self.pin = pin
        self.n = n
        self.bpp = bpp
        self.buf = bytearray(bpp * n)
        self.pixels = [(0, 0, 0)] * n
        self.shown = []  # the colours of every write(), oldest first (at most `keep`)
        self.keep = 100
        self.writes = 0  # how many write() calls in all

    def __len__(self):
        return self.n

    def __setitem__(self, index, colour):
        self.pixels[index] = tuple(colour)
        for k in range(self.bpp):
            self.buf[index * self.bpp + self.ORDER[k]] = colour[k]

    def __getitem__(self, index):
        return self.pixels[index]

    def fill(self, colour):
        for i in range(self.n):
            self[i] = colour

    def write(self):
        b = self.buf
        self.pixels = [(b[3 * i + 1], b[3 * i], b[3 * i + 2]) for i in range(self.n)]
        self.writes += 1
        self.shown.append(list(self.pixels))
        if len(self.shown) > self.keep:
            self.shown.pop(0)
