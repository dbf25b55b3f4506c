// An emulated Raspberry Pi Pico (rp2040js) running MicroPython's RP2040 build and the reedboard
// firmware from a littlefs image, wired to a board: a reed-switch matrix (rows driven low one at a
// time, columns pulled up), two buttons to ground, a WS2812 chain decoded from the data pin's
// timing and a buzzer read from the PWM registers. pico_emulator/emulator.py starts it and puts
// its serial port behind a pty; run by hand it is
//
//   node pico_emulator/pico.mjs --uf2 FILE --bootrom FILE [--fs IMAGE] [--rows 0,1,2,3]
//        [--cols 8,9,...] [--die 18] [--ok 19] [--led 22] [--buzzer 20] [--occ 0,5,...] [--fast] [--ctl-fd N]
//
// fd 0: bytes from the host to the Pico's USB serial; fd 1: the Pico's bytes to the host.
// --ctl-fd N: a pipe of control lines, one a line:
//   occ I,J,...      the sensors with a magnet on them (sensor = row * columns + column)
//   pulse I MS [IN]  sensor I changes for MS ms of emulated time (IN ms from now), then changes back
//   hold die|ok MS   the button is held for MS ms of emulated time
//   dark I           LED I of the chain is broken: it shows nothing (and passes the data on)
//   stuck I          sensor I's switch is stuck closed; `stuck` alone mends every switch
//   cut R            matrix row R's wire is cut: none of its switches reaches its pin; `cut` alone mends it
//   gaps MS          report every gap between two scans longer than MS ms (`gaps` alone: no more)
//   usb HEX          these bytes into the Pico's USB serial, as if the host had sent them
//   stats            a stats report now (scans and the longest gap between two since the last stats)
//   pins             how the firmware set up the wired pins
//   quit
// Reports go to fd 2, one a line: "@" and a JSON object with "ev": usb, leds, buzzer, tx, stats,
// pins, reset, exit, rx (a host line as it goes to the Pico), occ (the magnets moved). Times are emulated milliseconds ("t").
//
// Emulated time never runs ahead of the wall clock (without --fast), so that the host's timeouts
// mean what they say; it falls behind when the machine is slow, and everything measured here is
// measured in emulated time.
import fs from 'fs';
import { performance } from 'perf_hooks';
import { Simulator, USBCDC, ConsoleLogger, LogLevel, GPIOPinState } from 'rp2040js';
import { decodeBlock } from 'uf2';

export const FS_OFFSET = 0xa0000; // MicroPython 1.24 RPI_PICO: its littlefs starts 640 KiB into the flash
export const FS_BLOCKS = 352; // of 4096 bytes
const NS_PER_CYCLE = 8; // 125 MHz

// ---- the chip --------------------------------------------------------------------------------

// rp2040js runs the boot ROM's flash routines, but its flash does not obey erase and program
// commands, so every littlefs write fails. Each routine's entry (from the ROM's function table)
// becomes a breakpoint whose handler does the work on the flash array and returns to the caller.
const ROM_FLASH_CALLS = ['IF', 'EX', 'RE', 'RP', 'FC', 'CX'];
const BKPT_BASE = 0xe0;

function patchFlashCalls(mcu) {
  const rom = mcu.bootrom;
  const half = (a) => (rom[a >> 2] >>> ((a & 2) * 8)) & 0xffff;
  const putHalf = (a, v) => {
    const shift = (a & 2) * 8;
    rom[a >> 2] = ((rom[a >> 2] & ~(0xffff << shift)) | (v << shift)) >>> 0;
  };
  const calls = {};
  for (let entry = half(0x14); half(entry) !== 0; entry += 4) {
    const code = half(entry);
    const name = String.fromCharCode(code & 0xff, code >> 8);
    const k = ROM_FLASH_CALLS.indexOf(name);
    if (k < 0) continue;
    putHalf(half(entry + 2) & ~1, 0xbe00 | (BKPT_BASE + k));
    calls[BKPT_BASE + k] = name;
  }
  if (Object.keys(calls).length !== ROM_FLASH_CALLS.length) throw new Error('the boot ROM has no flash routines where expected');
  mcu.onBreak = (code) => {
    const r = mcu.core.registers;
    const name = calls[code];
    if (name === 'RE') mcu.flash.fill(0xff, r[0], r[0] + r[1]); // flash_range_erase(offset, count, ...)
    else if (name === 'RP') { // flash_range_program(offset, data, count): programming only clears bits
      for (let i = 0; i < r[2]; i++) mcu.flash[r[0] + i] &= mcu.readUint8(r[1] + i);
    } else if (!name) {
      report({ ev: 'error', what: `breakpoint ${code} at ${(mcu.core.PC - 2).toString(16)}` });
      return;
    }
    mcu.core.PC = r[14] & ~1; // back to the caller
  };
}

function loadFlash(mcu, { uf2, fsImage, flash }) {
  if (flash) {
    mcu.flash.set(flash);
    return;
  }
  const image = fs.readFileSync(uf2);
  for (let at = 0; at + 512 <= image.length; at += 512) {
    const { flashAddress, payload } = decodeBlock(image.subarray(at, at + 512));
    mcu.flash.set(payload, flashAddress - 0x10000000);
  }
  if (fsImage) mcu.flash.set(fs.readFileSync(fsImage), FS_OFFSET);
}

// ---- options ---------------------------------------------------------------------------------

const argv = process.argv.slice(2);
const option = (name, otherwise) => (argv.includes('--' + name) ? argv[argv.indexOf('--' + name) + 1] : otherwise);
const numbers = (text) => (text ? text.split(',').filter((s) => s !== '').map(Number) : []);
const ROWS = numbers(option('rows', '0,1,2,3'));
const COLS = numbers(option('cols', '8,9,10,11,12,13,14'));
const BUTTONS = { die: Number(option('die', '18')), ok: Number(option('ok', '19')) };
const LED = Number(option('led', '22'));
const BUZZER = Number(option('buzzer', '20'));
const REALTIME = !argv.includes('--fast');
const UF2 = option('uf2', null);
const BOOTROM = option('bootrom', null);
if (!UF2 || !BOOTROM) {
  process.stderr.write('pico.mjs: --uf2 and --bootrom are needed\n');
  process.exit(2);
}

function report(obj) {
  process.stderr.write('@' + JSON.stringify(obj) + '\n');
}

// ---- state that outlives a reset -------------------------------------------------------------

let chip = null; // { sim, mcu, clock, cdc, ... } of the running chip
let before = 0; // emulated ns of the chips before this one (resets)
const now = () => before + chip.clock.nanos;
const ms = (ns) => +(ns / 1e6).toFixed(3);
const magnets = new Set(numbers(option('occ', '')));
const stuck = new Set();
const cut = new Set(); // matrix rows whose wire is cut
const held = { die: false, ok: false };
const dark = new Set();
const counts = { scans: 0, resets: 0, instructions: 0 };
let lastScan = null;
let gapsOver = null; // ns: report every gap between two scans longer than this
let window = { scans: 0, longest: 0, longestAt: 0, from: 0 };
const wall0 = performance.now();

// ---- the reed matrix and the buttons -----------------------------------------------------------

function closed(sensor) {
  return magnets.has(sensor) || stuck.has(sensor);
}

// A column reads low while a row driven low has a closed switch on it (each switch has its
// diode), high through its pull-up otherwise. A row not driven (released open drain) pulls nothing.
function settleColumns() {
  const { mcu } = chip;
  for (let c = 0; c < COLS.length; c++) {
    let low = false;
    for (let r = 0; r < ROWS.length && !low; r++) {
      if (!cut.has(r) && mcu.gpio[ROWS[r]].value === GPIOPinState.Low && closed(r * COLS.length + c)) low = true;
    }
    mcu.gpio[COLS[c]].setInputValue(!low);
  }
}

function settleButtons() {
  for (const [name, pin] of Object.entries(BUTTONS)) chip.mcu.gpio[pin].setInputValue(!held[name]);
}

function wireBoard() {
  const { mcu } = chip;
  lastScan = null;
  ROWS.forEach((pin, r) => {
    mcu.gpio[pin].setInputValue(true);
    mcu.gpio[pin].addListener((state) => {
      if (r === 0 && state === GPIOPinState.Low) scanned();
      if (state === GPIOPinState.High) report({ ev: 'error', what: `row GP${pin} driven high: a short on real wires`, t: ms(now()) });
      settleColumns();
    });
  });
  settleColumns();
  settleButtons();
}

function scanned() {
  const t = now();
  counts.scans++;
  window.scans++;
  if (lastScan !== null && t - lastScan > window.longest) {
    window.longest = t - lastScan;
    window.longestAt = t;
  }
  if (lastScan !== null && gapsOver !== null && t - lastScan > gapsOver) report({ ev: 'gap', t: ms(t), ms: ms(t - lastScan) });
  lastScan = t;
}

// rp2040js models no pulls: an input nobody drives reads 0. Pins not wired to the board read as
// their pad's pull (or their own output) would make them.
const WIRED = new Set([...ROWS, ...COLS, ...Object.values(BUTTONS)]);
function floatUnwired() {
  const { mcu } = chip;
  for (let n = 0; n < 30; n++) {
    if (WIRED.has(n)) continue;
    const gpio = mcu.gpio[n];
    const level = gpio.outputEnable ? gpio.outputValue : gpio.pullupEnabled && !gpio.pulldownEnabled;
    if (gpio.inputValue !== (level && gpio.inputEnable)) gpio.setInputValue(level);
  }
}

// ---- the WS2812 chain --------------------------------------------------------------------------

// Each bit is a high pulse: about 400 ns for a 0, 800 ns for a 1; more than 50 us low ends a frame.
const LATCH_NS = 50000;
const ONE_NS = 600;
let led = { bits: [], highAt: null, lastEdge: 0, widths: [Infinity, 0] };

function frameDone() {
  const bits = led.bits;
  if (!bits.length) return;
  const pixels = [];
  for (let i = 0; i + 24 <= bits.length; i += 24) {
    let grb = 0;
    for (let k = 0; k < 24; k++) grb = grb * 2 + bits[i + k];
    const g = (grb >> 16) & 255, r = (grb >> 8) & 255, b = grb & 255;
    pixels.push(dark.has(pixels.length) ? '000000' : ((r << 16) | (g << 8) | b).toString(16).padStart(6, '0'));
  }
  report({ ev: 'leds', t: ms(led.lastEdge), pixels, bits: bits.length, high_ns: led.widths.map(Math.round) });
  led = { bits: [], highAt: null, lastEdge: led.lastEdge, widths: [Infinity, 0] };
}

function wireLeds() {
  led = { bits: [], highAt: null, lastEdge: 0, widths: [Infinity, 0] };
  chip.mcu.gpio[LED].addListener((state) => {
    const t = now();
    if (state === GPIOPinState.High) {
      if (led.bits.length && t - led.lastEdge > LATCH_NS) frameDone();
      led.highAt = t;
    } else if (state === GPIOPinState.Low && led.highAt !== null) {
      const width = t - led.highAt;
      led.widths = [Math.min(led.widths[0], width), Math.max(led.widths[1], width)];
      led.bits.push(width > ONE_NS ? 1 : 0);
      led.highAt = null;
    }
    led.lastEdge = t;
  });
}

function latchIfIdle() {
  if (led.bits.length && led.highAt === null && now() - led.lastEdge > LATCH_NS) frameDone();
}

// ---- the buzzer ----------------------------------------------------------------------------------

let tone = null;
function wireBuzzer() {
  const { mcu } = chip;
  const pwm = mcu.pwm;
  const write = pwm.writeUint32.bind(pwm);
  pwm.writeUint32 = (offset, value) => {
    write(offset, value);
    const channel = pwm.channels[(BUZZER >> 1) & 7];
    const on = (channel.csr & 1) === 1 && mcu.gpio[BUZZER].functionSelect === 4;
    const compare = BUZZER & 1 ? channel.cc >>> 16 : channel.cc & 0xffff;
    const divider = (channel.div >> 4 || 256) + (channel.div & 15) / 16;
    const hz = on && compare > 0 ? Math.round(125e6 / divider / (channel.top + 1)) : 0;
    if (hz !== tone) {
      tone = hz;
      report({ ev: 'buzzer', t: ms(now()), hz });
    }
  };
}

// ---- USB serial ----------------------------------------------------------------------------------

const toPico = []; // host bytes not yet in the emulated USB FIFO (rp2040js drops what overflows it)
let parked = null; // an OUT transfer the firmware armed while the host had nothing to send
let outLine = '';
const PROTOCOL_LINE = /[HSCBE] [0-9a-f]{2}( [ -)+-~]+)?\*[0-9a-f]{2}\r?$/;

function wireUsb() {
  const { mcu, cdc } = chip;
  chip.connected = false;
  parked = null;
  outLine = '';
  // rp2040js answers an armed OUT endpoint at once, with no data when the host has none; TinyUSB
  // arms it again, and the core never sleeps. A real host leaves it armed until it has something.
  const read = mcu.usbCtrl.onEndpointRead;
  chip.endpointRead = read;
  mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (chip.connected && cdc.txFIFO.itemCount === 0) {
      parked = { endpoint, size };
      return;
    }
    read(endpoint, size);
  };
  cdc.onDeviceConnected = () => {
    chip.connected = true;
    report({ ev: 'usb', t: ms(now()), wall_ms: Math.round(performance.now() - wall0) });
    feedPico();
  };
  cdc.onSerialData = (data) => {
    process.stdout.write(Buffer.from(data));
    for (const byte of data) {
      if (byte === 10) {
        const line = PROTOCOL_LINE.exec(outLine); // what came before it on the line (the REPL's) is not the protocol's
        if (line) report({ ev: 'tx', t: ms(now()), line: line[0] });
        outLine = '';
      } else if (outLine.length < 1100) outLine += String.fromCharCode(byte);
    }
  };
}

function feedPico() {
  if (!chip.connected) return;
  const { cdc } = chip;
  let n = 0;
  while (n < toPico.length && cdc.txFIFO.itemCount < cdc.txFIFO.size) cdc.sendSerialByte(toPico[n++]);
  if (n) toPico.splice(0, n);
  if (parked && cdc.txFIFO.itemCount) {
    const { endpoint, size } = parked;
    parked = null;
    chip.endpointRead(endpoint, size);
  }
}

let inLine = '';
process.stdin.on('data', (data) => {
  for (const byte of data) {
    toPico.push(byte);
    if (byte === 10) { // a host line, reported as it goes to the Pico (for the L lines' colours)
      if (/^[A-Z] [0-9a-f]{2}[ *]/.test(inLine)) report({ ev: 'rx', t: chip ? ms(now()) : 0, line: inLine.replace(/\r$/, '') });
      inLine = '';
    } else if (inLine.length < 1100) inLine += String.fromCharCode(byte);
  }
  if (chip) feedPico();
});
process.stdin.on('end', () => quit('the host side closed'));

// ---- running -------------------------------------------------------------------------------------

function boot(flash = null) {
  const sim = new Simulator();
  const mcu = sim.rp2040;
  const rom = fs.readFileSync(BOOTROM);
  mcu.loadBootrom(new Uint32Array(rom.buffer.slice(rom.byteOffset, rom.byteOffset + rom.length)));
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  loadFlash(mcu, { uf2: UF2, fsImage: option('fs', null), flash });
  patchFlashCalls(mcu);
  chip = { sim, mcu, clock: sim.clock, cdc: new USBCDC(mcu.usbCtrl), stopped: false, connected: false };
  // machine.reset() goes through the watchdog, which rp2040js only logs: start a new chip from
  // the flash as this one leaves it (the files written over the REPL stay).
  mcu.peripherals[0x40058].onWatchdogTrigger = () => {
    const old = chip;
    old.stopped = true;
    before += old.clock.nanos;
    counts.resets++;
    toPico.length = 0; // the port vanishes with the reset: what the host had sent is lost
    report({ ev: 'reset', t: ms(before), resets: counts.resets });
    setImmediate(() => boot(old.mcu.flash.slice()));
  };
  wireBoard();
  wireLeds();
  wireBuzzer();
  wireUsb();
  mcu.core.PC = 0x10000000;
  run(chip, performance.now());
}

function run(self, wallStart) {
  const { core } = self.mcu;
  const clock = self.clock;
  const slice = () => {
    if (self.stopped || self !== chip) return;
    const until = performance.now() + 15;
    const target = REALTIME ? (performance.now() - wallStart) * 1e6 : Infinity; // this chip's emulated ns
    let executed = 0;
    let spins = 0;
    while (clock.nanos < target && !self.stopped) {
      if (core.waiting) {
        const next = clock.nanosToNextAlarm;
        clock.tick(Math.max(1, Math.min(next > 0 ? next : 1e6, target - clock.nanos)));
      } else {
        clock.tick(core.executeInstruction() * NS_PER_CYCLE);
        executed++;
      }
      if ((++spins & 0x3fff) === 0 && performance.now() > until) break;
    }
    counts.instructions += executed;
    latchIfIdle();
    floatUnwired();
    feedPico();
    if (REALTIME && clock.nanos >= target) setTimeout(slice, 1);
    else setImmediate(slice);
  };
  slice();
}

// ---- control -------------------------------------------------------------------------------------

function after(emulatedMs, action) {
  const alarm = chip.clock.createAlarm(action);
  alarm.schedule(emulatedMs * 1e6);
}

function stats() {
  const t = now();
  const span = t - window.from;
  report({
    ev: 'stats', t: ms(t), wall_ms: Math.round(performance.now() - wall0), scans: window.scans,
    scans_per_s: span > 0 ? +(window.scans / (span / 1e9)).toFixed(1) : null,
    longest_gap_ms: ms(window.longest), longest_gap_at: ms(window.longestAt), since: ms(window.from),
    total_scans: counts.scans, instructions: counts.instructions, resets: counts.resets, waiting_bytes: toPico.length,
  });
  window = { scans: 0, longest: 0, longestAt: 0, from: t };
}

function pinsReport() {
  const names = ['low', 'high', 'input', 'input-pull-up', 'input-pull-down', 'input-bus-keeper'];
  const funcs = { 4: 'pwm', 5: 'sio', 6: 'pio0', 7: 'pio1', 31: 'none' };
  const one = (n) => {
    const g = chip.mcu.gpio[n];
    return { gp: n, func: funcs[g.functionSelect] ?? g.functionSelect, state: names[g.value], driven: g.outputEnable,
             pull_up: g.pullupEnabled, pull_down: g.pulldownEnabled };
  };
  report({ ev: 'pins', rows: ROWS.map(one), columns: COLS.map(one), die: one(BUTTONS.die), ok: one(BUTTONS.ok),
           led: one(LED), buzzer: one(BUZZER) });
}

function control(line) {
  const words = line.trim().split(/\s+/);
  const [what, a, b] = words;
  if (what === 'occ') {
    magnets.clear();
    for (const n of numbers(a)) magnets.add(n);
    settleColumns();
    report({ ev: 'occ', t: ms(now()) }); // when the magnets moved, for timing what the chip makes of it
  } else if (what === 'pulse') {
    const sensor = Number(a);
    const flip = () => { if (magnets.has(sensor)) magnets.delete(sensor); else magnets.add(sensor); settleColumns(); };
    const start = Number(words[3] || 0);
    const begin = () => { flip(); report({ ev: 'pulse', t: ms(now()), sensor }); after(Number(b), flip); };
    if (start > 0) after(start, begin);
    else begin();
  } else if (what === 'hold' && a in held) {
    held[a] = true;
    settleButtons();
    after(Number(b), () => { held[a] = false; settleButtons(); });
  } else if (what === 'dark') {
    if (a === undefined) dark.clear();
    else dark.add(Number(a));
  } else if (what === 'stuck') {
    if (a === undefined) stuck.clear();
    else stuck.add(Number(a));
    settleColumns();
  } else if (what === 'cut') {
    if (a === undefined) cut.clear();
    else cut.add(Number(a));
    settleColumns();
  } else if (what === 'stats') stats();
  else if (what === 'pins') pinsReport();
  else if (what === 'usb') { // bytes (hex) into the Pico's USB serial, as if the host sent them
    for (const byte of Buffer.from(a || '', 'hex')) toPico.push(byte);
    feedPico();
  } else if (what === 'gaps') gapsOver = a === undefined ? null : Number(a) * 1e6;
  else if (what === 'quit') quit('asked to');
  else if (what) report({ ev: 'error', what: `unknown control line ${JSON.stringify(line)}` });
}

function quit(why) {
  if (chip) chip.stopped = true;
  report({ ev: 'exit', why, t: chip ? ms(now()) : 0 });
  process.exit(0);
}

if (option('ctl-fd', null) !== null) {
  const lines = fs.createReadStream(null, { fd: Number(option('ctl-fd')) });
  let pending = '';
  lines.on('data', (data) => {
    pending += data.toString();
    for (let i; (i = pending.indexOf('\n')) >= 0; pending = pending.slice(i + 1)) control(pending.slice(0, i));
  });
  lines.on('error', () => {});
}
process.on('SIGTERM', () => quit('SIGTERM'));
process.on('SIGINT', () => quit('SIGINT'));

boot();
