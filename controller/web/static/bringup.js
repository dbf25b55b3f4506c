// The bring-up page: the board at the bench, live (its switches, its LEDs as the board was told
// to show them), the one-hollow test of the switch chosen, and the self-test and the calibration
// with their prompts, findings and end. The state comes over a WebSocket on every change; the
// words of the prompts and findings come from the board in the language of the page that started
// them, the page's own from the page's catalogue (i18n.js), the one-hollow guidance from
// api/hollow/NAME in the page's language. Every address is relative to the page.
import {
  LANGUAGE_NAMES, N_, _, format, language, ngettext, number, onLanguage, startLanguage, useLanguage,
} from "./i18n.js";
import { headers } from "./owner_token.js";

const $ = (selector, root = document) => root.querySelector(selector);
const SVG = "http://www.w3.org/2000/svg";
const R = 13;  // a hollow's radius on the map, in the board file's mm
const PIP_PLACES = [[28, 28], [72, 28], [28, 50], [50, 50], [72, 50], [28, 72], [72, 72]];  // the board file's order

let board = null;      // GET api/bench's "board": it does not change
let state = null;      // the last state
let clockOffset = 0;   // the page's seconds minus the board's clock, when the state came
let control = false;
let chosen = "any";
let words = null;      // the guidance of the hollow chosen, in the page's language

function showError(text) {
  const box = $("[data-role=error]");
  box.textContent = text || "";
  box.hidden = !text;
}

async function post(path, body) {
  let response;
  try {
    response = await fetch(path, { method: "POST", headers: headers(true), body: JSON.stringify(body || {}) });
  } catch (error) {
    showError(_("The board does not answer."));
    return null;
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    showError(answer.error || format(_("The board refused ({status})."), { status: response.status }));
    return null;
  }
  showError("");
  if (answer.state) receive(answer.state);
  return answer;
}

// --- the map ------------------------------------------------------------------------------------
function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

// Where each hollow is drawn: the board file's x, y (mm); a hollow without them in its matrix place.
function places() {
  const placed = board.cells.filter((c) => c.x != null && c.y != null);
  return board.cells.map((c) => (c.x != null && c.y != null ? [c, c.x, c.y]
    : [c, 40 * c.column + 30, (placed.length ? -60 : 0) - 40 * c.row]));
}

function drawBoard() {
  const svg = $("[data-role=board]");
  svg.replaceChildren();
  const spots = places();
  const xs = spots.map((s) => s[1]), ys = spots.map((s) => s[2]);
  const pad = 26;
  const minX = Math.min(...xs) - pad, maxX = Math.max(...xs) + pad;
  const minY = Math.min(...ys) - pad, maxY = Math.max(...ys) + pad;
  svg.setAttribute("viewBox", `${minX} ${-maxY} ${maxX - minX} ${maxY - minY}`);
  el("rect", { x: minX + 2, y: -maxY + 2, width: maxX - minX - 4, height: maxY - minY - 4, rx: 16, class: "wood" }, svg);
  for (const [cell, x, y] of spots) {
    const g = el("g", { "data-cell": cell.cell, class: "hollow", transform: `translate(${x} ${-y})` }, svg);
    el("circle", { r: R + 5, class: "led" }, g);
    el("circle", { r: R, class: "pit" }, g);
    el("circle", { r: R * 0.8, class: "magnet" }, g);
    const label = el("text", { y: 3.5, class: "label" }, g);
    label.textContent = cell.cell;
    const title = el("title", {}, g);
    title.textContent = cell.cell;
    g.addEventListener("click", () => hollowClicked(cell.cell));
  }
  const die = $("[data-role=die-face]");
  die.replaceChildren();
  el("rect", { x: 8, y: 8, width: 84, height: 84, rx: 14, class: "die-face" }, die);
  board.die_pips.forEach((index, k) => {
    const [x, y] = PIP_PLACES[k];
    el("circle", { cx: x, cy: y, r: 8, class: "pip", "data-led-name": `pip${k + 1}`, "data-led": index }, die);
  });
  die.style.display = board.die_pips.length ? "" : "none";
  $("[data-role=turn]").hidden = board.turn == null;
  if (board.turn != null) $("[data-led-name=turn]").dataset.led = board.turn;
  const others = $("[data-role=other-leds]");
  others.replaceChildren();
  for (const led of board.leds.filter((l) => l.name == null)) {
    const dot = document.createElement("span");
    dot.className = "dot";
    dot.dataset.led = led.index;
    dot.dataset.ledName = `led${led.index}`;
    dot.title = format(_("LED {index}"), { index: led.index });
    others.appendChild(dot);
  }
  const select = $("[data-role=hollow]");
  for (const cell of board.cells) {
    const option = document.createElement("option");
    option.value = cell.cell;
    option.textContent = cell.cell;
    select.appendChild(option);
  }
  $("[data-role=board-name]").textContent = `${board.name} · ${board.backend}`;
}

function hollowClicked(cell) {
  if (board.hands) {  // the simulated board: the click is the hand
    if (control) post("api/magnet", { cell });
    return;
  }
  choose(cell);
}

function ledOf(index) {
  if (!state || index == null) return { lit: null, blink: false };
  const colour = state.leds[index];
  return { lit: colour && colour !== "000000" ? colour : null, blink: state.blinking.includes(index) };
}

function paintLed(node, index) {
  const { lit, blink } = ledOf(index);
  if (lit) node.dataset.lit = lit; else delete node.dataset.lit;
  node.classList.toggle("blink", Boolean(lit && blink));
  node.style.setProperty("--led", lit ? `#${lit}` : "transparent");
}

const TAKE_ACTIONS = ["clear", "remove"];

function drawState() {
  const closed = new Set(state.closed);
  const flow = state.flow && state.flow.phase === "running" ? state.flow : null;
  const asked = flow && flow.prompt ? flow.prompt : null;
  const faults = new Map();
  for (const finding of (state.flow && state.flow.findings) || []) {
    for (const cell of finding.cells) faults.set(cell, (faults.get(cell) ? faults.get(cell) + "\n" : "") + finding.text);
  }
  const named = new Set(asked && asked.cells ? asked.cells : []);
  const taking = Boolean(asked && TAKE_ACTIONS.includes(asked.action));  // pieces to take away, not to put
  for (const cell of board.cells) {
    const g = $(`[data-cell="${CSS.escape(cell.cell)}"]`);
    g.dataset.closed = closed.has(cell.sensor) ? "true" : "false";
    paintLed(g, cell.led);
    const about = Boolean(asked && (asked.cell === cell.cell || named.has(cell.cell)));
    g.classList.toggle("asked", about && !taking);
    g.classList.toggle("take", about && taking);
    g.classList.toggle("chosen", chosen === cell.cell);
    g.classList.toggle("fault", faults.has(cell.cell));
    const where = _("{cell}: sensor {sensor} (row {row}, column {column}), LED {led}");
    g.querySelector("title").textContent = faults.get(cell.cell) || format(where, cell);
  }
  for (const node of document.querySelectorAll("[data-led-name]")) {
    if (node.closest("[data-cell]")) continue;
    paintLed(node, Number(node.dataset.led));
    node.classList.toggle("asked", Boolean(asked && asked.cell === node.dataset.ledName));
    node.classList.toggle("fault", faults.has(node.dataset.ledName));
  }
  const presses = state.presses || {};
  $("[data-role=presses]").textContent = format(_("ok {ok}, die {die}"), { ok: presses.ok || 0, die: presses.die || 0 });
  const link = $("[data-role=link]");
  const lost = state.link && !state.link.startsWith("connected");
  link.hidden = !lost;
  if (lost) link.textContent = format(_("The board is not there: {why}"), { why: state.link });
}

// --- the guides -----------------------------------------------------------------------------------
const FLOW_TITLES = { selftest: N_("Self-test"), calibration: N_("Calibration") };
const PHASES = { running: N_("running"), done: N_("done"), stopped: N_("stopped"), failed: N_("failed") };

const OK_ACTIONS = ["ok", "find", "pick", "hear", "clear"];

function drawFlow() {
  const flow = state.flow;
  const box = $("[data-role=guide]");
  const running = Boolean(flow && flow.phase === "running");
  box.dataset.phase = flow ? flow.phase : "none";
  box.dataset.flow = flow ? flow.kind : "";
  $("[data-role=guide-title]").textContent = flow ? `${_(FLOW_TITLES[flow.kind])}: ${_(PHASES[flow.phase])}`
    : _("Self-test and calibration");
  for (const kind of ["selftest", "calibration"]) $(`[data-role=start-${kind}]`).disabled = running || !control;
  const prompt = $("[data-role=prompt]");
  const p = running && flow.prompt ? flow.prompt : null;
  prompt.hidden = !p;
  prompt.textContent = p ? p.text : "";
  prompt.dataset.action = p ? p.action : "";
  prompt.dataset.target = p && p.cell ? p.cell : "";  // the hollow, pip or turn light asked about
  prompt.dataset.targetLed = p && p.led != null ? p.led : "";
  prompt.dataset.serial = p ? p.serial : "";
  prompt.dataset.button = p && p.button ? p.button : "";
  $("[data-role=guide-buttons]").hidden = !running;
  // the buttons the prompt asks for: ok (yes, lit, heard, go on) and the die button (no, nothing happens)
  const wantsOk = Boolean(p && (p.button ? p.button === "ok" : OK_ACTIONS.includes(p.action)));
  const wantsDie = Boolean(p && p.button === "die");
  $("[data-role=ok]").classList.toggle("wanted", wantsOk);
  $("[data-role=die]").classList.toggle("wanted", wantsDie);
  for (const role of ["ok", "die", "stop"]) $(`[data-role=${role}]`).disabled = !control;
  const findings = (flow && flow.findings) || [];
  $("[data-role=findings-box]").hidden = !findings.length || Boolean(flow && flow.result);
  const list = $("[data-role=findings]");
  list.replaceChildren(...findings.map((f) => {
    const li = document.createElement("li");
    li.dataset.kind = f.kind;
    li.textContent = f.text;
    return li;
  }));
  const result = $("[data-role=result]");
  result.hidden = !(flow && flow.result);
  if (flow && flow.result) {
    result.dataset.ok = flow.result.ok ? "true" : "false";
    $("[data-role=summary]").textContent = flow.result.summary;
    $("[data-role=result-lines]").replaceChildren(...flow.result.lines.map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }));
  }
}

// --- the one-hollow test ----------------------------------------------------------------------------
function choose(name) {
  chosen = name;
  $("[data-role=hollow]").value = name;
  loadWords();
  if (state) { drawState(); drawSwitch(); }
}

async function loadWords() {
  const asked = chosen;
  try {
    const response = await fetch(`api/hollow/${encodeURIComponent(asked)}`, { headers: headers(false) });
    if (response.ok && asked === chosen) words = await response.json();
  } catch (error) { /* shown again at the next choice */ }
  drawWords();
}

function drawWords() {
  $("[data-role=expect]").textContent = words ? words.expect : "";
  $("[data-role=if-open]").replaceChildren(...(words ? words.if_open : []).map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
  $("[data-role=if-neighbour]").textContent = words ? words.if_neighbour : "";
}

function shownSwitch() {
  if (chosen !== "any") return board.cells.find((c) => c.cell === chosen).sensor;
  return state.last;
}

function switchLabel(sensor) {
  const cell = board.cells.find((c) => c.sensor === sensor);
  const row = Math.floor(sensor / board.columns), column = sensor % board.columns;
  if (cell) return format(_("{cell} · sensor {sensor} · row {row}, column {column}"), { cell: cell.cell, sensor, row, column });
  return format(_("sensor {sensor} · row {row}, column {column} · under no hollow"), { sensor, row, column });
}

function seconds(value) { return format(_("{seconds} s"), { seconds: number(value, 2) }).replace(" ", "\u00a0"); }

function drawSwitch() {
  const box = $("[data-role=switch-state]");
  const sensor = shownSwitch();
  if (sensor == null) {
    box.dataset.closed = "none";
    $("[data-role=switch-now]").textContent = _("waiting");
    $("[data-role=switch-name]").textContent = _("put a magnet in any hollow");
    $("[data-role=switch-count]").textContent = "";
    $("[data-role=switch-time]").textContent = "";
    return;
  }
  const count = state.counts[String(sensor)] || { closed: state.closed.includes(sensor), closes: 0, held: 0, since: null };
  box.dataset.closed = count.closed ? "true" : "false";
  box.dataset.sensor = sensor;
  box.dataset.closes = count.closes;
  $("[data-role=switch-now]").textContent = count.closed ? _("closed") : _("open");
  $("[data-role=switch-name]").textContent = switchLabel(sensor);
  $("[data-role=switch-count]").textContent = ngettext("closed {n} time", "closed {n} times", count.closes);
  drawTime(count);
}

function drawTime(count) {
  let held = count.held;
  if (count.closed && count.since != null) held += Math.max(0, performance.now() / 1000 - clockOffset - count.since);
  const last = count.last_held != null ? format(_("last close {seconds}"), { seconds: seconds(count.last_held) }) : "";
  const lines = [format(_("{seconds} closed in all"), { seconds: seconds(held) }), last].filter(Boolean);
  $("[data-role=switch-time]").replaceChildren(...lines.map((line) => {
    const span = document.createElement("span");
    span.textContent = line;
    return span;
  }));
}

function tick() {  // the time a closed switch has been closed goes on between two states
  if (state && board) {
    const sensor = shownSwitch();
    const count = sensor != null ? state.counts[String(sensor)] : null;
    if (count && count.closed) drawTime(count);
  }
  setTimeout(tick, 100);
}

// --- the state, live ------------------------------------------------------------------------------
function receive(next) {
  if (state && next.version < state.version) return;  // an older answer that came late
  state = next;
  clockOffset = performance.now() / 1000 - state.now;
  drawState();
  drawFlow();
  drawSwitch();
}

let retry = 300;
function connect() {
  const url = new URL("ws", location.href);
  url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(url);
  const shown = $("[data-role=connection]");
  socket.onopen = () => { retry = 300; shown.dataset.state = "live"; shown.textContent = _("live"); };
  socket.onmessage = (event) => { receive(JSON.parse(event.data).state); };
  socket.onclose = () => {
    shown.dataset.state = "down";
    shown.textContent = _("reconnecting");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

function wire() {
  $("[data-role=start-selftest]").addEventListener("click", () => post("api/start", { flow: "selftest" }));
  $("[data-role=start-calibration]").addEventListener("click", () => post("api/start", { flow: "calibration" }));
  $("[data-role=ok]").addEventListener("click", () => post("api/press", { button: "ok" }));
  $("[data-role=die]").addEventListener("click", () => post("api/press", { button: "die" }));
  $("[data-role=stop]").addEventListener("click", () => post("api/stop"));
  $("[data-role=reset]").addEventListener("click", () => post("api/reset"));
  $("[data-role=hollow]").addEventListener("change", (event) => choose(event.target.value));
  const select = $("[data-role=language]");
  for (const [code, name] of Object.entries(LANGUAGE_NAMES)) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    select.appendChild(option);
  }
  select.addEventListener("change", () => useLanguage(select.value, true));
  onLanguage(() => {
    select.value = language();
    loadWords();
    if (board) drawBoardWords();
    if (state) { drawState(); drawFlow(); drawSwitch(); }
  });
}

function drawBoardWords() {
  $("[data-role=map-hint]").textContent = board.hands
    ? _("The simulated board: a click on a hollow puts a magnet in it, or takes it out.")
    : _("A click on a hollow tests its switch.");
  for (const dot of document.querySelectorAll("[data-role=other-leds] .dot")) {
    dot.title = format(_("LED {index}"), { index: dot.dataset.led });
  }
}

async function start() {
  wire();
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && Object.keys(LANGUAGE_NAMES).includes(asked)) await useLanguage(asked, true);
  else await startLanguage();
  const [bench, auth] = await Promise.all([
    fetch("api/bench", { headers: headers(false) }).then((r) => r.json()),
    fetch("api/auth", { headers: headers(false) }).then((r) => r.json()).catch(() => ({ control: false })),
  ]);
  control = Boolean(auth.control);
  $("[data-role=watching]").hidden = control;
  $("[data-role=reset]").disabled = !control;
  board = bench.board;
  drawBoard();
  drawBoardWords();
  receive(bench.state);
  loadWords();
  connect();
  tick();
  document.body.dataset.ready = "true";
}

start();
