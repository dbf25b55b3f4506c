"""The matrix scan of the firmware on an emulated Pico (pico_emulator/), before and after.

Before and after the scan stopped stalling for host lines: the longest gap between two scans
idle, while LEDs blink, during bursts of L lines sent back to back, while every cell changes at
once (a board lifted, a cloth pulled off it: one C line of every cell) and back, and after the
host's R; scans per emulated second idle, the heartbeat, the blinking's half-periods, whether
switches pulsed for 25 ms during a burst are reported, and what a byte and a line of the host
cost on the chip. Every time here is emulated time, read from the chip's pins or its own
ticks_us; the emulation itself runs at a fraction of real time.

"before" is the firmware of commit 1a6eac0 (from git), "after" the one in firmware/.

Usage: python bench/pico_scan.py [--boards bigballs,offboard] [--bursts 3] [--changes 3]
       [--idle-s 3] [--blink-s 2] [--before COMMIT] [--no-costs]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import serial

from reedboard.controller.commands.firmware_command import FIRMWARE_FILES, board_config
from reedboard.controller.games import GAMES
from reedboard.hal.board import load_board
from reedboard.hal.protocol import encode, encode_bitmap

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "1a6eac0"
LINES_PER_BURST = 8
BLINK_MS = 250  # the firmware's nominal half-period of a blinking LED
PULSE_MS = 25  # a switch pulsed during a burst: longer than the debounce (3 scans)
PULSES_AT = (15, 85, 155, 225)  # ms of emulated time after a burst is written
WAIT = 600.0  # s of wall time for anything the chip does


def emulator():
    spec = importlib.util.spec_from_file_location("reedboard_pico_emulator", ROOT / "pico_emulator" / "emulator.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def firmware_at(commit: str | None) -> dict[str, bytes]:
    """The firmware's files at a commit (None: as they are in firmware/)."""
    if commit is None:
        return {name: (ROOT / "firmware" / name).read_bytes() for name in FIRMWARE_FILES}
    files = {}
    for name in FIRMWARE_FILES:
        files[name] = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:firmware/{name}"],
                                     capture_output=True, check=True).stdout
    return files


def emulated_wait(pico, since: int, ms: float) -> None:
    """Until `ms` of emulated time have passed on the chip since event `since` (its heartbeats
    come every 500 ms, so there is always an event to see the time by)."""
    t0 = pico.stats()["t"]
    pico.wait(lambda e: "t" in e and e["t"] >= t0 + ms, WAIT, since)


def reported(pico, since: int, sensor: int) -> bool:
    """The board sent C lines for `sensor` going and coming back (in either order)."""
    fields = [f for e in pico.kind("tx", since) if e["line"].startswith("C ")
              for f in e["line"].split("*")[0].split()[2:]]
    return f"{sensor}+" in fields and f"{sensor}-" in fields


def changed(pico, since: int) -> set[int]:
    """The sensors the board's C lines from event `since` on said changed."""
    return {int(f[:-1]) for e in pico.kind("tx", since) if e["line"].startswith("C ")
            for f in e["line"].split("*")[0].split()[2:] if f[-1:] in "+-"}


def longest_gap_after(pico, since: int, ms: float) -> float:
    """The longest gap between two scans from the last stats until `ms` of emulated time
    after now (the first stats taken now: waiting by emulated_wait would take them)."""
    first = pico.stats()
    pico.wait(lambda e: "t" in e and e["t"] >= first["t"] + ms, WAIT, since)
    return max(first["longest_gap_ms"], pico.stats()["longest_gap_ms"])


def all_at_once(pico, port, board, start: set[int], times: int) -> tuple[list[float], float]:
    """Every wired cell changing at once and back, `times` times, then the host's R: the longest
    gap between two scans while each burst is reported, and while R is answered."""
    wired = set(board.sensor.values())
    gaps = []
    for _ in range(times):
        for magnets in (wired - start, start):
            pico.stats()
            mark = pico.mark()
            pico.set_magnets(magnets)
            pico.wait(lambda e: changed(pico, mark) >= wired, WAIT, mark)
            gaps.append(longest_gap_after(pico, mark, 50))  # and what comes after the last line
            port.read(65536)
    pico.stats()
    mark = pico.mark()
    port.write(encode("R", 0x7F, ""))
    pico.wait(lambda e: e["ev"] == "tx" and e["line"].startswith("S "), WAIT, mark)
    asked = longest_gap_after(pico, mark, 50)
    port.read(65536)
    return gaps, asked


def scan_run(pe, board, start, files, bursts: int, idle_s: float, blink_s: float, changes: int) -> dict:
    files = dict(files, **{"board.json": json.dumps(board_config(board)).encode()})
    n = board.led_count
    free = sorted(set(range(board.rows * board.columns)) - {board.sensor[c] for c in start}
                  & set(board.sensor.values()))
    with pe.EmulatedPico(board, occupied=start, files=files) as pico:
        pico.booted(WAIT)
        emulated_wait(pico, pico.mark(), 1000)
        pico.stats()
        mark = pico.mark()
        emulated_wait(pico, mark, idle_s * 1000)
        idle = pico.stats()
        beats = [e["t"] for e in pico.kind("tx", mark) if e["line"].startswith("S ")]
        port = serial.Serial(pico.port, 115200, timeout=0.05)
        # one frame with blinking LEDs, then nothing: the blinking's half-periods from the data pin
        lit = ["%02x%02x%02x" % (200, i * 3 % 256, 50) for i in range(n)]
        blinking = set(range(0, n, 3))
        dark = ["000000" if i in blinking else c for i, c in enumerate(lit)]
        mark = pico.mark()
        port.write(encode("L", 0xF0, ["".join(lit), encode_bitmap(blinking, n)]))
        first = pico.wait(lambda e: e["ev"] == "leds" and e["pixels"] in (lit, dark), WAIT, mark)
        pico.stats()
        emulated_wait(pico, pico.events.index(first), blink_s * 1000)
        blink = pico.stats()
        frames = [f for f in pico.kind("leds", mark) if f["pixels"] in (lit, dark)]
        halves = [b["t"] - a["t"] for a, b in zip(frames[1:], frames[2:])]  # the first may come early
        worst = []
        pulsed = []
        for burst in range(bursts):
            lines = []
            for k in range(LINES_PER_BURST):
                colours = "".join("%02x%02x%02x" % ((burst * 8 + k) * 7 % 256, i * 3 % 256, 99) for i in range(n))
                lines.append(encode("L", (burst * LINES_PER_BURST + k) & 0xFF,
                                    [colours, encode_bitmap(range(0, n, 5), n)]))
            last = [colours[i:i + 6] for i in range(0, len(colours), 6)]
            sensors = [free[(burst * len(PULSES_AT) + k) % len(free)] for k in range(len(PULSES_AT))]
            pico.stats()
            sent = pico.mark()
            port.write(b"".join(lines))
            for sensor, at in zip(sensors, PULSES_AT):
                pico.pulse(sensor, PULSE_MS, after=at)
            shown = pico.wait(lambda e: e["ev"] == "leds" and e["pixels"][1:] == last[1:], WAIT, sent)
            during = pico.stats()
            worst.append((during["longest_gap_ms"], shown["t"] - during["since"]))
            emulated_wait(pico, sent, PULSES_AT[-1] + PULSE_MS + 100)  # the last pulse over and debounced
            inside = [p for p in pico.kind("pulse", sent) if p["t"] + PULSE_MS < shown["t"]]
            pulsed.append((sum(reported(pico, sent, s) for s in sensors), len(sensors), len(inside)))
            port.read(65536)
        every, asked = all_at_once(pico, port, board, {board.sensor[c] for c in start}, changes)
        port.close()
    return {"idle": idle, "beats": beats, "blink": blink, "halves": halves, "bursts": worst, "pulsed": pulsed,
            "bytes": len(lines[0]) if bursts else 0, "changes": every, "asked": asked}


COSTS = r"""
import sys, time, gc, io
sys.path.insert(0, '/fw')
import protocol, app, main
out = []
board = main.build(GAME, out.append)
board.start()
n = board.led_count
line = protocol.encode("L", 3, ["".join("%02x%02x%02x" % (i, i, 7) for i in range(n)),
                                 protocol.bitmap([i % 5 == 0 for i in range(n)], n)]).encode()
us = time.ticks_us
def since(t):
    return time.ticks_diff(us(), t)
class Ready:  # a poller that always has a byte (a BytesIO stands in for USB)
    def poll(self, timeout):
        return [(0, 1)]
    def ipoll(self, timeout):
        return ((0, 1),)
gc.collect()
if hasattr(main, "Input"):  # now: main.Input, a slice at a time, whole lines taken
    inp = main.Input(io.BytesIO(line), Ready())
    t = us()
    got = 0
    while got < len(line):
        data = inp.read(100000)
        board._reader.feed(data)
        got += len(data)
    per_byte = since(t) / got
else:  # before: poll(0), read(1) and LineReader.feed() a byte at a time
    stream = io.BytesIO(line)
    reader = protocol.LineReader()
    poller = Ready()
    t = us()
    for _ in range(len(line)):
        if poller.poll(0):
            reader.feed(stream.read(1))
    per_byte = since(t) / len(line)
gc.collect()
t = us()
board.handle(line)
whole = since(t)
pieces = [whole]
if hasattr(board, "take"):  # the line a piece a step
    board.take(line)
    pieces = []
    while board.pending():
        t = us()
        board.work()
        pieces.append(since(t))
t = us(); board._show(); show = since(t)
t = us(); board.send_state(); state = since(t)
t = us(); board.scanner.scan(); scan = since(t)
t = us(); gc.collect(); collect = since(t)
print("COSTS", len(line), per_byte, whole, max(pieces), len(pieces), show, state, scan, collect)
"""


def chip_costs(pe, board, files: dict[str, bytes]) -> list[float]:
    """What a byte and an L line cost on the chip, with these firmware files (its own ticks_us)."""
    on_chip = {f"fw/{name}": data for name, data in files.items() if name != "main.py"}
    on_chip["fw/main.py"] = files["main.py"]  # under /fw: imported, not run at boot
    with pe.EmulatedPico(board, files=on_chip) as pico:
        pico.usb_up()
        script = f"GAME = {board.name!r}\n" + COSTS
        done = subprocess.run([sys.executable, "-m", "mpremote", "connect", pico.port, "exec", script],
                              capture_output=True, text=True, timeout=600)
    for line in done.stdout.splitlines():
        if line.startswith("COSTS "):
            return [float(x) for x in line.split()[1:]]
    raise SystemExit(f"pico_scan: the cost script failed on the chip: {(done.stdout + done.stderr)[-400:]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="bigballs,offboard", help="games whose shipped boards to run")
    parser.add_argument("--bursts", type=int, default=3, help="bursts of 8 L lines (default %(default)s)")
    parser.add_argument("--changes", type=int, default=3,
                        help="times every cell changes at once and back (default %(default)s)")
    parser.add_argument("--idle-s", type=float, default=3.0, help="emulated seconds idle (default %(default)s)")
    parser.add_argument("--blink-s", type=float, default=2.0,
                        help="emulated seconds of blinking LEDs (default %(default)s)")
    parser.add_argument("--before", default=BEFORE, help="the commit of the firmware before (default %(default)s)")
    parser.add_argument("--no-costs", action="store_true", help="skip the per-byte and per-line costs")
    args = parser.parse_args()
    pe = emulator()
    try:
        pe.check_available()
    except pe.Unavailable as why:
        print(f"pico_scan: no emulated Pico here: {why}", file=sys.stderr)
        return 1
    try:
        before = firmware_at(args.before)
    except subprocess.CalledProcessError:
        print(f"pico_scan: no firmware at commit {args.before} in this repository", file=sys.stderr)
        return 1
    print("all times in emulated milliseconds (measured on the chip); "
          f"bursts of {LINES_PER_BURST} L lines written back to back")
    for game in args.boards.split(","):
        if game not in GAMES:
            print(f"pico_scan: no game {game!r}", file=sys.stderr)
            return 2
        board = load_board(game=GAMES[game].board)
        start = GAMES[game]().occupied()
        for label, files in (("before", before), ("after", firmware_at(None))):
            run = scan_run(pe, board, start, files, args.bursts, args.idle_s, args.blink_s, args.changes)
            idle, beats, blink, halves = run["idle"], run["beats"], run["blink"], run["halves"]
            gaps = [b - a for a, b in zip(beats, beats[1:])]
            print(f"{game:9} {label:6}: idle {idle['scans_per_s']:.0f} scans/s, longest gap {idle['longest_gap_ms']:.1f}"
                  + (f"; heartbeat every {min(gaps):.0f}-{max(gaps):.0f}" if gaps else "; fewer than 2 heartbeats"))
            print(f"{'':17} blinking: {blink['scans_per_s']:.0f} scans/s, longest gap {blink['longest_gap_ms']:.1f};"
                  + (f" half-period {min(halves):.0f}-{max(halves):.0f} ({len(halves)}, nominal {BLINK_MS},"
                     f" worst {max(abs(h - BLINK_MS) for h in halves) / BLINK_MS:.0%} off)" if halves
                     else " fewer than 3 blink frames"))
            for k, ((gap, shown), (seen, pulses, inside)) in enumerate(zip(run["bursts"], run["pulsed"])):
                print(f"{'':17} burst {k + 1} ({run['bytes']} bytes a line): longest gap {gap:.1f},"
                      f" last frame shown after {shown:.0f}; {PULSE_MS} ms pulses reported {seen} of {pulses}"
                      f" ({inside} ended before the last frame)")
            if run["changes"]:
                print(f"{'':17} every cell changing at once ({len(board.sensor)} changes) and back, {args.changes}"
                      f" times: longest gap {max(run['changes']):.1f}"
                      f" ({', '.join(f'{g:.1f}' for g in run['changes'])})")
            print(f"{'':17} the host's R answered: longest gap {run['asked']:.1f}")
        if not args.no_costs:
            for label, files in (("before", before), ("after", firmware_at(None))):
                c = chip_costs(pe, board, files)
                print(f"{game:9} {label:6} on the chip, an L line of {c[0]:.0f} bytes: {c[1]:.0f} us a byte read;"
                      f" the line handled at once {c[2] / 1000:.1f}, in the loop {c[4]:.0f} piece(s) of at most"
                      f" {c[3] / 1000:.1f}; redraw {c[5] / 1000:.1f}, S line {c[6] / 1000:.1f}, one scan {c[7] / 1000:.1f},"
                      f" garbage collection {c[8] / 1000:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
