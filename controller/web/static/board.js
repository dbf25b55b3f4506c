// The board drawing: every board is drawn from the geometry the server sends (Game.geometry()),
// for the live game, a replayed one and the rules' diagrams alike; then painted with its cells.
import { escapeHTML } from "./dom.js";
import { N_, _ } from "./i18n.js";
import { cellPicture } from "./pieces.js";
import { SVGNS, U, el } from "./svg.js";

// --- geometry --------------------------------------------------------------------------------------
// Every board is drawn from the geometry the server sends (Game.geometry()): each cell's [x, y]
// in hollow pitches (y downwards), the outline's corner cells, the rim sectors' points, the cell
// to label as the goal, and the colours of single-letter marbles. `shape` picks the drawing.
const SHAPES = {
  triangle: { margin: 1.45 },   // the wood around the outer hollows, in pitches
  hexagon: { margin: 1.45 },
};
const SECTOR_MARGIN = 2.75;  // a board with scoring troughs on its rim needs room for them
// The troughs are drawn this far (in pitches) beyond the points a push-off reaches, so that the
// rim's letters find room between the outer hollows and the troughs.
const TROUGH_OUT = 0.3;

const scaled = ([x, y]) => [x * U, y * U];

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
export function buildBoard(svg, geometry, cells, players) {
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
    // the hollow to reach, named by what it is (its name is on the rim): drawn again in the
    // language chosen (data-i18n)
    const [ax, ay] = xy(geometry.goal);
    const label = el("text", { x: ax, y: ay - 0.72 * U, class: "goal-label", "data-i18n": "", "data-goal": geometry.goal }, frame);
    // TRANSLATORS: the label over the hollow a game's stones must reach (the top of a triangular board)
    label.dataset.i18nText = N_("goal");
    label.textContent = _(label.dataset.i18nText);
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
  drawRimLabels(rim, cells.filter((c) => !board.sectorAt.has(c) && place[c]), xy, sectors.length ? 0.66 : 0.8,
    geometry.shape === "triangle");
  return board;
}

// The rim's names for boards whose hollows are named by a letter and a number (a1, C4): each
// letter beside the first hollow of its row, each number beyond the first hollow of its line,
// so that a move such as C4C5D5 can be found with pieces on every hollow. On a triangle the
// letters name the hollows of its bottom row: each stands right under its hollow (g under g1,
// the one hollow of its line), and every row has its number, the top one's too.
function drawRimLabels(frame, cells, xy, out, triangle) {
  const named = cells.map((c) => /^([A-Za-z])(\d+)$/.exec(c));
  if (!named.length || named.some((m) => !m)) return;
  const label = ([x, y], text) =>
    el("text", { x: x.toFixed(1), y: y.toFixed(1), class: "rim-label", "data-rim": text }, frame).textContent = text;
  const lines = (key, order) => {
    const by = new Map();
    for (const m of named) {
      if (!by.has(key(m))) by.set(key(m), []);
      by.get(key(m)).push(m);
    }
    for (const line of by.values()) line.sort((a, b) => order(a) - order(b));
    return by;
  };
  const beyond = (line, along) => {  // the label's place beyond the line's first hollow
    const [x0, y0] = xy(line[0][0]);
    return [x0 + along[0] * out * U, y0 + along[1] * out * U];
  };
  const direction = (line) => {  // from the line's second hollow to its first
    const [x0, y0] = xy(line[0][0]), [x1, y1] = xy(line[1][0]);
    const len = Math.hypot(x0 - x1, y0 - y1) || 1;
    return [(x0 - x1) / len, (y0 - y1) / len];
  };
  const rows = lines((m) => m[2], (m) => m[1].toLowerCase().charCodeAt(0));
  const files = lines((m) => m[1], (m) => Number(m[2]));
  if (triangle) {
    const along = direction([...rows.values()].find((line) => line.length > 1) || [[0], [0]]);
    for (const [text, line] of files) label(beyond(line, [0, 1]), text);
    for (const [text, line] of rows) label(beyond(line, line.length > 1 ? direction(line) : along), text);
    return;
  }
  for (const by of [files, rows]) {
    for (const [text, line] of by) if (line.length > 1) label(beyond(line, direction(line)), text);
  }
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
  // drawn a little beyond its points, square to its length (outwards), with its hollow
  const [first, last] = [line[0], line[line.length - 1]];
  let [nx, ny] = [last[1] - first[1], first[0] - last[0]];
  const nlen = Math.hypot(nx, ny);
  [nx, ny] = nlen > 1 ? [nx / nlen, ny / nlen] : [ux, uy];  // one point: outwards from the middle
  if (nx * ux + ny * uy < 0) [nx, ny] = [-nx, -ny];
  const shift = TROUGH_OUT * U;
  const g = el("g", { class: `sector v${Math.min(sector.value, 3)}` }, frame);
  el("polyline", { points: pts(line.map(([x, y]) => [x + nx * shift, y + ny * shift])), class: "trough" }, g);
  const lx = mx + ux * (0.72 * U + shift), ly = my + uy * (0.72 * U + shift);
  el("circle", { cx: lx, cy: ly, r: 0.22 * U, class: "value-badge" }, g);
  el("text", { x: lx, y: ly + 1, class: "value" }, g).textContent = `${sector.value}`;
  board.sectorAt.set(sector.name, [mx + nx * shift, my + ny * shift]);
}

export function paint(board, cells, palette, sim) {
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

export function lightColour(name, palette) {
  if (name === "last") return "rgba(255,255,255,.55)";   // dim white on the LEDs; visible on screen
  return (palette && palette[name]) || "#fff";
}


// A light as a hollow of the board shows it (the same look as the board's cells).
export function lightSwatch(name, colour, blink) {
  return `<svg class="swatch" viewBox="${-0.6 * U} ${-0.6 * U} ${1.2 * U} ${1.2 * U}" aria-hidden="true">`
    + `<g class="cell" data-light="${escapeHTML(name)}" data-blink="${blink ? "1" : ""}" style="--light: ${colour || "transparent"}">`
    + `<circle class="glow" r="${0.56 * U}"/><circle class="ring" r="${0.43 * U}"/><circle class="hollow" r="${0.34 * U}"/>`
    + `</g></svg>`;
}

// The way a diagram's move went: from the cell it left to the cell it reached.
export function drawArrow(svg, board, from, to) {
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
