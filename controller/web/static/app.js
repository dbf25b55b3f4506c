// reedboard's web view: draws the board in SVG from the session's snapshots (pushed over a
// WebSocket) and sends the page's actions as JSON POSTs. Plain JS, no build step.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const U = 64;                       // px between two neighbouring hollows
const H = Math.sqrt(3) / 2;
const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

const state = {
  snap: null, seq: 0, control: false, tokenRequired: false, token: null,
  boards: new Map(),                // svg element -> drawn board (cells, key)
  replay: null, ply: 0, ws: null, retry: 500,
  rules: new Map(), rulesGame: null, // game -> its rules page (from /api/rules), the one shown
  clockAt: 0,                       // performance.now() when the snapshot with the clock came
  heard: null, cueN: null,          // what was announced and sounded so far (null: nothing yet)
  catalog: [],                      // the registry's games (GET /api/catalog), when the snapshot has none
  examples: new Map(),              // game -> a geometry from its rules page, when the snapshot has none
};

// --- the games: the snapshot's list of the registry's games, or the catalog the page asked for ----
function games() { return (state.snap && state.snap.games) || state.catalog || []; }

// What the page knows of a game: the snapshot's entry over the catalog's (either may lack a key).
function gameInfo(name) {
  const fallback = { name, title: name, uses_die: true, setup_modes: [], options: [] };
  const listed = (list) => (list || []).find((g) => g.name === name) || {};
  return { ...fallback, ...listed(state.catalog), ...listed(state.snap && state.snap.games) };
}

async function loadCatalog() {
  try {
    const response = await fetch("/api/catalog");
    if (response.ok) state.catalog = await response.json();
  } catch (error) { /* the snapshot's list, when it has one, is used */ }
  renderGameChoices();
}

// --- the token (served beyond localhost): from ?token=..., kept for this tab --------------------
(function takeToken() {
  const params = new URLSearchParams(location.search);
  const token = params.get("token");
  if (token) {
    sessionStorage.setItem("reedboard-token", token);
    params.delete("token");
    const rest = params.toString();
    history.replaceState(null, "", location.pathname + (rest ? "?" + rest : "") + location.hash);
  }
  state.token = sessionStorage.getItem("reedboard-token");
})();

function headers(json) {
  const h = {};
  if (json) h["Content-Type"] = "application/json";
  if (state.token) h["X-Reedboard-Token"] = state.token;
  return h;
}

async function post(path, body) {
  let response;
  try {
    response = await fetch(path, { method: "POST", headers: headers(true), body: JSON.stringify(body || {}) });
  } catch (error) {
    toast("no connection to the board");
    return null;
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    toast(data.error || response.statusText);
    return null;
  }
  if (data && data.seq) render(data);
  return data;
}

function toast(text) {
  const el = $("[data-role=toast]");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 3500);
}

// --- geometry --------------------------------------------------------------------------------------
// Every board is drawn from the geometry the server sends (Game.geometry()): each cell's [x, y]
// in hollow pitches (y downwards), the outline's corner cells, the rim sectors' points, the cell
// to label as the goal, and the colours of single-letter marbles. `shape` picks the drawing.
const SHAPES = {
  triangle: { margin: 1.45 },   // the wood around the outer hollows, in pitches
  hexagon: { margin: 1.45 },
};
const SECTOR_MARGIN = 2.45;  // a board with scoring troughs on its rim needs room for them

const scaled = ([x, y]) => [x * U, y * U];

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// A polygon around the outer centres, pushed out by `out` (in px) from the centroid.
function grown(corners, out) {
  const cx = corners.reduce((s, p) => s + p[0], 0) / corners.length;
  const cy = corners.reduce((s, p) => s + p[1], 0) / corners.length;
  return corners.map(([x, y]) => {
    const dx = x - cx, dy = y - cy, len = Math.hypot(dx, dy);
    return [x + dx / len * out, y + dy / len * out];
  });
}

const pts = (list) => list.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");

// Gradients, patterns and filters, once for every board on the page (a definition inside a
// hidden board would not paint the others).
function ensureDefs() {
  if (document.getElementById("board-defs")) return;
  const holder = document.createElementNS(SVGNS, "svg");
  holder.id = "board-defs";
  holder.setAttribute("aria-hidden", "true");
  holder.setAttribute("width", "0");
  holder.setAttribute("height", "0");
  holder.style.position = "absolute";
  document.body.prepend(holder);
  const d = el("defs", {}, holder);
  d.innerHTML = `
    <radialGradient id="g-black" cx="35%" cy="30%" r="75%">
      <stop offset="0" stop-color="#6b6f78"/><stop offset=".45" stop-color="#24262b"/><stop offset="1" stop-color="#0b0c0e"/>
    </radialGradient>
    <radialGradient id="g-white" cx="35%" cy="30%" r="75%">
      <stop offset="0" stop-color="#ffffff"/><stop offset=".6" stop-color="#ece6d8"/><stop offset="1" stop-color="#b9b09c"/>
    </radialGradient>
    <radialGradient id="g-ball" cx="35%" cy="30%" r="80%">
      <stop offset="0" stop-color="#f3f6fb"/><stop offset=".35" stop-color="#9aa9bd"/><stop offset="1" stop-color="#3c4a5e"/>
    </radialGradient>
    <radialGradient id="g-red" cx="35%" cy="30%" r="75%">
      <stop offset="0" stop-color="#ff9a8a"/><stop offset=".4" stop-color="#d8262c"/><stop offset="1" stop-color="#6e0c12"/>
    </radialGradient>
    <radialGradient id="g-yellow" cx="35%" cy="30%" r="75%">
      <stop offset="0" stop-color="#fff6c2"/><stop offset=".4" stop-color="#f5c518"/><stop offset="1" stop-color="#8a6400"/>
    </radialGradient>
    <radialGradient id="g-hollow" cx="50%" cy="40%" r="60%">
      <stop offset="0" stop-color="#2a1a0e"/><stop offset=".8" stop-color="#3b2615"/><stop offset="1" stop-color="#5a3b20"/>
    </radialGradient>
    <linearGradient id="g-wood" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#c89058"/><stop offset=".5" stop-color="#a8703e"/><stop offset="1" stop-color="#8a5a30"/>
    </linearGradient>
    <pattern id="p-grain" width="220" height="18" patternUnits="userSpaceOnUse" patternTransform="rotate(-8)">
      <path d="M0 6 C55 2 110 10 220 5" stroke="#7a4a22" stroke-opacity=".18" fill="none" stroke-width="2"/>
      <path d="M0 14 C70 11 140 17 220 13" stroke="#e8b27a" stroke-opacity=".10" fill="none" stroke-width="1.5"/>
    </pattern>
    <filter id="f-glow" x="-60%" y="-60%" width="220%" height="220%">
      <feGaussianBlur stdDeviation="5"/>
    </filter>
    <marker id="m-arrow" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="3.2" markerHeight="3.2" orient="auto-start-reverse">
      <path d="M0 0 L10 5 L0 10 z" fill="#fff3d6"/>
    </marker>
    <filter id="f-shadow" x="-40%" y="-40%" width="180%" height="180%">
      <feDropShadow dx="1.5" dy="3" stdDeviation="2.2" flood-color="#000" flood-opacity=".55"/>
    </filter>`;
}

// Draw an empty board (wood, hollows, sectors) from its geometry; returns what paint() needs.
function buildBoard(svg, geometry, cells, players) {
  svg.innerHTML = "";
  ensureDefs();
  const shape = SHAPES[geometry.shape] || SHAPES.hexagon;
  const place = geometry.cells || {};
  const xy = (cell) => scaled(place[cell] || [0, 0]);
  const board = { cells: new Map(), sectorAt: new Map(), look: { marbles: geometry.marbles || {}, players: players || [] } };
  const frame = el("g", { class: "frame" }, svg);
  const corners = (geometry.outline || []).map(scaled);
  const sectors = geometry.sectors || [];
  const outline = grown(corners, (sectors.length ? SECTOR_MARGIN : shape.margin) * U);
  el("polygon", { points: pts(outline), class: "wood-edge" }, frame);
  el("polygon", { points: pts(outline), class: "wood" }, frame);
  el("polygon", { points: pts(outline), class: "grain" }, frame);
  el("polygon", { points: pts(grown(corners, 0.62 * U)), class: "inlay" }, frame);
  if (geometry.goal && place[geometry.goal]) {
    const [ax, ay] = xy(geometry.goal);
    el("text", { x: ax, y: ay - 0.62 * U, class: "goal-label" }, frame).textContent = geometry.goal;
  }
  if (sectors.length) {
    const cx = corners.reduce((s, p) => s + p[0], 0) / corners.length;
    const cy = corners.reduce((s, p) => s + p[1], 0) / corners.length;
    for (const sector of sectors) drawSector(frame, sector, cx, cy, board);
  }
  const xs = outline.map((p) => p[0]), ys = outline.map((p) => p[1]);
  const pad = 0.45 * U;
  const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
  svg.setAttribute("viewBox", `${minX.toFixed(0)} ${minY.toFixed(0)} ${(Math.max(...xs) - minX + pad).toFixed(0)} ${(Math.max(...ys) - minY + pad).toFixed(0)}`);

  const layer = el("g", { class: "cells" }, svg);
  for (const cell of cells) {
    const [x, y] = board.sectorAt.get(cell) || xy(cell);
    const g = el("g", { class: "cell", "data-cell": cell, "data-light": "", "data-piece": "", transform: `translate(${x.toFixed(1)} ${y.toFixed(1)})` }, layer);
    el("circle", { class: "glow", r: 0.56 * U }, g);
    el("circle", { class: "ring", r: 0.43 * U }, g);
    el("circle", { class: "hollow", r: 0.34 * U }, g);
    el("text", { class: "name", y: 4 }, g).textContent = cell;
    const piece = el("g", { class: "piece" }, g);
    el("circle", { class: "hit", r: 0.5 * U }, g);
    board.cells.set(cell, { g, piece, key: "", x, y });
  }
  // between the rim's hollows and its troughs, where a board has troughs
  const rim = el("g", { class: sectors.length ? "rim tight" : "rim" }, svg);
  drawRimLabels(rim, cells.filter((c) => !board.sectorAt.has(c) && place[c]), xy, sectors.length ? 0.66 : 0.8);
  return board;
}

// The rim's names for boards whose hollows are named by a letter and a number (a1, C4): each
// letter beside the first hollow of its row, each number beyond the first hollow of its line,
// so that a move such as C4C5D5 can be found with pieces on every hollow.
function drawRimLabels(frame, cells, xy, out) {
  const named = cells.map((c) => /^([A-Za-z])(\d+)$/.exec(c));
  if (!named.length || named.some((m) => !m)) return;
  const groups = (key, order) => {
    const by = new Map();
    for (const m of named) {
      if (!by.has(key(m))) by.set(key(m), []);
      by.get(key(m)).push(m);
    }
    for (const [text, line] of by) {
      if (line.length < 2) continue;
      line.sort((a, b) => order(a) - order(b));
      const [x0, y0] = xy(line[0][0]), [x1, y1] = xy(line[1][0]);
      const len = Math.hypot(x0 - x1, y0 - y1) || 1;
      const at = [x0 + (x0 - x1) / len * out * U, y0 + (y0 - y1) / len * out * U];
      el("text", { x: at[0].toFixed(1), y: at[1].toFixed(1), class: "rim-label", "data-rim": text }, frame).textContent = text;
    }
  };
  groups((m) => m[1], (m) => Number(m[2]));
  groups((m) => m[2], (m) => m[1].toLowerCase().charCodeAt(0));
}

function drawSector(frame, sector, cx, cy, board) {
  // the sector's rim points in order along the rim (by angle, starting after the widest gap)
  let points = sector.points.map(scaled).map(([x, y]) => ({ x, y, a: Math.atan2(y - cy, x - cx) }));
  points.sort((p, q) => p.a - q.a);
  if (points.length > 1) {
    let gap = -1, at = 0;
    for (let i = 0; i < points.length; i++) {
      const next = points[(i + 1) % points.length];
      let g = next.a - points[i].a;
      if (g <= 0) g += 2 * Math.PI;
      if (g > gap) { gap = g; at = (i + 1) % points.length; }
    }
    points = points.slice(at).concat(points.slice(0, at));
  }
  const line = points.map((p) => [p.x, p.y]);
  if (line.length === 1) line.push([line[0][0] + 0.01, line[0][1]]);
  const mx = points.reduce((s, p) => s + p.x, 0) / points.length;
  const my = points.reduce((s, p) => s + p.y, 0) / points.length;
  const dx = mx - cx, dy = my - cy, len = Math.hypot(dx, dy);
  const ux = dx / len, uy = dy / len;
  const g = el("g", { class: `sector v${Math.min(sector.value, 3)}` }, frame);
  el("polyline", { points: pts(line), class: "trough" }, g);
  const lx = mx + ux * 0.72 * U, ly = my + uy * 0.72 * U;
  el("circle", { cx: lx, cy: ly, r: 0.22 * U, class: "value-badge" }, g);
  el("text", { x: lx, y: ly + 1, class: "value" }, g).textContent = `${sector.value}`;
  board.sectorAt.set(sector.name, [mx, my]);
}

// --- pieces ------------------------------------------------------------------------------------------
// A piece code (Game.pieces()): "ball" a neutral big ball; one capital a marble, coloured as the
// geometry's `marbles` say; a capital and a number (or "?": not identified yet) a numbered stone
// of the player whose colour starts with that letter.
const MARBLE_GRADIENTS = new Set(["red", "yellow", "black", "white"]);

function stoneColour(letter, look) {
  const player = ((look && look.players) || []).find((p) => p[0].toUpperCase() === letter);
  return player || (letter === "B" ? "black" : "white");
}

function pieceSVG(piece, cls, look) {
  if (!piece) return "";
  const r = 0.31 * U;
  if (piece === "ball") {
    return `<g class="pc ball ${cls}"><circle r="${0.4 * U}" fill="url(#g-ball)" class="body"/>`
      + `<ellipse cx="${-0.13 * U}" cy="${-0.15 * U}" rx="${0.1 * U}" ry="${0.06 * U}" fill="#fff" opacity=".7"/></g>`;
  }
  const marbles = (look && look.marbles) || {};
  if (marbles[piece]) {
    const colour = MARBLE_GRADIENTS.has(marbles[piece]) ? marbles[piece] : "ball";
    return `<g class="pc marble ${escapeHTML(colour)} ${cls}"><circle r="${0.35 * U}" fill="url(#g-${colour})" class="body"/>`
      + `<ellipse cx="${-0.11 * U}" cy="${-0.13 * U}" rx="${0.09 * U}" ry="${0.055 * U}" fill="#fff" opacity=".65"/></g>`;
  }
  const colour = stoneColour(piece[0], look), number = piece.slice(1);
  const fill = MARBLE_GRADIENTS.has(colour) ? colour : "ball";
  const unknown = number === "?" ? " unknown" : "";  // identify set-up: the number is not known yet
  return `<g class="pc stone ${escapeHTML(colour)}${unknown} ${cls}"><circle r="${r}" fill="url(#g-${fill})" class="body"/>`
    + `<text class="num" y="1">${escapeHTML(number)}</text></g>`;
}

function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// What a cell shows: the piece the controller believes is there; on the simulated board also
// what physically stands there when it differs (lifted: a ghost; put down but not yet taken
// as a move: a dashed piece); in the set-up, the piece still expected (a faint outline).
function cellPicture(info, sim, look) {
  const believed = info.piece || "", there = sim ? (info.sim || "") : believed, expected = info.expect || "";
  if (believed && there === believed) return pieceSVG(believed, "", look);
  // identify set-up: the stone stands there, only its number is not known yet
  if (believed.endsWith("?") && there && there[0] === believed[0]) {
    return pieceSVG(believed, "", look) + pieceSVG(there, "pending small", look);
  }
  let out = "";
  if (believed) out += pieceSVG(believed, "lifted", look);
  else if (expected && !there) out += pieceSVG(expected, "expected", look);
  if (there) out += pieceSVG(there, believed ? "pending small" : "pending", look);
  return out;
}

function paint(board, cells, palette, sim) {
  for (const [cell, entry] of board.cells) {
    const info = cells[cell] || { piece: "", light: "" };
    const g = entry.g;
    g.dataset.light = info.light || "";
    g.dataset.piece = info.piece || "";
    g.dataset.blink = info.blink ? "1" : "";
    if (sim) g.dataset.sim = info.sim || ""; else delete g.dataset.sim;
    const colour = info.light ? lightColour(info.light, palette) : "transparent";
    g.style.setProperty("--light", colour);
    const key = `${info.piece}|${sim ? info.sim : ""}|${info.expect || ""}|${sim}`;
    if (key !== entry.key) {
      entry.piece.innerHTML = cellPicture(info, sim, board.look);
      entry.key = key;
    }
    g.classList.toggle("occupied", Boolean(info.piece || info.expect || (sim && info.sim)));
  }
}

function lightColour(name, palette) {
  if (name === "last") return "rgba(255,255,255,.55)";   // dim white on the LEDs; visible on screen
  return (palette && palette[name]) || "#fff";
}

// --- the live view ------------------------------------------------------------------------------------
function render(snap) {
  if (!snap || !snap.seq || snap.seq <= state.seq) return;
  state.seq = snap.seq;
  state.snap = snap;
  renderLink(snap.link);
  if (!snap.cells) return;
  drawLive(snap);
  document.body.dataset.game = snap.game;
  document.body.dataset.die = gameInfo(snap.game).uses_die ? "1" : "";
  document.body.dataset.phase = snap.phase;
  $("[data-role=game-name]").textContent = `· ${gameInfo(snap.game).title}`;

  // turn
  const over = snap.phase === "over";
  const turnLight = $("[data-role=turn-light]");
  turnLight.style.background = snap.turn_light ? lightColour(snap.turn_light, snap.palette) : "#2b3036";
  turnLight.dataset.colour = snap.turn_light || "";
  const settingUp = snap.phase === "setup" || snap.phase === "identify";
  $("[data-role=turn]").textContent = over ? "game over" : settingUp ? "setting up" : `${snap.turn} to move`;
  $("[data-role=phase]").textContent = {
    setup: `${snap.turn} moves first`, identify: "identifying the stones", play: "", rolled: `rolled ${snap.roll}`,
    over: "",
  }[snap.phase] || "";

  // die
  renderDie(snap);

  // score
  const scoreCard = $("[data-role=score-card]");
  scoreCard.hidden = !snap.score;
  if (snap.score) {
    $("[data-role=score]").innerHTML = snap.players.map((p) =>
      `<span class="score-${escapeHTML(p)}" data-player="${escapeHTML(p)}"><i></i>${escapeHTML(p)}`
      + ` <b>${escapeHTML(snap.score[p])}</b></span>`).join("");
    $("[data-role=waiting]").textContent = snap.waiting ? `a ${snap.waiting} ball waits to be put back` : "";
  }

  // messages
  const message = $("[data-role=message]");
  $("[data-role=status]").textContent = snap.error || snap.message;
  const latest = snap.notes && snap.notes[0] ? snap.notes[0].text : "";
  $("[data-role=event]").textContent = latest && latest !== snap.message ? latest : "";
  message.dataset.kind = messageKind(snap);
  message.dataset.prompt = (snap.prompt || {}).kind || "";

  // the game clock
  renderClock(snap);

  // record
  $("[data-role=header]").innerHTML = (snap.header || []).slice(1).map((l) => `<div>${escapeHTML(l)}</div>`).join("");
  renderRecord($("[data-role=record]"), snap.record, snap.players, snap.record.length - 1);
  $("[data-role=result]").textContent = snap.outcome ? `${snap.outcome.line}` : "";
  renderPlayers(snap);
  renderOver(snap);
  renderFirstGame(snap);

  // notes
  $("[data-role=notes]").innerHTML = (snap.notes || []).map((n) =>
    `<li><span class="t">${Number(n.t).toFixed(1)}s</span> ${escapeHTML(n.text)}</li>`).join("");
  $("[data-role=journal]").textContent = snap.journal ? `journal: ${snap.journal}` : "";
  announce(snap);

  // hands and box (simulated board)
  renderTray(snap);

  // controls
  const resign = $$("[data-action=resign]");
  snap.players.forEach((p, i) => {
    resign[i].dataset.player = p;
    resign[i].textContent = `${cap(p)} resigns`;
    resign[i].hidden = Boolean(snap.computer && snap.computer.plays === p);  // the computer never gives up
  });
  const playing = snap.phase === "play" || snap.phase === "rolled";
  for (const b of resign) b.disabled = !state.control || !playing;
  $("[data-action=draw]").disabled = !state.control || !playing;
  const computersTurn = snap.prompt && snap.prompt.kind === "computer";
  $("[data-action=hint]").disabled = !state.control || !playing || computersTurn;
  document.body.dataset.thinking = snap.thinking ? "1" : "";
  $("[data-action=die]").disabled = !state.control || snap.phase !== "play";
  $("[data-action=ok]").disabled = !state.control || !snap.running;
  renderNewGame(snap);
  document.body.dataset.control = state.control ? "1" : "";
  positionCursor();
}

// Beside the board: what each light lit now means, and how the hands make this game's moves.
function renderFirstGame(snap) {
  const page = state.rules.get(snap.game);
  if (!page) {  // drawn when the game's rules page arrives
    rulesPage(snap.game).then((p) => { if (p && state.snap && state.snap.game === p.game) renderFirstGame(state.snap); });
    return;
  }
  const hands = $("[data-role=guide-hands]");
  if (hands.dataset.game !== page.game) {
    hands.innerHTML = (page.hands || []).map((point) => `<li>${escapeHTML(point)}</li>`).join("");
    hands.dataset.game = page.game;
  }
  const lit = new Set(Object.values(snap.cells || {}).map((c) => c.light).filter(Boolean));
  const palette = { ...page.palette, ...snap.palette };
  const rows = page.lights.filter((light) => lit.has(light.name));
  const key = rows.map((l) => l.name).join(",");
  const now = $("[data-role=lights-now]");
  if (now.dataset.lights === key && now.dataset.game === page.game) return;
  now.innerHTML = rows.length ? rows.map((light) => {
    const colour = light.name === "last" ? lightColour("last", palette) : palette[light.name] || light.colour || "";
    return `<div class="light-now" data-light-now="${escapeHTML(light.name)}">${lightSwatch(light.name, colour, light.blink)}`
      + `<div><b>${escapeHTML(light.look)}</b> ${escapeHTML(light.means)} <span class="muted">${escapeHTML(light.do)}</span></div></div>`;
  }).join("") : `<p class="empty-note">No hollow is lit: nothing to put right.</p>`;
  now.dataset.lights = key;
  now.dataset.game = page.game;
}

// Who plays: each side's name (or colour), the computer's side with its level.
function sideName(snap, p) {
  if (snap.computer && snap.computer.plays === p) return `the computer, level ${snap.computer.level}`;
  return (snap.names || {})[p] || "";
}

function renderPlayers(snap) {
  const line = $("[data-role=players]");
  const named = snap.players.some((p) => sideName(snap, p));
  line.innerHTML = !named ? "" : snap.players.map((p) => {
    const name = sideName(snap, p);
    return `<span class="side" data-player="${escapeHTML(p)}"><i></i>${escapeHTML(cap(p))}`
      + `${name ? `: <b>${escapeHTML(name)}</b>` : ""}</span>`;
  }).join(" ");
  line.dataset.computer = snap.computer ? String(snap.computer.level) : "";
}

// The end: who won and why, in words, and the next game a click away.
function renderOver(snap) {
  const card = $("[data-role=over]");
  const outcome = snap.phase === "over" ? snap.outcome : null;
  card.hidden = !outcome;
  if (!outcome) return;
  const winner = outcome.winner;
  const who = winner ? (sideName(snap, winner) ? `${cap(winner)} (${sideName(snap, winner)})` : cap(winner)) : "";
  $("[data-role=over-title]").textContent = winner ? `${who} wins` : "A draw";
  $("[data-role=over-words]").textContent = `${outcome.words || outcome.reason} · ${outcome.result}`;
  $("[data-action=again]").disabled = !state.control;
  $("[data-action=other-game]").disabled = !state.control;
}

// The live board, drawn again when its geometry changes, then painted with the snapshot's cells.
function drawLive(snap) {
  const geometry = snap.geometry || exampleGeometry(snap.game);
  if (!geometry) return;  // drawn when the example geometry arrives
  const svg = $("#board");
  const key = [snap.game, snap.order.join(","), geometry.shape, JSON.stringify(geometry.sectors || [])].join("|");
  let board = state.boards.get(svg);
  if (!board || board.key !== key) {
    board = buildBoard(svg, geometry, snap.order, snap.players);
    board.key = key;
    state.boards.set(svg, board);
  }
  paint(board, snap.cells, snap.palette, snap.sim);
}

// A snapshot without geometry: the geometry of the game's first rules diagram (its start).
function exampleGeometry(game) {
  if (state.examples.has(game)) return state.examples.get(game);
  state.examples.set(game, null);
  rulesPage(game).then((page) => {
    if (!page || !page.diagrams.length) return;
    state.examples.set(game, page.diagrams[0].geometry);
    if (state.snap && state.snap.game === game && !state.snap.geometry) drawLive(state.snap);
  });
  return null;
}

// The board's link: a banner while it is lost (the lights cannot say that the board is gone).
function renderLink(link) {
  const banner = $("[data-role=link]");
  if (!banner) return;
  const lost = !!link && link.state === "lost";
  banner.hidden = !lost;
  banner.dataset.state = link ? link.state : "";
  banner.textContent = lost ? link.text : "";
}

// --- the new-game form ------------------------------------------------------------------------------
// The games, their set-up modes and their start options come from the registry (the snapshot's
// "games", or the catalog); an option with choices is a select, a free-text one (a file) is only
// for the command line.
const SETUP_LABELS = { auto: "as the board is", shuffle: "guided shuffle", identify: "identify the stones" };

function renderGameChoices() {
  const list = games();
  const names = list.map((g) => g.name).join(",");
  const choices = $("[data-role=game-choices]");
  if (choices && choices.dataset.names !== names) {
    const chosen = $("[data-role=new-game]").elements.game;
    const keep = chosen && chosen.value;
    choices.innerHTML = list.map((g) =>
      `<label><input type="radio" name="game" value="${escapeHTML(g.name)}"> ${escapeHTML(g.title)}</label>`).join("");
    choices.dataset.names = names;
    if (keep) setRadio($("[data-role=new-game]"), "game", keep);
  }
  const switcher = $("[data-role=rules-games]");
  if (switcher && switcher.dataset.names !== names) {
    switcher.innerHTML = list.map((g) =>
      `<button type="button" data-rules-game="${escapeHTML(g.name)}">${escapeHTML(g.title)}</button>`).join("");
    switcher.dataset.names = names;
    if (state.rulesGame) markRulesGame(state.rulesGame);
  }
}

// The sides of the game chosen in the form: which one the computer plays, and a name for each.
function renderSides(form, snap) {
  const chosen = (form.elements.game && form.elements.game.value) || snap.game;
  const info = gameInfo(chosen) || {};
  const players = chosen === snap.game ? snap.players : (info.players || snap.players);
  const select = $("[data-role=computer-plays]", form);
  const key = players.join(",");
  if (select.dataset.players !== key) {
    const kept = select.value;
    select.innerHTML = players.map((p) => `<option value="${escapeHTML(p)}">${escapeHTML(cap(p))}</option>`).join("");
    select.value = players.includes(kept) ? kept : players[players.length - 1];
    select.dataset.players = key;
    const names = $("[data-role=names]", form);
    const typed = Object.fromEntries($$("input[data-name]", names).map((i) => [i.dataset.name, i.value]));
    names.innerHTML = "<legend>Players' names</legend>" + players.map((p) =>
      `<label>${escapeHTML(cap(p))} <input type="text" maxlength="40" data-name="${escapeHTML(p)}"`
      + ` value="${escapeHTML(typed[p] || (snap.names || {})[p] || "")}"></label>`).join("");
  }
  if (!form.dataset.touched) {
    form.elements.computer.checked = !!snap.computer;
    if (snap.computer) {
      form.elements.level.value = String(snap.computer.level);
      if (players.includes(snap.computer.plays)) select.value = snap.computer.plays;
    }
  }
}

function renderNewGame(snap) {
  const form = $("[data-role=new-game]");
  renderGameChoices();
  if (!form.dataset.touched) {
    setRadio(form, "game", snap.game);
    form.elements.takebacks.checked = snap.settings.takebacks;
    const clock = snap.clock;
    form.elements.clock.checked = clock != null;
    if (clock != null) {
      form.elements.minutes.value = String(+(clock.initial / 60).toFixed(2));
      form.elements.increment.value = String(clock.increment);
    }
  }
  renderSides(form, snap);
  showNewGameFields(form);
  const offered = $$("input[name=setup]", form).map((i) => i.value);
  if (!form.dataset.touched && offered.includes(snap.setup_mode)) setRadio(form, "setup", snap.setup_mode);
}

function chosenGame(form) {
  const chosen = $("input[name=game]:checked", form);
  return chosen ? chosen.value : (state.snap && state.snap.game) || "";
}

function setRadio(form, name, value) {
  for (const input of $$(`input[name=${name}]`, form)) input.checked = input.value === value;
}

// The chosen game's set-up modes and start options; the clock's numbers only matter with a clock.
function showNewGameFields(form) {
  const name = chosenGame(form), info = gameInfo(name), snap = state.snap;
  let modes = info.setup_modes || [];
  if (!modes.length && snap && snap.game === name && !snap.games) modes = snap.setup_modes || [];
  const choices = $("[data-role=setup-choices]");
  if (choices.dataset.modes !== modes.join(",")) {
    choices.innerHTML = modes.map((m) =>
      `<label><input type="radio" name="setup" value="${escapeHTML(m)}"> ${escapeHTML(SETUP_LABELS[m] || m)}</label>`).join("");
    choices.dataset.modes = modes.join(",");
    const current = snap && snap.game === name && modes.includes(snap.setup_mode) ? snap.setup_mode : modes[0];
    if (modes.length) setRadio(form, "setup", current);
  }
  $("[data-role=setup-modes]").hidden = !modes.length;
  const options = (info.options || []).filter((o) => o.choices && o.choices.length);
  const holder = $("[data-role=game-options]");
  const key = name + "|" + options.map((o) => o.flag).join(",");
  if (holder.dataset.key !== key) {
    holder.innerHTML = options.map((o) =>
      `<label title="${escapeHTML(o.help || "")}">${escapeHTML(o.flag)} <select data-option="${escapeHTML(o.flag)}">`
      + (o.default ? "" : `<option value="">default</option>`)
      + o.choices.map((c) => `<option value="${escapeHTML(c)}"${c === o.default ? " selected" : ""}>${escapeHTML(c)}</option>`).join("")
      + `</select></label>`).join("");
    holder.dataset.key = key;
  }
  holder.hidden = !options.length;
  for (const field of ["minutes", "increment"]) form.elements[field].disabled = !form.elements.clock.checked;
}

function chosenOptions(form) {
  const options = {};
  const info = gameInfo(chosenGame(form));
  const defaults = Object.fromEntries((info.options || []).map((o) => [o.flag, o.default]));
  for (const select of $$("[data-role=game-options] select[data-option]", form)) {
    if (select.value && select.value !== defaults[select.dataset.option]) options[select.dataset.option] = select.value;
  }
  return options;
}

// --- sound and voice -----------------------------------------------------------------------------------
const VOICE_DEFAULTS = { sound: "0", speech: "0", lang: "en", rate: "1", guide: "1" };

function voiceSetting(name) {
  let value = null;
  try { value = localStorage.getItem(`reedboard-${name}`); } catch (error) { /* storage blocked */ }
  return value == null ? VOICE_DEFAULTS[name] : value;
}

function storeVoiceSetting(name, value) {
  try { localStorage.setItem(`reedboard-${name}`, value); } catch (error) { /* storage blocked */ }
}

function speak(texts, lang) {
  const synth = window.speechSynthesis;
  if (!synth || typeof SpeechSynthesisUtterance === "undefined") return;
  const tag = SPEECH_LANGS[lang] || SPEECH_LANGS.en;
  const voice = synth.getVoices().find((v) => v.lang === tag)
    || synth.getVoices().find((v) => v.lang && v.lang.startsWith(tag.slice(0, 2)));
  for (const text of texts) {
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = tag;
    utterance.rate = Number(voiceSetting("rate")) || 1;
    if (voice) utterance.voice = voice;
    synth.speak(utterance);
  }
}

// Sound a new cue and say the new notes; the first snapshot after loading only sets the mark.
function announce(snap) {
  const cue = snap.cue || null;
  if (cue && state.cueN != null && cue.n !== state.cueN && cue.n > 0 && voiceSetting("sound") === "1") {
    playCue(cue.name);
  }
  if (cue) state.cueN = cue.n;
  const lang = voiceSetting("lang");
  const { say, heard } = announcements(state.heard, snap, lang);
  state.heard = heard;
  if (say.length && voiceSetting("speech") === "1") speak(say, lang);
}

function wireVoice() {
  const inputs = {};
  for (const input of $$("[data-setting]")) inputs[input.dataset.setting] = input;
  inputs.sound.checked = voiceSetting("sound") === "1";
  inputs.speech.checked = voiceSetting("speech") === "1";
  inputs.lang.value = SPEECH_LANGS[voiceSetting("lang")] ? voiceSetting("lang") : "en";
  inputs.rate.value = voiceSetting("rate");
  inputs.sound.addEventListener("change", () => {
    storeVoiceSetting("sound", inputs.sound.checked ? "1" : "0");
    if (inputs.sound.checked) playCue("move");  // this click is the gesture that lets audio play
  });
  const sayVoiceOn = () => {
    if (inputs.speech.checked) speak([voiceOnPhrase(inputs.lang.value)], inputs.lang.value);
  };
  inputs.speech.addEventListener("change", () => {
    storeVoiceSetting("speech", inputs.speech.checked ? "1" : "0");
    sayVoiceOn();
  });
  inputs.lang.addEventListener("change", () => {
    storeVoiceSetting("lang", inputs.lang.value);
    if (window.speechSynthesis) window.speechSynthesis.cancel();
    sayVoiceOn();
  });
  inputs.rate.addEventListener("change", () => {
    storeVoiceSetting("rate", inputs.rate.value);
    sayVoiceOn();
  });
  // sound remembered as on: the audio may start only after a gesture on this page
  const wake = () => { if (voiceSetting("sound") === "1") audioContext(); };
  document.addEventListener("pointerdown", wake, { once: true });
  document.addEventListener("keydown", wake, { once: true });
}

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// The message card's look, from what is asked of the players (the prompt) and the latest note.
const PROMPT_LOOKS = {
  put_back: "illegal", choose: "choose", clear: "setup", fill: "setup", place: "setup", identify: "setup",
  over: "over", computer: "computer",
};

function messageKind(snap) {
  if (snap.error) return "error";
  const prompt = snap.prompt || {};
  if (PROMPT_LOOKS[prompt.kind]) return PROMPT_LOOKS[prompt.kind];
  if (snap.phase === "over") return "over";
  if (snap.phase === "setup" || snap.phase === "identify") return "setup";
  const latest = (snap.notes || [])[0] || {};
  if (latest.kind === "takeback" || latest.kind === "amend") return "takeback";
  return "";
}

// --- the game clock: each player's time; the running one counts down here between snapshots --------
function clockSeconds(clock, player, now) {
  let left = Number(clock.remaining && clock.remaining[player]) || 0;
  if (clock.running === player && !clock.flagged) left -= (now - state.clockAt) / 1000;
  return Math.max(0, left);
}

function clockText(seconds) {
  const whole = Math.ceil(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function renderClock(snap) {
  const card = $("[data-role=clock]");
  const clock = snap.clock;
  card.hidden = clock == null;
  if (clock == null) { card.innerHTML = ""; return; }
  state.clockAt = performance.now();
  card.innerHTML = snap.players.map((p) =>
    `<div class="clock" data-player="${escapeHTML(p)}"><span class="who">${escapeHTML(cap(p))}</span>`
    + `<span class="time" data-role="clock-time"></span></div>`).join("");
  tickClock();
}

function tickClock() {
  const snap = state.snap, clock = snap && snap.clock;
  if (!clock) return;
  const now = performance.now();
  for (const face of $$("[data-role=clock] .clock")) {
    const p = face.dataset.player, left = clockSeconds(clock, p, now);
    face.querySelector(".time").textContent = clockText(left);
    face.dataset.running = clock.running === p ? "1" : "";
    face.dataset.low = (clock.low || []).includes(p) || (clock.running === p && clock.low_mark != null
      && left < clock.low_mark) ? "1" : "";
    face.dataset.flagged = clock.flagged === p ? "1" : "";
  }
}
setInterval(tickClock, 200);

function renderDie(snap) {
  const die = snap.die || { face: "blank", value: null, pips: 0 };
  const display = $("[data-role=die]");
  display.dataset.face = die.face;
  display.dataset.value = die.value == null ? "" : String(die.value);
  display.textContent = die.face === "value" ? String(die.value) : die.face === "error" ? "Err" : "";
  display.title = { blank: "no roll", rolling: "rolling", value: `shows ${die.value}`, error: `error (the roll was ${die.value})` }[die.face];
  const pips = $("[data-role=pips]");
  pips.dataset.pips = String(die.pips || 0);
  pips.dataset.rolling = die.face === "rolling" ? "1" : "";
}

function renderRecord(list, record, players, current) {
  list.innerHTML = "";
  record.forEach((move, i) => {
    const li = document.createElement("li");
    li.innerHTML = `<span class="number">${i + 1}.</span> <span class="move">${escapeHTML(move)}</span>`;
    li.dataset.player = players[i % 2];
    li.dataset.ply = String(i + 1);
    if (i === current) li.classList.add("current");
    list.appendChild(li);
  });
  // keep the current move in sight inside the list, without scrolling the page (on a phone the
  // list is below the board)
  const cur = list.querySelector(".current");
  if (cur) {
    if (cur.offsetTop < list.scrollTop) list.scrollTop = cur.offsetTop;
    else if (cur.offsetTop + cur.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = cur.offsetTop + cur.offsetHeight - list.clientHeight;
    }
  }
}

function miniPiece(piece) {
  const board = state.boards.get($("#board"));
  return `<svg viewBox="${-0.45 * U} ${-0.45 * U} ${0.9 * U} ${0.9 * U}" class="mini">${pieceSVG(piece, "", board && board.look)}</svg>`;
}

function renderTray(snap) {
  const tray = $("[data-role=tray]");
  tray.hidden = !snap.sim;
  if (!snap.sim) return;
  const hand = $("[data-role=hand]");
  const selected = snap.selected == null ? 0 : snap.selected;
  hand.innerHTML = snap.hand.length ? snap.hand.map((h, i) =>
    `<button type="button" class="held${i === selected ? " selected" : ""}" data-hand="${i}" data-piece="${escapeHTML(h.piece)}"`
    + ` title="${escapeHTML(h.piece)}${h.from ? " from " + escapeHTML(h.from) : ""}">${miniPiece(h.piece)}</button>`).join("")
    : `<span class="empty-note">empty</span>`;
  const box = $("[data-role=box]");
  const counts = new Map();
  snap.box.forEach((p, i) => { if (!counts.has(p)) counts.set(p, []); counts.get(p).push(i); });
  box.innerHTML = snap.box.length ? Array.from(counts.entries()).map(([p, idx]) =>
    `<button type="button" class="boxed" data-box="${idx[0]}" data-piece="${escapeHTML(p)}" title="take ${escapeHTML(p)}">`
    + `${miniPiece(p)}${idx.length > 1 ? `<sub>×${idx.length}</sub>` : ""}</button>`).join("")
    : `<span class="empty-note">empty</span>`;
  $("[data-action=aside]").disabled = !state.control || !snap.hand.length;
  const cursor = $("[data-role=cursor]");
  const inHand = snap.hand.length ? snap.hand[selected] || snap.hand[0] : null;
  cursor.innerHTML = inHand ? miniPiece(inHand.piece) : "";
  cursor.dataset.piece = inHand ? inHand.piece : "";
}

// the piece in hand follows the pointer over the board
let pointer = null;
function positionCursor() {
  const cursor = $("[data-role=cursor]");
  const show = pointer && cursor.dataset.piece && state.control;
  cursor.hidden = !show;
  if (show) cursor.style.transform = `translate(${pointer[0] + 14}px, ${pointer[1] + 10}px)`;
}

// --- the live connection ------------------------------------------------------------------------------
function connect() {
  const conn = $("[data-role=connection]");
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  state.ws = ws;
  ws.onopen = () => {
    state.seq = 0;           // a restarted server counts from the start again
    state.retry = 500;
    conn.dataset.state = "live";
    conn.textContent = "live";
  };
  ws.onmessage = (event) => render(JSON.parse(event.data));
  ws.onclose = () => {
    conn.dataset.state = "down";
    conn.textContent = "reconnecting";
    setTimeout(connect, state.retry);
    state.retry = Math.min(state.retry * 2, 5000);
  };
}

async function checkControl() {
  try {
    const response = await fetch("/api/auth", { headers: headers(false) });
    const auth = await response.json();
    state.control = auth.control;
    state.tokenRequired = auth.token_required;
  } catch (error) {
    state.control = false;
  }
  $("[data-role=watching]").hidden = state.control;
  $("[data-role=watch-note]").hidden = state.control || !state.tokenRequired;  // how to get control
  document.body.dataset.control = state.control ? "1" : "";
}

// --- the page's actions ----------------------------------------------------------------------------------
function wireLive() {
  $("#board").addEventListener("click", (event) => {
    const cell = event.target.closest("[data-cell]");
    if (!cell || !state.control || !state.snap || !state.snap.sim) return;
    post("/api/click", { cell: cell.dataset.cell });
  });
  const area = $("#live .board-area");
  area.addEventListener("pointermove", (event) => {
    const box = area.getBoundingClientRect();
    pointer = [event.clientX - box.left, event.clientY - box.top];
    positionCursor();
  });
  area.addEventListener("pointerleave", () => { pointer = null; positionCursor(); });
  $("[data-role=hand]").addEventListener("click", (event) => {
    const b = event.target.closest("[data-hand]");
    if (b && state.control) post("/api/select", { index: Number(b.dataset.hand) });
  });
  $("[data-role=box]").addEventListener("click", (event) => {
    const b = event.target.closest("[data-box]");
    if (b && state.control) post("/api/take", { index: Number(b.dataset.box) });
  });
  $("[data-action=aside]").addEventListener("click", () => {
    const snap = state.snap;
    post("/api/aside", snap && snap.selected != null ? { index: snap.selected } : {});
  });
  $("[data-action=die]").addEventListener("click", () => post("/api/press", { button: "die" }));
  $("[data-action=ok]").addEventListener("click", () => post("/api/press", { button: "ok" }));
  for (const b of $$("[data-action=resign]")) {
    b.addEventListener("click", () => {
      if (confirm(`${cap(b.dataset.player)} resigns?`)) post("/api/resign", { player: b.dataset.player });
    });
  }
  $("[data-action=hint]").addEventListener("click", () => post("/api/hint", {}));
  // the same game again: left out, the game, players, computer, clock and settings stay as they were
  $("[data-action=again]").addEventListener("click", () => post("/api/new", {}));
  $("[data-action=other-game]").addEventListener("click", () => {
    const details = $("details.new-game");
    details.open = true;
    details.scrollIntoView({ block: "start", behavior: "smooth" });
  });
  $("[data-action=draw]").addEventListener("click", () => {
    if (confirm("Both players agree to a draw?")) post("/api/draw", {});
  });
  const form = $("[data-role=new-game]");
  form.addEventListener("change", () => {
    form.dataset.touched = "1";
    if (state.snap && state.snap.players) renderSides(form, state.snap);  // the sides of the game picked
    showNewGameFields(form);
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {
      game: form.elements.game.value || undefined,
      empty: form.elements.empty.checked,
      settings: { takebacks: form.elements.takebacks.checked },
      clock: form.elements.clock.checked
        ? { minutes: Number(form.elements.minutes.value), increment: Number(form.elements.increment.value) || 0 }
        : null,
    };
    const setup = $("input[name=setup]:checked", form);
    if (setup && !$("[data-role=setup-modes]").hidden) body.setup = setup.value;
    const options = chosenOptions(form);
    if (Object.keys(options).length) body.options = options;
    body.computer = form.elements.computer.checked
      ? { level: Number(form.elements.level.value), plays: form.elements.plays.value } : null;
    const names = {};
    for (const input of $$("input[data-name]", form)) if (input.value.trim()) names[input.dataset.name] = input.value.trim();
    body.players = names;
    const done = await post("/api/new", body);
    if (done) { delete form.dataset.touched; form.closest("details").open = false; }
  });
}

// --- past games ----------------------------------------------------------------------------------------------
// The archive (GET /api/games): found by player, game, days and result, a page of games at a
// time, newest first. Opening one replays it move by move on the board drawing.
const GAMES_PAGE = 25;
const archive = { query: "", offset: 0, total: 0, stats: null };

function searchQuery() {
  const form = $("[data-role=games-search]");
  const params = new URLSearchParams();
  for (const name of ["player", "game", "since", "until", "result"]) {
    const value = form.elements[name].value.trim();
    if (value) params.set(name, value);
  }
  return params;
}

function fillSearchGames() {
  const select = $("[data-role=search-games]");
  const known = new Set($$("option", select).map((o) => o.value));
  for (const game of games()) {
    if (known.has(game.name)) continue;
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = game.title || game.name;
    select.appendChild(option);
  }
}

async function loadGames(offset = 0) {
  fillSearchGames();
  const params = searchQuery();
  const query = params.toString();
  params.set("limit", String(GAMES_PAGE));
  params.set("offset", String(offset));
  let listed;
  try {
    const response = await fetch(`/api/games?${params}`);
    listed = await response.json();
    if (!response.ok) { toast(listed.error || "cannot list the games"); return; }
    archive.total = Number(response.headers.get("X-Total-Count") || listed.length);
  } catch (error) { toast("cannot list the games"); return; }
  archive.query = query;
  archive.offset = offset;
  renderGames(listed);
  if (offset === 0) loadStats(params.get("player") || "");  // a new search, or the tab shown again
}

function playerNames(game) {
  const names = { ...(game.players || {}) };
  const computer = game.computer;
  if (computer && !names[computer.plays]) names[computer.plays] = `computer, level ${computer.level}`;
  return (game.colours || Object.keys(names)).filter((c) => names[c])
    .map((c) => `<span class="who" data-colour="${escapeHTML(c)}" title="${escapeHTML(c)}">${escapeHTML(names[c])}</span>`)
    .join(" – ");
}

function gameRow(g) {
  if (g.error) {
    return `<tr class="bad" data-damaged="${escapeHTML(g.name)}"><td colspan="5">${escapeHTML(g.error)}</td><td></td></tr>`;
  }
  const id = encodeURIComponent(g.name);
  const damaged = g.damaged
    ? ` <span class="damaged" data-role="game-note" title="${escapeHTML(g.damaged)}">(read up to a damaged line)</span>`
    : g.note ? ` <span class="damaged" data-role="game-note" title="${escapeHTML(g.note)}">(a torn last line left out)</span>` : "";
  return `<tr data-game="${escapeHTML(g.name)}" data-outcome="${escapeHTML(g.outcome || "")}">`
    + `<td>${escapeHTML((g.started || "").replace("T", " ").slice(0, 16))}</td>`
    + `<td>${escapeHTML(g.title || gameInfo(g.game).title)}</td><td>${playerNames(g)}</td><td data-label="moves">${g.moves}</td>`
    + `<td>${escapeHTML(g.result || "unfinished")}${damaged}</td>`
    + `<td class="row-actions"><button type="button" class="small" data-open="${escapeHTML(g.name)}">Replay</button> `
    + `<a href="/api/games/${id}/record?format=record" download title="the game record (docs/records.md)">record</a>`
    + ` <button type="button" class="small" data-owner-only data-delete="${escapeHTML(g.name)}" title="delete this game">delete</button></td></tr>`;
}

function renderGames(listed) {
  const body = $("[data-role=games] tbody");
  const empty = archive.query ? "no game matches the search" : "no games yet";
  body.innerHTML = listed.length ? listed.map(gameRow).join("")
    : `<tr><td colspan="6" class="empty-note">${empty}</td></tr>`;
  const first = listed.length ? archive.offset + 1 : 0;
  $("[data-role=games-count]").textContent = archive.total
    ? `${first}–${archive.offset + listed.length} of ${archive.total} game${archive.total === 1 ? "" : "s"}` : "";
  $("[data-page=newer]").disabled = archive.offset === 0;
  $("[data-page=older]").disabled = archive.offset + listed.length >= archive.total;
}

async function openGame(name) {
  const response = await fetch(`/api/games/${encodeURIComponent(name)}`);
  const data = await response.json();
  if (!response.ok) { toast(data.error || "cannot open the game"); return; }
  state.replay = data;
  state.ply = data.record.length;
  $("[data-role=replay]").hidden = false;
  $("[data-role=replay-title]").textContent = `${data.title || gameInfo(data.game).title}, ${data.started.replace("T", " ").slice(0, 16)}`;
  $("[data-role=replay-download]").href = `/api/games/${encodeURIComponent(name)}/record`;
  $("[data-role=replay-record-download]").href = `/api/games/${encodeURIComponent(name)}/record?format=record`;
  $("[data-role=replay-header]").innerHTML = data.header.slice(1).map((l) => `<div>${escapeHTML(l)}</div>`).join("");
  $("[data-role=replay-result]").textContent = (data.result || "unfinished") + (data.note ? ` · ${data.note}` : "");
  const slider = $("[data-role=replay-slider]");
  slider.max = String(data.record.length);
  const svg = $("#replay-board");
  const board = buildBoard(svg, data.geometry, data.cells, data.players);
  state.boards.set(svg, board);
  showPly(state.ply);
  $("[data-role=replay]").scrollIntoView({ block: "start", behavior: "smooth" });
}

function showPly(ply) {
  const data = state.replay;
  if (!data) return;
  ply = Math.max(0, Math.min(ply, data.record.length));
  state.ply = ply;
  const position = data.positions[ply];
  const cells = {};
  for (const cell of data.cells) {
    cells[cell] = { piece: position.pieces[cell] || "", light: position.last.includes(cell) ? "last" : "" };
  }
  paint(state.boards.get($("#replay-board")), cells, {}, false);
  $("[data-role=replay-ply]").textContent = `move ${ply} of ${data.record.length}`;
  $("[data-role=replay-slider]").value = String(ply);
  $("[data-role=replay-turn]").textContent = ply === data.record.length && data.result ? data.result : `${position.turn} to move`;
  $("[data-role=replay-score]").textContent = position.score
    ? data.players.map((p) => `${p} ${position.score[p]}`).join(" · ") : "";
  renderRecord($("[data-role=replay-record]"), data.record, data.players, ply - 1);
}

// --- a picture of the replayed position: the board drawing as a file of its own -----------------------------
// The page's stylesheet does not travel with a file, so each element takes its computed look
// along as a style; the gradients and filters come from the page's shared definitions.
const PICTURE_STYLE = {  // property -> its value by default (not written)
  fill: "rgb(0, 0, 0)", "fill-opacity": "1", stroke: "none", "stroke-width": "1px", "stroke-opacity": "1",
  "stroke-dasharray": "none", "stroke-linejoin": "miter", "stroke-linecap": "butt", opacity: "1", filter: "none",
  "font-size": "", "font-weight": "400", "font-family": "", "text-anchor": "start", "dominant-baseline": "auto",
  display: "inline", visibility: "visible",
};

function boardPicture(svg, title) {
  const copy = svg.cloneNode(true);
  const from = [svg, ...svg.querySelectorAll("*")], to = [copy, ...copy.querySelectorAll("*")];
  from.forEach((node, i) => {
    const look = getComputedStyle(node);
    const style = [];
    for (const [name, usual] of Object.entries(PICTURE_STYLE)) {
      const value = look.getPropertyValue(name);
      if (value && value !== usual) style.push(`${name}: ${value}`);
    }
    to[i].removeAttribute("class");
    to[i].removeAttribute("style");
    if (style.length) to[i].setAttribute("style", style.join("; "));
  });
  const [, , width, height] = (svg.getAttribute("viewBox") || "0 0 860 860").split(/\s+/).map(Number);
  copy.removeAttribute("id");
  copy.setAttribute("xmlns", SVGNS);
  copy.setAttribute("width", String(width));
  copy.setAttribute("height", String(height));
  const defs = document.querySelector("#board-defs defs");
  if (defs) copy.insertBefore(defs.cloneNode(true), copy.firstChild);
  const name = document.createElementNS(SVGNS, "title");
  name.textContent = title;
  copy.insertBefore(name, copy.firstChild);
  return { text: new XMLSerializer().serializeToString(copy), width, height };
}

function saveFile(blob, filename) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

async function savePicture(kind) {
  const data = state.replay;
  if (!data) return;
  const title = `${data.title || gameInfo(data.game).title}, ${data.started.slice(0, 10)}, after move ${state.ply}`;
  const picture = boardPicture($("#replay-board"), title);
  const filename = `${data.name.replace(/\.jsonl$/, "")}-move-${state.ply}.${kind}`;
  const svgBlob = new Blob([picture.text], { type: "image/svg+xml" });
  if (kind === "svg") { saveFile(svgBlob, filename); return; }
  const image = new Image();
  const url = URL.createObjectURL(svgBlob);
  try {
    image.src = url;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(picture.width);
    canvas.height = Math.round(picture.height);
    canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
    const png = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
    if (png) saveFile(png, filename); else toast("cannot make the picture");
  } catch (error) {
    toast("cannot make the picture");
  } finally {
    URL.revokeObjectURL(url);
  }
}

// --- statistics: per game and per player, drawn as bars (GET /api/stats) --------------------------------------
const RESULT_PARTS = [["wins", "won"], ["draws", "drawn"], ["losses", "lost"], ["unfinished", "unfinished"]];

// A bar of parts (each [key, count, words]) side by side, as wide as their total.
function bar(parts, label) {
  const total = parts.reduce((sum, [, n]) => sum + n, 0);
  let x = 0;
  const rects = parts.filter(([, n]) => n > 0).map(([key, n, words]) => {
    const width = (100 * n) / total;
    const rect = `<rect data-part="${key}" data-count="${n}" x="${x.toFixed(2)}" width="${width.toFixed(2)}" height="10"><title>${n} ${escapeHTML(words)}</title></rect>`;
    x += width;
    return rect;
  }).join("");
  return `<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="${escapeHTML(label)}">`
    + (total ? rects : `<rect class="nothing" width="100" height="10"/>`) + `</svg>`;
}

// "3 games: 2 finished, 10 moves on average; 1 unfinished": the average is the finished games'
function gamesText(g) {
  const finished = g.finished == null ? g.games : g.finished, open = g.games - finished;
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (!open) return plural(g.games, "game") + (g.average_moves !== null ? `, ${g.average_moves} moves on average` : "");
  return `${plural(g.games, "game")}: ${finished} finished`
    + (g.average_moves !== null ? `, ${g.average_moves} moves on average` : "") + `; ${open} unfinished`;
}

function countsText(entry, keys) {
  return keys.filter(([key]) => entry[key]).map(([key, words]) => `${entry[key]} ${words}`).join(" · ") || "none";
}

async function loadStats(player) {
  archive.stats = player;
  let stats;
  try {
    const response = await fetch(`/api/stats${player ? `?player=${encodeURIComponent(player)}` : ""}`);
    stats = await response.json();
    if (!response.ok) { toast(stats.error || "cannot load the statistics"); return; }
  } catch (error) { toast("cannot load the statistics"); return; }
  if (archive.stats === player) renderStats(stats);
}

function renderStats(stats) {
  const card = $("[data-role=stats]");
  $("[data-role=stats-who]").textContent = stats.player ? `· ${stats.player}` : "";
  if (!stats.player) {  // the names the search knows
    const names = [...new Set(stats.players.map((p) => p.player))];
    $("[data-role=archive-players]").innerHTML = names.map((n) => `<option value="${escapeHTML(n)}">`).join("");
  }
  $("[data-role=stats-games]").innerHTML = stats.games.map((g) => {
    const first = g.first;
    const colours = Object.entries(g.colours);
    return `<div class="stats-game" data-stats-game="${escapeHTML(g.game)}">`
      + `<h3>${escapeHTML(gameInfo(g.game).title)} <span class="muted">${gamesText(g)}</span></h3>`
      + `<div class="stats-line" data-stats="first"><span class="stats-label">first player</span>`
      + bar([["wins", first.wins, "won"], ["draws", first.draws, "drawn"], ["losses", first.losses, "lost"]],
        `the first player: ${countsText(first, RESULT_PARTS)}`)
      + `<span class="stats-counts">${first.wins}–${first.draws}–${first.losses}</span></div>`
      + `<div class="stats-line" data-stats="colours"><span class="stats-label">wins by colour</span>`
      + bar(colours.map(([colour, n]) => [colour, n, `won by ${colour}`]), `wins by colour`)
      + `<span class="stats-counts">${colours.map(([colour, n]) => `${escapeHTML(colour)} ${n}`).join(" · ")}</span></div></div>`;
  }).join("") || `<p class="empty-note">no finished games yet</p>`;
  const rows = stats.players.map((p) => `<tr data-stats-player="${escapeHTML(p.player)}" data-stats-game="${escapeHTML(p.game)}">`
    + `<td>${escapeHTML(p.player)}</td><td>${escapeHTML(gameInfo(p.game).title)}</td><td>${p.games}</td>`
    + `<td class="stats-bar">${bar(RESULT_PARTS.map(([key, words]) => [key, p[key], words]), `${p.player}: ${countsText(p, RESULT_PARTS)}`)}</td>`
    + `<td class="stats-counts" title="won–drawn–lost">${p.wins}–${p.draws}–${p.losses}</td></tr>`).join("");
  $("[data-role=stats-months]").innerHTML = monthsChart(stats.months || [], Boolean(stats.player));
  $("[data-role=stats-players]").innerHTML = rows
    ? `<table class="stats-table"><thead><tr><th>player</th><th>game</th><th>games</th><th>results</th><th>W–D–L</th></tr></thead><tbody>${rows}</tbody></table>`
      + `<p class="legend">${RESULT_PARTS.map(([key, words]) => `<span class="key" data-part="${key}"></span>${words}`).join(" ")}</p>`
    : `<p class="empty-note">no named players yet</p>`;
  card.dataset.player = stats.player || "";
}

// Results over time: a column a month (the last MONTHS_SHOWN with games), its parts stacked, as
// tall as its games against the busiest month's.
const MONTHS_SHOWN = 12;
const MONTH_PARTS = {
  player: [["wins", "won"], ["draws", "drawn"], ["losses", "lost"], ["unfinished", "unfinished"]],
  all: [["decided", "won by someone"], ["draws", "drawn"], ["unfinished", "unfinished"]],
};

function monthsChart(months, forPlayer) {
  if (!months.length) return "";
  const shown = months.slice(-MONTHS_SHOWN);
  const most = Math.max(...shown.map((m) => m.games));
  const parts = forPlayer ? MONTH_PARTS.player : MONTH_PARTS.all;
  const columns = shown.map((m) => {
    let y = 100;
    const rects = parts.filter(([key]) => m[key] > 0).map(([key, words]) => {
      const height = (100 * m[key]) / most;
      y -= height;
      return `<rect data-part="${key}" data-count="${m[key]}" x="0" y="${y.toFixed(2)}" width="10" height="${height.toFixed(2)}"><title>${m[key]} ${escapeHTML(words)}</title></rect>`;
    }).join("");
    const [year, month] = m.month.split("-").map(Number);
    const label = new Date(year, month - 1, 1).toLocaleString("en", { month: "short" }) + ` ${year}`;
    return `<div class="month" data-month="${escapeHTML(m.month)}" title="${escapeHTML(m.month)}: ${m.games} game${m.games === 1 ? "" : "s"}">`
      + `<span class="month-count">${m.games}</span>`
      + `<svg class="column" viewBox="0 0 10 100" preserveAspectRatio="none" aria-hidden="true">${rects}</svg>`
      + `<span class="month-name">${escapeHTML(label)}</span></div>`;
  }).join("");
  const legend = `<p class="legend">${parts.map(([key, words]) => `<span class="key" data-part="${key}"></span>${words}`).join(" ")}</p>`;
  // a player's months share the colours of the players' table below, and its legend
  return `<h3>Results by month</h3><div class="months" role="img" aria-label="results by month">${columns}</div>`
    + (forPlayer ? "" : legend);
}

function wireGames() {
  $("[data-role=games]").addEventListener("click", async (event) => {
    const b = event.target.closest("[data-open]");
    if (b) openGame(b.dataset.open);
    const doomed = event.target.closest("[data-delete]");
    if (doomed && confirm(`Delete the game ${doomed.dataset.delete}? Its journal and trace are removed.`)) {
      if (await post("/api/archive/delete", { id: doomed.dataset.delete })) loadGames(archive.offset);
    }
  });
  $("[data-role=rename-player]").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const done = await post("/api/archive/rename-player", { old: form.elements.old.value, new: form.elements.new.value });
    if (done) {
      toast(`renamed in ${done.renamed} game${done.renamed === 1 ? "" : "s"}`);
      form.reset();
      loadGames(archive.offset);
    }
  });
  const form = $("[data-role=games-search]");
  form.addEventListener("submit", (event) => { event.preventDefault(); loadGames(0); });
  form.addEventListener("reset", () => setTimeout(() => loadGames(0)));  // once the fields are cleared
  $("[data-page=newer]").addEventListener("click", () => loadGames(Math.max(0, archive.offset - GAMES_PAGE)));
  $("[data-page=older]").addEventListener("click", () => loadGames(archive.offset + GAMES_PAGE));
  for (const a of $$("[data-role=replay-picture]")) {
    a.addEventListener("click", (event) => { event.preventDefault(); savePicture(a.dataset.kind); });
  }
  const step = { first: () => 0, prev: () => state.ply - 1, next: () => state.ply + 1, last: () => Infinity };
  for (const b of $$("[data-replay]")) b.addEventListener("click", () => showPly(step[b.dataset.replay]()));
  $("[data-role=replay-slider]").addEventListener("input", (event) => showPly(Number(event.target.value)));
  $("[data-role=replay-record]").addEventListener("click", (event) => {
    const li = event.target.closest("li");
    if (li) showPly(Number(li.dataset.ply));
  });
  document.addEventListener("keydown", (event) => {
    if ($("#games").hidden || !state.replay || event.target.closest("input, textarea, select")) return;
    if (event.key === "ArrowLeft") showPly(state.ply - 1);
    if (event.key === "ArrowRight") showPly(state.ply + 1);
  });
}

// --- the rules ------------------------------------------------------------------------------------------------
// Each game's rules in words, its example positions drawn by the same board drawing as the live
// game, and the meaning of every light. The game being played is shown first.
async function showRules(game) {
  state.rulesGame = game;
  markRulesGame(game);
  const page = await rulesPage(game);
  if (!page) { toast("cannot load the rules"); return; }
  if (state.rulesGame === game) renderRules(page);
}

function markRulesGame(game) {
  for (const b of $$("[data-rules-game]")) {
    b.classList.toggle("active", b.dataset.rulesGame === game);
    b.setAttribute("aria-pressed", b.dataset.rulesGame === game ? "true" : "false");
  }
}

// A game's rules page (GET /api/rules/GAME), asked for once; null when it cannot be had.
async function rulesPage(game) {
  let page = state.rules.get(game);
  if (page) return page;
  try {
    const response = await fetch(`/api/rules/${encodeURIComponent(game)}`);
    page = await response.json();
    if (!response.ok) throw new Error(page.error);
  } catch (error) {
    return null;
  }
  state.rules.set(game, page);
  return page;
}

function renderRules(page) {
  const root = $("[data-role=rules]");
  delete root.dataset.game;
  $("[data-role=rules-title]").textContent = `${page.title}: the rules`;
  $("[data-role=rules-text]").innerHTML = page.sections.map((section) =>
    `<h2>${escapeHTML(section.title)}</h2><ul>${section.points.map((p) => `<li>${escapeHTML(p)}</li>`).join("")}</ul>`).join("");
  const diagrams = $("[data-role=diagrams]");
  diagrams.innerHTML = "";
  for (const diagram of page.diagrams) {
    const figure = document.createElement("figure");
    figure.className = "diagram card";
    figure.dataset.diagram = diagram.id;
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("class", "board rule-board");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", diagram.title);
    figure.appendChild(svg);
    const caption = document.createElement("figcaption");
    caption.innerHTML = `<b>${escapeHTML(diagram.title)}.</b> ${escapeHTML(diagram.caption)}`
      + (diagram.moves.length ? ` <span class="moves">${diagram.moves.map(escapeHTML).join(", ")}</span>` : "");
    figure.appendChild(caption);
    diagrams.appendChild(figure);
    const board = buildBoard(svg, diagram.geometry, diagram.cells, page.players);
    const cells = {};
    for (const cell of diagram.cells) cells[cell] = { piece: diagram.pieces[cell] || "", light: diagram.lights[cell] || "" };
    paint(board, cells, page.palette, false);
    if (diagram.arrow) drawArrow(svg, board, diagram.arrow[0], diagram.arrow[1]);
  }
  const palette = { ...page.palette, ...(state.snap && state.snap.palette) };
  $("[data-role=lights]").innerHTML = page.lights.map((light) => {
    // "last" is drawn brighter on screen than its LED colour, as on the board above
    const colour = light.name === "last" ? lightColour("last", palette) : palette[light.name] || light.colour || "";
    return `<div class="light-row" data-light-name="${escapeHTML(light.name)}" data-colour="${escapeHTML(colour)}">`
      + lightSwatch(light.name, colour, light.blink)
      + `<div class="light-name"><b>${escapeHTML(light.name)}</b><span>${escapeHTML(light.look)}</span></div>`
      + `<div class="light-means">${escapeHTML(light.means)}</div>`
      + `<div class="light-do">${escapeHTML(light.do)}</div></div>`;
  }).join("");
  root.dataset.game = page.game;  // set last: the page is complete
}

// A light as a hollow of the board shows it (the same look as the board's cells).
function lightSwatch(name, colour, blink) {
  return `<svg class="swatch" viewBox="${-0.6 * U} ${-0.6 * U} ${1.2 * U} ${1.2 * U}" aria-hidden="true">`
    + `<g class="cell" data-light="${escapeHTML(name)}" data-blink="${blink ? "1" : ""}" style="--light: ${colour || "transparent"}">`
    + `<circle class="glow" r="${0.56 * U}"/><circle class="ring" r="${0.43 * U}"/><circle class="hollow" r="${0.34 * U}"/>`
    + `</g></svg>`;
}

// The way a diagram's move went: from the cell it left to the cell it reached.
function drawArrow(svg, board, from, to) {
  const a = board.cells.get(from), b = board.cells.get(to);
  if (!a || !b) return;
  const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
  const ux = dx / len, uy = dy / len;
  const ends = {
    x1: (a.x + ux * 0.2 * U).toFixed(1), y1: (a.y + uy * 0.2 * U).toFixed(1),
    x2: (b.x - ux * 0.32 * U).toFixed(1), y2: (b.y - uy * 0.32 * U).toFixed(1),
  };
  const layer = el("g", { class: "arrows", "data-arrow": `${from}-${to}` }, svg);
  el("line", { ...ends, class: "arrow-shadow" }, layer);
  el("line", { ...ends, class: "arrow", "marker-end": "url(#m-arrow)" }, layer);
}

function wireRules() {
  $("[data-role=rules-games]").addEventListener("click", (event) => {
    const b = event.target.closest("[data-rules-game]");
    if (b) showRules(b.dataset.rulesGame);
  });
}

function showTab(name) {
  for (const t of $$("[data-tab]")) t.classList.toggle("active", t.dataset.tab === name);
  for (const view of ["live", "games", "rules"]) $(`#${view}`).hidden = view !== name;
  if (name === "games") loadGames();
  const first = games()[0];
  if (name === "rules") showRules(state.rulesGame || (state.snap && state.snap.game) || (first && first.name));
}

function wireTabs() {
  for (const tab of $$("[data-tab]")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
}

// the first-game guide open until it is closed once (remembered in this browser)
function wireGuide() {
  const guide = $("[data-role=guide]");
  guide.open = voiceSetting("guide") !== "0";
  guide.addEventListener("toggle", () => storeVoiceSetting("guide", guide.open ? "1" : "0"));
}

wireTabs();
wireGuide();
wireLive();
wireGames();
wireRules();
wireVoice();
Promise.all([checkControl(), loadCatalog()]).then(() => {
  connect();
  if (state.snap) { const s = state.snap; state.seq = 0; render(s); }
});
