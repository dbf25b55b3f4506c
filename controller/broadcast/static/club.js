// The club's page: every board as a small drawing with its players, score and last move, and the
// evening's standings, from the club's WebSocket (/ws). A click opens the board's own page.
"use strict";
const SVGNS = "http://www.w3.org/2000/svg";
const U = 64;
const $ = (sel, root = document) => root.querySelector(sel);
const geometries = new Map();   // game id -> its geometry (GET /api/boards/NAME), or null while asked
const COLOURS = { white: "#f4f1ea", black: "#23262b", red: "#c0392b", yellow: "#f1c40f", ball: "#a9b2bc" };

function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function pieceColour(piece, geometry, colours) {
  if (piece === "ball") return ["ball", ""];
  const marbles = geometry.marbles || {};
  if (marbles[piece]) return [marbles[piece], ""];
  const player = (colours || []).find((p) => p[0].toUpperCase() === piece[0]);
  return [player || (piece[0] === "B" ? "black" : "white"), piece.slice(1)];
}

// Where each cell is drawn: its place, or for a scoring trough the middle of its points.
function places(geometry) {
  const at = new Map(Object.entries(geometry.cells || {}));
  for (const sector of geometry.sectors || []) {
    const n = sector.points.length || 1;
    at.set(sector.name, [sector.points.reduce((s, p) => s + p[0], 0) / n, sector.points.reduce((s, p) => s + p[1], 0) / n]);
  }
  return at;
}

function drawBoard(svg, geometry, position, colours) {
  const at = places(geometry);
  const xs = [...at.values()].map((p) => p[0] * U), ys = [...at.values()].map((p) => p[1] * U);
  const pad = 0.8 * U;
  const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
  svg.setAttribute("viewBox", `${minX} ${minY} ${Math.max(...xs) - minX + pad} ${Math.max(...ys) - minY + pad}`);
  const outline = (geometry.outline || []).map(([x, y]) => `${x * U},${y * U}`).join(" ");
  let out = outline ? `<polygon class="wood" points="${outline}" stroke-linejoin="round" stroke-width="${1.3 * U}" stroke="#6b4a2b"/>` : "";
  for (const [cell, [x, y]] of at) {
    out += `<circle class="hollow" cx="${x * U}" cy="${y * U}" r="${0.3 * U}"/>`;
    const piece = position[cell];
    if (!piece) continue;
    const [colour, number] = pieceColour(piece, geometry, colours);
    out += `<g class="pc stone ${escapeHTML(colour)}" data-cell="${escapeHTML(cell)}" transform="translate(${x * U} ${y * U})">`
      + `<circle r="${0.36 * U}" fill="${COLOURS[colour] || COLOURS.ball}" stroke="#000" stroke-opacity=".4"/>`
      + (number ? `<text class="num">${escapeHTML(number)}</text>` : "") + "</g>";
  }
  svg.innerHTML = out;
}

async function geometryOf(board) {
  if (!board.game) return null;
  if (geometries.has(board.game)) return geometries.get(board.game);
  geometries.set(board.game, null);
  try {
    const detail = await (await fetch(`/api/boards/${encodeURIComponent(board.name)}`)).json();
    if (detail.game === board.game) geometries.set(board.game, detail.geometry);
    else geometries.delete(board.game);
  } catch (error) {
    geometries.delete(board.game);
  }
  return geometries.get(board.game);
}

function playersText(board) {
  return (board.colours || []).map((c) => `${escapeHTML(board.players[c] || c)} <span class="title">(${escapeHTML(c)})</span>`).join(" – ");
}

function card(board) {
  let node = document.querySelector(`[data-board="${CSS.escape(board.name)}"]`);
  if (!node) {
    node = document.createElement("a");
    node.className = "card";
    node.dataset.board = board.name;
    node.href = `/board/${encodeURIComponent(board.name)}/`;
    node.innerHTML = `<h3><span class="name"></span><span class="dot"></span></h3><div class="title"></div>`
      + `<svg xmlns="${SVGNS}" role="img"></svg><div class="players"></div><div class="score"></div><div class="last"></div>`;
    const list = $("[data-role=boards]");
    const after = [...list.children].find((c) => c.dataset.board > board.name);
    list.insertBefore(node, after || null);
  }
  return node;
}

function renderBoard(board) {
  const node = card(board);
  $(".name", node).textContent = board.name;
  const dot = $(".dot", node);
  dot.dataset.online = board.online === false ? "no" : board.online ? "yes" : "";
  dot.textContent = board.online === false ? "offline" : board.online ? "live" : "";
  $(".title", node).textContent = board.title ? `${board.title} · ${board.moves} moves` : "no game yet";
  $(".players", node).innerHTML = playersText(board);
  $(".score", node).textContent = board.score
    ? Object.entries(board.score).map(([p, n]) => `${p} ${n}`).join(" · ") : "";
  const last = $(".last", node);
  if (board.result) {
    last.innerHTML = `<span class="result">${escapeHTML(board.result.line)}${board.result.winner ? ` · ${escapeHTML(board.result.winner)} wins` : " · draw"}</span>`;
  } else {
    const roll = board.roll ? ` (rolled ${board.roll})` : "";
    last.innerHTML = `${board.last_move ? `last: <b>${escapeHTML(board.last_move)}</b> · ` : ""}`
      + (board.to_move ? `<span class="to-move">${escapeHTML(board.to_move)} to move${roll}</span>` : "");
  }
  node.dataset.seq = board.seq;
  node.dataset.moves = board.moves;
  const svg = $("svg", node);
  const key = `${board.game}|${board.seq}`;
  if (svg.dataset.key === key) return;
  geometryOf(board).then((geometry) => {
    if (!geometry) return;
    drawBoard(svg, geometry, board.position || {}, board.colours);
    svg.dataset.key = key;
  });
}

function renderStandings(rows) {
  $("[data-role=standings] tbody").innerHTML = rows.map((r, i) =>
    `<tr><td>${i + 1}</td><td>${escapeHTML(r.player)}</td><td>${r.games}</td><td>${r.wins}</td><td>${r.draws}</td>`
    + `<td>${r.losses}</td><td>${r.points}</td></tr>`).join("");
}

function render(data) {
  const link = $("[data-role=link]");
  link.dataset.state = data.connected ? "live" : "down";
  link.textContent = data.connected ? "broker connected" : "broker unreachable: waiting";
  for (const board of data.boards) renderBoard(board);  // every board at first ("full"), then those changed
  $("[data-role=empty]").hidden = document.querySelector("[data-board]") !== null;
  renderStandings(data.standings);
}

let retry = 500;
function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ws.onopen = () => { retry = 500; };
  ws.onmessage = (event) => render(JSON.parse(event.data));
  ws.onclose = () => {
    const link = $("[data-role=link]");
    link.dataset.state = "down";
    link.textContent = "club server unreachable: reconnecting";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}
connect();
